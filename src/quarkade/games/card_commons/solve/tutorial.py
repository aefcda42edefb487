"""The Tutorial game solved by a compiled search: who wins with best play, and how.

The Tutorial game (RULINGS C-13) has no abilities and no pass, and the seat that cannot
place loses, so every position is a win or a loss for the seat to move. This module keeps
a position in the smallest form that decides its value and searches it with numba.

The abstract position
    Only four things decide the rest of a Tutorial game: for each cell, its *top* card's
    colour and level and whether it is a stack (a stack cannot be inverted, C-16; the card
    under it and who owns either card never matter again); and the set of kinds (colour and
    level) in each hand. Both seats hold the same twelve kinds (C-2), so a position is
    written from the mover's side: ``cells``, then the mover's hand, then the other's. A
    cell code is 0 (empty), ``1 + kind`` (one face-up card) or ``13 + kind`` (a stack
    topped by that kind); a kind is ``colour * 6 + level - 1`` (red 0-5, black 6-11).

Symmetry
    The Law reads only orthogonal neighbours and the Tutorial has no sides, so every
    automorphism of the field's neighbour graph maps positions to positions of equal value:
    8 on the flat field (the square's rotations and mirrors), 384 on the torus (its graph
    is the 4-cube's). So does the colour swap that turns a red ``L`` into a black ``7 - L``
    (next to a black ``v`` a card must be lower, next to a red ``7 - v`` higher: the same
    test after the swap), and it maps the hands too. The table is keyed by the least image
    of a position under these maps (at most ``max_symmetries`` of them; the rest go unused).

Search
    Depth-first win/loss search (a node is won if some move leads to a lost node) with a
    transposition table of fixed size (``table``) and moves ordered by the opponent's
    mobility and by the table's remembered best move. Three things settle a node without
    visiting a child: a move that leaves the opponent no placement (the ordering counts
    them anyway), a child the table already knows lost (an enhanced transposition cutoff),
    and a remembered value. An inversion's discards are children of their own, tried the
    card with the fewest places first; the reply that refuted one discard is tried first
    against the next (the two positions differ only in the hand of the seat that replies
    to). docs/ANALYSIS.md, "The solver at C speed", measures each of these.
    Iterative deepening (``deepen``) searches with a growing ply limit first; a position
    the limit cuts is unknown, never guessed, and is not stored as a value.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from quarkade.games.card_commons.notation import invert_action, place_action
from quarkade.games.card_commons.rules import TUTORIAL, CardCommonsState
from quarkade.games.card_commons.solve import table as tt
from quarkade.games.card_commons.solve.jit import inline, njit
from quarkade.games.card_commons.solve.jit import numpy as np
from quarkade.games.card_commons.solve.ledger import WON, Ledger

NUM_CELLS = 16
NUM_KINDS = 12
ALL_LEVELS = 0b1111110
SINGLE, STACK = 1, 13  # code offsets
NUM_CODES = 25
MAX_PLY = 32
MAX_MOVES = 224  # 12 kinds x 16 cells of channels, 16 inversion groups
SCRATCH = MAX_MOVES  # the score rows' last columns: weights per level for the ordering,
HELD = SCRATCH + 7  # then the opponent's cards per level
SCORE_COLUMNS = HELD + 7
ETC_FROM = 5  # the fewest empty cells at which a node looks its children up first
NO_REPLY = -(1 << 40)  # the ordering's score of a move that leaves the opponent no placement
# What the search does beyond plain win/loss search with the table and the ordering
# (``TutorialSolver(features=..., inversion_cost=...)``): all but KEPT_FIRST by default.
# ``bench/card_commons_solve.py ablation`` turns them on one at a time (docs/ANALYSIS.md).
KEPT_FIRST = 1  # the old rule: an inversion is searched first with its discard kept
SIBLING = 2  # the reply that refuted an inversion's last discard goes first against the next
NO_REPLY_WINS = 4  # a move that leaves the opponent no placement wins without a visit
KNOWN_LOST_WINS = 8  # a child the table knows lost wins without a visit
FEATURES = SIBLING | NO_REPLY_WINS | KNOWN_LOST_WINS
INVERSION_COST = 32  # added to an inversion's ordering score: it spends two cards
# the kernel's settings row
S_ORDER_FROM, S_SYM_FROM, S_FEATURES, S_INVERSION_COST = range(4)
# Move order weights: the opponent's placements after a move count four times the mover's
# own (of 1:0, 2:1, 4:1, 4:3, 8:1 and 16:1, 4:1 needed the fewest nodes; docs/ANALYSIS.md).
THEIRS, MINE = 4, 1
INVERT = 256  # a move id at or above is an inversion (discard chosen in the search)
WIN, LOSS, UNKNOWN, ABORTED = 1, 0, 2, 3

# stats slots: positions visited, of them answered by the table; nodes settled without a
# visit to any child: by a move that leaves no reply, by a child the table knows lost
NODES, HITS, NO_REPLIES, KNOWN_LOST = range(4)
STATS = 4


def _allowed_next_to(code: int) -> int:
    """Levels a new card may have next to a cell holding this code (C-4)."""
    if code == 0:
        return ALL_LEVELS
    kind = (code - 1) % NUM_KINDS
    lv = kind % 6 + 1
    if kind < 6:  # red: higher
        return sum(1 << v for v in range(lv + 1, 7))
    return sum(1 << v for v in range(1, lv))


def dual_kind(kind: int) -> int:
    """The colour swap: red ``L`` <-> black ``7 - L``."""
    return 11 - kind


def _dual_code(code: int) -> int:
    if code == 0:
        return 0
    base = SINGLE if code < STACK else STACK
    return base + dual_kind(code - base)


OK_LEVELS = np.array([_allowed_next_to(c) for c in range(NUM_CODES)], dtype=np.int64)
DUAL_CODE = np.array([_dual_code(c) for c in range(NUM_CODES)], dtype=np.int64)
DUAL_HAND = np.array([sum(1 << dual_kind(k) for k in range(NUM_KINDS) if m >> k & 1)
                      for m in range(1 << NUM_KINDS)], dtype=np.int64)


def neighbours(torus: bool) -> list[tuple[int, ...]]:
    """Orthogonal neighbours of each cell (cell ``row * 4 + column``)."""
    result = []
    for cell in range(NUM_CELLS):
        row, col = divmod(cell, 4)
        found = []
        for dr, dc in ((1, 0), (-1, 0), (0, -1), (0, 1)):
            r, c = row + dr, col + dc
            if torus:
                found.append(r % 4 * 4 + c % 4)
            elif 0 <= r < 4 and 0 <= c < 4:
                found.append(r * 4 + c)
        result.append(tuple(sorted(found)))
    return result


def automorphisms(torus: bool) -> list[tuple[int, ...]]:
    """Every permutation of the cells that keeps the neighbour relation, identity first."""
    adjacent = [set(ns) for ns in neighbours(torus)]
    found: list[tuple[int, ...]] = []

    def extend(image: list[int]) -> None:
        cell = len(image)
        if cell == NUM_CELLS:
            found.append(tuple(image))
            return
        for target in range(NUM_CELLS):
            if target in image:
                continue
            if all((target in adjacent[image[other]]) == (other in adjacent[cell])
                   for other in range(cell)):
                image.append(target)
                extend(image)
                image.pop()

    extend([])
    found.sort(key=lambda p: p != tuple(range(NUM_CELLS)))
    return found


@dataclass(frozen=True)
class Board:
    """The field's shape and the symmetry maps the solver uses, as arrays for the kernel."""

    torus: bool
    neighbours: np.ndarray  # [16, 4], -1 past the last
    counts: np.ndarray  # [16]
    perms: np.ndarray  # [g, 16]: cell i goes to perms[g, i]
    inverse: np.ndarray  # [g, 16]
    duals: np.ndarray  # [g]: 1 if the map also swaps the colours

    @property
    def symmetries(self) -> int:
        return len(self.duals)


