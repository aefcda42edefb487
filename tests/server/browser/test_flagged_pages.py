"""A game whose plug-in bot was stopped, on its page: the result says so in a sentence with
the bot's name (never its seat number or its spec), and the bot's seat is tagged."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import expect

from quarkade.server.run import ServerThread


@pytest.fixture
def server(tmp_path: Path, rogue_bots: Path) -> Iterator[ServerThread]:
    """A server that allows the raiser (tests/rogues.py), which raises at its first move."""
    with ServerThread(f"sqlite:///{tmp_path / 'flagged.db'}", allow_bots=["raiser"],
                      move_time=15.0) as running:
        yield running


def test_a_stopped_bot_is_named_in_the_result(device, server):
    page = device()
    page.goto(f"{server.url}lobby")
    made = page.request.post(f"{server.url}api/games", data={
        "game": "hadronize", "seats": ["bot:raiser:at=1", "bot:random"]},
        headers={"Origin": server.url.rstrip("/")})
    assert made.status == 201, made.text()
    page.goto(f"{server.url}games/{made.json()['id']}")
    result = page.locator("#result")
    expect(result).to_contain_text("The result is flagged. At its move 1, Raiser bot raised "
                                   "ZeroDivisionError; its seat plays random moves from here.")
    expect(result).not_to_contain_text("raiser:")
    expect(page.locator("#seats li").first).to_contain_text("bot stopped: plays random")
