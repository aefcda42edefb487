"""AlphaZero-style self-play on a JAX environment, with mctx's Gumbel MuZero search.

Each iteration steps ``games`` games at once against themselves for ``max_steps``
decisions, a finished game replaced by a new one at once: at every decision the
network's policy and value seed a search of ``simulations`` simulations over the real
rules (the environment is the model, as in AlphaZero), the search's improved policy is
the policy target and the game's result, from the mover's side, the value target. The
network then takes ``updates`` minibatch steps of Adam drawn from the positions of the
last ``window`` iterations (a replay window), at a learning rate that falls from
``learning_rate`` to ``final_learning_rate`` along a half cosine as the training's time
runs out (``iteration(progress)``: the share of the budget spent), so the last weights are
not the noisy ones of a full-size step. In a game
with hidden cards (Dead Cat) the search starts from a state drawn from what the mover
knows (``Rules.resample``), never from the real one, and the network reads only the
mover's observation. Two seats only: the value is one number, the mover's.

Options for endgames, off by default (the first three did not raise the graded share in
pilots; rescoring raised it a little, but learns from the solver that grades the bot;
starting from the bots' games raised it most, docs/RESEARCH.md):
``endgame_share`` of the new games start near the end (played on from the opening by the
network's sampled policy until 0 to ``endgame_left`` is left, where the rules are
``staged``: Card Commons' empty cells), so more games and value targets fall where the
game is decided; ``proven_targets`` learns what the search proved at the root (the value,
and a policy on the proven wins or off the proven losses); ``value_mix`` blends the
search's root value into the value target. ``rescore`` (where the rules have an exact
solver, ``Rules.exact``: Card Commons' Tutorial) learns the solver's value of every
position with at most that much left instead of its game's result, as Leela Chess Zero
rescores its games' endings with tablebases, and ``rescore_policy`` the winning move the
solver found as the policy target of a won one. ``bot_starts`` of the new games start
at a position of a game between two ``start_bot`` bots (a pool of every decision of
``start_games`` of their games, played before training by ``quarkade.sim.starts`` and
given to ``Trainer``; with ``start_left``, only those with at least that much left), as
KataGo starts some of its self-play games from positions of human games: the positions
come without labels, and self-play learns them by its own search (``quarkade train``
turns this one on in Card Commons' Tutorial, where it was measured to help). ``explore``
of the decisions with at most ``explore_left`` left (where the rules are ``staged``) play
a legal move drawn uniformly instead of the search's, so the games go on from positions
the network's own choices rarely reach; the value before such a move is its search's.

Two more, on by default: ``features`` (the network also reads what the game derives from
its observation: Card Commons' cells each seat can still play, ``Rules.features``) and
``symmetries`` (each replayed position is learned as seen through a map of the field drawn
at random from those that keep the rules, ``Rules.symmetries``; the bot then averages its
network over them too, ``play_symmetric``).

``Trainer`` holds the parameters and the optimiser; ``iteration()`` returns what it
measured (losses, game lengths, the raw policy's score against uniformly random moves),
``save(folder)`` writes a checkpoint that ``quarkade.agents.learned`` loads as a bot.
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import numpy as np
import optax

from quarkade.jax import make, network
from quarkade.jax.gumbel import root_edges
from quarkade.jax.search import PLAY_CONSIDERED, inputs, search

FORMAT = "quarkade-learned/1"
STARTS = 4  # new games drawn per lane per self-play call (a lane that ends more reuses them)


@dataclass
class Config:
    """How to train (the defaults suit Card Commons' Tutorial on a small CPU)."""

    game: str
    options: dict[str, Any] = field(default_factory=dict)
    games: int = 128  # self-play games per iteration, stepped together
    simulations: int = 32  # search simulations per decision in self-play
    considered: int = 16  # root actions the self-play search weighs (Gumbel top-k)
    max_steps: int = 32  # decisions per game of the batch per iteration (finished games
    # are replaced by new ones; a game unfinished at the end goes on next iteration)
    learning_rate: float = 1e-3  # at the start, falling along a half cosine to
    final_learning_rate: float = 1e-4  # at the end of the time budget
    batch_size: int = 256
    updates: int = 256  # minibatches of Adam per iteration, drawn from the replay window
    window: int = 8  # iterations of self-play positions kept to learn from
    width: int = 256
    blocks: int = 2
    seed: int = 0
    eval_games: int = 64  # against random moves, after each iteration
    play_simulations: int = 256  # what the bot searches by default when it plays: at
    # least one visit to each legal move at the root (Tutorial endgames have up to ~110)
    play_symmetric: bool = True  # the bot averages its network over the rules'
    # symmetries by default (``learned``'s ``symmetric``; where the rules have none, as
    # in Dead Cat, nothing changes)
    play_considered: int = PLAY_CONSIDERED  # root moves the bot's search weighs by
    # default, its prior's first (``learned``'s ``considered``), as self-play's does
    prove: bool = True  # self-play's search proves wins and losses from the game's ends
    # where the rules are certain (Card Commons), as the bot's does
    # Levers for endgames, off: in 15-minute pilots the first three did not raise the
    # graded share; rescoring did a little (docs/RESEARCH.md, "Graded against the solved
    # game") but learns from the solver that grades the bot.
    proven_targets: bool = False  # where the search proved the root, learn what it
    # proved: the value proven, the policy spread over the proven wins (or off the
    # proven losses)
    value_mix: float = 0.0  # the share of the search's root value in the value target
    # (the rest the game's result) where the root is not proven
    endgame_share: float = 0.0  # of the new self-play games, the share started near the
    # end (where the rules measure what is left, ``Rules.staged``), the rest at the opening
    endgame_left: int = 12  # such a game starts with 0 to this many left (Card Commons:
    # empty cells), drawn evenly, after moves drawn from the network's own policy
    rescore: int = 0  # positions with at most this much ``left`` (Card Commons: empty
    # cells) learn the exact solver's value (``Rules.exact``) instead of their game's
    # result, as Leela Chess Zero rescores its games' endings with tablebases; 0: off
    rescore_policy: bool = False  # and where the solver finds the position won, its
    # policy target is the winning move the solver found, not the search's policy
    bot_starts: float = 0.0  # of the new self-play games, the share started at a
    # position drawn from games between two ``start_bot`` bots (every decision of
    # ``start_games`` of them, played before training), as KataGo starts some of its
    # self-play games from positions of human games: self-play then meets the positions
    # such players reach, and learns them by its own search (no labels come with them)
    start_bot: str = "greedy"
    start_games: int = 256
    start_left: int = 0  # where the rules are ``staged``, only positions with at least
    # this much left go in the pool (so none of a grade's endgame positions is among them)
    # On by default: in 15-minute pilots (docs/RESEARCH.md) the features raised the graded
    # share, and the maps keep a longer run from learning its replay by heart.
    features: bool = True  # the network also reads what the game derives from the
    # observation (``Rules.features``: Card Commons' legal placements per seat and cell)
    symmetries: bool = True  # learn each position as seen through a map drawn at random
    # from those that keep the rules (``Rules.symmetries``; the Tutorial's field has eight)
    average: float = 0.9  # the checkpoint (what the bot plays) is an exponential moving
    # average of the weights after each iteration from the first on, each new one
    # weighing 1 - this, as KataGo releases averaged weights; self-play goes on with the
    # latest; 0: the latest
    explore: float = 0.0  # where the rules are ``staged`` and at most ``explore_left`` is
    # left, the share of self-play decisions that play a legal move drawn uniformly
    # instead of the search's: the game goes on from a position the network's own choices
    # rarely reach, and learns it; the value before such a move is the search's (the game
    # after it says nothing of the position before), the policy target is the search's
    explore_left: int = 8
    rescore_children: int = 0  # at each decision a legal move drawn at random is tried
    # aside (not played); where the position after it has at most this much left, it
    # learns the exact solver's value (``Rules.exact``) for its own mover, a value-only
    # row: the network learns positions its own choices rarely reach; 0: off

    def problems(self) -> list[str]:
        """What is wrong with these settings, in words (empty when they can train)."""
        found = []
        for name, low in (("games", 2), ("simulations", 2), ("considered", 1),
                          ("max_steps", 1), ("batch_size", 1), ("updates", 1), ("window", 1),
                          ("width", 1), ("blocks", 0), ("eval_games", 2),
                          ("play_simulations", 0), ("play_considered", 1),
                          ("start_games", 1), ("endgame_left", 0), ("rescore", 0),
                          ("start_left", 0), ("explore_left", 0),
                          ("rescore_children", 0)):
            value = getattr(self, name)
            if not (isinstance(value, int) and value >= low):
                found.append(f"{name} is {value!r}: give a whole number, at least {low}")
        for name, high in (("bot_starts", 1.0), ("endgame_share", 1.0), ("value_mix", 1.0),
                           ("explore", 1.0)):
            value = getattr(self, name)
            if not 0 <= value <= high:
                found.append(f"{name} is {value!r}: give a share from 0 to 1")
        if not 0 <= self.average < 1:
            found.append(f"average is {self.average!r}: give 0 (the latest weights) or more, "
                         "below 1")
        for name in ("learning_rate", "final_learning_rate"):
            if not getattr(self, name) > 0:
                found.append(f"{name} is {getattr(self, name)!r}: give a rate above 0")
        return found


class Played(NamedTuple):
    """One self-play decision of every game of the batch (``[steps, games, ...]``)."""

    observation: jax.Array
    policy: jax.Array
    actor: jax.Array
    live: jax.Array  # here: the game ended with this decision
    rewards: jax.Array
    proven: jax.Array  # the root's value for the mover where the search proved it, else NaN
    searched: jax.Array  # the root's value for the mover by the search
    explored: jax.Array  # the move played was drawn at random (``Config.explore``)
    aside: jax.Array  # the observation after a move drawn at random, not played
    # (``Config.rescore_children``; the position's own where that is off)
    aside_board: jax.Array
    board: jax.Array  # the position (for ``Config.rescore``)


class Trainer:
    """Self-play training of one game and options (see the module docstring)."""

    def __init__(self, config: Config, pool: np.ndarray | None = None) -> None:
        if problems := config.problems():
            raise ValueError("cannot train with these settings: " + "; ".join(problems))
        self.config = config
        self.env = make(config.game, **config.options)
        if self.env.num_players != 2:
            raise ValueError(f"self-play training takes two seats, not {self.env.num_players}")
        key = jax.random.PRNGKey(config.seed)
        self.key, init_key = jax.random.split(key)
        size = self.env.rules.observation_size + (
            self.env.rules.feature_size if config.features else 0)
        self.params = network.init(init_key, size,
                                   self.env.num_actions, config.width, config.blocks)
        self.averaged = self.params  # what the checkpoint holds (``Config.average``)
        self.optimiser = optax.inject_hyperparams(optax.adamw)(
            learning_rate=config.learning_rate, weight_decay=1e-4)
        self.opt_state = self.optimiser.init(self.params)
        self._set_rate(0.0)
        self.iterations = 0
        self.games_played = 0
        self.positions = 0
        self.seconds = 0.0
        self.history: list[dict[str, float]] = []
        self.replay: list[list[np.ndarray]] = []
        self.pending: list[np.ndarray] | None = None  # decisions of games still going
        self.key, start = jax.random.split(self.key)
        self.state = jax.jit(jax.vmap(self.env.init))(jax.random.split(start, config.games))
        maps = self.env.rules.symmetries()  # the identity first: alone without the maps
        maps = maps if config.symmetries else maps[:1]
        self.maps = len(maps)
        self._unmap = jnp.asarray(np.argsort(maps, axis=1))  # each map's inverse
        if config.bot_starts > 0 and pool is None:
            raise ValueError("bot_starts needs the pool of starting positions "
                             "(quarkade.sim.starts.start_pool)")
        self._pool = jnp.asarray(pool) if config.bot_starts > 0 else None
        self._exact = (self.env.rules.exact(config.rescore, config.rescore_policy)
                       if config.rescore else None)
        self._children = (self.env.rules.exact(config.rescore_children)
                          if config.rescore_children else None)
        if ((config.rescore and self._exact is None)
                or (config.rescore_children and self._children is None)):
            raise ValueError(f"no exact solver for {self.env.rules.name} with these options "
                             "to rescore with")
        self._selfplay = jax.jit(self._selfplay_fn)
        self._update = jax.jit(self._update_fn)
        self._evaluate = jax.jit(self._evaluate_fn)
        self._average = jax.jit(self._average_fn)

    # -- self-play and learning ------------------------------------------------------------

    def _starts(self, params: Any, key: jax.Array, count: int) -> Any:
        """``count`` new games: ``bot_starts`` of them at positions of the bots' games
        (``pool``), then ``endgame_share`` of them (where the rules are ``staged``)
        played on from the opening by the network's policy (sampled) until 0 to
        ``endgame_left`` is left (or just before a move that would end the game), the rest
        at the opening."""
        env, config = self.env, self.config
        init_key, target_key, share_key, walk_key = jax.random.split(key, 4)
        opening = jax.vmap(env.init)(jax.random.split(init_key, count))
        if self._pool is not None:
            pool_key, drawn_key = jax.random.split(jax.random.fold_in(init_key, 1))
            drawn = jax.vmap(env._at_board)(
                self._pool[jax.random.randint(drawn_key, (count,), 0, len(self._pool))])
            chosen = jax.random.uniform(pool_key, (count,)) < config.bot_starts
            opening = _where(chosen, drawn, opening)
        if not (env.rules.staged and config.endgame_share > 0):
            return opening
        target = jax.random.randint(target_key, (count,), 0, config.endgame_left + 1)
        near = jax.random.uniform(share_key, (count,)) < config.endgame_share
        target = jnp.where(near, target, jnp.iinfo(jnp.int32).max)
        left = jax.vmap(env.rules.left)

        def going(carry: tuple[Any, jax.Array, jax.Array]) -> jax.Array:
            state, last, _ = carry
            return ~last & (left(state._board) > target)

        def play(carry: tuple[Any, jax.Array, jax.Array]
                 ) -> tuple[Any, jax.Array, jax.Array]:
            state, last, key = carry
            key, pick, step_key = jax.random.split(key, 3)
            logits, _ = network.forward(params, inputs(env, params, state.observation))
            action = jax.random.categorical(
                pick, jnp.where(state.legal_action_mask, logits, -jnp.inf)).astype(jnp.int32)
            after = jax.vmap(env.step)(state, action, jax.random.split(step_key, count))
            moving = going(carry)
            # A move that would end the game is not played: the game starts before it.
            ends = moving & after.terminated
            return _where(moving & ~ends, after, state), last | ends, key

        state, _, _ = jax.lax.while_loop(lambda carry: jnp.any(going(carry)), play,
                                         (opening, jnp.zeros(count, bool), walk_key))
        return state

    def _selfplay_fn(self, params: Any, state: Any, key: jax.Array) -> tuple[Any, ...]:
        """``steps`` decisions in each of the batch's games, a finished game replaced by a
        new one at once (``_starts``; so no search is spent on a finished game): the new
        states and, per decision (``[steps, games]``), the observation, the search's
        policy, the mover (its seat), its reward, whether the game ended there and the
        root's proven value (NaN where not proven) and searched value."""
        env, config = self.env, self.config
        games = config.games
        prove = config.prove and env.rules.certain
        start_key, key = jax.random.split(key)
        starts = self._starts(params, start_key, games * STARTS)
        lanes = jnp.arange(games)

        def decide(carry: tuple[Any, jax.Array], key: jax.Array
                   ) -> tuple[tuple[Any, jax.Array], Played]:
            state, begun = carry
            search_key, step_key = jax.random.split(key)
            explore_key = jax.random.fold_in(key, 1)
            searched = search(env, params, search_key, state, config.simulations,
                              considered=config.considered, prove=prove)
            out = searched.policy
            policy = out.action_weights
            proven = jnp.full(games, jnp.nan, jnp.float32)
            if prove and config.proven_targets:
                edges = root_edges(searched)
                won = edges >= 1.0  # NaN (not proven) is neither won nor lost
                off = jnp.where(edges <= -1.0, 0.0, policy)
                kept = off.sum(-1, keepdims=True)
                policy = jnp.where(won.any(-1, keepdims=True),
                                   won / jnp.maximum(won.sum(-1, keepdims=True), 1),
                                   jnp.where(kept > 0, off / jnp.maximum(kept, 1e-9), policy))
                proven = searched.exact[:, 0]
            action, explored = self._explored(state, out.action, explore_key)
            after = jax.vmap(env.step)(state, action, jax.random.split(step_key, games))
            ended = after.terminated
            fresh = jax.tree_util.tree_map(
                lambda leaves: leaves[(begun % STARTS) * games + lanes], starts)
            played = Played(state.observation, policy, state.current_player, ended,
                            after.rewards, proven, out.search_tree.node_values[:, 0],
                            explored, *self._aside(state, jax.random.fold_in(key, 2)),
                            state._board)
            return (_where(ended, fresh, after), begun + ended), played

        (state, _), played = jax.lax.scan(decide, (state, jnp.zeros(games, jnp.int32)),
                                          jax.random.split(key, config.max_steps))
        reward = jnp.take_along_axis(played.rewards, played.actor[..., None], axis=2)[..., 0]
        return (state, played.observation, played.policy, played.actor, reward, played.live,
                played.proven, played.searched, played.explored, played.aside,
                played.aside_board, played.board)

    def _aside(self, state: Any, key: jax.Array) -> tuple[jax.Array, jax.Array]:
        """The observation and position after a legal move drawn at random from each of
        ``state``'s, not played (``Config.rescore_children``); ``state``'s own where that
        is off."""
        if not self.config.rescore_children:
            return state.observation, state._board
        games = self.config.games
        draw_key, step_key = jax.random.split(key)
        drawn = _uniform_legal(draw_key, state.legal_action_mask)
        after = jax.vmap(self.env.step)(state, drawn.astype(jnp.int32),
                                        jax.random.split(step_key, games))
        return after.observation, after._board

    def _explored(self, state: Any, chosen: jax.Array, key: jax.Array
                  ) -> tuple[jax.Array, jax.Array]:
        """The move each game plays: the search's ``chosen``, or (``Config.explore``) one
        drawn uniformly from the legal moves; and where it was drawn."""
        env, config = self.env, self.config
        if not (env.rules.staged and config.explore > 0):
            return chosen, jnp.zeros(chosen.shape, bool)
        share_key, draw_key = jax.random.split(key)
        near = jax.vmap(env.rules.left)(state._board) <= config.explore_left
        explored = near & (jax.random.uniform(share_key, chosen.shape) < config.explore)
        drawn = _uniform_legal(draw_key, state.legal_action_mask)
        return jnp.where(explored, drawn, chosen).astype(chosen.dtype), explored

    def _loss(self, params: Any, observation: jax.Array, policy: jax.Array,
              target: jax.Array) -> tuple[jax.Array, tuple[Any, Any]]:
        logits, value = network.forward(params, inputs(self.env, params, observation))
        policy_loss = optax.softmax_cross_entropy(logits, policy).mean()
        value_loss = jnp.mean((value - target) ** 2)
        return policy_loss + value_loss, (policy_loss, value_loss)

    def _mapped(self, batch: tuple[Any, ...], which: jax.Array) -> tuple[Any, ...]:
        """The batch with row ``i`` seen through symmetry ``which[i]`` (its observation
        mapped, its policy target moved to the mapped actions)."""
        observation, policy, target = batch
        if self.maps == 1:
            return batch
        seen = jnp.stack([self.env.rules.map_observation(observation, number)
                          for number in range(self.maps)])
        observation = seen[which, jnp.arange(len(which))]
        policy = jnp.take_along_axis(policy, self._unmap[which], axis=1)
        return observation, policy, target

    def _update_fn(self, params: Any, opt_state: Any, batch: tuple[Any, ...],
                   which: jax.Array) -> tuple[Any, Any, Any]:
        batch = self._mapped(batch, which)
        grads, losses = jax.grad(self._loss, has_aux=True)(params, *batch)
        updates, opt_state = self.optimiser.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, losses

    def _average_fn(self, averaged: Any, latest: Any) -> Any:
        """The moving average of the weights one iteration on (``Config.average``)."""
        keep = self.config.average
        return jax.tree_util.tree_map(lambda old, new: keep * old + (1 - keep) * new,
                                      averaged, latest)

    def _evaluate_fn(self, params: Any, key: jax.Array) -> jax.Array:
        """The checkpoint's raw policy (its most likely legal move, no search) against
        uniformly random moves, seats alternating: the mean score (win 1, loss 0, draw 1/2)."""
        env = self.env
        games = self.config.eval_games
        start, key = jax.random.split(key)
        state = jax.vmap(env.init)(jax.random.split(start, games))
        learner = jnp.arange(games) % 2

        def decide(carry: tuple[Any, jax.Array], key: jax.Array) -> tuple[Any, None]:
            state, total = carry
            pick, step_key = jax.random.split(key)
            logits, _ = network.forward(params, inputs(env, params, state.observation))
            best = jnp.argmax(jnp.where(state.legal_action_mask, logits, -jnp.inf), axis=-1)
            chance = _uniform_legal(pick, state.legal_action_mask)
            action = jnp.where(state.current_player == learner, best, chance)
            after = jax.vmap(env.step)(state, action.astype(jnp.int32),
                                       jax.random.split(step_key, games))
            return (after, total + after.rewards[jnp.arange(games), learner]), None

        (_, total), _ = jax.lax.scan(decide, (state, jnp.zeros(games)),
                                     jax.random.split(key, 4 * self.config.max_steps))
        return jnp.mean((total + 1) / 2)

    def rate(self, progress: float) -> float:
        """The learning rate once ``progress`` (0 to 1) of the training's time is spent:
        ``learning_rate`` falling along a half cosine to ``final_learning_rate``."""
        config = self.config
        share = min(max(progress, 0.0), 1.0)
        fall = 0.5 * (1 + float(np.cos(np.pi * share)))
        return config.final_learning_rate + (config.learning_rate
                                             - config.final_learning_rate) * fall

    def _set_rate(self, progress: float) -> float:
        rate = self.rate(progress)
        self.opt_state.hyperparams["learning_rate"] = jnp.asarray(rate, jnp.float32)
        return rate

    def iteration(self, progress: float = 0.0) -> dict[str, float]:
        """One round of self-play and learning, ``progress`` (0 to 1) of the training's
        time spent before it (it sets the learning rate); returns what it measured."""
        config = self.config
        started = time.perf_counter()
        rate = self._set_rate(progress)
        self.key, play_key, shuffle_key, eval_key = jax.random.split(self.key, 4)
        self.state, *played = self._selfplay(self.params, self.state, play_key)
        *played, aside, aside_boards, boards = [np.asarray(part)
                                                for part in jax.device_get(played)]
        finished = int(played[4].sum())
        proven = float(np.mean(~np.isnan(played[5])))
        solving = time.perf_counter()
        rescored = self._rescore(played, np.asarray(boards))
        children = self._rescore_children(aside, aside_boards)
        solving = time.perf_counter() - solving
        labelled, self.pending = label(played, self.pending, config.value_mix)
        if children is not None:
            labelled = [np.concatenate(pair) for pair in zip(labelled, children, strict=True)]
        self.replay.append(labelled)
        self.replay = self.replay[-config.window:]
        pool = [np.concatenate(parts) for parts in zip(*self.replay, strict=True)]
        rows = np.asarray(jax.random.randint(shuffle_key, (config.updates, config.batch_size),
                                             0, max(len(pool[0]), 1)))
        if not len(pool[0]):  # no game has ended yet
            rows = rows[:0]
        maps = jax.random.randint(jax.random.fold_in(shuffle_key, 1),
                                  (config.updates, config.batch_size), 0, self.maps)
        losses = []
        for drawn, which in zip(rows, maps, strict=False):
            batch = tuple(jnp.asarray(a[drawn]) for a in pool)
            self.params, self.opt_state, (policy_loss, value_loss) = self._update(
                self.params, self.opt_state, batch, which)
            losses.append((float(policy_loss), float(value_loss)))
        self.averaged = (self._average(self.averaged, self.params) if self.iterations
                         else self.params)  # from the first iteration's weights on
        score = float(self._evaluate(self.averaged, eval_key))
        self.iterations += 1
        self.games_played += finished
        self.positions += int(played[0].shape[0] * played[0].shape[1])
        seconds = time.perf_counter() - started
        self.seconds += seconds
        found = {
            "iteration": self.iterations, "seconds": round(self.seconds, 1),
            "games": self.games_played, "positions": self.positions,
            "policy_loss": float(np.mean([p for p, _ in losses])) if losses else float("nan"),
            "value_loss": float(np.mean([v for _, v in losses])) if losses else float("nan"),
            "labelled": len(labelled[0]), "learning_rate": rate,
            "proven": proven,
            "rescored": rescored, "rescore_seconds": round(solving, 2),
            "score_vs_random": score,
        }
        self.history.append(found)
        return found

    def _rescore_children(self, aside: np.ndarray, boards: np.ndarray
                          ) -> list[np.ndarray] | None:
        """Value-only rows (``Config.rescore_children``): the observations after the moves
        tried aside whose positions the exact solver settles, no policy target (a row of
        zeros teaches the policy nothing), and their exact value for their mover."""
        if self._children is None:
            return None
        flat = aside.reshape(-1, aside.shape[-1])
        values = np.array([self._children(board)[0]
                           for board in boards.reshape(-1, boards.shape[-1])], np.float32)
        known = ~np.isnan(values)
        return [flat[known], np.zeros((int(known.sum()), self.env.num_actions), np.float32),
                values[known]]

    def _rescore(self, played: list[np.ndarray], boards: np.ndarray) -> float:
        """Put the exact solver's value of each decision's position (``Config.rescore``)
        where the search proved nothing, in ``played``'s proven values (which ``label``
        learns instead of the game's result), and with ``rescore_policy`` the winning
        move it found as the policy target where the position is won; the share of
        decisions so valued."""
        if self._exact is None:
            return 0.0
        proven, policy = played[5], played[1]
        found = [self._exact(board) for board in boards.reshape(-1, boards.shape[-1])]
        exact = np.array([value for value, _ in found], np.float32).reshape(proven.shape)
        moves = np.array([move for _, move in found]).reshape(proven.shape)
        played[5] = np.where(np.isnan(proven), exact, proven)
        if self.config.rescore_policy:
            played[1] = np.where((moves >= 0)[..., None],
                                 np.eye(policy.shape[-1], dtype=policy.dtype)[moves], policy)
        return float(np.mean(~np.isnan(exact)))

    # -- checkpoints -----------------------------------------------------------------------

    def save(self, folder: Path) -> None:
        """Write the checkpoint (``agent.json``, ``params.npz``) and the learning curve
        (``curve.json``) into ``folder``."""
        folder.mkdir(parents=True, exist_ok=True)
        params = {key: np.asarray(value) for key, value in self.averaged.items()}
        np.savez(folder / "params.npz", **params)  # type: ignore[arg-type]
        config = asdict(self.config)
        about = {
            "format": FORMAT, "game": self.config.game, "options": self.env.rules.game.options,
            "observation_size": self.env.rules.observation_size,
            "num_actions": self.env.num_actions, "iterations": self.iterations,
            "games": self.games_played, "positions": self.positions,
            "seconds": round(self.seconds, 1), "simulations": self.config.play_simulations,
            "symmetric": self.config.play_symmetric,
            "considered": self.config.play_considered,
            "config": config, "jax": jax.__version__,
        }
        (folder / "agent.json").write_text(json.dumps(about, indent=2) + "\n")
        (folder / "curve.json").write_text(json.dumps(self.history, indent=1) + "\n")


def _uniform_legal(key: jax.Array, legal: jax.Array) -> jax.Array:
    """A legal action id drawn uniformly in each row of the ``legal`` mask."""
    noise = jax.random.uniform(key, legal.shape)
    return jnp.argmax(jnp.where(legal, noise, -1.0), axis=-1)


def _where(chosen: jax.Array, new: Any, old: Any) -> Any:
    """A batch of states: ``new``'s where ``chosen``, ``old``'s elsewhere."""
    return jax.tree_util.tree_map(
        lambda a, b: jnp.where(chosen.reshape(-1, *[1] * (b.ndim - 1)), a, b), new, old)


def label(played: list[np.ndarray], pending: list[np.ndarray] | None, mix: float = 0.0
          ) -> tuple[list[np.ndarray], list[np.ndarray] | None]:
    """The value targets of self-play.

    ``played`` is ``Trainer._selfplay``'s arrays (``[steps, games, ...]``: observation,
    policy, mover, reward, ended, and optionally the root's proven and searched values
    and whether the move played was drawn at random). Returns the decisions whose games
    have ended as flat arrays (observation, policy, target: the game's result from the
    mover's side; where the root was proven, its proven value; else ``mix`` of the
    searched value and the rest of the result; where the move was drawn at random, the
    result stops there: that decision and those before it back up its searched value),
    and what is still ``pending``: the decisions of games still going, labelled in a
    later call when their game ends (a game's next decision is in the same lane at the
    next step, across an iteration's end as within one)."""
    handed = np.zeros(played[2].shape, bool)
    if pending is not None:
        *before, handed_before = pending
        played = [np.concatenate([old, new]) for old, new in zip(before, played, strict=True)]
        handed = np.concatenate([handed_before, handed])
    observation, policy, mover, reward, ended, *extra = played
    explored = extra[2] if len(extra) > 2 else None  # (proven, searched, explored)
    steps, games = reward.shape
    # The next decision's value counts for the mover as it is if the same seat makes it
    # (Dead Cat's peek, then its bet), negated if the other seat does, and not at all
    # once the game has ended. The last step's next decision is in the next iteration:
    # that step is labelled (if its game goes on) only once the next one is here.
    same = np.concatenate([mover[1:] == mover[:-1], np.ones((1, games), bool)])
    discount = np.where(ended, 0.0, np.where(same, 1.0, -1.0))
    target = np.zeros((steps, games), np.float32)
    scored = np.zeros((steps, games), bool)
    value = np.zeros(games, np.float32)
    known = np.zeros(games, bool)
    for step in range(steps - 1, -1, -1):
        value = reward[step] + discount[step] * value
        known = ended[step] | known
        if explored is not None:  # a random move: the game after it is not this
            # position's; the search's value of it stands in, for it and those before
            value = np.where(explored[step], extra[1][step], value)
            known = known | explored[step]
        target[step], scored[step] = value, known
    if extra:  # the search proved this position's value: learn that, not the one game
        proven, searched = extra[:2]
        mixed = (1 - mix) * target + mix * searched
        target = np.where(np.isnan(proven), mixed, proven).astype(np.float32)
    going = (~scored).any(axis=1)
    first = int(np.argmax(going)) if going.any() else steps
    left = [part[first:] for part in played] + [scored[first:]] if first < steps else None
    rows = (scored & ~handed).reshape(-1)
    return [observation.reshape(-1, observation.shape[-1])[rows],
            policy.reshape(-1, policy.shape[-1])[rows], target.reshape(-1)[rows]], left


def load(folder: Path) -> tuple[dict[str, Any], dict[str, np.ndarray]]:
    """(what the checkpoint says about itself, its parameters as numpy arrays)."""
    about = json.loads((folder / "agent.json").read_text())
    if about.get("format") != FORMAT:
        raise ValueError(f"{folder} holds no Quarkade checkpoint ({FORMAT})")
    with np.load(folder / "params.npz") as data:
        params = {key: data[key] for key in data.files}
    return about, params


def plot_curve(history: list[dict[str, float]], path: Path, title: str) -> None:
    """The learning curve: losses and the score against random moves, by minutes."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    minutes = [row["seconds"] / 60 for row in history]
    figure, (left, right) = plt.subplots(1, 2, figsize=(10, 4))
    left.plot(minutes, [row["policy_loss"] for row in history], label="policy loss")
    left.plot(minutes, [row["value_loss"] for row in history], label="value loss")
    left.set_xlabel("minutes of training")
    left.legend()
    right.plot(minutes, [row["score_vs_random"] for row in history],
               label="raw policy against random moves")
    graded = [row for row in history if "score_vs_greedy" in row]
    if graded:
        right.plot([row["seconds"] / 60 for row in graded],
                   [row["score_vs_greedy"] for row in graded], marker="o",
                   label="raw policy against greedy")
    right.set_ylim(0, 1)
    right.set_xlabel("minutes of training")
    right.set_ylabel("score")
    right.legend()
    figure.suptitle(title)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
