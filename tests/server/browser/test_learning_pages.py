"""Learning in a real browser: a new player takes each game's whole tutorial by clicking (a
wrong move answered by the rule it breaks, every task done, then the real game against
easy); the hint panel lists a win chance for every move; a finished game's review page
shows the graph and a marked move."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from quarkade import list_games
from quarkade.core.lessons import LessonRun, tutorial
from quarkade.core.registry import game_class
from quarkade.server.limits import Limits
from tests.server.browser.conftest import PHONE
from tests.server.browser.helpers import MY_TURN_OR_OVER, moved, store_actions, take_seat

LEARN = "document.getElementById('learn')"
READY = f"() => {LEARN}.dataset.pending !== 'yes' && {LEARN}.dataset.lesson !== ''"
# A hint comes within the server's hint deadline, or the page says there is none: the test
# waits that long (a hint's speed is measured in make bench, never asserted here).
HINT_MS = Limits().hint_seconds * 1000


def take_scripted_lesson(page: Page, key: str, show_a_wrong_move: bool) -> None:
    page.wait_for_function(f"(key) => {LEARN}.dataset.lesson === key", arg=key)
    while page.locator("#learn").get_attribute("data-finished") == "no":
        task = page.locator("#learn").get_attribute("data-task")
        expect(page.locator("#task")).to_contain_text(f"Task {task} of")
        wrong = page.locator("#lesson-moves button[data-goal='no']")
        if show_a_wrong_move and wrong.count():
            wrong.first.click()
            page.wait_for_function(f"() => {LEARN}.dataset.feedback === 'wrong'")
            page.wait_for_function(READY)
            expect(page.locator("#feedback")).to_contain_text("Not that.")
            expect(page.locator("#feedback")).not_to_contain_text("(rule ")
            expect(page.locator("#feedback")).to_be_in_viewport()  # beside the list
            assert page.locator("#learn").get_attribute("data-task") == task
            show_a_wrong_move = False
        goals = page.locator("#lesson-moves button[data-goal='yes']")
        expect(goals.first).to_be_visible()
        goals.first.click()
        page.wait_for_function(
            f"(task) => {LEARN}.dataset.task !== task || {LEARN}.dataset.finished === 'yes'",
            arg=task)
        page.wait_for_function(READY)
        expect(page.locator("#feedback")).not_to_contain_text("Not that.")
        expect(page.locator("#learn")).not_to_contain_text("`")  # no developers' markup


def play_the_final_game(page: Page) -> None:
    """The real game against easy: the first listed move each turn, to the end."""
    page.click("#start-final")
    page.wait_for_url("**/games/*")
    for _ in range(400):
        page.wait_for_function(MY_TURN_OR_OVER)
        if page.locator("#game").get_attribute("data-over") == "yes":
            break
        step = page.locator("#game").get_attribute("data-step")
        page.locator("#moves button").first.click()
        moved(page, step)  # a move that ends the game for its mover asks first
    expect(page.locator("#result-box")).to_be_visible()
    page.click("#tutorial-link")
    page.wait_for_url("**/learn/**")


@pytest.mark.parametrize("game", list_games())
def test_a_new_player_completes_the_tutorial_by_clicking(device, server, game):
    page = device()
    page.goto(server.url + "learn")
    page.click(f"a[href='/learn/{game}']")
    course = tutorial(game)
    for number, lesson in enumerate(course.lessons, start=1):
        expect(page.locator("#lesson-title")).to_have_text(
            f"Lesson {number} of {len(course.lessons)}: {lesson.title}")
        if lesson.final:
            play_the_final_game(page)
            break
        take_scripted_lesson(page, lesson.key, show_a_wrong_move=True)
        expect(page.locator("#task")).to_have_text("Lesson complete.")
        expect(page.locator(f"#lessons li.done a[data-key='lesson-{lesson.key}']")).to_have_count(1)
        page.click("#next")
    # Back from the game, the tutorial knows it is done, lesson by lesson.
    page.wait_for_function(f"() => {LEARN}.dataset.lesson === 'final'")
    expect(page.locator("#final")).to_contain_text("the tutorial is done")
    expect(page.locator("#lessons li.done")).to_have_count(len(course.lessons))
    page.goto(server.url + "learn")
    expect(page.locator(".course", has_text=game_class(game).title)).to_contain_text(
        "every lesson done")


def test_a_forbidden_move_on_the_table_is_answered_by_its_rule(device, server):
    """Card Commons: choosing the Ace and a centre cell on the table itself is refused with
    the opening rule, and nothing moves."""
    page = device(viewport=PHONE)
    page.goto(server.url + "learn/card-commons#open")
    page.wait_for_function(f"() => {LEARN}.dataset.lesson === 'open'")
    page.click("button[data-key='hand-AH']")
    page.click("button[data-key='cell-b2']")
    expect(page.locator("#feedback")).to_contain_text("An Ace may never open the field.")
    expect(page.locator("#feedback")).not_to_contain_text("C.opening")
    assert page.locator("#learn").get_attribute("data-finished") == "no"


def test_the_law_lesson_lights_only_the_cells_the_law_allows(device, server):
    """Card Commons' Law lesson asks for one of the five cells the 3♥ may go to: exactly those
    five light up; a trap cell the Law forbids is still there to try, unlit, and answered."""
    page = device()
    page.goto(server.url + "learn/card-commons#law")
    page.wait_for_function(f"() => {LEARN}.dataset.lesson === 'law'")
    page.click("button[data-key='hand-3H']")
    lit = page.locator("button.cc-cell.lit")
    expect(lit).to_have_count(5)
    assert sorted(lit.evaluate_all("cells => cells.map((c) => c.dataset.cell)")) == [
        "a2", "b1", "c1", "d2", "d4"]
    trap = page.locator("button[data-key='cell-c4']")
    expect(trap).not_to_have_class(re.compile(r"\blit\b"))
    trap.click()
    expect(page.locator("#feedback")).to_contain_text("higher than 4")
    assert page.locator("#learn").get_attribute("data-task") == "1"
    # The same in the next lesson: the red 4♥ may not invert the red 4♦, so c3 stays unlit.
    page.click("#lessons a[data-key='lesson-invert']")
    page.wait_for_function(f"() => {LEARN}.dataset.lesson === 'invert'")
    page.click("button[data-key='hand-4H']")
    expect(page.locator("button[data-key='cell-c3']")).not_to_have_class(re.compile(r"\blit\b"))
    page.click("button[data-key='hand-4S']")
    expect(page.locator("button[data-key='cell-c3']")).to_have_class(re.compile(r"\blit\b"))


def test_the_hint_panel_lists_a_chance_for_every_move(device, server):
    page = device()
    page.goto(server.url + "new/dead-cat")
    page.select_option("#seat1", "bot:random")
    page.click("button:has-text('Start the game')")
    page.wait_for_function(MY_TURN_OR_OVER)
    expect(page.locator("#coach")).to_be_visible()
    page.click("#hint")
    expect(page.locator("#hint-panel")).to_contain_text("Best by this search: ",
                                                        timeout=HINT_MS)
    moves = page.locator("#moves button").count()
    expect(page.locator("#hint-panel .hint-list li")).to_have_count(moves)
    expect(page.locator("#hint-panel .hint-list li.bot")).to_have_count(1)
    expect(page.locator("#unrated")).to_contain_text("will not be rated")
    assert all(text.endswith("%") for text in
               page.locator("#hint-panel .chance").all_inner_texts())


def blunder_game(db: str) -> tuple[str, dict[int, str]]:
    """A finished Decoherence game whose last move is a blunder: seat 0, with no cover,
    passes and is made classical (the tutorial's 'classical' position)."""
    course = tutorial("decoherence")
    run = LessonRun(course, course.lesson("classical"))
    state = run.state
    state.apply_action(state.string_to_action("pass"))
    replay = state.game.new_initial_state()
    played = []
    for action in state.history():
        played.append((replay.current_player(), action))
        replay.apply_action(action)
    game_id, tokens, _ = store_actions(db, "decoherence", dict(state.game.options), played,
                                       state, bots={1: "greedy"})
    return game_id, tokens


def test_the_review_page_shows_the_graph_and_a_marked_move(device, server):
    game_id, tokens = blunder_game(server.db)
    page = device()
    take_seat(page, f"{server.url}games/{game_id}/join/{tokens[0]}")
    page.wait_for_function(MY_TURN_OR_OVER)
    page.click("#review-link")
    page.wait_for_url("**/review**")
    page.wait_for_function("() => document.getElementById('review').dataset.state === 'done'")
    expect(page.locator("#graph svg polyline")).to_have_count(1)
    # The last move (the pass) is a blunder under any search; the search (seeded by the
    # game's id) may judge an earlier move one too, and the graph, the table and the
    # summary all show the same marks.
    last = page.locator("#decisions tr").last
    expect(last).to_have_class(re.compile(r"\bblunder\b"))
    expect(last).to_contain_text("pass")
    expect(last).to_contain_text("?? blunder")
    blunders = page.locator("#decisions tr.blunder").count()
    expect(page.locator("#graph svg circle.marked.blunder")).to_have_count(blunders)
    expect(page.locator("#summary")).to_contain_text(
        f"{blunders} blunder{'' if blunders == 1 else 's'},")
