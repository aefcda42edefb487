"""Win-chance estimates, hints and reviews: budgets, marks, refusals, a controlled clock."""

from __future__ import annotations

import random

import pytest

from quarkade import load_game
from quarkade.agents.estimate import estimate_moves, win_shares
from quarkade.core.agent import turn_for
from quarkade.core.errors import AgentSpecError
from quarkade.core.lessons import LessonRun, tutorial
from quarkade.core.protocol import SPECTATOR
from quarkade.core.rng import sample_chance
from quarkade.learn.hints import hint_for
from quarkade.learn.review import MARKS, Budget, ReviewError, check_seats, review_game, seats_for


class Clock:
    """A clock that moves only when read: ``step`` seconds per reading."""

    def __init__(self, step: float) -> None:
        self.now = 0.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


def lesson_position(game: str, key: str):
    """The position of a tutorial lesson (legal by construction), as a state."""
    course = tutorial(game)
    return LessonRun(course, course.lesson(key)).state


def test_every_move_gets_an_estimate_and_the_same_seed_gives_the_same_estimates():
    state = lesson_position("card-commons", "law")
    turn = turn_for(state)
    first = estimate_moves(turn, random.Random(5), iterations=200)
    again = estimate_moves(turn, random.Random(5), iterations=200)
    assert first == again
    assert [m.action for m in first.moves] == turn.legal_actions
    assert all(0.0 <= m.chance <= 1.0 and m.visits >= 2 for m in first.moves)
    spread = [m.visits for m in first.moves]
    assert max(spread) - min(spread) <= 1  # the root shares its iterations evenly
    assert first.iterations == 200


def test_a_winning_move_is_estimated_certain():
    """Three cubes to two, and announcing now takes the fourth: a sure win."""
    state = lesson_position("dead-cat", "last-cube")
    found = estimate_moves(turn_for(state), random.Random(1), iterations=300)
    assert found.best.action == state.string_to_action("announce")
    assert found.best.chance == 1.0
    assert found.of(state.string_to_action("peek")).chance < 1.0


def test_a_time_budget_is_read_from_the_clock_and_every_move_is_tried():
    turn = turn_for(lesson_position("card-commons", "law"))
    clock = Clock(step=0.25)
    found = estimate_moves(turn, random.Random(2), seconds=1.0, clock=clock)
    # Every legal move is tried once whatever the clock says; then the clock is read after
    # each iteration (0.5, 0.75, 1.0, 1.25) until a second has passed since the start (0.25).
    assert found.iterations == len(turn.legal_actions) + 3
    quick = Clock(step=0.001)
    assert estimate_moves(turn, random.Random(2), seconds=1.0, clock=quick).iterations > 500
    with pytest.raises(AgentSpecError, match="iterations"):
        estimate_moves(turn, random.Random(2))


def test_win_shares_split_a_shared_win():
    from tests.games.dead_cat.test_shared_win import four_all

    assert win_shares(four_all()) == [0.5, 0.5]
    state = decoherence_blunder()
    assert win_shares(state) == [0.0, 1.0]


def test_a_hint_stars_the_best_move_by_its_own_numbers():
    """Issue 25 item 4: the starred move is the best by the chances the hint shows (one
    search), on every decision of a game; every move is ranked."""
    state = lesson_position("dead-cat", "announce")
    found = hint_for(turn_for(state), random.Random(4), iterations=300, seconds=0)
    chances = [m.chance for m in found.moves]
    assert chances == sorted(chances, reverse=True)
    assert {m.action for m in found.moves} == set(state.legal_actions())
    shown = found.as_json()
    assert shown["best"]["text"] == state.action_string_for(0, found.best.action)
    game = load_game("hadronize", players=3)
    rng = random.Random(7)
    position = game.new_initial_state()
    checked = 0
    while not position.is_terminal() and checked < 12:
        if position.is_chance_node():
            position.apply_action(sample_chance(position, rng))
            continue
        shown = hint_for(turn_for(position), random.Random(checked), iterations=60,
                         seconds=0).as_json()
        top = max(m["chance"] for m in shown["moves"])
        starred = next(m for m in shown["moves"] if m["id"] == shown["best"]["id"])
        assert starred["chance"] == top, shown
        checked += 1
        position.apply_action(rng.choice(position.legal_actions()))
    assert checked == 12


def decoherence_blunder():
    """The 'classical' lesson's position, where passing loses at once (seat 0 has no
    cover), and seat 0 passes: a finished game whose last decision is a blunder."""
    state = lesson_position("decoherence", "classical")
    state.apply_action(state.string_to_action("pass"))
    assert state.is_terminal() and state.winners() == [1]
    return state


def test_a_losing_move_is_marked_a_blunder_with_the_best_move_beside_it():
    state = decoherence_blunder()
    found = review_game(state.game, state.history(), [0], viewer=0,
                        budget=Budget(total=0, iterations=300), seed=1)
    last = found.decisions[-1]
    assert last.move == "pass" and last.after == 0.0 and last.mark == "blunder"
    assert last.before >= MARKS[0][1] and last.best != "pass"
    assert found.graph()["0"][-1] == [last.step, 0.0]
    assert found.summary()["0"]["blunder"] >= 1
    assert all(d.seat == 0 for d in found.decisions)
    data = found.as_json()
    assert data["marks"] == {"blunder": 0.3, "mistake": 0.2, "inaccuracy": 0.1}
    assert data["options"] == state.game.options_for(0)


def test_reviews_refuse_unfinished_games_and_seats_the_viewer_may_not_see():
    hidden = load_game("dead-cat")
    open_game = load_game("card-commons")
    assert seats_for(open_game, SPECTATOR) == [0, 1]
    assert seats_for(hidden, 1) == [1]
    with pytest.raises(ReviewError, match="spectator sees none"):
        seats_for(hidden, SPECTATOR)
    with pytest.raises(ReviewError, match=r"seat\(s\) 1 cannot be reviewed.*seat\(s\) 0"):
        check_seats(hidden, 0, [1])
    state = lesson_position("dead-cat", "announce")
    with pytest.raises(ReviewError, match="not finished"):
        review_game(hidden, state.history(), [0], viewer=0, budget=Budget(0, iterations=5))


def test_the_budget_spreads_its_total_within_its_floor_and_cap():
    budget = Budget(total=40.0, least=0.2, most=2.0, iterations=4000)
    assert budget.per_decision(10) == (4000, 2.0)
    assert budget.per_decision(40) == (4000, 1.0)
    assert budget.per_decision(1000) == (4000, 0.2)
    assert Budget(total=0, iterations=50).per_decision(10) == (50, 0.0)


def test_a_review_on_a_controlled_clock_spends_its_budget_per_decision():
    state = decoherence_blunder()
    clock = Clock(step=0.05)
    found = review_game(state.game, state.history(), [0], viewer=0,
                        budget=Budget(total=1.0, least=0.2, most=2.0, iterations=0),
                        clock=clock)
    judged = [d for d in found.decisions if not d.forced]
    assert found.budget["seconds_per_decision"] == max(0.2, 1.0 / len(judged))
    assert all(d.iterations >= d.options for d in judged)
