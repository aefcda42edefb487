"""Hadronize action ids and their notation.

The action space has 38 ids in four blocks:

========  =====================================  ====================
ids       meaning                                notation
========  =====================================  ====================
0-19      chance: the superposed quark's three   ``superpose u/s/c``
          flavours (the 3-subsets of six)
20-25     a seat chooses who observes            ``observe 2``
26-31     chance: a flavour (a starting quark,   ``deal charm``,
          or the collapse of the superposition)  ``collapse charm``
32-37     chance: the starting seat              ``first 3``
========  =====================================  ====================
"""

from __future__ import annotations

from itertools import combinations

FLAVOURS = ("up", "down", "strange", "charm", "bottom", "top")
LETTERS = ("u", "d", "s", "c", "b", "t")
NUM_FLAVOURS = 6

SUPERPOSITIONS: tuple[tuple[int, int, int], ...] = tuple(combinations(range(NUM_FLAVOURS), 3))
SUPERPOSE_BASE = 0
OBSERVE_BASE = SUPERPOSE_BASE + len(SUPERPOSITIONS)  # 20
FLAVOUR_BASE = OBSERVE_BASE + 6  # 26
FIRST_BASE = FLAVOUR_BASE + NUM_FLAVOURS  # 32
NUM_ACTIONS = FIRST_BASE + 6  # 38

_FLAVOUR_WORDS = {**{name: i for i, name in enumerate(FLAVOURS)},
                  **{letter: i for i, letter in enumerate(LETTERS)}}


def superposition_text(flavours: tuple[int, ...]) -> str:
    """``(0, 2, 3)`` as ``'u/s/c'``."""
    return "/".join(LETTERS[f] for f in flavours)


def flavour_index(word: str) -> int:
    """The flavour named by a full name or its letter (``'charm'`` or ``'c'``)."""
    try:
        return _FLAVOUR_WORDS[word.strip().lower()]
    except KeyError:
        raise ValueError(f"{word!r} is not a flavour; flavours are {', '.join(FLAVOURS)} "
                         f"({'/'.join(LETTERS)})") from None
