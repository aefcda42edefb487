"""The compiled engines against the reference engines, in distribution: the same agents give
the same win rates, first-mover edge and game lengths.

The reference side is costly (200,000 reference games of each configuration take about
half an hour of a core per game, and Card Commons' greedy ten games a second), so it is
played once and kept as data, ``reference_stats.json`` beside this file, written by

    python -m tests.sim.distribution --write [--only GAME] [--stale]     (make reference-stats)

which plays each configuration's games with the reference engine on every core (``--stale``:
only the configurations whose stored first games the current engine no longer plays the
same way). ``tests/sim/test_distributions.py`` then plays as many games with the compiled
engine (seconds), compares them with the stored figures, and replays each configuration's
first ``Config.fingerprint`` games live on the reference engine: their results must hash to
the stored digest, so stored figures that the reference engine would no longer give fail
the test rather than pass it silently. The file keeps only counts and that digest, one
field a line (a few kB a configuration).

The comparison: every win rate (each agent's, each seat's, the first mover's, the draws)
by a two-proportion z test, and the game lengths by a chi-square test of homogeneity
(bins pooled from the tails until every expected count is at least 5). Both sides have
fixed seeds, so a test gives the same answer every run; the threshold ``P_VALUE`` (about
|z| < 4.4) keeps the chance of a false alarm over all the comparisons below 1 in 500.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import multiprocessing
import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from quarkade.agents import make_agent, turn_for
from quarkade.core.agent import RandomAgent, Turn
from quarkade.core.registry import load_game
from quarkade.core.rng import derived_rng, sample_chance
from quarkade.sim.plan import game_seed, seat_agents

DATA = Path(__file__).with_name("reference_stats.json")
P_VALUE = 1e-5
SEED = 2026


@dataclass(frozen=True)
class Config:
    """One configuration: a game with its options and agents (seats rotated), how many
    games each side plays, and how many first games the test replays on the reference."""

    game: str
    options: dict[str, Any]
    agents: tuple[str, ...]
    games: int = 200_000
    fingerprint: int = 300

    @property
    def name(self) -> str:
        shown = ",".join(f"{k}={v}" for k, v in sorted(self.options.items()))
        return f"{self.game} {shown} {'/'.join(self.agents)}"


RANDOM_GREEDY = ("random", "greedy")
DECOHERENCE_OPTIONS = [{}, {"deck0": "random", "deck1": "random"},
                       {"deck0": "surge", "deck1": "observer", "open_decklists": True}]
# Games whose bots draw worlds from their seat's model (``Turn.sample_state``): they get
# the turn ``quarkade simulate`` hands them. Elsewhere the bots read only their view.
SAMPLING = {"decoherence"}
CONFIGS = [
    *(Config("hadronize", {"players": n}, RANDOM_GREEDY) for n in range(2, 7)),
    *(Config("dead-cat", {"players": n, "peek_first": p}, RANDOM_GREEDY)
      for n in range(2, 6) for p in (False, True)),
    *(Config("card-commons", {"variant": v, "torus": t}, ("random",))
      for v in ("classic", "tutorial") for t in (False, True)),
    # The reference greedy plays about ten Card Commons games a second: fewer games.
    *(Config("card-commons", {"variant": v, "torus": t}, RANDOM_GREEDY, games=3_000,
             fingerprint=20)
      for v in ("classic", "tutorial") for t in (False, True)),
    # Decoherence: the default decks, random decks (drawn by chance, private), and two
    # presets with open decklists, random on both seats; greedy against random on the
    # default decks (greedy's worlds drawn from what it knows, so private decklists and
    # face-down nouns count).
    *(Config("decoherence", options, ("random",)) for options in DECOHERENCE_OPTIONS),
    Config("decoherence", {}, RANDOM_GREEDY),
]


# -- playing ------------------------------------------------------------------------------

def reference_games(config: Config, start: int, stop: int) -> list[tuple[int, int, int]]:
    """Games ``start .. stop - 1`` on the reference engine, as ``(winners mask, decisions,
    first mover)``: what ``quarkade simulate --engine reference`` plays (the same seeds
    and agents), without the extras.

    A random seat picks from the legal actions as ``RandomAgent`` does, without a view.
    Where something is hidden, the other bots get a turn without the seat model that
    ``turn_for`` builds for ``sample_state`` (a resample, 0.45 ms a decision in Dead Cat):
    the bots compared here read only their view and legal actions, except in ``SAMPLING``
    games (Decoherence's greedy plays on a world drawn from its seat model).
    """
    game = load_game(config.game, **config.options)
    players = game.num_players
    made = {spec: make_agent(spec, config.game) for spec in config.agents}
    played = []
    for index in range(start, stop):
        seed = game_seed(SEED, index)
        agents = [made[spec] for spec in seat_agents(config.agents, players, index)]
        chance = derived_rng(seed, "chance")
        rngs = [derived_rng(seed, f"seat{seat}") for seat in range(players)]
        state = game.new_initial_state()
        decisions, first = 0, -1
        while not state.is_terminal():
            seat = state.current_player()
            if seat < 0:
                state.apply_action(sample_chance(state, chance))
                continue
            agent = agents[seat]
            if type(agent) is RandomAgent:  # as RandomAgent.act, without building a view
                action = rngs[seat].choice(state.legal_actions())
            elif game.perfect_information or config.game in SAMPLING:
                action = agent.act(turn_for(state), rngs[seat])
            else:
                turn = Turn(game, seat, state.view(seat), state.legal_actions(), None)  # type: ignore[arg-type]
                action = agent.act(turn, rngs[seat])
            state.apply_action(action)
            decisions += 1
            first = seat if first < 0 else first
        played.append((sum(1 << seat for seat in state.winners()), decisions, first))
    return played


def compiled_games(config: Config) -> list[tuple[int, int, int]]:
    """``config.games`` games on the compiled engine, as ``reference_games`` reports them."""
    import numpy as np

    from quarkade.core import jit
    from quarkade.core.registry import compiled_engine

    module = compiled_engine(config.game)
    template = module.new_state(load_game(config.game, **config.options))
    matchups = np.array([[module.AGENTS[spec] for spec in config.agents]], np.int64)
    results = jit.new_results(config.games)
    module.play_games(template, matchups, config.games, SEED, 0, results)
    columns = results[:, [jit.WINNERS, jit.DECISIONS, jit.FIRST]]
    return [tuple(row) for row in columns.tolist()]  # type: ignore[misc]


def digest(games: list[tuple[int, int, int]]) -> str:
    """A short fingerprint of games as ``reference_games`` reports them."""
    text = ";".join(",".join(map(str, game)) for game in games)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


# -- statistics ---------------------------------------------------------------------------

def statistics(config: Config, games: list[tuple[int, int, int]]) -> dict[str, Any]:
    """What the comparison reads: win counts (per seat, per agent, first mover), draws, and
    the lengths as a histogram."""
    players = load_game(config.game, **config.options).num_players
    seat_wins = [0] * players
    agent_wins = dict.fromkeys(config.agents, 0)
    agent_trials = dict.fromkeys(config.agents, 0)
    first_wins = first_trials = draws = 0
    lengths: dict[int, int] = {}
    for index, (winners, decisions, first) in enumerate(games):
        draws += winners == 0
        for seat, spec in enumerate(seat_agents(config.agents, players, index)):
            won = winners >> seat & 1
            seat_wins[seat] += won
            agent_wins[spec] += won
            agent_trials[spec] += 1
        if first >= 0:
            first_trials += 1
            first_wins += winners >> first & 1
        lengths[decisions] = lengths.get(decisions, 0) + 1
    return {"games": len(games), "seat_wins": seat_wins, "agent_wins": agent_wins,
            "agent_trials": agent_trials, "first_wins": first_wins,
            "first_trials": first_trials, "draws": draws,
            "lengths": {str(k): v for k, v in sorted(lengths.items())}}


def proportions(stats: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Every rate compared, as ``name: (hits, trials)``."""
    rates = {f"seat {seat} wins": (wins, stats["games"])
             for seat, wins in enumerate(stats["seat_wins"])}
    for spec, wins in stats["agent_wins"].items():
        rates[f"{spec} wins"] = (wins, stats["agent_trials"][spec])
    rates["first mover wins"] = (stats["first_wins"], stats["first_trials"])
    rates["draws"] = (stats["draws"], stats["games"])
    return rates


def z_test(a: tuple[int, int], b: tuple[int, int]) -> float:
    """The two-sided p-value that two proportions are equal (pooled z test)."""
    pooled = (a[0] + b[0]) / (a[1] + b[1])
    if pooled in (0.0, 1.0):
        return 1.0
    spread = math.sqrt(pooled * (1 - pooled) * (1 / a[1] + 1 / b[1]))
    z = (a[0] / a[1] - b[0] / b[1]) / spread
    return math.erfc(abs(z) / math.sqrt(2))


def chi_square(a: dict[str, int], b: dict[str, int]) -> tuple[float, int, float]:
    """Chi-square test that two length histograms come from one distribution: (statistic,
    degrees of freedom, p-value). Bins are pooled from each tail until every expected count
    is at least 5."""
    from scipy.stats import chi2

    lengths = sorted({int(k) for k in (*a, *b)})
    total_a, total_b = sum(a.values()), sum(b.values())
    share_a = total_a / (total_a + total_b)
    bins: list[list[int]] = []
    current = [0, 0]
    for length in lengths:
        current[0] += a.get(str(length), 0)
        current[1] += b.get(str(length), 0)
        both = current[0] + current[1]
        if min(both * share_a, both * (1 - share_a)) >= 5:
            bins.append(current)
            current = [0, 0]
    if current != [0, 0]:
        if bins:
            bins[-1][0] += current[0]
            bins[-1][1] += current[1]
        else:
            bins.append(current)
    statistic = 0.0
    for count_a, count_b in bins:
        both = count_a + count_b
        for count, share in ((count_a, share_a), (count_b, 1 - share_a)):
            expected = both * share
            statistic += (count - expected) ** 2 / expected
    freedom = len(bins) - 1
    return statistic, freedom, float(chi2.sf(statistic, freedom)) if freedom else 1.0


def compare(reference: dict[str, Any], compiled: dict[str, Any]) -> list[str]:
    """Every disagreement beyond chance, in words (empty when they agree)."""
    problems = []
    ours = proportions(compiled)
    for name, theirs in proportions(reference).items():
        p = z_test(theirs, ours[name])
        if p < P_VALUE:
            problems.append(f"{name}: reference {theirs[0]}/{theirs[1]}, compiled "
                            f"{ours[name][0]}/{ours[name][1]} (p = {p:.1e})")
    statistic, freedom, p = chi_square(reference["lengths"], compiled["lengths"])
    if p < P_VALUE:
        problems.append(f"game lengths: chi-square {statistic:.1f} on {freedom} degrees of "
                        f"freedom (p = {p:.1e})")
    return problems


# -- the data file --------------------------------------------------------------------------

def load() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text())
    return data


