"""A player's first hour in words (issue 25): names where "seat 1" was, the pages a new
player meets said in players' words, and the places where a page answered somewhere the
player was not looking. Each test acts as the people who saw it (a browser context each);
every page is scanned for developers' words as well (conftest, ``words.py``).

Names are unique on the site, so each test's people have names of their own."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from quarkade.server.decks.saved import check_deck
from tests.server.browser.accessibility import audit
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import (
    MY_TURN_OR_OVER,
    STEP_CHANGED,
    moved,
    store_position,
    take_seat,
)
from tests.server.browser.test_learning_pages import blunder_game

LEARN = "document.getElementById('learn')"


def named(page: Page, url: str, name: str) -> None:
    """This device's guest takes ``name``."""
    page.goto(f"{url}me")
    page.fill("#name", name)
    page.click("#rename button")
    expect(page.locator("#me")).to_have_attribute("data-name", name)


def new_game(page: Page, url: str, game: str, seats: dict[int, str], players: int = 0,
             public: bool = False) -> str:
    """A game made on the new-game form; returns its id."""
    page.goto(f"{url}new/{game}")
    if players:
        page.select_option("#option\\.players", str(players))
    for seat, kind in seats.items():
        page.select_option(f"#seat{seat}", kind)
    if public:
        page.select_option("#visibility", "public")
    page.click("button:has-text('Start the game')")
    page.wait_for_url(re.compile(r"/games/\w+$"))
    return page.url.rsplit("/", 1)[1]


def test_a_seats_address_opened_on_another_device_shows_the_game_and_a_way_in(device, server
                                                                               ) -> None:
    """Item 8: Walt copies his game's address (with ?seat=1) to his phone, where he is not
    logged in: the phone shows the table as a spectator sees it and how to play there
    (log in as Walt, who claimed his name), not a 403 page. A guest's seat (Annika's) is
    reached by a device link instead, since a guest cannot log in elsewhere."""
    ann, walt = device(), device()
    named(ann, server.url, "Annika")
    named(walt, server.url, "Walt")
    walt.fill("#password", "walt-password")
    walt.fill("#password_again", "walt-password")
    walt.click("#claim button")
    expect(walt.locator("#me")).not_to_contain_text("guest")
    game_id = new_game(ann, server.url, "hadronize", {1: "open"}, public=True)
    walt.goto(f"{server.url}lobby")
    walt.click(f".lobby-game[data-id='{game_id}'] button.join")
    walt.wait_for_url(re.compile(rf"/games/{game_id}\?seat=1$"))
    address = walt.url
    phone = device(viewport=PHONE, is_mobile=True, has_touch=True)
    answer = phone.goto(address)
    assert answer is not None and answer.status == 200
    expect(phone.locator("#way-in")).to_contain_text("This device does not play Walt")
    expect(phone.locator("#way-in a[href='/me#login']")).to_have_text("log in")
    expect(phone.locator(".hz-chamber").first).to_be_visible()  # the table, as watched
    expect(phone.locator("#moves-box")).to_be_hidden()
    expect(phone.locator("#seats")).to_contain_text("Walt")
    audit(phone, "a seat's address on a device that does not hold it")
    phone.goto(f"{server.url}games/{game_id}?seat=0")
    expect(phone.locator("#way-in")).to_contain_text("This device does not play Annika")
    expect(phone.locator("#way-in")).to_contain_text('press "use on another device"')
    # An open seat's address offers the seat itself.
    other = new_game(ann, server.url, "hadronize", {1: "open"}, public=True)
    phone.goto(f"{server.url}games/{other}?seat=1")
    phone.click("#way-in a:has-text('Take this seat')")
    phone.click("#take-seat button:has-text('Take the seat')")
    phone.wait_for_url(re.compile(rf"/games/{other}\?seat=1$"))
    expect(phone.locator("#way-in")).to_have_count(0)
    expect(phone.locator("#game")).to_have_attribute("data-step", re.compile(r"^[1-9]\d*$"))


