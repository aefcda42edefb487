"""Hadronize, compiled: the rules of ``rules.py`` again, for numba, on a flat int array.

A second implementation, held to the reference engine by differential tests
(``tests/games/hadronize/test_compiled.py``): from the same position both give the same
legal actions, chance outcomes, next states and returns. It plays whole games in
batches (``quarkade simulate`` picks it when every agent has a compiled form, see
``AGENTS``) and playouts for the search bots. Nothing here is used by the reference engine.

The layout (``int64``, ``SIZE`` slots): the player count, goal and turn cap, then the
phase, starting quarks dealt, the seat to move, the superposition (index into
``SUPERPOSITIONS``), the observer, turns played, the winners as a bit mask, each seat's
hadronized quarks (six slots) and the chambers (``CHAMBERS + seat * 6 + flavour``).
``to_compiled`` and ``from_compiled`` convert a reference state and back.
"""

from __future__ import annotations

import sys

import numpy as np

from quarkade.core.jit import (
    batch_buffers,
    below,
    copy_into,
    njit,
    njit_inline,
    seed_streams,
    shared_returns,
    start_game,
    store_result,
    warm_up_engine,
)
from quarkade.core.protocol import CHANCE, TERMINAL
from quarkade.games.hadronize import policy
from quarkade.games.hadronize.notation import (
    FIRST_BASE,
    FLAVOUR_BASE,
    NUM_FLAVOURS,
    OBSERVE_BASE,
    SUPERPOSE_BASE,
)
from quarkade.games.hadronize.notation import SUPERPOSITIONS as _SUPERPOSITIONS
from quarkade.games.hadronize.rules import (
    COLLAPSE,
    DEAL,
    FIRST,
    OBSERVE,
    OVER,
    STARTING_QUARKS,
    SUPERPOSE,
    HadronizeGame,
    HadronizeState,
)

PLAYERS, GOAL, MAX_TURNS, PHASE, DEALT, ACTIVE, SUPER, OBSERVER, TURNS, WINNERS = range(10)
HADRONIZED = 10
CHAMBERS = HADRONIZED + 6
SIZE = CHAMBERS + 6 * NUM_FLAVOURS
MAX_ACTIONS = 20  # the most legal actions of any node (the superposition's 20 outcomes)

SUPERPOSITIONS = np.array(_SUPERPOSITIONS, dtype=np.int64)

# The compiled agents, by spec: a seat's policy id.
RANDOM, GREEDY = 0, 1
AGENTS = {"random": RANDOM, "greedy": GREEDY}

# greedy's weights (policy.py), as compile-time constants.
WIN, HADRONIZE, TUNNEL_IN = policy.WIN, policy.HADRONIZE, policy.TUNNEL_IN
OWN_QUARK, GIFT = policy.OWN_QUARK, policy.GIFT


# -- the bridge ---------------------------------------------------------------------------

def new_state(game: HadronizeGame) -> np.ndarray:
    """The compiled initial state of ``game``."""
    return to_compiled(game.new_initial_state())


def to_compiled(state: HadronizeState) -> np.ndarray:
    """The compiled layout of a reference state (everything the rules read)."""
    options = state.game.options
    n = len(state._hadronized)
    return np.array([
        n, options["goal"], options["max_turns"], state._phase, state._dealt, state._active,
        state._superposition, state._observer, state._turns,
        sum(1 << seat for seat in state._winners),
        *state._hadronized, *[0] * (6 - n),
        *state._chambers, *[0] * (NUM_FLAVOURS * (6 - n))], dtype=np.int64)


def from_compiled(game: HadronizeGame, array: np.ndarray) -> HadronizeState:
    """A reference state in the position of ``array`` (a position, not a game record: its
    history and last reaction are empty)."""
    n = int(array[PLAYERS])
    if n != game.num_players or array[GOAL] != game.options["goal"] \
            or array[MAX_TURNS] != game.options["max_turns"]:
        raise ValueError("the compiled state is of another game's options")
    state = game.new_initial_state()
    state._phase = int(array[PHASE])
    state._dealt = int(array[DEALT])
    state._active = int(array[ACTIVE])
    state._superposition = int(array[SUPER])
    state._observer = int(array[OBSERVER])
    state._turns = int(array[TURNS])
    state._winners = tuple(seat for seat in range(n) if int(array[WINNERS]) >> seat & 1)
    state._hadronized = [int(v) for v in array[HADRONIZED:HADRONIZED + n]]
    state._chambers = [int(v) for v in array[CHAMBERS:CHAMBERS + n * NUM_FLAVOURS]]
    return state


# -- the rules ------------------------------------------------------------------------------

