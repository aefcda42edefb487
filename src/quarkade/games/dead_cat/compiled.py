"""Dead Cat, compiled: the rules of ``rules.py`` again, for numba, on a flat int array.

A second implementation, held to the reference engine by differential tests
(``tests/games/dead_cat/test_compiled.py``): from the same position both give the same
legal actions, chance outcomes, next states and returns. It plays whole games in
batches (``quarkade simulate`` picks it when every agent has a compiled form, see
``AGENTS``). Nothing here is used by the reference engine.

The layout (``int64``, ``SIZE`` slots): the player count and ``peek_first``, then the
phase, the seat to move, this round's starter, the round number, dead cats and cards in
the time deck, the winners as a bit mask, each seat's die and cubes (five slots each),
and the time deck in draw order (``CARDS + i``: 0 alive, 1 dead; its top is the last)
with who drew each card (``PEEKERS + i``); slots past the time deck hold 0. Finished
rounds are not kept (the rules never read them), so ``from_compiled`` gives a position
without its past rounds or history.
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
    shared_returns,
    start_game,
    store_result,
    warm_up_engine,
)
from quarkade.core.protocol import CHANCE, TERMINAL
from quarkade.games.dead_cat.notation import (
    ALIVE,
    ANNOUNCE,
    BET_BASE,
    DEAD,
    FIRST_BASE,
    PEEK,
)
from quarkade.games.dead_cat.rules import (
    ALIVE_PER_SEAT,
    BET,
    DEAD_PER_SEAT,
    DRAW,
    FIRST,
    GOAL,
    NO_ANNOUNCER,
    OVER,
    TURN,
    DeadCatGame,
    DeadCatState,
)

PLAYERS, PEEK_FIRST, PHASE, MOVER, STARTER, ROUND, DEAD_CATS, DECK, WINNERS = range(9)
MAX_SEATS = 5
DICE = 9
CUBES = DICE + MAX_SEATS
MAX_DECK = ALIVE_PER_SEAT * MAX_SEATS  # the box: 4n alive + n dead - n removed
CARDS = CUBES + MAX_SEATS
PEEKERS = CARDS + MAX_DECK
SIZE = PEEKERS + MAX_DECK
MAX_ACTIONS = 6  # five bets, or the first seat among five

# The compiled agents, by spec: a seat's policy id.
RANDOM, GREEDY = 0, 1
AGENTS = {"random": RANDOM, "greedy": GREEDY}


# -- the bridge ---------------------------------------------------------------------------

def new_state(game: DeadCatGame) -> np.ndarray:
    """The compiled initial state of ``game``."""
    return to_compiled(game.new_initial_state())


def to_compiled(state: DeadCatState) -> np.ndarray:
    """The compiled layout of a reference state (everything the rules read)."""
    n = state._n
    deck = len(state._cards)
    seats_left = [0] * (MAX_SEATS - n)
    deck_left = [0] * (MAX_DECK - deck)
    return np.array([
        n, state.game.peek_first, state._phase, state._mover, state._starter, state._round,
        state._dead, deck, sum(1 << seat for seat in state._winners),
        *state._dice, *seats_left, *state._cubes, *seats_left,
        *state._cards, *deck_left, *state._peekers, *deck_left], dtype=np.int64)


def from_compiled(game: DeadCatGame, array: np.ndarray) -> DeadCatState:
    """A reference state in the position of ``array`` (without past rounds or history)."""
    n = int(array[PLAYERS])
    if n != game.num_players or bool(array[PEEK_FIRST]) != game.peek_first:
        raise ValueError("the compiled state is of another game's options")
    state = game.new_initial_state()
    deck = int(array[DECK])
    state._phase = int(array[PHASE])
    state._mover = int(array[MOVER])
    state._starter = int(array[STARTER])
    state._round = int(array[ROUND])
    state._dead = int(array[DEAD_CATS])
    state._winners = tuple(seat for seat in range(n) if int(array[WINNERS]) >> seat & 1)
    state._dice = [int(v) for v in array[DICE:DICE + n]]
    state._cubes = [int(v) for v in array[CUBES:CUBES + n]]
    state._cards = [int(v) for v in array[CARDS:CARDS + deck]]
    state._peekers = [int(v) for v in array[PEEKERS:PEEKERS + deck]]
    return state


# -- the rules ------------------------------------------------------------------------------

@njit_inline
def current_player(s: np.ndarray) -> int:
    phase = s[PHASE]
    if phase in (TURN, BET):
        return s[MOVER]
    if phase == OVER:
        return TERMINAL
    return CHANCE


@njit_inline
def may_announce(s: np.ndarray) -> bool:
    """DC-6: announcing with an empty time deck is refused under ``peek_first``."""
    return s[DECK] > 0 or s[PEEK_FIRST] == 0


@njit
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Writes the legal actions (ascending) into ``out``; returns how many."""
    phase = s[PHASE]
    if phase == TURN:
        if may_announce(s):
            out[0] = ANNOUNCE
            out[1] = PEEK
            return 2
        out[0] = PEEK
        return 1
    if phase == BET:
        shown = s[DICE + s[MOVER]]
        count = 0
        for value in range(1, 7):
            if value != shown:  # DC-5
                out[count] = BET_BASE + value - 1
                count += 1
        return count
    if phase == DRAW:
        weights = np.empty(2, np.int64)
        return chance_outcomes(s, out, weights)
    if phase == FIRST:
        for seat in range(s[PLAYERS]):
            out[seat] = FIRST_BASE + seat
        return s[PLAYERS]
    return 0


