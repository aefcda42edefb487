"""Decoherence, compiled: the rules of ``rules.py``, ``sentences.py`` and ``entanglement.py``
again, for numba, on a flat int array; with what ``knowledge.py`` proves about face-down
nouns, worlds drawn from it, and ``random`` and ``greedy`` in compiled form.

A second implementation, held to the reference engine by differential tests
(``tests/games/decoherence/test_compiled.py``): from the same position both give the same
legal actions, chance outcomes, next states (proofs included) and returns; compiled
``greedy`` scores every line as the reference does, and its worlds are drawn as
``knowledge`` draws them (in distribution). It plays whole games in batches (``quarkade
simulate`` picks it when every agent has a compiled form, see ``AGENTS``), deck tests,
and the search's playouts and worlds (``agents/compiled_search.py``). Nothing here is used
by the reference engine.

Parts: ``layout`` (the slots, the table's questions), ``proofs`` (recording and reading
``knowledge``'s proofs), ``rules`` (the rules), ``worlds`` (resampling), ``lines``
(``greedy``); this module holds the bridge to and from reference states and the games
played in batches.
"""

from __future__ import annotations

import sys

import numpy as np

from quarkade.core.jit import (
    batch_buffers,
    below,
    njit,
    njit_inline,
    seed_streams,
    start_game,
    store_result,
    warm_up_engine,
)
from quarkade.games.decoherence.compiled.layout import (
    ACTIVE,
    CHAINS,
    CLASSICAL,
    CORE,
    DECKLISTS,
    DECKS,
    DECOHERED,
    DISCARDS,
    EMPTY_DECK,
    ENDING,
    FIRST,
    HANDS,
    ID_WORDS,
    IDS,
    IDS_GIVEN,
    KNOW,
    LEAK_UP,
    MAX_IDS,
    NO_LEAK,
    OPEN_LISTS,
    P_OWNER,
    P_THING,
    PENDING,
    PHASE,
    PLAYERS,
    PROOFS,
    PROOFS_USED,
    RANDOM_DECKS,
    SIZE,
    STEP,
    TABLE,
    TARGETS,
    TURN,
    VERVE,
    WINNERS,
)
from quarkade.games.decoherence.compiled.lines import (
    GREEDY_WEIGHTS,
    LEVELS,
    LINE_ACTIONS,
    TUNED_WEIGHTS,
    greedy_action,
    guess_action,
    line_values,
    lines_action,
    new_work,
)
from quarkade.games.decoherence.compiled.proofs import ALL_NOT
from quarkade.games.decoherence.compiled.rules import (
    MAX_ACTIONS,
    apply_action,
    chance_outcomes,
    current_player,
    legal_actions,
    play_actions,
    returns,
    sample_chance,
)
from quarkade.games.decoherence.compiled.worlds import resample, resample_nouns, with_odds
from quarkade.games.decoherence.decks import RANDOM
from quarkade.games.decoherence.knowledge import ALL, ANY, COUNT, NOT, PUSH, SETTLE
from quarkade.games.decoherence.notation import MAX_TABLE, NUM_WORDS, OWN_TARGET_BASE
from quarkade.games.decoherence.rules import (
    CLASSICAL as CLASSICAL_TEXT,
)
from quarkade.games.decoherence.rules import (
    DECOHERED as DECOHERED_TEXT,
)
from quarkade.games.decoherence.rules import (
    EMPTY_DECK as EMPTY_DECK_TEXT,
)
from quarkade.games.decoherence.rules import (
    DecoherenceGame,
    DecoherenceState,
)
from quarkade.games.decoherence.sentences import (
    COIN,
    DISCARD,
    DRAW,
    OPENING,
    OVER,
    PLAY,
    TARGET,
)
from quarkade.games.decoherence.sentences import DECKS as DECKS_PHASE

