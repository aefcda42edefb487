"""The compiled layout of a Decoherence state, and the table's small questions.

A state is one flat ``int64`` array. Its slots, in order:

- the header: the player count (always 2), whether decklists are open, which seats play a
  random deck (a bit mask), the phase, the step (position in the deck draws, then in the
  opening draws), the seat whose turn it is, the first seat, the turn number, this turn's
  verved ups and verved down (``leak``), the sentence waiting for a target or a coin
  (``PENDING`` 1, then its owner, closer, verb, qualifier and table index), the targets it
  may choose (a bit mask over target actions: bit ``a - OWN_TARGET_BASE``), the winners
  (a bit mask) and why the game ended, both seats' verve, whether proofs are kept
  (``KNOW``: off in the lines ``greedy`` looks at, which never resample), how many card
  ids were given out and how much of the proof space is used;
- per seat and word (``seat * 12 + word``): decklists, decks, hands and discard piles;
- the chains (``CHAINS + (seat * 3 + chain) * 2``, +0 verb, +1 qualifier; -1 empty);
- the table, as ``table.py`` lays it out (``TABLE + g * FIELDS + field``);
- what ``knowledge.py`` keeps in public: each table slot's card id and each card id's
  word once it left the table face-up (-1 until then); then, past the ``CORE`` (what the
  rules read), a search root's odds of the other seat's hand and decklist
  (``HAND_ODDS``, ``SPLIT_ODDS``) and the proofs (``proofs.py``).

The flows of kinds out of each hand, from which ``knowledge`` weighs the opening hands,
are not kept: the compiled worlds take the hand's odds from the reference at a search's
root (``worlds.py``).
"""

from __future__ import annotations

import numpy as np

from quarkade.core.jit import njit_inline
from quarkade.games.decoherence.notation import (
    BOUBA,
    KIKI,
    KIND_COMPOSITIONS,
    LULU,
    MAX_CHAINS,
    MAX_TABLE,
    NUM_WORDS,
)
from quarkade.games.decoherence.table import (
    BASE_SIZE,
    EMPTY_SLOT,
    FIELDS,
    GROWTH,
    HIDDEN,
    LINK,
    SPIN,
    VIS,
)

(PLAYERS, OPEN_LISTS, RANDOM_DECKS, PHASE, STEP, ACTIVE, FIRST, TURN, LEAK_UP, NO_LEAK,
 PENDING, P_OWNER, P_CLOSER, P_VERB, P_QUALIFIER, P_THING, TARGETS, WINNERS, ENDING,
 VERVE, _VERVE1, KNOW, IDS_GIVEN, PROOFS_USED) = range(24)
HEADER = 24
DECKLISTS = HEADER
DECKS = DECKLISTS + 2 * NUM_WORDS
HANDS = DECKS + 2 * NUM_WORDS
DISCARDS = HANDS + 2 * NUM_WORDS
CHAINS = DISCARDS + 2 * NUM_WORDS
TABLE = CHAINS + 2 * MAX_CHAINS * 2
THINGS = 2 * MAX_TABLE
SEAT_SPAN = MAX_TABLE * FIELDS
MAX_IDS = 24  # card ids given out: one per noun that reaches a table (at most 20)
IDS = TABLE + THINGS * FIELDS
ID_WORDS = IDS + THINGS
CORE = ID_WORDS + MAX_IDS
# The other seat's hand, by kinds, as its opponent can weigh it (``knowledge._Seat``'s
# ``hands`` and ``hand_odds``): a count, then rows of (verbs, qualifiers, nouns, cumulative
# weight out of ``ODDS_SCALE``). Filled by ``worlds.with_hand_odds`` for a search's root
# only (the rules never read it, and it is not kept up to date as cards leave the hand).
HAND_ODDS = CORE
HAND_ROWS = 91  # every split of up to 12 cards into three kinds
ODDS_SCALE = 1 << 52
# Likewise the other seat's private decklist, kind by kind (``knowledge.split_odds``): the
# number of rows of each kind, then for each kind its rows of (composition row, cumulative
# weight out of ``ODDS_SCALE``). No rows: drawn from the state as it stands.
SPLIT_ODDS = HAND_ODDS + 1 + 4 * HAND_ROWS
SPLIT_ROWS = sum(len(rows) for rows in KIND_COMPOSITIONS)
PROOFS = SPLIT_ODDS + 3 + 2 * SPLIT_ROWS
PROOF_SPACE = 4096  # a few hundred in long games (tests/games/decoherence/test_compiled.py)
SIZE = PROOFS + PROOF_SPACE