@njit
def chance_outcomes(s: np.ndarray, actions: np.ndarray, weights: np.ndarray) -> int:
    """The chance outcomes and their integer weights (probability: weight / total)."""
    phase = s[PHASE]
    if phase == FIRST:  # DC-1
        for seat in range(s[PLAYERS]):
            actions[seat] = FIRST_BASE + seat
            weights[seat] = 1
        return s[PLAYERS]
    if phase != DRAW:
        return 0
    alive_left, dead_left = _undrawn(s)  # DC-3
    count = 0
    if alive_left > 0:
        actions[count] = ALIVE
        weights[count] = alive_left
        count += 1
    if dead_left > 0:
        actions[count] = DEAD
        weights[count] = dead_left
        count += 1
    return count


@njit_inline
def _undrawn(s: np.ndarray) -> tuple[int, int]:
    """(alive, dead) cards of the round not in the time deck: the removed cards count."""
    n = s[PLAYERS]
    undrawn = (ALIVE_PER_SEAT + DEAD_PER_SEAT) * n - s[DECK]
    dead_left = DEAD_PER_SEAT * n - s[DEAD_CATS]
    return undrawn - dead_left, dead_left


@njit_inline
def sample_chance(s: np.ndarray, streams: np.ndarray) -> int:
    """A chance outcome drawn with its probability from the chance stream."""
    if s[PHASE] == FIRST:
        return FIRST_BASE + below(streams, 0, s[PLAYERS])
    alive_left, dead_left = _undrawn(s)
    return DEAD if below(streams, 0, alive_left + dead_left) < dead_left else ALIVE


@njit_inline
def apply_action(s: np.ndarray, action: int) -> None:
    """Play a legal ``action`` (the caller makes sure it is legal)."""
    phase = s[PHASE]
    if phase == TURN:
        if action == PEEK:
            s[PHASE] = DRAW
        else:
            _end_round(s, s[MOVER])
    elif phase == DRAW:
        deck = s[DECK]
        s[CARDS + deck] = action - ALIVE
        s[DEAD_CATS] += action - ALIVE
        s[PEEKERS + deck] = s[MOVER]
        s[DECK] = deck + 1
        s[PHASE] = BET
    elif phase == BET:
        mover = s[MOVER]
        s[DICE + mover] = action - BET_BASE + 1
        if s[DECK] == ALIVE_PER_SEAT * s[PLAYERS]:
            _end_round(s, NO_ANNOUNCER)  # DC-10: the box's last card was drawn
        else:
            s[MOVER] = (mover + 1) % s[PLAYERS]  # DC-2
            s[PHASE] = TURN
    elif phase == FIRST:
        s[STARTER] = action - FIRST_BASE
        s[MOVER] = action - FIRST_BASE
        s[PHASE] = TURN


