"""Search with the learned network over the JAX rules: mctx's Gumbel MuZero policy.

The search is ``quarkade.jax.gumbel``'s (mctx's, with a backup whose cost does not grow
with the tree, and with proven values where the rules are ``certain``).

The environment is the model (as in AlphaZero): each simulation steps the real rules,
chance drawn with the search's key, and asks the network for a policy and a value at the
new node. With hidden cards (Dead Cat) the search starts from a state drawn from what the
seat to move knows (``JaxEnv.resample``), never from the real one. Two seats: a node's
value is its mover's, and a move that hands the turn over flips the sign
(``discount`` -1), one that keeps it (Dead Cat's peek then bet) does not.

A node keeps its legal actions in ``Rules.most_legal`` slots (Card Commons: 193 of 2,532
action ids), its prior the network's logits of the actions in them: the search's tree and
every choice it makes run over the slots, so their cost follows the legal actions, not
the action ids (docs/PERFORMANCE.md); the answer is by action id again (``Searched``).

``search`` serves training (a batch of games); ``Searcher`` serves a bot (one position,
or a batch of them when grading), compiled once per simulation count and setting.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import mctx
import numpy as np

from quarkade.core.protocol import Game, State
from quarkade.jax import network, rules_of
from quarkade.jax.env import JaxEnv
from quarkade.jax.gumbel import Searched, by_id, gumbel_policy


def inputs(env: JaxEnv, params: Any, observation: jax.Array) -> jax.Array:
    """What the network reads: the observation, and the game's features of it
    (``Rules.features``) where its first layer is wider than an observation."""
    if params["in_w"].shape[0] > observation.shape[-1]:
        return env.rules.features(observation)
    return observation


def evaluate(env: JaxEnv, params: Any, observation: jax.Array, symmetric: bool = False
             ) -> tuple[jax.Array, jax.Array]:
    """The network's (policy logits, value) for a batch of observations (``inputs``); with
    ``symmetric``, averaged over the maps that keep the rules (``Rules.symmetries``): the
    position seen through each map, the mapped moves' log-probabilities brought back."""
    if not symmetric:
        return network.forward(params, inputs(env, params, observation))
    maps = env.rules.symmetries()
    seen = jnp.concatenate([env.rules.map_observation(observation, number)
                            for number in range(len(maps))])
    logits, value = network.forward(params, inputs(env, params, seen))
    batch = observation.shape[0]
    logits = jax.nn.log_softmax(logits).reshape(len(maps), batch, -1)
    back = jnp.stack([logits[number][:, maps[number]] for number in range(len(maps))])
    return back.mean(0), value.reshape(len(maps), batch).mean(0)


def recurrent_fn(env: JaxEnv, symmetric: bool = False
                 ) -> Callable[..., tuple[mctx.RecurrentFnOutput, Any]]:
    """mctx's model step over ``env``: the next state, its reward, the network's guess
    (``evaluate``)."""

    def step(params: Any, key: jax.Array, action: jax.Array, state: Any
             ) -> tuple[mctx.RecurrentFnOutput, Any]:
        batch = action.shape[0]
        actor = state.current_player
        after = jax.vmap(env.step)(state, action, jax.random.split(key, batch))
        logits, value = evaluate(env, params, after.observation, symmetric)
        logits = jnp.where(after.legal_action_mask, logits - logits.max(-1, keepdims=True),
                           jnp.finfo(logits.dtype).min)
        reward = after.rewards[jnp.arange(batch), actor]
        same = after.current_player == actor  # a seat may decide twice in a row
        discount = jnp.where(after.terminated, 0.0, jnp.where(same, 1.0, -1.0))
        value = jnp.where(after.terminated, 0.0, value)
        return mctx.RecurrentFnOutput(reward=reward, discount=discount, prior_logits=logits,
                                      value=value), after

    return step


class Slotted(NamedTuple):
    """A search node: the state, and the action id in each of its slots (legal ones in
    ascending order, then the number of actions)."""

    state: Any
    ids: jax.Array


def slot_ids(legal: jax.Array, slots: int) -> jax.Array:
    """``[batch, slots]``: each row's legal action ids, ascending, then the number of
    actions (``legal``: ``[batch, actions]``, at most ``slots`` legal in a row)."""
    actions = legal.shape[-1]
    return jax.vmap(lambda row: jnp.nonzero(row, size=slots, fill_value=actions)[0])(
        legal).astype(jnp.int32)


