"""``quarkade new-bot NAME``: a minimal installable plug-in bot package, ready to edit.

It writes ``NAME/`` holding a ``pyproject.toml`` that declares the bot under the
``quarkade.agents`` entry points, the bot (``src/<module>/bot.py``, a legal random move to
start from) and a test that plays it against ``random`` in every game. Then
``pip install -e NAME`` and the bot plays by name everywhere (``quarkade play``,
``simulate``, ``tournament``, ``ladder``, the adapters).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from quarkade.agents import plugins as plugin_bots
from quarkade.agents.registry import GENERIC, RESERVED, builtin_agents
from quarkade.cli.output import console, user_errors
from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import list_games

PYPROJECT = '''\
[build-system]
requires = ["setuptools>=61"]
build-backend = "setuptools.build_meta"

[project]
name = "{name}"
version = "0.1.0"
description = "{name}: a bot for Quarkade's games."
requires-python = ">=3.11"
dependencies = ["quarkade"]

# The bot's name in agent specs (quarkade play --seat 1={name}), and where it lives.
[project.entry-points."quarkade.agents"]
{name} = "{module}.bot:Bot"

[tool.setuptools.packages.find]
where = ["src"]
'''

BOT = '''\
"""{name}: a bot for Quarkade's games (see Quarkade's docs/AGENTS.md).

Quarkade hands ``act`` a ``Turn`` for every decision of its seat and plays the action id it
returns. A turn holds only what the seat may know:

- ``turn.game``: the game (``turn.game.name``, ``turn.game.num_players``);
- ``turn.player``: the seat; ``turn.view``: the seat's view, JSON-like data;
- ``turn.legal_actions``: the action ids it may play, ascending;
- ``turn.action_text(action)``: an action's notation, as the seat reads it;
- ``turn.sample_state(rng)``: a full state consistent with the view (for search bots).

Return one of ``turn.legal_actions`` within the time a move is given (5 s unless the
command says otherwise): a bot that raises, answers anything else or overruns is stopped
and its seat plays random for the rest of the game, which is flagged.
"""

from __future__ import annotations

import random

from quarkade.agents import Agent, Turn


class Bot(Agent):
    """A legal random move: the place to start from."""

    # Uncomment to play only some games; without it the bot plays every game.
    # games = ("hadronize", "dead-cat")

    def act(self, turn: Turn, rng: random.Random) -> int:
        return rng.choice(turn.legal_actions)
'''

TEST = '''\
"""{name} plays whole games against random in every game, and is never stopped."""

import pytest

from quarkade import list_games, load_game
from quarkade.sim import run_plan, simulation_plan


@pytest.mark.parametrize("game", list_games())
def test_{module}_plays_whole_games_against_random(game):
    options = dict(load_game(game).options)
    plan = simulation_plan(game, options, ["{name}", "random"], games=4, seed=1)
    results = run_plan(plan).results
    assert len(results) == 4
    assert [result.get("faults") for result in results] == [None] * 4  # never stopped
'''

README = '''\
# {name}

A bot for Quarkade's games. Install it, then play it by name:

    pip install -e .
    quarkade play hadronize --seat 1={name}
    quarkade ladder hadronize        # where it stands among the built-in bots

Edit `src/{module}/bot.py`; `pytest` plays it against random in every game.
'''


def new_bot(
    name: Annotated[str, typer.Argument(help="The bot's name: lower-case letters, digits, "
                                        "- and _, starting with a letter.")],
    path: Annotated[Path, typer.Option(help="Where to make the package's folder.")] = Path("."),
) -> None:
    """Write a minimal installable bot package, NAME/ (then: pip install -e NAME)."""
    with user_errors():
        check_name(name)
        root = path / name
        if root.exists():
            raise QuarkadeError(f"{root} already exists; choose another name or --path")
        module = name.replace("-", "_")
        files = {
            root / "pyproject.toml": PYPROJECT,
            root / "README.md": README,
            root / "src" / module / "__init__.py": '"""{name}: a bot for Quarkade\'s games."""\n',
            root / "src" / module / "bot.py": BOT,
            root / "tests" / f"test_{module}.py": TEST,
        }
        try:
            for file, text in files.items():
                file.parent.mkdir(parents=True, exist_ok=True)
                file.write_text(text.format(name=name, module=module), encoding="utf-8")
        except OSError as problem:
            raise QuarkadeError(f"cannot write {root}: {problem.strerror or problem}") from None
    console.print(f"wrote {root}/: the bot is {root / 'src' / module / 'bot.py'}", markup=False)
    console.print("next:", markup=False)
    console.print(f"  pip install -e {root}", markup=False)
    console.print(f"  quarkade play hadronize --seat 1={name}", markup=False)


def check_name(name: str) -> None:
    """Refuse a name that cannot be a plug-in bot's, or that a built-in bot has."""
    if not plugin_bots.NAME.match(name):
        raise QuarkadeError(f"{name!r} cannot name a bot: use lower-case letters, digits, - "
                            "and _, starting with a letter (e.g. my-bot)")
    builtin = {*GENERIC, *RESERVED, *(n for game in list_games() for n in builtin_agents(game))}
    if name in builtin:
        raise QuarkadeError(f"{name!r} is a built-in bot's name; the built-in names are "
                            f"{', '.join(sorted(builtin))}")
    if name in plugin_bots.declared():
        raise QuarkadeError(f"a plug-in bot named {name!r} is installed already "
                            f"({plugin_bots.declared()[name].package}); choose another name")
