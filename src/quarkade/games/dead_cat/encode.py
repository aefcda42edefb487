"""Dead Cat as a fixed-size list of floats, read from a seat's view (never the state).

The research adapters (``quarkade.adapters``) feed this to learning code; docs/RESEARCH.md
describes every slice. Seats are counted from the viewer: slot 0 is the seat whose view
it is, slot 1 the next seat in turn order, and so on (a spectator's view counts from seat
0). Every value lies in [0, 1]. The time deck is encoded in draw order (its bottom card
first), so a card keeps its place while the round goes on; a card's face shows only if
the viewer peeked it (DC-14).

``slices(options)`` names the slices in order, ``observation_size(options)`` is their total
and ``max_decisions(options)`` bounds the decisions in a game. ``encode_state(state, seat)``
is the adapters' fast path: the same floats as ``encode(state.view(seat))``, written
straight from the state's plain data without building the view
(``tests/adapters/test_encode_state.py`` proves the two equal, hidden cards included).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from quarkade.games.dead_cat.rules import ALIVE_PER_SEAT, GOAL, NO_ANNOUNCER, DeadCatState
from quarkade.games.dead_cat.rules import PHASE_NAMES as PHASES

CARD_FEATURES = 3  # per time-deck place, besides its peeker: drawn, known alive, known dead

_PHASE = {name: i for i, name in enumerate(PHASES)}


def slices(options: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The observation's slices, in order, as ``(name, length)``."""
    n = options["players"]
    box = ALIVE_PER_SEAT * n
    return [("phase", len(PHASES)), ("active", n), ("starter", n), ("round", 1),
            ("dice", 6 * n), ("cubes", n), ("box", 1),
            ("time_deck", box * (CARD_FEATURES + n)),
            ("last_round", 1), ("last_announcer", n), ("last_ran_out", 1),
            ("last_count", 1), ("last_revealed", 1), ("last_dice", n), ("last_winners", n),
            ("winners", n), ("peek_first", 1)]


def observation_size(options: Mapping[str, Any]) -> int:
    n = options["players"]
    return 4 * n * n + 25 * n + 12


def max_decisions(options: Mapping[str, Any]) -> int:
    """Every round gives a cube, so a game has at most ``3n + 1`` rounds (no seat reaches
    four before then); a round is at most a peek and a bet per card of the box, then an
    announcement."""
    n = options["players"]
    return (3 * n + 1) * (2 * ALIVE_PER_SEAT * n + 1)


def encode(view: dict[str, Any]) -> list[float]:
    """The view as ``observation_size`` floats in [0, 1] (see docs/RESEARCH.md)."""
    n = view["players"]
    me = view["player"] or 0
    box_size = ALIVE_PER_SEAT * n
    out = [0.0] * (4 * n * n + 25 * n + 12)
    out[_PHASE[view["phase"]]] = 1.0
    at = len(PHASES)
    active, starter = view["active"], view["starter"]
    if active is not None:
        out[at + (active - me) % n] = 1.0
    if starter is not None:
        out[at + n + (starter - me) % n] = 1.0
    at += 2 * n
    played = (view["round"] - 1) / (3 * n)
    out[at] = played if played < 1.0 else 1.0
    at += 1
    dice = view["dice"]
    cubes = view["cubes"]
    cubes_at = at + 6 * n
    for slot in range(n):
        seat = slot + me if slot + me < n else slot + me - n
        out[at + dice[seat] - 1] = 1.0
        held = cubes[seat]
        if held:
            out[cubes_at + slot] = held / GOAL if held < GOAL else 1.0
        at += 6
    at = cubes_at + n
    out[at] = view["box"] / box_size
    at += 1
    width = CARD_FEATURES + n
    deck = view["time_deck"]  # top first; place 0 below is the bottom card
    size = len(deck)
    for card in deck:
        base = at + (size - card["position"]) * width
        out[base] = 1.0
        face = card["card"]
        if face is not None:
            out[base + (1 if face == "alive" else 2)] = 1.0
        out[base + CARD_FEATURES + (card["peeker"] - me) % n] = 1.0
    at += box_size * width
    last = view["last_round"]
    if last is not None:
        out[at] = 1.0
        if last["announcer"] is not None:
            out[at + 1 + (last["announcer"] - me) % n] = 1.0
        at += 1 + n
        if last["ran_out"]:
            out[at] = 1.0
        out[at + 1] = (last["count"] or 0) / box_size
        out[at + 2] = len(last["revealed"]) / box_size
        at += 3
        last_dice = last["dice"]
        for slot in range(n):
            out[at + slot] = last_dice[slot + me if slot + me < n else slot + me - n] / 6
        at += n
        for seat in last["winners"]:
            out[at + (seat - me) % n] = 1.0
        at += n
    else:
        at += 4 + 3 * n
    for seat in view["winners"]:
        out[at + (seat - me) % n] = 1.0
    if view["peek_first"]:
        out[at + n] = 1.0
    return out


