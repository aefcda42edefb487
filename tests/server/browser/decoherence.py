"""Playing Decoherence in the browser as a person does: pick a card in the hand, then one
of the places that light up (or a lit target on the table, or Pass). Shared by the browser
tests and ``make screenshots`` (which also uses ``telling_moment`` and ``stored_game`` to
open a page on a table with something on it).

A move is chosen from the page's own list of legal moves (the text buttons), then made on
the table; on the way, the lit places for the picked card are checked against that list.
"""

from __future__ import annotations

import random
import re
import time
from pathlib import Path

from playwright.sync_api import Browser, Page, expect

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.core.agent import turn_for
from quarkade.core.protocol import State
from quarkade.core.rng import sample_chance
from quarkade.server.keys import digest, new_secret
from quarkade.server.play.seats import new_game_id
from quarkade.server.storage import Store, StoredSeat
from tests.server.browser.helpers import moved, take_seat

MY_TURN_OR_OVER = """() => { const g = document.getElementById('game');
  return !!g && (g.dataset.turn === 'mine' || g.dataset.over === 'yes'); }"""
STEP_CHANGED = "(step) => document.getElementById('game').dataset.step !== step"
STYLED = """() => { const link = document.querySelector('link[data-decoherence]');
  return link !== null && link.sheet !== null; }"""
CARD_MOVE = re.compile(
    r"^(?:verb (\S+) ->|qualifier (\S+) ->|noun (\S+) ->|close their chain \d with (\S+))")


def start_game(page: Page, url: str, seat1: str, **options: str) -> None:
    """A new Decoherence game from the home page, seat 0 for this device."""
    page.goto(url)
    page.click("a[href='/new/decoherence']")
    for name, value in options.items():
        page.fill(f"#option\\.{name}", value)
    page.select_option("#seat1", seat1)
    page.click("button:has-text('Start the game')")
    expect(page.locator("#game")).to_have_attribute("data-step", re.compile(r"^\d+$"))
    expect(page.locator("#table .dc")).to_be_visible()


def listed_moves(page: Page) -> list[tuple[int, str]]:
    """The legal moves the page lists: (action id, notation); each button says its move in
    words and keeps the notation in ``data-notation``."""
    return [(int(action), text) for action, text in page.evaluate(
        """() => [...document.querySelectorAll('#moves button')]
             .map((b) => [b.dataset.action, b.dataset.notation])""")]


def card_word(text: str) -> str | None:
    """The hand card a move plays (``noun kiki -> chain 1``: kiki), or None."""
    match = CARD_MOVE.match(text)
    return next(word for word in match.groups() if word) if match else None


def choose(moves: list[tuple[int, str]], rng: random.Random, open_chains: int
           ) -> tuple[int, str]:
    """A sensible move that keeps the game going: a target or a discard when one is asked
    for; else finish a chain, add a qualifier, sometimes close one of theirs, or open a
    chain while fewer than two are open; else pass."""
    prefixes = ["target:", "discard ", "noun ", "qualifier "]
    if rng.random() < 0.2:
        prefixes.append("close ")
    if open_chains < 2:
        prefixes.append("verb ")
    for prefix in prefixes:
        found = [move for move in moves if move[1].startswith(prefix)]
        if found:
            return rng.choice(found)
    return next(move for move in moves if move[1] == "pass")


def make_move(page: Page, action: int, text: str, moves: list[tuple[int, str]],
              keyboard: bool = False, touch: bool = False) -> None:
    """Play ``action`` on the table by clicking (or tapping, or Tab and Enter), and wait for
    the page to show the move played. Checks that picking a card lights up exactly the
    places the listed moves allow for it."""
    step = page.locator("#game").get_attribute("data-step")
    table = page.locator("#table .dc")

    def press(locator) -> None:
        if keyboard:
            locator.focus()
            page.keyboard.press("Enter")
        elif touch:
            locator.tap()
        else:
            locator.click()

    word = card_word(text)
    if text == "pass":
        press(table.locator("button.dc-pass"))
    elif text.startswith("target:"):
        lit = table.locator("button.dc-thing.lit")
        expect(lit).to_have_count(sum(1 for _, t in moves if t.startswith("target:")))
        press(table.locator(f"button.dc-thing.lit[data-action='{action}']"))
    elif text.startswith("discard "):
        press(table.locator(f'.dc-hand-mine button.dc-card[data-word="{text[8:]}"]').first)
    else:
        assert word is not None, text
        press(table.locator(f'.dc-hand-mine button.dc-card[data-word="{word}"]').first)
        expect(table.locator(".dc-card.picked")).to_have_count(1)
        wanted = sorted(a for a, t in moves if card_word(t) == word)
        lit = table.locator("button.dc-chain.lit")
        expect(lit).to_have_count(len(wanted))
        shown = sorted(int(a) for a in lit.evaluate_all(
            "(els) => els.map((e) => e.dataset.action)"))
        assert shown == wanted, (word, shown, wanted)
        target = table.locator(f"button.dc-chain.lit[data-action='{action}']")
        if keyboard:  # picking moved the focus to the first lit place; Tab on to ours
            for _ in range(20):
                where = target.evaluate("""(e) => e === document.activeElement ? 0
                  : e.compareDocumentPosition(document.activeElement)
                    & Node.DOCUMENT_POSITION_PRECEDING ? 1 : -1""")
                if where == 0:
                    break
                page.keyboard.press("Tab" if where > 0 else "Shift+Tab")
            expect(target).to_be_focused()
            page.keyboard.press("Enter")
        else:
            press(target)
    moved(page, step)