# The compiled agents, by spec: a seat's policy id. ``TUNED_LINES`` and ``GREEDY_LINES``
# play ``LinePlayer``'s move with lookahead's or greedy's weights on the state as it is (a
# world a search drew); a search's ``lines`` playouts (``ROLLOUTS``) give the searching
# seat the first and every other seat the second. ``TUNED_GUESS`` is ``GREEDY`` with
# lookahead's weights: its lines on its own guess of the other seat's face-down nouns.
RANDOM_POLICY, GREEDY, TUNED_LINES, GREEDY_LINES, LINES, TUNED_GUESS = range(6)
AGENTS = {"random": RANDOM_POLICY, "greedy": GREEDY}
ROLLOUTS = {**AGENTS, "lines": LINES}
ENDINGS = {"": 0, DECOHERED_TEXT: DECOHERED, EMPTY_DECK_TEXT: EMPTY_DECK,
           CLASSICAL_TEXT: CLASSICAL}
ENDING_TEXT = {code: text for text, code in ENDINGS.items()}

__all__ = [
    "ACTIVE",
    "AGENTS",
    "DECKS_PHASE",
    "DRAW",
    "GREEDY",
    "MAX_ACTIONS",
    "OPENING",
    "OPEN_LISTS",
    "OVER",
    "PHASE",
    "SIZE",
    "STEP",
    "apply_action",
    "chance_outcomes",
    "copy_root",
    "current_player",
    "from_compiled",
    "greedy_action",
    "legal_actions",
    "new_state",
    "play_games",
    "play_one",
    "play_stepwise",
    "play_with",
    "resample",
    "resample_nouns",
    "returns",
    "rollout_totals",
    "sample_chance",
    "search_scratch",
    "to_compiled",
    "with_odds",
]


# -- the bridge ---------------------------------------------------------------------------

def new_state(game: DecoherenceGame) -> np.ndarray:
    """The compiled initial state of ``game``."""
    return to_compiled(game.new_initial_state())


def to_compiled(state: DecoherenceState) -> np.ndarray:
    """The compiled layout of a reference state (everything the rules and the worlds
    read)."""
    game = state.game
    s = np.zeros(SIZE, np.int64)
    s[PLAYERS] = 2
    s[OPEN_LISTS] = game.open_decklists
    s[RANDOM_DECKS] = sum(1 << seat for seat in range(2)
                          if game.options[f"deck{seat}"] == RANDOM)
    s[PHASE] = state._phase
    s[STEP] = state._step
    s[ACTIVE] = state._active
    s[FIRST] = state._first
    s[TURN] = state._turn
    s[LEAK_UP] = state._leak_up
    s[NO_LEAK] = state._no_leak
    pending = state._pending
    s[PENDING] = pending is not None
    s[P_OWNER:P_THING + 1] = pending if pending is not None else (-1,) * 5
    s[TARGETS] = sum(1 << (action - OWN_TARGET_BASE) for action in state._targets)
    s[WINNERS] = sum(1 << seat for seat in state._winners)
    s[ENDING] = ENDINGS[state._ending]
    s[VERVE:VERVE + 2] = state._verve
    s[KNOW] = 1
    s[IDS_GIVEN] = len(state._id_words)
    s[DECKLISTS:DECKLISTS + 2 * NUM_WORDS] = state._decklists
    s[DECKS:DECKS + 2 * NUM_WORDS] = state._decks
    s[HANDS:HANDS + 2 * NUM_WORDS] = state._hands
    s[DISCARDS:DISCARDS + 2 * NUM_WORDS] = state._discards
    s[CHAINS:TABLE] = state._chains
    s[TABLE:IDS] = state._table
    s[IDS:ID_WORDS] = state._ids
    s[ID_WORDS:ID_WORDS + MAX_IDS] = -1
    s[ID_WORDS:ID_WORDS + len(state._id_words)] = state._id_words
    records = [part for proof in state._proofs for part in _record(proof)]
    s[PROOFS:PROOFS + len(records)] = records
    s[PROOFS_USED] = len(records)
    return s


