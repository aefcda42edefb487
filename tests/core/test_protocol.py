"""Shared protocol helpers: returns, notation, chance sampling, agent specs."""

import random
from collections import Counter

import pytest

from quarkade import CHANCE, TERMINAL, load_game
from quarkade.agents import make_agent, parse_spec, turn_for
from quarkade.core.errors import AgentSpecError, NotationError
from quarkade.core.protocol import shared_returns
from quarkade.core.rng import derived_rng, play_chance, sample_chance


def test_public_constants():
    assert (CHANCE, TERMINAL) == (-1, -4)


@pytest.mark.parametrize(("winners", "players", "expected"), [
    ([0], 2, [1.0, -1.0]),
    ([1], 3, [-0.5, 1.0, -0.5]),
    ([0, 2], 4, [0.5, -0.5, 0.5, -0.5]),
    ([], 3, [0.0, 0.0, 0.0]),
    ([0, 1], 2, [0.0, 0.0]),
])
def test_shared_returns_are_zero_sum(winners, players, expected):
    assert shared_returns(winners, players) == expected


def test_sample_chance_follows_the_probabilities():
    state = load_game("hadronize").new_initial_state()
    rng = random.Random(0)
    counts = Counter(sample_chance(state, rng) for _ in range(6000))
    assert set(counts) == set(state.legal_actions())
    assert all(800 < c < 1200 for c in counts.values())


def test_derived_rngs_are_stable_and_independent():
    assert derived_rng(7, "chance").random() == derived_rng(7, "chance").random()
    assert derived_rng(7, "chance").random() != derived_rng(7, "seat0").random()


def test_notation_is_forgiving_about_case_and_spacing_but_not_content():
    state = load_game("hadronize").new_initial_state()
    assert state.string_to_action("  DEAL   Charm ") == state.string_to_action("deal c")
    with pytest.raises(NotationError, match="legal: deal up, deal down"):
        state.string_to_action("collapse charm")
    with pytest.raises(NotationError, match="not a flavour"):
        state.string_to_action("deal photon")


def test_agent_specs():
    assert parse_spec("mcts:iterations=2000, c=1.4") == ("mcts", {"iterations": "2000",
                                                                  "c": "1.4"})
    assert make_agent("Greedy", "hadronize").spec == "Greedy"
    with pytest.raises(AgentSpecError, match="key=value"):
        parse_spec("mcts:2000")
    with pytest.raises(AgentSpecError, match="needs a name"):
        parse_spec(":x=1")


def test_turn_parse_reads_the_game_s_own_notation():
    state = load_game("hadronize").new_initial_state()
    play_chance(state, random.Random(0))
    turn = turn_for(state)
    assert turn.parse("observe 1") == turn.parse("1") == turn.legal_actions[1]
    with pytest.raises(NotationError, match="not a legal action"):
        turn.parse("banana")
