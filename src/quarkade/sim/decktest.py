"""Testing a deck: a deck played against each preset of its game, half the games at each
seat, both seats played by the game's test bot (``greedy`` for Decoherence).

A game that declares a ``decks`` part (``PRESETS``, ``DECK_OPTION``, ``TEST_AGENT``) can
test one. Game ``i`` against a preset is fixed by its plan (the run
seed is ``RUN_SEED``, as "Test this deck" on the web uses), so a test can be repeated;
the plans are played on the compiled engine when it can play them (``engine="auto"``).

``deck_plans`` makes the plans, ``score_plan`` plays one in this process, and
``run_deck_test`` plays them all, on ``workers`` processes, into a ``DeckScore`` per preset
and overall: the deck's win rate (draws count half) with its 95% interval.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_parts, load_game
from quarkade.sim.plan import Plan, simulation_plan
from quarkade.sim.play import play_chunk
from quarkade.sim.stats import wilson

RUN_SEED = 16  # the web's "Test this deck" plays the same games


@dataclass(frozen=True)
class DeckPlan:
    """The games of the deck against one preset with the deck at one seat."""

    preset: str
    seat: int
    plan: Plan


@dataclass
class DeckScore:
    """The deck's results against one preset (or all): wins, draws, games."""

    wins: int = 0
    draws: int = 0
    games: int = 0
    engines: set[str] = field(default_factory=set)

    @property
    def rate(self) -> float:
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    @property
    def interval(self) -> tuple[float, float]:
        return wilson(self.wins + self.draws / 2, self.games)

    def add(self, other: DeckScore) -> None:
        self.wins += other.wins
        self.draws += other.draws
        self.games += other.games
        self.engines |= other.engines


def decks_of(game: str) -> Any:
    """The game's ``decks`` part; a ``QuarkadeError`` if the game has no decks."""
    decks = game_parts(game).decks
    if decks is None:
        raise QuarkadeError(f"{game} has no decks to test")
    return decks


def deck_plans(game: str, deck: str, games_per_preset: int, agent: str | None = None,
               presets: Iterable[str] | None = None, seed: int = RUN_SEED) -> list[DeckPlan]:
    """The plans of a test of ``deck`` (text or a preset name, checked by the game) against
    each preset: ``games_per_preset`` games each, the deck at seat 0 in the first half (one
    more when odd) and at seat 1 in the other; both seats played by ``agent`` (the game's
    test bot by default)."""
    decks = decks_of(game)
    if games_per_preset < 1:
        raise QuarkadeError(f"{games_per_preset} games: play at least one against each "
                            "preset")
    agent = agent or decks.TEST_AGENT
    found = []
    for preset in presets if presets is not None else decks.PRESETS:
        for seat in (0, 1):
            chosen = {decks.DECK_OPTION.format(seat=seat): deck,
                      decks.DECK_OPTION.format(seat=1 - seat): preset}
            options = dict(load_game(game, **chosen).options)  # refuses a bad deck
            half = games_per_preset // 2 + (games_per_preset % 2 if seat == 0 else 0)
            if half:
                found.append(DeckPlan(preset, seat, simulation_plan(game, options, [agent],
                                                                    half, seed)))
    return found


def score_plan(item: DeckPlan, engine: str = "auto", start: int = 0,
               stop: int | None = None) -> DeckScore:
    """Games ``start .. stop - 1`` of one plan, played here: the deck's score."""
    stop = item.plan.games if stop is None else stop
    score = DeckScore()
    for line in play_chunk(item.plan, start, stop, engine).lines or []:
        result = json.loads(line)
        winners = result["winners"]
        score.wins += item.seat in winners
        score.draws += not winners
        score.games += 1
        score.engines.add(result.get("engine", "reference"))
    return score


def _score(task: tuple[DeckPlan, str]) -> DeckScore:
    return score_plan(*task)


def run_deck_test(game: str, deck: str, games_per_preset: int, workers: int = 1,
              engine: str = "auto", agent: str | None = None) -> dict[str, DeckScore]:
    """Every preset's ``DeckScore`` for ``deck``, and the total under ``"all"``."""
    plans = deck_plans(game, deck, games_per_preset, agent)
    tasks = [(item, engine) for item in plans]
    if workers > 1 and len(tasks) > 1:
        # Compile (or load) the engine here first: the workers forked from this process
        # start with it ready, instead of each compiling it.
        score_plan(plans[0], engine, 0, 1)
        with multiprocessing.get_context("fork").Pool(min(workers, len(tasks))) as pool:
            scores = pool.map(_score, tasks)
    else:
        scores = [_score(task) for task in tasks]
    found: dict[str, DeckScore] = {}
    total = DeckScore()
    for item, score in zip(plans, scores, strict=True):
        found.setdefault(item.preset, DeckScore()).add(score)
        total.add(score)
    found["all"] = total
    return found
