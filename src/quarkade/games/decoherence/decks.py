"""Decks: the short text form, the named presets, and the deck-building constraints.

A deck is 30 cards: exactly 10 verbs, 10 qualifiers and 10 nouns, no word more than 4
times (seed 000 section 2). In text a deck lists ``word count`` pairs separated by commas
or bars, in any order; words that are absent have no copies::

    tapped 2, verved 2, boo'd 2, twigged 2, riffed 2 | up 3, down 3, through 2, out 2 |
    kiki 3, bouba 4, lulu 3

The options ``deck0`` and ``deck1`` take such a text, a preset name (``PRESETS``) or
``random`` (a random legal deck drawn by chance at the start of the game, ruling D-20).

>>> parse_deck("balanced") == parse_deck(PRESETS["balanced"])
True
>>> normalize_deck("kiki 4, bouba 4, lulu 2 | up 4, down 4, out 2 | verved 4, riffed 4, "
...                "tapped 2")
'tapped 2, verved 4, riffed 4 | up 4, down 4, out 2 | kiki 4, bouba 4, lulu 2'
"""

from __future__ import annotations

import re

from quarkade.games.decoherence.notation import (
    KIND_NAMES,
    KIND_OF,
    KIND_WORDS,
    NUM_WORDS,
    WORDS,
    word_index,
)

DECK_SIZE = 30
PER_KIND = 10
MAX_COPIES = 4
RANDOM = "random"

PRESETS: dict[str, str] = {
    # Four styles of about equal strength: in greedy self-play none wins more than 55%
    # against the others (docs/ANALYSIS.md, "Decoherence presets"). Each boo'd in a deck is
    # worth about 5 points of win rate and each verved costs about as much, so every
    # preset holds some of both.
    # An even spread of every word: a fair default for both seats.
    "balanced": "tapped 2, verved 2, boo'd 2, twigged 2, riffed 2 | "
                "up 3, down 3, through 2, out 2 | kiki 3, bouba 4, lulu 3",
    # Verve swings: gain big, drain the opponent, riff to grow or cancel.
    "surge": "tapped 1, verved 3, boo'd 2, riffed 4 | up 4, down 2, through 2, out 2 | "
             "kiki 4, bouba 4, lulu 2",
    # Measure and remove the opponent's cover until they are classical.
    "observer": "tapped 2, verved 3, boo'd 3, riffed 2 | up 2, down 2, through 3, out 3 | "
                "kiki 4, bouba 3, lulu 3",
    # Links everywhere, lulus to fuel verved through.
    "weaver": "verved 2, boo'd 1, twigged 4, riffed 3 | up 3, down 2, through 4, out 1 | "
              "kiki 2, bouba 4, lulu 4",
}

_PAIR = re.compile(r"^\s*([a-z'’]+)\s+(\d+)\s*$")


def parse_deck(text: str) -> tuple[int, ...]:
    """A deck's 12 word counts from its text, a preset name; ``ValueError`` names the
    broken constraint."""
    if not isinstance(text, str):
        raise ValueError(f"a deck is text such as {PRESETS['balanced']!r}, a preset name "
                         f"({', '.join(PRESETS)}) or random")
    key = text.strip().lower()
    if key in PRESETS:
        key = PRESETS[key]
    if not key:
        raise ValueError("the deck is empty; give word counts, a preset "
                         f"({', '.join(PRESETS)}) or random")
    counts = [0] * NUM_WORDS
    for part in re.split(r"[,|;]", key):
        if not part.strip():
            continue
        match = _PAIR.match(part)
        if match is None:
            raise ValueError(f"{part.strip()!r} should be a word and a count, like 'kiki 3' "
                             f"(presets: {', '.join(PRESETS)}, or random)")
        word = word_index(match.group(1))
        if counts[word]:
            raise ValueError(f"{WORDS[word]} is listed twice")
        counts[word] = int(match.group(2))
    check_deck(counts)
    return tuple(counts)


def check_deck(counts: list[int] | tuple[int, ...]) -> None:
    """Refuse a deck that breaks a deck-building rule, naming the rule."""
    for word, count in enumerate(counts):
        if count > MAX_COPIES:
            raise ValueError(f"{count} copies of {WORDS[word]}: a deck holds at most "
                             f"{MAX_COPIES} copies of a word")
    for kind, name in enumerate(KIND_NAMES):
        held = sum(counts[w] for w in KIND_WORDS[kind])
        if held != PER_KIND:
            raise ValueError(f"{held} {name}: a deck needs exactly {PER_KIND} verbs, "
                             f"{PER_KIND} qualifiers and {PER_KIND} nouns (30 cards)")


def deck_text(counts: tuple[int, ...] | list[int]) -> str:
    """The canonical text of a deck: words in the fixed order, kinds separated by bars."""
    groups = []
    for kind in range(3):
        groups.append(", ".join(f"{WORDS[w]} {counts[w]}" for w in KIND_WORDS[kind]
                                if counts[w]))
    return " | ".join(groups)


def normalize_deck(text: str) -> str:
    """The option value kept for a deck: ``random``, a preset name, or the canonical text."""
    if not isinstance(text, str):
        parse_deck(text)  # raises with the explanation
    key = text.strip().lower()
    if key == RANDOM or key in PRESETS:
        return key
    return deck_text(parse_deck(text))


def kind_counts(counts: tuple[int, ...] | list[int]) -> tuple[int, int, int]:
    """Cards of each kind (verbs, qualifiers, nouns) in a multiset of 12 word counts."""
    totals = [0, 0, 0]
    for word, count in enumerate(counts):
        totals[KIND_OF[word]] += count
    return totals[0], totals[1], totals[2]
