"""What the terminal needs from each game: its renderer, plus the words every face shares.

Every game's ``text`` part provides ``render(view, names, you)`` (a rich renderable);
the log lines, action labels and rules page live in ``quarkade.core.words`` so the web
app reads them without importing the terminal. Optional parts, for the terminal only
(``quarkade.core.parts.GameParts``): ``action_menu(view, texts, names)``, lines shown at a
move prompt instead of the numbered list of moves (or None for the list); and
``prompt_command(view, text, names)``, which answers a game's own commands typed at the
prompt (Card Commons: ``lit 3H``) with something to print, or None when ``text`` is not
one.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, RenderableType

from quarkade.core.protocol import CHANCE
from quarkade.core.registry import game_parts
from quarkade.core.words import action_label, log_line, rules_page

__all__ = ["GameLog", "action_label", "action_menu", "log_line", "prompt_command", "render",
           "rules_page"]


def render(game: str, view: dict[str, Any], names: Sequence[str],
           you: int | None = None) -> RenderableType:
    renderable: RenderableType = game_parts(game).text.render(view, names, you)
    return renderable


def action_menu(game: str, view: dict[str, Any], texts: Sequence[str],
                names: Sequence[str]) -> list[str] | None:
    menu = game_parts(game).action_menu
    return None if menu is None else menu(view, texts, names)


def prompt_command(game: str, view: dict[str, Any], text: str,
                   names: Sequence[str]) -> RenderableType | None:
    command = game_parts(game).prompt_command
    return None if command is None else command(view, text, names)


class GameLog:
    """A game's log lines as the terminal prints them: what chance does (a die, a deal) is
    set in by two spaces, beneath the seats' moves, except where it finishes a move that
    had no line of its own (Dead Cat's peek: the card seen is the line of the move)."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self.quiet_move = False  # the last event was a seat's move with no line

    def show(self, player: int, line: str | None) -> None:
        if line:
            aside = player == CHANCE and not self.quiet_move
            self.console.print(("  " if aside else "") + line, markup=False)
        self.quiet_move = player != CHANCE and not line
