"""What the rules prove about face-down nouns (``knowledge.py``), kept and read compiled.

The proofs are recorded as ``knowledge``'s ``note_*`` functions record them, at the same
moments and with the same contents, into the state's proof space (``layout.PROOFS``), one
record after another: ``[kind, length, ids, ...]``, where ``ids`` is a bit mask of the
card ids the proof reads (``knowledge``'s item 1 as a set) and the rest is, by kind:

- ``SETTLE``: card, wanted, current, result, then the ids of its holder's other things in
  the wanted spin (a count, then the ids) and in the other spin (likewise);
- ``COUNT``: word, low, high, then the ids counted (a count, then the ids);
- ``PUSH``: card, holder, wanted, old spin, partner card (-1 if none), its holder, its old
  spin, the two spins that resulted, then the other spinning things as a count and
  ``(id, holder, spin)`` triples;
- ``ANY`` (a waiting twig had a legal partner) and ``ALL`` (it had none), a count and as
  many ``SETTLE`` records: some holds, or none does (``knowledge``'s ``ALL`` of ``NOT``).

A proof is kept only if a card it reads was face-down when it was made, as in
``knowledge``. ``holds`` reads a record against a world's words (``words[card id]``).
Recording is skipped when ``KNOW`` is 0 (the states ``greedy``'s lines play through); if
the space ran out (it cannot in a real game: a few hundred slots at most are used, out of
``PROOF_SPACE``), ``KNOW`` becomes 2 and no more proofs are kept.
"""

from __future__ import annotations

import numpy as np

from quarkade.core.jit import njit, njit_inline
from quarkade.games.decoherence.compiled.layout import (
    IDS,
    KNOW,
    PROOFS,
    PROOFS_USED,
    SEAT_SPAN,
    SIZE,
    TABLE,
)
from quarkade.games.decoherence.knowledge import ANY, COUNT, PUSH, SETTLE
from quarkade.games.decoherence.notation import BOUBA, KIKI, LULU, MAX_TABLE
from quarkade.games.decoherence.table import (
    BASE_SIZE,
    FIELDS,
    GROWTH,
    LINK,
    MEASURED,
    SEEN,
    SPIN,
    VIS,
)

ALL_NOT = 5  # knowledge.ALL, whose every part is a NOT
# The most a proof takes: a SETTLE reads at most every thing on the table, an ANY or ALL
# holds a SETTLE per thing of a seat.
LONGEST_SETTLE = 7 + 2 + 2 * MAX_TABLE
LONGEST = 4 + MAX_TABLE * LONGEST_SETTLE
BOUBA_SIZE = BASE_SIZE[BOUBA]


# -- recording ------------------------------------------------------------------------------

@njit_inline
def _space(s: np.ndarray, needed: int) -> int:
    """Where the next proof goes, or -1 if none is kept (``KNOW`` off, or no room)."""
    if s[KNOW] != 1:
        return -1
    at = PROOFS + s[PROOFS_USED]
    if at + needed > SIZE:
        s[KNOW] = 2
        return -1
    return at


@njit_inline
def _unseen(s: np.ndarray, ids: int) -> bool:
    """Whether a card of the id mask ``ids`` is on the table face-down."""
    for g in range(2 * MAX_TABLE):
        base = TABLE + g * FIELDS
        if s[base] >= 0 and not s[base + SEEN] and ids >> s[IDS + g] & 1:
            return True
    return False


@njit_inline
def _commit(s: np.ndarray, at: int, end: int, ids: int) -> None:
    """Keep the proof written at ``at..end`` if a card it reads is face-down; else clear
    it (the space past the proofs kept stays zero, as a state made afresh has it)."""
    s[at + 1] = end - at
    s[at + 2] = ids
    if _unseen(s, ids):
        s[PROOFS_USED] = end - PROOFS
    else:
        _clear(s, at, end)


@njit_inline
def _clear(s: np.ndarray, at: int, end: int) -> None:
    for i in range(at, end):
        s[i] = 0


