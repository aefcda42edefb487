"""What a seat can work out about the other seat's hidden cards, and worlds that agree with it.

A seat never sees the other seat's hand, deck, face-down nouns or (with private decklists,
D-21) decklist, but the game tells it more than how many there are:

* **Opening hands** (D-23): each was dealt a verb, a qualifier and a noun, then two cards.
  The kind of every card that leaves a hand is public (a face-down noun is still a noun),
  turn by turn (``flows``), so the seat can weigh each mix of kinds the hand may hold now:
  an opening noun that was never played is still in the hand.
* **Proofs about face-down nouns.** Every rule that reads a noun's word and has a public
  outcome leaves a proof, recorded as it happens, naming the cards by id (each noun that
  reaches the table gets the next id; the ids are public):

  - ``SETTLE``: exclusion (seed 000 section 8) when a thing takes a spin: a noun arriving
    ("the kiki takes the down spin", or discarded with both spins held), a measured thing
    (boo'd up/down), a twig partner that was a legal choice;
  - ``PUSH``: tapped up/down moved a thing and its partner, or kept them (D-9);
  - ``COUNT``: bunching, when a bouba's size shows in a gain (verved up), a growth (riffed)
    or a tapped out's comparison, and the lulus counted by verved through (D-12);
  - ``ANY`` / ``ALL`` / ``NOT``: a twig that waits for a partner had one; a twig with no
    legal partner had none.

  A proof is kept only if a card it reads was face-down then (whether that is so is
  public); it stays true for the rest of the game, since cards keep their words.

**The model** (``deal``): every card is a distinct object; a world (the deals and which card
each face-down play was) counts with the probability chance gives it, and the other seat's
choices count as given, with no odds of their own. A private decklist is uniform over the
legal ones (exact for ``random`` decks, D-20). Under this model the hidden part factors:

* a decklist split per kind, weighed by how likely it made the cards seen (the falling
  factorial of each word's count over its seen copies);
* the words of the face-down nouns with that split: drawn like cards from an urn, kept if
  every live proof holds (rejection: exact), or, when proofs are tight, drawn from the
  enumerated and weighed list of the assignments that satisfy them (exact too);
* the kinds in the hand, weighed by the chance that the opening held a verb, a qualifier
  and a noun given every kind that left the hand since (a small dynamic programme over the
  kind counts of the hand, turn by turn backwards: ``opening_weights``), then the words of
  each kind drawn uniformly from what is left; the deck is the rest.

Nothing here reads a card the seat has not seen: the proofs, flows and ids are public, and
a seat's own cards are its own.
"""

from __future__ import annotations

import bisect
import functools
import math
import random
from itertools import accumulate, product

from quarkade.games.decoherence.decks import PER_KIND
from quarkade.games.decoherence.notation import (
    BOUBA,
    KIKI,
    KIND_COMPOSITIONS,
    KIND_OF,
    KIND_WORDS,
    LULU,
    MAX_TABLE,
    NOUN,
    NUM_WORDS,
)
from quarkade.games.decoherence.slots import StateSlots
from quarkade.games.decoherence.table import (
    BASE_SIZE,
    FIELDS,
    GROWTH,
    LINK,
    MEASURED,
    NO_SPIN,
    ORIGIN,
    SEAT_SPAN,
    SEEN,
    SPIN,
    VIS,
)

# Proof kinds. Item 1 of every proof is the tuple of card ids it reads.
SETTLE, PUSH, COUNT, NOT, ANY, ALL = range(6)
# A turn's flow packs the kinds of the cards that left a hand: verbs + 16 q + 256 n.
FLOW_UNIT = (1, 16, 256)


# -- proofs: evaluation ---------------------------------------------------------------------

def _settle(words: list[int], x: int, wanted: int, current: int, same: tuple[int, ...],
            other: tuple[int, ...]) -> int:
    """``table.settle_spin`` on card ids: the spin card ``x`` takes when sent into
    ``wanted``, its holder's other things in that spin being ``same`` and in the opposite
    ``other``; ``current`` is its spin now (NO_SPIN for an arriving noun: discarded)."""
    if words[x] != KIKI:
        return wanted
    for i in same:
        if words[i] == KIKI:
            break
    else:
        return wanted
    for i in other:
        if words[i] == KIKI:
            return current
    return 3 - wanted