def test_two_people_and_a_bot_read_names_everywhere(device, server) -> None:
    """Item 13: Yara and Zeno at a Dead Cat table with the easy bot. Every seat reads as
    its person or "Easy bot" (with a line on how it plays) on both pages: the seat list,
    the table, whose turn, the clocks' names; the take-seat page and the lobby too; and the
    scan finds "seat 1" nowhere."""
    yara, zeno = device(), device(viewport=PHONE, is_mobile=True, has_touch=True)
    named(yara, server.url, "Yara")
    named(zeno, server.url, "Zeno")
    game_id = new_game(yara, server.url, "dead-cat", {1: "open", 2: "bot:easy"}, players=3,
                       public=True)
    expect(yara.locator("#seats")).to_contain_text("Open seat")
    expect(yara.locator("#status")).to_have_text(
        "Waiting for one more player: the game starts when every seat is taken.")
    zeno.goto(f"{server.url}lobby")
    row = zeno.locator(f".lobby-game[data-id='{game_id}']")
    expect(row).to_contain_text("Dead Cat")
    expect(row).to_contain_text("Yara")
    expect(row).to_contain_text("Easy bot")
    row.locator("button.join").click()
    zeno.wait_for_url(re.compile(rf"/games/{game_id}\?seat=1$"))
    for page, me, other in ((yara, "Yara", "Zeno"), (zeno, "Zeno", "Yara")):
        seats = page.locator("#seats li")
        expect(seats).to_have_count(3)
        expect(seats.nth(0)).to_contain_text("Yara")
        expect(seats.nth(1)).to_contain_text("Zeno")
        expect(seats.nth(2).locator("span").first).to_have_text("Easy bot")
        expect(seats.nth(2).locator(".about")).to_have_text("Plays any legal move, at random.")
        expect(page.locator(".dc-seat-head strong")).to_have_text(
            [f"{me} (you)" if n == me else n for n in ("Yara", "Zeno", "Easy bot")])
        expect(page.locator("#status")).to_have_text(
            re.compile(r"^(Your turn, " + me + r" \(you\)|Waiting for (" + other
                       + r"|Easy bot))\.$"))
    pages = {0: yara, 1: zeno}
    for _ in range(6):  # a few turns: each page says what the other did, in names
        seat = next_person(pages)
        if seat is None:
            break
        page, watcher = pages[seat], pages[1 - seat]
        step = page.locator("#game").get_attribute("data-step")
        play_something(page)
        moved(page, step)
        watcher.wait_for_function(STEP_CHANGED, arg=step)
        expect(watcher.locator("#last-move")).not_to_be_empty()
        said = watcher.locator("#last-move").inner_text()
        # One sentence per event, each naming who did it.
        assert re.fullmatch(r"([A-Z][^.!?]*[.!?] ?)+", said), said


def next_person(pages: dict[int, Page]) -> int | None:
    """Which of the two people moves next (the bot's turns played meanwhile), or None
    once the game is over: read from seat 0's page, then that person's page is ready."""
    pages[0].wait_for_function("""() => { const g = document.getElementById('game');
      return g.dataset.over === 'yes' || g.dataset.turn === 'mine'
        || !!document.querySelector('#seats li:nth-child(2) .tag.turn'); }""")
    if pages[0].locator("#game").get_attribute("data-over") == "yes":
        return None
    seat = 0 if pages[0].locator("#game").get_attribute("data-turn") == "mine" else 1
    pages[seat].wait_for_function(MY_TURN_OR_OVER)
    return seat


def play_something(page: Page) -> None:
    """A Dead Cat move as a player makes it on the table: a die face after a peek, else
    peek, else announce."""
    for choice in ("button.dc-die-choice:not([disabled])", "[data-key=peek]",
                   "[data-key=announce]"):
        if page.locator(choice).count():
            page.locator(choice).first.click()
            return
    raise AssertionError("no move to make on the table")


def test_the_review_counts_in_words_and_colours_each_name_as_its_line(device, server) -> None:
    """Item 18: the review's summary says "1 blunder" (never "1 blunders"), and the graph's
    legend shows each name in its line's colour, not the axis labels' grey. Item 16: the
    review page's header names who is logged in."""
    game_id, tokens = blunder_game(server.db)
    page = device()
    named(page, server.url, "Rhea")
    take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
    page.wait_for_function(MY_TURN_OR_OVER)
    page.click("#review-link")
    page.wait_for_url("**/review**")
    expect(page.locator("#me")).to_have_text(re.compile(r"^Rhea"))
    page.wait_for_function("() => document.getElementById('review').dataset.state === 'done'")
    summary = page.locator("#summary").inner_text()
    assert not re.search(r"\b1 (blunders|mistakes|inaccuracies|decisions|points)\b", summary)
    assert re.search(r"\b\d+ blunders?, \d+ mistakes?, \d+ inaccurac(y|ies);", summary)
    # The browser tests' reviews search by iterations, not seconds: said in words.
    expect(page.locator("#marks-note")).to_contain_text("Each decision had a short search.")
    lines = page.locator("#graph svg polyline")
    legend = page.locator("#graph svg text.legend")
    expect(legend).to_have_count(lines.count())
    for index in range(lines.count()):
        stroke = lines.nth(index).evaluate("line => getComputedStyle(line).stroke")
        fill = legend.nth(index).evaluate("text => getComputedStyle(text).fill")
        assert fill == stroke, (fill, stroke)


