"""Players in a real browser (issue 15): names, the live lobby, clocks that tick and run out
(on a clock the test moves: no sleeps), correspondence deadlines, resigning (confirmed
first), aborting, a rated game on the leaderboard, the tab title on your turn, and a
four-player Hadronize game where a bot takes the seat of a person out of time.

The server here runs on a ``ManualClock`` the test advances; the page's clocks tick in
the browser's own time between the server's snapshots."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import Page, expect

from quarkade.server.clock import ManualClock
from quarkade.server.play.clocks import DAY
from quarkade.server.run import ServerThread
from tests.server.browser.accessibility import audit
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import MY_TURN_OR_OVER, STEP_CHANGED, moved, my_name

TURN_TITLE = "\u25b6 Your turn"


CLOCK = ManualClock(start=2_000_000_000.0)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerThread]:
    """This module's server (the ``device`` fixture talks to it): on the tests' clock."""
    db = tmp_path_factory.mktemp("clocked") / "players.db"
    with ServerThread(f"sqlite:///{db}", clock=CLOCK, rate_limits=False) as running:
        yield running


@pytest.fixture
def clocked(server: ServerThread) -> tuple[ServerThread, ManualClock]:
    return server, CLOCK


def rename(page: Page, url: str, name: str, password: str | None = None) -> None:
    page.goto(f"{url}me")
    page.fill("#name", name)
    page.click("#rename button")
    expect(page.locator("#me")).to_have_attribute("data-name", name)
    if password:
        page.fill("#password", password)
        page.fill("#password_again", password)
        page.click("#claim button")
        expect(page.locator("#me")).not_to_contain_text("guest")


def create(page: Page, url: str, seats: list[str], control: str = "none",
           visibility: str = "public", players: int | None = None) -> str:
    """A Hadronize game made from the lobby's Create link; returns its id."""
    page.goto(f"{url}lobby")
    page.click("#create-title ~ p a[href='/new/hadronize']")
    if players:
        page.select_option("#option\\.players", str(players))
    for seat, kind in enumerate(seats):
        page.select_option(f"#seat{seat}", kind)
    page.select_option("#time_control", control)
    page.select_option("#visibility", visibility)
    page.click("button:has-text('Start the game')")
    page.wait_for_url(re.compile(r"/games/\w+$"))
    return page.url.rsplit("/", 1)[1]


def two_players(device: Callable[..., Page], url: str, control: str = "none",
                names: tuple[str, str] = ("Ada", "Ben"), passwords: tuple[str, str] | None = None
                ) -> tuple[str, dict[int, Page]]:
    """Two people at one public game: seat 0 makes it, seat 1 joins from the lobby."""
    host, guest = device(), device(viewport=PHONE, is_mobile=True, has_touch=True)
    rename(host, url, names[0], passwords and passwords[0])
    rename(guest, url, names[1], passwords and passwords[1])
    game_id = create(host, url, ["you", "open"], control)
    guest.goto(f"{url}lobby")
    guest.click(f".lobby-game[data-id='{game_id}'] button.join")
    guest.wait_for_url(re.compile(rf"/games/{game_id}\?seat=1$"))
    for page in (host, guest):
        expect(page.locator("#game")).to_have_attribute("data-step", re.compile(r"^[1-9]\d*$"))
    return game_id, {0: host, 1: guest}


def mover(pages: dict[int, Page]) -> int:
    """The seat to move, as seat 0's page shows it (its seat list tags it), once that
    seat's page offers its moves."""
    tagged = pages[0].locator("#seats li:has(.tag.turn) span").first
    expect(tagged).to_be_visible()
    seat = 0 if tagged.inner_text().endswith("(you)") else 1
    pages[seat].wait_for_function(MY_TURN_OR_OVER)
    return seat