@njit_inline
def _spin_ids(s: np.ndarray, g: int, spin: int, at: int) -> tuple[int, int]:
    """Write the ids of ``g``'s holder's other things in ``spin`` (a count, then the ids)
    at ``at``: (the end, their id mask)."""
    start = TABLE + (g // MAX_TABLE) * SEAT_SPAN
    skip = TABLE + g * FIELDS
    count = 0
    ids = 0
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if s[b] >= 0 and b != skip and s[b + SPIN] == spin:
            card = s[IDS + (b - TABLE) // FIELDS]
            s[at + 1 + count] = card
            ids |= 1 << card
            count += 1
    s[at] = count
    return at + 1 + count, ids


@njit_inline
def _settle_record(s: np.ndarray, at: int, g: int, wanted: int, current: int,
                   result: int) -> tuple[int, int]:
    """A SETTLE record at ``at`` (``knowledge._settle_proof``): (its end, its id mask)."""
    card = s[IDS + g]
    s[at] = SETTLE
    s[at + 3] = card
    s[at + 4] = wanted
    s[at + 5] = current
    s[at + 6] = result
    end, same = _spin_ids(s, g, wanted, at + 7)
    end, other = _spin_ids(s, g, 3 - wanted, end)
    ids = 1 << card | same | other
    s[at + 1] = end - at
    s[at + 2] = ids
    return end, ids


@njit_inline
def _public_word(s: np.ndarray, g: int) -> int:
    base = TABLE + g * FIELDS
    return s[base] if s[base + SEEN] else -1


@njit
def note_settle(s: np.ndarray, g: int, wanted: int, current: int, result: int) -> None:
    """``knowledge.note_settle``: thing ``g`` was sent into ``wanted`` and took ``result``."""
    if s[KNOW] != 1:
        return
    start = TABLE + (g // MAX_TABLE) * SEAT_SPAN
    skip = TABLE + g * FIELDS
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if s[b] >= 0 and b != skip and s[b + SPIN] == wanted:
            break
    else:
        return  # nothing to be excluded by
    word = _public_word(s, g)
    if word >= 0 and word != KIKI:
        return
    at = _space(s, LONGEST_SETTLE)
    if at < 0:
        return
    end, ids = _settle_record(s, at, g, wanted, current, result)
    _commit(s, at, end, ids)


@njit
def note_twig_options(s: np.ndarray, owner: int, g: int, partner_spin: int,
                      found: bool) -> None:
    """``knowledge.note_twig_options``: whether a waiting twig had a legal partner."""
    at = _space(s, LONGEST)
    if at < 0:
        return
    start = TABLE + owner * SEAT_SPAN
    skip = TABLE + g * FIELDS
    end = at + 4
    ids = 0
    count = 0
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if s[b] >= 0 and s[b + VIS] != MEASURED and s[b + LINK] < 0 and b != skip:
            t = (b - TABLE) // FIELDS
            end, part = _settle_record(s, end, t, partner_spin, s[b + SPIN], partner_spin)
            ids |= part
            count += 1
    if not count:
        return
    s[at] = ANY if found else ALL_NOT
    s[at + 3] = count
    _commit(s, at, end, ids)


@njit
def push_snapshot(s: np.ndarray, g: int) -> int:
    """``knowledge.push_snapshot``, written where the proof would go: its place (-1 if
    none is kept). ``note_push`` finishes it after the push."""
    at = _space(s, 13 + 3 * 2 * MAX_TABLE)
    if at < 0:
        return -1
    partner = s[TABLE + g * FIELDS + LINK]
    holder = g // MAX_TABLE
    s[at] = PUSH
    s[at + 3] = s[IDS + g]
    s[at + 4] = holder
    s[at + 6] = s[TABLE + g * FIELDS + SPIN]
    s[at + 7] = s[IDS + partner] if partner >= 0 else -1
    s[at + 8] = partner // MAX_TABLE if partner >= 0 else -1
    s[at + 9] = s[TABLE + partner * FIELDS + SPIN] if partner >= 0 else 0
    count = 0
    q = at + 13
    for seat in range(2):
        if seat != holder and (partner < 0 or seat != partner // MAX_TABLE):
            continue
        for t in range(seat * MAX_TABLE, (seat + 1) * MAX_TABLE):
            base = TABLE + t * FIELDS
            if s[base] >= 0 and s[base + SPIN] and t != g and t != partner:
                s[q] = s[IDS + t]
                s[q + 1] = seat
                s[q + 2] = s[base + SPIN]
                q += 3
                count += 1
    s[at + 12] = count
    s[at + 1] = q - at
    return at


@njit
def note_push(s: np.ndarray, at: int, g: int, wanted: int) -> None:
    """``knowledge.note_push``: tapped pushed ``g`` toward ``wanted``; keep the proof
    ``push_snapshot`` began at ``at`` if a kiki among the halves was read face-down."""
    if at < 0:
        return
    partner = s[TABLE + g * FIELDS + LINK]
    word = _public_word(s, g)
    if word >= 0 and word != KIKI:
        other = _public_word(s, partner) if partner >= 0 else BOUBA
        if other >= 0 and other != KIKI:
            _clear(s, at, at + s[at + 1])  # no kiki among the halves: nothing was read
            return
    s[at + 5] = wanted
    s[at + 10] = s[TABLE + g * FIELDS + SPIN]
    s[at + 11] = s[TABLE + partner * FIELDS + SPIN] if partner >= 0 else 0
    ids = 1 << s[at + 3]
    if partner >= 0:
        ids |= 1 << s[at + 7]
    for k in range(s[at + 12]):
        ids |= 1 << s[at + 13 + 3 * k]
    _commit(s, at, at + s[at + 1], ids)


@njit
def note_bunching(s: np.ndarray, g: int, low: int, high: int) -> None:
    """``knowledge.note_bunching``: the size of ``g`` (face-up) lies in ``low..high``."""
    base = TABLE + g * FIELDS
    if s[base] != BOUBA or not s[base + SPIN]:
        return
    at = _space(s, 7 + 2 * MAX_TABLE)
    if at < 0:
        return
    end, ids = _spin_ids(s, g, s[base + SPIN], at + 6)
    if not ids:
        s[at + 6] = 0
        return
    offset = BOUBA_SIZE + s[base + GROWTH]
    s[at] = COUNT
    s[at + 3] = BOUBA
    s[at + 4] = max(low - offset, 0)
    s[at + 5] = high - offset
    _commit(s, at, end, ids)


@njit
def note_lulus(s: np.ndarray, seat: int, lulus: int) -> None:
    """``knowledge.note_lulus``: verved through counted ``lulus`` on ``seat``'s table."""
    at = _space(s, 7 + MAX_TABLE)
    if at < 0:
        return
    count = 0
    ids = 0
    for t in range(seat * MAX_TABLE, (seat + 1) * MAX_TABLE):
        if s[TABLE + t * FIELDS] >= 0:
            card = s[IDS + t]
            s[at + 7 + count] = card
            ids |= 1 << card
            count += 1
    s[at] = COUNT
    s[at + 3] = LULU
    s[at + 4] = lulus
    s[at + 5] = lulus
    s[at + 6] = count
    _commit(s, at, at + 7 + count, ids)


# -- reading ----------------------------------------------------------------------------

@njit_inline
def _kiki_in(words: np.ndarray, s: np.ndarray, at: int) -> bool:
    """Whether a card of the id list at ``at`` (a count, then ids) is a kiki."""
    found = False
    for k in range(s[at]):
        found = found or words[s[at + 1 + k]] == KIKI
    return found


@njit
def _settle_holds(s: np.ndarray, at: int, words: np.ndarray) -> bool:
    """``knowledge._settle`` on a SETTLE record, against its result."""
    card, wanted, current, result = s[at + 3], s[at + 4], s[at + 5], s[at + 6]
    same = at + 7
    other = same + 1 + s[same]
    if words[card] != KIKI or not _kiki_in(words, s, same):
        spin = wanted
    elif _kiki_in(words, s, other):
        spin = current
    else:
        spin = 3 - wanted
    return spin == result


@njit_inline
def _kiki_spinning(words: np.ndarray, s: np.ndarray, at: int, holder: int, spin: int
                   ) -> bool:
    """Whether a PUSH record's spinning things (at ``at``) hold a kiki of ``holder`` in
    ``spin``."""
    for k in range(s[at]):
        q = at + 1 + 3 * k
        if s[q + 1] == holder and s[q + 2] == spin and words[s[q]] == KIKI:
            return True
    return False


@njit_inline
def _pushed_spin(words: np.ndarray, s: np.ndarray, spins: int, card: int, holder: int,
                 wanted: int, current: int, moved: int) -> int:
    """``knowledge._settle`` for a push: ``card`` of ``holder`` sent into ``wanted``, its
    holder's other things those of the record (and ``moved``, if not -1, now in the spin
    opposite to ``wanted``)."""
    if words[card] != KIKI or not _kiki_spinning(words, s, spins, holder, wanted):
        return wanted
    if _kiki_spinning(words, s, spins, holder, 3 - wanted) or (
            moved >= 0 and words[moved] == KIKI):
        return current
    return 3 - wanted


@njit
def _push_holds(s: np.ndarray, at: int, words: np.ndarray) -> bool:
    """``knowledge._push``: did the push end as recorded?"""
    card, holder, wanted, old = s[at + 3], s[at + 4], s[at + 5], s[at + 6]
    partner, partner_holder, partner_old = s[at + 7], s[at + 8], s[at + 9]
    result, partner_result = s[at + 10], s[at + 11]
    spins = at + 12
    new = _pushed_spin(words, s, spins, card, holder, wanted, old, -1)
    if new == old:
        return result == old and partner_result == partner_old
    if partner >= 0 and partner_old:
        opposite = 3 - new
        moved = card if holder == partner_holder else -1
        if _pushed_spin(words, s, spins, partner, partner_holder, opposite, partner_old,
                        moved) != opposite:
            return result == old and partner_result == partner_old
        return result == new and partner_result == opposite
    return result == new and partner_result == partner_old


@njit
def holds(s: np.ndarray, at: int, words: np.ndarray) -> bool:
    """Whether the proof at ``at`` is true of the cards' words (``knowledge.holds``)."""
    kind = s[at]
    if kind == SETTLE:
        return _settle_holds(s, at, words)
    if kind == COUNT:
        word = s[at + 3]
        found = 0
        for k in range(s[at + 6]):
            if words[s[at + 7 + k]] == word:
                found += 1
        return s[at + 4] <= found <= s[at + 5]
    if kind == PUSH:
        return _push_holds(s, at, words)
    q = at + 4
    for _ in range(s[at + 3]):
        if _settle_holds(s, q, words):
            return kind == ANY
        q += s[q + 1]
    return kind != ANY
