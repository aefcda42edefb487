"""Agent specs: the text that names a bot, such as ``random``, ``greedy`` or
``mcts:iterations=2000``, and the agent it makes for a game.

Generic agents (``random``) play every game; each game adds its own in its ``bots``
module (a ``BOTS`` dict of name -> agent class, whose keyword arguments are the spec's
parameters).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable

from quarkade.core.agent import Agent, RandomAgent
from quarkade.core.errors import AgentSpecError
from quarkade.core.registry import game_part

GENERIC: dict[str, Callable[..., Agent]] = {"random": RandomAgent}


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


def game_agents(game: str) -> dict[str, Callable[..., Agent]]:
    """Every agent that can play ``game``, by name."""
    try:
        bots = game_part(game, "bots").BOTS
    except ModuleNotFoundError:
        bots = {}
    return {**GENERIC, **bots}


def available_agents(game: str) -> list[str]:
    return sorted(game_agents(game))


def make_agent(spec: str, game: str) -> Agent:
    """The agent named by ``spec`` for ``game``; ``AgentSpecError`` says what is allowed."""
    name, params = parse_spec(spec)
    agents = game_agents(game)
    if name not in agents:
        raise AgentSpecError(f"no agent {name!r} for {game}; agents: "
                             f"{', '.join(sorted(agents))}")
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


def _number(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
