"""Why the solver's answers can be trusted: checks by independent means.

``crosscheck`` compares the compiled solvers' values with plain minimax on the reference
engine (``rules``: no table, no move order, no symmetry, no abstract position, no discard
rule; a node stops at its first winning move, which is minimax over win/loss) on random
reachable positions whose game tree is 6-10 plies deep. ``perfect_games`` plays the
``perfect`` bot from positions the solver calls won for it and counts its losses.

The tests run small versions; ``bench/card_commons_solve.py`` runs the large ones whose
output is in docs/ANALYSIS.md.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import cast

import quarkade
from quarkade.core.agent import Agent, turn_for
from quarkade.core.rng import sample_chance
from quarkade.games.card_commons.notation import PASS
from quarkade.games.card_commons.rules import CardCommonsState
from quarkade.games.card_commons.solve import classic, proof, tutorial


def random_position(rng: random.Random, variant: str, torus: bool, plies: tuple[int, int]
                    ) -> CardCommonsState | None:
    """A position reached by uniformly random moves (passing only when nothing else is
    legal) after a random number of plies in ``plies``, in its turn phase; None if the
    game ended or stopped elsewhere."""
    state = cast(CardCommonsState, quarkade.load_game(
        "card-commons", variant=variant, torus=torus).new_initial_state())
    for _ in range(rng.randint(*plies)):
        if state.is_terminal():
            return None
        if state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
            continue
        legal = state.legal_actions()
        state.apply_action(rng.choice([a for a in legal if a != PASS] or legal))
    if state.is_terminal() or state.phase() != "turn":
        return None
    return state


class TooLarge(Exception):
    """Plain minimax needed more nodes than it was given."""


def plain_minimax(state: CardCommonsState, budget: int) -> tuple[int, int]:
    """(+1 if the seat to move wins, else -1; the longest line searched, in plies) by
    minimax on the reference engine. TooLarge past ``budget`` nodes."""
    left = [budget]

    def value(node: CardCommonsState) -> tuple[int, int]:
        left[0] -= 1
        if left[0] < 0:
            raise TooLarge
        me = node.current_player()
        best, depth = -1, 0
        for action in node.legal_actions():
            child = node.clone()
            child.apply_action(action)
            if child.is_terminal():
                mine, length = (1 if child.returns()[me] > 0 else -1), 1
            else:
                theirs, below = value(child)
                mine = theirs if child.current_player() == me else -theirs
                length = below + 1
            best, depth = max(best, mine), max(depth, length)
            if best == 1:
                break
        return best, depth

    return value(state)


def compiled_value(state: CardCommonsState, solvers: dict[str, object],
                   features: int = classic.FEATURES) -> int:
    """+1 if the seat to move wins by the compiled solver, else -1; a Classic state is
    searched with ``features`` (``classic.SEARCHES``)."""
    torus = bool(state.game.options["torus"])
    if state.variant == "tutorial":
        key = f"tutorial{torus}"
        if key not in solvers:
            solvers[key] = tutorial.TutorialSolver(torus=torus, table_bits=20)
        value = solvers[key].value(  # type: ignore[attr-defined]
            tutorial.position_of(state)).value
        return 1 if value == tutorial.WIN else -1
    key = f"classic{torus}-{features}"
    if key not in solvers:
        solvers[key] = proof.solver(torus=torus, table_bits=20, features=features)
    value = solvers[key].value(classic.position_of(state)).value  # type: ignore[attr-defined]
    return 1 if value == classic.WIN else -1


@dataclass
class Crosscheck:
    """What ``crosscheck`` found."""

    sampled: int = 0
    too_large: int = 0
    compared: Counter[int] = field(default_factory=Counter)  # by depth
    wins: int = 0  # compared positions won by the seat to move
    disagreements: list[list[int]] = field(default_factory=list)  # histories

    @property
    def total(self) -> int:
        return sum(self.compared.values())


def crosscheck(variant: str, torus: bool, count: int, seed: int, budget: int = 20_000,
               depths: tuple[int, int] = (6, 10), plies: tuple[int, int] = (8, 18)
               ) -> Crosscheck:
    """Compare the compiled solver with plain minimax on ``count`` positions whose
    minimax tree is ``depths`` plies deep (sampled at random, the rest skipped). Classic
    positions are searched by both Classic searches (alpha-beta and df-pn): a position
    either gets wrong is a disagreement."""
    searches = [classic.FEATURES] if variant == "tutorial" else [
        classic.SEARCHES["alpha-beta"], classic.SEARCHES["df-pn"]]
    rng = random.Random(seed)
    report = Crosscheck()
    solvers: dict[str, object] = {}
    while report.total < count:
        state = random_position(rng, variant, torus, plies)
        if state is None:
            continue
        report.sampled += 1
        try:
            value, depth = plain_minimax(state, budget)
        except TooLarge:
            report.too_large += 1
            continue
        if not depths[0] <= depth <= depths[1]:
            continue
        report.compared[depth] += 1
        report.wins += value > 0
        if any(compiled_value(state, solvers, features) != value for features in searches):
            report.disagreements.append(state.history())
    return report


@dataclass
class PerfectGames:
    """What ``perfect_games`` found: games and losses per opponent."""

    games: Counter[str] = field(default_factory=Counter)
    losses: Counter[str] = field(default_factory=Counter)
    lost: list[list[int]] = field(default_factory=list)  # start histories of lost games


def perfect_games(perfect: Agent, opponents: dict[str, Callable[[], Agent]], games: int,
                  seed: int, torus: bool = False, plies: tuple[int, int] = (6, 14)
                  ) -> PerfectGames:
    """Play ``perfect`` from random Tutorial positions the solver calls won for the seat
    to move, against each opponent in turn, ``games`` games in all."""
    rng = random.Random(seed)
    solver = tutorial.TutorialSolver(torus=torus, table_bits=20)
    report = PerfectGames()
    names = list(opponents)
    while sum(report.games.values()) < games:
        state = random_position(rng, "tutorial", torus, plies)
        if state is None or solver.value(tutorial.position_of(state)).value != tutorial.WIN:
            continue
        start = state.history()
        name = names[sum(report.games.values()) % len(names)]
        opponent = opponents[name]()
        me = state.current_player()
        while not state.is_terminal():
            agent = perfect if state.current_player() == me else opponent
            state.apply_action(agent.act(turn_for(state), rng))
        report.games[name] += 1
        if state.winner() != me:
            report.losses[name] += 1
            report.lost.append(start)
    return report


__all__ = ["Crosscheck", "PerfectGames", "TooLarge", "compiled_value", "crosscheck",
           "perfect_games", "plain_minimax", "random_position"]