def in_slots(logits: jax.Array, ids: jax.Array) -> jax.Array:
    """The logits of the actions in each slot (``[batch, slots]``), the smallest finite
    number in a slot past the legal actions."""
    actions = logits.shape[-1]
    held = jnp.take_along_axis(logits, jnp.minimum(ids, actions - 1), axis=-1)
    return jnp.where(ids < actions, held, jnp.finfo(logits.dtype).min)


def slotted_fn(env: JaxEnv, symmetric: bool = False
               ) -> Callable[..., tuple[mctx.RecurrentFnOutput, Slotted]]:
    """``recurrent_fn`` over ``Slotted`` nodes: a slot's action stepped, the new node's
    legal actions put in its slots and its prior read for them."""
    step = recurrent_fn(env, symmetric)
    slots = env.rules.most_legal()

    def slotted(params: Any, key: jax.Array, slot: jax.Array, node: Slotted
                ) -> tuple[mctx.RecurrentFnOutput, Slotted]:
        action = node.ids[jnp.arange(slot.shape[0]), slot]
        # A slot past the legal actions is chosen only where none is legal (a finished
        # game, which no step changes): any action id does there.
        action = jnp.where(action < env.num_actions, action, 0)
        out, after = step(params, key, action, node.state)
        ids = slot_ids(after.legal_action_mask, slots)
        return out.replace(prior_logits=in_slots(out.prior_logits, ids)), Slotted(after, ids)

    return slotted


def search(env: JaxEnv, params: Any, key: jax.Array, state: Any, simulations: int,
           gumbel_scale: float = 1.0, considered: int = 16, prove: bool = False,
           symmetric: bool = False, slotted: bool = True) -> Searched:
    """The Gumbel MuZero search from a batch of states (``Searched``: mctx's
    ``PolicyOutput`` and the proven values): at the root it weighs the ``considered`` legal
    actions the network's prior (with Gumbel noise drawn at ``gumbel_scale``) ranks first,
    halving them as the simulations go; with ``prove``, it proves what the rules' returns
    settle (``quarkade.jax.gumbel``: a proven win is played, a proven loss avoided);
    with ``symmetric``, the network's guesses are averaged over the rules' symmetries.
    Each node's legal actions are kept in slots (the module docstring); ``slotted=False``
    gives every action id a slot (the same search without noise, at its old cost:
    bench/bench_jax_search.py compares the two)."""
    batch = state.current_player.shape[0]
    draw, key = jax.random.split(key)
    root_state = jax.vmap(env.resample)(state, jax.random.split(draw, batch))
    logits, value = evaluate(env, params, state.observation, symmetric)
    slots = env.rules.most_legal()
    if not slotted or slots >= env.num_actions:  # every action id a slot of its own
        root = mctx.RootFnOutput(prior_logits=logits, value=value, embedding=root_state)
        return gumbel_policy(
            params, key, root, recurrent_fn(env, symmetric), simulations,
            ~state.legal_action_mask, qtransform=mctx.qtransform_completed_by_mix_value,
            gumbel_scale=gumbel_scale, max_num_considered_actions=considered,
            legal=(lambda states: states.legal_action_mask) if prove else None)
    ids = slot_ids(state.legal_action_mask, slots)
    root = mctx.RootFnOutput(prior_logits=in_slots(logits, ids), value=value,
                             embedding=Slotted(root_state, ids))
    found = gumbel_policy(
        params, key, root, slotted_fn(env, symmetric), simulations, ids >= env.num_actions,
        qtransform=mctx.qtransform_completed_by_mix_value, gumbel_scale=gumbel_scale,
        max_num_considered_actions=min(considered, slots),
        legal=(lambda nodes: nodes.ids < env.num_actions) if prove else None)
    out = found.policy
    return found._replace(slots=ids, policy=out.replace(
        action=ids[jnp.arange(batch), out.action],
        action_weights=by_id(out.action_weights, ids, env.num_actions)))


PLAY_CONSIDERED = 16  # root actions a bot's search weighs by default: its prior's first
# sixteen, as self-play's search does (docs/RESEARCH.md: wider, each gets fewer visits)
PLAY_LATE = 1024  # a bot's simulations near the end of a game (``LATE_LEFT``), where its
# lines reach the game's ends and the rules' exact returns (docs/RESEARCH.md)
LATE_LEFT = 4  # near the end: at most this much ``left`` (Card Commons: empty cells)