_BOARDS: dict[tuple[bool, int], Board] = {}


def board(torus: bool, max_symmetries: int = 16) -> Board:
    """The field (flat or torus) with at most ``max_symmetries`` maps (1: none)."""
    key = (torus, max_symmetries)
    if key not in _BOARDS:
        ns = neighbours(torus)
        table = np.full((NUM_CELLS, 4), -1, dtype=np.int64)
        for cell, near in enumerate(ns):
            table[cell, :len(near)] = near
        maps = [(perm, dual) for dual in (0, 1) for perm in automorphisms(torus)]
        maps = maps[:max(1, max_symmetries)]
        perms = np.array([p for p, _ in maps], dtype=np.int64)
        inverse = np.argsort(perms, axis=1).astype(np.int64)
        _BOARDS[key] = Board(torus, table, np.array([len(n) for n in ns], dtype=np.int64),
                             perms, inverse, np.array([d for _, d in maps], dtype=np.int64))
    return _BOARDS[key]


# -- the kernel ---------------------------------------------------------------------------
#
# Per ply the search keeps one row of ``state``: the occupied cells, the cells next to an
# occupied one, the Law (per level 1-6, the cells where a card of that level may go as far
# as its neighbours are concerned), and per kind the cells holding that kind alone and face
# up (what can be inverted). ``keys`` holds the field's packed key under every symmetry map,
# kept up to date by XOR as cards land and lift.

OCCUPIED, NEAR, LAW, SINGLES = 0, 1, 1, 8  # LAW + level, SINGLES + kind
ROW = 20
# geometry columns: 4 neighbours (-1 past the last), their count, their mask
GEO_COUNT, GEO_MASK = 4, 5
# symmetry columns per (map, cell): key deltas per code, then the word, the image cell, the
# preimage cell and whether the map swaps colours
SYM_WORD, SYM_IMAGE, SYM_PREIMAGE, SYM_DUAL = 25, 26, 27, 28
SYM_COLUMNS = 29

LOW_BIT = np.array([0] + [(m & -m).bit_length() - 1 for m in range(1, 1 << 16)],
                   dtype=np.int8)
POP16 = np.array([bin(m).count("1") for m in range(1 << 16)], dtype=np.int8)
LEVEL = np.array([k % 6 + 1 for k in range(NUM_KINDS)], dtype=np.int64)
LAW_SLOT = np.array([LAW + k % 6 + 1 for k in range(NUM_KINDS)], dtype=np.int64)
TARGET_SLOT = np.array([SINGLES + (k + 6) % 12 for k in range(NUM_KINDS)], dtype=np.int64)
FORBIDS = np.array([[0 if _allowed_next_to(c) >> lv & 1 else -1 for lv in range(7)]
                    for c in range(NUM_CODES)], dtype=np.int64)


@inline
def _generate(state, ply, hand, moves):
    """The mover's moves into ``moves[ply]``: channels ``kind * 16 + cell``, inversion
    groups ``INVERT + kind * 16 + cell``; returns how many."""
    n = 0
    free = state[ply, NEAR] & ~state[ply, OCCUPIED]
    can_invert = hand & (hand - 1)
    rest = hand
    while rest:
        kind = LOW_BIT[rest]
        rest &= rest - 1
        law = state[ply, LAW_SLOT[kind]]
        cells = free & law
        base = kind << 4
        while cells:
            moves[ply, n] = base | LOW_BIT[cells]
            n += 1
            cells &= cells - 1
        if can_invert:
            cells = state[ply, TARGET_SLOT[kind]] & law
            while cells:
                moves[ply, n] = INVERT | base | LOW_BIT[cells]
                n += 1
                cells &= cells - 1
    return n