# Why a game ended (``ENDING``): ``rules``' reasons, by number.
NOT_OVER, DECOHERED, EMPTY_DECK, CLASSICAL = range(4)

# What the rules read as arrays.
EMPTY = np.array(EMPTY_SLOT, np.int64)
SIZES = np.array(BASE_SIZE, np.int64)
# A random deck's kinds, one composition a row (verbs, then qualifiers, then nouns; a row
# is ``action - COMPOSITION_BASE[0]``), padded with zeros; and where each kind starts.
COMPOSITIONS = np.zeros((sum(len(c) for c in KIND_COMPOSITIONS), 5), np.int64)
COMPOSITION_START = np.zeros(4, np.int64)
for _kind, _rows in enumerate(KIND_COMPOSITIONS):
    COMPOSITION_START[_kind + 1] = COMPOSITION_START[_kind] + len(_rows)
    for _index, _row in enumerate(_rows):
        COMPOSITIONS[COMPOSITION_START[_kind] + _index, :len(_row)] = _row
del _kind, _rows, _index, _row


@njit_inline
def field(s: np.ndarray, g: int, which: int) -> int:
    """Field ``which`` of table thing ``g``."""
    return s[TABLE + g * FIELDS + which]


@njit_inline
def item_size(s: np.ndarray, g: int) -> int:
    """``table.item_size``: printed size, growth, and bunching for a bouba."""
    base = TABLE + g * FIELDS
    noun = s[base]
    size = SIZES[noun] + s[base + GROWTH]
    spin = s[base + SPIN]
    if noun == BOUBA and spin:
        start = TABLE + (g // MAX_TABLE) * SEAT_SPAN
        for b in range(start, start + SEAT_SPAN, FIELDS):
            if b != base and s[b] == BOUBA and s[b + SPIN] == spin:
                size += 1
    return size


@njit_inline
def kiki_holds(s: np.ndarray, g: int, spin: int) -> bool:
    """Whether the holder of ``g`` has another kiki in ``spin``."""
    base = TABLE + g * FIELDS
    start = TABLE + (g // MAX_TABLE) * SEAT_SPAN
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if b != base and s[b] == KIKI and s[b + SPIN] == spin:
            return True
    return False


@njit_inline
def settle_spin(s: np.ndarray, g: int, wanted: int) -> int:
    """``table.settle_spin``: the spin ``g`` takes when sent into ``wanted`` (exclusion)."""
    if s[TABLE + g * FIELDS] != KIKI or not kiki_holds(s, g, wanted):
        return wanted
    other = 3 - wanted
    if not kiki_holds(s, g, other):
        return other
    return s[TABLE + g * FIELDS + SPIN]


@njit_inline
def free_slot(s: np.ndarray, seat: int) -> int:
    start = TABLE + seat * SEAT_SPAN
    for slot in range(MAX_TABLE):
        if s[start + slot * FIELDS] < 0:
            return slot
    return MAX_TABLE - 1  # cannot happen: a seat holds at most 20 things


@njit_inline
def count_hidden(s: np.ndarray, seat: int) -> int:
    """Things of ``seat`` its opponent has not seen (``table.count_hidden``)."""
    start = TABLE + seat * SEAT_SPAN
    found = 0
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if s[b] >= 0 and s[b + VIS] == HIDDEN:
            found += 1
    return found


@njit_inline
def count_lulus(s: np.ndarray, seat: int) -> int:
    start = TABLE + seat * SEAT_SPAN
    found = 0
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if s[b] == LULU:
            found += 1
    return found


@njit_inline
def open_chains(s: np.ndarray, seat: int) -> int:
    mine = CHAINS + seat * MAX_CHAINS * 2
    return (s[mine] >= 0) + (s[mine + 2] >= 0) + (s[mine + 4] >= 0)


@njit_inline
def hand_size(s: np.ndarray, seat: int) -> int:
    total = 0
    for w in range(NUM_WORDS):
        total += s[HANDS + seat * NUM_WORDS + w]
    return total


@njit_inline
def deck_size(s: np.ndarray, seat: int) -> int:
    total = 0
    for w in range(NUM_WORDS):
        total += s[DECKS + seat * NUM_WORDS + w]
    return total


@njit_inline
def has_link(s: np.ndarray, g: int) -> bool:
    return s[TABLE + g * FIELDS + LINK] >= 0

