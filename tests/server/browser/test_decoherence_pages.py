"""Decoherence in a real browser: a whole game against a bot by clicking (some moves by
keyboard), with the lit places of every picked card checked against the legal moves; and
two devices at one table by invite link, each page showing its own hand and never the
other's, checked against the engine's view of each seat; a spectator and the replay page,
which show both hands only as counts."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Page, expect

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.core.protocol import SPECTATOR, State
from quarkade.games.decoherence.notation import WORDS
from quarkade.server.storage import Store
from quarkade.sim import play_match
from tests.server.browser.accessibility import audit
from tests.server.browser.conftest import PHONE
from tests.server.browser.decoherence import (
    MY_TURN_OR_OVER,
    STEP_CHANGED,
    choose,
    listed_moves,
    make_move,
    play_turns,
    start_game,
    stored_game,
)
from tests.server.browser.helpers import moved, my_name


def test_a_whole_game_against_a_bot_played_by_clicking(page: Page, server) -> None:
    start_game(page, server.url, "bot:greedy")
    expect(page.locator(".dc-seat")).to_have_count(2)
    page.wait_for_function(MY_TURN_OR_OVER)
    audit(page, "Decoherence in play")
    expect(page.locator(".dc-bottom .dc-name")).to_have_text(f"{my_name(page)} (you)")
    played = play_turns(page, 400, random.Random(8), keyboard_every=3)
    assert 0 < played < 400, played
    expect(page.locator("#game")).to_have_attribute("data-over", "yes")
    expect(page.locator("#result")).to_contain_text("Game over:")
    expect(page.locator(".dc-banner .dc-head")).to_contain_text("Game over after")
    # It is said to this page's player: "you win" or "Greedy bot wins. You ...".
    expect(page.locator(".dc-banner .dc-head")).to_contain_text(
        re.compile(r": (you win|Greedy bot wins\. You [a-z]|both lose)"))
    expect(page.locator(".dc-banner .dc-head")).not_to_contain_text("(you)")
    expect(page.locator(".dc-hand-mine button")).to_have_count(0)  # nothing to play now
    expect(page.locator("#rematch")).to_be_visible()
    assert page.locator("#log li").count() > 5


def true_state(server, page: Page) -> tuple[State, int]:
    """The game's state at the step the page shows, replayed from the server's storage."""
    game_id = re.sub(r"\?.*", "", page.url).rsplit("/", 1)[1]
    step = int(page.locator("#game").get_attribute("data-step") or "0")
    store = Store(server.db)
    try:
        stored = store.games.load(game_id)
    finally:
        store.close()
    assert stored is not None
    state = load_game(stored.game, **stored.options).new_initial_state()
    for action in stored.actions[:step]:
        state.apply_action(action)
    return state, step


def check_secrets(page: Page, seat: int, state: State) -> None:
    """The page of ``seat`` shows its own hand as the engine's view has it, the other hand
    only as a count of card backs, and the other side's unseen nouns as hidden."""
    view = state.view(seat)
    other = 1 - seat
    table = page.locator("#table .dc")
    mine = table.locator(".dc-hand-mine .dc-card").evaluate_all(
        "(els) => els.map((e) => e.dataset.word)")
    assert sorted(mine) == sorted(view["hand"]), (seat, mine, view["hand"])
    assert table.locator(".dc-card").count() == len(view["hand"])  # no card face elsewhere
    theirs = table.locator(".dc-hand-hidden")
    expect(theirs).to_have_count(1)
    expect(theirs.locator(".dc-back")).to_have_count(view["hand_sizes"][other])
    text = theirs.inner_text().lower()
    assert not any(re.search(rf"(?<![\w']){re.escape(word)}(?![\w'])", text)
                   for word in WORDS), text
    assert re.search(rf"\b{view['hand_sizes'][other]} cards?\b", text), text
    hidden_words = state.hand(other)
    assert all(f'data-word="{word}"' not in theirs.inner_html() for word in hidden_words)
    for side in (seat, other):
        nouns = table.locator(f".dc-table[data-seat='{side}'] .dc-noun").all_inner_texts()
        assert nouns == [thing["noun"] or "hidden" for thing in view["tables"][side]], (side, nouns)
    verve = table.locator(".dc-verve strong").all_inner_texts()
    assert verve == [str(view["verve"][other]), str(view["verve"][seat])]


