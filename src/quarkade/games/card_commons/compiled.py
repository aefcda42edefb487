"""Card Commons, compiled: the rules of ``rules.py`` again, for numba, on a flat int array.

A second implementation, held to the reference engine by differential tests
(``tests/games/card_commons/test_compiled.py``): from the same position both give the
same legal actions (in the same order), next states and returns, Classic and Tutorial,
flat and torus. It plays whole games in batches (``quarkade simulate`` picks it when every
agent has a compiled form, see ``AGENTS``). Nothing here is used by the reference engine.

The layout (``int64``, ``SIZE`` slots) holds what the reference state holds, masks
included: the player count (2), whether abilities are on (Classic) and the torus, the
phase, the seat to move, the opener, the pass flag, the ability's cell, the winner (-1
until the end), the occupied / orthogonally near / diagonally near / anchor masks, both
hands and discard piles (local-card bit masks), the field (``TOP + cell``, ``UNDER +
cell``: card codes as in ``rules``), the single face-up cards per kind, and the Law as
one 16-bit cell mask per level (``LAW + level``; the reference keeps them in one integer,
a slot per level).
"""

from __future__ import annotations

import sys

import numpy as np

from quarkade.core.jit import (
    batch_buffers,
    below,
    bit_count,
    copy_into,
    lowest_bit,
    njit,
    njit_inline,
    shared_returns,
    start_game,
    store_result,
    warm_up_engine,
)
from quarkade.core.protocol import CHANCE, TERMINAL
from quarkade.games.card_commons import policy
from quarkade.games.card_commons.notation import (
    DECLINE,
    HAND_SIZE,
    INVERT_BASE,
    NUM_ACTIONS,
    NUM_CELLS,
    OPENER_BASE,
    PASS,
    POLARIZE_BASE,
    REPEL_BASE,
)
from quarkade.games.card_commons.rules import (
    _ALL_LEVELS,
    _BIT4,
    COIN,
    CORNERS,
    FACE_DOWN,
    GEOMETRIES,
    OK_MASK,
    OPENING,
    OPENING_ACTIONS,
    OVER,
    POLARIZE,
    REPEL,
    SIDE_MASKS,
    TURN,
    CardCommonsGame,
    CardCommonsState,
)

(PLAYERS, ABILITIES, TORUS, PHASE, TO_MOVE, OPENER, PASSED, ABILITY_CELL, WINNER, OCCUPIED,
 ORTH, DIAG, ANCHORS) = range(13)
HANDS = 13
DISCARDS = HANDS + 2
TOP = DISCARDS + 2
UNDER = TOP + NUM_CELLS
KINDS = UNDER + NUM_CELLS
LAW = KINDS + HAND_SIZE  # levels 0-6; level 0 never fits
SIZE = LAW + 7
MAX_ACTIONS = NUM_ACTIONS

# The compiled agents, by spec: a seat's policy id.
RANDOM, GREEDY = 0, 1
AGENTS = {"random": RANDOM, "greedy": GREEDY}
WIN, OPEN_CELL, PARTICLE, CARD_IN_HAND = (policy.WIN, policy.OPEN_CELL, policy.PARTICLE,
                                          policy.CARD_IN_HAND)


def _geometry_tables() -> tuple[np.ndarray, ...]:
    """The neighbour tables of ``rules.Geometry``, flat and torus, as arrays indexed
    ``[torus, cell, ...]`` (-1 pads a short row)."""
    orth = np.full((2, NUM_CELLS, 4), -1, np.int64)
    orth_mask = np.zeros((2, NUM_CELLS), np.int64)
    diag_mask = np.zeros((2, NUM_CELLS), np.int64)
    repel = np.full((2, NUM_CELLS, 4, 2), -1, np.int64)
    anchor = np.full((2, NUM_CELLS, 2, 2), -1, np.int64)  # per corner: groups of cells
    beside = np.full((2, NUM_CELLS, 4), -1, np.int64)  # corners next to a cell
    for torus in (0, 1):
        geo = GEOMETRIES[bool(torus)]
        for cell in range(NUM_CELLS):
            orth[torus, cell, :len(geo.orth[cell])] = geo.orth[cell]
            orth_mask[torus, cell] = geo.orth_mask[cell]
            diag_mask[torus, cell] = geo.diag_mask[cell]
            for k, pair in enumerate(geo.repel_pairs[cell]):
                repel[torus, cell, k] = pair
            for g, group in enumerate(geo.anchor_pairs[cell]):
                anchor[torus, cell, g, :len(group)] = group
            beside[torus, cell, :len(geo.corners_beside[cell])] = geo.corners_beside[cell]
    return orth, orth_mask, diag_mask, repel, anchor, beside


