"""What every compiled engine shares: numba, its on-disk cache, and seeded random streams.

The compiled engines (``games/<game>/compiled.py``) are a second implementation of each
rule set, written for numba (the ``quarkade[fast]`` extra) and held to the reference
engines by differential tests. The reference engines never import this module; code that
may run without numba finds a compiled engine through
``quarkade.core.registry.compiled_engine``, which says how to install numba.

Cache. Compiled code is kept on disk (numba's ``cache=True``), so only the first run
after a change pays the compilation. numba checks a cached function against its own
source file but not against the modules whose globals it froze in or whose functions it
inlined, so the cache lives in a directory named after a hash of the compiled modules
and every Quarkade module they import (``quarkade.core.jitcache``):
``$QUARKADE_JIT_CACHE`` if set, else ``$XDG_CACHE_HOME/quarkade/jit/engines-<hash>`` (by
default under ``~/.cache``). ``NUMBA_CACHE_DIR``, if set, wins.

Randomness. A compiled game draws from 64-bit splitmix streams held in a small ``uint64``
array, one stream per purpose (chance, each seat), each seeded from the game's seed and
the purpose. Integer draws (``below``) are exact enough for every chance node here:
their probabilities are small fractions, and the bias of a draw below ``k`` is at most
``k / 2**32``. Game ``j`` of a run gets ``game_seed(run_seed, j)``: the same games
whatever the worker count or chunking.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numba.core.cgutils
import numba.extending
import numpy as np

from quarkade.core import jitcache


def _roots() -> list[Path]:
    """The compiled modules: this one, each game's compiled engine (a module or a
    package) and the compiled searches."""
    package = Path(__file__).resolve().parent.parent
    found = [Path(__file__).resolve(), *sorted(package.glob("games/*/compiled.py")),
             *sorted(package.glob("games/*/compiled/*.py")),
             *sorted(package.glob("agents/compiled*.py"))]
    return [path for path in found if path.is_file()]


def cache_dir() -> Path:
    """Where compiled code is kept (see the module docstring)."""
    return jitcache.cache_dir("engines", _roots())


CACHE_DIR = cache_dir()


def njit(function: Callable[..., Any]) -> Any:
    """numba's ``njit``, cached on disk (see the module docstring)."""
    with jitcache.caching_into(numba.config, CACHE_DIR):
        return numba.njit(cache=True, nogil=True)(function)


def njit_inline(function: Callable[..., Any]) -> Any:
    """``njit`` for a small function on the hot path, inlined into its callers by numba
    (a call that passes arrays costs reference counting, several times a step's work)."""
    with jitcache.caching_into(numba.config, CACHE_DIR):
        return numba.njit(cache=True, nogil=True, inline="always")(function)