def first_moves(pages: dict[int, Page]) -> None:
    """Each seat makes its first move (a game where a seat never moved is aborted, not
    flagged: RULINGS S-8)."""
    for _ in range(len(pages)):
        seat = mover(pages)
        step = pages[seat].locator("#game").get_attribute("data-step")
        pages[seat].keyboard.press("1")  # the first listed move
        moved(pages[seat], step)


def test_two_guests_pick_names_and_one_sees_the_others_game_appear_and_joins(device,
                                                                             clocked) -> None:
    server, _ = clocked
    host, guest = device(), device()
    guest.goto(f"{server.url}lobby")
    assert my_name(guest)  # a guest with a generated name from the first visit
    rename(host, server.url, "Hopper")
    rename(guest, server.url, "Lovelace")
    guest.goto(f"{server.url}lobby")
    expect(guest.locator("#open-games")).to_have_attribute("data-count", re.compile(r"\d"))
    game_id = create(host, server.url, ["you", "open"])
    expect(host.locator("#status")).to_contain_text("Waiting for one more player")
    row = guest.locator(f".lobby-game[data-id='{game_id}']")
    expect(row).to_contain_text("Hopper")  # appeared without a reload
    audit(guest, "the lobby with an open game")
    host.goto(f"{server.url}lobby")  # the host's own game: a way back to it, not a seat
    own = host.locator(f".lobby-game[data-id='{game_id}']")
    expect(own.locator("a.your-game")).to_have_text("You sit here: open your game")
    expect(own.locator("button.join")).to_have_count(0)
    own.locator("a.your-game").click()
    host.wait_for_url(re.compile(rf"/games/{game_id}$"))
    row.locator("button.join").click()
    guest.wait_for_url(re.compile(rf"/games/{game_id}\?seat=1$"))
    for page in (host, guest):
        expect(page.locator("#seats")).to_contain_text("Hopper")
        expect(page.locator("#seats")).to_contain_text("Lovelace")
        expect(page.locator("#status")).not_to_contain_text("Waiting for one more player")
    expect(guest.locator(f".lobby-game[data-id='{game_id}']")).to_have_count(0)


def test_a_join_clicked_before_the_live_list_arrives_takes_the_seat_in_one_step(device,
                                                                                clocked) -> None:
    """The lobby comes drawn by the server; a click before its live update (here the lobby's
    socket never answers) still takes the seat at once, not through the seat's form."""
    server, _ = clocked
    host, guest = device(), device()
    rename(host, server.url, "Swift")
    rename(guest, server.url, "Prompt")
    game_id = create(host, server.url, ["you", "open"])
    guest.route_web_socket(re.compile(r"/ws/lobby$"), lambda socket: None)  # never answers
    guest.goto(f"{server.url}lobby")
    guest.click(f".lobby-game[data-id='{game_id}'] form button.join")
    guest.wait_for_url(re.compile(rf"/games/{game_id}\?seat=1$"))
    expect(guest.locator("#game")).to_have_attribute("data-step", re.compile(r"^[1-9]\d*$"))


def test_a_real_time_clock_ticks_and_the_player_out_of_time_loses(device, clocked) -> None:
    server, clock = clocked
    _, pages = two_players(device, server.url, "1+0", ("Tick", "Tock"))
    first_moves(pages)
    seat = mover(pages)
    running = pages[seat].locator("#clocks .clock.running .time")
    expect(running).to_have_text(re.compile(r"^[01]:\d\d"))
    first = running.inner_text()
    pages[seat].wait_for_function(  # it ticks in the page, between snapshots
        "(t) => document.querySelector('#clocks .clock.running .time').textContent !== t",
        arg=first)
    clock.advance(61)
    for page in pages.values():
        expect(page.locator("#result")).to_contain_text("ran out of time")
    loser = ["Tick", "Tock"][seat]
    expect(pages[1 - seat].locator("#result")).to_contain_text(f"({loser} ran out of time)")
    expect(pages[seat].locator("#clocks .clock.running")).to_have_count(0)