def play_search(env: JaxEnv, params: Any, key: jax.Array, state: Any, simulations: int,
                prove: bool = True, symmetric: bool = False,
                considered: int = PLAY_CONSIDERED) -> Searched:
    """A bot's search: no Gumbel noise at the root, the ``considered`` root actions its
    prior ranks first weighed, proven values (``prove``) where the rules are ``certain``
    (where cards are hidden, one drawn state's proof proves nothing)."""
    return search(env, params, key, state, simulations, gumbel_scale=0.0,
                  considered=min(considered, env.num_actions),
                  prove=prove and env.rules.certain, symmetric=symmetric)


def won_at_once(state: State) -> int | None:
    """A legal move that ends the game with the best return for the seat making it (1),
    the lowest such action id, or None."""
    mover = state.current_player()
    for action in state.legal_actions():
        after = state.clone()
        after.apply_action(action)
        if after.is_terminal() and after.returns()[mover] >= 1.0:
            return action
    return None


class Searcher:
    """A checkpoint's search for a bot: the best move by ``simulations`` simulations
    (no Gumbel noise at the root, so the same position gets the same move), a move the
    search proved won before any other and a move it proved lost after any other
    (``play_search``). It weighs the ``considered`` root moves its prior ranks first (16
    by default, as self-play does; with 128 nearly every legal move, each tried once when
    the simulations are at least as many). Where the rules are ``certain``, a move that
    wins the game at once is played whatever the search says, however low the network
    ranks it (``won_at_once``: the rules' returns, as the proofs read them). Where the
    rules are ``staged`` and at most ``LATE_LEFT`` is left, it searches ``late``
    simulations instead, if set (a batch that holds both kinds is searched both ways)."""

    def __init__(self, game: Game, params: dict[str, np.ndarray]) -> None:
        self.env = JaxEnv(rules_of(game))
        self.params = {key: jnp.asarray(value) for key, value in params.items()}
        self.prove = True  # bench/learned_strength.py measures the bot without proofs
        self.symmetric = False  # the network averaged over the rules' symmetries
        self.considered = PLAY_CONSIDERED  # root moves weighed, the prior's first
        self.late = 0  # simulations near the end (``LATE_LEFT``; 0: as many as elsewhere)
        self._compiled: dict[tuple[int, bool, bool, int], Any] = {}

    def _function(self, simulations: int) -> Any:
        shape = (simulations, self.prove, self.symmetric, self.considered)
        if shape not in self._compiled:
            env, prove, symmetric, considered = (self.env, self.prove, self.symmetric,
                                                 self.considered)

            def choose(params: Any, key: jax.Array, state: Any) -> tuple[jax.Array, ...]:
                found = play_search(env, params, key, state, simulations, prove,
                                    symmetric, considered)
                tree = found.policy.search_tree
                return (found.policy.action,
                        found.by_action(tree.children_visits[:, tree.ROOT_INDEX]))

            self._compiled[shape] = jax.jit(choose)
        return self._compiled[shape]

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
        key = jax.random.PRNGKey(seed)
        counts = [self.late if late else simulations for late in self.near_the_end(states)]
        found = {count: [np.asarray(part) for part in
                         self._function(count)(self.params, key, batch)]
                 for count in sorted(set(counts))}
        chosen = [int(found[count][0][row]) for row, count in enumerate(counts)]
        visits = np.stack([found[count][1][row] for row, count in enumerate(counts)])
        for state, action in zip(states, chosen, strict=True):
            if action not in state.legal_actions():
                raise AssertionError(f"the search chose an illegal action {action}")
        if self.env.rules.certain:
            chosen = [action if (won := won_at_once(state)) is None else won
                      for state, action in zip(states, chosen, strict=True)]
        return chosen, visits

    def near_the_end(self, states: Sequence[State]) -> list[bool]:
        """For each of ``states``, whether it gets the ``late`` search: the rules are
        ``staged`` and at most ``LATE_LEFT`` is left."""
        if not (self.late and self.env.rules.staged):
            return [False] * len(states)
        return [int(self.env.rules.left(jnp.asarray(self.env.rules.to_board(state))))
                <= LATE_LEFT for state in states]
