"""``rollout``, Decoherence's hard level: lookahead's best moves played to the end in worlds
its seat cannot tell from its own; compiled and Python alike, and blind to what the seat
has not seen."""

from __future__ import annotations

import math
import random

import pytest

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.core.errors import AgentSpecError
from quarkade.games.decoherence.lines import LinePlayer
from quarkade.games.decoherence.lookahead import TUNED
from quarkade.games.decoherence.rollout import RolloutAgent
from quarkade.sim.match import play_game
from tests.agents.test_compiled_search import replayed
from tests.twins import history_with_secrets, twin_history


def _late_decision(seed: int, before_end: int = 8):
    """A play decision with several moves, some decisions before the end of a greedy game
    (so that its playouts are short enough for the Python reference)."""
    game = load_game("decoherence", deck0="observer", deck1="weaver")
    greedy = [make_agent("greedy", "decoherence") for _ in range(2)]
    history = play_game(game, greedy, seed).history()
    state = game.new_initial_state()
    found = []
    for action in history:
        if (not state.is_chance_node() and state.phase() == "play"
                and len(state.legal_actions()) >= 3):
            found.append(state.clone())
        state.apply_action(action)
    return found[-before_end] if len(found) >= before_end else found[0]


@pytest.mark.parametrize(("opponent", "guess"), [("greedy", 1), ("lines", 0)])
def test_compiled_and_python_rollouts_agree_within_noise(opponent, guess):
    """Each candidate's mean return over many worlds, compiled against the reference: the
    playouts with each seat on its own guesses (the default) and seeing the world."""
    state = _late_decision(3)
    turn = turn_for(state)
    worlds = 150
    compiled = RolloutAgent(worlds=worlds, top=3, opponent=opponent, guess=guess)
    python = RolloutAgent(worlds=worlds, top=3, opponent=opponent, guess=guess, compiled=0)
    compiled.act(turn, random.Random(1))
    python.act(turn, random.Random(1))
    assert set(compiled.last_totals) == set(python.last_totals)  # the same top moves
    for action, total in compiled.last_totals.items():
        a, b = total / worlds, python.last_totals[action] / worlds
        spread = math.sqrt(2 / worlds)  # returns in [-1, 1]
        assert abs(a - b) < 4 * spread, (action, a, b)


def test_the_candidates_are_lookahead_s_best_ranked_moves():
    state = _late_decision(5)
    agent = RolloutAgent(worlds=30, top=2)
    move = agent.act(turn_for(state), random.Random(2))
    assert len(agent.last_totals) == 2 and move in agent.last_totals
    assert agent.last_totals[move] == max(agent.last_totals.values())
    everything = RolloutAgent(worlds=30, top=99)
    everything.act(turn_for(state), random.Random(2))
    assert set(everything.last_totals) == set(state.legal_actions())


def test_other_decisions_take_the_best_tuned_line():
    """A target or a discard: the best line with lookahead's weights on one world."""
    from tests.games.decoherence.test_invariants import playout

    agent = RolloutAgent(worlds=4)
    checked = 0

    def check(state):
        nonlocal checked
        if (not state.is_terminal() and state.phase() in ("target", "discard")
                and len(state.legal_actions()) > 1 and checked < 20):
            turn = turn_for(state)
            expected = LinePlayer(TUNED).choose(turn.sample_state(random.Random(0)),
                                                turn.player, turn.legal_actions)
            assert agent.act(turn, random.Random(0)) == expected
            checked += 1

    for seed in range(10):
        playout(seed, {}, check)
    assert checked >= 10


def test_rollout_depends_only_on_what_its_seat_knows():
    game = load_game("decoherence", deck1="surge")
    rng = random.Random(9)
    compared = 0
    for seed in range(5):
        seat = seed % 2
        length = 25 + 4 * seed
        while True:
            history = history_with_secrets(game, seat, rng, length, deciding=True)
            state = replayed(game, history)
            if state.phase() == "play" and len(state.legal_actions()) > 1:
                break
            length += 1
        twin = twin_history(game, history, seat, random.Random(seed))
        results = []
        for played in (history, twin):
            agent = make_agent("rollout:worlds=24", "decoherence")
            move = agent.act(turn_for(replayed(game, played)), random.Random(seed))
            results.append((move, agent.last_totals))
        assert results[0] == results[1]
        compared += 1
    assert compared == 5


@pytest.mark.parametrize(("spec", "fragment"), [
    ("rollout:worlds=0", "at least 1"), ("rollout:top=0", "at least 1"),
    ("rollout:compiled=2", "it takes 0 or 1"), ("rollout:guess=2", "it takes 0 or 1"),
    ("rollout:opponent=wise", "one of greedy, lines"),
])
def test_bad_specs_are_refused(spec, fragment):
    with pytest.raises(AgentSpecError, match=fragment):
        make_agent(spec, "decoherence")
