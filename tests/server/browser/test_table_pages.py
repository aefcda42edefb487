"""At the table, in a real browser: chat between two seats (a spectator reads only, markup
shows as text, the chat hides; a long chat shows its newest 200 messages, earlier ones on
request), the reveal after a game (every hidden card in the final
table, the replay and the record; none with reveal off), Decoherence's losing pass asking
first, Card Commons fitting a phone's screen, and what a screen reader is told: another
seat's move in the polite live region, the focus kept on the table after a move, and what
each replay step did. axe-core checks each page on the way."""

from __future__ import annotations

import json
import random
import re

from playwright.sync_api import Page, expect

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.core.protocol import SPECTATOR
from quarkade.core.rng import sample_chance
from quarkade.server.storage import Store
from quarkade.sim import play_match
from tests.server.browser.accessibility import audit
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import (
    MY_TURN_OR_OVER,
    STEP_CHANGED,
    moved,
    my_name,
    store_actions,
    store_position,
    take_seat,
)

PAYLOAD = """async (url) => (await fetch(url, {headers: {accept: 'application/json'}})).json()"""


def new_game(page: Page, url: str, game: str, seat1: str) -> None:
    page.goto(f"{url}new/{game}")
    page.select_option("#seat1", seat1)
    page.click("button:has-text('Start the game')")
    expect(page.locator("#game")).to_have_attribute("data-step", re.compile(r"^\d+$"))


def test_two_seats_chat_a_spectator_reads_and_markup_stays_text(device, server) -> None:
    host = device()
    new_game(host, server.url, "hadronize", "friend")
    invite = host.locator(".invite input").input_value()
    guest = device(viewport=PHONE, is_mobile=True, has_touch=True)
    take_seat(guest, invite)
    expect(guest.locator("#seats")).to_contain_text(f"{my_name(guest)} (you)")
    ann, bob = my_name(host), my_name(guest)
    watcher = device()
    watcher.goto(re.sub(r"\?.*", "", host.url))
    expect(watcher.locator("#game")).to_have_attribute("data-step", re.compile(r"^\d+$"))
    sneaky = '<img src=x onerror="document.title=\'pwned\'"> <b>good luck</b>'
    host.fill("#chat-text", sneaky)
    host.press("#chat-text", "Enter")
    for page in (host, guest, watcher):
        line = page.locator("#chat li").last
        expect(line).to_contain_text(ann)
        expect(line.locator(".chat-text")).to_have_text(sneaky)  # as text, not markup
        expect(page.locator("#chat img, #chat b")).to_have_count(0)
        expect(line.locator("time")).to_have_attribute("datetime", re.compile(r"^\d{4}-"))
    guest.fill("#chat-text", "thanks, you too")
    guest.click("#chat-form button[type=submit]")
    expect(host.locator("#chat li").last).to_contain_text(f"{bob}: thanks, you too")
    expect(guest.locator("#chat li").last).to_contain_text(f"{bob} (you): thanks, you too")
    assert "pwned" not in (host.title(), guest.title(), watcher.title())
    # The spectator reads but has nothing to write with.
    expect(watcher.locator("#chat li")).to_have_count(2)
    expect(watcher.locator("#chat-form")).to_be_hidden()
    expect(watcher.locator("#chat-note")).to_be_visible()
    audit(watcher, "a spectator's game page with chat")
    audit(guest, "a seat's game page with chat, on a phone")
    # Hide the chat; it stays hidden on the next visit, and shows again on demand.
    host.click("#chat-toggle")
    expect(host.locator("#chat-body")).to_be_hidden()
    expect(host.locator("#chat-toggle")).to_have_attribute("aria-expanded", "false")
    host.reload()
    expect(host.locator("#chat-body")).to_be_hidden()
    host.click("#chat-toggle")
    expect(host.locator("#chat li")).to_have_count(2)  # kept with the game


