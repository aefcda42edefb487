"""What the terminal needs from each game: its renderer, plus the words every face shares.

Every game's ``text`` module provides ``render(view, names, you)`` (a rich renderable);
the log lines, action labels and rules page live in ``quarkade.core.words`` so the web
app reads them without importing the terminal.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import RenderableType

from quarkade.core.registry import game_part
from quarkade.core.words import action_label, log_line, rules_page

__all__ = ["action_label", "log_line", "render", "rules_page"]


def render(game: str, view: dict[str, Any], names: Sequence[str],
           you: int | None = None) -> RenderableType:
    renderable: RenderableType = game_part(game, "text").render(view, names, you)
    return renderable
