"""Card Commons (seed 002_8b86745f2dc15b3d.txt): particles on a 4 x 4 field, 2 players.

Each seat holds twelve cards, A-6 of two suits; everything is open. After an opening card
on a centre cell, the seats take turns to channel a card next to a particle, invert a single
particle (discarding a card), or pass, always under the Fundamental Law. Levels 2-5 have
abilities. Two passes in a row end the game; the seat with more open cells on its own side
wins. Options: ``variant`` (``classic``, or ``tutorial``: no abilities, no pass, a seat that
cannot place loses) and ``torus`` (the field wraps both ways). The Classic opening and the
discard to invert are always on (seed: How this version differs).

Rulings relied on (docs/RULINGS.md): C-1 the coin for the opener, C-2 seats, suits and
sides, C-3 the opening, C-4 the Law, C-5 face-down particles, C-6 when abilities fire,
C-7 Tunnel, C-8 Anchor, C-9 Polarize, C-10 Repel, C-11 passing and the end, C-12 scoring,
C-13 the Tutorial game, C-14 the torus, C-15 the discard, C-16 what can be inverted.

A game is a chance action (who opens), the opening card, then turns. A turn is one action
(a placement or a pass), followed, in Classic, by one more decision of the same seat when a
3 can slide something (Repel) or a 5 was placed (Polarize). Action ids: see ``notation``.

The field is two flat lists of 16 card *codes*, ``top`` and ``under``: 0 is no card,
``1 + card`` a face-up card, ``25 + card`` a face-down one. Beside them the state keeps,
updated as cards move, 16-bit masks (occupied cells, cells next to them orthogonally and
diagonally, single face-up cards per card kind, corners open to an Anchor) and the Law as
one integer with a slot per level (see ``SPREAD``), so that building the legal actions
is a few mask operations and table lookups (docs/PERFORMANCE.md).
"""

from __future__ import annotations

import random
from typing import Any

from quarkade.core.errors import IllegalActionError, NotationError
from quarkade.core.options import Option, players_option
from quarkade.core.protocol import CHANCE, SPECTATOR, TERMINAL, Game, State, as_action_id
from quarkade.games.card_commons.notation import (
    CARD_NAMES,
    CELL_NAMES,
    DECLINE,
    HAND_SIZE,
    INVERT_BASE,
    NUM_ACTIONS,
    NUM_CELLS,
    OPENER_BASE,
    PASS,
    PLACE_BASE,
    POLARIZE_BASE,
    REPEL_BASE,
    SIZE,
    card_id,
    cell_id,
    decode_invert,
    decode_place,
    invert_action,
    is_red,
    level,
    lit_cells,
    place_action,
)

CLASSIC, TUTORIAL = "classic", "tutorial"

# Phases, in the order a game passes through them.
COIN, OPENING, TURN, REPEL, POLARIZE, OVER = range(6)
PHASE_NAMES = ("coin", "opening", "turn", "repel", "polarize", "over")

CENTRE = (5, 6, 9, 10)  # b2 c2 b3 c3 (Play 1)
CORNERS = (0, 3, 12, 15)  # a1 d1 a4 d4 (Anchor; the same cells on a torus, C-14)
# Each seat's own side: the two rows furthest from it (C-2). Seat 0 sits below the field.
SIDE_MASKS = (0xFF00, 0x00FF)
SIDE_ROWS = ((3, 4), (1, 2))
SUIT_PAIRS = ("HS", "DC")
SUIT_WORDS = ("hearts and spades", "diamonds and clubs")

FACE_DOWN = 24  # added to a face-up code
_ALL_LEVELS = 0b1111110  # bit L set: level L (1-6) allowed
_BIT4 = 1 << 4


def _ok_mask(code: int) -> int:
    """Levels a new card may have next to a cell whose top card has this code (C-4)."""
    if not 1 <= code <= 24:  # empty or face down: no constraint (Play 2, C-5)
        return _ALL_LEVELS
    card = code - 1
    v = level(card)
    if is_red(card):
        return sum(1 << lv for lv in range(v + 1, 7))
    return sum(1 << lv for lv in range(1, v))


OK_MASK = tuple(_ok_mask(code) for code in range(49))
HAND_CARDS = tuple(tuple(i for i in range(HAND_SIZE) if m >> i & 1) for m in range(1 << 12))
_LOW = tuple(tuple(i for i in range(8) if m >> i & 1) for m in range(256))
_HIGH = tuple(tuple(i + 8 for i in range(8) if m >> i & 1) for m in range(256))
OPENING_CARDS = (1, 2, 3, 4, 7, 8, 9, 10)  # local 2-5 of both suits (Play 1, C-3)
OPENING_ACTIONS = tuple(sorted(place_action(local, cell)
                               for local in OPENING_CARDS for cell in CENTRE))
OPENER_ACTIONS = (OPENER_BASE, OPENER_BASE + 1)
OPENER_OUTCOMES = ((OPENER_BASE, 0.5), (OPENER_BASE + 1, 0.5))  # C-1

