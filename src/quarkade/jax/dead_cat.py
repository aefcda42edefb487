"""Dead Cat's rules in JAX (``games/dead_cat/rules.py`` again, as array operations).

The board is ``games/dead_cat/compiled.py``'s layout followed by the last finished round
as everyone saw it end (``LAST_*``: whether there was one, its announcer or -1 when the
box ran out, the first dead cat's place from the top, the cards turned over, the dice and
the round's winners as a bit mask), which the observation reads. The chance model is the
reference's (DC-3): each peek draws alive or dead weighted by the round's undrawn cards.
A seat's observation shows a time-deck card's face only to its peeker (DC-14).
"""

from __future__ import annotations

from dataclasses import dataclass

import jax
import jax.numpy as jnp

from quarkade.core.protocol import CHANCE, TERMINAL, State
from quarkade.games.dead_cat import compiled as layout
from quarkade.games.dead_cat.encode import CARD_FEATURES
from quarkade.games.dead_cat.notation import (
    ALIVE,
    ANNOUNCE,
    BET_BASE,
    DEAD,
    FIRST_BASE,
    NUM_ACTIONS,
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
)
from quarkade.jax.env import Rules
from quarkade.jax.hadronize import shared_returns

(PLAYERS, PEEK_FIRST, PHASE, MOVER, STARTER, ROUND, DEAD_CATS, DECK,
 WINNERS) = range(9)
MAX_SEATS, MAX_DECK = layout.MAX_SEATS, layout.MAX_DECK
DICE, CUBES, CARDS, PEEKERS = layout.DICE, layout.CUBES, layout.CARDS, layout.PEEKERS
LAST_ROUND = layout.SIZE
LAST_ANNOUNCER, LAST_FIRST_DEAD, LAST_REVEALED = range(LAST_ROUND + 1, LAST_ROUND + 4)
LAST_DICE = LAST_ROUND + 4
LAST_WINNERS = LAST_DICE + MAX_SEATS
BOARD_SIZE = LAST_WINNERS + 1
ACTION_IDS = jnp.arange(NUM_ACTIONS, dtype=jnp.int32)