def from_compiled(game: DecoherenceGame, array: np.ndarray) -> DecoherenceState:
    """A reference state in the position of ``array``: without its history, its log or
    the kinds of cards that left each hand turn by turn (``resample`` then weighs the
    other seat's hand as if it were still an opening hand)."""
    randoms = sum(1 << seat for seat in range(2) if game.options[f"deck{seat}"] == RANDOM)
    fixed = [seat for seat in range(2) if not randoms >> seat & 1]
    if (array[OPEN_LISTS] != game.open_decklists or array[RANDOM_DECKS] != randoms
            or any(list(array[DECKLISTS + seat * NUM_WORDS:DECKLISTS + (seat + 1) * NUM_WORDS])
                   != list(game.decklists[seat * NUM_WORDS:(seat + 1) * NUM_WORDS])
                   for seat in fixed)):
        raise ValueError("the compiled state is of another game's options")
    state = game.new_initial_state()
    state._phase = int(array[PHASE])
    state._step = int(array[STEP])
    state._active = int(array[ACTIVE])
    state._first = int(array[FIRST])
    state._turn = int(array[TURN])
    state._leak_up = int(array[LEAK_UP])
    state._no_leak = bool(array[NO_LEAK])
    if array[PENDING]:
        state._pending = tuple(int(v) for v in array[P_OWNER:P_THING + 1])  # type: ignore[assignment]
        state._facts = []
    state._targets = tuple(OWN_TARGET_BASE + bit for bit in range(2 * MAX_TABLE)
                           if int(array[TARGETS]) >> bit & 1)
    state._winners = tuple(seat for seat in range(2) if int(array[WINNERS]) >> seat & 1)
    state._ending = ENDING_TEXT[int(array[ENDING])]
    state._verve = [int(v) for v in array[VERVE:VERVE + 2]]

    def ints(start: int, stop: int) -> list[int]:
        return [int(v) for v in array[start:stop]]

    state._decklists = ints(DECKLISTS, DECKLISTS + 2 * NUM_WORDS)
    state._decks = ints(DECKS, DECKS + 2 * NUM_WORDS)
    state._hands = ints(HANDS, HANDS + 2 * NUM_WORDS)
    state._discards = ints(DISCARDS, DISCARDS + 2 * NUM_WORDS)
    state._chains = ints(CHAINS, TABLE)
    state._table = ints(TABLE, IDS)
    state._ids = ints(IDS, ID_WORDS)
    state._id_words = ints(ID_WORDS, ID_WORDS + int(array[IDS_GIVEN]))
    state._proofs = tuple(_proofs(array))
    if state._phase in (PLAY, TARGET, COIN, DISCARD) and state._active >= 0:
        state._flows[state._active] = (0,)  # its turn is under way: cards may leave its hand
    return state


def _mask(ids: tuple[int, ...]) -> int:
    return sum(1 << card for card in set(ids))


def _record(proof: tuple) -> list[int]:
    """A reference proof (``knowledge``) as a compiled record (``proofs.py``)."""
    kind = proof[0]
    if kind == SETTLE:
        _, ids, card, wanted, current, same, other, result = proof
        body = [card, wanted, current, result, len(same), *same, len(other), *other]
    elif kind == COUNT:
        _, ids, word, low, high = proof
        body = [word, low, high, len(ids), *ids]
    elif kind == PUSH:
        (_, ids, card, holder, wanted, old, partner, partner_holder, partner_old, spins,
         result) = proof
        body = [card, holder, wanted, old, partner, partner_holder, partner_old, *result,
                len(spins), *(part for spin in spins for part in spin)]
    elif kind in (ANY, ALL):
        parts = proof[2] if kind == ANY else tuple(part[2] for part in proof[2])
        assert kind == ANY or all(part[0] == NOT for part in proof[2])
        ids = proof[1]
        kind = ANY if kind == ANY else ALL_NOT
        body = [len(parts), *(value for part in parts for value in _record(part))]
    else:
        raise ValueError(f"a proof of kind {kind} is not made by the rules")
    return [kind, 3 + len(body), _mask(ids), *body]


def _proofs(array: np.ndarray) -> list[tuple]:
    """The reference proofs of a compiled state (``_record`` backwards)."""
    found = []
    at = PROOFS
    while at < PROOFS + array[PROOFS_USED]:
        found.append(_proof(array, at))
        at += int(array[at + 1])
    return found


