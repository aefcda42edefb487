"""Agent specs: the text that names a bot, such as ``random``, ``greedy`` or
``mcts:iterations=2000``, and the agent it makes for a game.

Generic agents (``random``, ``mcts``, ``ismcts``) play every game; each game adds its own
in its parts (``GameParts.bots``: name -> agent class); a built-in agent declares the
parameters a spec may set (``Agent.parameters``), a plug-in takes its constructor's
keyword arguments. Installed packages add plug-in bots (``quarkade.agents.plugins``), which
play under containment (``quarkade.agents.contained``).

``plugins`` says which plug-ins a caller may use: ``None`` (the default) for every one
installed, as the terminal and the simulator do, or a collection of names (the web
server's allow-list; empty allows none, and none of the others is even imported).
"""

from __future__ import annotations

import inspect
import random
from collections.abc import Callable, Collection, Mapping
from typing import Any

from quarkade.agents import plugins as plugin_bots
from quarkade.agents.contained import DEFAULT_MOVE_TIME, ContainedAgent
from quarkade.agents.search import ISMCTSAgent, MCTSAgent
from quarkade.core.agent import Agent, RandomAgent, Turn
from quarkade.core.errors import AgentSpecError, GameOptionError
from quarkade.core.options import Option, parse_options
from quarkade.core.parts import LEVEL_NAMES, LevelSpec
from quarkade.core.registry import game_class, game_parts

