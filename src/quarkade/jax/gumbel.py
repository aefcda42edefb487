"""mctx's Gumbel MuZero search, with a backup whose cost is the path's, not the tree's.

``mctx.gumbel_muzero_policy`` backs a simulation's value up with a ``while_loop`` run under
``vmap``: the loop's condition differs between the batch's trees, so each turn of the loop
selects between the old and the new carry, the whole tree of every game in the batch
(``[batch, nodes, actions]`` six times over). With Card Commons' 2,532 actions that copy is
the search's main cost, and it grows with the tree: a 256-simulation search cost about 30
times a 64-simulation one (docs/RESEARCH.md). ``gumbel_policy`` is the same search (the same
keys drawn in the same order, mctx's own root and interior action selection, the same final
choice: a differential test holds its output equal to mctx's) with the backup written for
the batch: one loop while any game's path is still climbing, each turn writing one node
per game in place, a game already at its root writing its values back unchanged.

With ``legal`` (a state's legal actions), the search also proves what the rules settle,
as MCTS-Solver does (Winands, Bjornsson and Saito 2008), from the rules' returns at the
game's end and nothing else: an action that ends the game has its exact return; a node
where some action is proven to give its mover the best return there is (``best``, 1) is
won, one whose every legal action is proven is worth the best of them. A proven node's
value replaces the mean as the backup passes it (so its ancestors' means hold its exact
value), and at the root the final choice plays a proven win first, never a proven loss
while another move is not proven lost (among the moves left, the search's own choice).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, NamedTuple

import jax
import jax.numpy as jnp
import mctx
from mctx import Tree

UNKNOWN = jnp.nan  # a node's exact value before it is proven


class Searched(NamedTuple):
    """A search's answer: mctx's ``PolicyOutput`` (the action, the improved policy, the
    tree) and each node's exact value for its mover where proven (``[batch, nodes]``,
    NaN where not, or everywhere when the search proves nothing). Where the search kept
    each node's legal actions in slots (``slots``: the root's action id in each slot,
    ``[batch, slots]``, the number of actions past its legal ones), the action and the
    improved policy are by action id, the tree by slot (``by_action`` maps it back)."""

    policy: mctx.PolicyOutput
    exact: jax.Array
    slots: jax.Array | None = None

    def by_action(self, values: jax.Array, fill: float | int = 0) -> jax.Array:
        """A root's values by slot (``[batch, slots]``, as its tree holds them) by action
        id (``[batch, actions]``), ``fill`` where no slot holds the action; unchanged
        where the search used every action id."""
        if self.slots is None:
            return values
        return by_id(values, self.slots, self.policy.action_weights.shape[-1], fill)


def by_id(values: jax.Array, ids: jax.Array, actions: int, fill: float | int = 0
          ) -> jax.Array:
    """Values by slot (``[batch, slots]``) by action id (``[batch, actions]``): each slot's
    value at its id (``ids``; an id past the actions is dropped), ``fill`` elsewhere."""
    rows = jnp.arange(values.shape[0])[:, None]
    return (jnp.full((values.shape[0], actions), fill, values.dtype)
            .at[rows, ids].set(values, mode="drop"))


def gumbel_policy(params: Any, rng_key: jax.Array, root: mctx.RootFnOutput,
                  recurrent_fn: mctx.RecurrentFn, num_simulations: int,
                  invalid_actions: jax.Array, *, qtransform: Any,
                  max_num_considered_actions: int, gumbel_scale: float,
                  legal: Callable[[Any], jax.Array] | None = None, best: float = 1.0
                  ) -> Searched:
    """``mctx.gumbel_muzero_policy``'s answer for the same arguments, and with ``legal``
    (the legal actions of a batch of embeddings, ``[batch, actions]``) the proven values
    of the module docstring, ``best`` the highest return a seat can get."""
    root = root.replace(prior_logits=_masked_logits(root.prior_logits, invalid_actions))
    rng_key, gumbel_key = jax.random.split(rng_key)
    gumbel = gumbel_scale * jax.random.gumbel(gumbel_key, root.prior_logits.shape,
                                              root.prior_logits.dtype)
    root_select = functools.partial(mctx.gumbel_muzero_root_action_selection,
                                    num_simulations=num_simulations,
                                    max_num_considered_actions=max_num_considered_actions,
                                    qtransform=qtransform)
    interior_select = functools.partial(mctx.gumbel_muzero_interior_action_selection,
                                        qtransform=qtransform)

    def select(key: jax.Array, tree: Tree, node: jax.Array, depth: jax.Array) -> jax.Array:
        return jax.lax.cond(depth == 0, lambda: root_select(key, tree, node),
                            lambda: interior_select(key, tree, node, depth))

    tree = _new_tree(root, num_simulations, invalid_actions,
                     mctx.GumbelMuZeroExtraData(root_gumbel=gumbel))
    batch = root.value.shape[0]
    rows = jnp.arange(batch)

    proving = _Proving(legal, best) if legal is not None else None

    def simulation(number: jax.Array, carry: tuple[jax.Array, Tree, jax.Array]
                   ) -> tuple[jax.Array, Tree, jax.Array]:
        key, tree, exact = carry
        key, walk_key, expand_key = jax.random.split(key, 3)
        parent, action = _walk(jax.random.split(walk_key, batch), tree, select,
                               num_simulations)
        child = tree.children_index[rows, parent, action]
        child = jnp.where(child == Tree.UNVISITED, number + 1, child)
        tree = _expand(params, expand_key, tree, recurrent_fn, parent, action, child)
        return (key, *_backup(tree, exact, child, proving))

    exact = jnp.full(tree.node_values.shape, UNKNOWN, tree.node_values.dtype)
    _, tree, exact = jax.lax.fori_loop(0, num_simulations, simulation, (rng_key, tree, exact))
    visits = tree.children_visits[:, Tree.ROOT_INDEX].astype(root.value.dtype)
    considered = visits == jnp.max(visits, axis=-1, keepdims=True)
    completed = jax.vmap(qtransform, in_axes=[0, None])(tree, Tree.ROOT_INDEX)
    logits = root.prior_logits - jnp.max(root.prior_logits, axis=-1, keepdims=True)
    score = jnp.maximum(-1e9, gumbel + logits + completed)
    if proving is None:
        allowed = ~invalid_actions & considered
    else:  # a proven win first, a proven loss last; the search's own choice among them
        edges = proving.edges(tree, exact, jnp.full(batch, Tree.ROOT_INDEX))
        rank = jnp.where(edges >= best, 2, jnp.where(edges <= -best, 0, 1))
        rank = jnp.where(invalid_actions, -1, rank)
        allowed = rank == jnp.max(rank, axis=-1, keepdims=True)
        allowed = jnp.where(jnp.any(allowed & considered, axis=-1, keepdims=True),
                            allowed & considered, allowed)
    action = jnp.argmax(jnp.where(allowed, score, -jnp.inf), axis=-1).astype(jnp.int32)
    weights = jax.nn.softmax(_masked_logits(root.prior_logits + completed, invalid_actions))
    return Searched(mctx.PolicyOutput(action=action, action_weights=weights, search_tree=tree),
                    exact)


def proven_edges(tree: Tree, exact: jax.Array, node: jax.Array) -> jax.Array:
    """Each game's actions at ``node`` (``[batch]``): the exact value for the node's mover
    of those proven, NaN for the rest (``[batch, actions]``)."""
    rows = jnp.arange(node.shape[0])
    children = tree.children_index[rows, node]
    reward = tree.children_rewards[rows, node]
    discount = tree.children_discounts[rows, node]
    below = jnp.take_along_axis(exact, jnp.maximum(children, 0), axis=1)
    value = jnp.where(discount == 0, reward, reward + discount * below)
    return jnp.where(children == Tree.UNVISITED, UNKNOWN, value)


def root_edges(searched: Searched) -> jax.Array:
    """``proven_edges`` at the root of each game of a search, by action id."""
    tree = searched.policy.search_tree
    return searched.by_action(
        proven_edges(tree, searched.exact, jnp.full(tree.node_values.shape[0], Tree.ROOT_INDEX)),
        UNKNOWN)


class _Proving:
    """What the search proves (the module docstring): ``legal`` gives an embedding's
    legal actions, ``best`` the highest return."""

    def __init__(self, legal: Callable[[Any], jax.Array], best: float) -> None:
        self.legal = legal
        self.best = best

    def edges(self, tree: Tree, exact: jax.Array, node: jax.Array) -> jax.Array:
        return proven_edges(tree, exact, node)

    def settle(self, tree: Tree, exact: jax.Array, node: jax.Array) -> jax.Array:
        """Each game's exact value at ``node`` if its actions prove one, else NaN."""
        rows = jnp.arange(node.shape[0])
        edges = self.edges(tree, exact, node)
        known = ~jnp.isnan(edges)
        legal = self.legal(jax.tree.map(lambda leaves: leaves[rows, node], tree.embeddings))
        won = jnp.any(known & (edges >= self.best), axis=-1)
        every = jnp.all(known | ~legal, axis=-1) & jnp.any(legal, axis=-1)
        top = jnp.max(jnp.where(known, edges, -jnp.inf), axis=-1)
        return jnp.where(won, self.best, jnp.where(every, top, UNKNOWN))


