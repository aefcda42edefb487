"""Card Commons' rules in JAX (``games/card_commons/rules.py`` again, as array operations).

The board is ``games/card_commons/compiled.py``'s layout: the field's card codes (``TOP``,
``UNDER``), both hands and discard piles as local-card bit masks, and the masks the rules
read (occupied cells, their orthogonal and diagonal neighbours, the single face-up cards
of each kind, the Law per level, the corners open to an Anchor). Where the reference
updates those masks move by move, this engine recomputes them from the field after every
move (``refresh``), a handful of small matrix operations that a batch shares; the
differential tests hold the two equal slot by slot. Classic and Tutorial, flat field and
torus (C-13, C-14) are fixed per environment, so each compiles only its own rules.
Rulings: as the reference engine's (C-1 to C-16).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from quarkade.core.protocol import CHANCE, TERMINAL
from quarkade.games.card_commons import compiled as layout
from quarkade.games.card_commons import features, symmetry
from quarkade.games.card_commons.encode import SIZE as OBSERVATION_SIZE
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
    TUTORIAL,
    CardCommonsGame,
    CardCommonsState,
)
from quarkade.jax.env import Rules

(PLAYERS, ABILITIES, TORUS, PHASE, TO_MOVE, OPENER, PASSED, ABILITY_CELL, WINNER, OCCUPIED,
 ORTH, DIAG, ANCHORS) = (layout.PLAYERS, layout.ABILITIES, layout.TORUS, layout.PHASE,
                         layout.TO_MOVE, layout.OPENER, layout.PASSED, layout.ABILITY_CELL,
                         layout.WINNER, layout.OCCUPIED, layout.ORTH, layout.DIAG,
                         layout.ANCHORS)  # the compiled engine's board, read as it lays it out
HANDS, DISCARDS, TOP, UNDER, KINDS, LAW = (layout.HANDS, layout.DISCARDS, layout.TOP,
                                           layout.UNDER, layout.KINDS, layout.LAW)
BOARD_SIZE = layout.SIZE
CELLS = np.arange(NUM_CELLS)
CELL_BITS = jnp.asarray(1 << CELLS, dtype=jnp.int32)
LOCALS = np.arange(HAND_SIZE)
LEVEL_OF = LOCALS % 6 + 1  # a local card's level
OK_LEVELS = jnp.asarray(np.array(OK_MASK, np.int32))  # levels allowed beside a card code
OPENING_MASK = np.zeros(NUM_ACTIONS, bool)
OPENING_MASK[list(OPENING_ACTIONS)] = True
SIDES = np.array([[m >> c & 1 for c in CELLS] for m in SIDE_MASKS], np.float32)
CORNER_CELLS = np.array(CORNERS)
EXACT_NODES = 200_000  # the exact solver's budget a position (``exact``): with at most
# 10 empty cells nearly every Tutorial position settles in far fewer


@dataclass(frozen=True)
class Geometry:
    """One field's neighbour tables as arrays (``rules.Geometry``, C-14)."""

    orth: np.ndarray  # [16, 16] adjacency, orthogonal
    diag: np.ndarray  # [16, 16] adjacency, diagonal
    neighbours: np.ndarray  # [16, 4] orthogonal neighbours, 16 past the last
    repel: np.ndarray  # [16, 4, 2] (neighbour, cell beyond) of a 3's cell, 16 past the last
    anchor: np.ndarray  # [4 corners, 2 groups, 2 cells], 16 past the last

    @staticmethod
    def of(torus: bool) -> Geometry:
        geo = GEOMETRIES[torus]
        orth = np.zeros((NUM_CELLS, NUM_CELLS), np.float32)
        diag = np.zeros((NUM_CELLS, NUM_CELLS), np.float32)
        neighbours = np.full((NUM_CELLS, 4), NUM_CELLS, np.int32)
        repel = np.full((NUM_CELLS, 4, 2), NUM_CELLS, np.int32)
        anchor = np.full((len(CORNERS), 2, 2), NUM_CELLS, np.int32)
        for cell in CELLS:
            for n in geo.orth[cell]:
                orth[cell, n] = 1
            for n in geo.diag[cell]:
                diag[cell, n] = 1
            neighbours[cell, :len(geo.orth[cell])] = geo.orth[cell]
            for k, pair in enumerate(geo.repel_pairs[cell]):
                repel[cell, k] = pair
        for index, corner in enumerate(CORNERS):
            for g, group in enumerate(geo.anchor_pairs[corner]):
                anchor[index, g, :len(group)] = group
        return Geometry(orth, diag, neighbours, repel, anchor)


