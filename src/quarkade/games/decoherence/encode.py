"""Decoherence as a fixed-size list of floats, read from a seat's view (never the state).

The research adapters (``quarkade.adapters``) feed this to learning code; docs/RESEARCH.md
describes every slice. Seats are counted from the viewer: slot 0 is the seat whose view
it is, slot 1 the other (a spectator's view counts from seat 0). Words are in their id
order (``notation.WORDS``: verbs, qualifiers, nouns). What the view hides stays zero: the
other seat's hand, its unseen nouns, its decklist unless decklists are open. Every value
lies in [0, 1]; counts are divided by a cap and clipped. The event log is left out: what
it tells is already on the table.

``slices(options)`` names the slices in order, ``observation_size(options)`` is their total
and ``max_decisions(options)`` bounds the decisions in a game. ``encode_state(state, seat)``
is the adapters' fast path: the same floats as ``encode(state.view(seat))``, written
straight from the state's plain data without building the view (whose event log the
encoding does not use); ``tests/adapters/test_encode_state.py`` proves the two equal, hidden
cards included.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Mapping
from typing import Any

from quarkade.games.decoherence.decks import DECK_SIZE, MAX_COPIES
from quarkade.games.decoherence.notation import (
    MAX_CHAINS,
    MAX_TABLE,
    NOUNS,
    NUM_WORDS,
    QUALIFIERS,
    VERBS,
    WORDS,
)
from quarkade.games.decoherence.rules import (
    CLASSICAL,
    DECOHERED,
    EMPTY_DECK,
    HAND_LIMIT,
    STARTING_VERVE,
    DecoherenceState,
)
from quarkade.games.decoherence.sentences import PHASE_NAMES as PHASES
from quarkade.games.decoherence.sentences import TARGET
from quarkade.games.decoherence.table import (
    BASE_SIZE,
    FATAL,
    FIELDS,
    GROWTH,
    HIDDEN,
    KIND,
    LINK,
    NOUN,
    ORIGIN,
    SEAT_SPAN,
    SEEN,
    SPIN,
    STATE,
    VIS,
    VIS_NAMES,
)

ENDINGS = (DECOHERED, EMPTY_DECK, CLASSICAL)
VERVE_CAP = 2 * STARTING_VERVE
TURN_CAP = 2 * DECK_SIZE
HAND_CAP = HAND_LIMIT + 3
SIZE_CAP = 10  # a thing's size
GROWTH_CAP = 4
# Per chain: open, its verb (one-hot), its qualifier (one-hot, zero until played).
CHAIN_FEATURES = 1 + len(VERBS) + len(QUALIFIERS)
# Per table slot: present, noun (one-hot), noun unseen, status (one-hot: hidden, known,
# measured), a state (else a bare particle), spin up, spin down, growth, size, size exact,
# linked, linked to the other seat's table, the linked slot, the link is fatal.
THING_FEATURES = 1 + len(NOUNS) + 1 + len(VIS_NAMES) + 1 + 2 + 3 + 4
# The sentence being resolved: present, owner, closer, verb, qualifier, noun, noun unseen,
# slot, waiting for a target, waiting for the coin.
RESOLVING_FEATURES = 1 + 2 + 2 + len(VERBS) + len(QUALIFIERS) + len(NOUNS) + 1 + 1 + 2
SIZE = (len(PHASES) + 6 + 1 + 2 + NUM_WORDS + 4 + 2 * NUM_WORDS + 2
        + 2 * MAX_CHAINS * CHAIN_FEATURES + 2 * MAX_TABLE * THING_FEATURES + 2
        + 2 * NUM_WORDS + 4 + RESOLVING_FEATURES + 2 + len(ENDINGS))

_PHASE = {name: i for i, name in enumerate(PHASES)}
_WORD = {name: i for i, name in enumerate(WORDS)}
_VERB = {name: i for i, name in enumerate(VERBS)}
_QUALIFIER = {name: i for i, name in enumerate(QUALIFIERS)}
_NOUN = {name: i for i, name in enumerate(NOUNS)}
_STATUS = {name: i for i, name in enumerate(VIS_NAMES)}
_ENDING = {name: i for i, name in enumerate(ENDINGS)}
# By word id, for the fast path: a verb's, qualifier's or noun's place in its own list.
_VERB_OF = tuple(_VERB.get(word, -1) for word in WORDS)
_QUALIFIER_OF = tuple(_QUALIFIER.get(word, -1) for word in WORDS)
_NOUN_OF = tuple(_NOUN.get(word, -1) for word in WORDS)
_BOUBA = WORDS.index("bouba")
# ``_table_things`` unpacks a thing's fields in one go, in this order.
_THING_FIELDS = (NOUN, ORIGIN, KIND, SPIN, VIS, SEEN, GROWTH, LINK, FATAL)
assert tuple(range(FIELDS)) == _THING_FIELDS, "table fields were reordered"


def slices(options: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The observation's slices, in order, as ``(name, length)``."""
    return [("phase", len(PHASES)), ("active", 2), ("to_move", 2), ("first", 2),
            ("turn", 1), ("verve", 2), ("hand", NUM_WORDS), ("hand_sizes", 2),
            ("deck_sizes", 2), ("decklists", 2 * NUM_WORDS), ("decklists_known", 2),
            ("chains", 2 * MAX_CHAINS * CHAIN_FEATURES),
            ("tables", 2 * MAX_TABLE * THING_FEATURES), ("hidden_nouns", 2),
            ("discards", 2 * NUM_WORDS), ("leak", 4), ("resolving", RESOLVING_FEATURES),
            ("winners", 2), ("result", len(ENDINGS))]


