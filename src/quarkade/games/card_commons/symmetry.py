"""Card Commons' symmetries: maps of the field's cells under which the rules are the same.

The Law looks at a cell's four orthogonal neighbours (a Tunnel at its diagonal ones), the
opening is on the four centre cells, the Anchor on the corners, a Repel pushes straight
away from the 3, and the torus wraps both ways: all of these are kept by the eight maps of
the square (turns by 0, 90, 180 and 270 degrees, each also mirrored). The sides are not:
rows 3-4 are seat 0's side and rows 1-2 seat 1's, and the Classic game is scored by them,
so there only mirroring the columns (``a`` <-> ``d``, ``b`` <-> ``c``) keeps the rules. The
Tutorial game is never scored (a seat that cannot place loses), so all eight hold there.
``tests/games/card_commons/test_symmetry.py`` proves it on random games of each variant:
the mapped moves, played from the same coin, give the mapped legal moves, observations
and returns at every step.

A map is a tuple of 16 cells (cell ``c`` goes to ``cells[c]``); ``action_map`` and
``observation_map`` turn it into index arrays for a learner's data (``quarkade.jax``'s
trainer augments its self-play positions with them).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from quarkade.games.card_commons.encode import CARD_FEATURES, SIZE, slices
from quarkade.games.card_commons.notation import (
    HAND_SIZE,
    INVERT_BASE,
    NUM_ACTIONS,
    NUM_CELLS,
    PLACE_BASE,
    POLARIZE_BASE,
    REPEL_BASE,
)
from quarkade.games.card_commons.rules import SIDE_MASKS, TUTORIAL

SIDE = 4
Cells = tuple[int, ...]


def _cell_map(turns: int, mirror: bool) -> Cells:
    """The cells after mirroring the columns (if ``mirror``), then ``turns`` quarter turns."""
    out = []
    for cell in range(NUM_CELLS):
        row, column = divmod(cell, SIDE)
        if mirror:
            column = SIDE - 1 - column
        for _ in range(turns):
            row, column = column, SIDE - 1 - row
        out.append(row * SIDE + column)
    return tuple(out)


IDENTITY = _cell_map(0, False)
MIRROR = _cell_map(0, True)  # a <-> d, b <-> c; the rows stay
SQUARE = tuple(_cell_map(turns, mirror) for mirror in (False, True) for turns in range(4))


def symmetries(options: Mapping[str, Any]) -> tuple[Cells, ...]:
    """The cell maps that keep the rules of a game with these options, the identity first."""
    if options.get("variant") == TUTORIAL:
        return SQUARE
    return (IDENTITY, MIRROR)


def action_map(cells: Cells) -> np.ndarray:
    """``[NUM_ACTIONS]``: the id of each action once the field is mapped by ``cells``
    (placements, inversions, Repel and Polarize move with their cell; the rest stay)."""
    out = np.arange(NUM_ACTIONS)
    moved = np.asarray(cells)
    for local in range(HAND_SIZE):
        out[PLACE_BASE + local * NUM_CELLS + np.arange(NUM_CELLS)] = (
            PLACE_BASE + local * NUM_CELLS + moved)
        for discard in range(HAND_SIZE):
            before = INVERT_BASE + (local * NUM_CELLS + np.arange(NUM_CELLS)) * HAND_SIZE
            after = INVERT_BASE + (local * NUM_CELLS + moved) * HAND_SIZE
            out[before + discard] = after + discard
    for base in (REPEL_BASE, POLARIZE_BASE):
        out[base + np.arange(NUM_CELLS)] = base + moved
    return out


def _starts() -> dict[str, int]:
    starts, at = {}, 0
    for name, length in slices({}):
        starts[name] = at
        at += length
    return starts


START = _starts()


def observation_map(cells: Cells) -> np.ndarray:
    """``[SIZE]``: where each observation value comes from once the field is mapped by
    ``cells`` (``mapped = observation[..., index]``); the per-side counts (``open_cells``,
    ``particles``) then need ``side_counts`` where a map moves the sides."""
    index = np.arange(SIZE)
    source = np.argsort(np.asarray(cells))  # the cell each mapped cell comes from
    for layer in ("field_top", "field_under"):
        base = START[layer]
        features = np.arange(CARD_FEATURES)
        for cell in range(NUM_CELLS):
            index[base + cell * CARD_FEATURES + features] = (
                base + source[cell] * CARD_FEATURES + features)
    base = START["ability_cell"]
    index[base:base + NUM_CELLS] = base + source
    return index


SIDES = np.array([[mask >> cell & 1 for cell in range(NUM_CELLS)] for mask in SIDE_MASKS],
                 np.float32)  # [seat, cell]: the cells of each seat's own side


def side_counts(observation: Any, xp: Any = np) -> Any:
    """The ``open_cells`` and ``particles`` values (``[..., 4]``) that a batch of
    observations' field implies, as ``encode`` writes them (``xp``: numpy, or jax.numpy)."""
    top = observation[..., START["field_top"]:START["field_under"]:CARD_FEATURES]
    under = observation[..., START["field_under"]:START["hands"]:CARD_FEATURES]
    me = observation[..., START["seat"] + 1:START["seat"] + 2]  # the viewer's seat (0 or 1)
    sides = xp.asarray(SIDES)
    own = sides[0] * (1 - me) + sides[1] * me  # the viewer's side, then the other's
    other = sides[1] * (1 - me) + sides[0] * me
    counts = []
    for side in (own, other):
        placed = (top * side).sum(-1)
        counts.append(((8 - placed) / 8, (placed + (under * side).sum(-1)) / 16))
    return xp.stack([counts[0][0], counts[1][0], counts[0][1], counts[1][1]], axis=-1)


def map_observation(observation: Any, cells: Cells, xp: Any = np) -> Any:
    """A batch of observations (``[..., SIZE]``) as seen on the field mapped by ``cells``."""
    mapped = observation[..., observation_map(cells)]
    at = START["open_cells"]
    return xp.concatenate([mapped[..., :at], side_counts(mapped, xp), mapped[..., at + 4:]],
                          axis=-1)


__all__ = ["IDENTITY", "MIRROR", "SQUARE", "action_map", "map_observation",
           "observation_map", "side_counts", "symmetries"]