ORTH_CELLS, ORTH_MASK, DIAG_MASK, REPEL_PAIRS, ANCHOR_GROUPS, CORNERS_BESIDE = \
    _geometry_tables()
OK_LEVELS = np.array(OK_MASK, np.int64)  # levels a card code allows next to it
OPENINGS = np.array(OPENING_ACTIONS, np.int64)
SIDES = np.array(SIDE_MASKS, np.int64)
BIT4 = _BIT4
ALL_LEVELS = _ALL_LEVELS


# -- the bridge ---------------------------------------------------------------------------

def new_state(game: CardCommonsGame) -> np.ndarray:
    """The compiled initial state of ``game``."""
    return to_compiled(game.new_initial_state())


def to_compiled(state: CardCommonsState) -> np.ndarray:
    """The compiled layout of a reference state (everything the rules read)."""
    game = state.game
    law = state._law
    return np.array([
        2, game.abilities, game.options["torus"], state._phase, state._to_move, state._opener,
        state._passed, state._ability_cell, state._winner, state._occupied, state._orth,
        state._diag, state._anchors, *state._hands, *state._discards, *state._top,
        *state._under, *state._kinds, *[law >> (16 * level) & 0xFFFF for level in range(7)]],
        dtype=np.int64)


def from_compiled(game: CardCommonsGame, array: np.ndarray) -> CardCommonsState:
    """A reference state in the position of ``array`` (a position, not a game record)."""
    if bool(array[ABILITIES]) != game.abilities or bool(array[TORUS]) != game.options["torus"]:
        raise ValueError("the compiled state is of another game's options")
    state = game.new_initial_state()
    values = [int(v) for v in array]
    state._phase = values[PHASE]
    state._to_move = values[TO_MOVE]
    state._opener = values[OPENER]
    state._passed = bool(values[PASSED])
    state._ability_cell = values[ABILITY_CELL]
    state._winner = values[WINNER]
    state._occupied, state._orth, state._diag = values[OCCUPIED], values[ORTH], values[DIAG]
    state._anchors = values[ANCHORS]
    state._hands = values[HANDS:HANDS + 2]
    state._discards = values[DISCARDS:DISCARDS + 2]
    state._top = values[TOP:TOP + NUM_CELLS]
    state._under = values[UNDER:UNDER + NUM_CELLS]
    state._kinds = values[KINDS:KINDS + HAND_SIZE]
    state._law = sum(mask << (16 * level) for level, mask in enumerate(values[LAW:LAW + 7]))
    state._legal = None
    return state


# -- the rules ------------------------------------------------------------------------------

@njit_inline
def current_player(s: np.ndarray) -> int:
    phase = s[PHASE]
    if phase == COIN:
        return CHANCE
    if phase == OVER:
        return TERMINAL
    return s[TO_MOVE]


@njit
def turn_actions(s: np.ndarray, out: np.ndarray) -> int:
    """``CardCommonsState._turn_actions``: channels, then inversions, then the pass."""
    abilities = s[ABILITIES]
    hand = s[HANDS + s[TO_MOVE]]
    if hand == 0:
        if abilities:
            out[0] = PASS
            return 1
        return 0
    occupied = s[OCCUPIED]
    near = s[ORTH] & ~occupied
    anchors = s[ANCHORS] if abilities else 0
    can_invert = hand & (hand - 1)  # an inversion costs another card (C-15)
    count = 0
    invertible = 0  # local cards with something to invert
    for local in range(HAND_SIZE):
        if not hand >> local & 1:
            continue
        lit = _lit(s, local % 6 + 1, near, anchors)
        while lit:
            cell = lowest_bit(lit)
            lit &= lit - 1
            out[count] = local * NUM_CELLS + cell
            count += 1
        if can_invert and _targets(s, local, anchors):
            invertible |= 1 << local
    while invertible:
        local = lowest_bit(invertible)
        invertible &= invertible - 1
        targets = _targets(s, local, anchors)
        others = hand ^ 1 << local
        while targets:
            cell = lowest_bit(targets)
            targets &= targets - 1
            base = INVERT_BASE + (local * NUM_CELLS + cell) * HAND_SIZE
            rest = others
            while rest:
                discard = lowest_bit(rest)
                rest &= rest - 1
                out[count] = base + discard
                count += 1
    if abilities:
        out[count] = PASS
        count += 1
    return count


