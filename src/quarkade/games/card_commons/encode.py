"""Card Commons as a fixed-size list of floats, read from a seat's view (never the state).

The research adapters (``quarkade.adapters``) feed this to learning code; docs/RESEARCH.md
describes every slice. Everything is open, so a seat's view is the whole table. Seats are
counted from the viewer (slot 0 is the seat whose view it is; a spectator's view counts
from seat 0), but the field keeps its cells as the notation names them (``a1`` is cell 0),
because actions name cells absolutely; ``seat`` says which side the viewer sits on. Every
value lies in [0, 1].

``slices(options)`` names the slices in order, ``observation_size(options)`` is their total
and ``max_decisions(options)`` bounds the decisions in a game. ``encode_state(state, seat)``
is the adapters' fast path: the same floats as ``encode(state.view(seat))``, written
straight from the state's plain data without building the view (whose lit cells and last
move the encoding does not use); ``tests/adapters/test_encode_state.py`` proves the two
equal.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from quarkade.games.card_commons.notation import (
    CARD_NAMES,
    CELL_NAMES,
    HAND_SIZE,
    NUM_CARDS,
    NUM_CELLS,
)
from quarkade.games.card_commons.rules import (
    FACE_DOWN,
    HAND_CARDS,
    POLARIZE,
    REPEL,
    SIDE_MASKS,
    TUTORIAL,
    CardCommonsState,
)
from quarkade.games.card_commons.rules import PHASE_NAMES as PHASES

# Per card on the field: present, face up, level 1-6 (one-hot), red, the viewer's.
CARD_FEATURES = 10
SIZE = 405

_PHASE = {name: i for i, name in enumerate(PHASES)}
_CARD = {name: card for card, name in enumerate(CARD_NAMES)}


def _features(card: int, face_up: bool) -> tuple[int, ...]:
    """The features of a card on the field that are one, ownership (feature 9) aside."""
    red = (8,) if card // 6 % 2 == 0 else ()
    return (0, *((1,) if face_up else ()), 2 + card % 6, *red)


_FEATURES = {(name, up): _features(card, up)
             for card, name in enumerate(CARD_NAMES) for up in (False, True)}


def _code_features(code: int, viewer: int) -> tuple[int, ...]:
    """The features that are one for a card on the field by its code in the state (1 +
    card face up, 25 + card face down), seen by ``viewer``: ownership included."""
    card = (code - 1) % FACE_DOWN
    own = (9,) if card // HAND_SIZE == viewer else ()
    return (*_features(card, code <= FACE_DOWN), *own)


# By viewer (the spectator counts as seat 0), then by code (0: no card).
_CODE_FEATURES = tuple(((), *(_code_features(code, viewer)
                              for code in range(1, 2 * FACE_DOWN + 1)))
                       for viewer in (0, 1))


def slices(options: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The observation's slices, in order, as ``(name, length)``."""
    return [("phase", len(PHASES)), ("seat", 2), ("to_move", 2), ("opener", 2),
            ("field_top", NUM_CELLS * CARD_FEATURES), ("field_under", NUM_CELLS * CARD_FEATURES),
            ("hands", 2 * HAND_SIZE), ("discards", 2 * HAND_SIZE), ("open_cells", 2),
            ("particles", 2), ("passed", 1), ("ability_cell", NUM_CELLS), ("winner", 2),
            ("tutorial", 1), ("torus", 1)]


def observation_size(options: Mapping[str, Any]) -> int:
    return SIZE


def max_decisions(options: Mapping[str, Any]) -> int:
    """Every turn but a pass plays at least one of the 24 cards, and may be followed by one
    Repel or Polarize decision; no two passes follow each other except the last two."""
    return 3 * NUM_CARDS + 2


