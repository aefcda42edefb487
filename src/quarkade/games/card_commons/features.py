"""What each seat can play, read from a Card Commons observation: extra inputs for a
learned network.

The Tutorial game is lost by the seat that has no legal placement, so who can still play
where is most of a position's value; a network that reads only the field and the hands
(``encode``) must learn the Law to see it. ``extend`` works it out from the observation
alone (no state, so it shows nothing the view does not), in numpy or JAX (``xp``):

- ``fits`` (16 x 6): per cell, each level a card could be channelled there with: the cell
  is empty, beside a card (not diagonally: Tunnel aside), and the Law of its face-up
  neighbours allows the level (C-4);
- ``reach`` (2 x 16): per seat (the viewer first), the cells it could channel a card of
  its hand to;
- ``inverts`` (2 x 16): per seat, the cells holding a lone face-up card it could invert
  (a card of the same level and the other colour in hand, the Law allowing it there, and
  a second card to throw away);
- ``totals`` (2 x 4): per seat, its placements (card x cell, / 32), cells it reaches (/ 16),
  inversions (/ 16), and whether it can place at all.

The flat field's neighbours (a torus' wrap is left out: these are inputs, not rules).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from quarkade.games.card_commons.encode import CARD_FEATURES
from quarkade.games.card_commons.notation import HAND_SIZE, NUM_CELLS
from quarkade.games.card_commons.rules import GEOMETRIES
from quarkade.games.card_commons.symmetry import START

LEVELS = 6
SIZE = NUM_CELLS * LEVELS + 2 * NUM_CELLS + 2 * NUM_CELLS + 2 * 4  # 168
ORTH = np.array([[1.0 if n in GEOMETRIES[False].orth[c] else 0.0 for n in range(NUM_CELLS)]
                 for c in range(NUM_CELLS)], np.float32)
LEVEL = np.arange(LEVELS)
# A face-up neighbour of level k (one-hot) forbids levels at or below k if it is red (the
# new card must be higher), at or above k if it is black (it must be lower).
RED_FORBIDS = (LEVEL[None, :] <= LEVEL[:, None]).astype(np.float32)  # [k, level]
BLACK_FORBIDS = (LEVEL[None, :] >= LEVEL[:, None]).astype(np.float32)


def compute(observation: Any, xp: Any = np) -> Any:
    """The ``SIZE`` features of a batch of observations (``[..., 405]`` -> ``[..., 168]``)."""
    field = observation[..., START["field_top"]:START["field_under"]]
    top = field.reshape(*field.shape[:-1], NUM_CELLS, CARD_FEATURES)
    under = observation[..., START["field_under"]:START["hands"]:CARD_FEATURES]
    present, up, levels, red = top[..., 0], top[..., 1], top[..., 2:8], top[..., 8]
    orth = xp.asarray(ORTH)
    forbids = (up * red)[..., None] * (levels @ xp.asarray(RED_FORBIDS)) + (
        up * (1 - red))[..., None] * (levels @ xp.asarray(BLACK_FORBIDS))
    lawful = 1 - xp.minimum(1.0, xp.einsum("cn,...nl->...cl", orth, forbids))  # [..., 16, 6]
    beside = xp.minimum(1.0, xp.einsum("cn,...n->...c", orth, present))
    fits = ((1 - present) * beside)[..., None] * lawful
    hands = observation[..., START["hands"]:START["discards"]]
    hands = hands.reshape(*hands.shape[:-1], 2, HAND_SIZE)  # [..., seat, local]
    held = hands[..., :LEVELS] + hands[..., LEVELS:]  # [..., seat, level]: 0 to 2 cards
    placements = xp.einsum("...cl,...sl->...sc", fits, held)  # [..., seat, cell]
    reach = xp.minimum(1.0, placements)
    # Inverting: a lone face-up card of level k; the seat holds level k in the other colour.
    lone = present * up * (1 - under)
    # [..., cell, seat, level]: the seat holds the level in the colour unlike the cell's
    other = red[..., None, None] * hands[..., None, :, LEVELS:] + (
        1 - red)[..., None, None] * hands[..., None, :, :LEVELS]
    spare = (hands.sum(-1) >= 2).astype(observation.dtype)  # [..., seat]
    inverts = xp.einsum("...c,...cl,...csl->...sc", lone, levels * lawful, other)
    inverts = xp.minimum(1.0, inverts) * spare[..., None]
    totals = xp.stack([xp.minimum(1.0, placements.sum(-1) / 32), reach.sum(-1) / 16,
                       inverts.sum(-1) / 16, xp.minimum(1.0, placements.sum(-1))], axis=-1)
    batch = observation.shape[:-1]
    return xp.concatenate([fits.reshape(*batch, -1), reach.reshape(*batch, -1),
                           inverts.reshape(*batch, -1), totals.reshape(*batch, -1)], axis=-1)


def extend(observation: Any, xp: Any = np) -> Any:
    """The observation followed by its ``compute``d features."""
    return xp.concatenate([observation, compute(observation, xp)], axis=-1)


__all__ = ["SIZE", "compute", "extend"]
