"""Classic endgames by depth-first proof-number search (df-pn): the same exact value as
``classic``'s search, reached by a different order of work.

Classic's endgames are win/loss (no draws, C-12) with wide, uneven branching: a seat with
six cards has dozens of placements, and an inversion's discards multiply them. The
alpha-beta style search of ``classic`` tries the moves of a node in a fixed order and
finishes one subtree before the next; df-pn (Nagai 2002) instead keeps, for every node in
its table, how many leaves are still needed to prove it won (the proof number) and to
prove it lost (the disproof number), and always works below the child that looks
cheapest to settle, leaving it once its numbers pass a threshold. So a node with one
easy winning move is settled by that move even when the static order puts it last, and a
lost node whose replies each have one quick refutation is refuted reply by reply.

The numbers are kept for the seat to move (a negamax form): a node's proof number is the
least over its children of the child's number for the node's mover to win (the child's
disproof number when the child's mover is the other seat, its proof number when the
same seat moves again, as after a Repel or Polarize decision), its disproof number the
sum of the others. A child's threshold uses the 1 + epsilon trick (Pawlewicz and Lew
2007): it may run until its number passes a quarter more than the second-best sibling's,
which saves most of the switching between two close children. A child not yet searched
starts from the table's numbers if it is there, or from the exact static bound of
``classic`` (``_static``) when that settles it, else from 1 plus ``WEIGHT`` per open cell
its mover is behind (its proof number) or ahead (its disproof number) as the field
stands; those first numbers go into the table, so the node's next visit reads them
instead of bounding again. An inversion is listed once, with its spare card kept: more
cards never hurt in Classic, so if that child loses for the mover every discard does;
only when it wins is it replaced by one child per discard (a third of the children and a
tenth of the nodes at 10 empty cells; docs/ANALYSIS.md).

Near the end the proof numbers cost more than they save: a node costs 3-9 microseconds
here against about 0.4 in ``classic``'s alpha-beta kernel, and the thresholds make a deep
subtree be entered again and again. So a node with at most ``AB_CELLS`` empty cells that
the table does not hold yet is settled by that kernel (its own arrays and table; its nodes
count in this search's), and only when that takes more than ``AB_NODES`` of its nodes is
the node expanded as usual (and not tried by the kernel again). At 10 empty cells this
settles the bench's positions that the plain df-pn did not settle in 2 x 10^6 nodes
(docs/ANALYSIS.md).

The game is acyclic (every turn places a card or passes; a second pass in a row ends
the game, and with ``FORGET_PASS`` a dropped pass is always followed by a field the next
mover wins at once under ``PASS_WINS``), so no cycle handling is needed. A node's
children keep their numbers in arrays per ply while it is on the path; only the child
just searched is updated (a transposition's new numbers elsewhere are read again when the
node is next entered), which costs nothing in correctness: proven values never change.

The table is ``table.Table``'s array with its own data words: the proof and disproof
numbers packed in one word and the nodes the entry's searches took (for replacement) in
the other.
"""

from __future__ import annotations

from quarkade.games.card_commons.solve import table as tt
from quarkade.games.card_commons.solve.classic import (
    ETC_FROM,
    F_ABILITY,
    F_H0,
    F_H1,
    F_PASSED,
    F_PHASE,
    F_SAME,
    F_TO_MOVE,
    FEATURES,
    IN_TURN,
    INVERT,
    LEVELS_OF,
    MAX_PLY,
    PASS_MOVE,
    PROOF,
    S_ETC_FROM,
    S_FEATURES,
    SIDE_MASK,
    ClassicSolver,
    _count_settled,
    _derive,
    _forget_pass,
    _generate,
    _key,
    _order,
    _play,
    _search,
    _static,
    _unplay,
    _winner,
)
from quarkade.games.card_commons.solve.jit import inline, njit
from quarkade.games.card_commons.solve.jit import numpy as np
from quarkade.games.card_commons.solve.tutorial import (
    ABORTED,
    HITS,
    LOSS,
    LOW_BIT,
    NODES,
    POP16,
    WIN,
)

