"""Decoherence as a fixed-size list of floats, read from a seat's view (never the state).

The research adapters (``quarkade.adapters``) feed this to learning code; docs/RESEARCH.md
describes every slice. Seats are counted from the viewer: slot 0 is the seat whose view
it is, slot 1 the other (a spectator's view counts from seat 0). Words are in their id
order (``notation.WORDS``: verbs, qualifiers, nouns). What the view hides stays zero: the
other seat's hand, its unseen nouns, its decklist unless decklists are open. Every value
lies in [0, 1]; counts are divided by a cap and clipped. The event log is left out: what
it tells is already on the table.

``slices(options)`` names the slices in order, ``observation_size(options)`` is their total
and ``max_decisions(options)`` bounds the decisions in a game.
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
)
from quarkade.games.decoherence.sentences import PHASE_NAMES as PHASES
from quarkade.games.decoherence.table import VIS_NAMES

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
