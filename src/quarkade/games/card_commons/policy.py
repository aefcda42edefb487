"""Card Commons' greedy policy: how ``greedy`` scores a position and which moves it (and
``mcts:candidates=1``) considers. The compiled engine (``compiled.py``) plays the same
policy in numba from these weights.

A position is scored for a seat as

* Classic: a finished game is worth +-WIN; otherwise open cells on its own side minus the
  opponent's (the first scoring step) weigh most, then the opponent's particles on their
  side minus its own (the second step), then a little for each card kept in hand;
* Tutorial: a finished game is worth +-WIN; otherwise the number of places the seat to
  move can put a card (being left with none loses): good for the seat when it is the one
  to move, bad when it is the opponent.

Inversions that differ only in the discarded card are considered once
(``candidate_actions``), with the discard the mover needs least: the card with the fewest
cells to go to, extremes (Aces, 6s) first.
"""

from __future__ import annotations

from quarkade.games.card_commons.notation import (
    HAND_SIZE,
    INVERT_BASE,
    NUM_CELLS,
    REPEL_BASE,
    decode_invert,
    decode_place,
)
from quarkade.games.card_commons.rules import CardCommonsState as State

WIN = 100_000.0
OPEN_CELL = 100.0
PARTICLE = 10.0
CARD_IN_HAND = 2.0


def evaluate(state: State, me: int) -> float:
    """The position's worth to seat ``me`` (see the module docstring)."""
    if state.is_terminal():
        return state.returns()[me] * WIN
    other = 1 - me
    if state.variant == "tutorial":
        mobility = float(len(_distinct_placements(state.legal_actions())))
        return mobility if state.current_player() == me else -mobility
    open_cells = state.open_cells(me) - state.open_cells(other)
    particles = state.particles(other) - state.particles(me)
    cards = len(state.hand(me)) - len(state.hand(other))
    return OPEN_CELL * open_cells + PARTICLE * particles + CARD_IN_HAND * cards


def candidate_actions(legal: list[int]) -> list[int]:
    """``legal`` with each group of inversions that differ only in the discard cut to one,
    whose discard is the card the mover can best spare."""
    placements_per_card = [0] * HAND_SIZE
    for action in legal:
        if action < INVERT_BASE:
            placements_per_card[decode_place(action)[0]] += 1
    chosen: dict[int, int] = {}
    kept = []
    for action in legal:
        if not INVERT_BASE <= action < REPEL_BASE:
            kept.append(action)
            continue
        local, cell, discard = decode_invert(action)
        key = local * NUM_CELLS + cell
        best = chosen.get(key)
        if best is None or _spare(discard, placements_per_card) < \
                _spare(decode_invert(best)[2], placements_per_card):
            chosen[key] = action
    return sorted(kept + list(chosen.values()))


def _spare(local: int, placements_per_card: list[int]) -> tuple[int, float]:
    """Lower is easier to give up: fewer places to go, then levels far from the middle."""
    return placements_per_card[local], -abs(local % 6 + 1 - 3.5)


def _distinct_placements(legal: list[int]) -> set[int]:
    """(card, cell) pairs among the legal actions: each inversion counted once."""
    pairs = set()
    for action in legal:
        if action < INVERT_BASE:
            pairs.add(action)
        elif action < REPEL_BASE:
            local, cell, _ = decode_invert(action)
            pairs.add(local * NUM_CELLS + cell)
    return pairs