def observation_size(options: Mapping[str, Any]) -> int:
    return SIZE


def max_decisions(options: Mapping[str, Any]) -> int:
    """A hand only grows by draws, at most a deck (30 cards) per seat, and every card leaves
    it once (played or discarded); a turn ends with one pass; each sentence asks for at
    most a few targets. The bound is loose: random and greedy games stay well below."""
    return 8 * DECK_SIZE * 2


@functools.lru_cache(maxsize=256)
def _deck_counts(text: str) -> tuple[int, ...]:
    """The word counts of a decklist as the view writes it (``decks.deck_text``). A random
    deck being drawn lists only the kinds drawn so far, so the deck-building rules are not
    checked here (``decks.parse_deck`` would refuse it)."""
    counts = [0] * NUM_WORDS
    for part in re.split(r"[,|]", text):
        if part.strip():
            word, count = part.split()
            counts[_WORD[word]] = int(count)
    return tuple(counts)


def _scaled(value: float, cap: float) -> float:
    return 0.0 if value <= 0 else value / cap if value < cap else 1.0


def encode(view: dict[str, Any]) -> list[float]:
    """The view as ``observation_size`` floats in [0, 1] (see docs/RESEARCH.md)."""
    me = view["player"] or 0
    seats = (me, 1 - me)
    out = [0.0] * SIZE
    out[_PHASE[view["phase"]]] = 1.0
    at = len(PHASES)
    for key in ("active", "to_move", "first"):
        seat = view[key]
        if seat is not None:
            out[at + (seat - me) % 2] = 1.0
        at += 2
    out[at] = _scaled(view["turn"], TURN_CAP)
    at += 1
    for slot, seat in enumerate(seats):
        out[at + slot] = _scaled(view["verve"][seat], VERVE_CAP)
    at += 2
    for word in view["hand"] or ():  # a deck holds at most four copies of a word
        out[at + _WORD[word]] += 1 / MAX_COPIES
    at += NUM_WORDS
    for slot, seat in enumerate(seats):
        out[at + slot] = _scaled(view["hand_sizes"][seat], HAND_CAP)
        out[at + 2 + slot] = view["deck_sizes"][seat] / DECK_SIZE
    at += 4
    for slot, seat in enumerate(seats):
        text = view["decklists"][seat]
        if text is not None:
            for word, count in enumerate(_deck_counts(text)):
                out[at + slot * NUM_WORDS + word] = count / MAX_COPIES
            out[at + 2 * NUM_WORDS + slot] = 1.0
    at += 2 * NUM_WORDS + 2
    for slot, seat in enumerate(seats):
        for chain in view["chains"][seat]:
            base = at + (slot * MAX_CHAINS + chain["chain"] - 1) * CHAIN_FEATURES
            out[base] = 1.0
            out[base + 1 + _VERB[chain["verb"]]] = 1.0
            if chain["qualifier"] is not None:
                out[base + 1 + len(VERBS) + _QUALIFIER[chain["qualifier"]]] = 1.0
    at += 2 * MAX_CHAINS * CHAIN_FEATURES
    for slot, seat in enumerate(seats):
        for thing in view["tables"][seat]:
            _thing(out, at + (slot * MAX_TABLE + thing["slot"] - 1) * THING_FEATURES, thing, seat)
    at += 2 * MAX_TABLE * THING_FEATURES
    for slot, seat in enumerate(seats):
        out[at + slot] = view["hidden_nouns"][seat] / MAX_TABLE
    at += 2
    for slot, seat in enumerate(seats):
        for word, count in view["discards"][seat].items():
            out[at + slot * NUM_WORDS + _WORD[word]] = _scaled(count, MAX_COPIES)
    at += 2 * NUM_WORDS
    leak = view["leak"]
    if leak is not None:
        out[at] = leak["open_chains"] / MAX_CHAINS
        out[at + 1] = _scaled(leak["verved_up"], MAX_CHAINS)
        out[at + 2] = 1.0 if leak["verved_down"] else 0.0
        out[at + 3] = _scaled(leak["amount"], 2 * MAX_CHAINS)
    at += 4
    resolving = view["resolving"]
    if resolving is not None:
        _resolving(out, at, resolving, me)
    at += RESOLVING_FEATURES
    for seat in view["winners"]:
        out[at + (seat - me) % 2] = 1.0
    at += 2
    if view["result"] is not None:
        out[at + _ENDING[view["result"]]] = 1.0
    return out