def test_a_long_chat_shows_its_newest_200_and_earlier_ones_on_request(device, server) -> None:
    game_id, tokens, _ = store_position(server.db, "hadronize", [])
    store = Store(server.db)
    try:
        for number in range(205):
            store.chat.add(game_id, 0, "seat 0", f"line {number}", 1_700_000_000.0 + number,
                           1000)
    finally:
        store.close()
    page = device()
    take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
    expect(page.locator("#chat li")).to_have_count(200)
    expect(page.locator("#chat li").first).to_contain_text("line 5")
    expect(page.locator("#chat-earlier")).to_be_visible()
    audit(page, "a game page whose chat has earlier messages")
    page.click("#chat-earlier")
    expect(page.locator("#chat li")).to_have_count(205)
    expect(page.locator("#chat li").first).to_contain_text("line 0")
    expect(page.locator("#chat li").last).to_contain_text("line 204")
    expect(page.locator("#chat-earlier")).to_be_hidden()


def finished_decoherence(server, reveal: bool):
    game = load_game("decoherence", deck0="surge", deck1="observer")
    final, record = play_match(game, [make_agent("greedy", "decoherence"),
                                      make_agent("random", "decoherence")], seed=3)
    played = [(a.player, a.id) for a in record.actions]
    game_id, tokens, _ = store_actions(server.db, "decoherence", dict(game.options), played,
                                       final, {1: "greedy"}, reveal=reveal)
    states = [game.new_initial_state()]
    for _, action in played:
        states.append(states[-1].clone())
        states[-1].apply_action(action)
    return game_id, tokens, states


def hands_shown(page: Page) -> list[list[str]]:
    return [page.locator(f".dc-hand-revealed[data-seat='{seat}'] .dc-card").evaluate_all(
        "(cards) => cards.map((c) => c.dataset.word)") for seat in (0, 1)]


def open_finished(device, server, reveal: bool) -> tuple[Page, str, list]:
    """Seat 0's page of a finished Decoherence game (reveal on or off)."""
    game_id, tokens, states = finished_decoherence(server, reveal=reveal)
    player = device()
    take_seat(player, f"{server.url}games/{game_id}/join/{tokens[0]}")
    expect(player.locator("#game")).to_have_attribute("data-over", "yes")
    return player, game_id, states


def test_a_finished_game_with_reveal_on_shows_every_hidden_card(device, server) -> None:
    player, game_id, states = open_finished(device, server, reveal=True)
    final = states[-1]
    expect(player.locator("#reveal-note")).to_contain_text("every hidden card is shown")
    assert hands_shown(player) == [final.hand(0), final.hand(1)]
    nouns = [player.locator(f".dc-table[data-seat='{seat}'] .dc-noun").all_inner_texts()
             for seat in (0, 1)]
    assert nouns == [[t["noun"] for t in final.revealed_view()["tables"][seat]]
                     for seat in (0, 1)]
    assert "hidden" not in nouns[0] + nouns[1]
    audit(player, "a finished game, revealed")
    # The replay shows every step in full, and says so.
    player.goto(f"{server.url}games/{game_id}/replay?seat=0")
    expect(player.locator("#reveal-note")).to_be_visible()
    middle = len(states) // 2
    player.locator(f"#log li[data-step='{middle}'] button").click()
    expect(player.locator("#replay")).to_have_attribute("data-step", str(middle))
    assert hands_shown(player) == states[middle].revealed_view()["hands"]
    audit(player, "the replay of a revealed game")
    # The record holds every action in full: ids and the notation that reveals them.
    record = player.evaluate(PAYLOAD, f"/games/{game_id}/record?seat=0")
    assert record["revealed"] is True
    assert [a["id"] for a in record["actions"]] == final.history()


