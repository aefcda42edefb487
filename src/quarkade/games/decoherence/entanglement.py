"""Entanglement and the things that move spins or take things off the table.

Seed 000 section 6: a link joins two things; while it holds neither can be measured,
examined or twigged again; two halves with spins always have opposite spins; when a half
leaves the table the link breaks, and the other half is discarded (fatal link) or goes
dark (ordinary link: a hidden bare particle, spin removed).

Every function here appends what happened to ``facts`` (the resolution's log, see
``sentences``) as small tuples whose first item names the fact.
"""

from __future__ import annotations

from quarkade.games.decoherence.notation import MAX_TABLE, NUM_WORDS
from quarkade.games.decoherence.table import (
    BARE,
    EMPTY_SLOT,
    FATAL,
    FIELDS,
    HIDDEN,
    KIND,
    LINK,
    NO_SPIN,
    NOUN,
    ORIGIN,
    SEEN,
    SPIN,
    STATE,
    VIS,
    settle_spin,
)


def link(table: list[int], a: int, b: int, fatal: bool, facts: list) -> None:
    """Join things ``a`` and ``b``."""
    table[a * FIELDS + LINK] = b
    table[b * FIELDS + LINK] = a
    table[a * FIELDS + FATAL] = table[b * FIELDS + FATAL] = 1 if fatal else 0
    facts.append(("link", a, b, 1 if fatal else 0))


def push(table: list[int], g: int, wanted: int, facts: list) -> None:
    """Send thing ``g`` into spin ``wanted`` (tapped up/down); a spinning partner takes the
    opposite spin. Exclusion may keep a kiki where it is; if the partner is a kiki that
    cannot take the opposite spin, neither half moves (ruling D-9)."""
    base = g * FIELDS
    old = table[base + SPIN]
    new = settle_spin(table, g, wanted)
    if new == old:
        facts.append(("kept", g, old))
        return
    partner = table[base + LINK]
    table[base + SPIN] = new
    table[base + KIND] = STATE
    if partner >= 0 and table[partner * FIELDS + SPIN] != NO_SPIN:
        opposite = 3 - new
        if settle_spin(table, partner, opposite) != opposite:
            table[base + SPIN] = old
            facts.append(("kept", g, old))
            return
        table[partner * FIELDS + SPIN] = opposite
        facts.append(("spin", g, new))
        facts.append(("spin", partner, opposite))
        return
    facts.append(("spin", g, new))


def discard(table: list[int], discards: list[int], g: int, facts: list) -> None:
    """Take thing ``g`` off the table to its origin's discard pile, breaking its link."""
    base = g * FIELDS
    noun = table[base + NOUN]
    partner = table[base + LINK]
    fatal = table[base + FATAL]
    discards[table[base + ORIGIN] * NUM_WORDS + noun] += 1
    table[base:base + FIELDS] = EMPTY_SLOT
    facts.append(("discard", g, noun))
    if partner < 0:
        return
    pbase = partner * FIELDS
    table[pbase + LINK] = -1
    table[pbase + FATAL] = 0
    if fatal:
        discard(table, discards, partner, facts)
    else:
        # The survivor goes dark: a hidden bare particle. Who saw it keeps the memory (D-16).
        table[pbase + KIND] = BARE
        table[pbase + SPIN] = NO_SPIN
        table[pbase + VIS] = HIDDEN
        facts.append(("dark", partner, table[pbase + NOUN], table[pbase + SEEN]))


def holder(g: int) -> int:
    return g // MAX_TABLE