def _masked_logits(logits: jax.Array, invalid: jax.Array) -> jax.Array:
    """Logits shifted to a maximum of 0, an invalid action's the smallest finite number
    (a softmax over a finished game's all-invalid row stays finite)."""
    logits = logits - jnp.max(logits, axis=-1, keepdims=True)
    return jnp.where(invalid, jnp.finfo(logits.dtype).min, logits)


def _new_tree(root: mctx.RootFnOutput, simulations: int, invalid: jax.Array,
              extra: Any) -> Tree:
    """An empty tree of ``simulations + 1`` nodes per game, the root filled in."""
    batch, actions = root.prior_logits.shape
    nodes = (batch, simulations + 1)
    edges = (*nodes, actions)
    dtype = root.value.dtype
    tree = Tree(
        node_visits=jnp.zeros(nodes, jnp.int32), raw_values=jnp.zeros(nodes, dtype),
        node_values=jnp.zeros(nodes, dtype),
        parents=jnp.full(nodes, Tree.NO_PARENT, jnp.int32),
        action_from_parent=jnp.full(nodes, Tree.NO_PARENT, jnp.int32),
        children_index=jnp.full(edges, Tree.UNVISITED, jnp.int32),
        children_prior_logits=jnp.zeros(edges, root.prior_logits.dtype),
        children_values=jnp.zeros(edges, dtype), children_visits=jnp.zeros(edges, jnp.int32),
        children_rewards=jnp.zeros(edges, dtype), children_discounts=jnp.zeros(edges, dtype),
        embeddings=jax.tree.map(lambda leaf: jnp.zeros((*nodes, *leaf.shape[1:]), leaf.dtype),
                                root.embedding),
        root_invalid_actions=invalid, extra_data=extra)
    return _fill(tree, jnp.full(batch, Tree.ROOT_INDEX), root.prior_logits, root.value,
                 root.embedding)