@dataclass(frozen=True)
class DeadCatRules(Rules):
    """Dead Cat for one set of options (players, peek_first)."""

    # -- whose move, what is legal ------------------------------------------------------

    def current_player(self, board: jax.Array) -> jax.Array:
        phase = board[PHASE]
        return jnp.where((phase == TURN) | (phase == BET), board[MOVER],
                         jnp.where(phase == OVER, TERMINAL, CHANCE)).astype(jnp.int32)

    def _undrawn(self, board: jax.Array) -> tuple[jax.Array, jax.Array]:
        """(alive, dead) cards of the round not in the time deck (DC-3)."""
        n = self.num_players
        undrawn = (ALIVE_PER_SEAT + DEAD_PER_SEAT) * n - board[DECK]
        dead_left = DEAD_PER_SEAT * n - board[DEAD_CATS]
        return undrawn - dead_left, dead_left

    def legal_mask(self, board: jax.Array) -> jax.Array:
        phase = board[PHASE]
        ids = ACTION_IDS
        may_announce = (board[DECK] > 0) | (board[PEEK_FIRST] == 0)  # DC-6
        turn = (ids == PEEK) | ((ids == ANNOUNCE) & may_announce)
        shown = board[DICE + jnp.clip(board[MOVER], 0, MAX_SEATS - 1)]
        bet = (ids >= BET_BASE) & (ids < BET_BASE + 6) & (ids - BET_BASE + 1 != shown)  # DC-5
        alive_left, dead_left = self._undrawn(board)
        draw = ((ids == ALIVE) & (alive_left > 0)) | ((ids == DEAD) & (dead_left > 0))
        first = (ids >= FIRST_BASE) & (ids < FIRST_BASE + self.num_players)
        return jnp.select([phase == TURN, phase == BET, phase == DRAW, phase == FIRST],
                          [turn, bet, draw, first], jnp.zeros(NUM_ACTIONS, jnp.bool_))

    def chance_weights(self, board: jax.Array) -> jax.Array:
        alive_left, dead_left = self._undrawn(board)
        draws = jnp.where(ACTION_IDS == ALIVE, alive_left,
                          jnp.where(ACTION_IDS == DEAD, dead_left, 0))
        weights = jnp.where(board[PHASE] == DRAW, draws, 1)
        return jnp.where(self.legal_mask(board), weights, 0).astype(jnp.float32)

    # -- playing -------------------------------------------------------------------------

    def apply(self, board: jax.Array, action: jax.Array) -> jax.Array:
        phase = jnp.clip(board[PHASE], 0, OVER)
        return jax.lax.switch(phase, [self._first, self._turn, self._draw, self._bet,
                                      lambda b, a: b], board, action)

    def _first(self, board: jax.Array, action: jax.Array) -> jax.Array:
        seat = action - FIRST_BASE  # DC-1
        return board.at[STARTER].set(seat).at[MOVER].set(seat).at[PHASE].set(TURN)

    def _turn(self, board: jax.Array, action: jax.Array) -> jax.Array:
        return jax.lax.cond(action == PEEK, lambda b: b.at[PHASE].set(DRAW),
                            lambda b: self._end_round(b, b[MOVER]), board)

    def _draw(self, board: jax.Array, action: jax.Array) -> jax.Array:
        deck = board[DECK]
        card = action - ALIVE
        board = board.at[CARDS + deck].set(card).at[DEAD_CATS].add(card)
        board = board.at[PEEKERS + deck].set(board[MOVER]).at[DECK].set(deck + 1)
        return board.at[PHASE].set(BET)

    def _bet(self, board: jax.Array, action: jax.Array) -> jax.Array:
        mover = board[MOVER]
        board = board.at[DICE + mover].set(action - BET_BASE + 1)
        ran_out = board[DECK] == ALIVE_PER_SEAT * self.num_players  # DC-10

        def next_seat(b: jax.Array) -> jax.Array:
            return b.at[MOVER].set((mover + 1) % self.num_players).at[PHASE].set(TURN)

        return jax.lax.cond(ran_out, lambda b: self._end_round(b, NO_ANNOUNCER), next_seat,
                            board)

    def _end_round(self, board: jax.Array, announcer: jax.Array | int) -> jax.Array:
        """Reveal, score, and set up the next round or end the game (DC-7 to DC-13)."""
        n = self.num_players
        seats = jnp.arange(MAX_SEATS)
        present = seats < n
        deck = board[DECK]
        cards = board[CARDS:CARDS + MAX_DECK]
        places = jnp.arange(MAX_DECK)
        top_dead = jnp.max(jnp.where((cards == 1) & (places < deck), places, -1))
        count = jnp.where(top_dead >= 0, deck - top_dead, 0)  # DC-7: from the top
        dice = board[DICE:DICE + MAX_SEATS]
        cubes = board[CUBES:CUBES + MAX_SEATS]
        winners = round_winners(dice, cubes, count, announcer, present)
        won = ((winners >> seats) & 1) * present
        cubes = cubes + won  # DC-11
        board = board.at[CUBES:CUBES + MAX_SEATS].set(cubes)
        board = board.at[LAST_ROUND].set(1).at[LAST_ANNOUNCER].set(announcer)
        board = board.at[LAST_FIRST_DEAD].set(count)
        board = board.at[LAST_REVEALED].set(jnp.where(count > 0, count, deck))
        board = board.at[LAST_DICE:LAST_DICE + MAX_SEATS].set(dice)
        board = board.at[LAST_WINNERS].set(winners)
        board = board.at[CARDS:PEEKERS + MAX_DECK].set(0)
        board = board.at[DECK].set(0).at[DEAD_CATS].set(0)
        finished = jnp.any((cubes >= GOAL) & present)  # DC-13
        champions = jnp.sum(jnp.where((cubes >= GOAL) & present, 1 << seats, 0))
        starter = (board[STARTER] - 1) % n  # DC-2, DC-12
        over = board.at[WINNERS].set(champions).at[PHASE].set(OVER)
        again = board.at[ROUND].add(1).at[STARTER].set(starter).at[MOVER].set(starter)
        again = again.at[DICE:DICE + MAX_SEATS].set(jnp.where(present, 1, 0))
        again = again.at[PHASE].set(TURN)
        return jnp.where(finished, over, again)

    def returns(self, board: jax.Array) -> jax.Array:
        return shared_returns(board[WINNERS], board[PHASE] == OVER, self.num_players)

    def resample(self, board: jax.Array, seat: jax.Array, key: jax.Array) -> jax.Array:
        """``DeadCatState.resample`` for what lies ahead: this round's time-deck cards that
        ``seat`` did not peek, drawn again in draw order from the round's cards it has not
        seen (DC-3, DC-14); past rounds never matter again."""
        n = self.num_players
        deck = board[DECK]
        places = jnp.arange(MAX_DECK)
        cards = board[CARDS:CARDS + MAX_DECK]
        drawn = places < deck
        seen = drawn & (board[PEEKERS:PEEKERS + MAX_DECK] == seat)
        unseen = (ALIVE_PER_SEAT + DEAD_PER_SEAT) * n - seen.sum()
        unseen_dead = DEAD_PER_SEAT * n - jnp.sum(seen * cards)

        def draw(carry: tuple[jax.Array, jax.Array], place: tuple[jax.Array, ...]
                 ) -> tuple[tuple[jax.Array, jax.Array], jax.Array]:
            unseen, unseen_dead = carry
            card, hidden, uniform = place
            dead = uniform * unseen < unseen_dead
            new = jnp.where(hidden, dead.astype(jnp.int32), card)
            return ((unseen - hidden, unseen_dead - (hidden & dead)), new)

        uniforms = jax.random.uniform(key, (MAX_DECK,))
        _, cards = jax.lax.scan(draw, (unseen, unseen_dead), (cards, drawn & ~seen, uniforms))
        board = board.at[CARDS:CARDS + MAX_DECK].set(cards)
        return board.at[DEAD_CATS].set(jnp.sum(cards * drawn))

    # -- what a seat sees --------------------------------------------------------------------

    def observe(self, board: jax.Array, seat: jax.Array) -> jax.Array:
        """``encode.encode_state(state, seat)``: a card's face only for its peeker."""
        n = self.num_players
        box_size = ALIVE_PER_SEAT * n
        me = jnp.maximum(seat, 0)
        order = (me + jnp.arange(n)) % n

        def slot_of(target: jax.Array) -> jax.Array:
            return jax.nn.one_hot((target - me) % n, n) * (target >= 0)

        phase = jax.nn.one_hot(board[PHASE], 5)
        played = jnp.minimum((board[ROUND] - 1) / (3 * n), 1.0)[None]
        dice = jax.nn.one_hot(board[DICE:DICE + n][order] - 1, 6).reshape(-1)
        cubes = jnp.minimum(board[CUBES:CUBES + n][order] / GOAL, 1.0)
        box = ((box_size - board[DECK]) / box_size)[None]
        places = jnp.arange(box_size)
        drawn = places < board[DECK]
        cards = board[CARDS:CARDS + box_size]
        peekers = board[PEEKERS:PEEKERS + box_size]
        known = drawn & (peekers == seat)
        deck = jnp.concatenate([
            drawn[:, None], (known & (cards == 0))[:, None], (known & (cards == 1))[:, None],
            jax.nn.one_hot((peekers - me) % n, n) * drawn[:, None]], axis=1)
        assert deck.shape[1] == CARD_FEATURES + n
        announcer = board[LAST_ANNOUNCER]
        last = jnp.concatenate([
            jnp.ones(1), slot_of(announcer), (announcer < 0)[None],
            (board[LAST_FIRST_DEAD] / box_size)[None], (board[LAST_REVEALED] / box_size)[None],
            board[LAST_DICE:LAST_DICE + n][order] / 6,
            (board[LAST_WINNERS] >> order) & 1]) * (board[LAST_ROUND] > 0)
        winners = (board[WINNERS] >> order) & 1
        return jnp.concatenate([
            phase, slot_of(board[MOVER]), slot_of(board[STARTER]), played, dice, cubes, box,
            deck.reshape(-1), last, winners, board[PEEK_FIRST][None]]).astype(jnp.float32)

    # -- the bridge --------------------------------------------------------------------------

    def extra_slots(self, state: State) -> list[int]:
        rounds = state.rounds()  # type: ignore[attr-defined]
        if not rounds:
            return [0, 0, 0, 0, *[0] * MAX_SEATS, 0]
        last = rounds[-1]
        dice = [*last.dice, *[0] * (MAX_SEATS - len(last.dice))]
        return [1, last.announcer, last.first_dead, len(last.revealed), *dice,
                sum(1 << seat for seat in last.winners)]


