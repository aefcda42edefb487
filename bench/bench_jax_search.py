"""The learned bot's and self-play's search: legal actions in slots against every action id.

Run with ``make bench`` (or ``python bench/bench_jax_search.py [--rounds 3]``). Card
Commons' Tutorial has 2,532 action ids and at most 193 legal at a decision
(``Rules.most_legal``); ``quarkade.jax.search.search`` keeps each node's legal actions in
that many slots, ``slotted=False`` gives every action id its own (the search as it was,
node for node the same without noise: tests/jaxenv/test_gumbel.py). Each row times both
in the same process, alternately, ``--rounds`` rounds each, after compiling, in CPU
milliseconds a search (``time.process_time``: XLA's threads included), on a random
network (its values change what is searched, not the cost):

- self-play's search: 128 positions at once (decisions of random games, 2 to 24 placements
  in), 16 simulations, the prior's 16 first weighed, Gumbel noise, proofs;
- the bot's: one position (a decision of a random game 8 placements in), 256
  simulations, 16 weighed, no noise, proofs, the network averaged over the eight maps of
  the field (a new checkpoint's default play).
"""

from __future__ import annotations

import argparse
import os
import platform
import time

import jax
import jax.numpy as jnp
import numpy as np
from rich.console import Console
from rich.table import Table

from quarkade.jax import make, network
from quarkade.jax.search import search

ENV = make("card-commons", variant="tutorial")


def positions(count: int, seed: int) -> object:
    """``count`` decisions of random Tutorial games, each 2 to 24 placements in (a batch)."""
    rng = np.random.default_rng(seed)
    init = jax.jit(jax.vmap(ENV.init))
    step = jax.jit(jax.vmap(ENV.step))
    state = init(jax.random.split(jax.random.PRNGKey(seed), count))
    moves = rng.integers(2, 25, count)
    for move in range(int(moves.max())):
        noise = rng.random(state.legal_action_mask.shape)
        action = np.argmax(np.where(state.legal_action_mask, noise, -1.0), axis=-1)
        after = step(state, jnp.asarray(action, jnp.int32),
                     jax.random.split(jax.random.PRNGKey(move), count))
        going = jnp.asarray((move < moves) & ~np.asarray(after.terminated))
        state = jax.tree_util.tree_map(
            lambda new, old, going=going: jnp.where(
                going.reshape(-1, *[1] * (new.ndim - 1)), new, old),
            after, state)
    return state


def timed(function: object, rounds: int) -> float:
    """CPU milliseconds a call of ``function`` (compiled first), the median of ``rounds``."""
    jax.block_until_ready(function())  # type: ignore[operator]
    spent = []
    for _ in range(rounds):
        started = time.process_time()
        jax.block_until_ready(function())  # type: ignore[operator]
        spent.append((time.process_time() - started) * 1000)
    return float(np.median(spent))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="timed calls a side of a row")
    args = parser.parse_args()
    rules = ENV.rules
    params = network.init(jax.random.PRNGKey(0), rules.observation_size + rules.feature_size,
                          ENV.num_actions)
    batch = positions(128, 1)
    one = jax.tree_util.tree_map(lambda leaves: leaves[8:9], positions(16, 2))
    rows = [
        ("self-play: 128 positions, 16 simulations, noise, proofs", batch,
         {"simulations": 16, "gumbel_scale": 1.0, "prove": True}),
        ("the bot: 1 position, 256 simulations, the eight maps, proofs", one,
         {"simulations": 256, "gumbel_scale": 0.0, "prove": True, "symmetric": True}),
    ]
    table = Table(title=f"Card Commons (Tutorial) search, CPU ms a search; "
                        f"{platform.processor() or platform.machine()}, "
                        f"{os.cpu_count()} cores, jax {jax.__version__}")
    for column in ("search", "every action id", "slots", "every / slots"):
        table.add_column(column, justify="left" if column == "search" else "right")
    for label, states, options in rows:
        functions = {
            slotted: jax.jit(lambda p, k, s, slotted=slotted, options=options: search(
                ENV, p, k, s, options["simulations"], options["gumbel_scale"], 16,
                options["prove"], options.get("symmetric", False), slotted).policy.action)
            for slotted in (False, True)}
        spent: dict[bool, list[float]] = {False: [], True: []}
        for round_ in range(args.rounds):
            for slotted, function in functions.items():
                key = jax.random.PRNGKey(round_)
                spent[slotted].append(timed(
                    lambda f=function, k=key, s=states: f(params, k, s), 1))
        every, slots = (float(np.median(spent[flag])) for flag in (False, True))
        table.add_row(label, f"{every:,.0f}", f"{slots:,.0f}", f"{every / slots:.1f}x")
    Console().print(table)


if __name__ == "__main__":
    main()