@inline
def _mobility(state, ply, hand):
    """How many placements the seat holding ``hand`` has at row ``ply`` (each inversion
    counted once)."""
    n = 0
    free = state[ply, NEAR] & ~state[ply, OCCUPIED]
    can_invert = hand & (hand - 1)
    rest = hand
    while rest:
        kind = LOW_BIT[rest]
        rest &= rest - 1
        law = state[ply, LAW_SLOT[kind]]
        n += POP16[free & law]
        if can_invert:
            n += POP16[state[ply, TARGET_SLOT[kind]] & law]
    return n


@inline
def _land(state, ply, cells, geo, move):
    """Put ``move``'s card on the field: row ``ply + 1`` from row ``ply``, and ``cells``;
    returns the code it replaced."""
    up = ply + 1
    for i in range(ROW):
        state[up, i] = state[ply, i]
    cell = move & 15
    kind = (move & 255) >> 4
    old = cells[cell]
    bit = 1 << cell
    if move < INVERT:
        code = SINGLE + kind
        cells[cell] = code
        around = geo[cell, GEO_MASK]
        state[up, OCCUPIED] |= bit
        state[up, NEAR] |= around
        for lv in range(1, 7):  # a channel only tightens the Law around it
            state[up, LAW + lv] &= ~(around & FORBIDS[code, lv])
        state[up, SINGLES + kind] |= bit
        return old
    cells[cell] = STACK + kind
    state[up, TARGET_SLOT[kind]] &= ~bit
    for j in range(geo[cell, GEO_COUNT]):  # an inversion may loosen it: recount
        near = geo[cell, j]
        allowed = ALL_LEVELS
        for i in range(geo[near, GEO_COUNT]):
            allowed &= OK_LEVELS[cells[geo[near, i]]]
        nbit = 1 << near
        for lv in range(1, 7):
            if allowed >> lv & 1:
                state[up, LAW + lv] |= nbit
            else:
                state[up, LAW + lv] &= ~nbit
    return old


@inline
def _order(state, ply, cells, geo, mover, other, moves, scores, n, features,
           inversion_cost):
    """Scores for ``moves[ply]``, lower first: four times the opponent's placements after
    the move, less the mover's own (each inversion counted once, and ``inversion_cost``
    more); ``NO_REPLY`` for a move after which the opponent has none (with
    ``NO_REPLY_WINS``). A channel is scored from row ``ply`` directly; an inversion is
    played out on row ``ply + 1``."""
    no_reply = NO_REPLY if features & NO_REPLY_WINS else 0
    occupied = state[ply, OCCUPIED]
    near = state[ply, NEAR]
    for lv in range(7):
        scores[ply, SCRATCH + lv] = 0
        scores[ply, HELD + lv] = 0
    rest = other
    while rest:
        scores[ply, SCRATCH + LEVEL[LOW_BIT[rest]]] += THEIRS
        scores[ply, HELD + LEVEL[LOW_BIT[rest]]] += 1
        rest &= rest - 1
    rest = mover
    while rest:
        scores[ply, SCRATCH + LEVEL[LOW_BIT[rest]]] -= MINE
        rest &= rest - 1
    they_invert = other & (other - 1)
    for i in range(n):
        move = moves[ply, i]
        kind = (move & 255) >> 4
        left = mover & ~(1 << kind)
        if move >= INVERT:
            old = _land(state, ply, cells, geo, move)
            replies = _mobility(state, ply + 1, other)
            scores[ply, i] = no_reply if replies == 0 and no_reply else \
                THEIRS * replies - MINE * _mobility(state, ply + 1, left) + inversion_cost
            cells[move & 15] = old
            continue
        cell = move & 15
        code = SINGLE + kind
        around = geo[cell, GEO_MASK]
        free = (near | around) & ~(occupied | 1 << cell)
        total = 0
        replies = 0
        for lv in range(1, 7):
            reach = POP16[free & state[ply, LAW + lv] & ~(around & FORBIDS[code, lv])]
            total += reach * scores[ply, SCRATCH + lv]
            replies += reach * scores[ply, HELD + lv]
            if lv == LEVEL[kind]:
                total += MINE * reach  # the mover no longer holds this card
        if they_invert:
            rest = other
            while rest:
                theirs = LOW_BIT[rest]
                rest &= rest - 1
                lv = LEVEL[theirs]
                targets = state[ply, TARGET_SLOT[theirs]]
                if TARGET_SLOT[theirs] == SINGLES + kind:
                    targets |= 1 << cell
                inversions = POP16[targets & state[ply, LAW + lv]
                                   & ~(around & FORBIDS[code, lv])]
                total += THEIRS * inversions
                replies += inversions
        if left & (left - 1):
            rest = left
            while rest:
                mine = LOW_BIT[rest]
                rest &= rest - 1
                lv = LEVEL[mine]
                targets = state[ply, TARGET_SLOT[mine]]
                if TARGET_SLOT[mine] == SINGLES + kind:
                    targets |= 1 << cell
                total -= MINE * POP16[targets & state[ply, LAW + lv]
                                      & ~(around & FORBIDS[code, lv])]
        scores[ply, i] = no_reply if replies == 0 and no_reply else total


@inline
def _spare_first(state, ply, spare):
    """The card to discard first: the one with the fewest places to go on row ``ply``."""
    free = state[ply, NEAR] & ~state[ply, OCCUPIED]
    best = 0
    fewest = 99
    rest = spare
    while rest:
        kind = LOW_BIT[rest]
        rest &= rest - 1
        law = state[ply, LAW_SLOT[kind]]
        places = POP16[free & law] + POP16[state[ply, TARGET_SLOT[kind]] & law]
        if places < fewest:
            fewest = places
            best = kind
    return 1 << best


