"""Resolving a sentence: the twenty verb/qualifier effects, with any of the three nouns.

A sentence resolves as soon as a noun completes its chain, verb and qualifier already in
place (seed 000 sections 4 and 5). In order:

1. The noun arrives on the owner's table: a state (up/down) or a bare particle
   (through/out, twigged out included: D-10). A closed chain's noun is known, others hidden.
   A kiki entering a spin its holder already holds takes the other one; with both held it
   is discarded and the sentence has no effect, though tapped still pays its 1 (D-8).
2. The targets the sentence may choose are listed. With none, the sentence has no effect
   (tapped still pays 1) and its noun stays as cover, still hidden (D-14). With some, the
   owner must choose one (D-4, D-1): the state waits at a target decision.
3. The effect. Sentences that use N turn their noun face-up (D-15).
4. What the sentence leaves stays (or nothing, after a cancel or riffed out); the verb and
   the qualifier go to the owner's discard pile; verve is checked (D-3).

``begin`` runs steps 1-2, ``choose`` a chosen target, ``coin`` tapped through's coin.
Everything that happens is appended to a list of facts that becomes one ``sentence``
event, which the view and the log put into words.
"""

from __future__ import annotations

from quarkade.games.decoherence import knowledge
from quarkade.games.decoherence.entanglement import discard, link, push
from quarkade.games.decoherence.notation import (
    BOOD,
    DOWN,
    KIKI,
    MAX_TABLE,
    NUM_WORDS,
    OUT,
    OWN_TARGET_BASE,
    RIFFED,
    TAPPED,
    THEIR_TARGET_BASE,
    THROUGH,
    TWIGGED,
    UP,
    VERVED,
)
from quarkade.games.decoherence.slots import StateSlots
from quarkade.games.decoherence.table import (
    BARE,
    FIELDS,
    GROWTH,
    HIDDEN,
    KIND,
    KNOWN,
    LINK,
    MEASURED,
    NO_SPIN,
    NOUN,
    ORIGIN,
    SEAT_SPAN,
    SEEN,
    SPIN,
    SPIN_DOWN,
    SPIN_UP,
    STATE,
    VIS,
    count_lulus,
    free_slot,
    item_size,
    settle_spin,
)

# The phases of a game, in the order it meets them. This module moves a game between
# PLAY, TARGET (the owner's target decision) and COIN; ``rules`` handles the others.
DECKS, FIRST, OPENING, DRAW, PLAY, TARGET, COIN, DISCARD, OVER = range(9)
PHASE_NAMES = ("decks", "first", "opening", "draw", "play", "target", "coin", "discard", "over")

# Sentences that choose a target, by (verb, qualifier); boo'd through chooses only in its
# fallback. Verved sentences, tapped through and riffed through never choose.
_CHOOSES = {(TAPPED, UP), (TAPPED, DOWN), (TAPPED, OUT), (BOOD, UP), (BOOD, DOWN),
            (BOOD, THROUGH), (BOOD, OUT), (TWIGGED, UP), (TWIGGED, DOWN), (TWIGGED, THROUGH),
            (TWIGGED, OUT), (RIFFED, UP), (RIFFED, DOWN), (RIFFED, OUT)}


def begin(state: StateSlots, owner: int, closer: int, chain: int, noun: int) -> None:
    """Resolve ``owner``'s chain ``chain`` completed by ``noun`` (from ``closer``'s hand
    when closing, else -1)."""
    chains = state._chains
    at = (owner * 3 + chain) * 2
    verb, qualifier = chains[at], chains[at + 1]
    chains[at] = chains[at + 1] = -1
    table = state._table
    facts: list = []
    slot = free_slot(table, owner)
    g = owner * MAX_TABLE + slot
    base = g * FIELDS
    closed = closer >= 0
    table[base + NOUN] = noun
    table[base + ORIGIN] = closer if closed else owner
    table[base + VIS] = KNOWN if closed else HIDDEN
    table[base + SEEN] = 1 if closed else 0
    state._ids[g] = len(state._id_words)  # the card's public id (``knowledge``)
    state._id_words.append(-1)
    wanted = SPIN_UP if qualifier == UP else SPIN_DOWN if qualifier == DOWN else NO_SPIN
    if wanted:
        table[base + KIND] = STATE
        spin = settle_spin(table, g, wanted) if noun == KIKI else wanted
        knowledge.note_settle(state, g, wanted, NO_SPIN, spin)  # exclusion, seen or not
        if spin == NO_SPIN:
            # Both spins already hold a kiki: discarded on arrival, no effect; tapped's
            # cost is not an effect and is paid regardless (D-8, seed 001).
            facts.append(("excluded",))
            discard(table, state._discards, g, facts)
            if verb == TAPPED:
                state._verve[owner] -= 1
                facts.append(("pay", owner, 1))
            _finish(state, owner, closer, verb, qualifier, noun, -1, facts)
            return
        if spin != wanted:
            facts.append(("flipped", spin))
        table[base + SPIN] = spin
    state._pending = (owner, closer, verb, qualifier, g)
    state._facts = facts
    if verb == TAPPED:
        state._verve[owner] -= 1  # tapped always pays 1 (seed 000 section 5)
        facts.append(("pay", owner, 1))
        if qualifier == THROUGH:
            state._phase = COIN
            return
    if (verb, qualifier) in _CHOOSES:
        if verb == BOOD and qualifier == THROUGH and _sweep(state, owner, facts):
            _finish(state, owner, closer, verb, qualifier, noun, g, facts)
            return
        options = candidates(table, owner, g, verb, qualifier)
        if verb == TWIGGED and qualifier != THROUGH:
            knowledge.note_twig_options(state, owner, g, _partner_spin(table, g, qualifier),
                                        bool(options))
        if options:
            state._targets = tuple(sorted(target_action(owner, t) for t in options))
            state._phase = TARGET
            return
        facts.append(("no target",))
    elif verb == VERVED:
        _verved(state, owner, g, qualifier, facts)
    _finish(state, owner, closer, verb, qualifier, noun, g, facts)