def _push(words: list[int], proof: tuple) -> bool:
    """``entanglement.push`` on card ids: did it end as the log says?"""
    _, _, g, holder, wanted, old, partner, partner_holder, partner_old, spins, result = proof
    same = tuple(i for i, h, s in spins if h == holder and s == wanted)
    other = tuple(i for i, h, s in spins if h == holder and s == 3 - wanted)
    new = _settle(words, g, wanted, old, same, other)
    if new == old:
        return result == (old, partner_old)
    if partner >= 0 and partner_old != NO_SPIN:
        opposite = 3 - new
        moved = (g,) if holder == partner_holder else ()  # g now spins ``new``
        psame = tuple(i for i, h, s in spins if h == partner_holder and s == opposite)
        pother = tuple(i for i, h, s in spins if h == partner_holder and s == new) + moved
        if _settle(words, partner, opposite, partner_old, psame, pother) != opposite:
            return result == (old, partner_old)
        return result == (new, opposite)
    return result == (new, partner_old)


def holds(proof: tuple, words: list[int]) -> bool:
    """Whether ``proof`` is true of the cards' words (``words[card id]``)."""
    kind = proof[0]
    if kind == SETTLE:
        _, _, x, wanted, current, same, other, result = proof
        return _settle(words, x, wanted, current, same, other) == result
    if kind == COUNT:
        _, ids, word, low, high = proof
        found = 0
        for i in ids:
            if words[i] == word:
                found += 1
        return low <= found <= high
    if kind == PUSH:
        return _push(words, proof)
    if kind == NOT:
        return not holds(proof[2], words)
    if kind == ANY:
        return any(holds(p, words) for p in proof[2])
    return all(holds(p, words) for p in proof[2])


def world_words(state: StateSlots) -> list[int]:
    """Every card id's word in ``state`` (on the table, or public since it left)."""
    words = state._id_words[:]
    table = state._table
    ids = state._ids
    for g in range(2 * MAX_TABLE):
        if table[g * FIELDS] >= 0:
            words[ids[g]] = table[g * FIELDS]
    return words


# -- proofs: recording (called by ``sentences`` as rules read nouns) ----------------------

def _add(state: StateSlots, proof: tuple) -> None:
    state._proofs = (*state._proofs, proof)


def _unseen(state: StateSlots, ids: tuple[int, ...]) -> bool:
    """Whether any of these cards is on the table face-down (public: the SEEN flags)."""
    table = state._table
    on_table = state._ids
    for g in range(2 * MAX_TABLE):
        if table[g * FIELDS] >= 0 and not table[g * FIELDS + SEEN] and on_table[g] in ids:
            return True
    return False