@inline
def _known_win_first(cells, keys, sym, nsym, sym_from, table, moves, ply, n, mover, other,
                     empty):
    """Enhanced transposition cutoff: a channel whose child the table already knows to be
    lost (for the opponent) moves to the front; returns whether there is one (then the
    node is won without a visit)."""
    for i in range(n):
        move = moves[ply, i]
        if move >= INVERT:
            continue
        cell = move & 15
        kind = move >> 4
        code = SINGLE + kind
        keys[0, sym[0, cell, SYM_WORD]] ^= sym[0, cell, code]
        cells[cell] = code
        hi, lo, _ = _canonical(keys, cells, sym, nsym if empty - 1 >= sym_from else 1,
                               other, mover & ~(1 << kind))
        cells[cell] = 0
        keys[0, sym[0, cell, SYM_WORD]] ^= sym[0, cell, code]
        at = tt.probe(table, hi, lo)
        if at >= 0 and table[at] & 3 == LOSS:
            moves[ply, i] = moves[ply, 0]
            moves[ply, 0] = move
            return True
    return False


@inline
def _sort(moves, scores, ply, n):
    """Insertion sort of ``moves[ply, :n]`` by score, stable."""
    for i in range(1, n):
        move = moves[ply, i]
        score = scores[ply, i]
        j = i - 1
        while j >= 0 and scores[ply, j] > score:
            moves[ply, j + 1] = moves[ply, j]
            scores[ply, j + 1] = scores[ply, j]
            j -= 1
        moves[ply, j + 1] = move
        scores[ply, j + 1] = score


@inline
def _rekey(keys, sym, cell, old, new):
    """Keep the field's packed key (map 0, the identity) up to date."""
    keys[0, sym[0, cell, SYM_WORD]] ^= sym[0, cell, old] ^ sym[0, cell, new]


@inline
def _canonical(keys, cells, sym, nsym, mover, other):
    """(hi, lo, map) of the least image of the position under the first ``nsym`` maps
    (map 0 is the identity, whose key ``keys`` keeps; the others are built here)."""
    plain = mover << 20 | other << 32
    best_hi = keys[0, 1] | plain
    best_lo = keys[0, 0]
    best_g = 0
    if nsym > 1:
        swapped = DUAL_HAND[mover] << 20 | DUAL_HAND[other] << 32
        for g in range(1, nsym):
            lo = 0
            hi = swapped if sym[g, 0, SYM_DUAL] else plain
            for cell in range(16):
                if sym[g, cell, SYM_WORD]:
                    hi |= sym[g, cell, cells[cell]]
                else:
                    lo |= sym[g, cell, cells[cell]]
            if hi < best_hi or (hi == best_hi and lo < best_lo):
                best_hi = hi
                best_lo = lo
                best_g = g
    return best_hi, best_lo, best_g


@inline
def _map_move(move, sym, g, column):
    """A move id through map ``g`` (``column``: SYM_IMAGE or SYM_PREIMAGE)."""
    base = move & 255
    kind = base >> 4
    if sym[g, 0, SYM_DUAL]:
        kind = 11 - kind
    return (move & INVERT) | kind << 4 | sym[g, base & 15, column]


# What a node waits for from the child below it, and the search loop's own signals.
CHANNEL, KEPT, DISCARD = 0, 1, 2
ENTER, NEXT_MOVE = -1, -2
# frame columns, one frame per ply (F_REFUTED: the reply, plus one, that refuted the
# inversion's last discard)
(F_MOVER, F_OTHER, F_COUNT, F_NEXT, F_HI, F_LO, F_MAP, F_BEFORE, F_RESULT, F_BEST,
 F_SPARE, F_OLD, F_LEFT, F_WAIT, F_REFUTED) = range(15)
FRAME = 15


@inline
def _finish(ply, frame, table, sym, stats):
    """Store node ``ply``'s result (its best move in the canonical frame) and return it."""
    result = frame[ply, F_RESULT]
    best = frame[ply, F_BEST]
    if best:
        best = _map_move(best - 1, sym, frame[ply, F_MAP], SYM_IMAGE) + 1
    if result != UNKNOWN or best:
        tt.store(table, frame[ply, F_HI], frame[ply, F_LO], result,
                 stats[NODES] - frame[ply, F_BEFORE] + 1, best)
    return result


@inline
def _won_at_once(ply, frame, moves, table, sym, stats):
    """Node ``ply`` wins by its first move, known without a visit: store and return it."""
    frame[ply, F_RESULT] = WIN
    frame[ply, F_BEST] = moves[ply, 0] + 1
    return _finish(ply, frame, table, sym, stats)