INF = (1 << 31) - 1  # a proof or disproof number that says the other value is proven
MAX_KIDS = 1024  # children of one node: moves, each inversion once per discard
# per-ply columns of the proof search: thresholds, the child being searched, children,
# the node's key, the table's work before this visit
D_TH_PN, D_TH_DN, D_CHILD, D_KIDS, D_HI, D_LO, D_BEFORE, D_WORK = range(8)
DFRAME = 8
WEIGHT = 2  # a child's first numbers: 1, plus this much per open cell it is behind
EPSILON_SHIFT = 2  # the 1 + epsilon trick with epsilon = 1 / 2 ** EPSILON_SHIFT
# the tuning array: the two above, the static order, children's first numbers kept, an
# inversion listed once with its card kept (each a switch, so the bench can compare)
# and the alpha-beta leaves' cells (0: none)
T_WEIGHT, T_EPSILON, T_ORDER, T_KEEP_KIDS, T_KEPT, T_AB_CELLS = range(6)
# the hybrid: a node with at most AB_CELLS empty cells that the table does not hold is
# settled by classic's alpha-beta kernel (its own table of 2 ** AB_BITS entries at most)
# when that takes at most AB_NODES of its nodes, else expanded as usual
AB_CELLS = 5
AB_NODES = 20_000
AB_BITS = 20


@inline
def _probe(words, hi, lo):
    """The data word's index for this key, or -1 (``table.probe``)."""
    return tt.probe(words, hi, lo)


@inline
def _store(words, hi, lo, pn, dn, work):
    """Keep the numbers for the key, in its own slot or the one whose searches took less."""
    at = tt.bucket(words, hi, lo)
    word = pn << 32 | dn
    if words[at] == hi and words[at + 1] == lo:
        words[at + 2] = word
        words[at + 3] = work
        return
    if words[at + 4] == hi and words[at + 5] == lo:
        words[at + 6] = word
        words[at + 7] = work
        return
    if words[at] != tt.EMPTY_KEY and (words[at + 4] == tt.EMPTY_KEY
                                      or words[at + 7] < words[at + 3]):
        at += 4
    words[at] = hi
    words[at + 1] = lo
    words[at + 2] = word
    words[at + 3] = work


@inline
def _add(a, b):
    total = a + b
    return INF if total >= INF else total


@inline
def _kid(cells, geo, frame, ply, move, discard, opener, sym, nsym, table, features, kids,
         kpn, kdn, ksame, k, stats, tuning):
    """Record child ``k`` of node ``ply`` (``move`` with ``discard``) and its first numbers,
    for the node's mover; returns True when the child proves the node won."""
    kids[ply, k] = move | (discard + 1) << 12
    ended = _play(cells, geo, frame, ply, move, discard, opener)
    ksame[ply, k] = frame[ply, F_SAME]
    if ended >= 0:
        kpn[ply, k], kdn[ply, k] = _numbers(ended)
        return ended == WIN
    up = ply + 1
    if frame[up, F_PHASE] == IN_TURN:
        _forget_pass(cells, frame, up, opener, features)  # keyed as the child will be
    hi, lo = _key(cells, frame, up, opener, sym, nsym)
    at = _probe(table, hi, lo)
    if at >= 0:
        pn = table[at] >> 32
        dn = table[at] & 0xFFFFFFFF
    else:
        pn = 1
        dn = 1
        settled = -1
        if frame[up, F_PHASE] == IN_TURN:
            settled = _static(cells, geo, frame, up, opener, features)
        if settled >= 0:
            _count_settled(stats, settled)
            pn, dn = _numbers(settled & 3)
        elif tuning[T_WEIGHT]:  # the side ahead in open cells as it stands likelier wins
            occ = 0
            for cell in range(16):
                if cells[cell]:
                    occ |= 1 << cell
            mover = frame[up, F_TO_MOVE]
            lead = int(POP16[occ & SIDE_MASK[1 - mover]]) - int(POP16[occ & SIDE_MASK[mover]])
            if lead == 0:
                lead = 1 if _winner(cells, opener) == mover else -1
            if lead > 0:
                dn += tuning[T_WEIGHT] * lead
            else:
                pn -= tuning[T_WEIGHT] * lead
        if settled >= 0 or tuning[T_KEEP_KIDS]:
            # kept, so the node's next expansion reads it instead of bounding again
            _store(table, hi, lo, pn, dn, 0)
    _unplay(cells, frame, ply)
    if frame[ply, F_SAME]:
        kpn[ply, k] = pn
        kdn[ply, k] = dn
    else:
        kpn[ply, k] = dn
        kdn[ply, k] = pn
    return kpn[ply, k] == 0