def _spin_ids(state: StateSlots, g: int, spin: int) -> tuple[int, ...]:
    """Ids of the other things of ``g``'s holder in ``spin``."""
    table = state._table
    ids = state._ids
    start = (g // MAX_TABLE) * SEAT_SPAN
    skip = g * FIELDS
    return tuple(ids[b // FIELDS] for b in range(start, start + SEAT_SPAN, FIELDS)
                 if table[b] >= 0 and b != skip and table[b + SPIN] == spin)


def _settle_proof(state: StateSlots, g: int, wanted: int, current: int,
                  result: int) -> tuple:
    same = _spin_ids(state, g, wanted)
    other = _spin_ids(state, g, 3 - wanted)
    x = state._ids[g]
    return (SETTLE, (x, *same, *other), x, wanted, current, same, other, result)


def _public_word(state: StateSlots, g: int) -> int:
    """The word of the thing at ``g`` if both seats know it, else -1."""
    base = g * FIELDS
    return state._table[base] if state._table[base + SEEN] else -1


def note_settle(state: StateSlots, g: int, wanted: int, current: int,
                result: int) -> None:
    """The thing at ``g`` was sent into ``wanted`` (from ``current``; NO_SPIN when it
    arrives) and took ``result`` (NO_SPIN: discarded on arrival). Call it with the other
    things' spins as they were."""
    if not _spin_ids(state, g, wanted):
        return  # nothing to be excluded by: any word takes the spin
    word = _public_word(state, g)
    if word >= 0 and word != KIKI:
        return  # only a kiki is excluded
    proof = _settle_proof(state, g, wanted, current, result)
    if _unseen(state, proof[1]):
        _add(state, proof)


def note_twig_options(state: StateSlots, owner: int, g: int, partner_spin: int,
                      found: bool) -> None:
    """A twigged up/down/out of ``owner`` (new thing ``g``) had a legal partner among its
    owner's unmeasured, unlinked things (``found``), or none: the partner must be able to
    take ``partner_spin`` (D-9)."""
    table = state._table
    start = owner * SEAT_SPAN
    options = []
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if (table[b] >= 0 and table[b + VIS] != MEASURED and table[b + LINK] < 0
                and b != g * FIELDS):
            t = b // FIELDS
            options.append(_settle_proof(state, t, partner_spin, table[b + SPIN],
                                         partner_spin))
    if not options:
        return
    ids = tuple(sorted({i for proof in options for i in proof[1]}))
    if not _unseen(state, ids):
        return
    if found:
        _add(state, (ANY, ids, tuple(options)))
    else:
        _add(state, (ALL, ids, tuple((NOT, p[1], p) for p in options)))


def push_snapshot(state: StateSlots, g: int) -> tuple:
    """What ``note_push`` needs from before a push of thing ``g``."""
    table = state._table
    ids = state._ids
    partner = table[g * FIELDS + LINK]
    holders = {g // MAX_TABLE} | ({partner // MAX_TABLE} if partner >= 0 else set())
    spins = tuple((ids[b // FIELDS], b // SEAT_SPAN, table[b + SPIN])
                  for seat in sorted(holders)
                  for b in range(seat * SEAT_SPAN, (seat + 1) * SEAT_SPAN, FIELDS)
                  if table[b] >= 0 and table[b + SPIN] and b // FIELDS not in (g, partner))
    partner_old = table[partner * FIELDS + SPIN] if partner >= 0 else NO_SPIN
    return (g, table[g * FIELDS + SPIN], partner, partner_old, spins)


def note_push(state: StateSlots, snapshot: tuple, wanted: int) -> None:
    """Tapped pushed a thing toward ``wanted``: the spins it and its partner ended with."""
    g, old, partner, partner_old, spins = snapshot
    table = state._table
    ids = state._ids
    words = [_public_word(state, g)] + ([_public_word(state, partner)] if partner >= 0
                                        else [])
    if all(w >= 0 and w != KIKI for w in words):
        return  # no kiki among the halves: nothing was read
    result = (table[g * FIELDS + SPIN],
              table[partner * FIELDS + SPIN] if partner >= 0 else NO_SPIN)
    refs = (ids[g], *((ids[partner],) if partner >= 0 else ()), *(i for i, _, _ in spins))
    if not _unseen(state, refs):
        return
    proof = (PUSH, refs, ids[g], g // MAX_TABLE, wanted, old,
             ids[partner] if partner >= 0 else -1,
             partner // MAX_TABLE if partner >= 0 else -1, partner_old, spins, result)
    _add(state, proof)


def note_bunching(state: StateSlots, g: int, low: int, high: int) -> None:
    """The size of the thing at ``g`` (face-up now) is known to lie in ``low..high``; for
    a bouba with a spin that counts its holder's other boubas in that spin."""
    base = g * FIELDS
    table = state._table
    if table[base] != BOUBA or not table[base + SPIN]:
        return
    same = _spin_ids(state, g, table[base + SPIN])
    if not same or not _unseen(state, same):
        return
    offset = BASE_SIZE[BOUBA] + table[base + GROWTH]
    _add(state, (COUNT, same, BOUBA, max(low - offset, 0), high - offset))


def note_lulus(state: StateSlots, seat: int, lulus: int) -> None:
    """Verved through counted ``lulus`` lulus on ``seat``'s table (D-12)."""
    table = state._table
    ids = tuple(state._ids[b // FIELDS] for b in range(seat * SEAT_SPAN, (seat + 1) * SEAT_SPAN,
                                                       FIELDS) if table[b] >= 0)
    if _unseen(state, ids):
        _add(state, (COUNT, ids, LULU, lulus, lulus))


def note_gone(state: StateSlots, facts: list | tuple) -> None:
    """Cards discarded in a resolution are face-up: their words become public by id."""
    for fact in facts:
        if fact[0] == "discard":
            state._id_words[state._ids[fact[1]]] = fact[2]


# -- the opening hand ---------------------------------------------------------------------

def _unpack(flow: int) -> tuple[int, int, int]:
    return flow & 15, (flow >> 4) & 15, flow >> 8


@functools.lru_cache(maxsize=32)
def _triples(total: int) -> tuple[tuple[int, int, int], ...]:
    return tuple((v, q, total - v - q) for v in range(total + 1) for q in range(total + 1 - v))


@functools.lru_cache(maxsize=20_000)
def _level(done: tuple[int, ...]) -> dict[tuple[int, int, int], float]:
    """For the hand right after a seat's draw on turn ``len(done) + 1``, by its kind
    counts: the expected number of ways its opening (five cards) was dealt verb, qualifier
    and noun first, ``done`` being the flows of the turns before (D-23). Drawing backwards,
    each turn's card is any card of the hand after the draw, all alike."""
    if done:
        before = _level(done[:-1])
        left = _unpack(done[-1])
    else:
        before = {t: float(t[0] * t[1] * t[2]) for t in _triples(5) if t[0] * t[1] * t[2]}
        left = (0, 0, 0)
    size = 5 + len(done) + 1 - sum(sum(_unpack(flow)) for flow in done)
    out = {}
    for hand in _triples(size):
        total = 0.0
        for kind in range(3):
            if hand[kind]:
                earlier = [hand[k] - (k == kind) + left[k] for k in range(3)]
                total += hand[kind] * before.get((earlier[0], earlier[1], earlier[2]), 0.0)
        if total:
            out[hand] = total / size
    return out


def opening_weight(flows: tuple[int, ...], hand: tuple[int, int, int]) -> float:
    """How many ways (in expectation, up to a constant factor) a hand of these kind counts
    now fits a seeded opening, ``flows`` being the seat's turns so far (the last one may be
    under way). With no turn yet the hand is the opening itself, perhaps still being dealt:
    its first cards are a verb, then a qualifier, then a noun."""
    if not flows:
        cards = sum(hand)
        return float((hand[0] if cards >= 1 else 1) * (hand[1] if cards >= 2 else 1)
                     * (hand[2] if cards >= 3 else 1))
    left = _unpack(flows[-1])
    key = (hand[0] + left[0], hand[1] + left[1], hand[2] + left[2])
    return _level(flows[:-1]).get(key, 0.0)


# -- decklists ----------------------------------------------------------------------------

def _falling(n: int, k: int) -> int:
    return math.perm(n, k) if 0 <= k <= n else 0


@functools.lru_cache(maxsize=4096)
def split_odds(kind: int, seen: tuple[int, ...]) -> tuple[tuple, tuple[float, ...]]:
    """The legal splits of a kind's ten cards holding ``seen``, and their cumulative
    weights: a split is as likely as it was to deal the cards seen."""
    splits = []
    weights = []
    for split in KIND_COMPOSITIONS[kind]:
        weight = 1
        for have, need in zip(split, seen, strict=True):
            weight *= _falling(have, need)
        if weight:
            splits.append(split)
            weights.append(float(weight))
    return tuple(splits), tuple(accumulate(weights))


def _pick(cumulative: tuple[float, ...] | list[float], rng: random.Random) -> int:
    return bisect.bisect_right(cumulative, rng.random() * cumulative[-1])


# -- the sampler ----------------------------------------------------------------------------

class _Seat:
    """What the viewer knows of one seat whose cards it cannot see."""

    __slots__ = ("hand_odds", "hands", "known", "seat", "seen", "slots")

    def __init__(self, state: StateSlots, seat: int, known: bool) -> None:
        self.seat = seat
        start = seat * NUM_WORDS
        table = state._table
        seen = state._discards[start:start + NUM_WORDS]
        for c in range(3):
            at = (seat * 3 + c) * 2
            for word in state._chains[at:at + 2]:
                if word >= 0:
                    seen[word] += 1
        if state._pending is not None and state._pending[0] == seat:
            seen[state._pending[2]] += 1
            seen[state._pending[3]] += 1
        slots = []
        for b in range(0, len(table), FIELDS):
            if table[b] >= 0 and table[b + ORIGIN] == seat:
                if table[b + SEEN] or b // SEAT_SPAN != seat:
                    seen[table[b]] += 1
                else:
                    slots.append(b // FIELDS)
        self.seen = seen
        self.slots = slots
        lists = state._decklists[start:start + NUM_WORDS]
        # Per kind: the known split, or None (drawn by ``split_odds``). A random deck's
        # kind not drawn yet (mid set-up) is empty and known.
        self.known = [tuple(lists[w] for w in words)
                      if known or sum(lists[w] for w in words) < PER_KIND else None
                      for words in KIND_WORDS]
        unseen = [sum(lists[w] for w in words) if self.known[k] is not None else PER_KIND
                  for k, words in enumerate(KIND_WORDS)]
        for w in range(NUM_WORDS):
            unseen[KIND_OF[w]] -= seen[w]
        unseen[2] -= len(slots)
        size = state._hand_size(seat)
        flows = state._flows[seat]
        hands = []
        weights = []
        for hand in _triples(size):
            if all(hand[k] <= unseen[k] for k in range(3)):
                weight = (math.comb(unseen[0], hand[0]) * math.comb(unseen[1], hand[1])
                          * math.comb(unseen[2], hand[2]) * opening_weight(flows, hand))
                if weight:
                    hands.append(hand)
                    weights.append(weight)
        if not hands:  # cannot happen in a real game; keep the counts at least
            hands = [h for h in _triples(size) if all(h[k] <= unseen[k] for k in range(3))]
            weights = [1.0] * len(hands)
        self.hands = hands
        self.hand_odds = tuple(accumulate(weights))

    def deal(self, state: StateSlots, noun_split: tuple[int, ...], nouns: dict[int, int],
             rng: random.Random) -> None:
        """Redraw in ``state`` what the viewer cannot see of this seat's cards: its
        decklist where unknown (``noun_split`` for the nouns), the words ``nouns`` of its
        face-down nouns, then its hand (its kinds by ``hand_odds``) and its deck."""
        start = self.seat * NUM_WORDS
        lists: list[int] = []
        for kind, words in enumerate(KIND_WORDS):
            split = self.known[kind]
            if split is None:
                if kind == NOUN:
                    split = noun_split
                else:
                    options, cumulative = split_odds(kind, tuple(self.seen[w] for w in words))
                    split = options[_pick(cumulative, rng)]
            lists.extend(split)
        state._decklists[start:start + NUM_WORDS] = lists
        pool = [lists[w] - self.seen[w] for w in range(NUM_WORDS)]
        table = state._table
        for g, word in nouns.items():
            table[g * FIELDS] = word
            pool[word] -= 1
        kinds = self.hands[_pick(self.hand_odds, rng)]
        hand = [0] * NUM_WORDS
        for kind, words in enumerate(KIND_WORDS):
            for _ in range(kinds[kind]):
                point = rng.randrange(sum(pool[w] for w in words))
                for w in words:
                    if point < pool[w]:
                        break
                    point -= pool[w]
                pool[w] -= 1
                hand[w] += 1
        state._hands[start:start + NUM_WORDS] = hand
        state._decks[start:start + NUM_WORDS] = pool

    def noun_splits(self) -> tuple[tuple, tuple[float, ...]]:
        if self.known[2] is not None:
            return (self.known[2],), (1.0,)
        return split_odds(2, tuple(self.seen[w] for w in KIND_WORDS[2]))


class Prepared:
    """A viewer's knowledge, ready to draw worlds from (cached on the state until it
    changes). ``table`` holds the enumerated noun assignments once rejection proved slow."""

    __slots__ = ("base", "proofs", "seats", "slot_ids", "table", "tries", "variables")

    REJECTIONS = 24  # draws tried before enumerating
    MAX_ENUMERATED = 9  # constrained face-down nouns enumerated at most

    def __init__(self, state: StateSlots, player: int) -> None:
        open_lists = state.game.open_decklists
        self.seats = [_Seat(state, seat, open_lists) for seat in range(2) if seat != player]
        self.slot_ids = state._ids[:]
        hidden = {state._ids[g] for info in self.seats for g in info.slots}
        self.base = world_words(state)
        for i in hidden:
            self.base[i] = -1
        self.proofs = [p for p in state._proofs if any(i in hidden for i in p[1])]
        used = {i for p in self.proofs for i in p[1]}
        # Constrained nouns, in order of their card id (proofs read neighbours in time).
        self.variables = sorted(i for i in hidden if i in used)
        self.table: tuple | None = None
        self.tries = 0

    def deal(self, state: StateSlots, rng: random.Random) -> None:
        """Redraw in ``state`` (a copy of the state this knowledge came from) everything
        the viewer cannot see: the face-down nouns' words, then each hidden seat's
        decklist, hand and deck (``_Seat.deal``)."""
        splits, nouns = self.draw_nouns(rng)
        for info, split, found in zip(self.seats, splits, nouns, strict=True):
            info.deal(state, split, found, rng)

    def draw_nouns(self, rng: random.Random) -> tuple[list, list[dict[int, int]]]:
        """Each hidden seat's noun split and the word of each of its face-down nouns."""
        if self.table is None:
            for _ in range(self.REJECTIONS):
                self.tries += 1
                splits, words, found = self._urn(rng)
                if all(holds(p, words) for p in self.proofs):
                    return splits, found
            if len(self.variables) > self.MAX_ENUMERATED:
                while True:  # rejection is still exact, only slower
                    splits, words, found = self._urn(rng)
                    if all(holds(p, words) for p in self.proofs):
                        return splits, found
            self.table = self._enumerate()
        leaves, cumulative = self.table
        splits, fixed = leaves[_pick(cumulative, rng)]
        return self._urn(rng, splits, fixed)[::2]

    def _urn(self, rng: random.Random, splits: list | None = None,
             fixed: dict[int, int] | None = None) -> tuple[list, list[int], list[dict]]:
        """Draw the face-down nouns like cards from each seat's unseen nouns (those in
        ``fixed`` are given, with the seats' ``splits``)."""
        words = self.base[:]
        chosen = []
        found = []
        for index, info in enumerate(self.seats):
            if splits is None or splits[index] is None:
                options, cumulative = info.noun_splits()
                split = options[_pick(cumulative, rng)]
            else:
                split = splits[index]
            chosen.append(split)
            pool = [split[n] - info.seen[9 + n] for n in range(3)]
            given = {}
            for g, word in (fixed or {}).items():
                if g in info.slots:
                    pool[word - 9] -= 1
                    given[g] = word
            for g in info.slots:
                if g in given:
                    continue
                point = rng.randrange(pool[0] + pool[1] + pool[2])
                n = 0 if point < pool[0] else 1 if point < pool[0] + pool[1] else 2
                pool[n] -= 1
                given[g] = 9 + n
            for g, word in given.items():
                words[self._id(g)] = word
            found.append(given)
        return chosen, words, found

    def _id(self, g: int) -> int:
        return self.slot_ids[g]

    def _enumerate(self) -> tuple:
        """Every assignment of the constrained nouns (and the seats' noun splits) that
        satisfies the proofs, weighed by its chance: (leaves, cumulative weights)."""
        owner = {}
        for index, info in enumerate(self.seats):
            for g in info.slots:
                owner[self._id(g)] = (index, g)
        variables = self.variables
        last = {i: n for n, i in enumerate(variables)}
        checks: list[list[tuple]] = [[] for _ in variables]
        for proof in self.proofs:
            checks[max(last[i] for i in proof[1] if i in last)].append(proof)
        leaves: list = []
        weights: list[float] = []
        words = self.base[:]

        def walk(n: int, weight: float, pools: list[list[int]], fixed: dict[int, int],
                 splits: list) -> None:
            if n == len(variables):
                leaves.append((splits, dict(fixed)))
                weights.append(weight)
                return
            card = variables[n]
            index, g = owner[card]
            pool = pools[index]
            total = pool[0] + pool[1] + pool[2]
            for k in range(3):
                if not pool[k]:
                    continue
                words[card] = 9 + k
                if all(holds(p, words) for p in checks[n]):
                    pool[k] -= 1
                    fixed[g] = 9 + k
                    walk(n + 1, weight * (pool[k] + 1) / total, pools, fixed, splits)
                    del fixed[g]
                    pool[k] += 1
            words[card] = -1

        options = [info.noun_splits() for info in self.seats]
        for combo in product(*(range(len(o[0])) for o in options)):
            splits = []
            weight = 1.0
            pools = []
            for index, info in enumerate(self.seats):
                split_list, cumulative = options[index]
                k = combo[index]
                split = split_list[k]
                splits.append(split)
                weight *= cumulative[k] - (cumulative[k - 1] if k else 0.0)
                pools.append([split[n] - info.seen[9 + n] for n in range(3)])
            walk(0, weight, pools, {}, splits)
        if not leaves:  # cannot happen in a real game: let the urn alone decide
            leaves = [([None] * len(self.seats), {})]
            weights = [1.0]
        return leaves, tuple(accumulate(weights))