def test_with_reveal_off_the_finished_game_shows_no_hidden_card(device, server) -> None:
    player, game_id, states = open_finished(device, server, reveal=False)
    final = states[-1]
    expect(player.locator("#reveal-note")).to_have_text("Hidden cards stay hidden after the game.")
    expect(player.locator(".dc-hand-revealed")).to_have_count(0)
    theirs = player.locator(".dc-hand-hidden[data-seat='1']")
    expect(theirs.locator(".dc-back")).to_have_count(final.view(0)["hand_sizes"][1])
    nouns = player.locator(".dc-table[data-seat='1'] .dc-noun").all_inner_texts()
    assert nouns == [t["noun"] or "hidden" for t in final.view(0)["tables"][1]]
    assert "hidden" in nouns, "pick a game whose end keeps a noun of seat 1 hidden"
    player.goto(f"{server.url}games/{game_id}/replay?seat=0")
    expect(player.locator("#replay")).to_have_attribute("data-step", "0")
    player.keyboard.press("End")
    expect(player.locator("#replay")).to_have_attribute("data-step", str(len(states) - 1))
    expect(player.locator(".dc-hand-revealed")).to_have_count(0)
    record = player.evaluate(PAYLOAD, f"/games/{game_id}/record?seat=0")
    assert record["revealed"] is False
    hidden = [a for a in record["actions"] if a["id"] == -1]
    assert hidden and all(final.hand(1)[0] not in a["text"] or a["player"] == 0
                          for a in hidden)


def losing_pass_position():
    """A Decoherence game where seat 0 is to move and passing would lose at once (seat 0
    only ever passed, seat 1 played cards), seat 1 a bot."""
    game = load_game("decoherence")
    rng = random.Random(4)
    state = game.new_initial_state()
    played = []
    for _ in range(400):
        if state.is_chance_node():
            action = sample_chance(state, rng)
        elif state.current_player() == 1:  # seat 1 builds chains; seat 0 only passes
            action = max(state.legal_actions())
        elif "pass" not in [state.action_to_string(a) for a in state.legal_actions()]:
            action = state.legal_actions()[0]  # a discard down to the hand limit
        else:
            action = state.string_to_action("pass")
            if state.current_player() == 0:
                trial = state.clone()
                trial.apply_action(action)
                if trial.is_terminal() and 0 not in trial.winners():
                    return game, played, state
        played.append((state.current_player(), action))
        state.apply_action(action)
    raise AssertionError("no losing pass")


def test_decoherences_losing_pass_asks_first(device, server) -> None:
    game, played, state = losing_pass_position()
    game_id, tokens, _ = store_actions(server.db, "decoherence", dict(game.options), played,
                                       state, {1: "greedy"})
    page = device()
    take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
    page.wait_for_function(MY_TURN_OR_OVER)
    step = page.locator("#game").get_attribute("data-step")
    page.click("button.dc-pass")
    dialog = page.locator("#confirm")
    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text('"Pass: end your turn" ends the game, and you lose.')
    expect(page.locator("#confirm-no")).to_be_focused()
    audit(page, "the dialog before a losing pass")
    page.keyboard.press("Escape")  # changed my mind: nothing is played
    expect(dialog).to_be_hidden()
    expect(page.locator("button.dc-pass")).to_be_focused()
    expect(page.locator("#game")).to_have_attribute("data-step", step)
    page.click("button.dc-pass")
    assert moved(page, step)  # asked, confirmed, played
    expect(page.locator("#game")).to_have_attribute("data-over", "yes")
    expect(page.locator("#result")).to_contain_text("Greedy bot wins")


def test_card_commons_on_a_phone_fits_its_table_on_one_screen(device, server) -> None:
    for moves in ([], ["opener 0", "2H c3"]):
        game_id, tokens, _ = store_position(server.db, "card-commons", moves, {1: "greedy"})
        page = device(viewport=PHONE, is_mobile=True, has_touch=True)
        take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
        page.wait_for_function(MY_TURN_OR_OVER)
        expect(page.locator(".cc-hand-card").first).to_be_visible()
        table = page.locator("#table").bounding_box()
        assert table["height"] <= PHONE["height"], table
        assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        fold = page.locator("#moves-fold")
        expect(fold).not_to_have_attribute("open", "")  # the move list waits behind
        expect(page.locator("#moves button").first).to_be_hidden()
        assert page.locator("#moves-title").inner_text().startswith("Your moves (")
        page.tap("#moves-fold summary")
        expect(page.locator("#moves button").first).to_be_visible()
        audit(page, "Card Commons on a phone")