def _thing(out: list[float], base: int, thing: dict[str, Any], holder: int) -> None:
    out[base] = 1.0
    noun = thing["noun"]
    if noun is None:
        out[base + 4] = 1.0
    else:
        out[base + 1 + _NOUN[noun]] = 1.0
    at = base + 5
    out[at + _STATUS[thing["status"]]] = 1.0
    at += len(VIS_NAMES)
    out[at] = 1.0 if thing["kind"] == "state" else 0.0
    spin = thing["spin"]
    if spin is not None:
        out[at + (1 if spin == "up" else 2)] = 1.0
    out[at + 3] = _scaled(thing["growth"], GROWTH_CAP)
    if thing["size"] is not None:
        out[at + 4] = _scaled(thing["size"], SIZE_CAP)
    out[at + 5] = 1.0 if thing["size_exact"] else 0.0
    link = thing["link"]
    if link is not None:
        out[at + 6] = 1.0
        out[at + 7] = 1.0 if link["seat"] != holder else 0.0
        out[at + 8] = link["slot"] / MAX_TABLE
        out[at + 9] = 1.0 if link["fatal"] else 0.0


def _resolving(out: list[float], at: int, resolving: dict[str, Any], me: int) -> None:
    out[at] = 1.0
    out[at + 1 + (resolving["owner"] - me) % 2] = 1.0
    if resolving["closer"] is not None:
        out[at + 3 + (resolving["closer"] - me) % 2] = 1.0
    at += 5
    out[at + _VERB[resolving["verb"]]] = 1.0
    at += len(VERBS)
    out[at + _QUALIFIER[resolving["qualifier"]]] = 1.0
    at += len(QUALIFIERS)
    noun = resolving["noun"]
    if noun is None:
        out[at + len(NOUNS)] = 1.0
    else:
        out[at + _NOUN[noun]] = 1.0
    at += len(NOUNS) + 1
    out[at] = resolving["slot"] / MAX_TABLE
    out[at + 1 + (0 if resolving["waiting"] == "target" else 1)] = 1.0