# The Law as one integer: bit ``level * 16 + cell`` is set when a card of that level may
# sit on that cell as far as the Law is concerned (occupancy aside). A cell's allowed-level
# mask ``a`` becomes ``SPREAD[a] << cell``; ``mask * REPLICATE`` copies a 16-bit cell mask
# into every level's slot.
SPREAD = tuple(sum(1 << (lv * 16) for lv in range(1, 7) if a >> lv & 1) for a in range(128))
REPLICATE = SPREAD[_ALL_LEVELS]
CLEAR_CELL = tuple(~(REPLICATE << cell) for cell in range(NUM_CELLS))
LEVEL4_SLOT = 4 * 16
# Place action ids for a card and the cells in one byte of a cell mask, ready to extend.
PLACE_LOW = tuple(tuple(tuple(place_action(local, c) for c in _LOW[m]) for m in range(256))
                  for local in range(HAND_SIZE))
PLACE_HIGH = tuple(tuple(tuple(place_action(local, c) for c in _HIGH[m]) for m in range(256))
                   for local in range(HAND_SIZE))
CORNER_MASK = sum(1 << c for c in CORNERS)
# A card's *kind* is ``card % 12``: its colour and level (0-5 red A-6, 6-11 black A-6). The
# mover's card with local index ``k`` inverts single cards of kind OPPOSITE[k] (Play 4).
OPPOSITE = tuple((k + 6) % 12 for k in range(HAND_SIZE))
LEVEL_OF = tuple(local % 6 + 1 for local in range(HAND_SIZE))
# Levels a card with this code forbids next to it, spread into the level slots: a channel
# onto an empty cell only tightens its neighbours, so ``law &= ~(FORBID[code] * cells)``.
FORBID = tuple(SPREAD[_ALL_LEVELS & ~OK_MASK[code]] for code in range(49))


def cells_in(mask: int) -> tuple[int, ...]:
    """The cells whose bits are set in a 16-bit mask, ascending."""
    return _LOW[mask & 255] + _HIGH[mask >> 8]


class Geometry:
    """Neighbour tables of the flat field or the torus (C-14), built once each."""

    __slots__ = ("anchor_pairs", "corners_beside", "diag", "diag_mask", "orth", "orth_mask",
                 "repel_pairs", "repel_to", "torus")

    def __init__(self, torus: bool) -> None:
        self.torus = torus

        def step(cell: int, dcol: int, drow: int) -> int:
            col, row = cell % SIZE + dcol, cell // SIZE + drow
            if torus:
                return row % SIZE * SIZE + col % SIZE
            return row * SIZE + col if 0 <= col < SIZE and 0 <= row < SIZE else -1

        orth_dirs = ((0, 1), (0, -1), (-1, 0), (1, 0))
        diag_dirs = ((-1, 1), (1, 1), (-1, -1), (1, -1))
        self.orth = tuple(tuple(sorted(n for d in orth_dirs if (n := step(c, *d)) >= 0))
                          for c in range(NUM_CELLS))
        self.diag = tuple(tuple(sorted(n for d in diag_dirs if (n := step(c, *d)) >= 0))
                          for c in range(NUM_CELLS))
        self.orth_mask = tuple(sum(1 << n for n in ns) for ns in self.orth)
        self.diag_mask = tuple(sum(1 << n for n in ns) for ns in self.diag)
        # Repel (C-10): per cell of the 3, (neighbour, cell beyond it) in every direction.
        pairs = []
        for c in range(NUM_CELLS):
            found = []
            for d in orth_dirs:
                n = step(c, *d)
                beyond = step(n, *d) if n >= 0 else -1
                if beyond >= 0:
                    found.append((n, beyond))
            pairs.append(tuple(sorted(found)))
        self.repel_pairs = tuple(pairs)
        self.repel_to = tuple(dict(p) for p in pairs)
        # Anchor (C-8): per corner, the groups of neighbours of which one each may be ignored.
        groups: dict[int, tuple[tuple[int, ...], ...]] = {}
        for c in CORNERS:
            inside = tuple(n for d in orth_dirs
                           if (n := step(c, *d)) >= 0 and _inside(c, d))
            wrapped = tuple(n for d in orth_dirs
                            if (n := step(c, *d)) >= 0 and not _inside(c, d))
            groups[c] = (inside, wrapped) if wrapped else (inside,)
        self.anchor_pairs = tuple(groups.get(c, ()) for c in range(NUM_CELLS))
        self.corners_beside = tuple(tuple(n for n in ns if n in CORNERS) for ns in self.orth)


def _inside(cell: int, direction: tuple[int, int]) -> bool:
    col, row = cell % SIZE + direction[0], cell // SIZE + direction[1]
    return 0 <= col < SIZE and 0 <= row < SIZE


GEOMETRIES = {False: Geometry(False), True: Geometry(True)}