@inline
def _numbers(value):
    """The proof and disproof numbers of a settled node: 0 and INF if won for its mover."""
    return (0, INF) if value == WIN else (INF, 0)


@inline
def _leaf(cells, opener, frame, ply, geo, sym, nsym, ab, stats, stop):
    """The alpha-beta kernel's value of node ``ply`` (its own arrays and table; its nodes
    count in ``stats``), or -1 past its budget or the search's."""
    (ab_cells, ab_settings, ab_table, ab_state, ab_moves, ab_scores, ab_frame, ab_history,
     ab_stats, ab_budget) = ab
    budget = ab_budget[0]
    if stop >= 0:
        budget = min(budget, stop - stats[NODES] - 1)
    if budget <= 0:
        return -1
    for cell in range(16):
        ab_cells[cell] = cells[cell]
    for column in (F_H0, F_H1, F_TO_MOVE, F_PASSED, F_PHASE, F_ABILITY):
        ab_frame[0, column] = frame[ply, column]
    before = ab_stats[NODES]
    value = _search(ab_cells, opener, before + budget, geo, sym, nsym, ab_settings, ab_table,
                    ab_state, ab_moves, ab_scores, ab_frame, ab_history, ab_stats)
    stats[NODES] += ab_stats[NODES] - before
    return -1 if value == ABORTED else value


@njit
def _root_static(cells, geo, frame, opener, features):
    """``classic._static`` for frame 0, called (not inlined: once a search)."""
    return _static(cells, geo, frame, 0, opener, features)