def test_the_menu_offers_the_ladder_only_once_there_is_one(device, server) -> None:
    """Item 16: with no ladder on the server the menu has no Ladder (it opened an empty page
    telling the player to run a command); /ladder says so in words and names who is logged
    in."""
    page = device()
    named(page, server.url, "Lars")
    ready = any(server.settings["ladder_dir"].glob("*/ladder.json"))  # the ladder test's
    menu = page.get_by_role("navigation", name="site")
    expect(menu.get_by_role("link", name="Ladder")).to_have_count(1 if ready else 0)
    page.goto(f"{server.url}ladder")
    expect(page.locator("#me")).to_have_text(re.compile(r"^Lars"))
    expect(page.locator("main")).not_to_contain_text("quarkade ladder")


def test_a_guest_claims_the_name_and_is_told_what_changed(device, server) -> None:
    """Item 17: Gus, a guest, is warned before logging out that the name and its games are
    lost; claiming needs the password twice and says what it did; afterwards neither his
    page nor /learn talks as if he were still a guest or kept on one device."""
    page = device()
    named(page, server.url, "Gus")
    expect(page.locator("#done")).to_have_text("Your name is now Gus.")
    logout = page.locator("#logout")
    expect(logout).to_contain_text("once you log out, the name Gus and its games cannot be "
                                   "reached again")
    logout.locator("button").click()  # the box is not ticked: the browser keeps him here
    expect(page).to_have_url(re.compile(r"/me\?done=name$"))
    expect(page.locator("#me")).to_have_attribute("data-name", "Gus")
    page.goto(f"{server.url}learn")
    expect(page.locator("main")).to_contain_text("claim the name")
    expect(page.locator("main")).not_to_contain_text("on this device")
    page.goto(f"{server.url}me")
    page.fill("#password", "gus-password")
    page.fill("#password_again", "gus-passw0rd")
    page.click("#claim button")
    expect(page.locator(".error")).to_have_text(
        "The two passwords differ: type the same password in both boxes.")
    expect(page.locator("#me")).to_contain_text("guest")
    page.fill("#password", "gus-password")
    page.fill("#password_again", "gus-password")
    page.click("#claim button")
    expect(page.locator("#done")).to_contain_text("The name Gus is yours")
    expect(page.locator("#me")).not_to_contain_text("guest")
    expect(page.locator("main")).not_to_contain_text("rated games need a claimed name")
    expect(page.locator("#logout")).not_to_contain_text("cannot be reached again")
    page.goto(f"{server.url}learn")
    expect(page.locator("main")).to_contain_text("on every device you log in on")


def test_the_new_game_form_offers_what_a_player_chooses_in_their_words(device, server
                                                                         ) -> None:
    """Items 9 and 19: Dead Cat's form says what the starter may do as written and offers
    "Peek first (recommended)", ticked; yes/no options are checkboxes (never "true or
    false"); a simulation option (Max turns) is not offered; the seat menus group people,
    the bot levels and more bots, and each bot has a line on how it plays; the rules page
    links the tutorial and cites no developers' documents."""
    page = device()
    page.goto(f"{server.url}new/dead-cat")
    peek = page.locator("#option\\.peek_first")
    expect(peek).to_have_attribute("type", "checkbox")
    expect(peek).to_be_checked()
    expect(page.locator("label[for='option.peek_first'], label:has(#option\\.peek_first)")
           ).to_contain_text("Peek first (recommended)")
    expect(page.locator("#option\\.peek_first-hint")).to_contain_text(
        "may announce Dead Cat before anyone has peeked")
    expect(page.locator("main")).not_to_contain_text("true or false")
    groups = page.locator("#seat1 optgroup")
    expect(groups).to_have_count(3)
    assert [groups.nth(i).get_attribute("label") for i in range(3)] == [
        "People", "Bots", "More bots"]
    expect(groups.nth(1).locator("option")).to_have_text(["Easy bot", "Medium bot",
                                                          "Hard bot"])
    page.click("summary:has-text('What each bot does')")
    about = page.locator("dl.bots").first
    expect(about.locator("dt")).to_have_text(["Easy bot", "Medium bot", "Hard bot"])
    for line in about.locator("dd").all_inner_texts():
        assert line.strip().endswith("."), line
    page.goto(f"{server.url}new/hadronize")
    expect(page.locator("main")).not_to_contain_text("Max turns")
    expect(page.locator("#option\\.max_turns")).to_have_count(0)
    page.goto(f"{server.url}rules/dead-cat")
    expect(page.locator("main a[href='/learn/dead-cat']")).to_be_visible()
    expect(page.locator("main")).not_to_contain_text("RULINGS")
    expect(page.locator("main")).not_to_contain_text("quarkade ")
    page.goto(server.url)
    expect(page.locator("main a[href='/learn']")).to_be_visible()
    expect(page.locator("main")).to_contain_text("Quick play")


