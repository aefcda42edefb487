"""Card Commons cards, cells, action ids and their notation.

Cards
    24 cards, ids 0-23: seat 0 holds hearts 0-5 (A-6) and spades 6-11; seat 1 holds
    diamonds 12-17 and clubs 18-23. A card's *local* index is ``card % 12`` (0-5 the red
    suit, 6-11 the black one); actions name the mover's cards by local index, since the
    seat to move is always known. Text: rank ``A23456`` then suit ``H S D C`` (``3H``,
    ``AS``); the parser also takes ``1`` for the Ace and the suit symbols.

Cells
    16 cells, id ``row * 4 + column``: columns ``a``-``d`` left to right, rows ``1``-``4``
    from the bottom as seat 0 sees the field (``a1`` is 0, ``d4`` is 15).

Actions (2,532 ids)

=============  ==============================================  =========================
ids            meaning                                         notation
=============  ==============================================  =========================
0-191          put a card on an empty cell: the opening or a   ``3H c2``
               channel (a Tunnel too): ``local * 16 + cell``
192-2495       invert: ``192 + (local * 16 + cell) * 12 +      ``inv 4S c3 /AH``
               discard`` (discard is a local index too)
2496-2511      Repel: slide the card(s) on this cell one       ``repel b2>b1``
               further from the 3: ``2496 + cell``
2512-2527      Polarize: turn the top card on this cell face   ``polarize c2``
               down: ``2512 + cell``
2528           decline the Repel or Polarize on offer          ``no repel``, ``no polarize``
2529           pass                                            ``pass``
2530-2531      chance: which seat opens                        ``opener 0``, ``opener 1``
=============  ==============================================  =========================

Ids whose card is not in the mover's hand, whose discard is the inverting card itself, and
the like, are never legal; the layout keeps every choice a fixed integer.
"""

from __future__ import annotations

from collections.abc import Iterable

NUM_CARDS = 24
HAND_SIZE = 12
NUM_CELLS = 16
SIZE = 4

SUITS = "HSDC"
SUIT_SYMBOLS = "♥♠♦♣"
RANKS = "A23456"
COLUMNS = "abcd"

PLACE_BASE = 0
INVERT_BASE = PLACE_BASE + HAND_SIZE * NUM_CELLS  # 192
REPEL_BASE = INVERT_BASE + HAND_SIZE * NUM_CELLS * HAND_SIZE  # 2496
POLARIZE_BASE = REPEL_BASE + NUM_CELLS  # 2512
DECLINE = POLARIZE_BASE + NUM_CELLS  # 2528
PASS = DECLINE + 1  # 2529
OPENER_BASE = PASS + 1  # 2530
NUM_ACTIONS = OPENER_BASE + 2  # 2532

CELL_NAMES = tuple(f"{COLUMNS[c % SIZE]}{c // SIZE + 1}" for c in range(NUM_CELLS))
CARD_NAMES = tuple(f"{RANKS[c % 6]}{SUITS[c // 6]}" for c in range(NUM_CARDS))
CARD_SYMBOLS = tuple(f"{RANKS[c % 6]}{SUIT_SYMBOLS[c // 6]}" for c in range(NUM_CARDS))

_CELL_WORDS = {name: c for c, name in enumerate(CELL_NAMES)}
_SUIT_WORDS = {**{s.lower(): i for i, s in enumerate(SUITS)},
               **{s: i for i, s in enumerate(SUIT_SYMBOLS)}}
_RANK_WORDS = {**{r.lower(): i for i, r in enumerate(RANKS)}, "1": 0}


def level(card: int) -> int:
    """A card's energy level, 1 (Ace) to 6."""
    return card % 6 + 1


def is_red(card: int) -> bool:
    """Hearts and diamonds are red (positive); spades and clubs black (negative)."""
    return card // 6 % 2 == 0


def owner(card: int) -> int:
    """The seat whose hand the card starts in."""
    return card // HAND_SIZE


def card_id(word: str) -> int:
    """The card a word names: ``'3H'``, ``'3h'``, ``'3♥'``, ``'ah'`` or ``'1h'``.

    >>> card_id("3H"), card_id("a♣")
    (2, 18)
    """
    text = word.strip().lower()
    if len(text) != 2 or text[0] not in _RANK_WORDS or text[1] not in _SUIT_WORDS:
        raise ValueError(f"{word!r} is not a card; cards look like 3H, AS, 6D or 2C "
                         "(rank A 2 3 4 5 6, suit H S D C)")
    return _SUIT_WORDS[text[1]] * 6 + _RANK_WORDS[text[0]]


def cell_id(word: str) -> int:
    """The cell a word names (``'c2'`` is 6)."""
    try:
        return _CELL_WORDS[word.strip().lower()]
    except KeyError:
        raise ValueError(f"{word!r} is not a cell; cells are a1-d4 (columns a-d, "
                         "rows 1-4 from seat 0's edge)") from None


def place_action(local: int, cell: int) -> int:
    return PLACE_BASE + local * NUM_CELLS + cell


def invert_action(local: int, cell: int, discard: int) -> int:
    return INVERT_BASE + (local * NUM_CELLS + cell) * HAND_SIZE + discard


def decode_place(action: int) -> tuple[int, int]:
    """``(local card, cell)`` of a place action."""
    return divmod(action - PLACE_BASE, NUM_CELLS)


def decode_invert(action: int) -> tuple[int, int, int]:
    """``(local card, cell, local discard)`` of an invert action."""
    pair, discard = divmod(action - INVERT_BASE, HAND_SIZE)
    local, cell = divmod(pair, NUM_CELLS)
    return local, cell, discard


def lit_cells(actions: Iterable[int], local: int) -> list[int]:
    """The cells (ascending ids) where the card with local index ``local`` can go.

    ``actions`` are a seat's legal actions; a cell counts once even when an inversion there
    could discard any of several cards. This is what a UI lights up for a chosen card.
    """
    cells: set[int] = set()
    low_place = PLACE_BASE + local * NUM_CELLS
    low_invert = INVERT_BASE + local * NUM_CELLS * HAND_SIZE
    high_invert = low_invert + NUM_CELLS * HAND_SIZE
    for action in actions:
        if low_place <= action < low_place + NUM_CELLS:
            cells.add(action - low_place)
        elif low_invert <= action < high_invert:
            cells.add((action - low_invert) // HAND_SIZE)
    return sorted(cells)