def test_two_devices_by_invite_link_each_see_only_their_own_hand(device, server) -> None:
    # The server deals at random: a deal that ends the game (made classical) before any
    # noun was hidden proves nothing, so such a game is played again, with new devices.
    for attempt in range(4):
        guest, checked_hidden_noun = two_devices_play(device, server, attempt)
        if checked_hidden_noun:
            break
    assert checked_hidden_noun, "no hidden noun was ever on the table to check"
    # A phone-sized page needs no sideways scrolling.
    assert guest.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def two_devices_play(device, server, seed: int) -> tuple[Page, bool]:
    """A friend game on two devices (the guest on a phone) played up to 60 moves, checking
    each page's secrets at every step; whether a hidden noun was ever checked."""
    host = device()
    start_game(host, server.url, "friend")
    invite = host.locator(".invite input").input_value()
    assert "/join/" in invite
    guest = device(viewport=PHONE, is_mobile=True, has_touch=True)
    guest.goto(invite)
    guest.fill("#option\\.deck1", "surge")  # each player chooses their own deck (issue 13)
    guest.click("button:has-text('Take the seat')")
    expect(guest.locator("#seats")).to_contain_text(f"{my_name(guest)} (you)")
    expect(guest.locator(".dc-bottom .dc-name")).to_have_text(f"{my_name(guest)} (you)")
    pages = {0: host, 1: guest}
    rng = random.Random(5 + seed)
    checked_hidden_noun = False
    for _ in range(60):
        step = host.locator("#game").get_attribute("data-step")
        expect(guest.locator("#game")).to_have_attribute("data-step", step)
        state, _ = true_state(server, host)
        for seat, page in pages.items():
            check_secrets(page, seat, state)
            checked_hidden_noun |= any(t["noun"] is None
                                       for t in state.view(seat)["tables"][1 - seat])
        if state.is_terminal():
            break
        turns = {seat: page.locator("#game").get_attribute("data-turn")
                 for seat, page in pages.items()}
        assert sorted(turns.values()) == ["mine", "wait"], turns
        mover = next(seat for seat, turn in turns.items() if turn == "mine")
        expect(pages[1 - mover].locator("#table button")).to_have_count(0)  # nothing to click
        page = pages[mover]
        moves = listed_moves(page)
        open_chains = len(state.view(mover)["chains"][mover])
        action, text = choose(moves, rng, open_chains)
        make_move(page, action, text, moves, touch=mover == 1)  # the guest has a touch screen
        pages[1 - mover].wait_for_function(STEP_CHANGED, arg=step)
    return guest, checked_hidden_noun


def test_a_card_played_from_the_keyboard_and_put_back_with_escape(page: Page, server) -> None:
    start_game(page, server.url, "bot:random")
    page.wait_for_function(MY_TURN_OR_OVER)
    card = page.locator(".dc-hand-mine button.dc-card").first
    word = card.get_attribute("data-word")
    card.focus()
    page.keyboard.press("Enter")
    expect(page.locator(".dc-card.picked")).to_have_count(1)
    lit = page.locator("button.dc-chain.lit")
    expect(lit.first).to_be_focused()
    page.keyboard.press("Escape")  # put it back: nothing lit, the card has the focus again
    expect(page.locator(".dc-card.picked")).to_have_count(0)
    expect(lit).to_have_count(0)
    expect(page.locator(".dc-hand-mine button.dc-card").first).to_be_focused()
    page.keyboard.press("Enter")
    expect(lit.first).to_be_focused()
    step = page.locator("#game").get_attribute("data-step")
    page.keyboard.press("Enter")
    moved(page, step)
    mine = page.locator(".dc-bottom .dc-chain-list .dc-slot", has_text=word or "")
    expect(mine).not_to_have_count(0)
    # The focus goes on to the next thing to press, not back to the top of the page.
    expect(page.locator(".dc button:focus")).to_have_count(1)


def test_a_spectator_and_the_replay_see_both_hands_only_as_counts(device, server) -> None:
    game = load_game("decoherence")
    final, record = play_match(game, [make_agent("greedy", "decoherence"),
                                      make_agent("random", "decoherence")], seed=3)
    game_id, _ = stored_game(server.db, [a.id for a in record.actions])
    steps = len(record.actions)
    watcher = device()  # a device that holds no seat of this game
    watcher.goto(f"{server.url}games/{game_id}")
    expect(watcher.locator(".dc-banner .dc-head")).to_contain_text("Game over after")
    expect(watcher.locator(".dc-hand-hidden")).to_have_count(2)
    expect(watcher.locator(".dc-card")).to_have_count(0)
    expect(watcher.locator(".dc-seat.dc-bottom .dc-name")).to_have_text("Ada")
    winner = final.winners()
    expect(watcher.locator(".dc-seat-head .tag.win")).to_have_count(len(winner))
    watcher.goto(f"{server.url}games/{game_id}/replay")
    where = watcher.locator("#where")
    expect(where).to_have_text(f"step 0 of {steps}")
    expect(watcher.locator(".dc-banner .dc-head")).to_contain_text("Setting up")
    watcher.keyboard.press("End")
    expect(where).to_have_text(f"step {steps} of {steps}")
    expect(watcher.locator(".dc-banner .dc-head")).to_contain_text("Game over after")
    spectator = final.view(SPECTATOR)
    for seat in (0, 1):
        expect(watcher.locator(f".dc-hand-hidden[data-seat='{seat}'] .dc-back")).to_have_count(
            spectator["hand_sizes"][seat])
        nouns = watcher.locator(f".dc-table[data-seat='{seat}'] .dc-noun").all_inner_texts()
        assert nouns == [t["noun"] or "hidden" for t in spectator["tables"][seat]]
    expect(watcher.locator("#table button")).to_have_count(0)