def test_quick_play_offers_each_games_own_player_counts(device, server) -> None:
    """Item 14: quick play offered 3 to 6 players for two-player games and then refused
    with "a whole number from 2 to 2". Now a two-player game shows "2 players" with
    nothing to choose and a game's count menu holds its own range; a count it does not
    take, sent anyway, is refused in words."""
    page = device()
    page.goto(f"{server.url}lobby")
    page.select_option("#quick-game", "card-commons")
    counts = page.locator(".quick-players[data-game='card-commons']")
    expect(counts).to_be_visible()
    expect(counts).to_have_text("2 players")
    expect(counts.locator("select")).to_have_count(0)
    page.select_option("#quick-game", "dead-cat")
    expect(counts).to_be_hidden()
    expect(page.locator("#quick-players-dead-cat option")).to_have_text(
        [f"{n} players" for n in range(2, 6)])
    # As the page's own form would post it: its CSRF token, and its Origin.
    csrf = page.locator("#quick input[name=csrf]").get_attribute("value")
    answer = page.request.post(f"{server.url}lobby/quick", form={
        "csrf": csrf or "", "game": "card-commons", "players.card-commons": "4",
        "time_control": "none"},
        headers={"accept": "application/json", "origin": server.url.rstrip("/")})
    assert answer.status == 400
    said = answer.json()["error"]
    assert said == "Card Commons is for 2 players; choose that", said


def test_a_finished_game_reads_in_words_for_its_players(device, server) -> None:
    """Item 19: Hadronize's move buttons read "Observe it yourself: ..." and "Make Easy
    bot observe it: ..." (not "observe 0 Ada - ..."),
    the result table holds no raw returns (-1, 1), Card Commons' buttons name cards by their
    symbols and sides ("3♥ on c2 (your side)", not "3H c2"), and /me names games by their titles,
    never their slugs ("card-commons")."""
    page = device()
    named(page, server.url, "Olga")
    new_game(page, server.url, "hadronize", {1: "bot:easy"})
    page.wait_for_function(MY_TURN_OR_OVER)
    buttons = page.locator("#moves button")
    expect(buttons).to_have_text([re.compile(r"^1Observe it yourself: \w+: "),
                                  re.compile(r"^2Make Easy bot observe it: \w+: ")])
    for text in buttons.all_inner_texts():
        assert not re.search(r"observe \d", text, re.I), text
    page.click("#resign")
    page.click("#confirm-yes")
    expect(page.locator("#result-box")).to_be_visible()
    cells = page.locator("#result-table td").all_inner_texts()
    assert not any(re.fullmatch(r"-?\d+(\.\d+)?", cell.strip()) for cell in cells), cells
    new_game(page, server.url, "card-commons", {1: "bot:easy"})
    page.wait_for_function(MY_TURN_OR_OVER)
    cards = page.locator("#moves button").all_inner_texts()
    placed = re.compile(r"[♥♠♦♣] on [a-d][1-4]( with .+)? \((your|Easy bot's) side\)$")
    assert cards and all(placed.search(text) for text in cards if "Pass" not in text), cards
    assert not [text for text in cards if re.search(r"\b[A2-6][HSDC]\b|\binv\b", text)], cards
    page.goto(f"{server.url}me")
    expect(page.locator(".player-games").first).to_contain_text("Card Commons")
    expect(page.locator("main")).not_to_contain_text("card-commons")
    expect(page.locator("main")).not_to_contain_text("hadronize")


