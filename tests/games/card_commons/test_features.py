"""The features a learned network reads besides the observation (``features.py``) count
what the rules allow: the mover's placements and inversions are its legal moves, and each
seat's counts are the same from either seat's observation."""

from __future__ import annotations

import random

import numpy as np

from quarkade.core.registry import load_game
from quarkade.games.card_commons import features
from quarkade.games.card_commons.encode import encode_state
from quarkade.games.card_commons.notation import INVERT_BASE, NUM_CELLS, decode_invert
from quarkade.games.card_commons.rules import TURN

REACH = slice(NUM_CELLS * 6, NUM_CELLS * 8)
INVERTS = slice(NUM_CELLS * 8, NUM_CELLS * 10)
TOTALS = slice(NUM_CELLS * 10, features.SIZE)


def test_the_features_count_the_movers_legal_moves():
    game = load_game("card-commons", variant="tutorial")
    rng = random.Random(0)
    checked = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
                continue
            legal = state.legal_actions()
            if state._phase == TURN:
                mover = state.current_player()
                seen = np.asarray(encode_state(state, mover), np.float32)
                found = features.compute(seen[None])[0]
                assert found.shape == (features.SIZE,)
                placements = [a for a in legal if a < INVERT_BASE]
                assert round(found[TOTALS][0] * 32) == min(len(placements), 32)
                reach = found[REACH].reshape(2, NUM_CELLS)[0]
                assert set(np.flatnonzero(reach)) == {a % NUM_CELLS for a in placements}
                inverted = {decode_invert(a)[1] for a in legal if a >= INVERT_BASE}
                inverts = found[INVERTS].reshape(2, NUM_CELLS)[0]
                assert set(np.flatnonzero(inverts)) == inverted
                theirs = features.compute(np.asarray(encode_state(state, 1 - mover),
                                                     np.float32)[None])[0]
                for part in (REACH, INVERTS):
                    both = found[part].reshape(2, -1), theirs[part].reshape(2, -1)
                    assert np.array_equal(both[0][::-1], both[1])
                checked += 1
            state.apply_action(rng.choice(legal))
    assert checked > 300


def test_extend_appends_the_features():
    seen = np.zeros((3, 405), np.float32)
    assert features.extend(seen).shape == (3, 405 + features.SIZE)