@njit
def round_winners(s: np.ndarray, count: int, announcer: int) -> int:
    """``rules.round_winners`` as a bit mask: the closest die to ``count`` (the highest if
    ``count`` is 0), ties as DC-9."""
    n = s[PLAYERS]
    if count:
        distance = count + 6
        for seat in range(n):
            gap = s[DICE + seat] - count
            if -distance < gap < distance:
                distance = abs(gap)
        number = count + distance
        for seat in range(n):
            if s[DICE + seat] == count - distance:
                number = count - distance
    else:
        number = 0
        for seat in range(n):
            number = max(number, s[DICE + seat])
    holders = 0
    held = 0
    for seat in range(n):
        if s[DICE + seat] == number:
            holders |= 1 << seat
            held += 1
    if held == 1:
        return holders
    if announcer >= 0 and holders >> announcer & 1:
        return 1 << announcer
    fewest = GOAL * 100
    for seat in range(n):
        if holders >> seat & 1:
            fewest = min(fewest, s[CUBES + seat])
    winners = 0
    for seat in range(n):
        if holders >> seat & 1 and s[CUBES + seat] == fewest:
            winners |= 1 << seat
    return winners


@njit_inline
def first_dead(s: np.ndarray) -> int:
    """The first dead cat's position from the top of the time deck; 0 if none (DC-7)."""
    deck = s[DECK]
    if s[DEAD_CATS]:
        for index in range(deck - 1, -1, -1):
            if s[CARDS + index]:
                return deck - index
    return 0


@njit
def _end_round(s: np.ndarray, announcer: int) -> None:
    """Reveal, score, and set up the next round or end the game (``rules._end_round``)."""
    n = s[PLAYERS]
    winners = round_winners(s, first_dead(s), announcer)
    game_over = False
    for seat in range(n):
        if winners >> seat & 1:
            s[CUBES + seat] += 1  # DC-11
            game_over = game_over or s[CUBES + seat] >= GOAL
    for index in range(s[DECK]):
        s[CARDS + index] = 0
        s[PEEKERS + index] = 0
    s[DECK] = 0
    s[DEAD_CATS] = 0
    if game_over:  # DC-13
        mask = 0
        for seat in range(n):
            if s[CUBES + seat] >= GOAL:
                mask |= 1 << seat
        s[WINNERS] = mask
        s[PHASE] = OVER
        return
    s[ROUND] += 1  # DC-12
    starter = (s[STARTER] - 1) % n  # DC-2
    s[STARTER] = starter
    s[MOVER] = starter
    for seat in range(n):
        s[DICE + seat] = 1
    s[PHASE] = TURN


@njit
def returns(s: np.ndarray, out: np.ndarray) -> None:
    """Each seat's return (zeros until the end)."""
    shared_returns(s[WINNERS] if s[PHASE] == OVER else 0, s[PLAYERS], out)


@njit
def resample(s: np.ndarray, seat: int, streams: np.ndarray) -> None:
    """``DeadCatState.resample`` for what lies ahead: this round's time-deck cards that
    ``seat`` did not peek are drawn again, in draw order, from the round's cards it has not
    seen (earlier rounds, which the compiled state does not keep, never matter again).
    Depends only on what ``seat`` knows (DC-3, DC-14)."""
    n = s[PLAYERS]
    deck = s[DECK]
    unseen = (ALIVE_PER_SEAT + DEAD_PER_SEAT) * n
    unseen_dead = DEAD_PER_SEAT * n
    for index in range(deck):
        if s[PEEKERS + index] == seat:
            unseen -= 1
            unseen_dead -= s[CARDS + index]
    dead = 0
    for index in range(deck):
        if s[PEEKERS + index] != seat:
            card = 1 if below(streams, 0, unseen) < unseen_dead else 0
            s[CARDS + index] = card
            unseen_dead -= card
            unseen -= 1
        dead += s[CARDS + index]
    s[DEAD_CATS] = dead


# -- the agents -------------------------------------------------------------------------

@njit
def greedy_action(s: np.ndarray) -> int:
    """``policies.greedy_action`` for the seat to move: every card it has not seen is
    alive; it bets the topmost dead cat it knows (6 if none) and announces when that
    picture makes it a winner."""
    seat = s[MOVER]
    deck = s[DECK]
    known = 0  # the topmost dead cat this seat peeked, by position from the top
    for index in range(deck - 1, -1, -1):
        if s[PEEKERS + index] == seat and s[CARDS + index]:
            known = deck - index
            break
    if s[PHASE] == BET:
        shown = s[DICE + seat]
        target = min(known, 6) if known else 6
        if target == shown:
            target = target - 1 if target > 1 else 2
        return BET_BASE + target - 1
    if may_announce(s) and round_winners(s, known, seat) >> seat & 1:
        return ANNOUNCE
    return PEEK