@njit_inline
def current_player(s: np.ndarray) -> int:
    phase = s[PHASE]
    if phase == OBSERVE:
        return s[ACTIVE]
    if phase == OVER:
        return TERMINAL
    return CHANCE


@njit
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Writes the legal actions (ascending) into ``out``; returns how many."""
    phase = s[PHASE]
    if phase == OBSERVE:
        count = s[PLAYERS]
        base = OBSERVE_BASE
    elif phase == SUPERPOSE:
        count = len(SUPERPOSITIONS)
        base = SUPERPOSE_BASE
    elif phase == COLLAPSE:
        for i in range(3):
            out[i] = FLAVOUR_BASE + SUPERPOSITIONS[s[SUPER], i]
        return 3
    elif phase == DEAL:
        count = NUM_FLAVOURS
        base = FLAVOUR_BASE
    elif phase == FIRST:
        count = s[PLAYERS]
        base = FIRST_BASE
    else:
        return 0
    for i in range(count):
        out[i] = base + i
    return count


@njit
def chance_outcomes(s: np.ndarray, actions: np.ndarray, weights: np.ndarray) -> int:
    """The chance outcomes and their integer weights (probability: weight / total)."""
    if current_player(s) != CHANCE:
        return 0
    count = legal_actions(s, actions)
    for i in range(count):
        weights[i] = 1  # H-2, H-3, H-4, H-1: every outcome equally likely
    return count


@njit_inline
def sample_chance(s: np.ndarray, streams: np.ndarray) -> int:
    """A chance outcome drawn with its probability from the chance stream."""
    phase = s[PHASE]
    if phase == SUPERPOSE:
        return SUPERPOSE_BASE + below(streams, 0, len(SUPERPOSITIONS))
    if phase == COLLAPSE:
        return FLAVOUR_BASE + SUPERPOSITIONS[s[SUPER], below(streams, 0, 3)]
    if phase == DEAL:
        return FLAVOUR_BASE + below(streams, 0, NUM_FLAVOURS)
    return FIRST_BASE + below(streams, 0, s[PLAYERS])


@njit_inline
def apply_action(s: np.ndarray, action: int) -> None:
    """Play a legal ``action`` (the caller makes sure it is legal)."""
    phase = s[PHASE]
    if phase == OBSERVE:
        s[OBSERVER] = action - OBSERVE_BASE
        s[PHASE] = COLLAPSE
    elif phase == SUPERPOSE:
        s[SUPER] = action - SUPERPOSE_BASE
        s[PHASE] = OBSERVE
    elif phase == COLLAPSE:
        _react(s, action - FLAVOUR_BASE)
    elif phase == DEAL:
        seat = s[DEALT] // STARTING_QUARKS  # H-2
        s[CHAMBERS + seat * NUM_FLAVOURS + action - FLAVOUR_BASE] += 1
        s[DEALT] += 1
        if s[DEALT] == STARTING_QUARKS * s[PLAYERS]:
            s[PHASE] = FIRST
    elif phase == FIRST:
        s[ACTIVE] = action - FIRST_BASE
        s[PHASE] = SUPERPOSE


@njit_inline
def _react(s: np.ndarray, flavour: int) -> None:
    """H-5, H-6, H-7, H-8: as ``HadronizeState._react``."""
    active = s[ACTIVE]
    observer = s[OBSERVER]
    slot = CHAMBERS + observer * NUM_FLAVOURS + flavour
    held = s[slot]
    if held == 0:
        s[slot] = 1
    elif observer == active:
        s[slot] = 0
        s[HADRONIZED + active] += held + 1
    else:
        s[slot] = 0
        s[CHAMBERS + active * NUM_FLAVOURS + flavour] += held + 1
    s[TURNS] += 1
    s[OBSERVER] = -1
    s[SUPER] = -1
    n = s[PLAYERS]
    if s[HADRONIZED + active] >= s[GOAL]:
        s[WINNERS] = 1 << active
        s[PHASE] = OVER
    elif s[TURNS] == s[MAX_TURNS]:
        best = 0
        for seat in range(n):
            best = max(best, s[HADRONIZED + seat])
        mask = 0
        for seat in range(n):
            if s[HADRONIZED + seat] == best:
                mask |= 1 << seat
        s[WINNERS] = mask
        s[PHASE] = OVER
    else:
        s[ACTIVE] = (active + 1) % n
        s[PHASE] = SUPERPOSE


@njit
def returns(s: np.ndarray, out: np.ndarray) -> None:
    """Each seat's return (zeros until the end)."""
    shared_returns(s[WINNERS] if s[PHASE] == OVER else 0, s[PLAYERS], out)


