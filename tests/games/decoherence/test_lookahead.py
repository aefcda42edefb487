"""Decoherence's hard level, ``lookahead``: it looks past the end of its turn."""

import random

import pytest

from quarkade.agents import make_agent, turn_for
from quarkade.core.errors import AgentSpecError
from quarkade.games.decoherence.lines import WIN
from quarkade.games.decoherence.notation import PASS
from tests.games.decoherence.helpers import ANN, BOB, scene, set_verve


def threatened():
    """Bob has opened a verved out and kept his opening noun (he played only a verb and a
    qualifier, so the noun dealt first is still in his hand: every world Ann samples has
    one). Ann, at 2 verve, dies to it next turn unless she gains verve now."""
    state = scene((ANN, ["verved down lulu"]),
                  (BOB, ["verb verved -> chain 1", "qualifier out -> chain 1"]),
                  (ANN, []), test="verved through kiki")
    set_verve(state, 2, 9)
    return state


def test_passing_into_the_other_seats_kill_is_seen_as_lost():
    state = threatened()
    agent = make_agent("lookahead", "decoherence")
    turn = turn_for(state)
    rng = random.Random(1)
    for seed in range(6):
        world = turn.sample_state(rng)
        assert any(w in world.hand(BOB) for w in ("kiki", "bouba", "lulu"))
        assert agent._ahead(world, ANN, PASS, random.Random(seed)) == -WIN


def test_lookahead_gains_enough_verve_to_outlive_the_kill():
    state = threatened()
    agent = make_agent("hard", "decoherence")
    rng = random.Random(2)
    while state.current_player() == ANN:
        state.apply_action(agent.act(turn_for(state), rng))
    assert state.verve(ANN) > 3  # more than any noun's verved out takes


def test_lookahead_repeats_itself_for_a_seed_and_plays_legal_moves():
    state = threatened()
    moves = [make_agent("lookahead:worlds=3,top=2", "decoherence").act(
        turn_for(state), random.Random(5)) for _ in range(2)]
    assert moves[0] == moves[1] and moves[0] in state.legal_actions()


def test_bad_lookahead_parameters_are_refused():
    with pytest.raises(AgentSpecError, match="worlds='0' is not allowed; it takes a whole "
                                             "number of at least 1"):
        make_agent("lookahead:worlds=0", "decoherence")
