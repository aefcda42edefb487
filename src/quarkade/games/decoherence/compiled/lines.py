"""``greedy``, compiled: ``lines.LinePlayer`` with ``lines.GREEDY``'s weights, on a world;
and the same line search with any ``lines.Weights`` (``lines.TUNED``'s for the search's
``lines`` playouts), on the state as it is.

At a decision with more than one legal move, ``greedy_action`` draws the other seat's
face-down nouns from what the seat knows (``worlds.resample_nouns``: its lines read no
other hidden card) and scores every move by the best short line it starts, as
``LinePlayer.choose`` does: each verb or qualifier followed by the cards that finish its
chain, its own targets chosen best, tapped through's coin averaged, each line scored as
the turn would end (pass, discards, leak, the made-classical check). The same sums in the
same order as the reference, so the scores are equal to the last bit
(``test_compiled_line_scores_are_the_reference_s``).

A line is played on its own copy of the rules' part of the state (``CORE``), one row a
level of ``work``, with ``KNOW`` off (no proofs are kept there); ``moves``, ``frames`` and
``values`` hold each level's moves to try, what it waits on and its value so far
(``new_work``).
"""

from __future__ import annotations

import numpy as np

from quarkade.core.jit import njit
from quarkade.games.decoherence.compiled.layout import (
    CHAINS,
    CORE,
    FIRST,
    HANDS,
    KNOW,
    PHASE,
    PROOFS,
    PROOFS_USED,
    SEAT_SPAN,
    TABLE,
    VERVE,
    WINNERS,
    hand_size,
)
from quarkade.games.decoherence.compiled.rules import apply_action, current_player, legal_actions
from quarkade.games.decoherence.compiled.worlds import resample_nouns, seen_cards
from quarkade.games.decoherence.lines import GREEDY, STEP, TUNED, WIN
from quarkade.games.decoherence.notation import (
    DISCARD_BASE,
    HEADS,
    MAX_TABLE,
    NOUN_BASE,
    NUM_WORDS,
    PASS,
    QUALIFIER_BASE,
    TAILS,
    VERB_BASE,
)
from quarkade.games.decoherence.sentences import COIN, DISCARD, OVER, PLAY, TARGET
from quarkade.games.decoherence.table import FIELDS, HIDDEN, LINK, VIS

# ``lines.Weights`` as an array, field by field.
(HIDDEN_FIRST, HIDDEN_MORE, OPPONENT, LINKED, COMPLETE_CHAIN, VERB_CHAIN, HAND_CARD, EXPOSED,
 RACE_EXPOSED) = range(9)
GREEDY_WEIGHTS = np.array(GREEDY, np.float64)
TUNED_WEIGHTS = np.array(TUNED, np.float64)
LEVELS = 12  # the deepest line: a verb, qualifier, noun, target or coin, then the turn's end
LINE_ACTIONS = 64  # the most legal moves of a play step or a target decision