def choose(state: StateSlots, target: int) -> None:
    """Apply the pending sentence to table thing ``target`` (a global index)."""
    assert state._pending is not None and state._facts is not None
    owner, closer, verb, qualifier, g = state._pending
    table = state._table
    facts = state._facts
    base = g * FIELDS
    noun = table[base + NOUN]
    tbase = target * FIELDS
    left = g
    if verb == TAPPED:
        if qualifier == OUT:
            _reveal(table, g)
            _reveal(table, target)
            facts.append(("reveal", target, table[tbase + NOUN]))
            size = item_size(table, g)
            if item_size(table, target) <= size:
                knowledge.note_bunching(state, target, 0, size)
                discard(table, state._discards, target, facts)
            else:
                knowledge.note_bunching(state, target, size + 1, 99)
                facts.append(("too big", target))
        else:
            wanted = SPIN_UP if qualifier == UP else SPIN_DOWN
            snapshot = knowledge.push_snapshot(state, target)
            push(table, target, wanted, facts)
            knowledge.note_push(state, snapshot, wanted)
    elif verb == BOOD:
        if qualifier == OUT:
            discard(table, state._discards, target, facts)
        else:
            table[tbase + VIS] = MEASURED
            table[tbase + SEEN] = 1
            if qualifier == THROUGH:
                facts.append(("measure", target, table[tbase + NOUN], table[tbase + SPIN]))
            else:
                wanted = SPIN_UP if qualifier == UP else SPIN_DOWN
                old = table[tbase + SPIN]
                spin = settle_spin(table, target, wanted)
                if spin:
                    table[tbase + SPIN] = spin
                    table[tbase + KIND] = STATE  # a measured bare particle becomes a state (D-13)
                knowledge.note_settle(state, target, wanted, old, spin)
                facts.append(("measure", target, table[tbase + NOUN], table[tbase + SPIN]))
    elif verb == TWIGGED:
        link(table, g, target, qualifier == OUT, facts)
        if qualifier == THROUGH:
            table[base + KIND] = STATE  # a spinless state
        else:
            partner_spin = _partner_spin(table, g, qualifier)
            # A legal partner could take the spin (D-9): a proof about face-down kikis.
            knowledge.note_settle(state, target, partner_spin, table[tbase + SPIN],
                                  partner_spin)
            table[tbase + KIND] = STATE
            table[tbase + SPIN] = partner_spin
            facts.append(("spin", target, table[tbase + SPIN]))
    else:  # riffed
        _reveal(table, g)
        if qualifier == OUT:
            discard(table, state._discards, target, facts)
            discard(table, state._discards, g, facts)
            left = -1
        elif table[tbase + SPIN] == table[base + SPIN]:
            grow = item_size(table, g)
            knowledge.note_bunching(state, g, grow, grow)
            table[base + GROWTH] += grow
            table[tbase + GROWTH] += grow
            facts.append(("grow", target, grow))
            facts.append(("grow", g, grow))
        else:
            discard(table, state._discards, target, facts)
            discard(table, state._discards, g, facts)
            left = -1
    _finish(state, owner, closer, verb, qualifier, noun, left, facts)


def coin(state: StateSlots, heads: bool) -> None:
    """Tapped through's coin: heads, the owner's opponent loses N."""
    assert state._pending is not None and state._facts is not None
    owner, closer, verb, qualifier, g = state._pending
    table = state._table
    facts = state._facts
    _reveal(table, g)
    facts.append(("coin", 1 if heads else 0))
    if heads:
        loss = item_size(table, g)
        state._verve[1 - owner] -= loss
        facts.append(("lose", 1 - owner, loss))
    _finish(state, owner, closer, verb, qualifier, table[g * FIELDS + NOUN], g, facts)