def pack(cells: jax.Array) -> jax.Array:
    """A bool vector over the 16 cells as a cell bit mask."""
    return jnp.sum(jnp.where(cells, CELL_BITS, 0)).astype(jnp.int32)


def unpack(mask: jax.Array) -> jax.Array:
    """A cell bit mask as a bool vector over the 16 cells (any leading shape)."""
    return (jnp.asarray(mask)[..., None] >> jnp.arange(NUM_CELLS)) & 1 == 1


def bits12(mask: jax.Array) -> jax.Array:
    """A local-card bit mask as a bool vector over the 12 local cards."""
    return (mask >> jnp.arange(HAND_SIZE)) & 1 == 1


@dataclass(frozen=True)
class CardCommonsRules(Rules):
    """Card Commons for one set of options (variant, torus)."""

    abilities: bool = True
    geometry: Geometry | None = None
    certain = True  # open hands; the opening's coin is the only chance
    staged = True  # a game fills the field: its empty cells say how much is left

    def left(self, board: jax.Array) -> jax.Array:
        """The field's empty cells."""
        return NUM_CELLS - jnp.sum(unpack(board[OCCUPIED])).astype(jnp.int32)

    def symmetries(self) -> np.ndarray:
        """The maps of the field that keep these rules (``symmetry.symmetries``): the
        eight of the square in the Tutorial game, the columns' mirror in the Classic."""
        return np.stack([symmetry.action_map(cells)
                         for cells in symmetry.symmetries(self.game.options)])

    def most_legal(self) -> int:
        """At most 193 of the 2,532 action ids are legal at once. An opening has 32, a
        Repel or Polarize offer at most 5 and its refusal; in a turn, a seat holding h
        cards can channel each of them onto at most the e empty cells, and invert onto
        each of the f single face-up cards only with the one card of its own of the same
        level and the other charge, keeping one of its h - 1 other cards as the discard:
        h * e + f * (h - 1) <= h * (e + f) <= 12 * 16, and the pass (Classic) is one more
        (``test_no_decision_has_more_legal_actions_than_the_bound``)."""
        return HAND_SIZE * NUM_CELLS + 1

    feature_size = features.SIZE

    def features(self, observation: jax.Array) -> jax.Array:
        """The observation and what each seat can play (``features.extend``)."""
        return features.extend(observation, jnp)

    def map_observation(self, observation: jax.Array, which: int) -> jax.Array:
        return symmetry.map_observation(
            observation, symmetry.symmetries(self.game.options)[which], jnp)

    # -- whose move, what is legal ------------------------------------------------------

    def current_player(self, board: jax.Array) -> jax.Array:
        phase = board[PHASE]
        return jnp.where(phase == COIN, CHANCE,
                         jnp.where(phase == OVER, TERMINAL, board[TO_MOVE])).astype(jnp.int32)

    def legal_mask(self, board: jax.Array) -> jax.Array:
        phase = board[PHASE]
        ids = jnp.arange(NUM_ACTIONS)
        coin = ids >= OPENER_BASE
        return jnp.select(
            [phase == TURN, phase == OPENING, phase == REPEL, phase == POLARIZE,
             phase == COIN],
            [self.turn_mask(board), jnp.asarray(OPENING_MASK), self._repel_mask(board),
             self._polarize_mask(board), coin], jnp.zeros(NUM_ACTIONS, jnp.bool_))

    def turn_mask(self, board: jax.Array) -> jax.Array:
        """Channels, inversions and (Classic) the pass of the seat to move (C-4 to C-16)."""
        hand = bits12(board[HANDS + board[TO_MOVE]])
        occupied = unpack(board[OCCUPIED])
        near = unpack(board[ORTH]) & ~occupied
        law = unpack(board[LAW:LAW + 7])  # [level, cell]
        lit = law & near
        targets_law = law
        if self.abilities:
            anchors = unpack(board[ANCHORS])
            lit = lit.at[4].set(lit[4] | (near & anchors))  # Anchor (C-8)
            tunnel = law[2] & unpack(board[DIAG]) & ~occupied  # Tunnel (C-7)
            lit = lit.at[2].set(lit[2] | tunnel)
            targets_law = law.at[4].set(law[4] | anchors)
        places = hand[:, None] & lit[LEVEL_OF]  # [local, cell]
        kinds = unpack(board[KINDS:KINDS + HAND_SIZE])  # [kind, cell]
        targets = kinds[(LOCALS + 6) % HAND_SIZE] & targets_law[LEVEL_OF]  # C-16
        spare = hand[None, :] & ~jnp.eye(HAND_SIZE, dtype=jnp.bool_)  # [local, discard]
        inversions = (hand[:, None, None] & targets[:, :, None] & spare[:, None, :])  # C-15
        rest = jnp.zeros(NUM_ACTIONS - REPEL_BASE, jnp.bool_)
        if self.abilities:
            rest = rest.at[PASS - REPEL_BASE].set(True)  # C-11
        return jnp.concatenate([places.reshape(-1), inversions.reshape(-1), rest])

    def _repel_mask(self, board: jax.Array) -> jax.Array:
        top = jnp.append(board[TOP:TOP + NUM_CELLS], 0)
        pairs = jnp.asarray(self.geometry.repel)[board[ABILITY_CELL]]  # type: ignore[union-attr]
        movable = (pairs[:, 0] < NUM_CELLS) & (top[pairs[:, 0]] != 0) & (top[pairs[:, 1]] == 0)
        sources = jnp.zeros(NUM_CELLS + 1, jnp.bool_).at[
            jnp.where(movable, pairs[:, 0], NUM_CELLS)].set(True)[:NUM_CELLS]
        return self._ability_mask(REPEL_BASE, sources)

    def _polarize_mask(self, board: jax.Array) -> jax.Array:
        cell = board[ABILITY_CELL]
        top = board[TOP:TOP + NUM_CELLS]
        beside = jnp.asarray(self.geometry.orth)[cell] > 0  # type: ignore[union-attr]
        face_up = (top >= 1) & (top <= FACE_DOWN)
        return self._ability_mask(POLARIZE_BASE, (beside & face_up) | (cell == CELLS))  # C-9

    @staticmethod
    def _ability_mask(base: int, cells: jax.Array) -> jax.Array:
        mask = jnp.zeros(NUM_ACTIONS, jnp.bool_)
        mask = jax.lax.dynamic_update_slice(mask, cells, (base,))
        return mask.at[DECLINE].set(True)

    def chance_weights(self, board: jax.Array) -> jax.Array:
        """The coin for the opener (C-1)."""
        return jnp.where(self.legal_mask(board), 1.0, 0.0)

    # -- playing -------------------------------------------------------------------------

    def apply(self, board: jax.Array, action: jax.Array) -> jax.Array:
        """Play a legal ``action``: its change to the field, the masks again, then what
        comes next (an ability's decision, the other seat's turn, or the end)."""
        geo = self.geometry
        assert geo is not None
        kind = jnp.searchsorted(jnp.array([INVERT_BASE, REPEL_BASE, POLARIZE_BASE, DECLINE,
                                           PASS, OPENER_BASE]), action, side="right")
        is_place, is_invert, is_repel, is_polarize, _, is_pass, is_coin = (
            kind == k for k in range(7))
        seat = jnp.maximum(board[TO_MOVE], 0)  # -1 before the coin
        top = board[TOP:TOP + NUM_CELLS]
        under = board[UNDER:UNDER + NUM_CELLS]
        # A card from the hand: the opening, a channel or an inversion.
        invert = action - INVERT_BASE
        local = jnp.where(is_place, action // NUM_CELLS, invert // (NUM_CELLS * HAND_SIZE))
        cell = jnp.where(is_place, action % NUM_CELLS, invert // HAND_SIZE % NUM_CELLS)
        discard = invert % HAND_SIZE
        code = seat * HAND_SIZE + local + 1
        here = cell == CELLS
        lands = (is_place | is_invert) & here
        new_under = jnp.where(is_invert & here, top, under)
        new_top = jnp.where(lands, code, top)
        played = jnp.where(is_place | is_invert, 1 << local, 0)
        played = played | jnp.where(is_invert, 1 << discard, 0)
        hands = board[HANDS:HANDS + 2].at[seat].set(board[HANDS + seat] & ~played)
        discards = board[DISCARDS:DISCARDS + 2].at[seat].add(
            jnp.where(is_invert, 1 << discard, 0))
        # Repel (C-10): the card(s) on the source slide one cell further from the 3.
        source = action - REPEL_BASE
        pairs = jnp.asarray(geo.repel)[board[ABILITY_CELL]]
        target = jnp.max(jnp.where(pairs[:, 0] == source, pairs[:, 1], -1))
        slide_to = is_repel & (target == CELLS)
        slide_from = is_repel & (source == CELLS)
        new_top = jnp.where(slide_to, top[jnp.clip(source, 0, NUM_CELLS - 1)], new_top)
        new_under = jnp.where(slide_to, under[jnp.clip(source, 0, NUM_CELLS - 1)], new_under)
        new_top = jnp.where(slide_from, 0, new_top)
        new_under = jnp.where(slide_from, 0, new_under)
        # Polarize (C-9): the top card turns face down.
        new_top = jnp.where(is_polarize & (action - POLARIZE_BASE == CELLS),
                            new_top + FACE_DOWN, new_top)
        board = board.at[TOP:TOP + NUM_CELLS].set(new_top)
        board = board.at[UNDER:UNDER + NUM_CELLS].set(new_under)
        board = board.at[HANDS:HANDS + 2].set(hands).at[DISCARDS:DISCARDS + 2].set(discards)
        board = self.refresh(board)
        # What comes next.
        passed = board[PASSED] == 1
        board = board.at[PASSED].set(jnp.where(is_place | is_invert, 0,
                                               jnp.where(is_pass, 1, board[PASSED])))
        level = local % 6 + 1
        ability = jnp.zeros((), jnp.int32)
        if self.abilities:  # C-6
            can_repel = jnp.any(self._repel_mask(board.at[ABILITY_CELL].set(cell))
                                [REPEL_BASE:POLARIZE_BASE])
            ability = jnp.where((is_place | is_invert) & (level == 3) & can_repel, REPEL,
                                jnp.where((is_place | is_invert) & (level == 5), POLARIZE, 0))
        board = board.at[ABILITY_CELL].set(jnp.where(ability > 0, cell, board[ABILITY_CELL]))
        # The other seat's turn: in the Tutorial it loses if it has no move (C-13).
        ended = board.at[TO_MOVE].set(seat ^ 1).at[PHASE].set(TURN)
        if not self.abilities:
            stuck = ~jnp.any(self.turn_mask(ended))
            ended = ended.at[WINNER].set(jnp.where(stuck, seat, -1))
            ended = ended.at[PHASE].set(jnp.where(stuck, OVER, TURN))
        scored = self._finish_by_score(board)
        opened = board.at[OPENER].set(action - OPENER_BASE)
        opened = opened.at[TO_MOVE].set(action - OPENER_BASE).at[PHASE].set(OPENING)
        return jnp.select(
            [is_coin, is_pass & passed, ability > 0],
            [opened, scored, board.at[PHASE].set(ability)], ended)

    def refresh(self, board: jax.Array) -> jax.Array:
        """Every mask from the cards on the field (``CardCommonsState.rebuild``)."""
        geo = self.geometry
        assert geo is not None
        top = board[TOP:TOP + NUM_CELLS]
        under = board[UNDER:UNDER + NUM_CELLS]
        occupied = top != 0
        placed = occupied.astype(jnp.float32)
        orth = jnp.asarray(geo.orth) @ placed > 0
        diag = jnp.asarray(geo.diag) @ placed > 0
        single = (top >= 1) & (top <= FACE_DOWN) & (under == 0)  # C-16
        kind_of = (top - 1) % HAND_SIZE
        kinds = single[None, :] & (kind_of[None, :] == jnp.arange(HAND_SIZE)[:, None])
        ok = jnp.append(OK_LEVELS[top], _ALL_LEVELS)  # past the last neighbour: no limit
        near = ok[jnp.asarray(geo.neighbours)]  # [cell, 4]
        allowed = near[:, 0] & near[:, 1] & near[:, 2] & near[:, 3] & _ALL_LEVELS  # C-4
        law = (allowed[None, :] >> jnp.arange(7)[:, None]) & 1 == 1
        # Anchor (C-8): each group of a corner's neighbours holds at most one card that
        # forbids a 4 (an absent cell allows nothing, so it adds nothing to the group).
        ok_or = jnp.append(OK_LEVELS[top], 0)
        groups = ok_or[jnp.asarray(geo.anchor)]  # [corner, group, cell]
        present = jnp.asarray(geo.anchor[:, :, 0] < NUM_CELLS)
        satisfied = ((groups[..., 0] | groups[..., 1]) & _BIT4) != 0
        anchored = jnp.all(satisfied | ~present, axis=1)
        anchors = jnp.sum(jnp.where(anchored, 1 << CORNER_CELLS, 0)).astype(jnp.int32)
        board = board.at[OCCUPIED].set(pack(occupied)).at[ORTH].set(pack(orth))
        board = board.at[DIAG].set(pack(diag)).at[ANCHORS].set(anchors)
        board = board.at[KINDS:KINDS + HAND_SIZE].set(jax.vmap(pack)(kinds))
        return board.at[LAW:LAW + 7].set(jax.vmap(pack)(law))

    def _finish_by_score(self, board: jax.Array) -> jax.Array:
        """C-12: more open cells on your side; then fewer cards there; then the opener."""
        open_cells, particles = self.scores(board)
        winner = jnp.where(open_cells[0] != open_cells[1],
                           jnp.where(open_cells[0] > open_cells[1], 0, 1),
                           jnp.where(particles[0] != particles[1],
                                     jnp.where(particles[0] < particles[1], 0, 1),
                                     board[OPENER]))
        return board.at[WINNER].set(winner).at[PHASE].set(OVER)

    @staticmethod
    def scores(board: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Per seat: open cells on its own side, and its particles (a stack counts 2)."""
        occupied = unpack(board[OCCUPIED]).astype(jnp.float32)
        stacked = (board[UNDER:UNDER + NUM_CELLS] != 0).astype(jnp.float32)
        sides = jnp.asarray(SIDES)
        placed = sides @ occupied
        return 8 - placed, placed + sides @ (occupied * stacked)

    def returns(self, board: jax.Array) -> jax.Array:
        winner = board[WINNER]
        won = jnp.where(winner == 0, jnp.array([1.0, -1.0]), jnp.array([-1.0, 1.0]))
        return jnp.where(winner >= 0, won, 0.0).astype(jnp.float32)

    # -- what a seat sees --------------------------------------------------------------------

    def observe(self, board: jax.Array, seat: jax.Array) -> jax.Array:
        """``encode.encode_state(state, seat)``: everything is open; seats from ``seat``."""
        me = jnp.maximum(seat, 0)

        def slot_of(target: jax.Array) -> jax.Array:
            return jax.nn.one_hot((target - me) % 2, 2) * (target >= 0)

        phase = board[PHASE]
        top = board[TOP:TOP + NUM_CELLS]
        under = board[UNDER:UNDER + NUM_CELLS]
        shown = jnp.where(top != 0, top, under)  # a lone card is a top card
        covered = jnp.where(top != 0, under, 0)
        player = self.current_player(board)
        hands = board[HANDS:HANDS + 2][jnp.array([me, 1 - me])]
        discards = board[DISCARDS:DISCARDS + 2][jnp.array([me, 1 - me])]
        open_cells, particles = self.scores(board)
        order = jnp.array([me, 1 - me])
        ability = jax.nn.one_hot(board[ABILITY_CELL], NUM_CELLS) * (
            (phase == REPEL) | (phase == POLARIZE))
        return jnp.concatenate([
            jax.nn.one_hot(phase, 6), jax.nn.one_hot(seat, 2) * (seat >= 0),
            slot_of(player), slot_of(board[OPENER]),
            card_features(shown, me).reshape(-1), card_features(covered, me).reshape(-1),
            jnp.concatenate([bits12(hands[0]), bits12(hands[1])]),
            jnp.concatenate([bits12(discards[0]), bits12(discards[1])]),
            open_cells[order] / 8, particles[order] / 16,
            (board[PASSED] == 1)[None], ability, slot_of(board[WINNER]),
            jnp.array([not self.abilities, bool(self.game.options["torus"])]),
        ]).astype(jnp.float32)

    def extra_slots(self, state: object) -> list[int]:
        return []

    def exact(self, limit: int, moves: bool = False
              ) -> Callable[[np.ndarray], tuple[float, int]] | None:
        """The Tutorial's exact solver (``solve.tutorial``, flat or torus) on turn
        positions with at most ``limit`` empty cells, each search held to
        ``EXACT_NODES`` nodes (NaN where it runs out); with ``moves``, a winning move
        too; None in the Classic game."""
        if self.abilities or limit <= 0:
            return None
        from quarkade.games.card_commons.solve import tutorial
        from quarkade.games.card_commons.solver import empty_cells

        solver = tutorial.TutorialSolver(torus=bool(self.game.options["torus"]))
        signs = {tutorial.WIN: 1.0, tutorial.LOSS: -1.0}

        def value(board: np.ndarray) -> tuple[float, int]:
            state = self.to_state(board)
            assert isinstance(state, CardCommonsState)
            if (state.is_terminal() or state.phase() != "turn"
                    or empty_cells(state) > limit):
                return float("nan"), -1
            position = tutorial.position_of(state)
            if not moves:
                found = solver.value(position, budget=EXACT_NODES).value
                return signs.get(found, float("nan")), -1
            found, move = solver.best_move(position, budget=EXACT_NODES)
            return (signs.get(found, float("nan")),
                    tutorial.action_of(*move) if move is not None else -1)

        return value


def card_features(codes: jax.Array, viewer: jax.Array) -> jax.Array:
    """Per cell, the ten features of its card code (``encode``): present, face up, level
    one-hot, red, the viewer's own; zeros for no card."""
    present = codes != 0
    card = (codes - 1) % FACE_DOWN
    features = jnp.concatenate([
        present[:, None], (codes <= FACE_DOWN)[:, None], jax.nn.one_hot(card % 6, 6),
        (card // 6 % 2 == 0)[:, None], (card // HAND_SIZE == viewer)[:, None]], axis=1)
    return features * present[:, None]


def rules(game: CardCommonsGame) -> CardCommonsRules:
    return CardCommonsRules(
        name="card-commons", game=game, num_players=2, num_actions=NUM_ACTIONS,
        board_size=BOARD_SIZE, observation_size=OBSERVATION_SIZE, max_chance=1,
        compiled=layout, abilities=game.options["variant"] != TUTORIAL,
        geometry=Geometry.of(bool(game.options["torus"])))
