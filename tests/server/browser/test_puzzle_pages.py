"""Puzzles and the analysis board in a real browser: a player solves a puzzle by clicking
its moves, fails another and sees the reply that beats the wrong move, then opens the
analysis board from a step of a finished game's replay and plays a move on it; axe-core
finds nothing serious on either page (``accessibility.audit``)."""

from __future__ import annotations

import json
import random

from playwright.sync_api import Page, expect

from quarkade import load_game
from quarkade.games.card_commons.text import pretty
from quarkade.server.learn.puzzles import POOL
from tests.server.browser.accessibility import audit
from tests.server.browser.helpers import store_actions

ROOT = "document.getElementById('{}')"
POOL_ENTRIES = json.loads(POOL.read_text())


def settled(page: Page, root: str) -> None:
    page.wait_for_function(f"() => {ROOT.format(root)}.dataset.pending !== 'yes'")


def test_a_player_solves_a_puzzle_and_fails_another_seeing_the_refutation(device, server):
    page = device()
    page.goto(server.url + "puzzles#1")
    page.wait_for_function(f"() => {ROOT.format('puzzles')}.dataset.number === '1'")
    expect(page.locator("#puzzle-title")).to_have_text(f"Puzzle 1 of {len(POOL_ENTRIES)}")
    expect(page.locator("#task")).to_have_text(
        "You are to move, and exactly one move wins. Find it."
    )
    audit(page, "a puzzle to solve")
    entry = POOL_ENTRIES[0]
    solver_steps = [step["at"] for step in entry["steps"]]
    for at in solver_steps:
        page.wait_for_function(f"(at) => {ROOT.format('puzzles')}.dataset.step === at", arg=str(at))
        page.locator(f"#puzzle-moves button[data-move='{entry['solution'][at]}']").click()
        page.wait_for_function(f"(at) => {ROOT.format('puzzles')}.dataset.step !== at", arg=str(at))
        settled(page, "puzzles")
        expect(page.locator("#feedback")).to_contain_text("Right:")
    expect(page.locator("#puzzles")).to_have_attribute("data-result", "solved")
    expect(page.locator("#feedback")).to_contain_text("Puzzle solved!")
    expect(page.locator("#tally")).to_contain_text("Solved 1 of the 1 you have tried")
    audit(page, "a solved puzzle")

    page.click("#next")
    page.wait_for_function(f"() => {ROOT.format('puzzles')}.dataset.number === '2'")
    wrong = next(iter(POOL_ENTRIES[1]["steps"][0]["refutations"]))
    page.locator(f"#puzzle-moves button[data-move='{wrong}']").click()
    page.wait_for_function(f"() => {ROOT.format('puzzles')}.dataset.result === 'failed'")
    feedback = page.locator("#feedback")
    expect(feedback).to_contain_text("Not that.")
    expect(feedback).to_contain_text("The winning move was")
    reply = POOL_ENTRIES[1]["steps"][0]["refutations"][wrong]
    if reply:
        expect(feedback).to_contain_text("your opponent answers")
        expect(feedback).to_contain_text(in_words(reply))
    else:
        expect(feedback).to_contain_text("ends the game, and you lose")
    expect(page.locator("#puzzle-moves-box")).to_be_hidden()
    expect(page.locator("#tally")).to_contain_text("Solved 1 of the 2 you have tried")
    audit(page, "a failed puzzle, its refutation shown")


def in_words(notation: str) -> str:
    """What the page's words for a Tutorial move hold of its notation: "3H d1" reads
    "3♥ on d1", "inv 4S c3 /AH" "on c3 with the 4♠, throwing away the A♥"."""
    words = notation.split()
    if words[0] == "inv":
        return (f"on {words[2]} with the {pretty(words[1])}, "
                f"throwing away the {pretty(words[3][1:])}")
    return f"{pretty(words[0])} on {words[1]}"


def finished_game(db: str) -> tuple[str, list[int]]:
    """A Tutorial game played to its end by random moves, stored; its id and actions."""
    state = load_game("card-commons", variant="tutorial").new_initial_state()
    rng = random.Random(7)
    played = []
    while not state.is_terminal():
        player = state.current_player()
        action = rng.choice(state.legal_actions()) if player >= 0 else state.chance_outcomes()[0][0]
        state.apply_action(action)
        played.append((player, action))
    game_id, _, _ = store_actions(db, "card-commons", state.game.options, played, state)
    return game_id, [action for _, action in played]


def test_the_analysis_board_opens_from_a_replay_step_and_plays_a_move(device, server):
    game_id, actions = finished_game(server.db)
    page = device()
    page.goto(f"{server.url}games/{game_id}/replay")
    page.wait_for_function(f"() => {ROOT.format('replay')}.dataset.step === '0'")
    for step in range(1, 5):
        page.click("#forward")
        page.wait_for_function(f"(s) => {ROOT.format('replay')}.dataset.step === s", arg=str(step))
    link = page.locator("#analyse")
    expect(link).to_have_text("Analyse this position")
    link.click()
    page.wait_for_url("**/analysis/card-commons?game=*")
    board = ROOT.format("analysis")
    page.wait_for_function(f"() => {board}.dataset.judged === 'yes'", timeout=240_000)
    expect(page.locator("#setting")).to_contain_text("From a finished game, 4 steps in")
    expect(page.locator("#forward")).to_be_enabled()  # the rest of the game, move by move
    judged = page.locator("#judged button")
    expect(judged.first).to_be_visible()
    state = load_game("card-commons", variant="tutorial").new_initial_state()
    for action in actions[:4]:
        state.apply_action(action)
    assert judged.count() == len(state.legal_actions())
    for text in judged.all_inner_texts():
        assert "(proven)" in text or "% to win (estimate)" in text, text
    audit(page, "the analysis board, its moves judged")
    first = judged.first.get_attribute("data-move")
    judged.first.click()
    page.wait_for_function(f"() => {board}.dataset.step === '5'")
    page.wait_for_function(f"() => {board}.dataset.judged === 'yes'", timeout=240_000)
    assert page.locator("#moves-text").input_value().endswith(f", {first}")
    page.click("#back")
    page.wait_for_function(f"() => {board}.dataset.step === '4'")
    expect(page.locator("#forward")).to_be_enabled()
    page.wait_for_function(f"() => {board}.dataset.judged === 'yes'", timeout=240_000)
    audit(page, "the analysis board after a step back")
