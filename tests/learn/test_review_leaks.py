"""Reviews never reveal a hidden card: a seat's review of a game equals its review of a twin.

For finished random games of Dead Cat and Decoherence and each seat, a *twin* history is
built that the seat sees exactly as the real one at every step (same notation, same views)
while the other seats' hidden cards differ (``tests/twins.py``; a twin always differs).
The seat's review of both, with the same seed and an iteration budget (so no clock is
involved), must be identical, byte for byte: every estimate, best move, mark and word of
it depends only on what the seat could know. A hint, too, is the same in twin positions.
"""

from __future__ import annotations

import json
import random

import pytest

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.core.agent import turn_for
from quarkade.learn.hints import hint_for
from quarkade.learn.review import Budget, check_seats, review_game
from quarkade.sim.match import play_game
from tests.twins import NoTwin, twin_history

BUDGET = Budget(total=0, iterations=40)
CASES = [
    ("dead-cat", {"players": 2}, ("random", "random"), 11),
    ("dead-cat", {"players": 3, "peek_first": True}, ("random", "greedy", "random"), 12),
    ("decoherence", {}, ("greedy", "random"), 13),
    ("decoherence", {"deck0": "surge", "deck1": "observer"}, ("random", "greedy"), 14),
]


def finished_game(name, options, agents, seed):
    """A finished game (from ``seed`` on) that hides something from every seat."""
    game = load_game(name, **options)
    for attempt in range(seed, seed + 50):
        bots = [make_agent(spec, name) for spec in agents]
        history = play_game(game, bots, attempt).history()
        try:
            for seat in range(game.num_players):
                twin_history(game, history, seat, random.Random(attempt), tries=20)
        except NoTwin:
            continue
        return game, history
    raise NoTwin(f"no {name} game from seed {seed} hid something from every seat")


def review_text(game, history, seat):
    found = review_game(game, history, check_seats(game, seat, [seat]), viewer=seat,
                        budget=BUDGET, seed=7)
    return json.dumps(found.as_json(), sort_keys=True)


@pytest.mark.parametrize(("name", "options", "agents", "seed"), CASES,
                         ids=[f"{c[0]}-{c[3]}" for c in CASES])
def test_a_seats_review_is_the_same_in_a_twin_game(name, options, agents, seed):
    game, history = finished_game(name, options, agents, seed)
    for seat in range(game.num_players):
        twin = twin_history(game, history, seat, random.Random(seed * 10 + seat))
        assert twin != history
        mine = review_text(game, history, seat)
        assert mine == review_text(game, twin, seat), (
            f"seat {seat}'s review of a {name} game changes with cards it never saw")
        reviewed = json.loads(mine)
        assert {d["seat"] for d in reviewed["decisions"]} == {seat}
        assert reviewed["options"] == game.options_for(seat)


@pytest.mark.parametrize("name", ["dead-cat", "decoherence"])
def test_a_hint_is_the_same_in_a_twin_position(name):
    game, history = finished_game(name, {}, ("random", "random"), 21)
    state = game.new_initial_state()
    checked = 0
    for step, action in enumerate(history):
        seat = state.current_player()
        if seat >= 0 and step % 3 == 0 and len(state.legal_actions()) > 1:
            try:  # nothing hidden from the seat yet: nothing to leak
                twin = twin_history(game, history[:step], seat, random.Random(step), tries=20)
            except NoTwin:
                state.apply_action(action)
                continue
            twin_state = game.new_initial_state()
            for twin_action in twin:
                twin_state.apply_action(twin_action)
            hints = [hint_for(turn_for(position), random.Random(3), iterations=30,
                              seconds=0).as_json() for position in (state, twin_state)]
            assert hints[0] == hints[1]
            checked += 1
        state.apply_action(action)
    assert checked >= 3