def candidates(table: list[int], owner: int, g: int, verb: int, qualifier: int,
               exclusion: bool = True) -> list[int]:
    """Global indices of the things the sentence may choose (seed 000 sections 5 and 6);
    ``exclusion`` False leaves out the twig partner's exclusion test (D-9)."""
    them = 1 - owner
    found = []
    if verb == TWIGGED and qualifier != THROUGH:
        start = owner * SEAT_SPAN
        partner_spin = _partner_spin(table, g, qualifier)
        for b in range(start, start + SEAT_SPAN, FIELDS):
            if (table[b] >= 0 and table[b + VIS] != MEASURED and table[b + LINK] < 0
                    and b != g * FIELDS):
                t = b // FIELDS
                # The partner must be able to take the opposite spin (exclusion, D-9).
                if (not exclusion or table[b] != KIKI
                        or settle_spin(table, t, partner_spin) == partner_spin):
                    found.append(t)
        return found
    start = them * SEAT_SPAN
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if table[b] < 0:
            continue
        if verb == TAPPED:
            ok = table[b + KIND] == STATE if qualifier != OUT else table[b + LINK] < 0
        elif verb == BOOD:
            ok = table[b + VIS] == HIDDEN and table[b + LINK] < 0
            if qualifier == THROUGH:
                ok = ok and table[b + KIND] == STATE
        elif verb == TWIGGED:
            ok = table[b + VIS] != MEASURED and table[b + LINK] < 0
        elif verb == RIFFED:
            ok = qualifier == OUT or table[b + SPIN] != NO_SPIN
        else:
            ok = False
        if ok:
            found.append(b // FIELDS)
    return found


def _partner_spin(table: list[int], g: int, qualifier: int) -> int:
    """The spin a twigged up/down/out partner takes: the opposite of the new state's spin;
    twigged out leaves a bare particle and its partner goes down, as under twigged up."""
    if qualifier == OUT:
        return SPIN_DOWN
    return 3 - table[g * FIELDS + SPIN]


def target_of(owner: int, action: int) -> int:
    """The global table index an owner's target action names."""
    if action >= THEIR_TARGET_BASE:
        return (1 - owner) * MAX_TABLE + action - THEIR_TARGET_BASE
    return owner * MAX_TABLE + action - OWN_TARGET_BASE


def target_action(owner: int, g: int) -> int:
    seat, slot = divmod(g, MAX_TABLE)
    return (OWN_TARGET_BASE if seat == owner else THEIR_TARGET_BASE) + slot


def _verved(state: StateSlots, owner: int, g: int, qualifier: int, facts: list) -> None:
    table = state._table
    verve = state._verve
    own_turn = owner == state._active
    if qualifier == DOWN:
        verve[owner] += 1
        facts.append(("gain", owner, 1))
        if own_turn:
            state._no_leak = True
        facts.append(("no leak", 1 if own_turn else 0))
        return
    _reveal(table, g)
    size = item_size(table, g)
    if qualifier == UP:
        knowledge.note_bunching(state, g, size, size)
        verve[owner] += size
        facts.append(("gain", owner, size))
        if own_turn:
            state._leak_up += 1
        facts.append(("leak up", 1 if own_turn else 0))
    elif qualifier == THROUGH:
        # Every lulu on the owner's table, the sentence's own included: it arrived before
        # the effect, as it does for exclusion and bunching (D-12, D-27).
        lulus = count_lulus(table, owner)
        knowledge.note_lulus(state, owner, lulus)
        verve[owner] += size + lulus
        facts.append(("gain", owner, size + lulus))
    else:
        verve[1 - owner] -= size
        verve[owner] -= 1
        facts.append(("lose", 1 - owner, size))
        facts.append(("lose", owner, 1))


def _sweep(state: StateSlots, owner: int, facts: list) -> bool:
    """Boo'd through: measure every hidden, unlinked bare particle of the opponent's."""
    table = state._table
    start = (1 - owner) * SEAT_SPAN
    swept = False
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if (table[b] >= 0 and table[b + KIND] == BARE and table[b + VIS] == HIDDEN
                and table[b + LINK] < 0):
            table[b + VIS] = MEASURED
            table[b + SEEN] = 1
            facts.append(("measure", b // FIELDS, table[b], NO_SPIN))
            swept = True
    return swept


def _reveal(table: list[int], g: int) -> None:
    base = g * FIELDS
    if table[base + VIS] == HIDDEN:
        table[base + VIS] = KNOWN
    table[base + SEEN] = 1


def _finish(state: StateSlots, owner: int, closer: int, verb: int, qualifier: int,
            noun: int, g: int, facts: list) -> None:
    """The chain's verb and qualifier go to the owner's pile; the event is logged; verve
    is checked once for the whole resolution (D-3)."""
    knowledge.note_gone(state, facts)
    discards = state._discards
    discards[owner * NUM_WORDS + verb] += 1
    discards[owner * NUM_WORDS + qualifier] += 1
    table = state._table
    if g >= 0 and table[g * FIELDS + NOUN] >= 0:
        public = table[g * FIELDS + SEEN]
    else:
        g = -1
        public = 1  # discarded face-up
    state._events.append(("sentence", owner, closer, verb, qualifier, noun, g, public,
                          tuple(facts)))
    state._pending = None
    state._facts = None
    state._targets = ()
    state._phase = PLAY
    state._check_verve()
