"""Card Commons invariants over random games (hypothesis picks seeds, variants and fields).

Random play passes rarely here (``PASS_RATE``) so that games run long and fill the field.
"""

import json
import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from quarkade import SPECTATOR, IllegalActionError, load_game
from quarkade.core.rng import random_playout
from quarkade.games.card_commons.notation import (
    INVERT_BASE,
    NUM_ACTIONS,
    PASS,
    REPEL_BASE,
    decode_invert,
    decode_place,
    level,
)
from quarkade.games.card_commons.rules import CORNERS
from tests.games.card_commons.reference import law_allows, reference_actions

PASS_RATE = 0.05
variants = st.sampled_from(["classic", "tutorial"])


def play(seed, variant, torus, on_step=lambda state, action: None):
    """A random game; ``on_step(state, action)`` sees each state before its action."""
    rng = random.Random(seed)
    state = load_game("card-commons", variant=variant, torus=torus).new_initial_state()
    while not state.is_terminal():
        legal = state.legal_actions()
        moves = [a for a in legal if a != PASS]
        action = rng.choice(moves) if moves and rng.random() > PASS_RATE else rng.choice(legal)
        on_step(state, action)
        state.apply_action(action)
        assert len(state.history()) < 120, "a game runs at most ~24 placements, each with " \
                                           "one ability choice, and passes between them"
    on_step(state, None)
    return state


def all_cards(state):
    cards = []
    for seat in (0, 1):
        cards += state.hand(seat) + state.discards(seat)
    for cell in range(16):
        cards += [card for card, _ in state.stack(cell)]
    return cards


@given(seed=st.integers(0, 2**32 - 1), variant=variants, torus=st.booleans())
def test_cards_are_conserved_and_stacks_stay_small(seed, variant, torus):
    def check(state, action):
        assert sorted(all_cards(state)) == list(range(24))
        assert all(len(state.stack(cell)) <= 2 for cell in range(16))
        assert state.open_cells(0) + state.open_cells(1) == \
            16 - sum(1 for cell in range(16) if state.stack(cell))
    play(seed, variant, torus, check)


@given(seed=st.integers(0, 2**32 - 1), variant=variants, torus=st.booleans())
def test_legal_actions_match_a_plain_reading_of_the_rules(seed, variant, torus):
    def check(state, action):
        assert state.legal_actions() == reference_actions(state)
    play(seed, variant, torus, check)


@given(seed=st.integers(0, 2**32 - 1), variant=variants, torus=st.booleans())
def test_every_placed_card_obeyed_the_law_or_an_anchor(seed, variant, torus):
    def check(state, action):
        if action is None or action >= REPEL_BASE or state.phase() == "opening":
            return  # slides, turns, declines and passes place nothing from a hand
        if action < INVERT_BASE:
            local, cell = decode_place(action)
        else:
            local, cell, _ = decode_invert(action)
        card = state.current_player() * 12 + local
        if law_allows(state, card, cell, torus, abilities=False):
            return
        assert variant == "classic" and level(card) == 4 and cell in CORNERS
        assert law_allows(state, card, cell, torus, abilities=True)
    play(seed, variant, torus, check)


@given(seed=st.integers(0, 2**32 - 1), variant=variants, torus=st.booleans())
def test_legal_actions_apply_and_others_are_refused(seed, variant, torus):
    rng = random.Random(seed)

    def check(state, action):
        legal = state.legal_actions()
        for trial_action in legal:
            trial = state.clone()
            trial.apply_action(trial_action)
            assert trial.history() == [*state.history(), trial_action]
        before = (state.history(), json.dumps(state.view(0)))
        for bad in [*rng.sample(range(-2, NUM_ACTIONS + 2), 40), True, "3H c2", 2.0]:
            if bad in legal and type(bad) is int:
                continue
            with pytest.raises(IllegalActionError):
                state.apply_action(bad)
        assert (state.history(), json.dumps(state.view(0))) == before
    play(seed, variant, torus, check)


@given(seed=st.integers(0, 2**32 - 1), variant=variants, torus=st.booleans())
def test_games_end_and_replay_rebuilds_them(seed, variant, torus):
    final = play(seed, variant, torus)
    assert sorted(final.returns()) == [-1.0, 1.0]  # never a draw
    replayed = load_game("card-commons", variant=variant, torus=torus).new_initial_state()
    for action in final.history():
        replayed.apply_action(action)
    assert replayed.history() == final.history()
    assert [replayed.view(p) for p in (0, 1)] == [final.view(p) for p in (0, 1)]
    assert replayed.returns() == final.returns()


@given(seed=st.integers(0, 2**32 - 1), variant=variants, torus=st.booleans())
def test_every_seat_and_a_spectator_see_the_same_table(seed, variant, torus):
    def check(state, action):
        views = [state.view(p) for p in (0, 1, SPECTATOR)]
        assert [v.pop("player") for v in views] == [0, 1, None]
        assert views[0] == views[1] == views[2]
        if not state.is_terminal() and not state.is_chance_node():
            seat = state.current_player()
            for draw in range(2):
                resampled = state.resample(seat, random.Random(draw))
                assert resampled.history() == state.history()
                assert resampled.view(seat) == state.view(seat)
    play(seed, variant, torus, check)


@given(seed=st.integers(0, 2**32 - 1), variant=variants, torus=st.booleans())
def test_same_seed_same_game(seed, variant, torus):
    game = load_game("card-commons", variant=variant, torus=torus)
    first = random_playout(game.new_initial_state(), random.Random(seed))
    second = random_playout(game.new_initial_state(), random.Random(seed))
    assert first.history() == second.history()


def test_clone_is_independent():
    state = load_game("card-commons").new_initial_state()
    state.apply_action(state.string_to_action("opener 0"))
    copy = state.clone()
    copy.apply_action(copy.string_to_action("3H b2"))
    assert state.history() == [2530] and state.stack(5) == []
    assert state.legal_actions() != copy.legal_actions()
