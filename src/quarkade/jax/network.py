"""The self-play agent's network: a small residual MLP from an observation to a policy
over every action id and a value in [-1, 1].

Parameters are a plain dict of arrays (``init``), so a checkpoint is one ``.npz`` file and
the same forward pass runs in JAX (training, search) and in numpy (``numpy_forward``: a
bot that plays without search needs neither JAX nor a compiler).
"""

from __future__ import annotations

from typing import Any

import numpy as np

Params = dict[str, Any]


def init(key: Any, observation_size: int, num_actions: int, width: int = 256,
         blocks: int = 2) -> Params:
    """Random parameters (He initialisation for the hidden layers, small output layers)."""
    import jax
    import jax.numpy as jnp

    keys = iter(jax.random.split(key, 4 + 2 * blocks))

    def dense(fan_in: int, fan_out: int, scale: float = 1.0) -> tuple[Any, Any]:
        weight = jax.random.normal(next(keys), (fan_in, fan_out)) * scale * (2 / fan_in) ** 0.5
        return weight.astype(jnp.float32), jnp.zeros(fan_out, jnp.float32)

    params: Params = {}
    params["in_w"], params["in_b"] = dense(observation_size, width)
    for block in range(blocks):
        params[f"b{block}_w1"], params[f"b{block}_b1"] = dense(width, width)
        params[f"b{block}_w2"], params[f"b{block}_b2"] = dense(width, width, 0.1)
    params["policy_w"], params["policy_b"] = dense(width, num_actions, 0.1)
    params["value_w"], params["value_b"] = dense(width, 1, 0.1)
    return params


def blocks_of(params: Params) -> int:
    return sum(1 for key in params if key.endswith("_w1"))


def forward(params: Params, observation: Any) -> tuple[Any, Any]:
    """(policy logits, value) for a batch of observations, in JAX."""
    import jax
    import jax.numpy as jnp

    hidden = jax.nn.relu(observation @ params["in_w"] + params["in_b"])
    for block in range(blocks_of(params)):
        inner = jax.nn.relu(hidden @ params[f"b{block}_w1"] + params[f"b{block}_b1"])
        hidden = jax.nn.relu(hidden + inner @ params[f"b{block}_w2"] + params[f"b{block}_b2"])
    logits = hidden @ params["policy_w"] + params["policy_b"]
    value = jnp.tanh(hidden @ params["value_w"] + params["value_b"])[..., 0]
    return logits, value


def numpy_forward(params: Params, observation: np.ndarray) -> tuple[np.ndarray, float]:
    """``forward`` for one observation in numpy: (policy logits, value)."""
    hidden = np.maximum(observation @ params["in_w"] + params["in_b"], 0)
    for block in range(blocks_of(params)):
        inner = np.maximum(hidden @ params[f"b{block}_w1"] + params[f"b{block}_b1"], 0)
        hidden = np.maximum(hidden + inner @ params[f"b{block}_w2"] + params[f"b{block}_b2"], 0)
    logits = hidden @ params["policy_w"] + params["policy_b"]
    value = float(np.tanh(hidden @ params["value_w"] + params["value_b"])[0])
    return logits, value