@njit
def _prove(cells, opener, stop, geo, sym, nsym, features, table, state, moves, scores,
           frame, history, stats, dframe, kids, kpn, kdn, ksame, tuning, ab):
    """WIN or LOSS for the seat to move in frame 0 (ABORTED past ``stop`` nodes)."""
    ply = 0
    dframe[0, D_TH_PN] = INF
    dframe[0, D_TH_DN] = INF
    entering = True
    pn = 0
    dn = 0
    while True:
        if entering:
            entering = False
            stats[NODES] += 1
            if stop >= 0 and stats[NODES] >= stop:
                return ABORTED
            settled = -1
            if frame[ply, F_PHASE] == IN_TURN:
                _forget_pass(cells, frame, ply, opener, features)
                if ply == 0:  # a child's bound was tried when its parent listed it
                    settled = _root_static(cells, geo, frame, opener, features)
            if settled >= 0:
                _count_settled(stats, settled)
                pn, dn = _numbers(settled & 3)
            else:
                hi, lo = _key(cells, frame, ply, opener, sym, nsym)
                dframe[ply, D_HI] = hi
                dframe[ply, D_LO] = lo
                dframe[ply, D_BEFORE] = stats[NODES]
                dframe[ply, D_WORK] = 0
                at = _probe(table, hi, lo)
                known = False
                if at >= 0:
                    pn = table[at] >> 32
                    dn = table[at] & 0xFFFFFFFF
                    dframe[ply, D_WORK] = table[at + 1]
                    if pn >= dframe[ply, D_TH_PN] or dn >= dframe[ply, D_TH_DN]:
                        stats[HITS] += 1
                        known = True
                if not known and tuning[T_AB_CELLS] and (at < 0 or table[at + 1] == 0):
                    empty = 0
                    for cell in range(16):
                        if cells[cell] == 0:
                            empty += 1
                    if empty <= tuning[T_AB_CELLS]:
                        value = _leaf(cells, opener, frame, ply, geo, sym, nsym, ab, stats,
                                      stop)
                        if value >= 0:
                            pn, dn = _numbers(value)
                            _store(table, hi, lo, pn, dn, 1)
                            known = True
                if not known:
                    _derive(cells, geo, state, ply)
                    mover = frame[ply, F_TO_MOVE]
                    hand = frame[ply, F_H0 + mover]
                    n = _generate(cells, geo, state, ply, hand, frame[ply, F_PHASE],
                                  frame[ply, F_ABILITY], moves)
                    if tuning[T_ORDER]:
                        _order(moves, scores, ply, n, mover, history, features, False,
                               state, geo, LEVELS_OF[frame[ply, F_H1 - mover]], -1)
                    k = 0
                    i = 0
                    spare = 0
                    move = 0
                    while True:  # each move, an inversion once per discard
                        if spare:
                            discard = LOW_BIT[spare]
                            spare &= spare - 1
                        elif i < n:
                            move = moves[ply, i]
                            i += 1
                            discard = -1
                            if INVERT <= move < PASS_MOVE and not tuning[T_KEPT]:
                                spare = hand & ~(1 << ((move & 255) >> 4))
                                discard = LOW_BIT[spare]
                                spare &= spare - 1
                        else:
                            break
                        won = _kid(cells, geo, frame, ply, move, discard, opener, sym, nsym,
                                   table, features, kids, kpn, kdn, ksame, k, stats,
                                   tuning)
                        k += 1
                        if won and (discard >= 0 or not INVERT <= move < PASS_MOVE):
                            break  # (a kept inversion that wins is no proof yet: below)
                    dframe[ply, D_KIDS] = k
                    pn = -1  # to be read from the children below
        # select: the node's numbers from its children, and the child to search next
        if pn < 0 and tuning[T_KEPT]:
            # an inversion with its card kept that wins for the mover stands for its
            # discards no longer: it becomes one child per discard (one that loses kept
            # stands for all of them: more cards never hurt)
            k = dframe[ply, D_KIDS]
            hand = frame[ply, F_H0 + frame[ply, F_TO_MOVE]]
            i = 0
            won = False
            while i < k and not won:
                move = kids[ply, i]
                if kpn[ply, i] == 0 and move < PASS_MOVE and move >= INVERT:
                    spare = hand & ~(1 << ((move & 255) >> 4))
                    slot = i
                    while spare and not won:
                        discard = LOW_BIT[spare]
                        spare &= spare - 1
                        won = _kid(cells, geo, frame, ply, move, discard, opener, sym,
                                   nsym, table, features, kids, kpn, kdn, ksame, slot,
                                   stats, tuning)
                        if slot == i:
                            slot = k
                        else:
                            slot += 1
                    k = max(k, slot) if slot != i else k
                i += 1
            dframe[ply, D_KIDS] = k
        if pn < 0:
            k = dframe[ply, D_KIDS]
            pn = INF
            dn = 0
            best = -1
            second = INF
            for i in range(k):
                cpn = kpn[ply, i]
                if cpn < pn:
                    second = pn
                    pn = cpn
                    best = i
                elif cpn < second:
                    second = cpn
                dn = _add(dn, kdn[ply, i])
            if pn < dframe[ply, D_TH_PN] and dn < dframe[ply, D_TH_DN]:
                # search the best child within its thresholds (for the node's mover)
                grow = second + (second >> tuning[T_EPSILON]) + 1
                th_pn = min(dframe[ply, D_TH_PN], grow if second < INF else INF)
                th_dn = dframe[ply, D_TH_DN] - dn + kdn[ply, best]
                if th_dn > INF:
                    th_dn = INF
                dframe[ply, D_CHILD] = best
                move = kids[ply, best]
                _play(cells, geo, frame, ply, move & 0xFFF, (move >> 12) - 1, opener)
                up = ply + 1
                if ksame[ply, best]:
                    dframe[up, D_TH_PN] = th_pn
                    dframe[up, D_TH_DN] = th_dn
                else:
                    dframe[up, D_TH_PN] = th_dn
                    dframe[up, D_TH_DN] = th_pn
                ply = up
                entering = True
                pn = 0
                continue
            work = dframe[ply, D_WORK] + stats[NODES] - dframe[ply, D_BEFORE] + 1
            _store(table, dframe[ply, D_HI], dframe[ply, D_LO], pn, dn, work)
            if pn == 0:
                move = kids[ply, best]
                history[frame[ply, F_TO_MOVE], move & 0x3FF] += 1
        # return (pn, dn) to the parent
        if ply == 0:
            return WIN if pn == 0 else LOSS if dn == 0 else ABORTED
        ply -= 1
        _unplay(cells, frame, ply)
        best = dframe[ply, D_CHILD]
        if ksame[ply, best]:
            kpn[ply, best] = pn
            kdn[ply, best] = dn
        else:
            kpn[ply, best] = dn
            kdn[ply, best] = pn
        pn = -1


