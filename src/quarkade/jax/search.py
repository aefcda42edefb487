"""Search with the learned network over the JAX rules: mctx's Gumbel MuZero policy.

The environment is the model (as in AlphaZero): each simulation steps the real rules,
chance drawn with the search's key, and asks the network for a policy and a value at the
new node. With hidden cards (Dead Cat) the search starts from a state drawn from what the
seat to move knows (``JaxEnv.resample``), never from the real one. Two seats: a node's
value is its mover's, and a move that hands the turn over flips the sign
(``discount`` -1), one that keeps it (Dead Cat's peek then bet) does not.

``search`` serves training (a batch of games); ``Searcher`` serves a bot (one position,
or a batch of them when grading), compiled once per simulation count.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import jax
import jax.numpy as jnp
import mctx
import numpy as np

from quarkade.core.protocol import Game, State
from quarkade.jax import network, rules_of
from quarkade.jax.env import JaxEnv


def recurrent_fn(env: JaxEnv) -> Callable[..., tuple[mctx.RecurrentFnOutput, Any]]:
    """mctx's model step over ``env``: the next state, its reward, the network's guess."""

    def step(params: Any, key: jax.Array, action: jax.Array, state: Any
             ) -> tuple[mctx.RecurrentFnOutput, Any]:
        batch = action.shape[0]
        actor = state.current_player
        after = jax.vmap(env.step)(state, action, jax.random.split(key, batch))
        logits, value = network.forward(params, after.observation)
        logits = jnp.where(after.legal_action_mask, logits - logits.max(-1, keepdims=True),
                           jnp.finfo(logits.dtype).min)
        reward = after.rewards[jnp.arange(batch), actor]
        same = after.current_player == actor  # a seat may decide twice in a row
        discount = jnp.where(after.terminated, 0.0, jnp.where(same, 1.0, -1.0))
        value = jnp.where(after.terminated, 0.0, value)
        return mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits,
                                      value=value), after

    return step


def search(env: JaxEnv, params: Any, key: jax.Array, state: Any, simulations: int,
           gumbel_scale: float = 1.0, considered: int = 16) -> Any:
    """mctx's Gumbel MuZero policy from a batch of states (``PolicyOutput``): at the root
    it weighs the ``considered`` legal actions the network's prior (with Gumbel noise
    drawn at ``gumbel_scale``) ranks first, halving them as the simulations go."""
    batch = state.current_player.shape[0]
    draw, key = jax.random.split(key)
    root_state = jax.vmap(env.resample)(state, jax.random.split(draw, batch))
    logits, value = network.forward(params, state.observation)
    root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=root_state)
    return mctx.gumbel_muzero_policy(
        params=params, rng_key=key, root=root, recurrent_fn=recurrent_fn(env),
        num_simulations=simulations, invalid_actions=~state.legal_action_mask,
        qtransform=mctx.qtransform_completed_by_mix_value, gumbel_scale=gumbel_scale,
        max_num_considered_actions=considered)


PLAY_CONSIDERED = 128  # root actions a bot's search weighs: every legal one, nearly always


def play_search(env: JaxEnv, params: Any, key: jax.Array, state: Any, simulations: int
                ) -> Any:
    """A bot's search (``PolicyOutput``): no Gumbel noise at the root, up to
    ``PLAY_CONSIDERED`` root actions weighed."""
    return search(env, params, key, state, simulations, gumbel_scale=0.0,
                  considered=min(PLAY_CONSIDERED, env.num_actions))


def proven_win(out: Any, searched: jax.Array) -> jax.Array:
    """Each root's move: a move the search tried that ended the game with a positive
    return for the mover (the one with the best, if several) where there is one, else
    the search's choice ``searched``. A search's final pick weighs the prior against the
    moves' values, so a network that ranks a won ending low could pass it over; an
    ending's value is the rules' exact return, not an estimate."""
    tree = out.search_tree
    root = tree.ROOT_INDEX
    reward = tree.children_rewards[:, root]
    ended = (tree.children_visits[:, root] > 0) & (tree.children_discounts[:, root] == 0)
    won = ended & (reward > 0)
    best = jnp.argmax(jnp.where(won, reward, -jnp.inf), axis=-1).astype(searched.dtype)
    return jnp.where(won.any(axis=-1), best, searched)


class Searcher:
    """A checkpoint's search for a bot: the best move by ``simulations`` simulations
    (no Gumbel noise at the root, so the same position gets the same move), a move the
    search saw win the game at once before any other (``proven_win``, in a game whose
    rules are ``certain``: where cards are hidden, one drawn state's win proves nothing).
    Unlike self-play, which weighs the prior's first 16 actions, it weighs up to
    ``PLAY_CONSIDERED`` (a win the network ranks low is still tried), so with at least as
    many simulations as legal moves every move is tried once."""

    def __init__(self, game: Game, params: dict[str, np.ndarray]) -> None:
        self.env = JaxEnv(rules_of(game))
        self.params = {key: jnp.asarray(value) for key, value in params.items()}
        self._compiled: dict[int, Any] = {}

    def _function(self, simulations: int) -> Any:
        if simulations not in self._compiled:
            env = self.env

            def choose(params: Any, key: jax.Array, state: Any) -> tuple[jax.Array, ...]:
                out = play_search(env, params, key, state, simulations)
                chosen = proven_win(out, out.action) if env.rules.certain else out.action
                tree = out.search_tree
                return chosen, tree.children_visits[:, tree.ROOT_INDEX]

            self._compiled[simulations] = jax.jit(choose)
        return self._compiled[simulations]

    def choose(self, state: State, simulations: int, seed: int, legal: Sequence[int]) -> int:
        """The move for the seat to move in ``state`` (a state that seat could be in)."""
        return self.choose_many([state], simulations, seed)[0]

    def choose_many(self, states: Sequence[State], simulations: int, seed: int) -> list[int]:
        """The move in each of ``states`` (searched together, as one batch)."""
        return self.search_many(states, simulations, seed)[0]

    def search_many(self, states: Sequence[State], simulations: int, seed: int
                    ) -> tuple[list[int], np.ndarray]:
        """The move in each of ``states`` (searched together) and how often the search
        tried each action at each root (``[states, actions]``)."""
        batch = jax.tree_util.tree_map(lambda *leaves: jnp.stack(leaves),
                                       *[self.env.from_reference(s) for s in states])
        actions, visits = self._function(simulations)(self.params, jax.random.PRNGKey(seed),
                                                      batch)
        chosen = [int(a) for a in np.asarray(actions)]
        for state, action in zip(states, chosen, strict=True):
            if action not in state.legal_actions():
                raise AssertionError(f"the search chose an illegal action {action}")
        return chosen, np.asarray(visits)
