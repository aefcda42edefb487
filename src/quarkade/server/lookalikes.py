"""Names that cannot pass for one another.

Names are unique whatever their case, and besides no two players' names may have the same
*skeleton* (Unicode TR 39, "confusable detection"): the name with each character that
looks like another replaced by one representative of its look-alikes, then case-folded.
So ``AIiceQ`` (a capital I) cannot be taken beside ``AliceQ``, nor ``B0B`` beside
``BOB``, nor ``Kirn`` beside ``Kim``. The look-alikes are the Unicode Consortium's
confusables data as the confusable-homoglyphs package ships it, read for the characters a
name may hold (``players.NAME``: ASCII letters, digits, ``-`` and ``_``).
"""

from __future__ import annotations

import string
import unicodedata
from functools import cache

ALPHABET = frozenset(string.ascii_letters + string.digits + "-_")


@cache
def _look_alikes() -> tuple[dict[str, str], list[tuple[str, str]]]:
    """(one character -> its representative, [(several characters, representative)])."""
    from confusable_homoglyphs.confusables import confusables_data

    groups: dict[str, set[str]] = {}  # a character -> the set it shares with its look-alikes
    longer: dict[str, str] = {}  # a run of characters that looks like one character
    for prototype, entries in confusables_data.items():
        for entry in entries:
            glyph = entry["c"].strip("\u200e")
            if not (set(prototype) <= ALPHABET and set(glyph) <= ALPHABET):
                continue
            if len(prototype) == 1 and len(glyph) == 1:
                merged = groups.get(prototype, {prototype}) | groups.get(glyph, {glyph})
                for member in merged:
                    groups[member] = merged
            else:
                run, single = (prototype, glyph) if len(prototype) > 1 else (glyph, prototype)
                if len(single) == 1:
                    longer[run] = single
    single = {member: min(group) for member, group in groups.items()}
    runs = sorted(((run, single.get(one, one)) for run, one in longer.items()),
                  key=lambda pair: -len(pair[0]))
    return single, runs


def skeleton(name: str) -> str:
    """What ``name`` looks like: equal for names a reader could take for one another."""
    single, runs = _look_alikes()
    text = unicodedata.normalize("NFD", name)
    for run, one in runs:
        text = text.replace(run, one)
    text = "".join(single.get(c, c) for c in text)
    return unicodedata.normalize("NFD", text).casefold()


__all__ = ["skeleton"]
