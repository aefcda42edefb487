"""What every JAX environment shares: pgx's model over one game's rules written in JAX.

A game's rules (``quarkade.jax.<game>``) are pure functions of a *board*: one flat
``int32`` vector laid out as the game's compiled engine lays its state out
(``games/<game>/compiled.py``), plus a few slots the observation reads (the last turn or
round, which the compiled engines do not keep). So the bridge to and from the reference
engine is the compiled engine's (``to_compiled``, ``from_compiled``) and the differential
tests compare boards slot by slot. The rules answer, for any board, whose move it is
(a seat, ``CHANCE`` or ``TERMINAL``), the legal action ids (or the chance outcomes) as a
mask, the chance outcomes' weights, the board after any action id (chance ones
included), the returns and a seat's observation.

``JaxEnv`` (a ``pgx.Env``) hides chance the way pgx's stochastic games do: ``init(key)``
and ``step(state, action, key)`` play every chance node with ``key`` until a seat has to
decide (or the game is over), and keep the outcomes drawn in ``state._chance`` (``-1`` past
them), so a game played here is a reference history: each decision followed by the
chance outcomes after it (``quarkade.jax.records``). Action ids are the reference engine's.
A state's ``observation`` is the seat to move's encoding (``games/<game>/encode.py``,
the research adapters' observation, docs/RESEARCH.md), computed from what that seat may
know; ``observe(state, seat)`` gives any seat's.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, ClassVar

import jax
import jax.numpy as jnp
import numpy as np
import pgx
from pgx._src.struct import dataclass as pytree_dataclass

from quarkade.core.protocol import CHANCE, TERMINAL, Game, State

FALSE = jnp.bool_(False)
TRUE = jnp.bool_(True)


@pytree_dataclass
class JaxState(pgx.State):
    """pgx's six public fields and step count, the board and the last chance outcomes."""

    current_player: jax.Array = jnp.int32(0)
    observation: jax.Array = jnp.zeros(0, jnp.float32)
    rewards: jax.Array = jnp.zeros(0, jnp.float32)
    terminated: jax.Array = FALSE
    truncated: jax.Array = FALSE
    legal_action_mask: jax.Array = jnp.zeros(0, jnp.bool_)
    _step_count: jax.Array = jnp.int32(0)
    _board: jax.Array = jnp.zeros(0, jnp.int32)
    _chance: jax.Array = jnp.zeros(0, jnp.int32)

    @property
    def env_id(self) -> Any:
        return "quarkade"


@dataclass(frozen=True)
class Rules:
    """One game's rules in JAX, for one set of options (shapes depend on them)."""

    name: str
    game: Game  # the reference game of these options
    num_players: int
    num_actions: int
    board_size: int
    observation_size: int
    max_chance: int  # the most chance nodes in a row (the setup's, usually)
    compiled: Any  # the game's compiled module: the layout and the bridge
    # Nothing hidden and no chance once the game is under way: a move's outcome in a
    # search is the game's own (a bot's search may prove wins and losses there,
    # search.play_search).
    certain: ClassVar[bool] = False
    # The rules measure how much of a game is left (``left``): self-play may then start
    # most games near the end (``alphazero.Config.endgame_share``).
    staged: ClassVar[bool] = False

    # Each game overrides these (pure, jittable, on one board).
    def current_player(self, board: jax.Array) -> jax.Array:
        raise NotImplementedError

    def legal_mask(self, board: jax.Array) -> jax.Array:
        raise NotImplementedError

    def chance_weights(self, board: jax.Array) -> jax.Array:
        raise NotImplementedError

    def apply(self, board: jax.Array, action: jax.Array) -> jax.Array:
        raise NotImplementedError

    def returns(self, board: jax.Array) -> jax.Array:
        raise NotImplementedError

    def observe(self, board: jax.Array, seat: jax.Array) -> jax.Array:
        raise NotImplementedError

    def left(self, board: jax.Array) -> jax.Array:
        """How much of the game is left on ``board``, in the game's own unit (Card Commons:
        the empty cells); only where ``staged``."""
        raise NotImplementedError

    def most_legal(self) -> int:
        """The most legal actions any decision of these rules can have (a bound, not a
        count seen): the search keeps a node's actions in this many slots instead of
        every action id (``search.search``); by default every action id."""
        return self.num_actions

    def symmetries(self) -> np.ndarray:
        """``[k, num_actions]``: for each map under which the rules are the same (the
        identity first), the id each action takes once the position is mapped
        (Card Commons: ``games/card_commons/symmetry.py``); a game without any, the
        identity alone."""
        return np.arange(self.num_actions)[None]

    feature_size: ClassVar[int] = 0  # what ``features`` adds to an observation

    def features(self, observation: jax.Array) -> jax.Array:
        """A batch of observations followed by what the game derives from them for a
        network that asks for it (Card Commons: ``games/card_commons/features.py``)."""
        return observation

    def map_observation(self, observation: jax.Array, which: int) -> jax.Array:
        """A batch of observations (``[..., observation_size]``) as seen in the position
        mapped by symmetry ``which`` (an index into ``symmetries()``)."""
        return observation

    def exact(self, limit: int, moves: bool = False
              ) -> Callable[[np.ndarray], tuple[float, int]] | None:
        """Where the game has an exact solver for these options: a function (numpy,
        outside jit, keeping its solver's table between calls) giving a board's value
        for the seat to move, 1.0 won or -1.0 lost, where at most ``limit`` is ``left``
        and the solver settles it, NaN elsewhere, and (with ``moves``) a winning action
        where it is won, else -1; None where there is no solver."""
        return None

    def resample(self, board: jax.Array, seat: jax.Array, key: jax.Array) -> jax.Array:
        """A board ``seat`` cannot tell from this one, its hidden part drawn with ``key``
        from what the seat knows (``State.resample``); an open game's is the board."""
        return board

    # The bridge (numpy, outside jit).
    def extra_slots(self, state: State) -> list[int]:
        """The slots past the compiled layout, read from a reference state."""
        return []

    def to_board(self, state: State) -> np.ndarray:
        """The board of a reference state."""
        layout = self.compiled.to_compiled(state)
        return np.array([*layout.tolist(), *self.extra_slots(state)], np.int32)

    def to_state(self, board: Any) -> State:
        """A reference state in the position of ``board`` (without its history)."""
        layout = np.asarray(board, np.int64)[:self.compiled.SIZE]
        return self.compiled.from_compiled(self.game, layout)

    def initial_board(self) -> np.ndarray:
        return self.to_board(self.game.new_initial_state())