def _fill(tree: Tree, node: jax.Array, logits: jax.Array, value: jax.Array,
          embedding: Any) -> Tree:
    """``tree`` with each game's ``node`` evaluated: its prior, value and state."""
    rows = jnp.arange(node.shape[0])
    return tree.replace(
        children_prior_logits=tree.children_prior_logits.at[rows, node].set(logits),
        raw_values=tree.raw_values.at[rows, node].set(value),
        node_values=tree.node_values.at[rows, node].set(value),
        node_visits=tree.node_visits.at[rows, node].set(tree.node_visits[rows, node] + 1),
        embeddings=jax.tree.map(lambda leaves, new: leaves.at[rows, node].set(new),
                                tree.embeddings, embedding))


@functools.partial(jax.vmap, in_axes=(0, 0, None, None))
def _walk(key: jax.Array, tree: Tree, select: Any, max_depth: int
          ) -> tuple[jax.Array, jax.Array]:
    """One game's walk from its root, choosing with ``select``, to the first action not
    yet tried (or to ``max_depth``): the node it leaves from and that action. The tree is
    read, not carried, so the ``vmap``'s loop copies nothing large."""

    def going(walk: tuple[Any, ...]) -> jax.Array:
        return walk[4]

    def step(walk: tuple[Any, ...]) -> tuple[Any, ...]:
        key, _, _, node, _, depth = walk
        key, choose_key = jax.random.split(key)
        action = select(choose_key, tree, node, depth)
        child = tree.children_index[node, action]
        depth = depth + 1
        return (key, node, action, child, (child != Tree.UNVISITED) & (depth < max_depth),
                depth)

    start = (key, jnp.int32(Tree.NO_PARENT), jnp.int32(Tree.NO_PARENT),
             jnp.int32(Tree.ROOT_INDEX), jnp.bool_(True),
             jnp.zeros((), tree.children_prior_logits.dtype))
    _, parent, action, _, _, _ = jax.lax.while_loop(going, step, start)
    return parent, action