@njit
def _search(cells, mover, other, limit, stop, state, keys, geo, sym, nsym, settings,
            table, moves, scores, frame, stats):
    """WIN or LOSS for the seat to move (UNKNOWN only when ``limit`` plies cut the search).

    An explicit stack of frames instead of recursion: node ``ply`` keeps its moves in
    ``moves[ply]``, its field row in ``state[ply]`` and its progress in ``frame[ply]``.
    """
    order_from = settings[S_ORDER_FROM]
    sym_from = settings[S_SYM_FROM]
    features = settings[S_FEATURES]
    inversion_cost = settings[S_INVERSION_COST]
    ply = 0
    frame[0, F_MOVER] = mover
    frame[0, F_OTHER] = other
    value = ENTER
    while True:
        if value == ENTER:
            stats[NODES] += 1
            if stats[NODES] == stop:
                return ABORTED
            me = frame[ply, F_MOVER]
            them = frame[ply, F_OTHER]
            empty = 16 - POP16[state[ply, OCCUPIED]]
            hi, lo, g = _canonical(keys, cells, sym, nsym if empty >= sym_from else 1, me,
                                   them)
            at = tt.probe(table, hi, lo)
            remembered = -1
            frame[ply, F_BEST] = 0
            if at >= 0:
                word = table[at]
                if word & 3 != UNKNOWN:
                    stats[HITS] += 1
                    value = word & 3
                    if value == WIN and word >> 8:  # the parent may try this reply next
                        frame[ply, F_BEST] = _map_move((word >> 8) - 1, sym, g,
                                                       SYM_PREIMAGE) + 1
                elif word >> 8:
                    remembered = _map_move((word >> 8) - 1, sym, g, SYM_PREIMAGE)
            if (features & SIBLING and remembered < 0 and ply > 0
                    and frame[ply - 1, F_WAIT] == DISCARD):
                remembered = frame[ply - 1, F_REFUTED] - 1  # refuted the last discard
            if value == ENTER:
                n = _generate(state, ply, me, moves)
                if n == 0:
                    value = LOSS  # not stored: the next visit finds it as fast
                elif ply >= limit:
                    value = UNKNOWN
                else:
                    frame[ply, F_BEFORE] = stats[NODES]
                    frame[ply, F_HI] = hi
                    frame[ply, F_LO] = lo
                    frame[ply, F_MAP] = g
                    frame[ply, F_COUNT] = n
                    frame[ply, F_NEXT] = 0
                    frame[ply, F_RESULT] = LOSS
                    frame[ply, F_BEST] = 0
                    ordering = empty >= order_from
                    if ordering:
                        _order(state, ply, cells, geo, me, them, moves, scores, n,
                               features, inversion_cost)
                    if remembered >= 0:
                        for i in range(n):
                            if moves[ply, i] == remembered:
                                scores[ply, i] = -1 << 20
                            elif not ordering:
                                scores[ply, i] = 0
                    if ordering or remembered >= 0:
                        _sort(moves, scores, ply, n)
                    if ordering and scores[ply, 0] == NO_REPLY:
                        stats[NO_REPLIES] += 1
                        value = _won_at_once(ply, frame, moves, table, sym, stats)
                    elif empty >= ETC_FROM and _known_win_first(
                            cells, keys, sym, nsym, sym_from, table, moves, ply, n, me, them,
                            empty) and features & KNOWN_LOST_WINS:
                        stats[KNOWN_LOST] += 1
                        value = _won_at_once(ply, frame, moves, table, sym, stats)
                    else:
                        value = NEXT_MOVE
        if value == NEXT_MOVE:
            i = frame[ply, F_NEXT]
            if i < frame[ply, F_COUNT]:
                frame[ply, F_NEXT] = i + 1
                move = moves[ply, i]
                cell = move & 15
                kind = (move & 255) >> 4
                old = _land(state, ply, cells, geo, move)
                _rekey(keys, sym, cell, old, cells[cell])
                left = frame[ply, F_MOVER] & ~(1 << kind)
                frame[ply, F_OLD] = old
                frame[ply, F_LEFT] = left
                frame[ply + 1, F_MOVER] = frame[ply, F_OTHER]
                if move < INVERT:
                    frame[ply, F_WAIT] = CHANNEL
                    frame[ply + 1, F_OTHER] = left
                elif features & KEPT_FIRST:
                    # more cards never hurt a Tutorial seat: if it loses keeping the card
                    # it would discard, every discard loses (then the discards, one by one)
                    frame[ply, F_WAIT] = KEPT
                    frame[ply, F_SPARE] = left
                    frame[ply + 1, F_OTHER] = left
                else:  # each discard is a child, the card with the fewest places first
                    discard = _spare_first(state, ply + 1, left)
                    frame[ply, F_WAIT] = DISCARD
                    frame[ply, F_SPARE] = left ^ discard
                    frame[ply, F_REFUTED] = 0
                    frame[ply + 1, F_OTHER] = left ^ discard
                ply += 1
                value = ENTER
                continue
            value = _finish(ply, frame, table, sym, stats)
        if value == ENTER:
            continue
        # ``value`` settles node ``ply``: hand it to its parent
        if ply == 0:
            return value
        ply -= 1
        move = moves[ply, frame[ply, F_NEXT] - 1]
        wait = frame[ply, F_WAIT]
        if value == UNKNOWN:
            frame[ply, F_RESULT] = UNKNOWN
            if not frame[ply, F_BEST]:
                frame[ply, F_BEST] = move + 1
        won = value == LOSS and wait != KEPT
        if (wait == KEPT and value != WIN) or (wait == DISCARD and not won
                                                and frame[ply, F_SPARE]):
            refuted = wait == DISCARD and value == WIN
            frame[ply, F_REFUTED] = frame[ply + 1, F_BEST] if refuted else 0
            frame[ply, F_WAIT] = DISCARD
            spare = frame[ply, F_SPARE]
            discard = _spare_first(state, ply + 1, spare)
            frame[ply, F_SPARE] = spare ^ discard
            frame[ply + 1, F_MOVER] = frame[ply, F_OTHER]
            frame[ply + 1, F_OTHER] = frame[ply, F_LEFT] & ~discard
            ply += 1
            value = ENTER
            continue
        cell = move & 15
        _rekey(keys, sym, cell, cells[cell], frame[ply, F_OLD])
        cells[cell] = frame[ply, F_OLD]
        if won:
            frame[ply, F_RESULT] = WIN
            frame[ply, F_BEST] = move + 1
            value = _finish(ply, frame, table, sym, stats)
        else:
            value = NEXT_MOVE


def geometry(board: Board) -> np.ndarray:
    geo = np.full((NUM_CELLS, 6), -1, dtype=np.int64)
    geo[:, :4] = board.neighbours
    geo[:, GEO_COUNT] = board.counts
    geo[:, GEO_MASK] = [sum(1 << int(n) for n in board.neighbours[c, :board.counts[c]])
                        for c in range(NUM_CELLS)]
    return geo


def symmetry_table(board: Board) -> np.ndarray:
    sym = np.zeros((board.symmetries, NUM_CELLS, SYM_COLUMNS), dtype=np.int64)
    for g in range(board.symmetries):
        dual = int(board.duals[g])
        for cell in range(NUM_CELLS):
            target = int(board.perms[g, cell])
            word, shift = (0, 5 * target) if target < 12 else (1, 5 * (target - 12))
            for code in range(NUM_CODES):
                mapped = _dual_code(code) if dual else code
                sym[g, cell, code] = mapped << shift
            sym[g, cell, SYM_WORD] = word
            sym[g, cell, SYM_IMAGE] = target
            sym[g, cell, SYM_PREIMAGE] = int(board.inverse[g, cell])
            sym[g, cell, SYM_DUAL] = dual
    return sym