def new_work() -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The rows lines are played on, their moves, what each waits on, their values."""
    return (np.zeros((LEVELS, CORE), np.int64), np.zeros((LEVELS, LINE_ACTIONS), np.int64),
            np.zeros((LEVELS, 5), np.int64), np.zeros(LEVELS, np.float64))


@njit
def score(s: np.ndarray, me: int, weights: np.ndarray) -> float:
    """``lines.score`` with these weights (a ``lines.Weights`` as an array)."""
    if s[PHASE] == OVER:
        winners = s[WINNERS]
        return WIN * (0.0 if winners == 0 else 1.0 if winners >> me & 1 else -1.0)
    value = float(s[VERVE + me] - s[VERVE + 1 - me])
    second_exposed = False
    for k in range(2):
        seat = me if k == 0 else 1 - me
        start = TABLE + seat * SEAT_SPAN
        hidden = 0
        links = 0
        for b in range(start, start + SEAT_SPAN, FIELDS):
            if s[b] >= 0:
                hidden += s[b + VIS] == HIDDEN
                links += s[b + LINK] >= 0
        position = (min(hidden, 2) * weights[HIDDEN_FIRST]
                    + max(hidden - 2, 0) * weights[HIDDEN_MORE] + weights[LINKED] * links)
        opened = False
        for c in range(CHAINS + seat * 6, CHAINS + seat * 6 + 6, 2):
            if s[c] >= 0:
                opened = True
                position += (weights[COMPLETE_CHAIN] if s[c + 1] >= 0
                             else weights[VERB_CHAIN])
        if not (hidden or links or opened):
            position -= weights[EXPOSED]
            second_exposed = second_exposed or seat != s[FIRST]
        if seat == me:
            value += position
        else:
            value += -weights[OPPONENT] * position
    race = weights[RACE_EXPOSED]
    if second_exposed and race:
        value += race if me == s[FIRST] else -race
    value += weights[HAND_CARD] * hand_size(s, me)
    return value


@njit
def discard_choice(s: np.ndarray, seat: int) -> int:
    """``lines.discard_choice``: most copies, from the fullest kind (lowest word on ties)."""
    hand = HANDS + seat * NUM_WORDS
    verbs = qualifiers = nouns = 0
    for w in range(NUM_WORDS):
        if w < 5:
            verbs += s[hand + w]
        elif w < 9:
            qualifiers += s[hand + w]
        else:
            nouns += s[hand + w]
    best = -1
    best_kind = best_count = -1
    for w in range(NUM_WORDS):
        count = s[hand + w]
        if count:
            kind = verbs if w < 5 else qualifiers if w < 9 else nouns
            if kind > best_kind or (kind == best_kind and count > best_count):
                best, best_kind, best_count = w, kind, count
    return best


@njit
def _copy_core(work: np.ndarray, level: int, source: np.ndarray) -> np.ndarray:
    row = work[level]
    for i in range(CORE):
        row[i] = source[i]
    return row


@njit
def _end_of_turn(work: np.ndarray, level: int, me: int, weights: np.ndarray) -> float:
    """``LinePlayer._end_of_turn``: the score after passing now (discards, leak, the other
    seat's made-classical check)."""
    child = _copy_core(work, level + 1, work[level])
    apply_action(child, PASS)
    while child[PHASE] == DISCARD:
        apply_action(child, DISCARD_BASE + discard_choice(child, me))
    return score(child, me, weights)


# What a level of a line waits on (``line``): the coin's two sides averaged, its own
# targets (the best), or the cards that continue its chain (the best, less ``STEP``).
COIN_SIDES, TARGETS, FOLLOWS = range(3)
MODE, NEXT, CHILDREN, DEPTH, LAST = range(5)


@njit
def _enter(work: np.ndarray, moves: np.ndarray, frames: np.ndarray, values: np.ndarray,
           weights: np.ndarray, level: int, me: int, action: int, depth: int, last: int
           ) -> bool:
    """Play ``action`` on row ``level - 1`` into row ``level``. If that settles the line
    (``LinePlayer._settle`` needs no further line), its score goes into ``values[level]``
    and the answer is True; else row ``level``'s frame says what it waits on."""
    state = _copy_core(work, level, work[level - 1])
    apply_action(state, action)
    phase = state[PHASE]
    frame = frames[level]
    if phase == OVER:
        values[level] = score(state, me, weights)
        return True
    if phase == COIN:
        moves[level, 0], moves[level, 1] = HEADS, TAILS
        frame[MODE], frame[CHILDREN] = COIN_SIDES, 2
        values[level] = 0.0
    else:
        mover = current_player(state)
        if mover == me and phase == TARGET:
            frame[MODE], frame[CHILDREN] = TARGETS, legal_actions(state, moves[level])
            values[level] = -np.inf
        elif mover != me or phase != PLAY:
            values[level] = score(state, me, weights)
            return True
        else:
            values[level] = _end_of_turn(work, level, me, weights)
            if depth == 0 or not VERB_BASE <= last < NOUN_BASE:
                return True
            count = legal_actions(state, moves[level])
            if last < QUALIFIER_BASE:  # a verb: every qualifier may follow
                low, high = QUALIFIER_BASE, NOUN_BASE
            else:  # a qualifier: the nouns of its chain
                low = NOUN_BASE + 3 * ((last - QUALIFIER_BASE) // 4)
                high = low + 3
            follows = 0
            for i in range(count):
                if low <= moves[level, i] < high:
                    moves[level, follows] = moves[level, i]
                    follows += 1
            if follows == 0:
                return True
            frame[MODE], frame[CHILDREN] = FOLLOWS, follows
    frame[NEXT] = 0
    frame[DEPTH] = depth
    frame[LAST] = last
    return False


@njit
def line(work: np.ndarray, moves: np.ndarray, frames: np.ndarray, values: np.ndarray,
         weights: np.ndarray, me: int, action: int) -> float:
    """``LinePlayer.line(state, me, action, 2)`` on the state in row 0: ``action``, then
    the best way to finish the chain it touched (its own targets at their best, the coin
    averaged), each way scored as the turn would end. The reference recurses; this walks
    the same tree with a stack of rows (numba cannot keep recursive code on disk), in the
    same order and with the same sums."""
    if _enter(work, moves, frames, values, weights, 1, me, action, 2, action):
        return values[1]
    level = 1
    while True:
        frame = frames[level]
        if frame[NEXT] < frame[CHILDREN]:
            child = moves[level, frame[NEXT]]
            frame[NEXT] += 1
            mode = frame[MODE]
            depth = frame[DEPTH] - (mode == FOLLOWS)
            last = frame[LAST] if mode == COIN_SIDES else child
            if not _enter(work, moves, frames, values, weights, level + 1, me, child, depth,
                          last):
                level += 1
                continue
            value = values[level + 1]
        else:
            value = values[level]
            if level == 1:
                return value
            level -= 1
            frame = frames[level]
        mode = frame[MODE]
        if mode == COIN_SIDES:
            values[level] += 0.5 * value
        elif mode == TARGETS:
            values[level] = max(values[level], value)
        else:
            values[level] = max(values[level], value - STEP)


@njit
def choose_on(work: np.ndarray, moves: np.ndarray, frames: np.ndarray, values: np.ndarray,
              weights: np.ndarray, me: int, legal: np.ndarray, count: int) -> int:
    """``LinePlayer.choose`` on the world in row 0: the move with the best line (the
    lowest on ties); a discard by ``discard_choice``."""
    if count == 1:
        return legal[0]
    if work[0, PHASE] == DISCARD:
        return DISCARD_BASE + discard_choice(work[0], me)
    best = -np.inf
    chosen = legal[0]
    for i in range(count):
        action = legal[i]
        value = line(work, moves, frames, values, weights, me, action)
        if value > best:
            best, chosen = value, action
    return chosen


@njit
def line_values(s: np.ndarray, me: int, legal: np.ndarray, count: int, out: np.ndarray,
                work: np.ndarray, moves: np.ndarray, frames: np.ndarray, values: np.ndarray,
                weights: np.ndarray) -> None:
    """Each legal move's line score on the full state ``s`` with ``weights``."""
    row = _copy_core(work, 0, s)
    row[KNOW] = 0
    for i in range(count):
        out[i] = line(work, moves, frames, values, weights, me, legal[i])


@njit
def greedy_action(s: np.ndarray, streams: np.ndarray, world: np.ndarray, work: np.ndarray,
                  moves: np.ndarray, frames: np.ndarray, values: np.ndarray) -> int:
    """``greedy``'s move for the seat to move in ``s``: on a world with the other seat's
    face-down nouns drawn from what it knows (``world`` is scratch of ``s``'s size), the
    move with the best line."""
    return guess_action(s, streams, world, work, moves, frames, values, GREEDY_WEIGHTS)


@njit
def guess_action(s: np.ndarray, streams: np.ndarray, world: np.ndarray, work: np.ndarray,
                 moves: np.ndarray, frames: np.ndarray, values: np.ndarray,
                 weights: np.ndarray) -> int:
    """``greedy_action`` with any weights: the best line with ``weights`` on the seat's
    own guess of the other seat's face-down nouns."""
    me = current_player(s)
    legal = moves[LEVELS - 1]
    count = legal_actions(s, legal)
    if count == 1:
        return legal[0]
    row = _copy_core(work, 0, s)
    row[KNOW] = 0
    if s[PHASE] != DISCARD:
        seen = np.empty(NUM_WORDS, np.int64)
        slots = np.empty(2 * MAX_TABLE, np.int64)
        if seen_cards(s, 1 - me, seen, slots):  # face-down nouns to draw
            for i in range(PROOFS + s[PROOFS_USED]):
                world[i] = s[i]
            resample_nouns(world, me, streams, 1 + me, slots[:3], world)
            for i in range(2 * MAX_TABLE):
                row[TABLE + i * FIELDS] = world[TABLE + i * FIELDS]
    return choose_on(work, moves, frames, values, weights, me, legal, count)


@njit
def lines_action(s: np.ndarray, work: np.ndarray, moves: np.ndarray, frames: np.ndarray,
                 values: np.ndarray, weights: np.ndarray) -> int:
    """``LinePlayer(weights).choose`` for the seat to move, on ``s`` as it is (a world a
    search drew: nothing more is drawn)."""
    legal = moves[LEVELS - 1]
    count = legal_actions(s, legal)
    if count == 1:
        return legal[0]
    row = _copy_core(work, 0, s)
    row[KNOW] = 0
    return choose_on(work, moves, frames, values, weights, current_player(s), legal, count)

