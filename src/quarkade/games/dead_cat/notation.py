"""Dead Cat action ids and their notation.

The action space has 15 ids in five blocks:

========  ==========================================  ==========================
ids       meaning                                     notation
========  ==========================================  ==========================
0         the seat to move calls "Dead Cat"           ``announce``
1         the seat to move peeks at the top card      ``peek``
2-7       the peeker turns its die to 1-6             ``bet 4``
8-9       chance: the peeked card is alive or dead    ``draw alive``, ``draw dead``
10-14     chance: the die roll for the first seat     ``first 2``
========  ==========================================  ==========================

Only the peeker may read which card it drew: to every other seat a draw reads ``draw``
(``redacted_draw``).
"""

from __future__ import annotations

ANNOUNCE = 0
PEEK = 1
BET_BASE = 2  # BET_BASE + value - 1 for a die value 1-6
ALIVE = 8
DEAD = 9
FIRST_BASE = 10
NUM_ACTIONS = 15
MAX_PLAYERS = NUM_ACTIONS - FIRST_BASE

DIE_VALUES = (1, 2, 3, 4, 5, 6)
CARD_NAMES = ("alive", "dead")  # indexed by card: 0 alive, 1 dead
REDACTED_DRAW = "draw"


def bet_action(value: int) -> int:
    """The action that turns the peeker's die to ``value`` (1-6)."""
    if value not in DIE_VALUES:
        raise ValueError(f"a die shows 1-6, not {value!r}")
    return BET_BASE + value - 1


def action_text(action: int) -> str | None:
    """The full notation of ``action``, or None if it is not a Dead Cat action id."""
    if action == ANNOUNCE:
        return "announce"
    if action == PEEK:
        return "peek"
    if BET_BASE <= action < ALIVE:
        return f"bet {action - BET_BASE + 1}"
    if action in (ALIVE, DEAD):
        return f"draw {CARD_NAMES[action - ALIVE]}"
    if FIRST_BASE <= action < NUM_ACTIONS:
        return f"first {action - FIRST_BASE}"
    return None