@njit_inline
def choose(s: np.ndarray, streams: np.ndarray, policy: int) -> int:
    """The action of the seat to move under its compiled ``policy``."""
    if policy == GREEDY:
        return greedy_action(s)
    seat = s[MOVER]
    if s[PHASE] == BET:
        value = 1 + below(streams, 1 + seat, 5)
        if value >= s[DICE + seat]:
            value += 1  # the five numbers other than the one showing, uniformly
        return BET_BASE + value - 1
    if may_announce(s):
        return ANNOUNCE + below(streams, 1 + seat, 2)
    return PEEK


@njit
def play_stepwise(s: np.ndarray, streams: np.ndarray, policies: np.ndarray,
                  record: np.ndarray) -> tuple[int, int, int, int]:
    """Play the game in ``s`` to its end: (winners mask, decisions, actions, first seat
    to decide). The actions go into ``record`` while it has room."""
    decisions = 0
    actions = 0
    first = -1
    while s[PHASE] != OVER:
        if s[PHASE] == TURN or s[PHASE] == BET:
            seat = s[MOVER]
            if first < 0:
                first = seat
            action = choose(s, streams, policies[seat])
            decisions += 1
        else:
            action = sample_chance(s, streams)
        apply_action(s, action)
        if actions < record.shape[0]:
            record[actions] = action
        actions += 1
    return s[WINNERS], decisions, actions, first


@njit
def play_one(s: np.ndarray, streams: np.ndarray, policies: np.ndarray
             ) -> tuple[int, int, int, int]:
    """``play_stepwise`` a whole turn at a time (peek, draw and bet, or announce): the
    same steps and draws in the same order (``test_play_one_is_play_stepwise``)."""
    decisions = 0
    actions = 0
    first = -1
    n = s[PLAYERS]
    box = ALIVE_PER_SEAT * n
    while s[PHASE] != OVER:
        if s[PHASE] != TURN:  # the first seat's roll, or a turn handed over mid-way
            if s[PHASE] == BET:
                if first < 0:
                    first = s[MOVER]
                action = choose(s, streams, policies[s[MOVER]])
                decisions += 1
            else:
                action = sample_chance(s, streams)
            apply_action(s, action)
            actions += 1
            continue
        seat = s[MOVER]
        if first < 0:
            first = seat
        policy = policies[seat]
        decisions += 2
        actions += 3
        if policy == GREEDY:
            action = greedy_action(s)
        elif may_announce(s):
            action = ANNOUNCE + below(streams, 1 + seat, 2)
        else:
            action = PEEK
        if action == ANNOUNCE:
            decisions -= 1
            actions -= 2
            _end_round(s, seat)
            continue
        deck = s[DECK]  # the peek, and the card drawn (DC-3)
        alive_left, dead_left = _undrawn(s)
        card = below(streams, 0, alive_left + dead_left) < dead_left
        s[CARDS + deck] = card
        s[DEAD_CATS] += card
        s[PEEKERS + deck] = seat
        s[DECK] = deck + 1
        s[PHASE] = BET
        s[DICE + seat] = choose(s, streams, policy) - BET_BASE + 1  # the bet (DC-5)
        if deck + 1 == box:
            _end_round(s, NO_ANNOUNCER)  # DC-10
        else:
            s[MOVER] = seat + 1 if seat + 1 < n else 0
            s[PHASE] = TURN
    return s[WINNERS], decisions, actions, first


@njit
def play_games(template: np.ndarray, matchups: np.ndarray, games_per_matchup: int,
               run_seed: int, start: int, out: np.ndarray) -> None:
    """Games ``start ..`` of a run into ``out`` (see ``quarkade.core.jit.start_game``)."""
    state, streams, policies = batch_buffers(template)
    for row in range(out.shape[0]):
        seed = start_game(matchups, games_per_matchup, run_seed, start + row, streams, policies)
        copy_into(state, template)
        store_result(out, row, seed, play_one(state, streams, policies))


def warm_up(game: DeadCatGame) -> None:
    """Compile (or load from the disk cache) every function here (see
    ``jit.warm_up_engine``)."""
    state = warm_up_engine(sys.modules[__name__], game)
    greedy_action(state)
    choose(state, np.zeros(game.num_players + 1, np.uint64), GREEDY)