def test_a_bots_move_is_announced_and_the_focus_stays_on_the_table(page: Page, server) -> None:
    """The screen-reader check: after the bot's move, the polite live region holds what
    the bot did (its log line), and the keyboard is still on the table."""
    new_game(page, server.url, "hadronize", "bot:greedy")
    region = page.locator("#last-move")
    expect(region).to_have_attribute("aria-live", "polite")
    for turn in range(3):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            break
        step = page.locator("#game").get_attribute("data-step")
        chamber = page.locator("button.hz-chamber").nth(turn % 2)
        chamber.focus()
        page.keyboard.press("Enter")
        page.wait_for_function(STEP_CHANGED, arg=step)
        page.wait_for_function(MY_TURN_OR_OVER)
        payload = page.evaluate(PAYLOAD, re.sub(r"/games/", "/api/games/", page.url))
        after = [entry for entry in payload["log"] if entry["step"] > int(step)
                 and entry["player"] != 0 and (entry["line"] or entry["player"] >= 0)]
        assert any(entry["player"] == 1 for entry in after), "the bot did not move"
        said = region.inner_text()
        # What happened since the page last drew: the bot's move (and perhaps what chance
        # did after this seat's own move, if both arrived at once), never this seat's move;
        # a sentence for each (the move Hadronize tells in the line after it is not said).
        everything = " ".join(entry["line"] for entry in after if entry["line"])
        assert said and everything.endswith(said) and "Greedy bot" in said, (said, everything)
        focused = page.evaluate("""() => { const a = document.activeElement;
            return a && a !== document.body && a.closest('#table, #moves') !== null; }""")
        assert focused, "the focus fell off the table after the move"
    audit(page, "Hadronize after a bot's move")


def test_the_replay_says_what_each_step_did(page: Page, server) -> None:
    game = load_game("hadronize", players=2)
    final, record = play_match(game, [make_agent("greedy", "hadronize"),
                                      make_agent("random", "hadronize")], seed=2)
    game_id, _, _ = store_actions(server.db, "hadronize", dict(game.options),
                                  [(a.player, a.id) for a in record.actions], final,
                                  {0: "greedy", 1: "random"})
    page.goto(f"{server.url}games/{game_id}/replay")
    expect(page.locator("#replay")).to_have_attribute("data-step", "0")
    steps = len(record.actions)
    happened = page.locator("#happened")
    expect(happened).to_have_attribute("aria-live", "polite")
    expect(happened).to_have_text(f"Step 0 of {steps}: the start of the game.")
    page.keyboard.press("End")
    expect(page.locator("#replay")).to_have_attribute("data-step", str(steps))
    last = page.locator("#log li").last.inner_text()
    expect(happened).to_have_text(f"Step {steps} of {steps}: {last}")
    audit(page, "a replay at its last step")
    assert json.dumps(final.view(SPECTATOR))  # the table shown is the spectator's


def test_dates_and_times_are_shown_in_the_viewers_locale(device, server) -> None:
    page = device(locale="de-DE", timezone_id="Asia/Tokyo")
    page.goto(f"{server.url}new/hadronize")
    page.select_option("#seat1", "bot:greedy")
    page.select_option("#visibility", "public")
    page.click("button:has-text('Start the game')")
    expect(page.locator("#game")).to_have_attribute("data-step", re.compile(r"^\d+$"))
    page.fill("#chat-text", "hallo")
    page.press("#chat-text", "Enter")
    sent = page.locator("#chat li time").first
    expect(sent).to_have_text(page.evaluate(
        """(iso) => new Date(iso).toLocaleTimeString('de-DE',
             {hour: '2-digit', minute: '2-digit', timeZone: 'Asia/Tokyo'})""",
        sent.get_attribute("datetime")))
    page.goto(server.url)
    made = page.locator(".recent time").first
    iso = made.get_attribute("datetime")
    assert iso and iso.endswith("+00:00")
    expect(made).to_have_text(page.evaluate(
        """(iso) => new Date(iso).toLocaleString('de-DE',
             {dateStyle: 'medium', timeStyle: 'short', timeZone: 'Asia/Tokyo'})""", iso))
    assert made.inner_text() != iso
