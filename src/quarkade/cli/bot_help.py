"""``quarkade agents GAME BOT``: what one bot does and the parameters its spec may set, read
from the bot's own declarations (``Agent.parameters``), for built-in bots, levels and
plug-ins alike."""

from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from quarkade.agents import plugins as plugin_bots
from quarkade.agents.registry import (
    LEVEL_NAMES,
    agent_parameters,
    agent_summary,
    builtin_agents,
    game_agents,
    levels,
)
from quarkade.core.errors import AgentSpecError


def bot_help(game: str, name: str) -> RenderableType:
    """What bot ``name`` of ``game`` is, and its parameters; ``AgentSpecError`` says which
    bots there are when there is none by that name."""
    name = name.strip().lower()
    if name in LEVEL_NAMES:
        return _level_help(game, name)
    own = builtin_agents(game).get(name)
    if own is None:
        found = game_agents(game).get(name)
        if found is None:
            raise AgentSpecError(f"no agent {name!r} for {game}; agents: "
                                 f"{', '.join(sorted(game_agents(game)))}, "
                                 f"{', '.join(LEVEL_NAMES)}")
        package = plugin_bots.declared()[name].package
        taken = ", ".join(plugin_bots.parameters(found)) or "none"
        return Text(f"{name}: a plug-in bot from {package}. Its spec may set its "
                    f"constructor's keyword arguments: {taken}.")
    summary = agent_summary(own)
    parameters = agent_parameters(game, name)
    if not parameters:
        return Text(f"{name}: {summary}\nIt takes no parameters.")
    table = Table(box=None, show_edge=False, pad_edge=False)
    for column in ("parameter", "default", "takes", "what it sets"):
        table.add_column(column, overflow="fold")
    for option in parameters:
        table.add_row(option.name, str(option.default), option.allowed(), option.help)
    return Group(Text(f"{name}: {summary}"),
                 Text(f"Its spec may set these, as {name}:name=value,name=value:"), table)


def _level_help(game: str, level: str) -> RenderableType:
    spec = levels(game)[level]
    if isinstance(spec, str):
        return Text(f"{level}: the level {game} plays as {spec} (see quarkade agents {game} "
                    f"{spec.partition(':')[0]}).")
    by_count = "; ".join(f"{'more seats' if count == 'more' else f'{count} seats'}: {each}"
                         for count, each in spec.items())
    return Text(f"{level}: the level {game} plays by the number of seats, {by_count}.")
