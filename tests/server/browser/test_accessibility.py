"""axe-core on every kind of page: the home page, each game's new-game form and rules page,
a page that is not there, the deck builder, the lobby, /me, a player's page and each
leaderboard, and each game finished (its page and its replay at the first and the last
step). The games in play, dialogs, chat, the reveal, the lobby with an open game, the
take-seat form and the phone layouts are audited where their own tests visit them (and
every page a test leaves is audited once more, conftest.device). 0 serious or critical
violations."""

from __future__ import annotations

import random
import re

import pytest
from playwright.sync_api import Page, expect

from quarkade import list_games, load_game
from quarkade.core.registry import game_class
from quarkade.core.rng import random_playout
from tests.server.browser.accessibility import audit
from tests.server.browser.helpers import store_actions, take_seat


def test_the_site_pages(page: Page, server) -> None:
    page.goto(server.url)
    audit(page, "the home page")
    for game in list_games():
        page.goto(f"{server.url}new/{game}")
        audit(page, f"the new {game} form")
        page.goto(f"{server.url}rules/{game}")
        audit(page, f"the {game} rules")
    page.goto(f"{server.url}no/such/page")
    audit(page, "a page that is not there")
    page.goto(f"{server.url}decks/decoherence")
    expect(page.locator("#deck-check")).not_to_be_empty()
    audit(page, "the deck builder")
    # The players' pages (issue 15): the lobby, /me, a player's page, the leaderboards.
    page.goto(f"{server.url}lobby")
    expect(page.locator("#open-games")).to_have_attribute("data-count", re.compile(r"\d"))
    audit(page, "the lobby")
    page.select_option("#quick-game", "hadronize")  # quick play's deck: Decoherence only
    expect(page.locator("label.quick-deck")).to_be_hidden()
    page.select_option("#quick-game", "decoherence")
    expect(page.locator("label.quick-deck")).to_be_visible()
    audit(page, "the lobby's quick play with a deck")
    page.goto(f"{server.url}me")
    name = page.locator("#me").get_attribute("data-name")
    audit(page, "/me")
    page.goto(f"{server.url}players/{name}")
    audit(page, "a player's page")
    for game in list_games():
        page.goto(f"{server.url}leaderboard/{game}")
        audit(page, f"the {game} leaderboard")


@pytest.mark.parametrize("game", list_games())
def test_a_finished_game_and_its_replay(page: Page, server, game) -> None:
    loaded = load_game(game)
    final = random_playout(loaded.new_initial_state(), random.Random(1))
    replay = loaded.new_initial_state()
    played = []
    for action in final.history():
        played.append((replay.current_player(), action))
        replay.apply_action(action)
    bots = {seat: "random" for seat in range(1, loaded.num_players)}
    game_id, tokens, _ = store_actions(server.db, game, dict(loaded.options), played, final,
                                       bots, reveal=not game_class(game).perfect_information)
    take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
    expect(page.locator("#game")).to_have_attribute("data-over", "yes")
    audit(page, f"{game} finished")
    page.goto(f"{server.url}games/{game_id}/replay?seat=0")
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    audit(page, f"the {game} replay at its start")
    page.keyboard.press("End")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(len(played)))
    audit(page, f"the {game} replay at its end")