GENERIC: dict[str, type[Agent]] = {
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


# Names no plug-in may take: the levels, and the person at the terminal.
RESERVED = (*LEVEL_NAMES, "human")


def levels(game: str) -> dict[str, LevelSpec]:
    """The agent spec behind each difficulty level of ``game``.

    A game's parts may set ``levels``; otherwise easy is ``random``, medium is
    ``greedy`` (or ``random``) and hard is a one-second search: ``mcts`` where everything
    is open, ``ismcts`` where something is hidden. A level may also be a dict from player
    counts to specs, with ``"more"`` for any count not listed.
    """
    own = game_parts(game).levels
    search = "mcts" if game_class(game).perfect_information else "ismcts"
    medium = "greedy" if "greedy" in game_agents(game) else "random"
    return {"easy": "random", "medium": medium, "hard": f"{search}:time=1", **own}


def game_agents(game: str, plugins: Collection[str] | None = None
                ) -> dict[str, Callable[..., Agent]]:
    """Every agent that can play ``game``, by name: built-in, then plug-ins (see above)."""
    own = builtin_agents(game)
    found = {name: bot.factory for name, bot in plugin_bots.installed(plugins).items()
             if bot.factory is not None and bot.plays(game) and name not in own
             and name not in RESERVED}
    return {**own, **found}


def builtin_agents(game: str) -> dict[str, type[Agent]]:
    """The agents that come with Quarkade for ``game``, by name."""
    return {**GENERIC, **game_parts(game).bots}


def plugin_names(game: str, plugins: Collection[str] | None = None) -> list[str]:
    """The plug-in bots (among ``plugins``) that play ``game``, sorted."""
    own = builtin_agents(game)
    return sorted(name for name in game_agents(game, plugins) if name not in own)


def plugin_problems(game: str, plugins: Collection[str] | None = None) -> list[str]:
    """Why each plug-in (among ``plugins``) that cannot play ``game`` is left out."""
    own = builtin_agents(game)
    taken = [f"{bot.describe()}: {name!r} is a built-in name for {game}; it is left out"
             for name, bot in plugin_bots.installed(plugins).items()
             if bot.factory is not None and bot.plays(game)
             and (name in own or name in RESERVED)]
    return [*plugin_bots.problems(plugins), *taken]


def available_agents(game: str, plugins: Collection[str] | None = None) -> list[str]:
    """Agent names for ``game`` (built-in and plug-in), then the difficulty levels."""
    return [*sorted(game_agents(game, plugins)), *LEVEL_NAMES]


def make_agent(spec: str, game: str, plugins: Collection[str] | None = None,
               move_time: float = DEFAULT_MOVE_TIME, contained: bool = True) -> Agent:
    """The agent named by ``spec`` for ``game``; ``AgentSpecError`` says what is allowed.

    A plug-in bot comes wrapped in a ``ContainedAgent`` with ``move_time`` seconds a move,
    unless ``contained`` is False: the caller contains it its own way (the web server runs
    it in a worker process under a hard deadline, ``quarkade.server.play.botmove``).
    """
    name, params = parse_spec(spec)
    if name in LEVEL_NAMES and not params:
        level = levels(game)[name]
        agent = make_agent(level, game) if isinstance(level, str) else \
            ByPlayersAgent(level, game)
        agent.spec = name
        return agent
    factory, builtin = agent_factory(spec, game, plugins)
    if builtin:
        try:
            agent = factory(**_coerced(name, builtin_agents(game)[name], params))
        except (TypeError, ValueError) as problem:  # what the parameters cannot say alone
            raise AgentSpecError(f"agent spec {spec!r}: {problem}") from None
        agent.spec = spec.strip()
        return agent
    try:
        agent = factory(**{key: _number(value) for key, value in params.items()})
    except Exception as problem:  # a plug-in's constructor may fail any way it likes
        raise AgentSpecError(f"agent spec {spec!r}: the plug-in bot failed to start: "
                             f"{type(problem).__name__}: {problem}") from None
    return ContainedAgent(agent, spec.strip(), move_time) if contained else agent


def agent_factory(spec: str, game: str, plugins: Collection[str] | None = None
                  ) -> tuple[Callable[..., Agent], bool]:
    """What makes the agent ``spec`` names (not a level), and whether it is built in: the
    checks of ``make_agent`` without running any of the agent's code (its name is known
    and allowed, its parameters are ones it takes, a built-in's with values its
    declarations allow); ``AgentSpecError`` says what is wrong."""
    name, params = parse_spec(spec)
    agents = game_agents(game, plugins)
    if name not in agents:
        raise AgentSpecError(_unknown(name, game, plugins))
    factory = agents[name]
    own = builtin_agents(game).get(name)
    if own is not None:
        _coerced(name, own, params)
        return factory, True
    accepted = plugin_bots.parameters(factory)
    for key in params:
        if key not in accepted:
            allowed = ", ".join(accepted) or "none"
            raise AgentSpecError(f"agent {name!r} has no parameter {key!r}; parameters: {allowed}")
    return factory, False


def agent_parameters(game: str, name: str) -> tuple[Option, ...]:
    """The parameters built-in agent ``name`` of ``game`` declares (none for a level);
    ``AgentSpecError`` when ``game`` has no such built-in agent."""
    if name in LEVEL_NAMES:
        return ()
    own = builtin_agents(game).get(name)
    if own is None:
        raise AgentSpecError(f"no built-in agent {name!r} for {game}; agents: "
                             f"{', '.join(sorted(builtin_agents(game)))}")
    return own.parameters


def agent_summary(agent: type[Agent]) -> str:
    """What a bot does, in a line: its class docstring's first paragraph, as plain text."""
    first = (inspect.getdoc(agent) or "").split("\n\n")[0]
    return " ".join(first.split()).replace("``", "")


LEVEL_TITLES = {"easy": "Easy bot", "medium": "Medium bot", "hard": "Hard bot"}


def bot_title(spec: str, game: str) -> str:
    """A bot's name on a seat, in players' words: "Easy bot", "Hard bot", or the named bot
    ("Greedy bot", a plug-in's own name followed by "bot")."""
    name = spec.strip().partition(":")[0].strip().lower()
    if name in LEVEL_TITLES:
        return LEVEL_TITLES[name]
    own = builtin_agents(game).get(name)
    if own is not None and own.title:
        return own.title
    titled = f"{name[:1].upper()}{name[1:]}"
    return titled if titled.lower().endswith("bot") else f"{titled} bot"


def bot_about(spec: str, game: str) -> str:
    """How a bot plays, in a line for players: its own ``about`` (a level: the bot behind
    it; a spec's settings are named after it); a plug-in is said to be one."""
    name, params = parse_spec(spec)
    settings = ", ".join(f"{key} {value}" for key, value in params.items())
    if name in LEVEL_NAMES and not params:
        level = levels(game)[name]
        behind = level if isinstance(level, str) else level.get(2, level["more"])
        return bot_about(behind, game).split(" Settings:")[0]
    own = builtin_agents(game).get(name)
    if own is None:
        return "A bot this server's operator added."
    about = own.about or agent_summary(own)
    return f"{about} Settings: {settings}." if settings else about


def _coerced(name: str, agent: type[Agent], params: dict[str, str]) -> dict[str, Any]:
    """The spec's parameters for a built-in agent, each checked and converted as the
    agent declares it (``Agent.parameters``)."""
    try:
        parsed = parse_options(f"agent {name!r}", agent.parameters, params, "parameter")
    except GameOptionError as problem:
        raise AgentSpecError(str(problem)) from None
    return {key: parsed[key] for key in params}


def is_plugin(spec: str, game: str) -> bool:
    """Whether ``spec`` names no built-in agent or level of ``game`` (so, if anything, a
    plug-in bot). Imports no plug-in."""
    name = spec.strip().partition(":")[0].strip().lower()
    return name not in builtin_agents(game) and name not in LEVEL_NAMES


def _unknown(name: str, game: str, plugins: Collection[str] | None) -> str:
    """Why ``name`` is no agent for ``game``, and what is."""
    message = f"no agent {name!r} for {game}; agents: {', '.join(available_agents(game, plugins))}"
    bot = plugin_bots.declared().get(name)
    if bot is None:
        return message
    if plugins is not None and name not in plugins:
        return (f"{message} (the plug-in bot {name!r} is installed but not allowed here; "
                "the server's operator allows plug-ins with quarkade serve --allow-bots)")
    loaded = plugin_bots.installed([name])[name]
    if loaded.problem:
        return f"{loaded.describe()} {loaded.problem}"
    if not loaded.plays(game):
        return f"{message} ({loaded.describe()} plays only {', '.join(loaded.games or ())})"
    return message


class ByPlayersAgent(Agent):
    """A level whose bot depends on the number of seats at the table."""

    def __init__(self, specs: Mapping[int | str, str], game: str) -> None:
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


def _number(text: str) -> int | float | str:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text
