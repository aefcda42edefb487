"""Hadronize's rules in JAX (``games/hadronize/rules.py`` again, as array operations).

The board is ``games/hadronize/compiled.py``'s layout followed by the last turn as the view
shows it (``LAST_*``: mover, observer, flavour, reaction, quarks in it; the reaction is -1
before the first turn ends), which the observation reads. Rulings: as the reference
engine's (H-1 to H-9).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp
import numpy as np

from quarkade.core.protocol import CHANCE, TERMINAL, State
from quarkade.games.hadronize import compiled as layout
from quarkade.games.hadronize.encode import COUNT_CAP, TURN_CAP
from quarkade.games.hadronize.notation import (
    FIRST_BASE,
    FLAVOUR_BASE,
    NUM_ACTIONS,
    NUM_FLAVOURS,
    OBSERVE_BASE,
    SUPERPOSE_BASE,
)
from quarkade.games.hadronize.notation import SUPERPOSITIONS as _SUPERPOSITIONS
from quarkade.games.hadronize.rules import (
    COLLAPSE,
    DEAL,
    FIRST,
    NO_REACTION,
    OBSERVE,
    OVER,
    STARTING_QUARKS,
    SUPERPOSE,
    TUNNELLED,
    HadronizeGame,
)
from quarkade.jax.env import Rules

(PLAYERS, GOAL, MAX_TURNS, PHASE, DEALT, ACTIVE, SUPER, OBSERVER, TURNS,
 WINNERS) = range(10)
HADRONIZED, CHAMBERS = layout.HADRONIZED, layout.CHAMBERS
LAST_ACTIVE = layout.SIZE
LAST_OBSERVER, LAST_FLAVOUR, LAST_REACTION, LAST_COUNT = range(LAST_ACTIVE + 1, LAST_ACTIVE + 5)
BOARD_SIZE = LAST_ACTIVE + 5
HADRONIZE, TUNNEL = 1, 2  # reactions, as the encoding orders them (none first)
REACTION_IDS = {NO_REACTION: 0, "hadronize": HADRONIZE, TUNNELLED: TUNNEL}

SUPERPOSITIONS = jnp.asarray(np.array(_SUPERPOSITIONS, np.int32))
SUPERPOSED = jnp.asarray(np.array([[f in sup for f in range(NUM_FLAVOURS)]
                                   for sup in _SUPERPOSITIONS], np.float32))
ACTION_IDS = jnp.arange(NUM_ACTIONS, dtype=jnp.int32)


@dataclass(frozen=True)
class HadronizeRules(Rules):
    """Hadronize for one set of options (players, goal, max_turns)."""

    # -- whose move, what is legal ------------------------------------------------------

    def current_player(self, board: jax.Array) -> jax.Array:
        phase = board[PHASE]
        return jnp.where(phase == OBSERVE, board[ACTIVE],
                         jnp.where(phase == OVER, TERMINAL, CHANCE)).astype(jnp.int32)

    def legal_mask(self, board: jax.Array) -> jax.Array:
        """The legal action ids, or a chance node's outcomes (ascending, as a mask)."""
        phase = board[PHASE]
        n = self.num_players
        ids = ACTION_IDS
        superposition = SUPERPOSITIONS[jnp.maximum(board[SUPER], 0)]
        collapse = jnp.isin(ids - FLAVOUR_BASE, superposition)
        seats = ids - OBSERVE_BASE
        firsts = ids - FIRST_BASE
        flavours = ids - FLAVOUR_BASE
        return jnp.select(
            [phase == OBSERVE, phase == SUPERPOSE, phase == COLLAPSE, phase == DEAL,
             phase == FIRST],
            [(seats >= 0) & (seats < n), ids < OBSERVE_BASE,
             collapse & (flavours >= 0) & (flavours < NUM_FLAVOURS),
             (flavours >= 0) & (flavours < NUM_FLAVOURS), (firsts >= 0) & (firsts < n)],
            jnp.zeros(NUM_ACTIONS, jnp.bool_))

    def chance_weights(self, board: jax.Array) -> jax.Array:
        """Every outcome equally likely (H-1 to H-4)."""
        return jnp.where(self.legal_mask(board), 1.0, 0.0)

    # -- playing -------------------------------------------------------------------------

    def apply(self, board: jax.Array, action: jax.Array) -> jax.Array:
        phase = jnp.clip(board[PHASE], 0, OVER)
        return jax.lax.switch(phase, [self._deal, self._first, self._superpose,
                                      self._observe, self._react, lambda b, a: b],
                              board, action)

    def _deal(self, board: jax.Array, action: jax.Array) -> jax.Array:
        seat = board[DEALT] // STARTING_QUARKS  # H-2
        board = board.at[CHAMBERS + seat * NUM_FLAVOURS + action - FLAVOUR_BASE].add(1)
        board = board.at[DEALT].add(1)
        done = board[DEALT] == STARTING_QUARKS * self.num_players
        return board.at[PHASE].set(jnp.where(done, FIRST, DEAL))

    def _first(self, board: jax.Array, action: jax.Array) -> jax.Array:
        return board.at[ACTIVE].set(action - FIRST_BASE).at[PHASE].set(SUPERPOSE)

    def _superpose(self, board: jax.Array, action: jax.Array) -> jax.Array:
        return board.at[SUPER].set(action - SUPERPOSE_BASE).at[PHASE].set(OBSERVE)

    def _observe(self, board: jax.Array, action: jax.Array) -> jax.Array:
        return board.at[OBSERVER].set(action - OBSERVE_BASE).at[PHASE].set(COLLAPSE)

    def _react(self, board: jax.Array, action: jax.Array) -> jax.Array:
        """The collapse lands in the observer's chamber and reacts (H-5 to H-8)."""
        n = self.num_players
        flavour = action - FLAVOUR_BASE
        active, observer = board[ACTIVE], board[OBSERVER]
        slot = CHAMBERS + observer * NUM_FLAVOURS + flavour
        held = board[slot]
        own = observer == active
        reaction = jnp.where(held == 0, 0, jnp.where(own, HADRONIZE, TUNNEL))
        board = board.at[slot].set(jnp.where(held == 0, 1, 0))
        board = board.at[HADRONIZED + active].add(jnp.where(reaction == HADRONIZE, held + 1, 0))
        board = board.at[CHAMBERS + active * NUM_FLAVOURS + flavour].add(
            jnp.where(reaction == TUNNEL, held + 1, 0))
        board = board.at[LAST_ACTIVE].set(active).at[LAST_OBSERVER].set(observer)
        board = board.at[LAST_FLAVOUR].set(flavour).at[LAST_REACTION].set(reaction)
        board = board.at[LAST_COUNT].set(jnp.where(held == 0, 1, held + 1))
        board = board.at[TURNS].add(1).at[OBSERVER].set(-1).at[SUPER].set(-1)
        scores = board[HADRONIZED:HADRONIZED + n]
        won = scores[active] >= board[GOAL]  # H-7: only the mover's score can rise
        capped = board[TURNS] == board[MAX_TURNS]  # H-8 (0 never equals)
        seat_bits = 1 << jnp.arange(n, dtype=jnp.int32)
        leaders = jnp.sum(jnp.where(scores == scores.max(), seat_bits, 0))
        winners = jnp.where(won, 1 << active, jnp.where(capped, leaders, 0))
        over = won | capped
        board = board.at[WINNERS].set(winners)
        board = board.at[PHASE].set(jnp.where(over, OVER, SUPERPOSE))
        return board.at[ACTIVE].set(jnp.where(over, active, (active + 1) % n))

    def returns(self, board: jax.Array) -> jax.Array:
        return shared_returns(board[WINNERS], board[PHASE] == OVER, self.num_players)

    # -- what a seat sees --------------------------------------------------------------------

    def observe(self, board: jax.Array, seat: jax.Array) -> jax.Array:
        """``encode.encode_state(state, seat)``: everything is open; seats from ``seat``."""
        n = self.num_players
        me = jnp.maximum(seat, 0)
        order = (me + jnp.arange(n)) % n  # the seat in each slot

        def slot_of(target: jax.Array) -> jax.Array:
            return jax.nn.one_hot((target - me) % n, n) * (target >= 0)

        phase = jax.nn.one_hot(board[PHASE], 6)
        chambers = board[CHAMBERS:CHAMBERS + 6 * n].reshape(n, 6)[order]
        chambers = jnp.minimum(chambers / COUNT_CAP, 1.0).reshape(-1)
        goal = board[GOAL]
        hadronized = jnp.minimum(board[HADRONIZED:HADRONIZED + n][order] / goal, 1.0)
        superposition = SUPERPOSED[jnp.maximum(board[SUPER], 0)] * (board[SUPER] >= 0)
        cap = jnp.where(board[MAX_TURNS] > 0, board[MAX_TURNS], TURN_CAP)
        turn = jnp.minimum(board[TURNS] / cap, 1.0)[None]
        seen = board[LAST_REACTION] >= 0
        last = jnp.concatenate([
            slot_of(board[LAST_ACTIVE]), slot_of(board[LAST_OBSERVER]),
            jax.nn.one_hot(board[LAST_FLAVOUR], 6), jax.nn.one_hot(board[LAST_REACTION], 3),
            jnp.minimum(board[LAST_COUNT] / COUNT_CAP, 1.0)[None]]) * seen
        winners = ((board[WINNERS] >> order) & 1).astype(jnp.float32)
        return jnp.concatenate([
            phase, slot_of(board[ACTIVE]), chambers, hadronized, superposition,
            slot_of(board[OBSERVER]), turn, last, winners]).astype(jnp.float32)

    # -- the bridge --------------------------------------------------------------------------

    def extra_slots(self, state: State) -> list[int]:
        last = state._last  # type: ignore[attr-defined]
        if last is None:
            return [-1, -1, 0, -1, 0]
        active, observer, flavour, reaction, count = last
        return [active, observer, flavour, REACTION_IDS[reaction], count]


def shared_returns(winners: jax.Array, over: jax.Array, players: int) -> jax.Array:
    """``protocol.shared_returns`` of a winners bit mask: winners share +1, the others -1
    (zeros before the end, or when every seat won)."""
    won = ((winners >> jnp.arange(players)) & 1).astype(jnp.float32)
    count = won.sum()
    share = jnp.where((count > 0) & (count < players),
                      won / jnp.maximum(count, 1) - (1 - won) / jnp.maximum(players - count, 1),
                      0.0)
    return jnp.where(over, share, 0.0).astype(jnp.float32)


def rules(game: HadronizeGame) -> HadronizeRules:
    n = game.num_players
    return HadronizeRules(
        name="hadronize", game=game, num_players=n, num_actions=NUM_ACTIONS,
        board_size=BOARD_SIZE, observation_size=23 + 12 * n,
        max_chance=STARTING_QUARKS * n + 2, compiled=layout)