def test_a_correspondence_deadline_passes_on_the_tests_clock(device, clocked) -> None:
    server, clock = clocked
    _, pages = two_players(device, server.url, "corr:1", ("Slow", "Steady"))
    first_moves(pages)
    seat = mover(pages)
    expect(pages[seat].locator("#clocks")).to_contain_text("1 day per move")
    expect(pages[seat].locator("#clocks .clock.running .time")).to_have_text(
        re.compile(r"^(1 d 0 h|23 h \d\d min)$"))
    clock.advance(DAY - 60)
    expect(pages[seat].locator("#game")).to_have_attribute("data-over", "no")
    clock.advance(61)
    for page in pages.values():
        expect(page.locator("#result")).to_contain_text("ran out of time")


def test_resigning_asks_first_and_then_the_other_side_wins(device, clocked) -> None:
    server, _ = clocked
    _, pages = two_players(device, server.url, names=("Quitter", "Stayer"))
    host = pages[0]
    host.click("#resign")
    expect(host.locator("#confirm")).to_be_visible()
    expect(host.locator("#confirm-text")).to_contain_text("You lose")
    audit(host, "the resign dialog")
    host.click("#confirm-no")
    expect(host.locator("#confirm")).to_be_hidden()
    expect(host.locator("#game")).to_have_attribute("data-over", "no")
    host.click("#resign")
    host.click("#confirm-yes")
    # Each says it to its own player: the one who resigned, and the one who won.
    expect(pages[0].locator("#result")).to_have_text("Game over: Stayer wins (you resigned).")
    expect(pages[1].locator("#result")).to_have_text("Game over: you win (Quitter resigned).")
    expect(pages[1].locator("#result-table tr[data-seat='0']")).to_contain_text("lost")


def test_an_abort_before_the_first_moves_ends_with_no_result(device, clocked) -> None:
    server, _ = clocked
    _, pages = two_players(device, server.url, "5+5", ("Early", "Bird"))
    page = pages[1]
    page.click("#abort")
    page.click("#confirm-yes")
    for seen in pages.values():
        expect(seen.locator("#result")).to_have_text("Game aborted: no result.")
        # Nothing stale (issue 25 item 7): no clocks, no turn tag, nothing to review.
        expect(seen.locator("#clocks")).to_be_hidden()
        expect(seen.locator("#seats .tag.turn")).to_have_count(0)
        expect(seen.locator("#review-link")).to_have_count(0)
        no_junk(seen)


def test_a_rated_game_changes_both_ratings_and_the_leaderboard(device, clocked) -> None:
    server, _ = clocked
    _, pages = two_players(device, server.url, names=("Rated-Ann", "Rated-Bob"),
                                 passwords=("ann-password", "bob-password"))
    pages[1].click("#resign")
    pages[1].click("#confirm-yes")
    for page in pages.values():
        expect(page.locator("#result-table tr[data-seat='0'] .rating-change")).to_have_text(
            re.compile(r"^1[5-9]\d\d \(\+\d+\)$"))
        expect(page.locator("#result-table tr[data-seat='1'] .rating-change")).to_have_text(
            re.compile(r"^1[0-4]\d\d \(-\d+\)$"))
    board = pages[0]
    board.goto(f"{server.url}leaderboard/hadronize")
    # One game each: provisional ratings, left off the leaderboard (RULINGS S-10).
    expect(board.locator("#leaderboard tbody tr.bot")).to_have_count(3)
    expect(board.locator("#leaderboard")).not_to_contain_text("Rated-Bob")
    audit(board, "a leaderboard")
    board.goto(f"{server.url}players/Rated-Bob")
    expect(board.locator(".board .rating").first).to_have_text(re.compile(r"^1[0-4]\d\d\?$"))
    expect(board.locator("#history-title ~ .history, .history")).to_contain_text("1500")
    stamp = board.locator(".history time").first  # in the viewer's locale (issue 16)
    expect(stamp).to_have_text(board.evaluate(
        "(iso) => new Date(iso).toLocaleString([], {dateStyle: 'medium', timeStyle: 'short'})",
        stamp.get_attribute("datetime")))
    audit(board, "a player's page with a rating history")
    board.goto(f"{server.url}me")
    audit(board, "/me after a rated game")
    phone = pages[1]  # the ratings table fits a phone's width (the page does not widen)
    phone.goto(f"{server.url}players/Rated-Ann")
    expect(phone.locator(".board .rating").first).to_be_visible()
    assert phone.evaluate("document.documentElement.scrollWidth"
                          " <= document.documentElement.clientWidth")