def encode(view: dict[str, Any]) -> list[float]:
    """The view as ``observation_size`` floats in [0, 1] (see docs/RESEARCH.md)."""
    me = view["player"] or 0
    out = [0.0] * SIZE
    out[_PHASE[view["phase"]]] = 1.0
    at = len(PHASES)
    if view["player"] is not None:
        out[at + me] = 1.0
    at += 2
    for key in ("to_move", "opener"):
        seat = view[key]
        if seat is not None:
            out[at + (seat - me) % 2] = 1.0
        at += 2
    field = view["field"]
    under_at = at + NUM_CELLS * CARD_FEATURES
    for cell, name in enumerate(CELL_NAMES):
        stack = field[name]
        if not stack:
            continue
        # A stack lists its bottom card first; a lone card is a top card.
        placed = ((at, stack[0]),) if len(stack) == 1 else ((under_at, stack[0]), (at, stack[1]))
        for layer, item in placed:
            base = layer + cell * CARD_FEATURES
            card = item["card"]
            for feature in _FEATURES[card, item["face_up"]]:
                out[base + feature] = 1.0
            if _CARD[card] // HAND_SIZE == me:
                out[base + 9] = 1.0
    at = under_at + NUM_CELLS * CARD_FEATURES
    for key in ("hands", "discards"):
        cards = view[key]
        for slot in range(2):
            for name in cards[(me + slot) % 2]:
                out[at + slot * HAND_SIZE + _CARD[name] % HAND_SIZE] = 1.0
        at += 2 * HAND_SIZE
    for slot in range(2):
        seat = (me + slot) % 2
        out[at + slot] = view["open_cells"][seat] / 8
        out[at + 2 + slot] = view["particles"][seat] / 16
    at += 4
    out[at] = 1.0 if view["passed"] else 0.0
    at += 1
    ability = view["ability"]
    if ability is not None:
        out[at + CELL_NAMES.index(ability["cell"])] = 1.0
    at += NUM_CELLS
    winner = view["winner"]
    if winner is not None:
        out[at + (winner - me) % 2] = 1.0
    at += 2
    out[at] = 1.0 if view["variant"] == TUTORIAL else 0.0
    out[at + 1] = 1.0 if view["torus"] else 0.0
    return out


def encode_state(state: CardCommonsState, seat: int, out: Any = None) -> Any:
    """``encode(state.view(seat))`` written into ``out`` without building the view.

    ``out`` is a zeroed sequence of ``observation_size`` floats (a list, or a memoryview of
    a float32 array, which the adapters use to skip a conversion); only its nonzero places
    are written. Without ``out`` a new list is returned. ``seat`` is a seat or SPECTATOR.
    Everything in Card Commons is open, so every seat reads the whole state.
    """
    if out is None:
        out = [0.0] * SIZE
    me = seat if seat > 0 else 0  # the spectator counts from seat 0
    phase = state._phase
    out[phase] = 1.0
    at = len(PHASES)
    if seat >= 0:
        out[at + seat] = 1.0
    at += 2
    to_move = state.current_player()
    if to_move >= 0:
        out[at + (to_move - me) % 2] = 1.0
    at += 2
    opener = state._opener
    if opener >= 0:
        out[at + (opener - me) % 2] = 1.0
    at += 2
    features = _CODE_FEATURES[me]
    under = state._under
    stacked = 0  # cells holding a covered card
    base = at
    for cell, code in enumerate(state._top):
        below = under[cell]
        if below:
            stacked |= 1 << cell
            if code:  # a stack: the covered card in the second layer
                for feature in features[below]:
                    out[base + NUM_CELLS * CARD_FEATURES + feature] = 1.0
            else:  # a lone card is a top card, as the view lists it
                code = below
        if code:
            for feature in features[code]:
                out[base + feature] = 1.0
        base += CARD_FEATURES
    at += 2 * NUM_CELLS * CARD_FEATURES
    for cards in (state._hands, state._discards):
        for slot in range(2):
            base = at + slot * HAND_SIZE
            for local in HAND_CARDS[cards[(me + slot) % 2]]:
                out[base + local] = 1.0
        at += 2 * HAND_SIZE
    occupied = state._occupied
    for slot in range(2):
        side = occupied & SIDE_MASKS[(me + slot) % 2]
        placed = side.bit_count()
        if placed < 8:
            out[at + slot] = (8 - placed) / 8  # open cells
        particles = placed + (side & stacked).bit_count()  # a stack counts 2
        if particles:
            out[at + 2 + slot] = particles / 16
    at += 4
    if state._passed:
        out[at] = 1.0
    at += 1
    if phase in (REPEL, POLARIZE):
        out[at + state._ability_cell] = 1.0
    at += NUM_CELLS
    winner = state._winner
    if winner >= 0:
        out[at + (winner - me) % 2] = 1.0
    at += 2
    options = state.game.options
    if options["variant"] == TUTORIAL:
        out[at] = 1.0
    if options["torus"]:
        out[at + 1] = 1.0
    return out
