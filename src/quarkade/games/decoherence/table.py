"""The table: every seat's states and bare particles, as one flat list of small ints.

Each seat has ``MAX_TABLE`` slots (a seat holds at most its own 10 nouns plus 10 nouns the
opponent closed onto its chains). A thing keeps its slot while it stays on the table; a new
thing takes the lowest free slot. The thing in slot ``s`` of seat ``p`` has the global
index ``g = p * MAX_TABLE + s`` and its fields start at ``g * FIELDS``:

=======  ==================================================================================
field    meaning
=======  ==================================================================================
NOUN     the noun's word id (9 kiki, 10 bouba, 11 lulu), or -1 for an empty slot
ORIGIN   the seat whose deck the card came from (the closer, for a closed chain's noun);
         it goes back to that seat's discard pile
KIND     BARE (a bare particle) or STATE
SPIN     NO_SPIN, SPIN_UP or SPIN_DOWN (a spinless state is a STATE with NO_SPIN)
VIS      HIDDEN, KNOWN or MEASURED, as the opponent of the holder sees it
SEEN     1 once the noun has been face-up: everyone knows the card from then on, even if
         it goes dark again (ruling D-16)
GROWTH   size added by riffs, kept for as long as the card stays on the table (D-17)
LINK     the global index of the other half of its link, or -1
FATAL    1 if that link is fatal (twigged out)
=======  ==================================================================================

Sizes (seed 000 sections 1 and 8): kiki 3, lulu 2, bouba 2 plus one per other bouba its
holder has in the same spin at the moment the size is asked for; plus growth.
"""

from __future__ import annotations

from quarkade.games.decoherence.notation import BOUBA, KIKI, LULU, MAX_TABLE

FIELDS = 9
NOUN, ORIGIN, KIND, SPIN, VIS, SEEN, GROWTH, LINK, FATAL = range(FIELDS)
BARE, STATE = 0, 1
NO_SPIN, SPIN_UP, SPIN_DOWN = 0, 1, 2
HIDDEN, KNOWN, MEASURED = 0, 1, 2
SPIN_NAMES = (None, "up", "down")
VIS_NAMES = ("hidden", "known", "measured")

EMPTY_SLOT = (-1, -1, BARE, NO_SPIN, HIDDEN, 0, 0, -1, 0)
SEAT_SPAN = MAX_TABLE * FIELDS

# Printed sizes by word id (only nouns are ever looked up).
BASE_SIZE = (0,) * 9 + (3, 2, 2)


def empty_table() -> list[int]:
    return list(EMPTY_SLOT) * (2 * MAX_TABLE)


def item_size(table: list[int], g: int) -> int:
    """The size of thing ``g`` now: printed size, growth, and bunching for a bouba."""
    base = g * FIELDS
    noun = table[base]
    size = BASE_SIZE[noun] + table[base + GROWTH]
    spin = table[base + SPIN]
    if noun == BOUBA and spin:
        start = (g // MAX_TABLE) * SEAT_SPAN
        for b in range(start, start + SEAT_SPAN, FIELDS):
            if b != base and table[b] == BOUBA and table[b + SPIN] == spin:
                size += 1
    return size


def kiki_holds(table: list[int], g: int, spin: int) -> bool:
    """Whether the holder of ``g`` has another kiki in ``spin``."""
    base = g * FIELDS
    start = (g // MAX_TABLE) * SEAT_SPAN
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if b != base and table[b] == KIKI and table[b + SPIN] == spin:
            return True
    return False


def settle_spin(table: list[int], g: int, wanted: int) -> int:
    """The spin thing ``g`` would take when sent into ``wanted`` (exclusion, seed 000 s. 8).

    Anything but a kiki takes ``wanted``. A kiki whose holder already has another kiki in
    ``wanted`` takes the other spin instead; if the holder has kikis in both spins the
    result is ``NO_SPIN`` for a kiki arriving (it is then discarded) and its current spin
    for one already there (D-9: pushes and twig partners are refused rather than broken).
    """
    if table[g * FIELDS] != KIKI or not kiki_holds(table, g, wanted):
        return wanted
    other = 3 - wanted
    if not kiki_holds(table, g, other):
        return other
    return table[g * FIELDS + SPIN]


def free_slot(table: list[int], seat: int) -> int:
    start = seat * SEAT_SPAN
    for slot in range(MAX_TABLE):
        if table[start + slot * FIELDS] < 0:
            return slot
    raise AssertionError("a seat's table is full (cannot happen with 30-card decks)")


def count_hidden(table: list[int], seat: int) -> int:
    """Nouns of ``seat`` on the table that its opponent has not seen face-up (hidden)."""
    start = seat * SEAT_SPAN
    return sum(1 for b in range(start, start + SEAT_SPAN, FIELDS)
               if table[b] >= 0 and table[b + VIS] == HIDDEN)


def count_links(table: list[int], seat: int) -> int:
    """Live links with a half on ``seat``'s table (ruling D-22)."""
    start = seat * SEAT_SPAN
    return sum(1 for b in range(start, start + SEAT_SPAN, FIELDS)
               if table[b] >= 0 and table[b + LINK] >= 0)


def count_lulus(table: list[int], seat: int, leave_out: int = -1) -> int:
    """Lulus on ``seat``'s table, not counting thing ``leave_out``."""
    start = seat * SEAT_SPAN
    skip = leave_out * FIELDS
    return sum(1 for b in range(start, start + SEAT_SPAN, FIELDS)
               if table[b] == LULU and b != skip)


def occupied(table: list[int], seat: int) -> list[int]:
    """Global indices of ``seat``'s things, in slot order."""
    first = seat * MAX_TABLE
    return [g for g in range(first, first + MAX_TABLE) if table[g * FIELDS] >= 0]