def _proof(array: np.ndarray, at: int) -> tuple:
    values = [int(v) for v in array[at:at + int(array[at + 1])]]
    kind = values[0]
    if kind == SETTLE:
        card, wanted, current, result, count = values[3:8]
        same = tuple(values[8:8 + count])
        other = tuple(values[9 + count:9 + count + values[8 + count]])
        return (SETTLE, (card, *same, *other), card, wanted, current, same, other, result)
    if kind == COUNT:
        word, low, high, count = values[3:7]
        ids = tuple(values[7:7 + count])
        return (COUNT, ids, word, low, high)
    if kind == PUSH:
        card, holder, wanted, old, partner, partner_holder, partner_old, r0, r1, count = (
            values[3:13])
        spins = tuple(tuple(values[13 + 3 * k:16 + 3 * k]) for k in range(count))
        ids = (card, *((partner,) if partner >= 0 else ()), *(spin[0] for spin in spins))
        return (PUSH, ids, card, holder, wanted, old, partner, partner_holder, partner_old,
                spins, (r0, r1))
    parts = []
    q = at + 4
    for _ in range(values[3]):
        parts.append(_proof(array, q))
        q += int(array[q + 1])
    ids = tuple(sorted({card for part in parts for card in part[1]}))
    if kind == ANY:
        return (ANY, ids, tuple(parts))
    return (ALL, ids, tuple((NOT, part[1], part) for part in parts))


# -- the agents ---------------------------------------------------------------------------

@njit_inline
def choose(s: np.ndarray, streams: np.ndarray, policy: int, world: np.ndarray,
           work: np.ndarray, moves: np.ndarray, frames: np.ndarray, values: np.ndarray
           ) -> int:
    """The action of the seat to move under its compiled ``policy`` (the other arrays:
    ``greedy``'s scratch, see ``new_scratch``)."""
    if policy == GREEDY:
        return greedy_action(s, streams, world, work, moves, frames, values)
    legal = moves[moves.shape[0] - 1]
    count = play_actions(s, legal) if s[PHASE] == PLAY else legal_actions(s, legal)
    return legal[below(streams, 1 + current_player(s), count)]


def new_scratch() -> tuple[np.ndarray, ...]:
    """What ``choose`` works in: a world and the lines' scratch (``lines.new_work``)."""
    return (np.zeros(SIZE, np.int64), *new_work())


@njit
def _scratch(greedy: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                    np.ndarray]:
    """``new_scratch`` in compiled code (tiny when no seat plays ``greedy``)."""
    if greedy:
        return (np.zeros(SIZE, np.int64), np.zeros((LEVELS, CORE), np.int64),
                np.zeros((LEVELS, LINE_ACTIONS), np.int64), np.zeros((LEVELS, 5), np.int64),
                np.zeros(LEVELS, np.float64))
    return (np.zeros(1, np.int64), np.zeros((1, 1), np.int64),
            np.zeros((1, MAX_ACTIONS), np.int64), np.zeros((1, 5), np.int64),
            np.zeros(1, np.float64))


@njit
def _play(s: np.ndarray, streams: np.ndarray, policies: np.ndarray, record: np.ndarray,
          world: np.ndarray, work: np.ndarray, moves: np.ndarray, frames: np.ndarray,
          values: np.ndarray) -> tuple[int, int, int, int]:
    """The game in ``s`` to its end (``play_stepwise``), each decision by ``choose``."""
    decisions = 0
    actions = 0
    first = -1
    legal = moves[moves.shape[0] - 1]
    kept = record.shape[0]
    while True:
        phase = s[PHASE]
        if phase == OVER:
            break
        if phase in (PLAY, DISCARD, TARGET):
            seat = s[P_OWNER] if phase == TARGET else s[ACTIVE]
            if first < 0:
                first = seat
            policy = policies[seat]
            if policy == GREEDY:
                action = greedy_action(s, streams, world, work, moves, frames, values)
            elif policy == TUNED_GUESS:
                action = guess_action(s, streams, world, work, moves, frames, values,
                                      TUNED_WEIGHTS)
            elif policy == TUNED_LINES:
                action = lines_action(s, work, moves, frames, values, TUNED_WEIGHTS)
            elif policy == GREEDY_LINES:
                action = lines_action(s, work, moves, frames, values, GREEDY_WEIGHTS)
            else:
                count = play_actions(s, legal) if phase == PLAY else legal_actions(s, legal)
                action = legal[below(streams, 1 + seat, count)]
            decisions += 1
        else:
            action = sample_chance(s, streams)
        apply_action(s, action)
        if actions < kept:
            record[actions] = action
        actions += 1
    return s[WINNERS], decisions, actions, first