def encode_state(state: DeadCatState, seat: int, out: Any = None) -> Any:
    """``encode(state.view(seat))`` written into ``out`` without building the view.

    ``out`` is a zeroed sequence of ``observation_size`` floats (a list, or a memoryview of
    a float32 array, which the adapters use to skip a conversion); only its nonzero places
    are written. Without ``out`` a new list is returned. ``seat`` is a seat or SPECTATOR.
    A time-deck card's face is written only where ``seat`` peeked it (DC-14), as the view
    shows it; the spectator sees no face.
    """
    n = state._n
    if out is None:
        out = [0.0] * (4 * n * n + 25 * n + 12)
    me = seat if seat > 0 else 0  # the spectator counts from seat 0
    box_size = ALIVE_PER_SEAT * n
    out[state._phase] = 1.0
    at = len(PHASES)
    active, starter = state._mover, state._starter
    if active >= 0:
        out[at + (active - me) % n] = 1.0
    if starter >= 0:
        out[at + n + (starter - me) % n] = 1.0
    at += 2 * n
    played = (state._round - 1) / (3 * n)
    if played:
        out[at] = played if played < 1.0 else 1.0
    at += 1
    dice, cubes = state._dice, state._cubes
    if me:  # seats from the viewer on
        dice = dice[me:] + dice[:me]
        cubes = cubes[me:] + cubes[:me]
    base = at - 1  # dice show 1-6
    for value in dice:
        out[base + value] = 1.0
        base += 6
    at += 6 * n
    for place, held in enumerate(cubes, at):
        if held:
            out[place] = held / GOAL if held < GOAL else 1.0
    at += n
    cards = state._cards
    left = state.game.box_size - len(cards)
    if left:
        out[at] = left / box_size
    at += 1
    width = CARD_FEATURES + n
    base = at
    for index, peeker in enumerate(state._peekers):  # bottom first, as the encoding
        out[base] = 1.0
        if peeker == seat:
            out[base + 1 + cards[index]] = 1.0  # 0 alive, 1 dead
        out[base + CARD_FEATURES + (peeker - me) % n] = 1.0
        base += width
    at += box_size * width
    rounds = state._rounds
    if rounds:
        last = rounds[-1]
        out[at] = 1.0
        announcer = last.announcer
        if announcer == NO_ANNOUNCER:
            out[at + 1 + n] = 1.0  # the box ran out
        else:
            out[at + 1 + (announcer - me) % n] = 1.0
        at += 1 + n
        if last.first_dead:
            out[at + 1] = last.first_dead / box_size
        if last.revealed:
            out[at + 2] = len(last.revealed) / box_size
        at += 3
        last_dice = last.dice
        if me:
            last_dice = last_dice[me:] + last_dice[:me]
        for place, value in enumerate(last_dice, at):
            out[place] = value / 6
        at += n
        for winner in last.winners:
            out[at + (winner - me) % n] = 1.0
        at += n
    else:
        at += 4 + 3 * n
    for winner in state._winners:
        out[at + (winner - me) % n] = 1.0
    if state.game.peek_first:
        out[at + n] = 1.0
    return out
