"""Steps per second through each research adapter, beside the raw protocol, in one run.

Run with ``make bench`` (or ``python bench/bench_adapters.py [--seconds S] [--wall]
[--players N] [GAME ...]``). A step is one decision by a seat; chance is played inside it.
Every row plays whole random games (a uniformly random legal action at each decision) and
the rows take turns in short slices, so that a change in the machine's load falls on all of
them alike; by default they are timed in this process's CPU time, which other work on the
machine disturbs less than the wall clock. Read the ratios; absolute figures vary from run to
run. Rows:

- ``protocol``: ``legal_actions()`` and ``apply_action()`` (``sample_chance`` for chance);
- ``protocol, observing``: the same plus the mover's ``view()`` at every decision, the
  least an observing agent needs (the ``x observing`` column divides by this row);
- ``protocol, encoding``: the same plus the game's ``encode()`` of that view, as a list;
- ``protocol, encode_state``: ``protocol`` plus the game's fast path ``encode_state()``
  (the same list, written from the state without building the view), where it has one;
- ``pettingzoo raw_env`` and ``pettingzoo env``: ``agent_iter()``, ``last()`` (the encoded
  observation and the mask) and ``step()``, without and with PettingZoo's usual wrappers;
  the agent picks a uniformly random legal action from the mask (``mask.nonzero()[0]``);
- ``gymnasium``: ``QuarkadeEnv`` against random opponents (the steps of every seat: the
  opponents are ``random`` agents that count their decisions);
- ``openspiel``: ``legal_actions()``, ``chance_outcomes()`` and ``apply_action()`` on the
  registered game, the loop of ``protocol`` (chance drawn by the same ``sample_chance``);
  ``openspiel, observing``: plus ``observation_tensor()`` at each decision, the loop of
  ``protocol, observing``.

Then the goal of issue 20: decisions per second through the OpenSpiel adapter (``openspiel,
observing``) at least half those of the project's own observing loop (``protocol,
observing``), for every game; the last table marks it met or not.
"""

from __future__ import annotations

import argparse
import functools
import platform
import random
import time
from collections.abc import Callable
from typing import Any

import pyspiel
from rich.console import Console
from rich.table import Table

import quarkade
import quarkade.adapters.openspiel
from quarkade.adapters.gymnasium import QuarkadeEnv
from quarkade.adapters.pettingzoo import env, raw_env
from quarkade.core.agent import RandomAgent, Turn
from quarkade.core.rng import sample_chance

# A runner plays whole games until ``budget`` seconds of the clock have passed (at least
# one game) and returns (decisions, seconds).
Runner = Callable[[float], tuple[int, float]]
GOAL = 0.5  # openspiel, observing over protocol, observing (issue 20)


def timed(play: Callable[[], int], clock: Callable[[], float]) -> Runner:
    """A runner from ``play``, which plays one game and returns its decisions."""

    def run(budget: float) -> tuple[int, float]:
        decisions = 0
        start = clock()
        while True:
            decisions += play()
            elapsed = clock() - start
            if elapsed >= budget:
                return decisions, elapsed

    return run