def initial_rows(cells: tuple[int, ...], board: Board, sym: np.ndarray
                 ) -> tuple[np.ndarray, np.ndarray]:
    """Row 0 of the per-ply state and the packed keys for a field."""
    state = np.zeros((MAX_PLY + 2, ROW), dtype=np.int64)
    row = state[0]
    for cell, code in enumerate(cells):
        if not code:
            continue
        row[OCCUPIED] |= 1 << cell
        for n in board.neighbours[cell, :board.counts[cell]]:
            row[NEAR] |= 1 << int(n)
        if code < STACK:
            row[SINGLES + code - SINGLE] |= 1 << cell
    for cell in range(NUM_CELLS):
        allowed = ALL_LEVELS
        for n in board.neighbours[cell, :board.counts[cell]]:
            allowed &= _allowed_next_to(cells[int(n)])
        for lv in range(1, 7):
            if allowed >> lv & 1:
                row[LAW + lv] |= 1 << cell
    keys = np.zeros((1, 2), dtype=np.int64)
    for cell, code in enumerate(cells):
        keys[0, sym[0, cell, SYM_WORD]] ^= sym[0, cell, code]
    return state, keys


# -- the Python face ----------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """An abstract Tutorial position, from the mover's side (see the module docstring)."""

    cells: tuple[int, ...]
    mover: int
    other: int

    def after(self, move: int, discard: int = -1) -> Position:
        """The position after an abstract move (an inversion also names its discard)."""
        kind, cell = (move & 255) >> 4, move & 15
        cells = list(self.cells)
        left = self.mover & ~(1 << kind)
        if move < INVERT:
            cells[cell] = SINGLE + kind
        else:
            cells[cell] = STACK + kind
            left &= ~(1 << discard)
        return Position(tuple(cells), self.other, left)


def position_of(state: CardCommonsState) -> Position:
    """The abstract position of a Tutorial state in its turn phase."""
    if state.variant != TUTORIAL or state.phase() != "turn":
        raise ValueError("the Tutorial solver reads Tutorial positions in their turn phase, "
                         f"not a {state.variant} game in its {state.phase()} phase")
    cells = []
    for cell in range(NUM_CELLS):
        stack = state.stack(cell)
        if not stack:
            cells.append(0)
            continue
        kind = stack[-1][0] % NUM_KINDS
        cells.append((STACK if len(stack) == 2 else SINGLE) + kind)
    mover = state.current_player()
    return Position(tuple(cells), _hand_mask(state, mover), _hand_mask(state, 1 - mover))


def _hand_mask(state: CardCommonsState, seat: int) -> int:
    return sum(1 << (card % NUM_KINDS) for card in state.hand(seat))


def action_of(move: int, discard: int = -1) -> int:
    """The engine's action id for an abstract move (kinds are the mover's local cards)."""
    kind, cell = (move & 255) >> 4, move & 15
    return place_action(kind, cell) if move < INVERT else invert_action(kind, cell, discard)


@dataclass
class Result:
    value: int  # WIN or LOSS for the seat to move (UNKNOWN, ABORTED: not settled)
    nodes: int
    hits: int
    seconds: float
    move: tuple[int, int] | None = None  # a winning (move, discard), where one was found

    def __add__(self, other: Result) -> Result:
        return Result(other.value, self.nodes + other.nodes, self.hits + other.hits,
                      self.seconds + other.seconds)


WORD_MASK = (1 << 64) - 1


