"""The bot ladder in a real browser: `quarkade ladder hadronize` writes its page, which
opens on its own, and the web app's Ladder pages show the same tables."""

from __future__ import annotations

import json

from playwright.sync_api import Browser, Page, expect
from typer.testing import CliRunner

from quarkade.cli.main import app
from quarkade.server.run import ServerThread


def test_the_ladder_page_and_the_web_apps_ladder_show_every_bot(rogue_bots, browser: Browser,
                                                                server: ServerThread,
                                                                page: Page):
    results = server.settings["ladder_dir"]
    made = CliRunner().invoke(app, ["ladder", "hadronize", "--players", "3", "--players", "4",
                                    "--games", "3", "--seed", "2", "--workers", "1",
                                    # the well-behaved plug-in (a hung one costs its
                                    # move time in every game it plays)
                                    "--agents", "easy,medium,hard,steady",
                                    "--results", str(results)])
    assert made.exit_code == 0, made.output
    ladder = json.loads((results / "hadronize" / "ladder.json").read_text())
    three = [row["label"] for row in ladder["tables"][0]["rows"]]
    assert sorted(three) == ["easy (random)", "hard (rollout:playouts=3000,margin=1,time=0.3)",
                             "medium (greedy)", "steady"]

    # The written page, opened from disk: self-contained, every table and row.
    alone = browser.new_page()
    try:
        alone.goto((results / "hadronize" / "ladder.html").as_uri())
        expect(alone.locator("h1")).to_have_text("Hadronize ladder")
        expect(alone.locator("h2")).to_have_text(["3 players (12 games)", "4 players (3 games)"])
        first = alone.locator("table").first.locator("tbody tr")
        expect(first).to_have_count(len(three))
        expect(first.locator("td:nth-child(2)")).to_have_text(three)
    finally:
        alone.close()

    # The web app: Ladder in the site's menu, then the game's ladder.
    page.goto(server.url)
    page.get_by_role("navigation", name="site").get_by_role("link", name="Ladder").click()
    expect(page.locator("h1")).to_have_text("Bot ladders")
    page.get_by_role("link", name="Hadronize").click()
    expect(page).to_have_url(server.url + "ladder/hadronize")
    expect(page.locator(".ladder h2")).to_have_text(["3 players (12 games)",
                                                     "4 players (3 games)"])
    rows = page.locator(".ladder table").first.locator("tbody tr")
    expect(rows.locator("td:nth-child(2)")).to_have_text(three)
    expect(rows.first.locator("td:first-child")).to_have_text("1")
