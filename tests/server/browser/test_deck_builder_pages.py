"""The Decoherence deck builder in a real browser: a deck built by clicking (a click that
would break a deck-building rule is refused and the reason said), refused while illegal,
saved under a name shown as text, tested against every preset (win rates with intervals
beside the presets' own strength); then each player picks their own saved deck, the host
on the new-game form and the friend when taking the seat (told first whether cards are
revealed after the game), and neither page ever receives the other's deck (every
WebSocket frame each gets is checked)."""

from __future__ import annotations

import random
import re

from playwright.sync_api import Page, expect

from quarkade.games.decoherence.decks import PRESET_STRENGTH
from tests.server.browser.accessibility import audit
from tests.server.browser.conftest import PHONE
from tests.server.browser.decoherence import choose, listed_moves, make_move

NAME = "<i>Kiki</i> rush"
DECK = ("tapped 1, verved 2, boo'd 2, twigged 2, riffed 3 | up 3, down 3, through 2, out 2 | "
        "kiki 4, bouba 3, lulu 3")
GUEST_NAME = "Lulu & links"
GUEST_DECK = ("verved 2, boo'd 2, twigged 3, riffed 3 | up 3, down 2, through 4, out 1 | "
              "kiki 2, bouba 4, lulu 4")
RATE = re.compile(r"^\d+\.\d% \[\d+\.\d, \d+\.\d\]$")


def build_deck(page: Page) -> None:
    """From the balanced start, by clicking: one kiki more, one bouba fewer, one riffed more
    and one tapped fewer; on the way, clicks that break a rule are refused."""
    check = page.locator("#deck-check")
    expect(check).to_have_text("A deck that can be played: 30 cards.")
    page.click("button.more[data-word=kiki]")
    expect(check).to_contain_text("Refused: nouns are at 10, exactly what a deck needs")
    expect(page.locator("#w-kiki")).to_have_value("3")
    page.click("button.less[data-word=bouba]")
    page.click("button.more[data-word=kiki]")
    page.click("button.more[data-word=kiki]")  # a fifth kiki
    expect(check).to_contain_text("kiki is at 4; a deck holds at most 4 copies of a word")
    expect(page.locator("#w-kiki")).to_have_value("4")
    page.click("button.less[data-word=tapped]")
    expect(check).to_contain_text("1 verbs short: a deck needs exactly 10 verbs")
    expect(page.locator("#count-verbs")).to_have_text("9")
    page.fill("#deck-name", NAME)
    page.click("#save")  # refused while illegal, with the reason
    expect(page.locator("#save-result")).to_have_text(
        "Not saved: 1 verbs short: a deck needs exactly 10 verbs.")
    audit(page, "the deck builder refusing a deck")
    page.click("button.more[data-word=riffed]")
    expect(check).to_have_text("A deck that can be played: 30 cards.")


def test_a_deck_built_by_clicking_is_saved_tested_and_chosen_for_a_seat(device, server):
    page = device()
    page.goto(server.url)
    page.click("a[href='/decks/decoherence']")
    audit(page, "the deck builder")
    build_deck(page)
    page.click("#save")
    expect(page.locator("#save-result")).to_have_text(f"Saved: {NAME}.")
    saved = page.locator("#saved li").filter(has_text="Kiki")
    expect(saved.locator(".deck-name")).to_have_text(NAME)  # shown as text
    expect(saved).to_contain_text(DECK)
    expect(page.locator("#saved i")).to_have_count(0)
    # "Test this deck": every preset's row fills in, with the preset's own strength beside.
    page.click("#test")
    expect(page.locator("#builder")).to_have_attribute("data-test", "done", timeout=180_000)
    rows = page.locator("#test-results tbody tr")
    expect(rows).to_have_count(len(PRESET_STRENGTH))
    for row in rows.all():
        preset = row.get_attribute("data-preset")
        assert RATE.match(row.locator(".rate").inner_text()), row.inner_text()
        rate, low, high = PRESET_STRENGTH[preset]
        expect(row.locator(".own")).to_have_text(
            f"{100 * rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]")
    expect(page.locator("#test-status")).to_contain_text("Done: 6 games against each preset")
    audit(page, "the deck builder with a test's results")
    # Each player picks their own deck: the host's on the new-game form, the friend's when
    # taking the seat. Neither page ever receives the other's (every frame is checked).
    page.goto(f"{server.url}new/decoherence")
    page.select_option("#option\\.deck0-saved", label=NAME)
    expect(page.locator("#option\\.deck0")).to_have_value(DECK)
    page.select_option("#seat1", "friend")
    audit(page, "the new-game form with a saved deck")
    host_frames = record_frames(page)
    page.click("button:has-text('Start the game')")
    invite = page.locator(".invite input").input_value()
    guest = device(viewport=PHONE, is_mobile=True, has_touch=True)
    guest.goto(f"{server.url}decks/decoherence")
    guest.click("button.preset[data-name=weaver]")
    guest.click("button.less[data-word=twigged]")
    guest.click("button.more[data-word=boo\\'d]")
    guest.fill("#deck-name", GUEST_NAME)
    guest.click("#save")
    expect(guest.locator("#save-result")).to_have_text(f"Saved: {GUEST_NAME}.")
    guest_frames = record_frames(guest)
    guest.goto(invite)  # the seat's own options first, and what happens after the game
    expect(guest.locator("h1")).to_have_text("Take a seat at this game of Decoherence")
    expect(guest.locator("#reveal-note")).to_have_text("Hidden cards stay hidden after the game.")
    guest.select_option("#option\\.deck1-saved", label=GUEST_NAME)
    expect(guest.locator("#option\\.deck1")).to_have_value(GUEST_DECK)
    audit(guest, "taking a seat with a saved deck, on a phone")
    guest.click("button:has-text('Take the seat')")
    expect(guest.locator(".dc-bottom .dc-name")).to_contain_text("(you)")
    expect(guest.locator(".dc-bottom .dc-decklist")).to_contain_text(GUEST_DECK)
    expect(page.locator(".dc-bottom .dc-decklist")).to_contain_text(DECK)
    pages = {0: page, 1: guest}
    rng = random.Random(3)
    for _ in range(8):
        step = page.locator("#game").get_attribute("data-step")
        expect(guest.locator("#game")).to_have_attribute("data-step", step or "")
        movers = [seat for seat, p in pages.items()
                  if p.locator("#game").get_attribute("data-turn") == "mine"]
        if not movers:
            break
        moves = listed_moves(pages[movers[0]])
        action, text = choose(moves, rng, 0)
        make_move(pages[movers[0]], action, text, moves, touch=movers[0] == 1)
    for frames, secrets in ((guest_frames, (DECK, "Kiki")), (host_frames, (GUEST_DECK, "Lulu"))):
        assert len(frames) >= 5, frames
        for frame in frames:
            assert not any(secret in frame for secret in secrets), frame
    assert DECK not in guest.content() and GUEST_DECK not in page.content()
    expect(guest.locator(".dc-top .dc-decklist")).to_have_count(0)
    expect(page.locator(".dc-top .dc-decklist")).to_have_count(0)


def record_frames(page: Page) -> list[str]:
    """Every WebSocket frame ``page`` receives from now on."""
    frames: list[str] = []
    page.on("websocket", lambda socket: socket.on(
        "framereceived", lambda frame: frames.append(str(frame))))
    return frames