class ProofSearch:
    """The df-pn search's arrays beside a ``classic.ClassicSolver`` (its table, history,
    frames and stats are shared)."""

    def __init__(self, weight: int = WEIGHT, epsilon_shift: int = EPSILON_SHIFT,
                 order: bool = True, keep_kids: bool = True, kept: bool = True,
                 ab_cells: int = AB_CELLS, ab_nodes: int = AB_NODES,
                 ab_bits: int = AB_BITS) -> None:
        self.tuning = np.array([weight, epsilon_shift, int(order), int(keep_kids),
                                int(kept), ab_cells], dtype=np.int64)
        # the leaves' kernel works in an alpha-beta solver's own arrays and table (its
        # settings are the df-pn solver's, without PROOF, set in run)
        kernel = ClassicSolver(table_bits=ab_bits)
        self.ab_settings = kernel.settings
        self.ab_table = kernel.table
        self.ab_stats = kernel.stats
        self.ab_budget = np.array([ab_nodes], dtype=np.int64)
        self.ab_history = kernel.history
        self.ab = (np.zeros(16, dtype=np.int64), kernel.settings, kernel.table.words,
                   kernel._state, kernel._moves, kernel._scores, kernel._frame,
                   kernel.history, kernel.stats, self.ab_budget)
        self.dframe = np.zeros((MAX_PLY + 2, DFRAME), dtype=np.int64)
        self.kids = np.zeros((MAX_PLY + 1, MAX_KIDS), dtype=np.int64)
        self.kpn = np.zeros((MAX_PLY + 1, MAX_KIDS), dtype=np.int64)
        self.kdn = np.zeros((MAX_PLY + 1, MAX_KIDS), dtype=np.int64)
        self.ksame = np.zeros((MAX_PLY + 1, MAX_KIDS), dtype=np.int64)

    def clear(self) -> None:
        """Forget the alpha-beta leaves' positions and history."""
        self.ab_table.clear()
        self.ab_history.fill(0)

    def run(self, solver: ClassicSolver, cells: np.ndarray, opener: int, stop: int) -> int:
        """WIN or LOSS for the seat to move in the solver's frame 0 (ABORTED past
        ``stop`` nodes, -1: no limit; the alpha-beta leaves' nodes count too)."""
        self.ab_settings[S_FEATURES] = solver.settings[S_FEATURES] & ~PROOF
        self.ab_settings[S_ETC_FROM] = solver.settings[S_ETC_FROM]
        return int(_prove(cells, opener, stop, solver.geo, solver.sym, len(solver.sym),
                          int(solver.settings[S_FEATURES]), solver.table.words, solver._state,
                          solver._moves, solver._scores, solver._frame, solver.history,
                          solver.stats, self.dframe, self.kids, self.kpn, self.kdn,
                          self.ksame, self.tuning, self.ab))


class ProofSolver(ClassicSolver):
    """``classic.ClassicSolver`` searching by df-pn: the same values, table and moves
    (``ab_cells``: the alpha-beta leaves' empty cells, 0 for none)."""

    def __init__(self, torus: bool = False, table_bits: int = 20,
                 features: int = FEATURES | PROOF, etc_from: int = ETC_FROM,
                 ab_cells: int = AB_CELLS) -> None:
        super().__init__(torus, table_bits, features | PROOF, etc_from)
        self.proof = ProofSearch(ab_cells=ab_cells, ab_bits=min(AB_BITS, table_bits))

    def clear(self) -> None:
        super().clear()
        self.proof.clear()

    def _value(self, cells: np.ndarray, opener: int, stop: int) -> int:
        return self.proof.run(self, cells, opener, stop)


def solver(torus: bool = False, table_bits: int = 20, features: int = FEATURES,
           etc_from: int = ETC_FROM) -> ClassicSolver:
    """A Classic solver for ``features`` (``classic.SEARCHES``): df-pn where they hold
    ``PROOF``, else the alpha-beta search."""
    kind = ProofSolver if features & PROOF else ClassicSolver
    return kind(torus, table_bits, features, etc_from)


__all__ = ["INF", "ProofSearch", "ProofSolver", "solver"]