@numba.extending.intrinsic
def _count_trailing_zeros(typing_context: Any, mask: Any) -> Any:
    signature = numba.types.int64(numba.types.int64)

    def codegen(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
        return builder.cttz(arguments[0], numba.core.cgutils.true_bit)

    return signature, codegen


@numba.extending.intrinsic
def _count_ones(typing_context: Any, mask: Any) -> Any:
    signature = numba.types.int64(numba.types.int64)

    def codegen(context: Any, builder: Any, signature: Any, arguments: Any) -> Any:
        return builder.ctpop(arguments[0])

    return signature, codegen


@njit_inline
def lowest_bit(mask: int) -> int:
    """The index of the lowest set bit of a non-zero mask (one machine instruction)."""
    return _count_trailing_zeros(np.int64(mask))  # type: ignore[call-arg]


@njit_inline
def bit_count(mask: int) -> int:
    """How many bits of a non-negative mask are set."""
    return _count_ones(np.int64(mask))  # type: ignore[call-arg]


MASK48 = (1 << 48) - 1
_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S30, _S27, _S31, _S32 = np.uint64(30), np.uint64(27), np.uint64(31), np.uint64(32)


@njit_inline
def mix64(value: np.uint64) -> np.uint64:
    """splitmix64's finalizer: a well-spread 64-bit hash of ``value``."""
    z = value
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return z ^ (z >> _S31)


@njit
def game_seed(run_seed: int, game: int) -> np.int64:
    """The seed of game ``game`` of a run (48 bits, exact in JSON)."""
    mixed = mix64(mix64(np.uint64(run_seed) ^ _GOLDEN) + np.uint64(game) * _GOLDEN)
    return np.int64(mixed & np.uint64(MASK48))


@njit
def seed_streams(streams: np.ndarray, seed: int) -> None:
    """Seed every stream of ``streams`` from ``seed``: stream ``i`` from ``(seed, i)``."""
    base = mix64(np.uint64(seed) + _GOLDEN)
    for i in range(streams.shape[0]):
        streams[i] = mix64(base + np.uint64(i + 1) * _MIX1)


@njit_inline
def next_u64(streams: np.ndarray, stream: int) -> np.uint64:
    """The next 64 random bits of ``streams[stream]`` (splitmix64)."""
    state = streams[stream] + _GOLDEN
    streams[stream] = state
    return mix64(state)


@njit_inline
def below(streams: np.ndarray, stream: int, k: int) -> np.int64:
    """A random integer in ``[0, k)`` (``0 < k < 2**32``) from ``streams[stream]``."""
    return np.int64(((next_u64(streams, stream) >> _S32) * np.uint64(k)) >> _S32)


@njit
def choose_among(streams: np.ndarray, stream: int, items: np.ndarray, count: int) -> int:
    """One of ``items[:count]``, uniformly."""
    return items[below(streams, stream, count)]


# -- playing games in batches ----------------------------------------------------------
#
# A compiled state is a flat ``int64`` array in the game's own layout, whose first slot is
# the player count. ``streams`` holds the random streams (0: chance, 1 + s: seat s) and
# ``policies`` the compiled agent of each seat (ids from the game's ``AGENTS``). Each
# game's ``play_one(state, streams, policies)`` plays the game in ``state`` to its end and
# returns (the winners as a bit mask, decisions, actions, the first seat to decide).

# Columns of a batch's results, one row per game.
SEED, WINNERS, DECISIONS, ACTIONS, FIRST = range(5)
RESULT_COLUMNS = 5

# Each game's ``play_games(template, matchups, games_per_matchup, run_seed, start, out)``
# plays games ``start .. start + len(out) - 1`` of a run into ``out``, one row each, with
# ``start_game`` and ``store_result`` around its own ``play_one`` (a shared kernel taking
# ``play_one`` as an argument could not be cached on disk).


@njit
def batch_buffers(template: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A state, the random streams and the seats' policies, for playing games of
    ``template``'s options one after another (``template[0]`` is the player count)."""
    players = template[0]
    return (np.empty_like(template), np.empty(players + 1, np.uint64),
            np.empty(players, np.int64))


@njit
def start_game(matchups: np.ndarray, games_per_matchup: int, run_seed: int, index: int,
               streams: np.ndarray, policies: np.ndarray) -> int:
    """Set up game ``index`` of a run: each seat's policy and the random streams; returns
    the game's seed.

    Game ``index`` is game ``j = index % games_per_matchup`` of matchup ``m = index //
    games_per_matchup``; seat ``s`` is played by ``matchups[m, (j + s) % k]`` (the
    rotation of ``quarkade.sim.plan``), and its seed is ``game_seed(run_seed, j)``, so
    every matchup meets the same seeds, as in the reference simulator.
    """
    k = matchups.shape[1]
    matchup = index // games_per_matchup
    j = index % games_per_matchup
    for seat in range(policies.shape[0]):
        policies[seat] = matchups[matchup, (j + seat) % k]
    seed = game_seed(run_seed, j)
    seed_streams(streams, seed)
    return seed


@njit_inline
def copy_into(target: np.ndarray, source: np.ndarray) -> None:
    """``target[:] = source`` for two 1-d arrays of one length (numba's slice assignment is
    several times slower at these sizes)."""
    for i in range(source.shape[0]):
        target[i] = source[i]


@njit
def store_result(out: np.ndarray, row: int, seed: int,
                 result: tuple[int, int, int, int]) -> None:
    """Write one game's seed and ``play_one`` result into row ``row`` of ``out``."""
    out[row, SEED] = seed
    out[row, WINNERS], out[row, DECISIONS], out[row, ACTIONS], out[row, FIRST] = result


@njit
def shared_returns(winners: int, players: int, out: np.ndarray) -> None:
    """``quarkade.core.protocol.shared_returns`` of the winners in a bit mask."""
    won = 0
    for seat in range(players):
        won += winners >> seat & 1
    for seat in range(players):
        if won == 0 or won == players:
            out[seat] = 0.0
        elif winners >> seat & 1:
            out[seat] = 1.0 / won
        else:
            out[seat] = -1.0 / (players - won)


def new_results(games: int) -> np.ndarray:
    """An empty results array for ``games`` games (see ``start_game``)."""
    return np.zeros((games, RESULT_COLUMNS), dtype=np.int64)


def warm_up_engine(module: Any, game: Any) -> np.ndarray:
    """Compile (or load from the disk cache) a compiled engine's functions for ``game``, as
    the simulator, the search bots and the tests call them; returns the state after one
    action, for the game's own extra functions."""
    template = module.new_state(game)
    players = game.num_players
    module.play_games(template, np.zeros((1, 1), np.int64), 2, 1, 0, new_results(2))
    streams = np.zeros(players + 1, np.uint64)
    seed_streams(streams, 1)
    policies = np.zeros(players, np.int64)
    module.play_one(template.copy(), streams, policies)
    module.play_stepwise(template.copy(), streams, policies, np.zeros(4, np.int64))
    buffer = np.zeros(module.MAX_ACTIONS, np.int64)
    weights = np.zeros(module.MAX_ACTIONS, np.int64)
    state = template.copy()
    module.current_player(state)
    module.chance_outcomes(state, buffer, weights)
    module.returns(state, np.zeros(players, np.float64))
    module.sample_chance(state, streams)
    module.legal_actions(state, buffer)
    module.apply_action(state, int(buffer[0]))
    return state