def encode_state(state: DecoherenceState, seat: int, out: Any = None) -> Any:
    """``encode(state.view(seat))`` written into ``out`` without building the view.

    ``out`` is a zeroed sequence of ``observation_size`` floats (a list, or a memoryview of
    a float32 array, which the adapters use to skip a conversion); only its nonzero places
    are written. Without ``out`` a new list is returned. ``seat`` is a seat or SPECTATOR.
    It reads what the view shows and no more: the other seat's hand and deck are read
    only as sizes, its decklist only when decklists are open, a noun on the table only
    where ``seat`` holds it or it has been seen face-up.
    """
    if out is None:
        out = [0.0] * SIZE
    me = seat if seat > 0 else 0  # the spectator counts from seat 0
    seats = (me, 1 - me)
    phase = state._phase
    out[phase] = 1.0
    at = len(PHASES)
    to_move = state.current_player()
    for who in (state._active, to_move, state._first):
        if who >= 0:
            out[at + (who - me) % 2] = 1.0
        at += 2
    out[at] = _scaled(state._turn + 1, TURN_CAP)
    at += 1
    verve = state._verve
    for place, holder in enumerate(seats, at):
        out[place] = _scaled(verve[holder], VERVE_CAP)
    at += 2
    hands = state._hands
    if seat >= 0:  # only the viewer's own hand, never the other's
        start = seat * NUM_WORDS
        for place, count in enumerate(hands[start:start + NUM_WORDS], at):
            if count:
                out[place] = count / MAX_COPIES
    at += NUM_WORDS
    decks = state._decks
    for slot, holder in enumerate(seats):
        start = holder * NUM_WORDS
        out[at + slot] = _scaled(sum(hands[start:start + NUM_WORDS]), HAND_CAP)
        out[at + 2 + slot] = sum(decks[start:start + NUM_WORDS]) / DECK_SIZE
    at += 4
    open_lists = state.game.open_decklists
    decklists = state._decklists
    for slot, holder in enumerate(seats):
        if holder == seat or open_lists:
            start = holder * NUM_WORDS
            for place, count in enumerate(decklists[start:start + NUM_WORDS],
                                          at + slot * NUM_WORDS):
                if count:
                    out[place] = count / MAX_COPIES
            out[at + 2 * NUM_WORDS + slot] = 1.0
    at += 2 * NUM_WORDS + 2
    chains = state._chains
    for slot, holder in enumerate(seats):
        for chain in range(MAX_CHAINS):
            word_at = (holder * MAX_CHAINS + chain) * 2
            verb = chains[word_at]
            if verb < 0:
                continue
            base = at + (slot * MAX_CHAINS + chain) * CHAIN_FEATURES
            out[base] = 1.0
            out[base + 1 + _VERB_OF[verb]] = 1.0
            qualifier = chains[word_at + 1]
            if qualifier >= 0:
                out[base + 1 + len(VERBS) + _QUALIFIER_OF[qualifier]] = 1.0
    at += 2 * MAX_CHAINS * CHAIN_FEATURES
    table = state._table
    hidden_at = at + 2 * MAX_TABLE * THING_FEATURES
    for slot, holder in enumerate(seats):
        hidden = _table_things(out, at + slot * MAX_TABLE * THING_FEATURES, table, holder,
                               seat)
        if hidden:
            out[hidden_at + slot] = hidden / MAX_TABLE
    at = hidden_at + 2
    discards = state._discards
    for slot, holder in enumerate(seats):
        start = holder * NUM_WORDS
        for place, count in enumerate(discards[start:start + NUM_WORDS],
                                      at + slot * NUM_WORDS):
            if count:
                out[place] = count / MAX_COPIES if count < MAX_COPIES else 1.0
    at += 2 * NUM_WORDS
    active = state._active
    if active >= 0:
        open_chains = state._open_chains(active)
        verved_up = state._leak_up
        out[at] = open_chains / MAX_CHAINS
        if verved_up > 0:
            out[at + 1] = _scaled(verved_up, MAX_CHAINS)
        if state._no_leak:
            out[at + 2] = 1.0
        else:
            out[at + 3] = _scaled(open_chains + verved_up, 2 * MAX_CHAINS)
    at += 4
    pending = state._pending
    if pending is not None:
        owner, closer, verb, qualifier, g = pending
        out[at] = 1.0
        out[at + 1 + (owner - me) % 2] = 1.0
        if closer >= 0:
            out[at + 3 + (closer - me) % 2] = 1.0
        at += 5
        out[at + _VERB_OF[verb]] = 1.0
        at += len(VERBS)
        out[at + _QUALIFIER_OF[qualifier]] = 1.0
        at += len(QUALIFIERS)
        base = g * FIELDS
        noun = table[base]
        if noun >= 0 and (seat == owner or table[base + SEEN]):
            out[at + _NOUN_OF[noun]] = 1.0
        else:
            out[at + len(NOUNS)] = 1.0
        at += len(NOUNS) + 1
        out[at] = (g % MAX_TABLE + 1) / MAX_TABLE
        out[at + (1 if phase == TARGET else 2)] = 1.0
        at += 3
    else:
        at += RESOLVING_FEATURES
    for winner in state._winners:
        out[at + (winner - me) % 2] = 1.0
    at += 2
    if state._ending:
        out[at + _ENDING[state._ending]] = 1.0
    return out


