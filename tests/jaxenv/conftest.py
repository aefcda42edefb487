"""What the JAX tests share.

Compiling is most of their time, so XLA compiles them with most optimizations off
(``jax_disable_most_optimizations``: the same programs, compiled about twice as fast and
run a few times slower, which these small batches never notice), each test process
compiles each function once (``helpers.checker``, ``test_envs.batched``, the trainer of
``test_learned``), and pytest-xdist keeps the tests that share a compiled function in one
worker (``make test`` runs this folder with ``--dist loadgroup``).
"""

from __future__ import annotations

import jax
import pytest

jax.config.update("jax_disable_most_optimizations", True)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        group = _group(item)
        if group:
            item.add_marker(pytest.mark.xdist_group(group))


def _group(item: pytest.Item) -> str | None:
    """The tests that compile the same functions: the differential tests of one compiled
    shape (Dead Cat's peek_first readings, Hadronize's three seats with and without a
    goal), each smoke game's tests, the tests of the trainer and its checkpoint."""
    params = getattr(item, "callspec", None)
    fixtures = getattr(item, "fixturenames", ())
    if item.path.name == "test_differential.py" and params is not None:
        name, options = params.params["name"], params.params["options"]
        shape = [options.get(key) for key in ("players", "variant", "torus")]
        return f"checker-{name}-{shape}"
    if item.path.name == "test_envs.py" and params is not None:
        return f"smoke-{params.params['name']}"
    if item.name.startswith("test_bad_names_and_options"):
        return "smoke-card-commons"  # it steps a smoke state
    if "trainer" in fixtures or "checkpoint" in fixtures:
        return "trainer"
    return None