def protocol(game: quarkade.Game, observing: bool, encoding: bool = False,
             fast: bool = False) -> Callable[[], int]:
    rng = random.Random(1)
    coding = quarkade.adapters.encoding(game)
    encode, encode_state = coding.encode, coding.encode_state

    def play() -> int:
        decisions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if fast:
                encode_state(state, state.current_player())
            elif encoding:
                encode(state.view(state.current_player()))
            elif observing:
                state.view(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        return decisions

    return play


def pettingzoo(make: Callable[[], Any]) -> Callable[[], int]:
    aec = make()
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def play() -> int:
        decisions = 0
        aec.reset(seed=next(seeds))
        for _ in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            aec.step(rng.choice(observation["action_mask"].nonzero()[0]))
            decisions += 1
        return decisions

    return play


class CountingRandomAgent(RandomAgent):
    """The ``random`` agent, counting its decisions (so that the Gymnasium row counts every
    seat's steps without replaying each game's history inside the timed loop)."""

    decisions = 0

    def act(self, turn: Turn, rng: random.Random) -> int:
        CountingRandomAgent.decisions += 1
        return super().act(turn, rng)


def gymnasium_env(name: str, options: dict[str, Any]) -> Callable[[], int]:
    n = options["players"]
    single = QuarkadeEnv(name, opponent=[CountingRandomAgent() for _ in range(n - 1)],
                         **options)
    rng = random.Random(1)
    seeds = iter(range(10**9))

    def play() -> int:
        before = CountingRandomAgent.decisions
        _, info = single.reset(seed=next(seeds))
        done = False
        decisions = 0
        while not done:
            _, _, done, _, info = single.step(rng.choice(info["action_mask"].nonzero()[0]))
            decisions += 1
        return decisions + CountingRandomAgent.decisions - before  # every seat's

    return play


def openspiel(name: str, options: dict[str, Any], observing: bool) -> Callable[[], int]:
    game = pyspiel.load_game(quarkade.adapters.openspiel.short_name(name), options)
    rng = random.Random(1)

    def play() -> int:
        decisions = 0
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if observing:
                state.observation_tensor(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        return decisions

    return play


def measure(runners: dict[str, Runner], seconds: float, slices: int) -> dict[str, float]:
    """Steps per second of each runner, the runners taking turns in ``slices`` rounds."""
    totals = {label: [0, 0.0] for label in runners}
    for _ in range(slices):
        for label, run in runners.items():
            decisions, elapsed = run(seconds / slices)
            totals[label][0] += decisions
            totals[label][1] += elapsed
    return {label: decisions / elapsed for label, (decisions, elapsed) in totals.items()}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=quarkade.list_games())
    parser.add_argument("--seconds", type=float, default=2.0, help="per row and game")
    parser.add_argument("--slices", type=int, default=4, help="rounds the rows take turns in")
    parser.add_argument("--players", type=int, default=0,
                        help="player count (default: each game's smallest)")
    parser.add_argument("--wall", action="store_true",
                        help="time by the wall clock instead of this process's CPU time")
    args = parser.parse_args()
    clock = time.perf_counter if args.wall else time.process_time
    console = Console(width=130)
    console.print(f"Python {platform.python_version()} on {platform.machine()}, one process, "
                  f"{'wall clock' if args.wall else 'CPU time'}, {args.seconds:g} s per row")
    table = Table("game", "players", "row", "steps/s", "x protocol", "x observing",
                  title="steps (decisions) per second through each adapter")
    goal = Table("game", "players", "openspiel, observing / protocol, observing", "goal",
                 title=f"issue 20's goal: the OpenSpiel adapter at least {GOAL:g}x the "
                 "observing loop")
    for name in args.games:
        cls = quarkade.core.game_class(name)
        options = {"players": args.players or cls.min_players}
        game = quarkade.load_game(name, **options)
        games = {
            "protocol": protocol(game, observing=False),
            "protocol, observing": protocol(game, observing=True),
            "protocol, encoding": protocol(game, observing=True, encoding=True),
            "protocol, encode_state": protocol(game, observing=True, fast=True),
            "pettingzoo raw_env": pettingzoo(functools.partial(raw_env, name, **options)),
            "pettingzoo env": pettingzoo(functools.partial(env, name, **options)),
            "gymnasium": gymnasium_env(name, options),
            "openspiel": openspiel(name, options, observing=False),
            "openspiel, observing": openspiel(name, options, observing=True),
        }
        if quarkade.adapters.encoding(game).encode_state is None:
            del games["protocol, encode_state"]
        runners = {label: timed(play, clock) for label, play in games.items()}
        rates = measure(runners, args.seconds, args.slices)
        bare, observing = rates["protocol"], rates["protocol, observing"]
        for label, rate in rates.items():
            table.add_row(name, str(options["players"]), label, f"{rate:,.0f}",
                          f"{bare / rate:.1f}", f"{observing / rate:.1f}")
        table.add_section()
        ratio = rates["openspiel, observing"] / observing
        goal.add_row(name, str(options["players"]), f"{ratio:.2f}",
                     "met" if ratio >= GOAL else "NOT met")
    console.print(table)
    console.print(goal)


if __name__ == "__main__":
    main()