@njit
def play_with(s: np.ndarray, streams: np.ndarray, policies: np.ndarray, world: np.ndarray,
              work: np.ndarray, moves: np.ndarray, frames: np.ndarray, values: np.ndarray
              ) -> tuple[int, int, int, int]:
    """``play_one`` in the scratch given (``search_scratch``): a search's playouts."""
    return _play(s, streams, policies, s[:0], world, work, moves, frames, values)


def search_scratch(greedy: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray,
                                          np.ndarray]:
    """Scratch for ``play_with`` (tiny unless a seat plays ``greedy``)."""
    return _scratch(greedy)


@njit
def _has_greedy(policies: np.ndarray) -> bool:
    """Whether a seat plays lines (``greedy`` or another weighing): scratch is needed."""
    found = False
    for seat in range(policies.shape[0]):
        found = found or policies[seat] != RANDOM_POLICY
    return found


@njit
def seat_policies(policies: np.ndarray, rollout: int, seat: int) -> None:
    """Each seat's policy in a search's playouts of ``rollout`` (``ROLLOUTS``), ``seat``
    searching."""
    for other in range(policies.shape[0]):
        if rollout == LINES:
            policies[other] = TUNED_LINES if other == seat else GREEDY_LINES
        else:
            policies[other] = rollout


@njit
def play_stepwise(s: np.ndarray, streams: np.ndarray, policies: np.ndarray,
                  record: np.ndarray) -> tuple[int, int, int, int]:
    """Play the game in ``s`` to its end: (winners mask, decisions, actions, first seat
    to decide). The actions go into ``record`` while it has room."""
    world, work, moves, frames, values = _scratch(_has_greedy(policies))
    return _play(s, streams, policies, record, world, work, moves, frames, values)


@njit
def play_one(s: np.ndarray, streams: np.ndarray, policies: np.ndarray
             ) -> tuple[int, int, int, int]:
    """``play_stepwise`` without the record."""
    world, work, moves, frames, values = _scratch(_has_greedy(policies))
    return _play(s, streams, policies, s[:0], world, work, moves, frames, values)


@njit
def play_games(template: np.ndarray, matchups: np.ndarray, games_per_matchup: int,
               run_seed: int, start: int, out: np.ndarray) -> None:
    """Games ``start ..`` of a run into ``out`` (see ``quarkade.core.jit.start_game``).
    Only the rules' part of the template is copied for each game: a game writes past it
    only the proofs it keeps, and it keeps them only if a seat plays ``greedy``."""
    state, streams, policies = batch_buffers(template)
    greedy = False
    for row in range(matchups.shape[0]):
        for column in range(matchups.shape[1]):
            greedy = greedy or matchups[row, column] != RANDOM_POLICY
    world, work, moves, frames, values = _scratch(greedy)
    for i in range(template.shape[0]):
        state[i] = template[i]
    for row in range(out.shape[0]):
        seed = start_game(matchups, games_per_matchup, run_seed, start + row, streams, policies)
        for i in range(CORE):
            state[i] = template[i]
        state[PROOFS_USED] = 0
        # Only greedy reads the proofs (its worlds): without it, none are kept.
        state[KNOW] = greedy
        store_result(out, row, seed, _play(state, streams, policies, state[:0], world, work,
                                           moves, frames, values))


