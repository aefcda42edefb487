"""The JAX environments against the compiled (numba) engines: random self-play, games/s.

Run with ``make bench`` (or ``python bench/bench_jax.py [--device cpu|gpu] [--batches
1024,8192] [--steps 64] [--seconds 4] [--only GAME]``). For each game and options,
``jax.vmap``-ed random self-play on the JAX environment: a batch of ``B`` games stepped
``--steps`` times inside one jitted ``lax.scan`` (every action a uniformly random legal
one, a finished game replaced by a new one at once, the games in progress carried from
call to call), timed
after its compilation, so games/s counts the games finished per CPU second (XLA's threads
included); and the compiled engine's random self-play (``play_games``, one process, one
core, CPU time) in the same run, alternately, two rounds each. The table gives both and
their ratio. The compile time of the jitted scan is its own column (it is paid once
per process and batch size).

``--device gpu`` runs the JAX side on the first GPU (``jax[cuda12]`` installed, and
``JAX_PLATFORMS`` unset); the numba side always runs on the CPU. docs/PERFORMANCE.md
reports the CPU figures and what a GPU is expected to give.
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from pathlib import Path

import jax
import jax.numpy as jnp
from rich.console import Console
from rich.table import Table

import quarkade
from quarkade.jax import make

sys.path.insert(0, str(Path(__file__).parent))
from bench_compiled import compiled_rate

ROWS = [
    ("hadronize", {"players": 2}),
    ("hadronize", {"players": 6}),
    ("dead-cat", {"players": 2}),
    ("dead-cat", {"players": 5, "peek_first": True}),
    ("card-commons", {"variant": "tutorial"}),
    ("card-commons", {"variant": "classic"}),
]


def selfplay(env: object, batch: int, steps: int) -> object:
    """A jitted function of (games in progress, key): ``steps`` random legal moves in each
    of the ``batch`` games (a finished game replaced by a new one), returning the games in
    progress and how many finished."""

    def run(state: object, key: jax.Array) -> tuple[object, jax.Array]:
        def one(carry: tuple[object, jax.Array], key: jax.Array) -> tuple[object, None]:
            state, finished = carry
            pick, step, fresh_key = jax.random.split(key, 3)
            noise = jax.random.uniform(pick, state.legal_action_mask.shape)  # type: ignore
            action = jnp.argmax(jnp.where(state.legal_action_mask, noise, -1.0), axis=-1)  # type: ignore
            after = jax.vmap(env.step)(state, action.astype(jnp.int32),  # type: ignore
                                       jax.random.split(step, batch))
            fresh = jax.vmap(env.init)(jax.random.split(fresh_key, batch))  # type: ignore
            ended = after.terminated
            following = jax.tree_util.tree_map(
                lambda new, old: jnp.where(ended.reshape(-1, *[1] * (old.ndim - 1)), new, old),
                fresh, after)
            return (following, finished + ended.sum()), None

        (state, finished), _ = jax.lax.scan(one, (state, jnp.int32(0)),
                                            jax.random.split(key, steps))
        return state, finished

    return jax.jit(run)


def jax_rate(run: object, state: object, seconds: float, seed: int) -> tuple[float, object]:
    """Games finished per CPU second of this process (every thread: XLA spreads a batch
    over the cores) by ``run`` (compiled), over ``seconds``; and the games in progress."""
    finished, spent, calls = 0, 0.0, 0
    while spent < seconds or calls == 0:
        start = time.process_time()
        state, done = run(state, jax.random.PRNGKey(seed + calls))  # type: ignore[operator]
        finished += int(done)
        spent += time.process_time() - start
        calls += 1
    return finished / spent, state


def table(device: str, batches: list[int], steps: int, seconds: float,
          only: str | None) -> Table:
    shown = Table("game", "options", "batch", "compile s", "JAX games/s", "numba games/s",
                  "JAX / numba", title=f"random self-play: jax.vmap on {device} against the "
                  "compiled engine on one CPU core (games per CPU second, measured "
                  "alternately in one run)")
    for name, options in ROWS:
        if only and name != only:
            continue
        env = make(name, **options)
        game = quarkade.load_game(name, **options)
        for batch in batches:
            run = selfplay(env, batch, steps)
            keys = jax.random.split(jax.random.PRNGKey(0), batch)
            state = jax.jit(jax.vmap(env.init))(keys)  # type: ignore[attr-defined]
            start = time.perf_counter()
            state, _ = jax.block_until_ready(run(state, keys[0]))  # type: ignore[operator]
            compiled_in = time.perf_counter() - start
            for warm in range(3):  # past the first games' start, to a steady mix of lengths
                state, _ = run(state, keys[warm + 1])  # type: ignore[operator]
            fast = numba = 0.0
            for round_ in range(2):  # alternately, so that a busy minute weighs on both
                rate, state = jax_rate(run, state, seconds / 2, 1 + 100 * round_)
                fast += rate / 2
                numba += compiled_rate(game, seconds / 2) / 2
            text = ", ".join(f"{k}={v}" for k, v in options.items())
            row = (name, text, f"{batch:,}", f"{compiled_in:.0f}", f"{fast:,.0f}",
                   f"{numba:,.0f}", f"{fast / numba:.3g}x")
            print("| " + " | ".join(row) + " |", flush=True)  # a run cut short keeps its rows
            shown.add_row(*row)
    return shown


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--device", choices=["cpu", "gpu"], default="cpu")
    parser.add_argument("--batches", default="1024,8192")
    parser.add_argument("--steps", type=int, default=64, help="moves per jitted call")
    parser.add_argument("--seconds", type=float, default=4.0, help="per side of a row")
    parser.add_argument("--only", help="only this game's rows")
    args = parser.parse_args()
    jax.config.update("jax_platforms", args.device)
    try:
        device = jax.devices()[0]
    except RuntimeError as missing:
        raise SystemExit(f"--device {args.device}: JAX finds no such device ({missing}); "
                         "for a GPU, pip install 'jax[cuda12]'") from None
    console = Console(width=140)
    console.print(f"Python {platform.python_version()}, JAX {jax.__version__} on "
                  f"{device.device_kind} ({device.platform}), {os.cpu_count()} cores, load "
                  f"average {os.getloadavg()[0]:.1f}")
    batches = [int(b) for b in args.batches.split(",")]
    console.print(table(device.platform, batches, args.steps, args.seconds, args.only))


if __name__ == "__main__":
    main()