def _table_things(out: Any, at: int, table: list[int], holder: int, seat: int) -> int:
    """The things on ``holder``'s table as ``seat`` sees them (as ``_thing`` encodes a
    thing of the view); returns how many of its nouns are hidden (``hidden_nouns``)."""
    start = holder * SEAT_SPAN
    end = start + SEAT_SPAN
    nouns = table[start:end:FIELDS]
    things = [slot for slot, noun in enumerate(nouns) if noun >= 0]
    if not things:
        return 0
    spins = table[start + SPIN:end:FIELDS]
    seen = table[start + SEEN:end:FIELDS]
    own = seat == holder
    hidden = 0
    for slot in things:
        b = start + slot * FIELDS
        noun, _, kind, spin, status, shown, growth, partner, fatal = table[b:b + FIELDS]
        base = at + slot * THING_FEATURES
        out[base] = 1.0
        visible = own or shown
        if visible:
            out[base + 1 + _NOUN_OF[noun]] = 1.0
        else:
            out[base + 4] = 1.0
        out[base + 5 + status] = 1.0
        hidden += status == HIDDEN
        flags = base + 5 + len(VIS_NAMES)
        if kind == STATE:
            out[flags] = 1.0
        if spin:
            out[flags + spin] = 1.0  # 1 up, 2 down
        if growth > 0:
            out[flags + 3] = growth / GROWTH_CAP if growth < GROWTH_CAP else 1.0
        if visible:
            size = BASE_SIZE[noun] + growth
            exact = True
            if noun == _BOUBA and spin:
                for other in things:
                    if other != slot and spins[other] == spin:
                        if own or seen[other]:
                            size += nouns[other] == _BOUBA
                        else:
                            exact = False  # an unseen noun in the same spin may bunch
            out[flags + 4] = _scaled(size, SIZE_CAP)
            if exact:
                out[flags + 5] = 1.0
        if partner >= 0:
            out[flags + 6] = 1.0
            if partner // MAX_TABLE != holder:
                out[flags + 7] = 1.0
            out[flags + 8] = (partner % MAX_TABLE + 1) / MAX_TABLE
            if fatal:
                out[flags + 9] = 1.0
    return hidden