def test_the_tab_title_and_icon_change_on_your_turn(device, clocked) -> None:
    server, _ = clocked
    _, pages = two_players(device, server.url, names=("Tabby", "Titus"))
    seat = mover(pages)
    expect(pages[seat]).to_have_title(re.compile(f"^{TURN_TITLE}"))
    expect(pages[1 - seat]).not_to_have_title(re.compile(f"^{TURN_TITLE}"))
    assert "favicon-turn" in pages[seat].locator("link[rel=icon]").get_attribute("href")
    step = pages[seat].locator("#game").get_attribute("data-step")
    if pages[seat].locator("#moves-fold").get_attribute("open") is None:
        pages[seat].click("#moves-fold summary")  # a phone folds the list behind the table
    pages[seat].locator("#moves button").first.click()
    pages[seat].wait_for_function(STEP_CHANGED, arg=step)
    expect(pages[1 - seat]).to_have_title(re.compile(f"^{TURN_TITLE}"))
    expect(pages[seat]).not_to_have_title(re.compile(f"^{TURN_TITLE}"))


def test_a_four_player_game_where_a_person_times_out_is_finished_by_a_bot(device,
                                                                          clocked) -> None:
    server, clock = clocked
    page = device()
    rename(page, server.url, "Sleepy")
    create(page, server.url, ["you", "bot:easy", "bot:easy", "bot:easy"], "1+0",
           players=4)
    page.wait_for_function(MY_TURN_OR_OVER)
    first_moves({0: page})  # then, on the next turn, the person runs out of time
    page.wait_for_function(MY_TURN_OR_OVER)
    clock.advance(61)
    expect(page.locator("#seats")).to_contain_text("bot since: out of time")
    expect(page.locator("#game")).to_have_attribute("data-over", "yes", timeout=90_000)
    expect(page.locator("#result")).to_contain_text("Game over:")
    expect(page.locator("#result-table tr[data-seat='0']")).to_contain_text(
        re.compile(r"out of time|won"))


JUNK = re.compile(r"\b(null|undefined|NaN|None)\b|\bseat \d")


def no_junk(page: Page) -> None:
    """Nothing meant for developers in the page's visible text (issue 25)."""
    shown = page.locator("body").inner_text()
    assert not JUNK.search(shown), JUNK.search(shown)


def test_a_rematch_is_offered_and_begins_only_when_the_other_accepts(device, clocked) -> None:
    """Issue 25 item 1 (RULINGS S-13): Ben's Rematch is an offer Ada sees with his name;
    nothing starts until she accepts; then both pages go to it, the seats swapped."""
    server, clock = clocked
    game_id, pages = two_players(device, server.url, "1+0", ("Offer-Ada", "Offer-Ben"))
    ada, ben = pages[0], pages[1]
    ben.click("#resign")
    ben.click("#confirm-yes")
    for page in pages.values():
        expect(page.locator("#rematch")).to_be_visible()
    ben.click("#rematch")
    expect(ben.locator("#rematch-note")).to_have_text(
        "You offered a rematch. Waiting for Offer-Ada to accept.")
    expect(ben.locator("#rematch")).to_be_hidden()
    expect(ada.locator("#rematch-note")).to_have_text("Offer-Ben offers a rematch.")
    expect(ada.locator("#rematch")).to_have_text("Accept the rematch")
    expect(ada.locator("#rematch-decline")).to_have_text("Decline")
    audit(ada, "a finished game with a rematch offered")
    for page in pages.values():
        no_junk(page)
        assert page.url.rsplit("/", 1)[1].startswith(game_id)  # nobody was moved on
    clock.advance(3600)  # an hour later the offer still waits, and no clock ran
    expect(ada.locator("#rematch-note")).to_have_text("Offer-Ben offers a rematch.")
    ada.click("#rematch")
    for page in pages.values():
        page.wait_for_url(re.compile(r"/games/(?!" + game_id + r")\w+(\?seat=\d)?$"))
        expect(page.locator("#seats li").first).to_contain_text("Offer-Ben")
        expect(page.locator("#seats li").nth(1)).to_contain_text("Offer-Ada")
        expect(page.locator("#game")).to_have_attribute("data-over", "no")
        no_junk(page)
    expect(ben.locator("#seats li").first).to_contain_text("(you)")  # Ben opens now