class TutorialSolver:
    """Exact values of Tutorial positions, with a table kept across calls.

    ``table_bits``: the table holds ``2 ** table_bits`` positions (32 bytes each);
    ``order_from``/``sym_from``: the fewest empty cells at which a node orders its moves /
    looks for its least symmetric image (the identity key is used below that);
    ``features``/``inversion_cost``: see ``FEATURES`` (the defaults are the fastest known).
    """

    def __init__(self, torus: bool = False, table_bits: int = 22, max_symmetries: int = 768,
                 order_from: int = 0, sym_from: int = 10,
                 ledger: Ledger | None = None, features: int = FEATURES,
                 inversion_cost: int = INVERSION_COST) -> None:
        self.torus = torus
        self.board = board(torus, max_symmetries)
        self.geo = geometry(self.board)
        self.sym = symmetry_table(self.board)
        self.table = tt.Table(table_bits)
        self.order_from = order_from
        self.sym_from = sym_from
        self.settings = np.array([order_from, sym_from, features, inversion_cost],
                                 dtype=np.int64)
        self._moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
        self._scores = np.zeros((MAX_PLY + 1, SCORE_COLUMNS), dtype=np.int64)
        self._frame = np.zeros((MAX_PLY + 1, FRAME), dtype=np.int64)
        self.stats = np.zeros(STATS, dtype=np.int64)
        self.ledger = ledger if ledger is not None else Ledger(torus=torus)

    def value(self, position: Position, limit: int = MAX_PLY, budget: int = 0) -> Result:
        """WIN or LOSS for the seat to move; UNKNOWN if ``limit`` plies did not settle it,
        ABORTED if ``budget`` nodes (0: no limit) did not."""
        start = time.perf_counter()
        before = self.stats.copy()
        state, keys = initial_rows(position.cells, self.board, self.sym)
        cells = np.array(position.cells, dtype=np.int64)
        stop = int(self.stats[NODES]) + budget if budget else -1
        value = _search(cells, position.mover, position.other, limit, stop, state, keys,
                        self.geo, self.sym, self.board.symmetries, self.settings,
                        self.table.words, self._moves, self._scores, self._frame, self.stats)
        spent = self.stats - before
        return Result(int(value), int(spent[NODES]), int(spent[HITS]),
                      time.perf_counter() - start)

    def solve(self, position: Position, split: int = 2,
              progress: Callable[[str], None] | None = None) -> Result:
        """``value``, with its top ``split`` levels of the seat to move searched here, move
        by move and reply by reply, in the kernel's order, so ``progress`` hears how far
        it has come (a long search otherwise says nothing for hours). Each position settled
        at those levels goes into ``ledger``, which a stopped run resumes from (see
        ``ledger``; ``split`` shares the same top levels out among workers)."""
        start = time.perf_counter()
        before = int(self.stats[NODES]), int(self.stats[HITS])
        if split == 0:
            value, move = self.best_move(position)
        else:
            value, move = self._choose(position, self.packed(position), split, progress, "")
        return Result(value, int(self.stats[NODES]) - before[0],
                      int(self.stats[HITS]) - before[1], time.perf_counter() - start, move)

    def packed(self, position: Position) -> int:
        """The position's least image under every map of the board, as one number (the
        ledger's key)."""
        hi, lo, _ = self.canonical(position)
        return (hi & WORD_MASK) << 64 | (lo & WORD_MASK)

    def known(self, position: Position) -> tuple[int, tuple[int, int] | None] | None:
        """(value, winning (move, discard) if the ledger keeps it) from the ledger, or None."""
        entry = self.ledger.get(self.packed(position))
        return None if entry is None else self.read_entry(position, entry)

    def read_entry(self, position: Position, entry: int
                   ) -> tuple[int, tuple[int, int] | None]:
        """(value, winning (move, discard) or None) from a book or ledger ``entry`` (see
        ``entry``) for the position it was kept for."""
        if entry == 0:
            return LOSS, None
        if entry == WON:
            return WIN, None
        _, _, g = self.canonical(position)
        move, discard = (entry - 1) % 512, (entry - 1) // 512 - 1
        return WIN, self.map_move(move, discard, g, SYM_PREIMAGE)

    def canonical(self, position: Position) -> tuple[int, int, int]:
        """(hi, lo, map) of the position's least image under every map of the board."""
        hi, lo, g = table_key(np.array(position.cells, dtype=np.int64), position.mover,
                              position.other, self.sym, self.board.symmetries)
        return int(hi), int(lo), int(g)

    def map_move(self, move: int, discard: int, g: int, column: int) -> tuple[int, int]:
        """A (move, discard) through map ``g``: SYM_IMAGE into the key's frame,
        SYM_PREIMAGE back out of it."""
        dual = bool(self.sym[g, 0, SYM_DUAL])
        kind = (move & 255) >> 4
        if dual:
            kind = 11 - kind
            discard = 11 - discard if discard >= 0 else -1
        cell = int(self.sym[g, move & 15, column])
        return (move & INVERT) | kind << 4 | cell, discard

    def entry(self, position: Position, value: int, move: tuple[int, int] | None) -> int:
        """The book's (and the ledger's) entry for a settled position."""
        if value == LOSS:
            return 0
        if move is None:
            return WON
        _, _, g = self.canonical(position)
        canon_move, canon_discard = self.map_move(*move, g, SYM_IMAGE)
        return 1 + canon_move + 512 * (canon_discard + 1)

    def _settle(self, key: int, position: Position, value: int,
                move: tuple[int, int] | None, since: int) -> tuple[int, tuple[int, int] | None]:
        self.ledger.settle(key, self.entry(position, value, move),
                           int(self.stats[NODES]) - since)
        return value, move

    def _each(self, items: list[tuple[tuple[int, int], Position, int]]
              ) -> Iterator[tuple[int, tuple[int, int], Position, int]]:
        """(index, move, position, key) of each item, those the ledger settled first."""
        settled = [i for i in range(len(items)) if self.ledger.get(items[i][2]) is not None]
        for index in settled + [i for i in range(len(items)) if i not in settled]:
            yield index, *items[index]

    def _choose(self, position: Position, key: int, split: int,
                progress: Callable[[str], None] | None, path: str
                ) -> tuple[int, tuple[int, int] | None]:
        """(WIN and a winning (move, discard), or LOSS and None) for the seat to move."""
        known = self.known(position)
        if known is not None:
            return known
        since = int(self.stats[NODES])
        if split == 0:
            return self._settle(key, position, self.value(position).value, None, since)
        children: dict[int, tuple[tuple[int, int], Position, int]] = {}
        for move, discard in self.ordered_moves(position):
            child = position.after(move, discard)
            child_key = self.packed(child)
            children.setdefault(child_key, ((move, discard), child, child_key))  # images once
        items = list(children.values())
        for index, move_played, child, child_key in self._each(items):
            where = f"{path}move {index + 1}/{len(items)}"
            if not self._refuted(child, child_key, split, progress, where):
                return self._settle(key, position, WIN, move_played, since)
        return self._settle(key, position, LOSS, None, since)

    def _refuted(self, child: Position, key: int, split: int,
                 progress: Callable[[str], None] | None, path: str) -> bool:
        """Whether the opponent, to move in ``child``, wins."""
        known = self.known(child)
        if known is not None:
            return known[0] == WIN
        since = int(self.stats[NODES])
        items = []
        for reply, discard in self.ordered_moves(child):
            after = child.after(reply, discard)
            items.append(((reply, discard), after, self.packed(after)))
        for index, reply_played, after, after_key in self._each(items):
            start = time.perf_counter()
            nodes = int(self.stats[NODES])
            where = f"{path}, reply {index + 1}/{len(items)}"
            value, _ = self._choose(after, after_key, split - 1, progress, where + ": ")
            if progress is not None:
                progress(f"{where}: {'won' if value == WIN else 'LOST'} "
                         f"({int(self.stats[NODES]) - nodes:,} nodes, "
                         f"{time.perf_counter() - start:.1f} s)")
            if value == LOSS:
                self._settle(key, child, WIN, reply_played, since)
                return True
        self._settle(key, child, LOSS, None, since)
        return False

    def ordered_moves(self, position: Position) -> list[tuple[int, int]]:
        """``moves`` in the order the search tries them (fewest replies first)."""
        state, _ = initial_rows(position.cells, self.board, self.sym)
        cells = np.array(position.cells, dtype=np.int64)
        moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
        scores = np.zeros((MAX_PLY + 1, SCORE_COLUMNS), dtype=np.int64)
        discards = np.full((MAX_MOVES, NUM_KINDS), -1, dtype=np.int64)
        n = _ordered_at_root(state, cells, self.geo, position.mover, position.other, moves,
                             scores, self.settings, discards)
        found = []
        for index, move in enumerate(int(m) for m in moves[0, :n]):
            if move < INVERT:
                found.append((move, -1))
            else:
                found += [(move, int(d)) for d in discards[index] if d >= 0]
        return found

    def deepen(self, position: Position, step: int = 2) -> Result:
        """The value by iterative deepening: ply limits ``step``, ``2 * step``, ..."""
        total = Result(UNKNOWN, 0, 0, 0.0)
        for limit in range(step, MAX_PLY + step, step):
            total = total + self.value(position, min(limit, MAX_PLY))
            if total.value != UNKNOWN:
                break
        return total

    def moves(self, position: Position) -> list[tuple[int, int]]:
        """Every (abstract move, discard) of the seat to move; -1: no discard."""
        found = []
        for move in legal_moves(position, self.board):
            if move < INVERT:
                found.append((move, -1))
            else:
                kind = (move & 255) >> 4
                spare = position.mover & ~(1 << kind)
                found += [(move, d) for d in range(NUM_KINDS) if spare >> d & 1]
        return found

    def key(self, position: Position) -> tuple[int, int, int]:
        """(hi, lo, map): the position's table key as the search computes it."""
        empty = position.cells.count(0)
        nsym = self.board.symmetries if empty >= self.sym_from else 1
        hi, lo, g = table_key(np.array(position.cells, dtype=np.int64), position.mover,
                         position.other, self.sym, nsym)
        return int(hi), int(lo), int(g)

    def remembered(self, position: Position) -> tuple[int, int] | None:
        """(value, best move or -1) the table holds for the position, or None."""
        hi, lo, g = self.key(position)
        at = _probe(self.table.words, hi, lo)
        if at < 0:
            return None
        word = int(self.table.words[at])
        best = word >> 8
        move = int(_map_move_py(best - 1, self.sym, g, SYM_PREIMAGE)) if best else -1
        return word & 3, move

    def best_move(self, position: Position, budget: int = 0
                  ) -> tuple[int, tuple[int, int] | None]:
        """(value for the seat to move, a winning (move, discard) when it wins); the value
        is ABORTED when ``budget`` nodes did not settle it."""
        settled = self.known(position)
        if settled is not None and (settled[0] == LOSS or settled[1] is not None):
            return settled
        result = self.value(position, budget=budget)
        if result.value != WIN:
            return result.value, None
        known = self.remembered(position)
        candidates = self.ordered_moves(position)
        if known is not None and known[1] >= 0:
            candidates.sort(key=lambda pair: pair[0] != known[1])
        for move, discard in candidates:
            reply = self.value(position.after(move, discard), budget=budget).value
            if reply == ABORTED:
                return ABORTED, None
            if reply == LOSS:
                return WIN, (move, discard)
        raise AssertionError("a won position with no winning move")

    def winning_moves(self, position: Position, first: bool = False,
                      budget: int = 0) -> list[tuple[int, int]] | None:
        """The (move, discard) pairs after which the seat to move wins; with ``first``,
        only the first one found. None if ``budget`` nodes per search ran out."""
        winners = []
        for move, discard in self.moves(position):
            reply = self.value(position.after(move, discard), budget=budget).value
            if reply == ABORTED:
                return None
            if reply == LOSS:
                winners.append((move, discard))
                if first:
                    break
        return winners