def _expand(params: Any, key: jax.Array, tree: Tree, recurrent_fn: Any, parent: jax.Array,
            action: jax.Array, child: jax.Array) -> Tree:
    """``tree`` with each game's ``action`` from ``parent`` stepped and evaluated into the
    node ``child``."""
    rows = jnp.arange(parent.shape[0])
    embedding = jax.tree.map(lambda leaves: leaves[rows, parent], tree.embeddings)
    step, embedding = recurrent_fn(params, key, action, embedding)
    tree = _fill(tree, child, step.prior_logits, step.value, embedding)
    return tree.replace(
        children_index=tree.children_index.at[rows, parent, action].set(child),
        children_rewards=tree.children_rewards.at[rows, parent, action].set(step.reward),
        children_discounts=tree.children_discounts.at[rows, parent, action].set(
            step.discount),
        parents=tree.parents.at[rows, child].set(parent),
        action_from_parent=tree.action_from_parent.at[rows, child].set(action))


_Climb = tuple[Tree, jax.Array, jax.Array, jax.Array]  # tree, exact, value, node


def _backup(tree: Tree, exact: jax.Array, leaf: jax.Array, proving: _Proving | None
            ) -> tuple[Tree, jax.Array]:
    """``tree`` with each game's value at ``leaf`` carried up its path to the root, as
    mctx's backward does (a node's value the mean of what passed through it), one level
    of every game per turn of the loop; with ``proving``, each node on the path proven
    where its actions prove it (``exact``), its exact value carried up in place of the
    mean."""
    rows = jnp.arange(leaf.shape[0])

    def climbing(carry: _Climb) -> jax.Array:
        return jnp.any(carry[3] != Tree.ROOT_INDEX)

    def level(carry: _Climb) -> _Climb:
        tree, exact, value, node = carry
        live = node != Tree.ROOT_INDEX
        parent = jnp.where(live, tree.parents[rows, node], Tree.ROOT_INDEX)
        action = jnp.where(live, tree.action_from_parent[rows, node], 0)
        count = tree.node_visits[rows, parent]
        climbed = (tree.children_rewards[rows, parent, action]
                   + tree.children_discounts[rows, parent, action] * value)
        mean = (tree.node_values[rows, parent] * count + climbed) / (count + 1.0)
        tree = tree.replace(
            node_values=tree.node_values.at[rows, parent].set(
                jnp.where(live, mean, tree.node_values[rows, parent])),
            node_visits=tree.node_visits.at[rows, parent].set(jnp.where(live, count + 1,
                                                                        count)),
            children_values=tree.children_values.at[rows, parent, action].set(
                jnp.where(live, tree.node_values[rows, node],
                          tree.children_values[rows, parent, action])),
            children_visits=tree.children_visits.at[rows, parent, action].set(
                tree.children_visits[rows, parent, action] + live))
        value = jnp.where(live, climbed, value)
        if proving is not None:
            settled = proving.settle(tree, exact, parent)
            proven = live & ~jnp.isnan(settled)
            exact = exact.at[rows, parent].set(jnp.where(proven, settled,
                                                         exact[rows, parent]))
            tree = tree.replace(node_values=tree.node_values.at[rows, parent].set(
                jnp.where(proven, settled, tree.node_values[rows, parent])))
            value = jnp.where(proven, settled, value)
        return tree, exact, value, parent

    tree, exact, _, _ = jax.lax.while_loop(
        climbing, level, (tree, exact, tree.node_values[rows, leaf], leaf))
    return tree, exact