def test_a_declined_rematch_says_who_declined(device, clocked) -> None:
    server, _ = clocked
    game_id, pages = two_players(device, server.url, names=("Decline-Ada", "Decline-Ben"))
    pages[1].click("#resign")
    pages[1].click("#confirm-yes")
    pages[0].click("#rematch")
    expect(pages[1].locator("#rematch-note")).to_have_text("Decline-Ada offers a rematch.")
    pages[1].click("#rematch-decline")
    for page in pages.values():
        expect(page.locator("#rematch-note")).to_have_text(
            re.compile(r"^Decline-Ben( \(you\))? declined the rematch\.$"))
        expect(page.locator("#rematch")).to_have_text("Rematch")  # another may be offered
        assert game_id in page.url
        no_junk(page)


def test_the_header_counts_my_turns_and_leads_to_them(device, clocked) -> None:
    """Issue 25's your-turn list: the player to move sees "Your move in 1 game" in every
    page's header, a link to the list on /me; the other player sees none."""
    server, _ = clocked
    game_id, pages = two_players(device, server.url, names=("Count-Ada", "Count-Ben"))
    seat = mover(pages)
    for page in pages.values():
        page.goto(f"{server.url}lobby")
    waiting = pages[seat].locator("#your-turns")
    expect(waiting).to_have_text("Your move in 1 game")
    expect(pages[1 - seat].locator("#your-turns")).to_be_hidden()
    audit(pages[seat], "the lobby with a your-turn count in the header")
    waiting.click()
    pages[seat].wait_for_url(re.compile(r"/me#playing-title$"))
    listed = pages[seat].locator(f".player-games li[data-id='{game_id}']")
    expect(listed.locator(".tag.turn")).to_have_text("your turn")
    no_junk(pages[seat])


def test_the_header_count_follows_the_turn_without_a_reload(device, clocked) -> None:
    """The count in the header is not frozen at page load: on the game's own page it
    follows the turn as moves are made, for both players, with no page loaded again."""
    server, _ = clocked
    _, pages = two_players(device, server.url, names=("Live-Ada", "Live-Ben"))
    seat = mover(pages)
    loads = {s: page.evaluate("performance.getEntriesByType('navigation').length")
             for s, page in pages.items()}
    expect(pages[seat].locator("#your-turns")).to_have_text("Your move in 1 game")
    expect(pages[1 - seat].locator("#your-turns")).to_be_hidden()
    step = pages[seat].locator("#game").get_attribute("data-step")
    pages[seat].keyboard.press("1")  # the first listed move: the turn passes
    moved(pages[seat], step)
    expect(pages[seat].locator("#your-turns")).to_be_hidden()
    expect(pages[1 - seat].locator("#your-turns")).to_have_text("Your move in 1 game")
    for s, page in pages.items():
        assert page.evaluate("performance.getEntriesByType('navigation').length") == loads[s]
        no_junk(page)


