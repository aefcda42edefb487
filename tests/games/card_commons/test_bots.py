"""Card Commons bots: what greedy chooses, that it reads only its turn, and that it wins."""

import random

import pytest

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.core.errors import AgentSpecError
from quarkade.games.card_commons.policy import candidate_actions
from quarkade.sim import play_match
from tests.games.card_commons.helpers import arrange, example_position


def choice(state, spec="greedy", seed=0):
    agent = make_agent(spec, "card-commons")
    return state.action_to_string(agent.act(turn_for(state), random.Random(seed)))


def test_greedy_fills_the_opponents_side_not_its_own():
    move = choice(arrange({"b2": "4D"}))
    row = int(move.split()[-1][-1])
    assert row in (1, 2), move  # seat 0's own side is rows 3-4


def test_greedy_ends_a_game_it_is_winning():
    state = arrange({"b2": "4D", "b1": "3C"}, to_move=1)
    state.apply_action(state.string_to_action("pass"))
    assert choice(state) == "pass"  # 8 open cells against 6: passing now wins


def test_greedy_does_not_pass_into_a_loss():
    state = arrange({"b3": "4D", "b4": "3C"}, to_move=1)
    state.apply_action(state.string_to_action("pass"))
    assert choice(state) != "pass"
    assert choice(state, "greedy:reply=0") != "pass"


def test_greedy_searches_one_inversion_per_card_and_cell():
    state = example_position()
    legal = state.legal_actions()
    kept = [state.action_to_string(a) for a in candidate_actions(legal)]
    inversions = [t for t in kept if t.startswith("inv")]
    assert len(inversions) == 2 and len(legal) - len(kept) == 2 * 9  # 10 discards each
    # The A♥ and A♠ have the fewest cells (3 each), and an Ace is an extreme level.
    assert inversions == ["inv 5H b2 /AH", "inv 4S c3 /AH"]


def test_greedy_reads_only_its_turn():
    state = example_position()
    turn = turn_for(state)
    assert turn.view == state.view(0)
    assert make_agent("greedy", "card-commons").act(turn, random.Random(1)) in turn.legal_actions


def test_greedy_refuses_a_bad_parameter():
    with pytest.raises(AgentSpecError, match="reply='2' is not allowed; it takes 0 or 1"):
        make_agent("greedy:reply=2", "card-commons")


@pytest.mark.parametrize("options", [{}, {"variant": "tutorial"}, {"torus": True}])
def test_greedy_beats_random(options):
    game = load_game("card-commons", **options)
    games = 16
    wins = 0
    for seed in range(games):
        seat = seed % 2
        agents = [make_agent("random", "card-commons") for _ in range(2)]
        agents[seat] = make_agent("greedy", "card-commons")
        final, _ = play_match(game, agents, seed=seed)
        wins += final.returns()[seat] > 0
    assert wins / games >= 0.8
