"""What the terminal needs from each game: its renderer, log lines and action labels.

Every game's ``text`` module provides ``render(view, names, you)`` and
``log_line(view, actor, notation, names)``. Optional: ``action_label(view, notation,
names)`` (the notation itself is the default); ``action_menu(view, texts, names)``, lines
shown at a move prompt instead of the numbered list of moves (or None for the list); and
``prompt_command(view, text, names)``, which answers a game's own commands typed at the
prompt (Card Commons: ``lit 3H``) with something to print, or None when ``text`` is not
one.
"""

from __future__ import annotations

from collections.abc import Sequence
from importlib import resources
from typing import Any

from rich.console import RenderableType

from quarkade.core.registry import game_package, game_part


def render(game: str, view: dict[str, Any], names: Sequence[str],
           you: int | None = None) -> RenderableType:
    renderable: RenderableType = game_part(game, "text").render(view, names, you)
    return renderable


def log_line(game: str, view: dict[str, Any], actor: int, notation: str,
             names: Sequence[str]) -> str | None:
    line: str | None = game_part(game, "text").log_line(view, actor, notation, names)
    return line


def action_label(game: str, view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    labeller = getattr(game_part(game, "text"), "action_label", None)
    return notation if labeller is None else str(labeller(view, notation, names))


def action_menu(game: str, view: dict[str, Any], texts: Sequence[str],
                names: Sequence[str]) -> list[str] | None:
    menu = getattr(game_part(game, "text"), "action_menu", None)
    return None if menu is None else menu(view, texts, names)


def prompt_command(game: str, view: dict[str, Any], text: str,
                   names: Sequence[str]) -> RenderableType | None:
    command = getattr(game_part(game, "text"), "prompt_command", None)
    return None if command is None else command(view, text, names)


def rules_page(game: str) -> str:
    """The game's rules page (Markdown), written in our own words."""
    return resources.files(game_package(game)).joinpath("rules.md").read_text(encoding="utf-8")
