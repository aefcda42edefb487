"""Dead Cat invariants over random games (hypothesis picks seeds, player counts, options)."""

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from quarkade import IllegalActionError, load_game
from quarkade.games.dead_cat.notation import ALIVE, BET_BASE, DEAD, NUM_ACTIONS
from quarkade.games.dead_cat.rules import GOAL
from tests.games.dead_cat.playing import random_game, replay

games = st.fixed_dictionaries({
    "seed": st.integers(0, 2**32 - 1),
    "players": st.integers(2, 5),
    "announce": st.sampled_from([0.5, 0.2, 0.05]),
    "peek_first": st.booleans(),
})
# Every action at every state is costly in long games: shorter ones for that test.
short_games = games.map(lambda params: {**params, "announce": max(params["announce"], 0.2)})


@given(games)
def test_cards_are_conserved(params):
    players = params["players"]

    def check(state):
        counts = state.card_counts()
        assert counts["alive"] == 4 * players and counts["dead"] == players
        in_time_deck = counts["time_deck_alive"] + counts["time_deck_dead"]
        assert in_time_deck + counts["box"] + counts["removed"] == 5 * players
        assert 0 <= counts["time_deck_dead"] <= players
        assert 0 <= counts["time_deck_alive"] <= 4 * players
        assert counts["box"] >= 0 and counts["removed"] == players
        assert state.time_deck().count("dead") == counts["time_deck_dead"]
        assert len(state.view(-2)["time_deck"]) == in_time_deck
    random_game(**params, on_step=check)


@given(games)
def test_dice_stay_on_1_to_6_and_only_a_peek_turns_one(params):
    previous = []

    def check(state):
        dice = state.dice()
        assert all(1 <= d <= 6 for d in dice)
        if previous:
            before, mover, round_before = previous[-1]
            action = state.history()[-1]
            after = dice if state.round_number() == round_before else state.last_round()["dice"]
            if BET_BASE <= action < ALIVE:
                assert after[mover] != before[mover]  # a peek always changes the die
                assert after[mover] == action - BET_BASE + 1
                after = after[:mover] + after[mover + 1:]
                before = before[:mover] + before[mover + 1:]
            assert after == before  # no other die moves during a round
            if state.round_number() != round_before:
                assert dice == [1] * len(dice)  # a new round turns every die to 1
        previous.append((dice, state.active_seat(), state.round_number()))
    random_game(**params, on_step=check)


@given(games)
def test_games_end_with_four_cubes_and_zero_sum_returns(params):
    final = random_game(**params)
    cubes = final.cubes()
    winners = final.game_winners()
    assert winners and winners == [s for s, c in enumerate(cubes) if c >= GOAL]
    assert all(c <= GOAL for c in cubes)
    returns = final.returns()
    assert sum(returns) == pytest.approx(0) and all(-1 <= r <= 1 for r in returns)
    # One answer for who won (State.outcome()), even when every seat reached four at once.
    assert final.winners() == winners
    assert final.outcome().result == ("win" if len(winners) == 1 else "shared win")
    assert sum(cubes) >= final.round_number()  # every round gives at least one cube


@given(games)
def test_replaying_history_rebuilds_an_equal_state(params):
    final = random_game(**params)
    players = params["players"]
    again = replay(final, final.history())
    for seat in [*range(players), -2]:
        assert json.dumps(again.view(seat)) == json.dumps(final.view(seat))
    assert again.history() == final.history() and again.returns() == final.returns()


@settings(max_examples=30)
@given(short_games)
def test_every_legal_action_applies_and_every_other_is_refused(params):
    def check(state):
        legal = set(state.legal_actions())
        for action in range(-2, NUM_ACTIONS + 2):
            trial = state.clone()
            if action in legal:
                trial.apply_action(action)
                assert trial.history() == [*state.history(), action]
            else:
                with pytest.raises(IllegalActionError, match=r"not legal|over"):
                    trial.apply_action(action)
                assert trial.history() == state.history()
                assert trial.view(-2) == state.view(-2)
                assert trial.time_deck() == state.time_deck()
    random_game(**params, on_step=check)


@given(st.integers(0, 2**32 - 1), st.integers(2, 5))
def test_same_seed_same_game(seed, players):
    assert random_game(seed, players, 0.2).history() == random_game(seed, players, 0.2).history()


def test_clone_is_independent():
    state = load_game("dead-cat", players=3).new_initial_state()
    state.apply_action(10)
    copy = state.clone()
    copy.apply_action(1)
    copy.apply_action(DEAD)
    assert state.time_deck() == [] and state.history() == [10]
    assert copy.time_deck() == ["dead"]