@njit_inline
def _lit(s: np.ndarray, level: int, near: int, anchors: int) -> int:
    """Empty cells a card of ``level`` may be channelled (or tunnelled) onto."""
    lit = s[LAW + level] & near
    if s[ABILITIES]:
        if level == 4:
            lit |= near & anchors  # Anchor (C-8)
        elif level == 2:
            lit |= s[LAW + 2] & s[DIAG] & ~s[OCCUPIED]  # Tunnel (C-7)
    return lit


@njit_inline
def _nth_bit(mask: int, n: int) -> int:
    """The index of the ``n``-th (from 0) lowest set bit of ``mask``."""
    for _ in range(n):
        mask &= mask - 1
    return lowest_bit(mask)


@njit_inline
def random_turn_action(s: np.ndarray, streams: np.ndarray) -> int:
    """``turn_actions(s)[below(count)]`` with ``count`` their number, drawn from the mover's
    stream, without listing them: the same action for the same draw
    (``test_random_turn_action_is_the_drawn_legal_action``), at a third of the cost."""
    abilities = s[ABILITIES]
    hand = s[HANDS + s[TO_MOVE]]
    if hand == 0:
        below(streams, 1 + s[TO_MOVE], 1)
        return PASS
    near = s[ORTH] & ~s[OCCUPIED]
    anchors = s[ANCHORS] if abilities else 0
    discards = bit_count(hand) - 1
    places = 0
    inversions = 0
    for level in range(1, 7):  # a level's two cards (red, black) go to the same cells
        holding = (hand >> (level - 1) & 1) + (hand >> (level + 5) & 1)
        if holding:
            places += holding * bit_count(_lit(s, level, near, anchors))
    if discards:
        for local in range(HAND_SIZE):
            if hand >> local & 1:
                inversions += bit_count(_targets(s, local, anchors)) * discards
    pick = below(streams, 1 + s[TO_MOVE], places + inversions + (abilities != 0))
    if pick < places:
        for local in range(HAND_SIZE):
            if hand >> local & 1:
                lit = _lit(s, local % 6 + 1, near, anchors)
                here = bit_count(lit)
                if pick < here:
                    return local * NUM_CELLS + _nth_bit(lit, pick)
                pick -= here
    pick -= places
    if pick < inversions:
        for local in range(HAND_SIZE):
            if hand >> local & 1:
                targets = _targets(s, local, anchors)
                here = bit_count(targets) * discards
                if pick < here:
                    cell = _nth_bit(targets, pick // discards)
                    discard = _nth_bit(hand ^ 1 << local, pick % discards)
                    return INVERT_BASE + (local * NUM_CELLS + cell) * HAND_SIZE + discard
                pick -= here
    return PASS


@njit_inline
def _targets(s: np.ndarray, local: int, anchors: int) -> int:
    """Cells the mover's card ``local`` may invert: single face-up cards of the opposite
    colour and same level (C-16) where the Law lets it sit (a 4 may anchor, C-8)."""
    level = local % 6 + 1
    allowed = s[LAW + level]
    if level == 4:
        allowed |= anchors
    return s[KINDS + (local + 6) % HAND_SIZE] & allowed


@njit_inline
def has_turn_action(s: np.ndarray) -> bool:
    """Whether ``turn_actions`` would list anything, without listing (the Tutorial's end
    check, C-13)."""
    hand = s[HANDS + s[TO_MOVE]]
    if hand == 0:
        return s[ABILITIES] != 0
    if s[ABILITIES]:
        return True  # the pass
    near = s[ORTH] & ~s[OCCUPIED]
    can_invert = hand & (hand - 1)
    for local in range(HAND_SIZE):
        if hand >> local & 1:
            if s[LAW + local % 6 + 1] & near:
                return True
            if can_invert and _targets(s, local, 0):
                return True
    return False


@njit
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Writes the legal actions (ascending) into ``out``; returns how many."""
    phase = s[PHASE]
    if phase == TURN:
        return turn_actions(s, out)
    if phase == OPENING:
        for i in range(len(OPENINGS)):
            out[i] = OPENINGS[i]
        return len(OPENINGS)
    if phase == REPEL:
        count = _repel_options(s, s[ABILITY_CELL], out)
        out[count] = DECLINE
        return count + 1
    if phase == POLARIZE:
        return _polarize_actions(s, out)
    if phase == COIN:
        out[0] = OPENER_BASE
        out[1] = OPENER_BASE + 1
        return 2
    return 0


@njit_inline
def _repel_options(s: np.ndarray, cell: int, out: np.ndarray) -> int:
    """Cells next to the 3 on ``cell`` whose card(s) can slide away from it (C-10)."""
    torus = s[TORUS]
    count = 0
    for k in range(4):
        neighbour = REPEL_PAIRS[torus, cell, k, 0]
        if neighbour < 0:
            break
        if s[TOP + neighbour] and not s[TOP + REPEL_PAIRS[torus, cell, k, 1]]:
            out[count] = REPEL_BASE + neighbour
            count += 1
    return count


@njit_inline
def _can_repel(s: np.ndarray, cell: int) -> bool:
    torus = s[TORUS]
    for k in range(4):
        neighbour = REPEL_PAIRS[torus, cell, k, 0]
        if neighbour < 0:
            break
        if s[TOP + neighbour] and not s[TOP + REPEL_PAIRS[torus, cell, k, 1]]:
            return True
    return False


@njit
def _polarize_actions(s: np.ndarray, out: np.ndarray) -> int:
    """The 5 itself and each neighbour whose top card is face up (C-9), then decline."""
    cell = s[ABILITY_CELL]
    torus = s[TORUS]
    targets = 1 << cell
    for k in range(4):
        neighbour = ORTH_CELLS[torus, cell, k]
        if neighbour >= 0 and 1 <= s[TOP + neighbour] <= FACE_DOWN:
            targets |= 1 << neighbour
    count = 0
    while targets:
        out[count] = POLARIZE_BASE + lowest_bit(targets)
        targets &= targets - 1
        count += 1
    out[count] = DECLINE
    return count + 1


@njit
def chance_outcomes(s: np.ndarray, actions: np.ndarray, weights: np.ndarray) -> int:
    """The chance outcomes and their integer weights: the coin for the opener (C-1)."""
    if s[PHASE] != COIN:
        return 0
    actions[0], actions[1] = OPENER_BASE, OPENER_BASE + 1
    weights[0], weights[1] = 1, 1
    return 2


@njit_inline
def sample_chance(s: np.ndarray, streams: np.ndarray) -> int:
    return OPENER_BASE + below(streams, 0, 2)


@njit
def apply_action(s: np.ndarray, action: int) -> None:
    """Play a legal ``action`` (the caller makes sure it is legal)."""
    if action < INVERT_BASE:
        _place(s, action)
    elif action < REPEL_BASE:
        _invert(s, action)
    elif action < POLARIZE_BASE:
        _repel(s, action - REPEL_BASE)
    elif action < DECLINE:
        cell = action - POLARIZE_BASE
        s[KINDS + (s[TOP + cell] - 1) % HAND_SIZE] &= ~(1 << cell)
        s[TOP + cell] += FACE_DOWN  # C-9: the top card turns
        _refresh_law(s, cell)
        _end_turn(s)
    elif action == DECLINE:
        _end_turn(s)
    elif action == PASS:
        if s[PASSED]:  # C-11: a pass right after the other seat's pass ends the game
            _finish_by_score(s)
        else:
            s[PASSED] = 1
            _end_turn(s)
    else:
        s[OPENER] = action - OPENER_BASE
        s[TO_MOVE] = action - OPENER_BASE
        s[PHASE] = OPENING


@njit_inline
def _place(s: np.ndarray, action: int) -> None:
    """The opening, or a channel (a Tunnel included)."""
    local = action // NUM_CELLS
    cell = action % NUM_CELLS
    seat = s[TO_MOVE]
    torus = s[TORUS]
    code = seat * HAND_SIZE + local + 1
    s[TOP + cell] = code
    s[HANDS + seat] &= ~(1 << local)
    s[OCCUPIED] |= 1 << cell
    s[KINDS + local] |= 1 << cell
    neighbours = ORTH_MASK[torus, cell]
    s[ORTH] |= neighbours
    s[DIAG] |= DIAG_MASK[torus, cell]
    forbidden = ALL_LEVELS & ~OK_LEVELS[code]  # the cell was empty: only tightens
    for level in range(1, 7):
        if forbidden >> level & 1:
            s[LAW + level] &= ~neighbours
    for k in range(4):
        corner = CORNERS_BESIDE[torus, cell, k]
        if corner >= 0:
            _set_anchor(s, corner)
    s[PASSED] = 0
    _placed(s, local, cell)  # the opening's ability fires too (C-3, C-6)


@njit_inline
def _invert(s: np.ndarray, action: int) -> None:
    pair = (action - INVERT_BASE) // HAND_SIZE
    discard = (action - INVERT_BASE) % HAND_SIZE
    local = pair // NUM_CELLS
    cell = pair % NUM_CELLS
    seat = s[TO_MOVE]
    s[UNDER + cell] = s[TOP + cell]
    s[TOP + cell] = seat * HAND_SIZE + local + 1
    s[HANDS + seat] &= ~(1 << local | 1 << discard)
    s[DISCARDS + seat] |= 1 << discard
    s[KINDS + (s[UNDER + cell] - 1) % HAND_SIZE] &= ~(1 << cell)
    _refresh_law(s, cell)
    s[PASSED] = 0
    _placed(s, local, cell)


@njit_inline
def _placed(s: np.ndarray, local: int, cell: int) -> None:
    """After a card from the hand lands: offer its Repel or Polarize (C-6), or end."""
    if s[ABILITIES]:
        level = local % 6 + 1
        if level == 3:
            if _can_repel(s, cell):  # C-10: no decision when nothing can slide
                s[ABILITY_CELL] = cell
                s[PHASE] = REPEL
                return
        elif level == 5:
            s[ABILITY_CELL] = cell
            s[PHASE] = POLARIZE
            return
    _end_turn(s)


@njit_inline
def _repel(s: np.ndarray, source: int) -> None:
    torus = s[TORUS]
    cell = s[ABILITY_CELL]
    target = -1
    for k in range(4):
        if REPEL_PAIRS[torus, cell, k, 0] == source:
            target = REPEL_PAIRS[torus, cell, k, 1]
    s[TOP + target], s[UNDER + target] = s[TOP + source], s[UNDER + source]
    s[TOP + source] = 0
    s[UNDER + source] = 0
    rebuild(s)
    _end_turn(s)


@njit_inline
def _end_turn(s: np.ndarray) -> None:
    s[TO_MOVE] ^= 1
    s[PHASE] = TURN
    if not s[ABILITIES] and not has_turn_action(s):
        s[WINNER] = s[TO_MOVE] ^ 1  # C-13: in the Tutorial a seat that cannot place loses
        s[PHASE] = OVER


@njit_inline
def _refresh_law(s: np.ndarray, cell: int) -> None:
    """The top card of ``cell`` changed: what its neighbours allow (C-4), and whether a
    4 could anchor on a corner among them (C-8)."""
    torus = s[TORUS]
    for k in range(4):
        neighbour = ORTH_CELLS[torus, cell, k]
        if neighbour < 0:
            continue
        allowed = ALL_LEVELS
        for j in range(4):
            beside = ORTH_CELLS[torus, neighbour, j]
            if beside >= 0:
                allowed &= OK_LEVELS[s[TOP + beside]]
        bit = 1 << neighbour
        for level in range(7):
            if allowed >> level & 1:
                s[LAW + level] |= bit
            else:
                s[LAW + level] &= ~bit
    for k in range(4):
        corner = CORNERS_BESIDE[torus, cell, k]
        if corner >= 0:
            _set_anchor(s, corner)


@njit_inline
def _set_anchor(s: np.ndarray, corner: int) -> None:
    """A 4 may go on ``corner`` if each group of its neighbours holds at most one card
    that forbids it (C-8)."""
    torus = s[TORUS]
    for group in range(2):
        if ANCHOR_GROUPS[torus, corner, group, 0] < 0:
            break
        satisfied = 0
        for k in range(2):
            cell = ANCHOR_GROUPS[torus, corner, group, k]
            if cell >= 0:
                satisfied |= OK_LEVELS[s[TOP + cell]]
        if not satisfied & BIT4:
            s[ANCHORS] &= ~(1 << corner)
            return
    s[ANCHORS] |= 1 << corner


@njit
def rebuild(s: np.ndarray) -> None:
    """Every mask from the cards on the field (``CardCommonsState.rebuild``)."""
    torus = s[TORUS]
    occupied = orth = diag = 0
    for kind in range(HAND_SIZE):
        s[KINDS + kind] = 0
    for level in range(7):
        s[LAW + level] = 0
    for cell in range(NUM_CELLS):
        top = s[TOP + cell]
        if top:
            occupied |= 1 << cell
            orth |= ORTH_MASK[torus, cell]
            diag |= DIAG_MASK[torus, cell]
            if top <= FACE_DOWN and not s[UNDER + cell]:
                s[KINDS + (top - 1) % HAND_SIZE] |= 1 << cell
        allowed = ALL_LEVELS
        for k in range(4):
            neighbour = ORTH_CELLS[torus, cell, k]
            if neighbour >= 0:
                allowed &= OK_LEVELS[s[TOP + neighbour]]
        for level in range(7):
            if allowed >> level & 1:
                s[LAW + level] |= 1 << cell
    s[OCCUPIED], s[ORTH], s[DIAG] = occupied, orth, diag
    for corner in CORNERS:
        _set_anchor(s, corner)


@njit_inline
def open_cells(s: np.ndarray, seat: int) -> int:
    """Cells on ``seat``'s own side with no card at all (C-12)."""
    return 8 - bit_count(s[OCCUPIED] & SIDES[seat])


@njit_inline
def particles(s: np.ndarray, seat: int) -> int:
    """Cards on ``seat``'s own side, a stack counting 2 (C-12)."""
    cells = s[OCCUPIED] & SIDES[seat]
    count = bit_count(cells)
    while cells:
        count += s[UNDER + lowest_bit(cells)] != 0
        cells &= cells - 1
    return count


@njit_inline
def _finish_by_score(s: np.ndarray) -> None:
    """C-12: more open cells on your side; then fewer cards there; then the opener."""
    open0, open1 = open_cells(s, 0), open_cells(s, 1)
    if open0 != open1:
        s[WINNER] = 0 if open0 > open1 else 1
    else:
        cards0, cards1 = particles(s, 0), particles(s, 1)
        if cards0 != cards1:
            s[WINNER] = 0 if cards0 < cards1 else 1
        else:
            s[WINNER] = s[OPENER]
    s[PHASE] = OVER


@njit
def returns(s: np.ndarray, out: np.ndarray) -> None:
    """Each seat's return (zeros until the end)."""
    shared_returns(1 << s[WINNER] if s[PHASE] == OVER else 0, 2, out)


# -- the agents -------------------------------------------------------------------------

@njit
def candidate_actions(legal: np.ndarray, count: int, out: np.ndarray) -> int:
    """``policy.candidate_actions``: the legal actions with each group of inversions that
    differ only in the discard cut to the one whose discard the mover can best spare."""
    placements = np.zeros(HAND_SIZE, np.int64)
    for i in range(count):
        if legal[i] < INVERT_BASE:
            placements[legal[i] // NUM_CELLS] += 1
    kept = 0
    for i in range(count):
        action = legal[i]
        if not INVERT_BASE <= action < REPEL_BASE:
            out[kept] = action
            kept += 1
            continue
        group = (action - INVERT_BASE) // HAND_SIZE
        if kept and INVERT_BASE <= out[kept - 1] < REPEL_BASE \
                and (out[kept - 1] - INVERT_BASE) // HAND_SIZE == group:
            if _spares_better((action - INVERT_BASE) % HAND_SIZE,
                              (out[kept - 1] - INVERT_BASE) % HAND_SIZE, placements):
                out[kept - 1] = action
        else:
            out[kept] = action
            kept += 1
    return kept


@njit_inline
def _spares_better(discard: int, than: int, placements: np.ndarray) -> bool:
    """``policy._spare``: fewer places to go, then levels further from the middle."""
    if placements[discard] != placements[than]:
        return placements[discard] < placements[than]
    return abs(2 * (discard % 6 + 1) - 7) > abs(2 * (than % 6 + 1) - 7)


@njit
def evaluate(s: np.ndarray, me: int, scratch: np.ndarray) -> float:
    """``policy.evaluate``: the position's worth to seat ``me``."""
    if s[PHASE] == OVER:
        return WIN if s[WINNER] == me else -WIN
    other = 1 - me
    if not s[ABILITIES]:
        mobility = float(_distinct_placements(s, scratch))
        return mobility if s[TO_MOVE] == me else -mobility
    opened = open_cells(s, me) - open_cells(s, other)
    cards_there = particles(s, other) - particles(s, me)
    held = bit_count(s[HANDS + me]) - bit_count(s[HANDS + other])
    return OPEN_CELL * opened + PARTICLE * cards_there + CARD_IN_HAND * held


@njit
def _distinct_placements(s: np.ndarray, scratch: np.ndarray) -> int:
    """(card, cell) pairs among the legal actions: each inversion counted once."""
    count = legal_actions(s, scratch)
    pairs = 0
    last = -1
    for i in range(count):
        action = scratch[i]
        if action < INVERT_BASE:
            pairs += 1
        elif action < REPEL_BASE:
            group = (action - INVERT_BASE) // HAND_SIZE
            if group != last:
                pairs += 1
                last = group
    return pairs


@njit
def greedy_values(s: np.ndarray, actions: np.ndarray, values: np.ndarray,
                  work: np.ndarray) -> int:
    """greedy's candidate moves into ``actions`` and each one's value into ``values``
    (``bots.GreedyAgent``: its own turn played out best, the reply worst for it);
    ``work`` is scratch space, ``(8, MAX_ACTIONS)``. Returns how many."""
    me = s[TO_MOVE]
    count = legal_actions(s, work[0])
    count = candidate_actions(work[0], count, actions)
    if count == 1:
        return 1
    for i in range(count):
        child = s.copy()
        apply_action(child, actions[i])
        values[i] = _value(child, me, work, 1)
    return count


# greedy's look-ahead, ``GreedyAgent._value`` and ``_reply_value`` unrolled: a turn is at
# most two decisions of one seat (a placement, then its Repel or Polarize), and numba
# cannot cache recursive functions. ``work[depth]`` holds each level's actions.

@njit
def _value(s: np.ndarray, me: int, work: np.ndarray, depth: int) -> float:
    """The worth to ``me`` of ``s``, reached by ``me``'s move: the rest of its turn
    played best, then the opponent's whole turn played worst for ``me``."""
    if s[PHASE] == OVER or s[TO_MOVE] != me:
        return _opponent_turn(s, me, work, depth)
    legal = work[depth]  # a Repel or Polarize choice of this same turn
    count = legal_actions(s, legal)
    best = -np.inf
    for i in range(count):
        child = s.copy()
        apply_action(child, legal[i])
        best = max(best, _opponent_turn(child, me, work, depth + 1))
    return best


@njit
def _opponent_turn(s: np.ndarray, me: int, work: np.ndarray, depth: int) -> float:
    if s[PHASE] == OVER:
        return evaluate(s, me, work[depth])
    legal = work[depth]
    candidates = work[depth + 1]
    count = candidate_actions(legal, legal_actions(s, legal), candidates)
    worst = np.inf
    for i in range(count):
        child = s.copy()
        apply_action(child, candidates[i])
        worst = min(worst, _reply_value(child, me, work, depth + 2))
    return worst


@njit
def _reply_value(s: np.ndarray, me: int, work: np.ndarray, depth: int) -> float:
    """The worst for ``me`` of the opponent's turn, then ``evaluate``."""
    if s[PHASE] == OVER or s[TO_MOVE] == me:
        return evaluate(s, me, work[depth])
    legal = work[depth]
    count = legal_actions(s, legal)
    worst = np.inf
    for i in range(count):
        child = s.copy()
        apply_action(child, legal[i])
        if child[PHASE] == OVER or child[TO_MOVE] == me:
            value = evaluate(child, me, work[depth + 1])
        else:
            value = _reply_last(child, me, work, depth + 1)
        worst = min(worst, value)
    return worst


@njit
def _reply_last(s: np.ndarray, me: int, work: np.ndarray, depth: int) -> float:
    """The opponent's last decision of its turn (its Repel or Polarize)."""
    legal = work[depth]
    count = legal_actions(s, legal)
    worst = np.inf
    for i in range(count):
        child = s.copy()
        apply_action(child, legal[i])
        worst = min(worst, evaluate(child, me, work[depth + 1]))
    return worst


@njit
def greedy_choice(s: np.ndarray, streams: np.ndarray, work: np.ndarray) -> int:
    """greedy's move: one of its best-valued candidates, ties broken with its stream."""
    actions = np.empty(MAX_ACTIONS, np.int64)
    values = np.empty(MAX_ACTIONS, np.float64)
    count = greedy_values(s, actions, values, work)
    if count == 1:
        return actions[0]
    best = -np.inf
    for i in range(count):
        best = max(best, values[i])
    ties = 0
    for i in range(count):
        if values[i] >= best - 1e-9:
            actions[ties] = actions[i]
            ties += 1
    return actions[below(streams, 1 + s[TO_MOVE], ties)]


@njit_inline
def choose(s: np.ndarray, streams: np.ndarray, policy: int, work: np.ndarray) -> int:
    """The action of the seat to move under its compiled ``policy``."""
    if policy == GREEDY:
        return greedy_choice(s, streams, work)
    if s[PHASE] == TURN:
        return random_turn_action(s, streams)
    count = legal_actions(s, work[0])
    return work[0, below(streams, 1 + s[TO_MOVE], count)]


def new_work() -> np.ndarray:
    """Scratch space for the agents (``choose``, ``greedy_values``)."""
    return np.zeros((8, MAX_ACTIONS), np.int64)


@njit
def play(s: np.ndarray, streams: np.ndarray, policies: np.ndarray, record: np.ndarray,
         work: np.ndarray) -> tuple[int, int, int, int]:
    """Play the game in ``s`` to its end: (winners mask, decisions, actions, first seat
    to decide). The actions go into ``record`` while it has room; ``work`` is scratch
    space (``new_work``)."""
    decisions = 0
    actions = 0
    first = -1
    while s[PHASE] != OVER:
        if s[PHASE] == COIN:
            action = sample_chance(s, streams)
        else:
            seat = s[TO_MOVE]
            if first < 0:
                first = seat
            action = choose(s, streams, policies[seat], work)
            decisions += 1
        apply_action(s, action)
        if actions < record.shape[0]:
            record[actions] = action
        actions += 1
    return 1 << s[WINNER], decisions, actions, first


@njit
def play_stepwise(s: np.ndarray, streams: np.ndarray, policies: np.ndarray,
                  record: np.ndarray) -> tuple[int, int, int, int]:
    """``play`` with scratch space of its own."""
    return play(s, streams, policies, record, np.zeros((8, MAX_ACTIONS), np.int64))


@njit
def play_one(s: np.ndarray, streams: np.ndarray, policies: np.ndarray
             ) -> tuple[int, int, int, int]:
    """``play`` without a record (one action at a time already: Card Commons has no
    chance after the coin to lay out a turn around)."""
    return play_stepwise(s, streams, policies, np.zeros(0, np.int64))


@njit
def play_games(template: np.ndarray, matchups: np.ndarray, games_per_matchup: int,
               run_seed: int, start: int, out: np.ndarray) -> None:
    """Games ``start ..`` of a run into ``out`` (see ``quarkade.core.jit.start_game``)."""
    state, streams, policies = batch_buffers(template)
    work = np.zeros((8, MAX_ACTIONS), np.int64)
    no_record = np.zeros(0, np.int64)
    for row in range(out.shape[0]):
        seed = start_game(matchups, games_per_matchup, run_seed, start + row, streams, policies)
        copy_into(state, template)
        store_result(out, row, seed, play(state, streams, policies, no_record, work))


def warm_up(game: CardCommonsGame) -> None:
    """Compile (or load from the disk cache) every function here (see
    ``jit.warm_up_engine``)."""
    state = warm_up_engine(sys.modules[__name__], game)
    work = new_work()
    actions = np.zeros(MAX_ACTIONS, np.int64)
    greedy_values(state, actions, np.zeros(MAX_ACTIONS, np.float64), work)
    choose(state, np.zeros(3, np.uint64), GREEDY, work)
    random_turn_action(state, np.zeros(3, np.uint64))