def test_the_header_count_of_another_page_catches_up_within_half_a_minute(device, clocked
                                                                         ) -> None:
    """A page with no socket of that game (here the lobby, in a second tab of the player
    waiting for the move) learns of the new turn by itself: it counts again every half
    minute while it is in view (the page's timers run on Playwright's clock, moved on by
    hand, so no test time passes waiting)."""
    server, _ = clocked
    _, pages = two_players(device, server.url, names=("Tab-Ada", "Tab-Ben"))
    seat = mover(pages)
    waiting = pages[1 - seat].context.new_page()
    waiting.clock.install()
    waiting.goto(f"{server.url}lobby")
    header = waiting.locator("#your-turns")
    expect(header).to_be_hidden()
    step = pages[seat].locator("#game").get_attribute("data-step")
    pages[seat].keyboard.press("1")  # the first listed move: the turn passes
    moved(pages[seat], step)
    expect(pages[1 - seat].locator("#your-turns")).to_have_text("Your move in 1 game")
    expect(header).to_be_hidden()  # the lobby has not counted again yet
    waiting.clock.fast_forward("00:31")
    expect(header).to_have_text("Your move in 1 game")
    no_junk(waiting)


def test_a_challenge_from_a_players_page_is_seen_taken_and_played_by_both(device, clocked
                                                                           ) -> None:
    """Issue 25's challenge, as two people: Al challenges Bea from her page; Bea sees it
    counted in her header and named on her list ("Dare-Al challenges you"), takes the
    seat, and both are at the same table, each seat under its person's name."""
    server, _ = clocked
    al, bea = device(), device(viewport=PHONE, is_mobile=True, has_touch=True)
    rename(al, server.url, "Dare-Al", "al-password")
    rename(bea, server.url, "Dare-Bea", "bea-password")
    bea.goto(f"{server.url}lobby")
    expect(bea.locator("#your-turns")).to_be_hidden()  # nothing waits for her yet
    al.goto(f"{server.url}players/Dare-Bea")
    expect(al.locator("#challenge-title")).to_have_text("Challenge Dare-Bea")
    al.select_option("#challenge-game", "hadronize")
    al.select_option("#challenge-rated", "casual")
    al.click("#challenge button[type=submit]")
    al.wait_for_url(re.compile(r"/games/\w+(\?seat=0)?$"))
    game_id = re.search(r"/games/(\w+)", al.url).group(1)
    expect(al.locator("#seats li").nth(1)).to_contain_text("Dare-Bea")  # her seat, kept
    no_junk(al)
    bea.goto(f"{server.url}lobby")
    assert game_id not in bea.locator("body").inner_text()  # never listed for others
    counted = bea.locator("#your-turns")
    expect(counted).to_have_text("Your move in 1 game")
    counted.click()
    bea.wait_for_url(re.compile(r"/me#playing-title$"))
    invitation = bea.locator(f".player-games li[data-id='{game_id}']")
    expect(invitation.locator(".tag.turn")).to_have_text("Dare-Al challenges you")
    audit(bea, "a player's page with a challenge to answer")
    no_junk(bea)
    invitation.locator("button[value=accept]").click()
    bea.wait_for_url(re.compile(rf"/games/{game_id}\?seat=1$"))
    for page, me, other in ((al, "Dare-Al", "Dare-Bea"), (bea, "Dare-Bea", "Dare-Al")):
        expect(page.locator("#game")).to_have_attribute("data-over", "no")
        expect(page.locator("#game")).to_have_attribute("data-step", re.compile(r"^[1-9]\d*$"))
        expect(page.locator("#seats")).to_contain_text(f"{me} (you)")
        expect(page.locator("#seats")).to_contain_text(other)
        assert game_id in page.url  # the same table
        no_junk(page)
    first_moves({0: al, 1: bea})  # both can play it
    for page in (al, bea):
        page.goto(f"{server.url}me")
        expect(page.locator(f".player-games li[data-id='{game_id}']")).to_be_visible()
        no_junk(page)
