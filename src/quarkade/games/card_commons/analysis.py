"""What the simulator records about a finished Card Commons game (the hook described in
``quarkade.sim.hooks`` and docs/ARCHITECTURE.md).

The opening is Card Commons' one big asymmetry: a coin picks the opener (C-1), who lays a
card of level 2-5 on a centre cell (C-3) and so takes the game's first decision; the other
seat then takes the first turn. The game is the same for both seats once the field is
turned round, so an opening is described by what it is to the opener: the card by colour
and level (``red 3`` is the 3♥ of seat 0 or the 3♦ of seat 1), and the cell with the side
it lies on as the opener sees it (the centre cells ``b3``/``c3`` are on seat 0's own side,
``b2``/``c2`` on seat 1's: ruling C-2; a card on your own side counts against you).

- key events: the opener and its opening (notation), each seat's open cells and cards on
  its own side at the end, what the game was won on, and how many of each kind of move each
  seat made;
- game tags: ``how it was won``: on open cells, on fewer cards, on the opener's tie-break,
  or (the Tutorial game) by a seat left with no legal placement;
- seat tags: ``role`` (``opener`` or ``responder``: with several agents the summary splits
  it by agent, which says who opened), and on the opener's seat only ``opening card``,
  ``opening cell`` and ``opening side`` (the opener's own side or the responder's), so the
  summary gives the opener's win rate per opening;
- running score: the result if the game stopped now (C-12): open cells on the seat's own
  side, then fewer cards there, then the opener. The seat "leading" is the one that would
  win if both passed at once, so the final leader of a Classic game is its winner. (In the
  Tutorial game a seat with no placement loses instead; the score still tells who is
  ahead on the board.)
"""

from __future__ import annotations

from typing import Any

from quarkade.games.card_commons.notation import (
    CARD_NAMES,
    CELL_NAMES,
    DECLINE,
    INVERT_BASE,
    POLARIZE_BASE,
    REPEL_BASE,
    decode_place,
    is_red,
    level,
)
from quarkade.games.card_commons.rules import (
    HAND_SIZE,
    SIDE_MASKS,
    TUTORIAL,
    CardCommonsState,
)

OWN_SIDE, OTHER_SIDE = "opener's own side", "responder's side"
NOTES = {
    "how it was won": "More open cells on your own side wins, then fewer cards there, then "
                      "the opener (C-12). The first mover is the opener.",
    "role": "A coin picks the opener, who lays the opening card; the responder takes the "
            "first turn. The agent columns say which agent opened.",
    "opening card": "Openers only: the opener's win rate by the card it opened with "
                    "(red 3 is seat 0's 3♥ or seat 1's 3♦).",
    "opening cell": "Openers only: the opener's win rate by the centre cell it opened on, "
                    "and whose own side that cell is (a card on your own side counts "
                    "against you).",
    "opening side": "Openers only: the opening cells pooled by whose own side they are on.",
}
MOVE_KINDS = ("placements", "inversions", "repels", "polarizes", "declined", "passes")


def key_events(state: CardCommonsState) -> dict[str, Any]:
    card, cell = _opening(state)
    moves = {kind: [0, 0] for kind in MOVE_KINDS}
    replay: CardCommonsState = state.game.new_initial_state()
    for step, action in enumerate(state.history()):
        seat = replay.current_player()
        replay.apply_action(action)
        if step >= 2:  # after the coin and the opening
            moves[_move_kind(action)][seat] += 1
    return {
        "opener": state.opener(),
        "opening": f"{CARD_NAMES[card]} {CELL_NAMES[cell]}",
        "open_cells": [state.open_cells(0), state.open_cells(1)],
        "cards_on_side": [state.particles(0), state.particles(1)],
        "won_on": _decided_by(state),
        **moves,
    }


def game_tags(state: CardCommonsState) -> dict[str, Any]:
    return {"how it was won": _decided_by(state)}


def seat_tags(state: CardCommonsState) -> list[dict[str, Any]]:
    opener = state.opener()
    card, cell = _opening(state)
    colour = "red" if is_red(card) else "black"
    side = _side(opener, cell)
    tags: list[dict[str, Any]] = [{"role": "responder"}, {"role": "responder"}]
    tags[opener] = {"role": "opener", "opening card": f"{colour} {level(card)}",
                    "opening cell": f"{CELL_NAMES[cell]} ({side})", "opening side": side}
    return tags


def running_score(state: CardCommonsState) -> list[float]:
    opener = state.opener()
    # Open cells (0-8) first; then fewer cards (0-16, a stack counts 2); then the opener.
    return [20.0 * state.open_cells(seat) + 16 - state.particles(seat)
            + (0.5 if seat == opener else 0.0) for seat in (0, 1)]


def _opening(state: CardCommonsState) -> tuple[int, int]:
    """The opening card (its id) and cell; the history starts with the coin, then it."""
    local, cell = decode_place(state.history()[1])
    return state.opener() * HAND_SIZE + local, cell


def _side(opener: int, cell: int) -> str:
    return OWN_SIDE if SIDE_MASKS[opener] >> cell & 1 else OTHER_SIDE


def _decided_by(state: CardCommonsState) -> str:
    """What settled the result (C-12, C-13)."""
    if state.variant == TUTORIAL:
        return "no legal placement left"
    if state.open_cells(0) != state.open_cells(1):
        return "on open cells"
    if state.particles(0) != state.particles(1):
        return "on fewer cards"
    return "on the opener's tie-break"


def _move_kind(action: int) -> str:
    if action < INVERT_BASE:
        return "placements"
    if action < REPEL_BASE:
        return "inversions"
    if action < POLARIZE_BASE:
        return "repels"
    if action < DECLINE:
        return "polarizes"
    return "declined" if action == DECLINE else "passes"