class JaxEnv(pgx.Env):
    """A Quarkade game as a pgx environment (see the module docstring)."""

    def __init__(self, rules: Rules) -> None:
        super().__init__()
        self.rules = rules
        self._initial = jnp.asarray(rules.initial_board())
        self.apply = jax.jit(rules.apply)  # one action id on a board, chance ones included
        self._at = jax.jit(self._at_board)  # a board's state, observed (the bridge's way in)

    # -- pgx's interface ------------------------------------------------------------------

    @property
    def id(self) -> Any:
        return f"quarkade/{self.rules.name}"

    @property
    def version(self) -> str:
        return "v1"

    @property
    def num_players(self) -> int:
        return self.rules.num_players

    @property
    def num_actions(self) -> int:
        return self.rules.num_actions

    @property
    def observation_shape(self) -> tuple[int, ...]:
        return (self.rules.observation_size,)

    def _init(self, key: jax.Array) -> JaxState:
        board, chance = self.settle(self._initial, key)
        return self.wrap(board, chance)

    def _step(self, state: pgx.State, action: jax.Array, key: jax.Array | None) -> JaxState:
        if key is None:
            raise ValueError("Quarkade's games have chance: step(state, action, key) needs "
                             "a key")
        board = self.rules.apply(state._board, jnp.int32(action))
        board, chance = self.settle(board, key)
        return self.wrap(board, chance, state._step_count)

    def _observe(self, state: pgx.State, player_id: jax.Array) -> jax.Array:
        return self.rules.observe(state._board, player_id)

    # -- chance and the bridge -------------------------------------------------------------

    def settle(self, board: jax.Array, key: jax.Array) -> tuple[jax.Array, jax.Array]:
        """Play chance nodes with ``key`` until a seat decides or the game ends: the board
        and the outcomes drawn (``-1`` past them)."""
        rules = self.rules
        chance = jnp.full(rules.max_chance, -1, jnp.int32)

        def undecided(carry: tuple[Any, ...]) -> jax.Array:
            return rules.current_player(carry[0]) == CHANCE

        def draw(carry: tuple[Any, ...]) -> tuple[Any, ...]:
            board, key, chance, count = carry
            key, sub = jax.random.split(key)
            weights = rules.chance_weights(board)
            outcome = jax.random.choice(sub, rules.num_actions, p=weights / weights.sum())
            outcome = outcome.astype(jnp.int32)
            return rules.apply(board, outcome), key, chance.at[count].set(outcome), count + 1

        board, _, chance, _ = jax.lax.while_loop(undecided, draw,
                                                 (board, key, chance, jnp.int32(0)))
        return board, chance

    def resample(self, state: JaxState, key: jax.Array) -> JaxState:
        """``state`` with what its seat to move cannot see drawn again (for search)."""
        board = self.rules.resample(state._board, state.current_player, key)
        return state.replace(_board=board)

    def wrap(self, board: jax.Array, chance: jax.Array,
             step_count: jax.Array | None = None) -> JaxState:
        """The pgx state of a board at a decision (or the end)."""
        rules = self.rules
        player = rules.current_player(board)
        terminated = player == TERMINAL
        mask = rules.legal_mask(board)
        return JaxState(
            current_player=jnp.where(terminated, 0, player).astype(jnp.int32),
            observation=jnp.zeros(rules.observation_size, jnp.float32),
            rewards=rules.returns(board),
            terminated=terminated,
            truncated=FALSE,
            legal_action_mask=mask | terminated,
            _step_count=jnp.int32(0) if step_count is None else step_count,
            _board=board,
            _chance=chance,
        )

    def from_reference(self, state: State) -> JaxState:
        """The environment's state at a reference state where a seat decides (or the
        game is over); its ``_chance`` is empty."""
        if state.is_chance_node():
            raise ValueError("a chance node has no pgx state: play its chance first")
        return self._at(jnp.asarray(self.rules.to_board(state)))

    def _at_board(self, board: jax.Array) -> JaxState:
        wrapped = self.wrap(board, jnp.full(self.rules.max_chance, -1, jnp.int32))
        return wrapped.replace(
            observation=self.rules.observe(board, wrapped.current_player))

    def to_reference(self, state: JaxState) -> State:
        """A reference state in the position of ``state`` (without its history)."""
        return self.rules.to_state(np.asarray(state._board))
