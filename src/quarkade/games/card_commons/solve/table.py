"""A fixed-size transposition table for the compiled solver.

One flat int64 array, four words a slot: the position's full key (two words, so a hit is
never a collision of hashes), then one word of data: the value (bits 0-1), the log2 of the
work its search took (bits 2-7, for replacement) and the best move found plus one (bits 8
up); the fourth word pads a bucket of two slots to one 64-byte cache line. A new entry
takes the bucket's slot holding less work. A key of all ones marks an empty slot (no
position packs to it).
"""

from __future__ import annotations

import mmap

from quarkade.games.card_commons.solve.jit import inline
from quarkade.games.card_commons.solve.jit import numpy as np

EMPTY_KEY = -1
WORDS = 4


class Table:
    """``2 ** bits`` entries of 32 bytes."""

    def __init__(self, bits: int) -> None:
        if not 4 <= bits <= 32:
            raise ValueError(f"table bits {bits}: 4-32 allowed")
        self.bits = bits
        # Anonymous memory asked for in huge pages where the kernel offers them: a probe
        # is a random access, and 4 kB pages would make most of them miss the TLB too.
        self._memory = mmap.mmap(-1, 8 * WORDS << bits,
                                 flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
        if hasattr(mmap, "MADV_HUGEPAGE"):
            self._memory.madvise(mmap.MADV_HUGEPAGE)
        self.words = np.frombuffer(self._memory, dtype=np.int64)
        self.clear()

    @property
    def entries(self) -> int:
        return len(self.words) // WORDS

    @property
    def nbytes(self) -> int:
        return int(self.words.nbytes)

    def filled(self) -> int:
        return int((self.words[0::WORDS] != EMPTY_KEY).sum())

    def clear(self) -> None:
        self.words.fill(0)
        self.words[0::WORDS] = EMPTY_KEY
        self.words[1::WORDS] = EMPTY_KEY


@inline
def bucket(words, hi, lo):
    """The first word of the key's bucket (a splitmix64-style mix of the two words)."""
    z = hi * -7046029254386353131 + lo
    z = (z ^ ((z >> 30) & 0x3FFFFFFFF)) * -4658895280553007687
    z = (z ^ ((z >> 27) & 0x1FFFFFFFFF)) * -7723592293110705685
    z = z ^ ((z >> 31) & 0x1FFFFFFFF)
    return (z & ((len(words) >> 3) - 1)) << 3


@inline
def probe(words, hi, lo):
    """The data word's index for this key, or -1."""
    at = bucket(words, hi, lo)
    if words[at] == hi and words[at + 1] == lo:
        return at + 2
    if words[at + 4] == hi and words[at + 5] == lo:
        return at + 6
    return -1


@inline
def _log2(work):
    bits = 0
    while work > 1 and bits < 63:
        work >>= 1
        bits += 1
    return bits


@inline
def store(words, hi, lo, value, work, best):
    """Keep ``value`` (and ``best``) for the key, in its own slot or the cheaper one."""
    at = bucket(words, hi, lo)
    word = value | _log2(work) << 2 | best << 8
    if words[at] == hi and words[at + 1] == lo:
        words[at + 2] = word
        return
    if words[at + 4] == hi and words[at + 5] == lo:
        words[at + 6] = word
        return
    if words[at] != EMPTY_KEY and (words[at + 4] == EMPTY_KEY or
                                   (words[at + 6] >> 2 & 63) < (words[at + 2] >> 2 & 63)):
        at += 4
    words[at] = hi
    words[at + 1] = lo
    words[at + 2] = word
