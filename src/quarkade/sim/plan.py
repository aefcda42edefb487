"""What a simulation plays: which agents sit where in game ``i``, and game ``i``'s seed.

A ``Plan`` is plain data (it crosses process and machine boundaries). Everything about
game ``i`` follows from the plan and ``i`` alone, so the games can be played in any order,
on any number of workers, and give the same results.

Seats are rotated. For a matchup of ``k`` agents ``a[0..k-1]`` and ``N`` seats, game ``j``
of the matchup seats agent ``a[(j + s) % k]`` at seat ``s``. Over any ``k`` consecutive
games each agent sits at each seat exactly once (with ``k < N`` an agent holds several
seats of one game; with ``k > N`` each game seats ``N`` of the agents, a sliding window).

``simulate`` plays one matchup (its agents, in the order given). ``tournament`` plays a
round robin: one matchup for every set of ``N`` distinct agents (every pair with two
players), ``games`` games each; matchup ``m`` holds games ``m * games`` to
``(m + 1) * games - 1``. Game ``j`` of every matchup has the same seed, so the matchups
face the same deals (common random numbers: less noise in the comparison).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

from quarkade.agents.contained import DEFAULT_MOVE_TIME
from quarkade.core.errors import AgentSpecError
from quarkade.core.rng import derived_rng


@dataclass(frozen=True)
class Plan:
    """A run: game, options (``players`` included), matchups, games per matchup, seed, and
    the seconds a plug-in bot has for a move (``quarkade.agents.contained``)."""

    game: str
    options: dict[str, Any]
    matchups: tuple[tuple[str, ...], ...]
    games: int
    seed: int
    move_time: float = DEFAULT_MOVE_TIME

    @property
    def total(self) -> int:
        return self.games * len(self.matchups)

    @property
    def players(self) -> int:
        return int(self.options["players"])

    @property
    def agents(self) -> list[str]:
        """Every agent of the run, each once, in the order first met."""
        return list(dict.fromkeys(spec for matchup in self.matchups for spec in matchup))

    def seats(self, index: int) -> list[str]:
        """The agent spec at each seat of game ``index``."""
        matchup = self.matchups[index // self.games]
        return seat_agents(matchup, self.players, index % self.games)

    def game_seed(self, index: int) -> int:
        return game_seed(self.seed, index % self.games)


def seat_agents(agents: tuple[str, ...] | list[str], players: int, game: int) -> list[str]:
    """Rotation: seat ``s`` of game ``game`` is played by ``agents[(game + s) % len(agents)]``."""
    k = len(agents)
    return [agents[(game + seat) % k] for seat in range(players)]


def game_seed(run_seed: int, game: int) -> int:
    """Game ``game``'s seed, derived from the run's seed (48 bits: exact in JSON everywhere)."""
    return derived_rng(run_seed, f"game{game}").getrandbits(48)


def simulation_plan(game: str, options: dict[str, Any], agents: list[str], games: int,
                    seed: int, move_time: float = DEFAULT_MOVE_TIME) -> Plan:
    return Plan(game, dict(options), (tuple(agents),), games, seed, move_time)


def tournament_plan(game: str, options: dict[str, Any], agents: list[str], games: int,
                    seed: int, move_time: float = DEFAULT_MOVE_TIME) -> Plan:
    """A round robin over every set of ``players`` distinct agents (needs at least 2)."""
    players = int(options["players"])
    if len(agents) < 2:
        raise AgentSpecError("a tournament needs at least two agents, e.g. --agents random,greedy")
    size = min(players, len(agents))
    matchups = tuple(itertools.combinations(agents, size))
    return Plan(game, dict(options), matchups, games, seed, move_time)


def split_agent_list(text: str) -> list[str]:
    """``"greedy,mcts:iterations=200,c=1.4,random"`` -> ``["greedy", "mcts:iterations=200,c=1.4",
    "random"]``: a piece that reads ``key=value`` (no ``:`` before its ``=``) is one more
    parameter of the spec before it. Refuses empty pieces and repeated agents."""
    specs: list[str] = []
    for piece in (p.strip() for p in text.split(",")):
        if not piece:
            raise AgentSpecError(f"--agents {text!r} has an empty entry; list agents separated "
                                 "by commas, e.g. random,greedy")
        is_parameter = "=" in piece and ":" not in piece.partition("=")[0]
        if is_parameter:
            if not specs:
                raise AgentSpecError(f"--agents {text!r} starts with a parameter ({piece!r}); "
                                     "parameters follow an agent, e.g. mcts:iterations=200,c=1.4")
            specs[-1] += "," + piece
        else:
            specs.append(piece)
    repeated = sorted({spec for spec in specs if specs.count(spec) > 1})
    if repeated:
        raise AgentSpecError(f"--agents lists {repeated[0]!r} twice; each agent once (seats are "
                             "rotated among them; one agent alone plays itself)")
    return specs
