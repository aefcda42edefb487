"""Exact Classic endgames by a compiled search: the value of a position with few empty cells.

Classic (abilities, the pass, three-step scoring; RULINGS C-1..C-16) is a win/loss game
too: no chance after the coin and no draw (C-12). It is far larger than the Tutorial game
(the pass keeps a game going while a seat holds cards, and Repel moves cards), so it is not
solved from the opening; this module searches positions near the end exactly, as the
``hard`` level's endgame (``ENDGAME_CELLS``) and ``quarkade solve`` measure it.

The position
    Per cell a code: 0 empty, ``1 + kind`` one face-up card, ``13 + kind`` a stack topped
    face up, 25 one face-down card, 26 a stack topped face down (the card under a top and
    the face-down card's identity never matter again: C-5, C-9, C-16). Then each seat's hand
    as a set of kinds, the seat to move, the opener (the last tie-break), whether the last
    turn was a pass (C-11), and a pending Repel or Polarize decision with its cell (C-6).
    Sides are fixed rows (C-2); the mirror and the flip that swaps the sides (and the
    seats) keep every rule (``symmetries``), but keying the table by them is off by
    default (``SYMMETRY``): a search from one position almost never meets its image.

Search
    The same explicit-stack win/loss search as the Tutorial's (``tutorial``), with the
    Classic moves: channels (with Tunnel and Anchor, C-7, C-8), inversions, the pass, and
    the Repel/Polarize decision, which belongs to the same seat (a child with the same
    mover passes its value up unchanged). A pass right after a pass ends the game and is
    scored at once. The cuts are bits of ``features`` (``FEATURES`` the defaults;
    docs/ANALYSIS.md, "Classic endgames", measures each): after a pass a field that wins
    for the mover wins at once; a static bound on how many open cells the hands left can
    still take, counting only the cells the Law can still let that hand fill (``LAW``:
    neighbours that bar every level it holds and that it can neither invert, turn face
    down nor slide away) and each card only where its level may go (``MATCHING``); a pass
    the mover cannot use (its field loses) left out of the key, so the position meets its
    transpositions without it (``FORGET_PASS``); a lead the bound leaves exactly tied,
    settled by the tie-break (stacks, then the opener) when the seat acting alone cannot
    turn it with the inversions a tie leaves it room for and its 3s' slides (``TIE``);
    each discard of an inversion its own child (else the old exact rule: more cards in
    hand never hurt in Classic, scoring reads only the field, so when keeping the discard
    still loses every discard does); a child the
    table knows lost, or the static bound settles lost, settles its parent; moves ordered
    cards onto the opponent's side first, then the pass, the rest, and within that by the
    history and killer heuristics.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from quarkade.games.card_commons.notation import (
    DECLINE,
    PASS,
    POLARIZE_BASE,
    REPEL_BASE,
    invert_action,
    place_action,
)
from quarkade.games.card_commons.rules import (
    CORNERS,
    GEOMETRIES,
    POLARIZE,
    REPEL,
    TURN,
    CardCommonsState,
)
from quarkade.games.card_commons.solve import table as tt
from quarkade.games.card_commons.solve.jit import inline, njit
from quarkade.games.card_commons.solve.jit import numpy as np
from quarkade.games.card_commons.solve.tutorial import (
    ABORTED,
    ALL_LEVELS,
    HITS,
    LEVEL,
    LOSS,
    LOW_BIT,
    NODES,
    POP16,
    WIN,
)

NUM_CELLS = 16
NUM_KINDS = 12
SINGLE, STACK, DOWN, DOWN_STACK = 1, 13, 25, 26
NUM_CODES = 27
MAX_PLY = 80  # a card is at most a placement, its Repel or Polarize and a pass: 3 x 23
MAX_MOVES = 240
# abstract moves
INVERT = 256
PASS_MOVE, REPEL_MOVE, POLARIZE_MOVE, DECLINE_MOVE = 512, 600, 700, 800
# phases (the engine's numbers differ; see position_of)
IN_TURN, IN_REPEL, IN_POLARIZE = 0, 1, 2
ENDGAME_CELLS = 8  # the hard level's endgame: exact from this many empty cells
# search features (settings[S_FEATURES]); FEATURES is the default, the bench turns them off
PASS_WINS = 1  # after a pass, a field that wins for the mover wins at once (no move tried)
BOUND = 2  # the static bound: a lead in open cells no card left in a hand can undo
SYMMETRY = 4  # the table is keyed by the least image under the field's four maps
ETC = 8  # a child the table already knows lost settles its parent without a visit
HISTORY = 16  # within the static order, moves that won elsewhere first (history heuristic)
PASS_FIRST = 32  # a mover whose field wins as it stands tries the pass first
DISCARDS = 64  # each discard of an inversion is a child (else: the kept card first)
MOBILITY = 128  # within each class, cards that leave the opponent fewest places on the
# mover's side first
SPARE_FIRST = 256  # an inversion's discards: the card with the fewest places first
KILLER = 512  # the move that last won at this depth first (killer heuristic)
LAW = 1024  # the static bound counts only the open cells the Law can still let a hand fill
FORGET_PASS = 2048  # a pass the mover cannot use (its field loses) is dropped from the key
STATIC_CHILD = 4096  # with ETC, a child the static bound settles lost also settles its parent
MATCHING = 8192  # with LAW, each card fills only a cell its level may go to (a matching)
PROOF = 16384  # df-pn (``proof``) instead of this module's search; the same value
TIE = 32768  # with BOUND: open cells that can at best tie, and a tie-break one seat alone
# cannot turn
FEATURES = (PASS_WINS | BOUND | ETC | HISTORY | DISCARDS | KILLER | LAW | MATCHING
            | FORGET_PASS | STATIC_CHILD | TIE)
# the two searches by name, for the bench and the cross-checks
SEARCHES = {"default": FEATURES, "alpha-beta": FEATURES & ~PROOF,
            "df-pn": FEATURES | PROOF}
S_FEATURES, S_ETC_FROM = range(2)
SETTINGS = 2
ETC_FROM = 6  # the fewest empty cells at which a node looks its children up first


def _allowed_next_to(code: int) -> int:
    if code == 0 or code >= DOWN:
        return ALL_LEVELS
    kind = (code - 1) % NUM_KINDS
    lv = kind % 6 + 1
    if kind < 6:
        return sum(1 << v for v in range(lv + 1, 7))
    return sum(1 << v for v in range(1, lv))


OK_LEVELS = np.array([_allowed_next_to(c) for c in range(NUM_CODES)], dtype=np.int64)
OPPOSITE = np.array([(k + 6) % 12 for k in range(NUM_KINDS)], dtype=np.int64)

# geometry columns
(G_N0, G_N1, G_N2, G_N3, G_COUNT, G_ORTH, G_DIAG, G_R0, G_R1, G_R2, G_R3, G_B0, G_B1,
 G_B2, G_B3, G_REPELS, G_A0, G_A1, G_A2, G_A3) = range(20)
GEO_COLUMNS = 20


def geometry(torus: bool) -> np.ndarray:
    """The reference engine's neighbour tables (``rules.Geometry``) as one array."""
    geo = GEOMETRIES[torus]
    table = np.full((NUM_CELLS, GEO_COLUMNS), -1, dtype=np.int64)
    for cell in range(NUM_CELLS):
        orth = geo.orth[cell]
        table[cell, :len(orth)] = orth
        table[cell, G_COUNT] = len(orth)
        table[cell, G_ORTH] = geo.orth_mask[cell]
        table[cell, G_DIAG] = geo.diag_mask[cell]
        pairs = geo.repel_pairs[cell]
        for j, (n, beyond) in enumerate(pairs):
            table[cell, G_R0 + j] = n
            table[cell, G_B0 + j] = beyond
        table[cell, G_REPELS] = len(pairs)
        for j, group in enumerate(geo.anchor_pairs[cell]):
            for i, n in enumerate(group):
                table[cell, G_A0 + 2 * j + i] = n
    return table