def warm_up(game: DecoherenceGame) -> None:
    """Compile (or load from the disk cache) every function here (see
    ``jit.warm_up_engine``)."""
    state = warm_up_engine(sys.modules[__name__], game)
    streams = np.zeros(3, np.uint64)
    choose(state, streams, GREEDY, *new_scratch())
    play_stepwise(state.copy(), streams, np.ones(2, np.int64), np.zeros(4, np.int64))
    resample(state.copy(), 0, streams, 1, state)
    resample_nouns(state.copy(), 0, streams, 1, np.zeros(3, np.int64), state)
    copy_root(state.copy(), state)


@njit
def copy_root(state: np.ndarray, root: np.ndarray) -> None:
    """``state`` set to ``root``'s rules and proofs (not its odds: see ``worlds``), as a
    search starts each iteration."""
    for i in range(CORE):
        state[i] = root[i]
    for i in range(PROOFS, PROOFS + root[PROOFS_USED]):
        state[i] = root[i]


# -- the rollout bot's playouts ----------------------------------------------------------

WORLD_SEED = 7919  # world ``w`` of a rollout decision is seeded ``seed + w * WORLD_SEED``


@njit
def rollout_totals(root: np.ndarray, me: int, legal: np.ndarray, count: int, worlds: int,
                   top: int, seed: int, own: int, opponent: int, candidates: np.ndarray,
                   totals: np.ndarray) -> int:
    """``rollout.RolloutAgent``'s evaluation of ``me``'s play decision at ``root`` (a world
    with the odds of ``worlds.with_odds``): draw ``worlds`` worlds from what ``me`` knows,
    rank the moves by their summed line score with lookahead's weights, keep the best
    ``top`` (into ``candidates``, best first), then play each of them in every world to the
    end, ``me`` as ``own`` (``TUNED_GUESS``: lookahead's weights on its guess of the
    other seat's face-down nouns; ``TUNED_LINES``: on the world as it is) and the other
    seat as ``opponent`` (``GREEDY``: as ``greedy`` plays, ``me``'s face-down nouns drawn
    from what that seat knows; ``GREEDY_LINES``: greedy's weights on the world as it is),
    the proofs kept as the playout goes when a seat guesses, and add ``me``'s return to
    ``totals``. World ``w`` is drawn from its own seed, and
    every candidate meets it with the same draws after it (common random numbers). Returns
    how many candidates."""
    streams = np.zeros(3, np.uint64)
    world = np.zeros_like(root)
    work, moves, frames, values = (np.zeros((LEVELS, CORE), np.int64),
                                   np.zeros((LEVELS, LINE_ACTIONS), np.int64),
                                   np.zeros((LEVELS, 5), np.int64), np.zeros(LEVELS, np.float64))
    sums = np.zeros(count, np.float64)
    scores = np.zeros(count, np.float64)
    for w in range(worlds):
        seed_streams(streams, seed + w * WORLD_SEED)
        copy_root(world, root)
        resample(world, me, streams, 0, root)
        line_values(world, me, legal, count, scores, work, moves, frames, values, TUNED_WEIGHTS)
        for i in range(count):
            sums[i] += scores[i]
    kept = min(top, count)
    taken = np.zeros(count, np.bool_)
    for k in range(kept):  # the best sums first, the lower move on a tie
        best = -1
        for i in range(count):
            if not taken[i] and (best < 0 or sums[i] > sums[best]):
                best = i
        taken[best] = True
        candidates[k] = legal[best]
        totals[k] = 0.0
    policies = np.full(2, opponent, np.int64)
    policies[me] = own
    guess = opponent == GREEDY or own == TUNED_GUESS
    drawn = np.zeros(root.shape[0] if guess else 1, np.int64)  # the guesses' scratch
    for w in range(worlds):
        for k in range(kept):
            seed_streams(streams, seed + w * WORLD_SEED)
            copy_root(world, root)
            resample(world, me, streams, 0, root)
            world[KNOW] = root[KNOW] if guess else 0
            apply_action(world, candidates[k])
            winners = _play(world, streams, policies, world[:0], drawn, work, moves, frames,
                            values)[0]
            if winners == 1 << me:
                totals[k] += 1.0
            elif winners == 1 << (1 - me):
                totals[k] -= 1.0
    return kept
