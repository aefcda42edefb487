"""Hadronize as a fixed-size list of floats, read from a seat's view (never the state).

The research adapters (``quarkade.adapters``) feed this to learning code; docs/RESEARCH.md
describes every slice. Seats are counted from the viewer: slot 0 is the seat whose view
it is, slot 1 the next seat in turn order, and so on (a spectator's view counts from seat
0). Every value lies in [0, 1]; counts are divided by a cap and clipped.

``slices(options)`` names the slices in order, ``observation_size(options)`` is their total
and ``max_decisions(options)`` bounds the decisions in a game (None: no bound, see H-8).
``encode_state(state, seat)`` is the adapters' fast path: the same floats as
``encode(state.view(seat))``, written straight from the state's plain data without building
the view (``tests/adapters/test_encode_state.py`` proves the two equal).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from quarkade.games.hadronize.notation import FLAVOURS, SUPERPOSITIONS
from quarkade.games.hadronize.rules import HADRONIZED, NO_REACTION, TUNNELLED, HadronizeState
from quarkade.games.hadronize.rules import PHASE_NAMES as PHASES

REACTIONS = (NO_REACTION, HADRONIZED, TUNNELLED)
COUNT_CAP = 12  # quarks of one flavour in a chamber, and quarks in a reaction
TURN_CAP = 200  # turns, when the game has no turn cap

_PHASE = {name: i for i, name in enumerate(PHASES)}
_FLAVOUR = {name: i for i, name in enumerate(FLAVOURS)}
_REACTION = {name: i for i, name in enumerate(REACTIONS)}
_SCALED = tuple(min(count / COUNT_CAP, 1.0) for count in range(COUNT_CAP + 1))


def slices(options: Mapping[str, Any]) -> list[tuple[str, int]]:
    """The observation's slices, in order, as ``(name, length)``."""
    n = options["players"]
    return [("phase", 6), ("active", n), ("chambers", 6 * n), ("hadronized", n),
            ("superposition", 6), ("observer", n), ("turn", 1), ("last_active", n),
            ("last_observer", n), ("last_flavour", 6), ("last_reaction", 3),
            ("last_count", 1), ("winners", n)]


def observation_size(options: Mapping[str, Any]) -> int:
    return 23 + 12 * options["players"]


def max_decisions(options: Mapping[str, Any]) -> int | None:
    """One decision per turn: the turn cap, or None when the game has none."""
    return options["max_turns"] or None


def encode(view: dict[str, Any]) -> list[float]:
    """The view as ``observation_size`` floats in [0, 1] (see docs/RESEARCH.md)."""
    n = view["players"]
    me = view["player"] or 0
    out = [0.0] * (23 + 12 * n)
    out[_PHASE[view["phase"]]] = 1.0
    at = 6
    active = view["active"]
    if active is not None:
        out[at + (active - me) % n] = 1.0
    at += n
    chambers = view["chambers"]
    for slot in range(n):
        for flavour, count in enumerate(chambers[(me + slot) % n]):
            if count:
                out[at + flavour] = _SCALED[count] if count < COUNT_CAP else 1.0
        at += 6
    goal = view["goal"]
    hadronized = view["hadronized"]
    for slot in range(n):
        done = hadronized[(me + slot) % n]
        out[at + slot] = done / goal if done < goal else 1.0
    at += n
    superposition = view["superposition"]
    if superposition:
        for name in superposition:
            out[at + _FLAVOUR[name]] = 1.0
    at += 6
    observer = view["observer"]
    if observer is not None:
        out[at + (observer - me) % n] = 1.0
    at += n
    cap = view["max_turns"] or TURN_CAP
    turn = view["turn"]
    out[at] = turn / cap if turn < cap else 1.0
    at += 1
    last = view["last"]
    if last is not None:
        out[at + (last["active"] - me) % n] = 1.0
        out[at + n + (last["observer"] - me) % n] = 1.0
        at += 2 * n
        out[at + _FLAVOUR[last["flavour"]]] = 1.0
        out[at + 6 + _REACTION[last["reaction"]]] = 1.0
        count = last["count"]
        out[at + 9] = _SCALED[count] if count < COUNT_CAP else 1.0
        at += 10
    else:
        at += 2 * n + 10
    for seat in view["winners"]:
        out[at + (seat - me) % n] = 1.0
    return out


def encode_state(state: HadronizeState, seat: int, out: Any = None) -> Any:
    """``encode(state.view(seat))`` written into ``out`` without building the view.

    ``out`` is a zeroed sequence of ``observation_size`` floats (a list, or a memoryview of
    a float32 array, which the adapters use to skip a conversion); only its nonzero places
    are written. Without ``out`` a new list is returned. ``seat`` is a seat or SPECTATOR.
    Nothing is hidden in Hadronize, so every seat reads the whole state.
    """
    hadronized = state._hadronized
    chambers = state._chambers
    n = len(hadronized)
    if out is None:
        out = [0.0] * (23 + 12 * n)
    me = seat if seat > 0 else 0  # the spectator counts from seat 0
    if me:  # seats from the viewer on
        chambers = chambers[6 * me:] + chambers[:6 * me]
        hadronized = hadronized[me:] + hadronized[:me]
    out[state._phase] = 1.0
    active = state._active
    if active >= 0:
        out[6 + (active - me) % n] = 1.0
    at = 6 + n
    for place, count in enumerate(chambers, at):
        if count:
            out[place] = _SCALED[count] if count < COUNT_CAP else 1.0
    at += 6 * n
    game = state.game
    goal = game.goal  # type: ignore[attr-defined]
    for place, done in enumerate(hadronized, at):
        if done:
            out[place] = done / goal if done < goal else 1.0
    at += n
    superposition = state._superposition
    if superposition >= 0:
        for flavour in SUPERPOSITIONS[superposition]:
            out[at + flavour] = 1.0
    at += 6
    observer = state._observer
    if observer >= 0:
        out[at + (observer - me) % n] = 1.0
    at += n
    turn = state._turns
    if turn:
        cap = game.max_turns or TURN_CAP  # type: ignore[attr-defined]
        out[at] = turn / cap if turn < cap else 1.0
    at += 1
    last = state._last
    if last is not None:
        last_active, last_observer, flavour, reaction, count = last
        out[at + (last_active - me) % n] = 1.0
        out[at + n + (last_observer - me) % n] = 1.0
        at += 2 * n
        out[at + flavour] = 1.0
        out[at + 6 + _REACTION[reaction]] = 1.0
        out[at + 9] = _SCALED[count] if count < COUNT_CAP else 1.0
        at += 10
    else:
        at += 2 * n + 10
    for winner in state._winners:
        out[at + (winner - me) % n] = 1.0
    return out