def symmetries(torus: bool) -> list[tuple[tuple[int, ...], int]]:
    """The maps of the field that keep every rule (the neighbours, Tunnel's diagonals,
    Repel's lines, Anchor's corners and groups) and the two sides, identity first: each a
    permutation of the cells and 1 if it swaps the sides (the seats swap with them: hands,
    the seat to move, the opener; C-12 scores both sides alike). On either field they are
    the left-right mirror, the top-bottom flip and both (the torus's shifts move the
    corners, which Anchor tells apart; ``test_solve.py`` checks the maps against
    ``rules.GEOMETRIES``)."""
    return [(tuple((3 - cell // 4 if flip_rows else cell // 4) * 4
                   + (3 - cell % 4 if flip_cols else cell % 4) for cell in range(NUM_CELLS)),
             flip_rows) for flip_rows in (0, 1) for flip_cols in (0, 1)]


# per-node row: occupied, next to a card orthogonally, diagonally, the Law per level, the
# single face-up cards per kind, the corners open to an Anchor, stacks
R_OCC, R_NEAR, R_DIAG = 0, 1, 2
R_LAW = 2  # + level 1-6: 3-8
R_SINGLES = 9  # + kind: 9-20
R_ANCHORS, R_STACKS = 21, 22
ROW = 23

CORNER_CELLS = np.array(CORNERS, dtype=np.int64)


@inline
def _derive(cells, geo, state, ply):
    """Fill row ``ply`` of ``state`` from the field."""
    occ = 0
    near = 0
    diag = 0
    stacks = 0
    for i in range(R_LAW + 1, ROW):
        state[ply, i] = 0
    for cell in range(16):
        code = cells[cell]
        allowed = ALL_LEVELS
        for j in range(geo[cell, G_COUNT]):
            allowed &= OK_LEVELS[cells[geo[cell, j]]]
        for lv in range(1, 7):
            if allowed >> lv & 1:
                state[ply, R_LAW + lv] |= 1 << cell
        if code:
            occ |= 1 << cell
            near |= geo[cell, G_ORTH]
            diag |= geo[cell, G_DIAG]
            if code >= STACK and code != DOWN:
                stacks |= 1 << cell
            if code < STACK:
                state[ply, R_SINGLES + code - 1] |= 1 << cell
    anchors = 0
    for i in range(4):
        corner = CORNER_CELLS[i]
        ok = True
        for group in range(2):
            first = geo[corner, G_A0 + 2 * group]
            if first < 0:
                continue
            second = geo[corner, G_A0 + 2 * group + 1]
            either = OK_LEVELS[cells[first]]
            if second >= 0:
                either |= OK_LEVELS[cells[second]]
            if not either >> 4 & 1:
                ok = False
        if ok:
            anchors |= 1 << corner
    state[ply, R_OCC] = occ
    state[ply, R_NEAR] = near
    state[ply, R_DIAG] = diag
    state[ply, R_ANCHORS] = anchors
    state[ply, R_STACKS] = stacks


@inline
def _generate(cells, geo, state, ply, hand, phase, ability, moves):
    """The moves of the seat to move into ``moves[ply]``; returns how many."""
    n = 0
    if phase == IN_REPEL:
        for j in range(geo[ability, G_REPELS]):
            source = geo[ability, G_R0 + j]
            if cells[source] and not cells[geo[ability, G_B0 + j]]:
                moves[ply, n] = REPEL_MOVE + source
                n += 1
        moves[ply, n] = DECLINE_MOVE
        return n + 1
    if phase == IN_POLARIZE:
        for j in range(geo[ability, G_COUNT]):
            target = geo[ability, j]
            if 1 <= cells[target] < DOWN:
                moves[ply, n] = POLARIZE_MOVE + target
                n += 1
        moves[ply, n] = POLARIZE_MOVE + ability
        moves[ply, n + 1] = DECLINE_MOVE
        return n + 2
    occ = state[ply, R_OCC]
    free = state[ply, R_NEAR] & ~occ
    can_invert = hand & (hand - 1)
    anchors = state[ply, R_ANCHORS]
    rest = hand
    while rest:
        kind = LOW_BIT[rest]
        rest &= rest - 1
        lv = LEVEL[kind]
        law = state[ply, R_LAW + lv]
        targets = free & law
        if lv == 2:  # Tunnel (C-7)
            targets |= state[ply, R_DIAG] & ~occ & law
        elif lv == 4:  # Anchor (C-8)
            targets |= free & anchors
        base = kind << 4
        while targets:
            moves[ply, n] = base | LOW_BIT[targets]
            n += 1
            targets &= targets - 1
        if can_invert:
            allowed = law | (anchors if lv == 4 else 0)
            targets = state[ply, R_SINGLES + OPPOSITE[kind]] & allowed
            while targets:
                moves[ply, n] = INVERT | base | LOW_BIT[targets]
                n += 1
                targets &= targets - 1
    moves[ply, n] = PASS_MOVE
    return n + 1


@inline
def _forget_pass(cells, frame, ply, opener, features):
    """FORGET_PASS: a pass by the other seat counts no more when the seat to move's own
    pass would end a lost game (and after any other move it is gone): the same position
    as without it, keyed as such."""
    if (features & FORGET_PASS and frame[ply, F_PASSED]
            and _winner(cells, opener) != frame[ply, F_TO_MOVE]):
        frame[ply, F_PASSED] = 0


@inline
def _count_settled(stats, settled):
    """Count a node ``_static`` settled under the bound that did it."""
    stats[TIED if settled >= 12 else LAW_BOUNDED if settled >= 8 else BOUNDED if settled >= 4
          else PASSES_WON] += 1


@inline
def _winner(cells, opener):
    """The seat that wins a finished game on this field (C-12)."""
    occ = 0
    stacks = 0
    for cell in range(16):
        if cells[cell]:
            occ |= 1 << cell
            if cells[cell] >= STACK and cells[cell] != DOWN:
                stacks |= 1 << cell
    open0 = 8 - POP16[occ & 0xFF00]
    open1 = 8 - POP16[occ & 0x00FF]
    if open0 != open1:
        return 0 if open0 > open1 else 1
    cards0 = POP16[occ & 0xFF00] + POP16[stacks & 0xFF00]
    cards1 = POP16[occ & 0x00FF] + POP16[stacks & 0x00FF]
    if cards0 != cards1:
        return 0 if cards0 < cards1 else 1
    return opener


# frame columns
(F_H0, F_H1, F_TO_MOVE, F_PASSED, F_PHASE, F_ABILITY, F_COUNT, F_NEXT, F_HI, F_LO,
 F_BEFORE, F_RESULT, F_SPARE, F_WAIT, F_CELL1, F_CODE1, F_CELL2, F_CODE2,
 F_SAME, F_KILLER) = range(20)
FRAME = 20
CHANNEL, KEPT, DISCARD = 0, 1, 2
ENTER, NEXT_MOVE = -1, -2
# stats beyond NODES and HITS: nodes settled by a pass that wins, by the static bound, by
# a child the table knew lost, by the Law's bound (``LAW``) where the count's did not,
# and by the tie-break where the open cells can at best tie (``TIE``)
PASSES_WON, BOUNDED, KNOWN_LOST, LAW_BOUNDED, TIED = 2, 3, 4, 5, 6
STATS = 7
# a symmetry map: the image of each cell, then 1 if it swaps the sides (and so the seats)
SYM_SWAP = 16
SYM_COLUMNS = 17
SIDE_MASK = np.array([0xFF00, 0x00FF], dtype=np.int64)
THREES = 1 << 2 | 1 << 8  # the two kinds of level 3 (Repel)
FIVES = 1 << 4 | 1 << 10  # the two kinds of level 5 (Polarize)
FOURS = 1 << 4  # level 4's bit in a set of levels (Anchor)
CORNER_MASK = sum(1 << cell for cell in CORNERS)
LEVEL_KINDS = np.array([sum(1 << k for k in range(NUM_KINDS) if levels >> (k % 6 + 1) & 1)
                        for levels in range(128)], dtype=np.int64)  # the kinds of a level set
HISTORY_SIZE = 1024  # move ids: placements and inversions < 512, the rest < 820
SCRATCH = MAX_MOVES  # the score rows' last 16 columns: the levels the Law allows per cell
# the levels held in a hand, one bit each (a set: both colours of a level are one bit)
LEVELS_OF = np.array([sum({1 << (k % 6 + 1) for k in range(NUM_KINDS) if hand >> k & 1})
                      for hand in range(1 << NUM_KINDS)], dtype=np.int64)


@inline
def _key_under(cells, frame, ply, opener, sym, g):
    """The packed key of node ``ply``'s position under symmetry map ``g``."""
    swap = sym[g, SYM_SWAP]
    lo = 0
    hi = 0
    for cell in range(16):
        image = sym[g, cell]
        if image < 12:
            lo |= cells[cell] << (5 * image)
        else:
            hi |= cells[cell] << (5 * (image - 12))
    ability = frame[ply, F_ABILITY]
    ability = sym[g, ability] if ability >= 0 else 15
    hi |= (frame[ply, F_H0 + swap] << 20 | frame[ply, F_H1 - swap] << 32
           | (frame[ply, F_TO_MOVE] ^ swap) << 44 | (opener ^ swap) << 45
           | frame[ply, F_PASSED] << 46 | frame[ply, F_PHASE] << 47 | ability << 49)
    return hi, lo


@inline
def _key(cells, frame, ply, opener, sym, nsym):
    """The least key of node ``ply``'s position under the first ``nsym`` maps."""
    best_hi, best_lo = _key_under(cells, frame, ply, opener, sym, 0)
    for g in range(1, nsym):
        hi, lo = _key_under(cells, frame, ply, opener, sym, g)
        if hi < best_hi or (hi == best_hi and lo < best_lo):
            best_hi = hi
            best_lo = lo
    return best_hi, best_lo


@inline
def _damage(open_cells, hand):
    """The most a seat holding ``hand`` can take from the other seat's lead in open cells
    when the other side has ``open_cells`` open: 1 for a card placed there, 2 more for a
    Repel that slides a card across onto it (a slide the other way only gives back)."""
    slides = min(int(POP16[hand & THREES]), open_cells)
    return 2 * slides + min(int(POP16[hand]), open_cells - slides)


@inline
def _reach(cells, geo, occ, hand, side, matching):
    """How many open cells of ``side`` (a mask) a seat holding ``hand`` could still fill
    by placing cards if it alone moved (the other seat passing for ever). An open cell is
    out when every level in the hand is barred there by a neighbour that must stay as it
    is: face up, and the hand can neither invert it (C-16), nor turn it face down (a 5
    placed beside it, which needs the neighbour to let a 5 beside it, and a cell for the 5:
    another open cell beside it, a lone face-up 5 to invert, a cell a 3 could empty; C-9),
    nor slide it away (a 3 placed beside it, likewise, onto another open cell beside it;
    C-10; with both 3s slides chain, so any neighbour that lets a 3 or 5 beside it may
    move). Cards placed later only bar more; Tunnel changes no Law; a corner never bars a
    4 (Anchor, C-8). At most the hand's size; with ``matching``, at most the most cells its
    cards can fill each with a card whose level may go there."""
    threes = int(POP16[hand & THREES])
    masks = 0
    levels = LEVELS_OF[hand]
    five = hand & FIVES
    can_invert = POP16[hand] >= 2
    count = 0
    rest = side & ~occ
    while rest:
        cell = LOW_BIT[rest]
        rest &= rest - 1
        allowed = levels
        for j in range(geo[cell, G_COUNT]):
            n = geo[cell, j]
            code = cells[n]
            if code == 0 or code >= DOWN:
                continue
            if can_invert and code < STACK and hand >> OPPOSITE[code - 1] & 1:
                continue  # the hand can invert it
            beside = OK_LEVELS[code]
            slides = threes and beside >> 3 & 1
            turns = five and beside >> 5 & 1
            if slides or turns:
                others = geo[n, G_ORTH] & ~(1 << cell)
                if threes >= 2 or others & ~occ:
                    continue  # a slide away, or a 5 placed beside it
                if turns:
                    moves = False
                    spots = others
                    while spots:
                        spot = LOW_BIT[spots]
                        spots &= spots - 1
                        held = cells[spot]
                        if held < STACK and (held - 1) % 6 == 4:
                            moves = True  # a lone face-up 5 beside it, to invert
                        if threes and geo[spot, G_ORTH] & ~occ:
                            moves = True  # the 3 may empty a cell beside it for a 5
                    if moves:
                        continue
            allowed &= beside
        if CORNER_MASK >> cell & 1:
            allowed |= levels & FOURS
        if allowed:
            if matching:
                masks |= allowed << 7 * count
            count += 1
    if not matching or count == 0:
        return min(count, int(POP16[hand]))
    # the most cells its cards can fill, one card a cell and each where its level may go:
    # the least cut, over the sets of levels whose cards are all spent (Konig)
    best = count
    for paid in range(0, 128, 2):
        if paid & ~levels:
            continue
        cost = int(POP16[hand & LEVEL_KINDS[paid]])
        rest = masks
        for _ in range(count):
            if rest & 127 & ~paid:
                cost += 1
            rest >>= 7
        best = min(best, cost)
    return best


@inline
def _law_damage(cells, geo, occ, hand, side, matching):
    """``_damage`` with only the cells ``_reach`` leaves in (each slide still counts 2)."""
    open_cells = 8 - int(POP16[occ & side])
    slides = min(int(POP16[hand & THREES]), open_cells)
    reach = _reach(cells, geo, occ, hand, side, matching)
    return 2 * slides + min(reach, open_cells - slides)


@inline
def _static(cells, geo, frame, ply, opener, features):
    """WIN or LOSS for the mover of a turn when it is settled without a move, else -1:
    after a pass, a field that wins for the mover (it passes too); a lead in open cells
    that the opponent's whole hand cannot undo (the mover passes for ever) or that the
    mover's whole hand cannot make up (the opponent does). With ``LAW`` the hands' reach
    is the open cells the Law can still let them fill (``_reach``). With ``TIE`` a lead
    those bounds leave exactly tied is settled by the tie-break when the acting seat
    cannot turn it (``_tie_shift``): the open cells end tied at best for the acting seat,
    and a tie goes the tie-break's way."""
    mover = frame[ply, F_TO_MOVE]
    if features & PASS_WINS and frame[ply, F_PASSED] and _winner(cells, opener) == mover:
        return WIN
    if features & (BOUND | LAW):
        occ = 0
        for cell in range(16):
            if cells[cell]:
                occ |= 1 << cell
        mine = 8 - int(POP16[occ & SIDE_MASK[mover]])
        theirs = 8 - int(POP16[occ & SIDE_MASK[1 - mover]])
        lead = mine - theirs
        if lead > _damage(mine, frame[ply, F_H0 + 1 - mover]):
            return WIN + 4  # told apart from a pass that wins, for the stats
        if lead + _damage(theirs, frame[ply, F_H0 + mover]) < 0:
            return LOSS + 4
        taken = _damage(mine, frame[ply, F_H0 + 1 - mover])
        made = _damage(theirs, frame[ply, F_H0 + mover])
        if features & LAW:
            matching = features & MATCHING
            taken = min(taken, _law_damage(cells, geo, occ, frame[ply, F_H0 + 1 - mover],
                                           SIDE_MASK[mover], matching))
            if lead > taken:
                return WIN + 8
            made = min(made, _law_damage(cells, geo, occ, frame[ply, F_H0 + mover],
                                         SIDE_MASK[1 - mover], matching))
            if lead + made < 0:
                return LOSS + 8
        if features & TIE and (lead == taken or lead + made == 0):
            # the open cells can at best be tied: the tie-break (fewer stacks on one's
            # side, then the opener) decides, and one seat alone can turn it only so far
            stacks_mine = 0
            stacks_theirs = 0
            for cell in range(16):
                if cells[cell] >= STACK and cells[cell] != DOWN:
                    if SIDE_MASK[mover] >> cell & 1:
                        stacks_mine += 1
                    else:
                        stacks_theirs += 1
            margin = stacks_theirs - stacks_mine - (0 if opener == mover else 1)
            if lead == taken and margin >= _tie_shift(frame[ply, F_H0 + 1 - mover], lead,
                                                      stacks_theirs):
                return WIN + 12
            if lead + made == 0 and margin + _tie_shift(frame[ply, F_H0 + mover], -lead,
                                                        stacks_mine) < 0:
                return LOSS + 12
    return -1


@inline
def _tie_shift(hand, need, stacks):
    """The most a seat holding ``hand`` can move the tie-break (the other side's stacks
    less its own) its way while the other seat passes and it still ties the open cells,
    which takes ``need`` open cells of lead (``stacks``: its opponent's stacks, the ones
    it could slide across). The open cells: a card placed takes at most 1, a Repel's slide
    at most 2, an inversion's card and its discard nothing, so of the most the hand could
    take (its cards, plus 2 a 3) each inversion costs at least 2, and a tie leaves room
    for at most k of them. The stacks: only an inversion makes one (1 a stack), only a
    Repel moves one (2 a slide across, at most one a 3, and only a stack that is there
    or that it made); no move unmakes a stack (Polarize turns it face down, still 2)."""
    threes = int(POP16[hand & THREES])
    cards = int(POP16[hand])
    k = min(cards // 2, max(0, (cards + 2 * threes - need) // 2))
    return 2 * min(threes, stacks + k) + k


@inline
def _order(moves, scores, ply, n, mover, history, features, ahead, state, geo,
           their_levels, killer):
    """Static order: cards onto the opponent's side first, then the pass (first of all when
    the mover is ``ahead`` and ``PASS_FIRST``), the rest; within each, the moves that won
    most elsewhere first (``HISTORY``)."""
    theirs = 0x00FF if mover == 0 else 0xFF00
    pass_score = -1 if ahead and features & PASS_FIRST else 2
    mobility = features & MOBILITY and n > 2 and moves[ply, 0] < 512
    if mobility:
        mine = SIDE_MASK[mover] & ~state[ply, R_OCC]
        for cell in range(16):
            allowed = 0
            for lv in range(1, 7):
                allowed |= (state[ply, R_LAW + lv] >> cell & 1) << lv
            scores[ply, SCRATCH + cell] = allowed & their_levels
    for i in range(n):
        move = moves[ply, i]
        if move == PASS_MOVE:
            score = pass_score
        elif move < 512:
            cell = move & 15
            onto_theirs = theirs >> cell & 1
            score = (0 if onto_theirs else 4) if move < INVERT else (1 if onto_theirs else 3)
        else:
            score = 0
        score <<= 40
        if mobility and move < 512:
            # the opponent's placements (cell, level) on the mover's side after the move
            ok = OK_LEVELS[(SINGLE if move < INVERT else STACK) + ((move & 255) >> 4)]
            near = (state[ply, R_NEAR] | geo[cell, G_ORTH]) & mine & ~(1 << cell)
            beside = geo[cell, G_ORTH]
            places = 0
            while near:
                x = LOW_BIT[near]
                near &= near - 1
                allowed = scores[ply, SCRATCH + x]
                if beside >> x & 1:
                    allowed &= ok
                places += POP16[allowed]
            score += places << 24
        if features & HISTORY:
            score -= min(history[mover, move], (1 << 24) - 1)
        if move == killer:
            score = -2 << 40
        scores[ply, i] = score
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
def _play(cells, geo, frame, ply, move, discard, opener):
    """Apply ``move`` (an inversion with ``discard``, -1 to keep it) to the field and set up
    frame ``ply + 1``; returns -1, or WIN/LOSS for the mover when the move ends the game."""
    up = ply + 1
    mover = frame[ply, F_TO_MOVE]
    frame[ply, F_CELL1] = -1
    frame[ply, F_CELL2] = -1
    frame[up, F_H0] = frame[ply, F_H0]
    frame[up, F_H1] = frame[ply, F_H1]
    frame[up, F_PASSED] = frame[ply, F_PASSED]
    frame[up, F_PHASE] = IN_TURN
    frame[up, F_ABILITY] = -1
    frame[up, F_TO_MOVE] = 1 - mover
    frame[ply, F_SAME] = 0
    if move == PASS_MOVE:
        if frame[ply, F_PASSED]:  # C-11: the second pass in a row ends the game
            return WIN if _winner(cells, opener) == mover else LOSS
        frame[up, F_PASSED] = 1
        return -1
    if move >= DECLINE_MOVE:
        return -1
    if move >= POLARIZE_MOVE:
        target = move - POLARIZE_MOVE
        frame[ply, F_CELL1] = target
        frame[ply, F_CODE1] = cells[target]
        cells[target] = DOWN if cells[target] < STACK else DOWN_STACK
        return -1
    if move >= REPEL_MOVE:
        source = move - REPEL_MOVE
        ability = frame[ply, F_ABILITY]
        beyond = -1
        for j in range(geo[ability, G_REPELS]):
            if geo[ability, G_R0 + j] == source:
                beyond = geo[ability, G_B0 + j]
        frame[ply, F_CELL1] = source
        frame[ply, F_CODE1] = cells[source]
        frame[ply, F_CELL2] = beyond
        frame[ply, F_CODE2] = cells[beyond]
        cells[beyond] = cells[source]
        cells[source] = 0
        return -1
    kind = (move & 255) >> 4
    cell = move & 15
    spent = 1 << kind
    if discard >= 0:
        spent |= 1 << discard
    frame[up, F_H0 + mover] = frame[ply, F_H0 + mover] & ~spent
    frame[up, F_PASSED] = 0
    frame[ply, F_CELL1] = cell
    frame[ply, F_CODE1] = cells[cell]
    cells[cell] = (SINGLE if move < INVERT else STACK) + kind
    lv = LEVEL[kind]
    if lv == 3:  # Repel, if anything can slide (C-10)
        for j in range(geo[cell, G_REPELS]):
            if cells[geo[cell, G_R0 + j]] and not cells[geo[cell, G_B0 + j]]:
                frame[up, F_PHASE] = IN_REPEL
                frame[up, F_ABILITY] = cell
                frame[up, F_TO_MOVE] = mover
                frame[ply, F_SAME] = 1
                break
    elif lv == 5:  # Polarize (C-9)
        frame[up, F_PHASE] = IN_POLARIZE
        frame[up, F_ABILITY] = cell
        frame[up, F_TO_MOVE] = mover
        frame[ply, F_SAME] = 1
    return -1


@inline
def _unplay(cells, frame, ply):
    if frame[ply, F_CELL2] >= 0:
        cells[frame[ply, F_CELL2]] = frame[ply, F_CODE2]
    if frame[ply, F_CELL1] >= 0:
        cells[frame[ply, F_CELL1]] = frame[ply, F_CODE1]


@inline
def _known_win(cells, geo, frame, ply, moves, n, opener, sym, nsym, table, features):
    """Enhanced transposition cutoff: the index of a move (not an inversion, whose discard
    is still to choose) after which the table knows the mover wins (or, with
    ``STATIC_CHILD``, the static bound settles the child lost for the opponent), else -1."""
    for i in range(n):
        move = moves[ply, i]
        if INVERT <= move < PASS_MOVE:
            continue
        ended = _play(cells, geo, frame, ply, move, -1, opener)
        if ended >= 0:
            if ended == WIN:
                return i
            continue
        if (features & FORGET_PASS and move == PASS_MOVE
                and _winner(cells, opener) != frame[ply + 1, F_TO_MOVE]):
            frame[ply + 1, F_PASSED] = 0  # keyed as the child will be (FORGET_PASS)
        if features & STATIC_CHILD and frame[ply + 1, F_PHASE] == IN_TURN:
            settled = _static(cells, geo, frame, ply + 1, opener, features)
            if settled >= 4 and settled & 3 == LOSS:  # a bound, not a pass, settles it
                _unplay(cells, frame, ply)
                return i
        hi, lo = _key(cells, frame, ply + 1, opener, sym, nsym)
        _unplay(cells, frame, ply)
        at = tt.probe(table, hi, lo)
        if at >= 0:
            value = table[at] & 3
            if (value if frame[ply, F_SAME] else 1 - value) == WIN:
                return i
    return -1


@inline
def _finish(ply, frame, table, stats):
    result = frame[ply, F_RESULT]
    tt.store(table, frame[ply, F_HI], frame[ply, F_LO], result,
             stats[NODES] - frame[ply, F_BEFORE] + 1, 0)
    return result


@inline
def _spare(state, ply, spare, features):
    """The discard to try next of ``spare`` (a non-empty hand): the lowest kind, or with
    ``SPARE_FIRST`` the kind with the fewest places on the field as it was."""
    if not features & SPARE_FIRST:
        return LOW_BIT[spare]
    free = state[ply, R_NEAR] & ~state[ply, R_OCC]
    fewest = 99
    best = 0
    rest = spare
    while rest:
        kind = LOW_BIT[rest]
        rest &= rest - 1
        places = POP16[free & state[ply, R_LAW + LEVEL[kind]]]
        if places < fewest:
            fewest = places
            best = kind
    return best


@inline
def _reward(history, frame, ply, move, state):
    """History heuristic: a move that won counts for its seat, more the emptier the field;
    and the killer of its depth."""
    frame[ply, F_KILLER] = move
    empty = 16 - int(POP16[state[ply, R_OCC]])
    history[frame[ply, F_TO_MOVE], move] += empty * empty


@njit
def _search(cells, opener, stop, geo, sym, nsym, settings, table, state, moves, scores,
            frame, history, stats):
    """WIN or LOSS for the seat to move in frame 0 (ABORTED past ``stop`` nodes)."""
    features = settings[S_FEATURES]
    etc_from = settings[S_ETC_FROM] if features & ETC else 99
    ply = 0
    value = ENTER
    while True:
        if value == ENTER:
            stats[NODES] += 1
            if stats[NODES] == stop:
                return ABORTED
            settled = -1
            if frame[ply, F_PHASE] == IN_TURN:
                _forget_pass(cells, frame, ply, opener, features)
                settled = _static(cells, geo, frame, ply, opener, features)
            if settled >= 0:
                _count_settled(stats, settled)
                value = settled & 3
            else:
                hi, lo = _key(cells, frame, ply, opener, sym, nsym)
                at = tt.probe(table, hi, lo)
                if at >= 0:
                    stats[HITS] += 1
                    value = table[at] & 3
                else:
                    _derive(cells, geo, state, ply)
                    mover = frame[ply, F_TO_MOVE]
                    n = _generate(cells, geo, state, ply, frame[ply, F_H0 + mover],
                                  frame[ply, F_PHASE], frame[ply, F_ABILITY], moves)
                    frame[ply, F_BEFORE] = stats[NODES]
                    frame[ply, F_HI] = hi
                    frame[ply, F_LO] = lo
                    frame[ply, F_COUNT] = n
                    frame[ply, F_NEXT] = 0
                    frame[ply, F_RESULT] = LOSS
                    ahead = (features & PASS_FIRST and frame[ply, F_PHASE] == IN_TURN
                             and _winner(cells, opener) == mover)
                    _order(moves, scores, ply, n, mover, history, features, ahead, state,
                           geo, LEVELS_OF[frame[ply, F_H1 - mover]],
                           frame[ply, F_KILLER] if features & KILLER else -1)
                    value = NEXT_MOVE
                    if 16 - POP16[state[ply, R_OCC]] >= etc_from:
                        i = _known_win(cells, geo, frame, ply, moves, n, opener, sym, nsym,
                                       table, features)
                        if i >= 0:
                            stats[KNOWN_LOST] += 1
                            frame[ply, F_RESULT] = WIN
                            value = _finish(ply, frame, table, stats)
        if value == NEXT_MOVE:
            i = frame[ply, F_NEXT]
            if i < frame[ply, F_COUNT]:
                frame[ply, F_NEXT] = i + 1
                move = moves[ply, i]
                frame[ply, F_WAIT] = KEPT if INVERT <= move < PASS_MOVE else CHANNEL
                discard = -1
                if frame[ply, F_WAIT] == KEPT and features & DISCARDS:
                    spare = (frame[ply, F_H0 + frame[ply, F_TO_MOVE]]
                             & ~(1 << ((move & 255) >> 4)))
                    discard = _spare(state, ply, spare, features)
                    frame[ply, F_SPARE] = spare & ~(1 << discard)
                    frame[ply, F_WAIT] = DISCARD
                ended = _play(cells, geo, frame, ply, move, discard, opener)
                if ended >= 0:  # a game-ending pass: no child to search
                    if ended == WIN:
                        frame[ply, F_RESULT] = WIN
                        _reward(history, frame, ply, move, state)
                        value = _finish(ply, frame, table, stats)
                    continue
                ply += 1
                value = ENTER
                continue
            value = _finish(ply, frame, table, stats)
        if value == ENTER:
            continue
        if ply == 0:
            return value
        ply -= 1
        # the child's value, for this node's mover
        mine = value if frame[ply, F_SAME] else 1 - value
        move = moves[ply, frame[ply, F_NEXT] - 1]
        wait = frame[ply, F_WAIT]
        won = mine == WIN and wait != KEPT
        spare = 0
        if wait == KEPT and mine == WIN:
            mover = frame[ply, F_TO_MOVE]
            spare = frame[ply, F_H0 + mover] & ~(1 << ((move & 255) >> 4))
        elif wait == DISCARD and not won:
            spare = frame[ply, F_SPARE]
        _unplay(cells, frame, ply)
        if spare:
            discard = _spare(state, ply, spare, features)
            frame[ply, F_SPARE] = spare & ~(1 << discard)
            frame[ply, F_WAIT] = DISCARD
            _play(cells, geo, frame, ply, move, discard, opener)
            ply += 1
            value = ENTER
            continue
        if won:
            frame[ply, F_RESULT] = WIN
            _reward(history, frame, ply, move, state)
            value = _finish(ply, frame, table, stats)
        else:
            value = NEXT_MOVE


@njit
def _moves_at(cells, geo, state, hand, phase, ability, moves):
    _derive(cells, geo, state, 0)
    return _generate(cells, geo, state, 0, hand, phase, ability, moves)


# -- the Python face ----------------------------------------------------------------------

@dataclass(frozen=True)
class Position:
    """An abstract Classic position (see the module docstring)."""

    cells: tuple[int, ...]
    hands: tuple[int, int]
    to_move: int
    opener: int
    passed: bool
    phase: int
    ability: int  # the cell of the pending Repel or Polarize, else -1

    @property
    def empty(self) -> int:
        return self.cells.count(0)


def position_of(state: CardCommonsState) -> Position:
    """The abstract position of a Classic state after its opening."""
    if state.variant == "tutorial" or state.phase() not in ("turn", "repel", "polarize"):
        raise ValueError("the Classic endgame solver reads Classic positions after the "
                         f"opening, not a {state.variant} game in its {state.phase()} phase")
    _, _, hand0, hand1, phase, to_move, passed, pending, opener = state.position_key()
    cells = []
    for cell in range(NUM_CELLS):
        stack = state.stack(cell)
        if not stack:
            cells.append(0)
            continue
        card, face_up = stack[-1]
        if face_up:
            cells.append((STACK if len(stack) == 2 else SINGLE) + card % NUM_KINDS)
        else:
            cells.append(DOWN_STACK if len(stack) == 2 else DOWN)
    phases = {TURN: IN_TURN, REPEL: IN_REPEL, POLARIZE: IN_POLARIZE}
    return Position(tuple(cells), (hand0, hand1), to_move, opener, bool(passed),
                    phases[phase], pending)


def action_of(move: int, discard: int = -1) -> int:
    """The engine's action id for an abstract Classic move."""
    if move == PASS_MOVE:
        return PASS
    if move >= DECLINE_MOVE:
        return DECLINE
    if move >= POLARIZE_MOVE:
        return POLARIZE_BASE + move - POLARIZE_MOVE
    if move >= REPEL_MOVE:
        return REPEL_BASE + move - REPEL_MOVE
    kind, cell = (move & 255) >> 4, move & 15
    return place_action(kind, cell) if move < INVERT else invert_action(kind, cell, discard)


@dataclass
class Result:
    value: int  # WIN or LOSS for the seat to move, ABORTED past the budget
    nodes: int
    seconds: float


class ClassicSolver:
    """Exact values of Classic positions, with a table kept across calls."""

    def __init__(self, torus: bool = False, table_bits: int = 20,
                 features: int = FEATURES, etc_from: int = ETC_FROM) -> None:
        self.torus = torus
        self.geo = geometry(torus)
        self.table = tt.Table(table_bits)
        maps = symmetries(torus) if features & SYMMETRY else symmetries(torus)[:1]
        self.sym = np.array([(*perm, swap) for perm, swap in maps], dtype=np.int64)
        self.settings = np.zeros(SETTINGS, dtype=np.int64)
        self.settings[S_FEATURES] = features
        self.settings[S_ETC_FROM] = etc_from
        self.history = np.zeros((2, HISTORY_SIZE), dtype=np.int64)
        self._state = np.zeros((MAX_PLY + 2, ROW), dtype=np.int64)
        self._moves = np.zeros((MAX_PLY + 1, MAX_MOVES), dtype=np.int64)
        self._scores = np.zeros((MAX_PLY + 1, MAX_MOVES + 16), dtype=np.int64)
        self._frame = np.zeros((MAX_PLY + 2, FRAME), dtype=np.int64)
        self._frame[:, F_KILLER] = -1
        self.stats = np.zeros(STATS, dtype=np.int64)
        if features & PROOF and type(self) is ClassicSolver:
            raise ValueError("the df-pn search (PROOF) is proof.ProofSolver's; "
                             "proof.solver(features=...) picks the class")

    def clear(self) -> None:
        """Forget every position (the table) and what the move order learnt (history)."""
        self.table.clear()
        self.history.fill(0)
        self._frame[:, F_KILLER] = -1

    def value(self, position: Position, budget: int = 0) -> Result:
        """WIN or LOSS for the seat to move; ABORTED if ``budget`` nodes (0: no limit)
        did not settle it."""
        start = time.perf_counter()
        before = int(self.stats[NODES])
        frame = self._frame
        frame[0, F_H0], frame[0, F_H1] = position.hands
        frame[0, F_TO_MOVE] = position.to_move
        frame[0, F_PASSED] = int(position.passed)
        frame[0, F_PHASE] = position.phase
        frame[0, F_ABILITY] = position.ability
        cells = np.array(position.cells, dtype=np.int64)
        stop = before + budget if budget else -1
        value = self._value(cells, position.opener, stop)
        return Result(int(value), int(self.stats[NODES]) - before,
                      time.perf_counter() - start)

    def _value(self, cells: np.ndarray, opener: int, stop: int) -> int:
        """The search itself, from frame 0 (``proof.ProofSolver`` puts df-pn here)."""
        return int(_search(cells, opener, stop, self.geo, self.sym, len(self.sym),
                           self.settings, self.table.words, self._state, self._moves,
                           self._scores, self._frame, self.history, self.stats))

    def moves(self, position: Position) -> list[tuple[int, int]]:
        """Every (abstract move, discard) of the seat to move; -1: no discard."""
        cells = np.array(position.cells, dtype=np.int64)
        moves = np.zeros((1, MAX_MOVES), dtype=np.int64)
        n = _moves_at(cells, self.geo, self._state, position.hands[position.to_move],
                      position.phase, position.ability, moves)
        found = []
        for move in (int(m) for m in moves[0, :n]):
            if INVERT <= move < PASS_MOVE:
                kind = (move & 255) >> 4
                spare = position.hands[position.to_move] & ~(1 << kind)
                found += [(move, d) for d in range(NUM_KINDS) if spare >> d & 1]
            else:
                found.append((move, -1))
        return found

    def after(self, position: Position, move: int, discard: int = -1) -> Position | int:
        """The position after a move, or WIN/LOSS for the mover if the move ends the game."""
        cells = np.array(position.cells, dtype=np.int64)
        frame = np.zeros((2, FRAME), dtype=np.int64)
        frame[0, F_H0], frame[0, F_H1] = position.hands
        frame[0, F_TO_MOVE] = position.to_move
        frame[0, F_PASSED] = int(position.passed)
        frame[0, F_PHASE] = position.phase
        frame[0, F_ABILITY] = position.ability
        ended = _play_at(cells, self.geo, frame, move, discard, position.opener)
        if ended >= 0:
            return int(ended)
        return Position(tuple(int(c) for c in cells), (int(frame[1, F_H0]),
                        int(frame[1, F_H1])), int(frame[1, F_TO_MOVE]), position.opener,
                        bool(frame[1, F_PASSED]), int(frame[1, F_PHASE]),
                        int(frame[1, F_ABILITY]))

    def best_move(self, position: Position, budget: int = 0
                  ) -> tuple[int, tuple[int, int] | None]:
        """(value for the seat to move, a winning (move, discard) when it wins); the value
        is ABORTED when ``budget`` nodes did not settle it."""
        value = self.value(position, budget).value
        if value != WIN:
            return value, None
        winners = self.winning_moves(position, first=True, budget=budget)
        if winners is None:
            return ABORTED, None
        return WIN, winners[0]

    def winning_moves(self, position: Position, first: bool = False, budget: int = 0
                      ) -> list[tuple[int, int]] | None:
        """The (move, discard) pairs after which the seat to move wins (with ``first``,
        the first found); None if a search ran past ``budget`` nodes."""
        winners = []
        for move, discard in self.moves(position):
            child = self.after(position, move, discard)
            if isinstance(child, Position):
                reply = self.value(child, budget).value
                if reply == ABORTED:
                    return None
                mine = reply if child.to_move == position.to_move else 1 - reply
            else:
                mine = child
            if mine == WIN:
                winners.append((move, discard))
                if first:
                    break
        return winners


@njit
def _play_at(cells, geo, frame, move, discard, opener):
    return _play(cells, geo, frame, 0, move, discard, opener)


__all__ = ["ENDGAME_CELLS", "ClassicSolver", "Position", "action_of", "position_of"]