# -- the agents -------------------------------------------------------------------------

@njit
def observer_value(s: np.ndarray, observer: int) -> float:
    """greedy's expected value of making ``observer`` observe (``policy.observer_value``)."""
    me = s[ACTIVE]
    goal = s[GOAL]
    total = 0.0
    for i in range(3):
        flavour = SUPERPOSITIONS[s[SUPER], i]
        held = s[CHAMBERS + observer * NUM_FLAVOURS + flavour]
        if observer == me:
            if held:
                gained = held + 1
                total += WIN if s[HADRONIZED + me] + gained >= goal else HADRONIZE * gained
            else:
                total += OWN_QUARK
        elif held:
            total += TUNNEL_IN * (held + 1)
        else:
            closeness = s[HADRONIZED + observer] / goal
            total -= GIFT * (1 + closeness)
    return total / 3


@njit
def greedy_best(s: np.ndarray, out: np.ndarray) -> int:
    """The observe actions greedy ties between (its rng picks one); returns how many."""
    best = _greedy_top(s)
    count = 0
    for observer in range(s[PLAYERS]):
        if observer_value(s, observer) >= best - 1e-12:
            out[count] = OBSERVE_BASE + observer
            count += 1
    return count


@njit_inline
def _greedy_top(s: np.ndarray) -> float:
    best = -np.inf
    for observer in range(s[PLAYERS]):
        best = max(best, observer_value(s, observer))
    return best


@njit
def greedy_choice(s: np.ndarray, streams: np.ndarray) -> int:
    """greedy's observe action, ties broken with the seat's stream (no allocation)."""
    n = s[PLAYERS]
    best = _greedy_top(s)
    count = 0
    for observer in range(n):
        count += observer_value(s, observer) >= best - 1e-12
    pick = below(streams, 1 + s[ACTIVE], count) if count > 1 else 0
    for observer in range(n):
        if observer_value(s, observer) >= best - 1e-12:
            if pick == 0:
                return OBSERVE_BASE + observer
            pick -= 1
    return OBSERVE_BASE + n - 1  # not reached: some observer has the best value


@njit_inline
def choose(s: np.ndarray, streams: np.ndarray, policy: int) -> int:
    """The action of the seat to move under its compiled ``policy``."""
    if policy == GREEDY:
        return greedy_choice(s, streams)
    return OBSERVE_BASE + below(streams, 1 + s[ACTIVE], s[PLAYERS])


@njit
def play_stepwise(s: np.ndarray, streams: np.ndarray, policies: np.ndarray,
                  record: np.ndarray) -> tuple[int, int, int, int]:
    """Play the game in ``s`` to its end, one ``apply_action`` at a time: (winners mask,
    decisions, actions, first seat). The actions go into ``record`` while it has room.
    ``play_one`` does the same faster; the tests hold them equal draw for draw."""
    decisions, actions, first = _steps(s, streams, policies, record, OVER)
    return s[WINNERS], decisions, actions, first


@njit_inline
def _steps(s: np.ndarray, streams: np.ndarray, policies: np.ndarray, record: np.ndarray,
           until: int) -> tuple[int, int, int]:
    """Play actions one at a time until the phase is ``until`` or the game is over:
    (decisions, actions, first seat to decide or -1)."""
    decisions = 0
    actions = 0
    first = -1
    while s[PHASE] != OVER and s[PHASE] != until:
        if s[PHASE] == OBSERVE:
            if first < 0:
                first = s[ACTIVE]
            action = choose(s, streams, policies[s[ACTIVE]])
            decisions += 1
        else:
            action = sample_chance(s, streams)
        apply_action(s, action)
        if actions < record.shape[0]:
            record[actions] = action
        actions += 1
    return decisions, actions, first


