"""Games played in JAX as reference histories, and reference histories replayed in JAX.

A JAX step is one decision followed by the chance outcomes drawn after it, which the
state keeps (``state._chance``, ``-1`` past them), and ``init`` plays the setup's chance
the same way. So the reference history of a game played here is the setup's outcomes,
then for each step its action and its outcomes: ``history``. The other way, ``replay``
plays a reference history (any action id, chance ones included) on the JAX rules, one
``Rules.apply`` at a time. ``quarkade.core.records.GameRecord`` and every face of the
project read such histories.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import jax.numpy as jnp
import numpy as np

from quarkade.jax.env import JaxEnv, JaxState


def outcomes(state: JaxState) -> list[int]:
    """The chance outcomes a state's ``init`` or ``step`` drew, in order."""
    drawn = np.asarray(state._chance).tolist()
    return [int(a) for a in drawn if a >= 0]


def history(first: JaxState, steps: Iterable[tuple[int, JaxState]]) -> list[int]:
    """The reference history of a game: ``first`` is ``init``'s state, ``steps`` each
    action played and the state ``step`` returned for it (until the game ended)."""
    actions = outcomes(first)
    for action, after in steps:
        actions.append(int(action))
        actions += outcomes(after)
    return actions


def replay(env: JaxEnv, actions: Sequence[int]) -> Any:
    """The board after a reference history, played on the JAX rules (chance included)."""
    board = jnp.asarray(env.rules.initial_board())
    for action in actions:
        board = env.apply(board, jnp.int32(action))
    return board