def play_turns(page: Page, moves_wanted: int, rng: random.Random, keyboard_every: int = 0,
               touch: bool = False) -> int:
    """Up to ``moves_wanted`` of our moves (each waits for our turn); returns how many were
    played (fewer when the game ended)."""
    for count in range(moves_wanted):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            return count
        moves = listed_moves(page)
        seat = page.locator(".dc-bottom .dc-chains").get_attribute("data-seat")
        open_chains = page.locator(f".dc-chains[data-seat='{seat}'] .dc-chain").count()
        action, text = choose(moves, rng, open_chains)
        keyboard = bool(keyboard_every) and count % keyboard_every == 0
        make_move(page, action, text, moves, keyboard=keyboard, touch=touch)
    return moves_wanted


def telling_moment(first_seed: int = 467, tries: int = 200) -> list[int]:
    """The actions of a greedy-vs-greedy game up to a moment that shows much of the table:
    seat 0 has just drawn, holds a noun that finishes one of its chains, both tables hold
    things (some of the other side's hidden) and a link joins two of them. The games are
    seeded, so the moment is the same every time."""
    game = load_game("decoherence")
    for seed in range(first_seed, first_seed + tries):
        rng = random.Random(seed)
        state = game.new_initial_state()
        bots = [make_agent("greedy", "decoherence") for _ in range(2)]
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if _telling(state):
                return state.history()
            state.apply_action(bots[state.current_player()].act(turn_for(state), rng))
    raise AssertionError(f"no telling moment in games {first_seed}-{first_seed + tries - 1}")


def _telling(state: State) -> bool:
    if state.current_player() != 0:
        return False
    view = state.view(0)
    if view["phase"] != "play" or not view["events"] or view["events"][-1]["type"] != "draw":
        return False
    mine, theirs = view["tables"]
    texts = [state.action_to_string(a) for a in state.legal_actions()]
    return (len(mine) >= 3 and len(theirs) >= 2 and any(t["noun"] is None for t in theirs)
            and any(t["link"] for t in mine + theirs) and min(view["deck_sizes"]) >= 4
            and min(view["verve"]) >= 4 and len(view["hand"]) >= 4
            and any(t.startswith("noun ") for t in texts))


def stored_game(db: str, actions: list[int]) -> tuple[str, str]:
    """A game stored as the server stores games, with ``actions`` played: seat 0 a person
    (returns the game id and seat 0's invite code), seat 1 the greedy bot."""
    game = load_game("decoherence")
    state = game.new_initial_state()
    moves = []
    for action in actions:
        moves.append((state.current_player(), action))
        state.apply_action(action)
    game_id, token = new_game_id(), new_secret()
    store = Store(db)
    try:
        store.games.create(game_id, "decoherence", game.options, digest(new_secret()), [
            StoredSeat(0, "friend", None, "Ada", None, False, digest(token),
                       time.time() + 24 * 3600),
            StoredSeat(1, "bot", "greedy", "seat 1 (greedy)", None, True)])
        store.games.add_actions(game_id, 0, moves, None)
    finally:
        store.close()
    return game_id, token


def take_screenshots(browser: Browser, url: str, db: str, out: Path, phone: dict[str, int]
                     ) -> None:
    """docs/screenshots/decoherence-*.png: a seeded game at its telling moment, on a desktop
    with a noun picked and the chain it finishes lit, and on a phone once that sentence asks
    for its target (the lit things on the other side)."""
    game_id, token = stored_game(db, telling_moment())
    desktop = browser.new_context(viewport={"width": 1280, "height": 860})
    page = desktop.new_page()
    take_seat(page, f"{url}games/{game_id}/join/{token}")
    page.wait_for_function(MY_TURN_OR_OVER)
    page.wait_for_function(STYLED)
    noun = next(card_word(text) for _, text in listed_moves(page) if text.startswith("noun "))
    card = f'.dc-hand-mine button.dc-card[data-word="{noun}"]'
    page.click(card)
    page.screenshot(path=out / "decoherence-game.png", full_page=True)
    small = browser.new_context(viewport=phone, device_scale_factor=2, is_mobile=True,
                                has_touch=True, storage_state=desktop.storage_state())
    handheld = small.new_page()
    handheld.goto(page.url)
    handheld.wait_for_function(MY_TURN_OR_OVER)
    handheld.wait_for_function(STYLED)
    handheld.tap(card)
    handheld.tap("button.dc-chain.lit")
    handheld.wait_for_function("() => document.querySelector('.dc').dataset.phase !== 'play'")
    handheld.locator("#table").screenshot(path=out / "decoherence-phone.png")
    small.close()
    desktop.close()