def round_winners(dice: jax.Array, cubes: jax.Array, count: jax.Array,
                  announcer: jax.Array | int,
                  present: jax.Array) -> jax.Array:
    """``rules.round_winners`` as a bit mask (DC-8, DC-9) over the seats ``present``."""
    seats = jnp.arange(dice.shape[0])
    distance = jnp.min(jnp.where(present, jnp.abs(dice - count), 99))
    lower = jnp.any(present & (dice == count - distance))
    closest = jnp.where(lower, count - distance, count + distance)
    number = jnp.where(count > 0, closest, jnp.max(jnp.where(present, dice, 0)))
    holders = present & (dice == number)
    fewest = jnp.min(jnp.where(holders, cubes, 999))
    by_cubes = holders & (cubes == fewest)
    announced = (announcer >= 0) & holders[jnp.clip(announcer, 0, dice.shape[0] - 1)]
    chosen = jnp.where(holders.sum() == 1, holders,
                       jnp.where(announced, seats == announcer, by_cubes))
    return jnp.sum(jnp.where(chosen, 1 << seats, 0)).astype(jnp.int32)


def rules(game: DeadCatGame) -> DeadCatRules:
    n = game.num_players
    return DeadCatRules(
        name="dead-cat", game=game, num_players=n, num_actions=NUM_ACTIONS,
        board_size=BOARD_SIZE, observation_size=4 * n * n + 25 * n + 12, max_chance=1,
        compiled=layout)
