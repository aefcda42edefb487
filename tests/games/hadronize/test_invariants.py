"""Hadronize invariants over random games (hypothesis picks seeds and player counts)."""

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quarkade import CHANCE, IllegalActionError, load_game
from quarkade.core.rng import random_playout, sample_chance
from quarkade.games.hadronize.rules import STARTING_QUARKS


def _play(seed, players, on_step):
    rng = random.Random(seed)
    state = load_game("hadronize", players=players).new_initial_state()
    steps = 0
    while not state.is_terminal():
        on_step(state)
        action = sample_chance(state, rng) if state.is_chance_node() else \
            rng.choice(state.legal_actions())
        state.apply_action(action)
        steps += 1
        assert steps < 20_000
    on_step(state)
    return state


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_quarks_are_conserved(seed, players):
    def check(state):
        setup = len(state.history()) < STARTING_QUARKS * players
        expected = len(state.history()) if setup else \
            STARTING_QUARKS * players + state.turns_played()
        assert state.total_quarks() == expected
        assert all(c >= 0 for seat in range(players) for c in state.chamber(seat))
    _play(seed, players, check)


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_every_legal_action_applies_and_every_other_is_refused(seed, players):
    def check(state):
        legal = set(state.legal_actions())
        for action in range(-3, 41):
            trial = state.clone()
            if action in legal:
                trial.apply_action(action)
                assert trial.history() == [*state.history(), action]
            else:
                with pytest.raises(IllegalActionError):
                    trial.apply_action(action)
                assert trial.history() == state.history()
                assert trial.view(0) == state.view(0)
    _play(seed, players, check)


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_replaying_history_rebuilds_an_equal_state(seed, players):
    final = _play(seed, players, lambda state: None)
    replayed = load_game("hadronize", players=players).new_initial_state()
    for action in final.history():
        replayed.apply_action(action)
    assert [replayed.view(p) for p in range(players)] == [final.view(p) for p in range(players)]
    assert replayed.history() == final.history()


@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6))
def test_games_end_with_one_winner_and_zero_sum_returns(seed, players):
    final = random_playout(load_game("hadronize", players=players).new_initial_state(),
                           random.Random(seed))
    returns = final.returns()
    assert sum(returns) == pytest.approx(0)
    winners = final.winners()
    assert len(winners) == 1
    assert final.hadronized(winners[0]) >= 10
    assert returns[winners[0]] == 1.0
    assert all(r == pytest.approx(-1 / (players - 1)) for s, r in enumerate(returns)
               if s != winners[0])


@given(seed=st.integers(0, 2**32 - 1))
def test_same_seed_same_game(seed):
    first = random_playout(load_game("hadronize", players=4).new_initial_state(),
                           random.Random(seed))
    second = random_playout(load_game("hadronize", players=4).new_initial_state(),
                            random.Random(seed))
    assert first.history() == second.history()


def test_clone_is_independent():
    state = load_game("hadronize").new_initial_state()
    copy = state.clone()
    copy.apply_action(26)
    assert state.history() == [] and state.chamber(0) == [0] * 6
    assert state.current_player() == CHANCE
