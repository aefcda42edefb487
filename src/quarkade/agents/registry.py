"""Agent specs: the text that names a bot, such as ``random``, ``greedy`` or
``mcts:iterations=2000``, and the agent it makes for a game.

Generic agents (``random``) play every game; each game adds its own in its ``bots``
module (a ``BOTS`` dict of name -> agent class, whose keyword arguments are the spec's
parameters).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable
from types import ModuleType

from quarkade.agents.search import ISMCTSAgent, MCTSAgent
from quarkade.core.agent import Agent, RandomAgent, Turn
from quarkade.core.errors import AgentSpecError
from quarkade.core.registry import game_class, game_part

GENERIC: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "mcts": MCTSAgent,
    "ismcts": ISMCTSAgent,
}


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``"mcts:iterations=2000,c=1.4"`` -> ``("mcts", {"iterations": "2000", "c": "1.4"})``."""
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for pair in filter(None, (p.strip() for p in rest.split(","))):
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise AgentSpecError(f"agent spec {spec!r}: parameters look like "
                                 "name:key=value,key=value (e.g. mcts:iterations=2000)")
        params[key.strip()] = value.strip()
    if not name:
        raise AgentSpecError("an agent spec needs a name, e.g. random or greedy")
    return name.lower(), params


LEVEL_NAMES = ("easy", "medium", "hard")


LevelSpec = str | dict[int | str, str]


def levels(game: str) -> dict[str, LevelSpec]:
    """The agent spec behind each difficulty level of ``game``.

    A game's ``bots`` module may set ``LEVELS``; otherwise easy is ``random``, medium is
    ``greedy`` (or ``random``) and hard is a one-second search: ``mcts`` where everything
    is open, ``ismcts`` where something is hidden. A level may also be a dict from player
    counts to specs, with ``"more"`` for any count not listed.
    """
    own: dict[str, LevelSpec] = getattr(_bots(game), "LEVELS", {})
    search = "mcts" if game_class(game).perfect_information else "ismcts"
    medium = "greedy" if "greedy" in game_agents(game) else "random"
    return {"easy": "random", "medium": medium, "hard": f"{search}:time=1", **own}


def game_agents(game: str) -> dict[str, Callable[..., Agent]]:
    """Every agent that can play ``game``, by name."""
    return {**GENERIC, **getattr(_bots(game), "BOTS", {})}


def available_agents(game: str) -> list[str]:
    """Agent names for ``game``, then the difficulty levels."""
    return [*sorted(game_agents(game)), *LEVEL_NAMES]


def make_agent(spec: str, game: str) -> Agent:
    """The agent named by ``spec`` for ``game``; ``AgentSpecError`` says what is allowed."""
    name, params = parse_spec(spec)
    if name in LEVEL_NAMES and not params:
        level = levels(game)[name]
        agent = make_agent(level, game) if isinstance(level, str) else \
            ByPlayersAgent(level, game)
        agent.spec = name
        return agent
    agents = game_agents(game)
    if name not in agents:
        raise AgentSpecError(f"no agent {name!r} for {game}; agents: "
                             f"{', '.join(available_agents(game))}")
    factory = agents[name]
    accepted = inspect.signature(factory).parameters
    for key in params:
        if key not in accepted:
            allowed = ", ".join(accepted) or "none"
            raise AgentSpecError(f"agent {name!r} has no parameter {key!r}; parameters: {allowed}")
    try:
        agent = factory(**{key: _number(value) for key, value in params.items()})
    except (TypeError, ValueError) as problem:
        raise AgentSpecError(f"agent spec {spec!r}: {problem}") from None
    agent.spec = spec.strip()
    return agent


class ByPlayersAgent(Agent):
    """A level whose bot depends on the number of seats at the table."""

    def __init__(self, specs: dict[int | str, str], game: str) -> None:
        self.specs = specs
        self.game = game
        self._made: dict[str, Agent] = {}

    def spec_for(self, players: int) -> str:
        return self.specs.get(players, self.specs["more"])

    def act(self, turn: Turn, rng: random.Random) -> int:
        spec = self.spec_for(turn.game.num_players)
        if spec not in self._made:
            self._made[spec] = make_agent(spec, self.game)
        return self._made[spec].act(turn, rng)


def _bots(game: str) -> ModuleType | None:
    """The game's ``bots`` module, or None if it has none (other import errors surface)."""
    try:
        module: ModuleType = game_part(game, "bots")
    except ModuleNotFoundError as missing:
        if missing.name and missing.name.endswith(".bots"):
            return None
        raise
    return module


def _number(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
