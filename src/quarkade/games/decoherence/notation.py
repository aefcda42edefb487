"""Decoherence words, action ids and their notation.

The twelve words have fixed ids: verbs 0-4, qualifiers 5-8, nouns 9-11.

The action space has 559 ids in these blocks (``C`` marks chance actions):

===========  =======================================  ====================================
ids          meaning                                  notation
===========  =======================================  ====================================
0-11     C   draw a card of word ``id``               ``draw kiki`` (others read ``draw``)
12-13    C   tapped through's coin                    ``heads``, ``tails``
14-15    C   the coin for who goes first              ``first seat 0``
16           stop playing cards this turn             ``pass``
17-21        a verb opens a chain (lowest free one)   ``verb riffed -> chain 2``
22-33        qualifier ``q`` joins your chain ``c``   ``qualifier up -> chain 2``
             (id ``22 + 4c + q``)
34-42        noun ``n`` completes your chain ``c``    ``noun kiki -> chain 2`` (others
             (id ``34 + 3c + n``)                     read ``noun -> chain 2``)
43-51        close their chain ``c`` with noun ``n``  ``close their chain 1 with kiki``
             (id ``43 + 3c + n``)
52-63        discard a card (down to seven)           ``discard lulu``
64-83        target your own table slot 1-20          ``target: your lulu #2``
84-103       target their table slot 1-20             ``target: their bouba #3``
                                                      (``their hidden #3`` if unseen)
104-484  C   a random deck's ten verbs                ``deck 0 verbs: tapped 2, ...``
485-552  C   a random deck's ten qualifiers           ``deck 0 qualifiers: up 3, ...``
553-558  C   a random deck's ten nouns                ``deck 0 nouns: kiki 4, ...``
===========  =======================================  ====================================

Chains are numbered 1-3 and table slots 1-20 in notation (0-based in ids). A seat's table
keeps each thing in its slot for as long as it stays; a new thing takes the lowest free
slot.
"""

from __future__ import annotations

from itertools import product

VERBS = ("tapped", "verved", "boo'd", "twigged", "riffed")
QUALIFIERS = ("up", "down", "through", "out")
NOUNS = ("kiki", "bouba", "lulu")
WORDS = VERBS + QUALIFIERS + NOUNS
NUM_WORDS = 12

TAPPED, VERVED, BOOD, TWIGGED, RIFFED = range(5)
UP, DOWN, THROUGH, OUT = range(5, 9)
KIKI, BOUBA, LULU = range(9, 12)
VERB_IDS = tuple(range(0, 5))
QUALIFIER_IDS = tuple(range(5, 9))
NOUN_IDS = tuple(range(9, 12))

# Kinds of word, and each word's kind.
VERB, QUALIFIER, NOUN = 0, 1, 2
KIND_NAMES = ("verbs", "qualifiers", "nouns")
KIND_OF = (VERB,) * 5 + (QUALIFIER,) * 4 + (NOUN,) * 3
KIND_WORDS = (VERB_IDS, QUALIFIER_IDS, NOUN_IDS)

MAX_CHAINS = 3
MAX_TABLE = 20

DRAW_BASE = 0
HEADS, TAILS = 12, 13
FIRST_BASE = 14
PASS = 16
VERB_BASE = 17
QUALIFIER_BASE = 22
NOUN_BASE = 34
CLOSE_BASE = 43
DISCARD_BASE = 52
OWN_TARGET_BASE = 64
THEIR_TARGET_BASE = 84


def compositions(kinds: int, total: int = 10, cap: int = 4) -> tuple[tuple[int, ...], ...]:
    """Every way to split ``total`` cards over ``kinds`` words, at most ``cap`` of each."""
    return tuple(c for c in product(range(cap + 1), repeat=kinds) if sum(c) == total)


# A random deck is drawn kind by kind: one chance action picks how its ten verbs split over
# the five verbs, another its qualifiers, another its nouns (ruling D-20).
KIND_COMPOSITIONS = (compositions(5), compositions(4), compositions(3))
COMPOSITION_BASE = (
    104,
    104 + len(KIND_COMPOSITIONS[0]),
    104 + len(KIND_COMPOSITIONS[0]) + len(KIND_COMPOSITIONS[1]),
)
NUM_ACTIONS = COMPOSITION_BASE[2] + len(KIND_COMPOSITIONS[2])

WORD_INDEX = {**{w: i for i, w in enumerate(WORDS)}, "bood": BOOD, "boo’d": BOOD}


def word_index(text: str) -> int:
    """The id of a word (``"boo'd"`` may be written ``bood``)."""
    try:
        return WORD_INDEX[text.strip().lower()]
    except KeyError:
        raise ValueError(f"{text!r} is not a Decoherence word; the words are "
                         f"{', '.join(WORDS)}") from None


def composition_text(kind: int, counts: tuple[int, ...]) -> str:
    """``(2, 2, 2, 2, 2)`` for verbs as ``'tapped 2, verved 2, boo'd 2, twigged 2, riffed 2'``."""
    return ", ".join(f"{WORDS[w]} {c}" for w, c in zip(KIND_WORDS[kind], counts, strict=True)
                     if c)


def chain_text(chain: int) -> str:
    return f"chain {chain + 1}"


def verb_text(word: int, chain: int) -> str:
    return f"verb {WORDS[word]} -> {chain_text(chain)}"


def qualifier_text(word: int, chain: int) -> str:
    return f"qualifier {WORDS[word]} -> {chain_text(chain)}"


def noun_text(word: int | None, chain: int) -> str:
    shown = f" {WORDS[word]}" if word is not None else ""
    return f"noun{shown} -> {chain_text(chain)}"


def close_text(word: int, chain: int) -> str:
    return f"close their {chain_text(chain)} with {WORDS[word]}"


def target_text(own: bool, word: int | None, slot: int) -> str:
    """``target: their bouba #3``; ``word`` None reads ``hidden``; an empty slot reads
    ``target: their #3``."""
    side = "your" if own else "their"
    shown = "hidden" if word is None else WORDS[word]
    return f"target: {side} {shown} #{slot + 1}"