def dump(data: dict[str, Any]) -> str:
    """The data file's text: a configuration a block, a field a line."""
    blocks = []
    for name, entry in sorted(data.items()):
        fields = ",\n".join(f"  {json.dumps(key)}: {json.dumps(value)}"
                            for key, value in entry.items())
        blocks.append(f" {json.dumps(name)}: {{\n{fields}\n }}")
    return "{\n" + ",\n".join(blocks) + "\n}\n"


def measure(config: Config, workers: int) -> dict[str, Any]:
    """The reference side of ``config``: its statistics and its first games."""
    size = max(1, min(2_000, config.games // (workers * 8)))
    ranges = [(start, min(start + size, config.games)) for start in range(0, config.games, size)]
    with multiprocessing.get_context("fork").Pool(workers) as pool:
        parts = pool.starmap(reference_games, [(config, *r) for r in ranges])
    games = [game for part in parts for game in part]
    return {"game": config.game, "options": config.options, "agents": list(config.agents),
            "seed": SEED, **statistics(config, games),
            "fingerprint": {"games": config.fingerprint,
                            "sha256": digest(games[:config.fingerprint])}}


def is_stale(config: Config, stored: dict[str, Any] | None) -> bool:
    """Whether the current reference engine no longer plays the stored first games."""
    if stored is None or stored["games"] != config.games \
            or stored.get("fingerprint", {}).get("games") != config.fingerprint:
        return True
    return digest(reference_games(config, 0, config.fingerprint)) \
        != stored["fingerprint"]["sha256"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--write", action="store_true", help="write reference_stats.json")
    parser.add_argument("--only", help="only the configurations of this game")
    parser.add_argument("--stale", action="store_true",
                        help="only configurations the reference engine no longer matches")
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args()
    data = load() if DATA.exists() else {}
    for config in CONFIGS:
        if args.only and config.game != args.only:
            continue
        if args.stale and not is_stale(config, data.get(config.name)):
            print(f"{config.name}: up to date", flush=True)
            continue
        started = time.perf_counter()
        data[config.name] = measure(config, args.workers)
        print(f"{config.name}: {config.games:,} games in {time.perf_counter() - started:.0f} s",
              flush=True)
        if args.write:  # after each configuration, so a stopped run keeps what it did
            DATA.write_text(dump(data))


if __name__ == "__main__":
    main()
