"""Starting positions for self-play from games between bots (``quarkade train
--bot-starts``, ``quarkade.jax.alphazero.Config.bot_starts``): here, above the JAX layer,
because it plays the registry's bots; the trainer takes the boards it returns."""

from __future__ import annotations

import random
from typing import Any

import numpy as np

from quarkade.agents import make_agent
from quarkade.sim.match import play_game


def start_pool(env: Any, bot: str, games: int, seed: int, least_left: int = 0
               ) -> np.ndarray:
    """The boards of every decision (a seat to move, not chance) of ``games`` games
    between two ``bot`` bots of the environment's game and options, each played with its
    own seed drawn from ``seed`` (``Config.bot_starts``); where the rules are ``staged``,
    only those with at least ``least_left`` left."""
    import jax
    import jax.numpy as jnp

    game = env.rules.game
    agents = [make_agent(bot, game.name) for _ in range(game.num_players)]
    rng = random.Random(f"start-pool/{seed}")
    boards = []
    for _ in range(games):
        final = play_game(game, agents, rng.getrandbits(48))
        state = game.new_initial_state()
        for action in final.history():
            if not state.is_chance_node():
                boards.append(env.rules.to_board(state))
            state.apply_action(action)
    pool = np.stack(boards)
    if least_left and env.rules.staged:
        pool = pool[np.asarray(jax.vmap(env.rules.left)(jnp.asarray(pool))) >= least_left]
    return pool