class CardCommonsGame(Game):
    """Card Commons for 2 players; options: variant (classic, tutorial), torus."""

    name = "card-commons"
    title = "Card Commons"
    summary = "Open information on a 4 x 4 field of A-6 cards: keep your side open."
    min_players = 2
    max_players = 2
    option_specs = (
        players_option(2, 2),
        Option("variant", CLASSIC, "classic, or tutorial (no abilities, no pass; a "
               "player who cannot place a card loses)", str, choices=(CLASSIC, TUTORIAL)),
        Option("torus", False, "the field wraps left-right and top-bottom", bool),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.abilities = self.options["variant"] == CLASSIC
        self.geometry = GEOMETRIES[self.options["torus"]]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> CardCommonsState:
        return CardCommonsState(self)


class CardCommonsState(State):
    """A Card Commons position (open information: every seat sees all of it)."""

    __slots__ = (
        "_ability_cell",
        "_anchors",
        "_diag",
        "_discards",
        "_hands",
        "_history",
        "_kinds",
        "_last_mover",
        "_law",
        "_legal",
        "_occupied",
        "_opener",
        "_orth",
        "_passed",
        "_phase",
        "_to_move",
        "_top",
        "_under",
        "_winner",
        "game",
    )

    game: CardCommonsGame

    def __init__(self, game: CardCommonsGame) -> None:
        self.game = game
        self._top = [0] * NUM_CELLS
        self._under = [0] * NUM_CELLS
        self._hands = [(1 << HAND_SIZE) - 1, (1 << HAND_SIZE) - 1]  # local-card bit masks
        self._discards = [0, 0]
        self._occupied = 0  # cells holding a card
        self._orth = 0  # cells orthogonally next to an occupied cell
        self._diag = 0  # cells diagonally next to an occupied cell
        # Per card kind, the cells holding that card alone and face up: what can be
        # inverted (C-16).
        self._kinds = [0] * HAND_SIZE
        self._law = REPLICATE * 0xFFFF  # see SPREAD: on an empty field every level fits
        self._anchors = CORNER_MASK  # corners where a 4 could be placed as an Anchor (C-8)
        self._phase = COIN
        self._to_move = -1
        self._opener = -1
        self._passed = False  # the last turn was a pass (C-11)
        self._ability_cell = -1  # the 3 or 5 whose ability is being (or was last) decided
        self._last_mover = -1
        self._winner = -1
        self._legal: list[int] | None = None  # cache; never mutated once built
        self._history: list[int] = []

    # -- whose move, what is legal --------------------------------------------------------

    def current_player(self) -> int:
        phase = self._phase
        if phase == COIN:
            return CHANCE
        if phase == OVER:
            return TERMINAL
        return self._to_move

    def is_chance_node(self) -> bool:
        return self._phase == COIN

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(OPENER_OUTCOMES) if self._phase == COIN else []

    def legal_actions(self) -> list[int]:
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        return legal[:]

    def _generate(self) -> list[int]:
        phase = self._phase
        if phase == TURN:
            return self._turn_actions()
        if phase == OPENING:
            return list(OPENING_ACTIONS)
        if phase == REPEL:
            return self._repel_actions()
        if phase == POLARIZE:
            return self._polarize_actions()
        if phase == COIN:
            return list(OPENER_ACTIONS)
        return []

    def _turn_actions(self) -> list[int]:
        """Channels, then inversions, then the pass; ascending by construction."""
        game = self.game
        abilities = game.abilities
        hand = self._hands[self._to_move]
        if not hand:
            return [PASS] if abilities else []
        occupied = self._occupied
        near = self._orth & ~occupied
        law = self._law
        lit = law & near * REPLICATE
        if abilities:
            # Anchor (C-8): a 4 on a corner may ignore a neighbour; Tunnel (C-7): a 2 may
            # also go diagonally next to a particle.
            lit |= (near & self._anchors) << LEVEL4_SLOT | law & (self._diag & ~occupied) << 32
        slots = lit.to_bytes(14, "little")  # slot of level L: bytes 2L (a1-d2), 2L+1 (a3-d4)
        fits = law.to_bytes(14, "little")  # the same for every cell, taken or not
        kinds = self._kinds
        anchors = self._anchors if abilities else 0
        can_invert = hand & (hand - 1)  # an inversion costs another card (C-15)
        actions: list[int] = []
        inversions = []
        for local in HAND_CARDS[hand]:
            index = LEVEL_OF[local] * 2
            low = slots[index]
            if low:
                actions += PLACE_LOW[local][low]
            high = slots[index + 1]
            if high:
                actions += PLACE_HIGH[local][high]
            if can_invert:
                targets = kinds[OPPOSITE[local]]
                if targets:
                    allowed = fits[index] | fits[index + 1] << 8
                    if index == 8:  # a 4 may anchor on a corner (C-8)
                        allowed |= anchors
                    if targets & allowed:
                        inversions.append((local, targets & allowed))
        for local, targets in inversions:  # ids ascend with the card, then the cell
            discards = HAND_CARDS[hand ^ 1 << local]
            for cell in cells_in(targets):
                base = INVERT_BASE + (local * NUM_CELLS + cell) * HAND_SIZE
                actions += [base + d for d in discards]
        if abilities:
            actions.append(PASS)
        return actions

    def _repel_options(self, cell: int) -> list[int]:
        """Cells next to the 3 on ``cell`` whose card(s) can slide away from it (C-10)."""
        top = self._top
        return [REPEL_BASE + n for n, beyond in self.game.geometry.repel_pairs[cell]
                if top[n] and not top[beyond]]

    def _repel_actions(self) -> list[int]:
        return [*self._repel_options(self._ability_cell), DECLINE]

    def _polarize_actions(self) -> list[int]:
        """The 5 itself and each neighbour whose top card is face up (C-9)."""
        cell = self._ability_cell
        top = self._top
        targets = [n for n in self.game.geometry.orth[cell]
                   if 1 <= top[n] <= FACE_DOWN]
        targets.append(cell)
        targets.sort()
        return [POLARIZE_BASE + t for t in targets] + [DECLINE]

    # -- playing ----------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = as_action_id(action, NUM_ACTIONS)
        legal = self._legal
        if legal is None:
            legal = self._legal = self._generate()
        if action not in legal:
            raise IllegalActionError(self._refusal(action))
        if action < INVERT_BASE:
            self._place(action)
        elif action < REPEL_BASE:
            self._invert(action)
        elif action < POLARIZE_BASE:
            self._repel(action - REPEL_BASE)
        elif action < DECLINE:
            cell = action - POLARIZE_BASE
            self._kinds[(self._top[cell] - 1) % HAND_SIZE] &= ~(1 << cell)
            self._top[cell] += FACE_DOWN  # C-9: the top card turns
            self._refresh_law(cell)
            self._last_mover = self._to_move
            self._end_turn()
        elif action == DECLINE:
            self._last_mover = self._to_move
            self._end_turn()
        elif action == PASS:
            self._pass()
        else:
            self._opener = self._to_move = action - OPENER_BASE
            self._last_mover = CHANCE
            self._phase = OPENING
            self._legal = None
        self._history.append(action)

    def _place(self, action: int) -> None:
        """The opening, or a channel (a Tunnel included)."""
        local, cell = divmod(action - PLACE_BASE, NUM_CELLS)
        seat = self._to_move
        code = seat * HAND_SIZE + local + 1
        self._top[cell] = code
        self._hands[seat] &= ~(1 << local)
        geo = self.game.geometry
        self._occupied |= 1 << cell
        self._kinds[local] |= 1 << cell
        neighbours = geo.orth_mask[cell]
        self._orth |= neighbours
        self._diag |= geo.diag_mask[cell]
        self._law &= ~(FORBID[code] * neighbours)  # the cell was empty: only tightens
        for corner in geo.corners_beside[cell]:
            self._set_anchor(corner, geo)
        self._passed = False
        self._last_mover = seat
        # The opening places a card too, so its ability fires (C-3, C-6): in practice only
        # Polarize can act on an empty field, by turning the opening 5 itself face down.
        self._placed(local, cell)

    def _invert(self, action: int) -> None:
        local, cell, discard = decode_invert(action)
        seat = self._to_move
        self._under[cell] = self._top[cell]
        self._top[cell] = seat * HAND_SIZE + local + 1
        self._hands[seat] &= ~(1 << local | 1 << discard)
        self._discards[seat] |= 1 << discard
        self._kinds[(self._under[cell] - 1) % HAND_SIZE] &= ~(1 << cell)
        self._refresh_law(cell)
        self._passed = False
        self._last_mover = seat
        self._placed(local, cell)

    def _placed(self, local: int, cell: int) -> None:
        """After a card from the hand lands: offer its Repel or Polarize (C-6), or end."""
        game = self.game
        if game.abilities:
            lv = local % 6 + 1
            if lv == 3:
                options = self._repel_options(cell)
                if options:  # C-10: no decision when nothing can slide
                    self._ability_cell = cell
                    self._phase = REPEL
                    self._legal = [*options, DECLINE]
                    return
            elif lv == 5:
                self._ability_cell = cell
                self._phase = POLARIZE
                self._legal = None
                return
        self._end_turn()

    def _repel(self, source: int) -> None:
        top, under = self._top, self._under
        target = self.game.geometry.repel_to[self._ability_cell][source]
        top[target], under[target] = top[source], under[source]
        top[source] = under[source] = 0
        self.rebuild()
        self._last_mover = self._to_move
        self._end_turn()

    def _pass(self) -> None:
        self._last_mover = self._to_move
        if self._passed:  # C-11: a pass right after the other seat's pass ends the game
            self._finish_by_score()
            return
        self._passed = True
        self._end_turn()

    def _end_turn(self) -> None:
        self._to_move ^= 1
        self._phase = TURN
        game = self.game
        if game.abilities:
            self._legal = None
            return
        legal = self._legal = self._turn_actions()
        if not legal:  # C-13: in the Tutorial game a seat that cannot place loses
            self._winner = self._to_move ^ 1
            self._phase = OVER

    def _refresh_law(self, cell: int) -> None:
        """The top card of ``cell`` changed: recompute what its neighbours allow (C-4) and,
        for a corner among them, whether a 4 could anchor there (C-8)."""
        geo = self.game.geometry
        orth = geo.orth
        top = self._top
        law = self._law
        for n in orth[cell]:
            allowed = _ALL_LEVELS
            for m in orth[n]:
                allowed &= OK_MASK[top[m]]
            law = law & CLEAR_CELL[n] | SPREAD[allowed] << n
        self._law = law
        for corner in geo.corners_beside[cell]:
            self._set_anchor(corner, geo)

    def _set_anchor(self, corner: int, geo: Geometry) -> None:
        """A 4 may go on ``corner`` if each group of its neighbours (two on the flat field;
        in-field and wrapped pairs on a torus) holds at most one card that forbids it."""
        top = self._top
        for group in geo.anchor_pairs[corner]:
            satisfied = 0
            for n in group:
                satisfied |= OK_MASK[top[n]]
            if not satisfied & _BIT4:
                self._anchors &= ~(1 << corner)
                return
        self._anchors |= 1 << corner

    def rebuild(self) -> None:
        """Recompute every mask from the cards on the field (after a slide, or after a
        position is laid out by hand, as tests do)."""
        geo = self.game.geometry
        top, under = self._top, self._under
        occupied = orth = diag = law = 0
        kinds = [0] * HAND_SIZE
        for cell in range(NUM_CELLS):
            if top[cell]:
                occupied |= 1 << cell
                orth |= geo.orth_mask[cell]
                diag |= geo.diag_mask[cell]
                if top[cell] <= FACE_DOWN and not under[cell]:
                    kinds[(top[cell] - 1) % HAND_SIZE] |= 1 << cell
            allowed = _ALL_LEVELS
            for n in geo.orth[cell]:
                allowed &= OK_MASK[top[n]]
            law |= SPREAD[allowed] << cell
        self._occupied, self._orth, self._diag = occupied, orth, diag
        self._kinds, self._law = kinds, law
        for corner in CORNERS:
            self._set_anchor(corner, geo)
        self._legal = None

    def _finish_by_score(self) -> None:
        """C-12: more open cells on your side; then fewer cards there; then the opener."""
        open_cells = [self.open_cells(0), self.open_cells(1)]
        if open_cells[0] != open_cells[1]:
            self._winner = 0 if open_cells[0] > open_cells[1] else 1
        else:
            particles = [self.particles(0), self.particles(1)]
            if particles[0] != particles[1]:
                self._winner = 0 if particles[0] < particles[1] else 1
            else:
                self._winner = self._opener
        self._phase = OVER
        self._legal = []

    # -- refusals ---------------------------------------------------------------------

    def _refusal(self, action: int, typed: str = "") -> str:
        """Why ``action`` is not legal here, with some legal actions; ``typed`` is the text
        it was read from, if any."""
        legal = self.legal_actions()
        shown = ", ".join(self.action_to_string(a) for a in legal[:8])
        more = f", ... ({len(legal)} in all)" if len(legal) > 8 else ""
        if not 0 <= action < NUM_ACTIONS:
            return (f"there is no action {action}; action ids are 0-{NUM_ACTIONS - 1}; "
                    f"legal now: {shown}{more}")
        if self._phase == OVER:
            return f"the game is over; no action is legal (got {action})"
        named = repr(typed) if typed else f"{self.action_to_string(action)!r} (action {action})"
        return f"{named} is not legal: {self._why_not(action)}; legal now: {shown}{more}"

    def _why_not(self, action: int) -> str:
        phase = self._phase
        seat = self._to_move
        game = self.game
        if phase == COIN:
            return "a coin is choosing who opens"
        if action >= OPENER_BASE:
            return f"seat {self._opener} already opened"
        if phase in (REPEL, POLARIZE):
            what = (f"the {CARD_NAMES[self._top[self._ability_cell] - 1]} on "
                    f"{CELL_NAMES[self._ability_cell]}")
            if phase == REPEL and REPEL_BASE <= action < POLARIZE_BASE:
                return (f"nothing on {CELL_NAMES[action - REPEL_BASE]} can slide one cell "
                        f"further from {what} onto an empty cell")
            if phase == POLARIZE and POLARIZE_BASE <= action < DECLINE:
                return (f"{what} can turn face down only itself or a face-up card beside it, "
                        f"not {CELL_NAMES[action - POLARIZE_BASE]}")
            verb = "repels" if phase == REPEL else "polarizes"
            return f"seat {seat} must first decide whether {what} {verb}"
        if action >= REPEL_BASE and action != PASS:
            return "there is no Repel or Polarize to decide now"
        if action == PASS:
            if phase == OPENING:
                return "the opener must open; passing starts with the first turn"
            return "the Tutorial game has no passing (C-13)"
        hand = self._hands[seat]
        if action < INVERT_BASE:
            local, cell = decode_place(action)
            discard = -1
        else:
            local, cell, discard = decode_invert(action)
        card = seat * HAND_SIZE + local
        name = CARD_NAMES[card]
        if not hand >> local & 1:
            return f"the {name} is not in seat {seat}'s hand"
        if phase == OPENING:
            if action >= INVERT_BASE:
                return "the field is empty; the opening puts a card on a centre cell"
            if level(card) in (1, 6):
                return "an Ace or a 6 cannot open"
            return "the opening card goes on a centre cell: b2, c2, b3 or c3"
        where = CELL_NAMES[cell]
        top = self._top[cell]
        if action < INVERT_BASE:
            if top:
                return f"{where} is taken; a card goes on top of another only by inverting"
            geo = game.geometry
            near = self._orth >> cell & 1
            diagonal = game.abilities and level(card) == 2 and self._diag >> cell & 1
            if not near and not diagonal:
                extra = " (a 2 may also go diagonally next to one)" if game.abilities else ""
                return f"{where} is not next to any particle{extra}"
            return self._law_problem(card, cell, geo)
        if discard == local or not hand >> discard & 1:
            return (f"the discard must be another card from seat {seat}'s hand, "
                    f"not {CARD_NAMES[seat * HAND_SIZE + discard]}")
        if not top:
            return f"{where} is empty; there is nothing to invert"
        if self._under[cell]:
            return f"{where} already holds a stack of 2"
        if top > FACE_DOWN:
            return f"the card on {where} is face down and cannot be inverted"
        target = top - 1
        if level(target) != level(card) or is_red(target) == is_red(card):
            return (f"the {name} can invert only a {level(card)} of the other colour, "
                    f"not the {CARD_NAMES[target]}")
        return self._law_problem(card, cell, game.geometry)

    def _law_problem(self, card: int, cell: int, geo: Geometry) -> str:
        lv = level(card)
        blocking = []
        for n in geo.orth[cell]:
            code = self._top[n]
            if not OK_MASK[code] >> lv & 1:
                other = code - 1
                need = "higher" if is_red(other) else "lower"
                blocking.append(f"next to the {CARD_NAMES[other]} on {CELL_NAMES[n]} it must "
                                f"be {need} than {level(other)}")
        if lv == 4 and cell in CORNERS and self.game.abilities:
            blocking.append("an Anchor may ignore only one neighbour" +
                            (" of each pair" if geo.torus else ""))
        return "the Law forbids it: " + "; ".join(blocking)

    # -- notation -----------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        action = as_action_id(action, NUM_ACTIONS)
        if not 0 <= action < NUM_ACTIONS:
            raise NotationError(f"{action} is not a Card Commons action id "
                                f"(ids are 0-{NUM_ACTIONS - 1})")
        return _notation(action, self._to_move, self._phase, self._ability_cell,
                         self.game.geometry)

    def string_to_action(self, text: str) -> int:
        """Parse ``3H c2``, ``inv 4S c3 /AH``, ``repel b2>b1`` (or ``repel b2``),
        ``polarize c2``, ``no repel``, ``no polarize``, ``pass``, ``opener 0``."""
        words = text.lower().replace(">", " > ").replace("/", " ").split()
        try:
            action = self._parse(words)
        except ValueError as problem:
            raise NotationError(f"{text!r}: {problem}") from None
        if action is None:
            raise NotationError(
                f"{text!r} is not Card Commons notation; moves look like 3H c2, "
                "inv 4S c3 /AH, repel b2>b1, polarize c2, no repel, no polarize, pass")
        if action in self.legal_actions():
            return action
        raise NotationError(self._refusal(action, text))

    def _parse(self, words: list[str]) -> int | None:
        seat = self._to_move
        if words == ["pass"]:
            return PASS
        if words in (["no", "repel"], ["no", "polarize"]):
            return DECLINE
        if len(words) == 2 and words[0] == "opener" and words[1] in ("0", "1"):
            return OPENER_BASE + int(words[1])
        if words and words[0] == "repel" and len(words) in (2, 4):
            source = cell_id(words[1])
            if len(words) == 4:
                if words[2] != ">":
                    return None
                target = cell_id(words[3])
                options = self.game.geometry.repel_to
                if self._phase != REPEL or options[self._ability_cell].get(source) != target:
                    raise ValueError(f"nothing slides from {words[1]} to {words[3]} now")
            return REPEL_BASE + source
        if len(words) == 2 and words[0] == "polarize":
            return POLARIZE_BASE + cell_id(words[1])
        if seat < 0:
            return None
        if len(words) == 2:
            return place_action(self._local(words[0]), cell_id(words[1]))
        if len(words) == 4 and words[0] in ("inv", "invert"):
            return invert_action(self._local(words[1]), cell_id(words[2]),
                                 self._local(words[3]))
        return None

    def _local(self, word: str) -> int:
        card = card_id(word)
        seat = self._to_move
        if card // HAND_SIZE != seat:
            raise ValueError(f"the {CARD_NAMES[card]} is not seat {seat}'s card; seat {seat} "
                             f"holds the {SUIT_WORDS[seat]}")
        return card % HAND_SIZE

    # -- copies, results, history ---------------------------------------------------------

    def clone(self) -> CardCommonsState:
        copy = CardCommonsState.__new__(CardCommonsState)
        copy.game = self.game
        copy._top = self._top[:]
        copy._under = self._under[:]
        copy._hands = self._hands[:]
        copy._discards = self._discards[:]
        copy._occupied = self._occupied
        copy._orth = self._orth
        copy._diag = self._diag
        copy._kinds = self._kinds[:]
        copy._law = self._law
        copy._anchors = self._anchors
        copy._phase = self._phase
        copy._to_move = self._to_move
        copy._opener = self._opener
        copy._passed = self._passed
        copy._ability_cell = self._ability_cell
        copy._last_mover = self._last_mover
        copy._winner = self._winner
        copy._legal = self._legal
        copy._history = self._history[:]
        return copy

    def returns(self) -> list[float]:
        winner = self._winner
        if winner < 0:
            return [0.0, 0.0]
        return [1.0, -1.0] if winner == 0 else [-1.0, 1.0]

    def history(self) -> list[int]:
        return self._history[:]

    def resample(self, player: int, rng: random.Random) -> CardCommonsState:
        """Nothing in Card Commons is hidden, so the only consistent state is this one."""
        return self.clone()

    def position_key(self) -> tuple[Any, ...]:
        """Everything that decides the rest of the game, hashable (for the endgame solver's
        transposition table): the field, both hands, whose decision it is, the pass flag,
        the pending ability cell and the opener (the last scoring step)."""
        pending = self._ability_cell if self._phase in (REPEL, POLARIZE) else -1
        return (tuple(self._top), tuple(self._under), self._hands[0], self._hands[1],
                self._phase, self._to_move, self._passed, pending, self._opener)

    # -- reading the field (used by the view, the bots and the tests) -----------------------

    @property
    def variant(self) -> str:
        return str(self.game.options["variant"])

    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    def opener(self) -> int:
        """The seat that opened (-1 before the coin)."""
        return self._opener

    def winner(self) -> int:
        """The winning seat once the game is over, else -1 (there are no draws)."""
        return self._winner

    def hand(self, seat: int) -> list[int]:
        """Card ids in ``seat``'s hand, ascending."""
        return [seat * HAND_SIZE + local for local in HAND_CARDS[self._hands[seat]]]

    def discards(self, seat: int) -> list[int]:
        return [seat * HAND_SIZE + local for local in HAND_CARDS[self._discards[seat]]]

    def stack(self, cell: int) -> list[tuple[int, bool]]:
        """The cards on ``cell``, bottom first, as ``(card, face_up)``."""
        return [(code - 1 if code <= FACE_DOWN else code - 1 - FACE_DOWN, code <= FACE_DOWN)
                for code in (self._under[cell], self._top[cell]) if code]

    def open_cells(self, seat: int) -> int:
        """Cells on ``seat``'s own side with no card at all (C-12)."""
        return 8 - (self._occupied & SIDE_MASKS[seat]).bit_count()

    def particles(self, seat: int) -> int:
        """Cards on ``seat``'s own side, a stack counting 2 (C-12)."""
        side = SIDE_MASKS[seat]
        stacks = sum(1 for cell in cells_in(self._occupied & side) if self._under[cell])
        return (self._occupied & side).bit_count() + stacks

    def lit_cells(self, card: int | str) -> list[str]:
        """The cells the seat to move could put ``card`` on now (by channel, Tunnel or
        invert), as names; empty if the card is not theirs to play."""
        if isinstance(card, str):
            card = card_id(card)
        if self._phase not in (OPENING, TURN) or card // HAND_SIZE != self._to_move:
            return []
        return [CELL_NAMES[c] for c in lit_cells(self.legal_actions(), card % HAND_SIZE)]

    def anchor_ignored(self, cell: int) -> list[int]:
        """Neighbours whose Law the 4 on corner ``cell`` breaks (C-8): the ones it ignores."""
        code = self._top[cell]
        if not code or cell not in CORNERS:
            return []
        card = (code - 1) % FACE_DOWN
        if level(card) != 4:
            return []
        return [n for n in self.game.geometry.orth[cell]
                if not OK_MASK[self._top[n]] & _BIT4]

    # -- the view ---------------------------------------------------------------------

    def view(self, player: int) -> dict[str, Any]:
        """Everything (open information); the same for every seat and a spectator, except
        ``player``, which names the seat asking (``None`` for a spectator)."""
        if not (player in (0, 1) or player == SPECTATOR):
            raise IllegalActionError(f"no seat {player}; seats are 0-1 "
                                     f"(or SPECTATOR, {SPECTATOR})")
        to_move = self.current_player()
        field = {}
        for cell in range(NUM_CELLS):
            field[CELL_NAMES[cell]] = [{"card": CARD_NAMES[card], "face_up": up}
                                       for card, up in self.stack(cell)]
        lit: dict[str, list[str]] = {}
        if self._phase in (OPENING, TURN):
            legal = self.legal_actions()
            for card in self.hand(self._to_move):
                cells = lit_cells(legal, card % HAND_SIZE)
                if cells:
                    lit[CARD_NAMES[card]] = [CELL_NAMES[c] for c in cells]
        ability = None
        if self._phase in (REPEL, POLARIZE):
            cell = self._ability_cell
            ability = {"kind": PHASE_NAMES[self._phase], "cell": CELL_NAMES[cell],
                       "card": CARD_NAMES[(self._top[cell] - 1) % FACE_DOWN]}
        return {
            "game": "card-commons",
            "player": None if player == SPECTATOR else player,
            "variant": self.variant,
            "torus": bool(self.game.options["torus"]),
            "phase": PHASE_NAMES[self._phase],
            "to_move": to_move if to_move >= 0 else None,
            "opener": self._opener if self._opener >= 0 else None,
            "step": len(self._history),
            "field": field,
            "side_rows": [list(rows) for rows in SIDE_ROWS],
            "suits": list(SUIT_PAIRS),
            "hands": [[CARD_NAMES[c] for c in self.hand(seat)] for seat in (0, 1)],
            "discards": [[CARD_NAMES[c] for c in self.discards(seat)] for seat in (0, 1)],
            "open_cells": [self.open_cells(0), self.open_cells(1)],
            "particles": [self.particles(0), self.particles(1)],
            "passed": self._passed,
            "ability": ability,
            "lit": lit,
            "last": self._describe_last(),
            "winner": self._winner if self._winner >= 0 else None,
        }

    def _describe_last(self) -> dict[str, Any] | None:
        """The last action in words-ready data, for log lines and the table."""
        if not self._history:
            return None
        action = self._history[-1]
        seat = self._last_mover
        last: dict[str, Any] = {"seat": seat if seat >= 0 else None}
        if action >= OPENER_BASE:
            last.update(kind="opener", opener=action - OPENER_BASE)
            return last
        if action == PASS:
            last["kind"] = "pass"
            return last
        if action == DECLINE:
            cell = self._ability_cell
            card = self._top[cell] - 1
            last.update(kind="decline", ability="repel" if level(card) == 3 else "polarize",
                        card=CARD_NAMES[card], cell=CELL_NAMES[cell])
            return last
        geo = self.game.geometry
        if action >= POLARIZE_BASE:
            cell = action - POLARIZE_BASE
            last.update(kind="polarize", cell=CELL_NAMES[cell],
                        card=CARD_NAMES[(self._top[cell] - 1) % FACE_DOWN],
                        by=CELL_NAMES[self._ability_cell])
            return last
        if action >= REPEL_BASE:
            source = action - REPEL_BASE
            target = geo.repel_to[self._ability_cell][source]
            last.update(kind="repel", cell=CELL_NAMES[source], to=CELL_NAMES[target],
                        cards=[CARD_NAMES[c] for c, _ in self.stack(target)],
                        by=CELL_NAMES[self._ability_cell])
            return last
        if action >= INVERT_BASE:
            local, cell, discard = decode_invert(action)
            last.update(kind="invert", card=CARD_NAMES[seat * HAND_SIZE + local],
                        cell=CELL_NAMES[cell],
                        covered=CARD_NAMES[self.stack(cell)[0][0]],
                        discard=CARD_NAMES[seat * HAND_SIZE + discard])
        else:
            local, cell = decode_place(action)
            opening = len(self._history) == 2
            tunnel = not opening and not self._orth_occupied(cell, geo)
            last.update(kind="open" if opening else "tunnel" if tunnel else "channel",
                        card=CARD_NAMES[seat * HAND_SIZE + local], cell=CELL_NAMES[cell])
        ignored = self.anchor_ignored(cell) if self.game.abilities else []
        if ignored and self._top[cell] - 1 == seat * HAND_SIZE + local:
            last["ignored"] = [CELL_NAMES[n] for n in ignored]
        return last

    def _orth_occupied(self, cell: int, geo: Geometry) -> bool:
        return bool(self._occupied & geo.orth_mask[cell])


def _notation(action: int, seat: int, phase: int, ability_cell: int, geo: Geometry) -> str:
    """The text of ``action`` with ``seat`` to move (see ``notation`` for the layout)."""
    if action >= OPENER_BASE:
        return f"opener {action - OPENER_BASE}"
    if action == PASS:
        return "pass"
    if action == DECLINE:
        return "no polarize" if phase == POLARIZE else "no repel"
    if action >= POLARIZE_BASE:
        return f"polarize {CELL_NAMES[action - POLARIZE_BASE]}"
    if action >= REPEL_BASE:
        source = action - REPEL_BASE
        target = geo.repel_to[ability_cell].get(source, -1) if ability_cell >= 0 else -1
        beyond = f">{CELL_NAMES[target]}" if target >= 0 else ""
        return f"repel {CELL_NAMES[source]}{beyond}"
    owner = max(seat, 0) * HAND_SIZE
    if action >= INVERT_BASE:
        local, cell, discard = decode_invert(action)
        return (f"inv {CARD_NAMES[owner + local]} {CELL_NAMES[cell]} "
                f"/{CARD_NAMES[owner + discard]}")
    local, cell = decode_place(action)
    return f"{CARD_NAMES[owner + local]} {CELL_NAMES[cell]}"


__all__ = ["CLASSIC", "TUTORIAL", "CardCommonsGame", "CardCommonsState"]