@njit
def play_one(s: np.ndarray, streams: np.ndarray, policies: np.ndarray
             ) -> tuple[int, int, int, int]:
    """``play_stepwise``, a whole turn at a time (superpose, observe, collapse) on local
    copies of the scores, and four times faster. The same rules as ``_react``, the same
    draws in the same order: ``test_play_one_is_play_stepwise`` holds them equal."""
    dealt = s[DEALT]
    if s[PHASE] == DEAL:  # the deal, laid out (H-2): as apply_action deals, draw by draw
        for quark in range(dealt, STARTING_QUARKS * s[PLAYERS]):
            s[CHAMBERS + quark // STARTING_QUARKS * NUM_FLAVOURS + below(streams, 0,
                                                                         NUM_FLAVOURS)] += 1
        s[DEALT] = STARTING_QUARKS * s[PLAYERS]
        s[PHASE] = FIRST
    # The first seat, and a turn handed over half played, step by step up to a new turn.
    decisions, actions, first = _steps(s, streams, policies, s[:0], SUPERPOSE)
    actions += s[DEALT] - dealt
    if s[PHASE] == OVER:
        return s[WINNERS], decisions, actions, first
    n = s[PLAYERS]
    goal = s[GOAL]
    max_turns = s[MAX_TURNS]
    turns = s[TURNS]
    active = s[ACTIVE]
    if first < 0:
        first = active
    while True:
        superposition = below(streams, 0, len(SUPERPOSITIONS))
        policy = policies[active]
        if policy == RANDOM:
            observer = below(streams, 1 + active, n)
        else:
            s[ACTIVE] = active
            s[SUPER] = superposition
            observer = greedy_choice(s, streams) - OBSERVE_BASE
        flavour = SUPERPOSITIONS[superposition, below(streams, 0, 3)]
        decisions += 1
        actions += 3
        turns += 1
        slot = CHAMBERS + observer * NUM_FLAVOURS + flavour
        held = s[slot]
        if held == 0:
            s[slot] = 1
        elif observer == active:
            s[slot] = 0
            s[HADRONIZED + active] += held + 1
            if s[HADRONIZED + active] >= goal:
                break
        else:
            s[slot] = 0
            s[CHAMBERS + active * NUM_FLAVOURS + flavour] += held + 1
        if turns == max_turns:
            break
        active += 1
        if active == n:
            active = 0
    s[TURNS] = turns - 1
    s[ACTIVE] = active
    s[SUPER] = superposition
    s[OBSERVER] = observer
    s[CHAMBERS + observer * NUM_FLAVOURS + flavour] = held
    if held and observer == active:
        s[HADRONIZED + active] -= held + 1
    elif held:
        s[CHAMBERS + active * NUM_FLAVOURS + flavour] -= held + 1
    _react(s, flavour)  # the last reaction again, through the rules: who won, how
    return s[WINNERS], decisions, actions, first



@njit
def rollout_returns(root: np.ndarray, actions: np.ndarray, first_world: int, seed: int,
                    out: np.ndarray) -> None:
    """``bots.RolloutAgent``'s playouts: ``out[w, i]`` is the return to the seat to move in
    ``root`` (an observe node) of observing with ``actions[i]`` in world ``first_world + w``,
    every seat then playing ``greedy`` to the end.

    Common random numbers, as the reference: in a world every action sees the same
    streams (seeded from ``seed`` and the world), so the same superpositions and
    collapses turn by turn; this turn's collapse is flavour ``world % 3`` of the
    superposition (spread evenly over its three flavours)."""
    n = root[PLAYERS]
    me = root[ACTIVE]
    state = np.empty_like(root)
    world = np.empty(n + 1, np.uint64)
    streams = np.empty(n + 1, np.uint64)
    policies = np.full(n, GREEDY, np.int64)
    values = np.empty(n, np.float64)
    for w in range(out.shape[0]):
        number = first_world + w
        seed_streams(world, seed + number)
        flavour = FLAVOUR_BASE + SUPERPOSITIONS[root[SUPER], number % 3]
        for i in range(actions.shape[0]):
            copy_into(state, root)
            copy_into(streams, world)
            apply_action(state, actions[i])
            apply_action(state, flavour)
            winners = play_one(state, streams, policies)[0]
            shared_returns(winners, n, values)
            out[w, i] = values[me]


@njit
def play_games(template: np.ndarray, matchups: np.ndarray, games_per_matchup: int,
               run_seed: int, start: int, out: np.ndarray) -> None:
    """Games ``start ..`` of a run into ``out`` (see ``quarkade.core.jit.start_game``)."""
    state, streams, policies = batch_buffers(template)
    for row in range(out.shape[0]):
        seed = start_game(matchups, games_per_matchup, run_seed, start + row, streams, policies)
        copy_into(state, template)
        store_result(out, row, seed, play_one(state, streams, policies))


def warm_up(game: HadronizeGame) -> None:
    """Compile (or load from the disk cache) every function here (see
    ``jit.warm_up_engine``)."""
    state = warm_up_engine(sys.modules[__name__], game)
    while current_player(state) < 0 and state[PHASE] != OVER:
        buffer = np.zeros(MAX_ACTIONS, np.int64)
        legal_actions(state, buffer)
        apply_action(state, int(buffer[0]))
    greedy_best(state, np.zeros(6, np.int64))
    choose(state, np.zeros(game.num_players + 1, np.uint64), GREEDY)
    rollout_returns(state, np.array([OBSERVE_BASE], np.int64), 0, 1, np.zeros((0, 1)))