def legal_moves(position: Position, shape: Board) -> list[int]:
    """The abstract moves (inversion groups once) of the seat to move, by the kernel."""
    state, _ = initial_rows(position.cells, shape, symmetry_table(board(shape.torus, 1)))
    moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
    n = _generate_at_root(state, position.mover, moves)
    return [int(m) for m in moves[0, :n]]


@njit
def _ordered_at_root(state, cells, geo, mover, other, moves, scores, settings, discards):
    """The moves of row 0 in the search's order, and each inversion's discards in the
    order the search tries them (``discards[i]``, -1 past the last)."""
    n = _generate(state, 0, mover, moves)
    _order(state, 0, cells, geo, mover, other, moves, scores, n, settings[S_FEATURES],
           settings[S_INVERSION_COST])
    _sort(moves, scores, 0, n)
    for i in range(n):
        move = moves[0, i]
        if move < INVERT:
            continue
        old = _land(state, 0, cells, geo, move)
        spare = mover & ~(1 << ((move & 255) >> 4))
        j = 0
        while spare:
            discard = _spare_first(state, 1, spare)
            spare ^= discard
            discards[i, j] = LOW_BIT[discard]
            j += 1
        cells[move & 15] = old
    return n


@njit
def _generate_at_root(state, hand, moves):
    return _generate(state, 0, hand, moves)


@njit
def table_key(cells, mover, other, sym, nsym):
    keys = np.zeros((1, 2), dtype=np.int64)
    for cell in range(16):
        keys[0, sym[0, cell, SYM_WORD]] ^= sym[0, cell, cells[cell]]
    return _canonical(keys, cells, sym, nsym, mover, other)


@njit
def _probe(table, hi, lo):
    return tt.probe(table, hi, lo)


@njit
def _map_move_py(move, sym, g, column):
    return _map_move(move, sym, g, column)