def test_the_decoherence_take_seat_page_shows_the_table_and_ready_decks(device, server
                                                                          ) -> None:
    """Item 15: the Decoherence take-seat page was a bare text box. Now it names who sits
    at the table, the clock and whether the game is rated, and offers the presets and the
    player's saved decks beside the text; a preset chosen there is the deck played."""
    host, guest = device(), device()
    named(host, server.url, "Hedda")
    named(guest, server.url, "Gert")
    page = host
    page.goto(f"{server.url}new/decoherence")
    page.select_option("#seat1", "open")
    page.select_option("#visibility", "public")
    page.select_option("#time_control", "5+5")
    page.click("button:has-text('Start the game')")
    page.wait_for_url(re.compile(r"/games/\w+$"))
    game_id = page.url.rsplit("/", 1)[1]
    guest.goto(f"{server.url}games/{game_id}/take/1")
    facts = guest.locator("#table-facts")
    expect(facts).to_contain_text("At the table: Hedda.")
    expect(facts).to_contain_text("Clock: 5 min + 5 s.")
    expect(guest.locator("#rated-mark")).to_have_text(re.compile(r"^Not rated: claim your name"))
    expect(guest.locator("label[for='option.deck1']")).to_have_text("Your deck")
    ready = guest.locator("#option\\.deck1-saved")
    expect(ready.locator("optgroup[label='Presets'] option")).to_have_text(
        ["balanced", "surge", "observer", "weaver"])
    ready.select_option("surge")
    expect(guest.locator("#option\\.deck1")).not_to_have_value("")
    audit(guest, "the take-seat page of a deck game")
    guest.click("#take-seat button:has-text('Take the seat')")
    guest.wait_for_url(re.compile(rf"/games/{game_id}\?seat=1$"))
    record = guest.request.get(f"{server.url}games/{game_id}/record").json()
    played = record["options"]["deck1"]
    assert check_deck("decoherence", played) == check_deck("decoherence", "surge"), played


# A Decoherence game where seat 0 (to move, five moves) would close its chain with its last
# noun: "riffed down" then throws away both nouns and leaves only a pass, which loses (found
# by playing random games; the notation replays it).
TRAP = ["first seat 0", "draw tapped", "draw down", "draw kiki", "draw verved", "draw up",
        "draw riffed", "draw out", "draw lulu", "draw boo'd", "draw down", "draw riffed",
        "verb tapped -> chain 1", "pass", "draw twigged", "verb boo'd -> chain 1",
        "verb riffed -> chain 2", "qualifier down -> chain 1", "verb twigged -> chain 3",
        "qualifier out -> chain 2", "noun lulu -> chain 1", "pass", "draw kiki",
        "close their chain 2 with kiki", "verb riffed -> chain 2", "pass", "draw bouba",
        "pass", "draw kiki", "qualifier up -> chain 2", "verb verved -> chain 3",
        "qualifier down -> chain 1", "pass", "draw down", "pass", "draw lulu"]


def test_decoherence_shows_the_hand_at_once_and_asks_before_a_play_that_loses(device, server
                                                                              ) -> None:
    """Item 10: on a desktop the player's own hand is in view when the page opens, and a
    plausible play that throws away the player's nouns, leaving only a pass that loses, is
    asked about first (it was played without a word)."""
    game_id, tokens, state = store_position(server.db, "decoherence", TRAP, bots={1: "greedy"})
    assert state.current_player() == 0
    page = device()
    take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
    page.wait_for_function(MY_TURN_OR_OVER)
    expect(page.locator(".dc-hand-mine")).to_be_in_viewport()
    step = page.locator("#game").get_attribute("data-step")
    page.locator("#moves button[data-notation='noun kiki -> chain 1']").click()
    expect(page.locator("#confirm")).to_be_visible()
    expect(page.locator("#confirm-text")).to_contain_text(
        "leaves you only moves that lose the game")
    audit(page, "the dialog before a play that leaves only losing moves")
    page.click("#confirm-no")
    expect(page.locator("#game")).to_have_attribute("data-step", step or "")
    # A play that leaves the player a way on is made at once.
    page.locator("#moves button[data-notation='noun kiki -> chain 2']").click()
    page.wait_for_function(STEP_CHANGED, arg=step)
    expect(page.locator("#confirm")).to_be_hidden()
