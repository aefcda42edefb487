"""What each game says in words, for every face (terminal, web): its rules page, a log line
per action and a label per legal action.

A game's parts (``quarkade.core.parts.GameParts``) give ``log_line(view, actor, notation,
names)`` (its ``text`` module) and may give ``action_label(view, notation, names)``; both
read a seat's view, never the state, and return plain text. The rules page is the game
package's ``rules.md``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from importlib import resources
from typing import Any

from quarkade.core.registry import game_package, game_parts

# In a rules page, the line after which come the notation, the terminal and the rulings:
# what the terminal shows and the web's rules page leaves out.
FOR_DEVELOPERS = "<!-- The rest is for the terminal and for developers"


def rules_page(game: str, players: bool = False) -> str:
    """The game's rules page (Markdown), written in our own words; with ``players``, only
    the part for a person playing on the web (the rules, not the notation, the terminal
    or the rulings)."""
    text = resources.files(game_package(game)).joinpath("rules.md").read_text(encoding="utf-8")
    head, marker, tail = text.partition(FOR_DEVELOPERS)
    if players:
        return head.rstrip() + "\n"
    return head + tail.partition("\n")[2].lstrip("\n") if marker else text


def log_line(game: str, view: dict[str, Any], actor: int, notation: str,
             names: Sequence[str]) -> str | None:
    """The log line after ``notation`` was played (``view`` is the state after it), or None
    when the game folds this action into a later line. A line that begins with the seat
    called "you" (the terminal's and the lessons' name for the person) begins a sentence,
    as does a "you" after a full stop within it: "You take a cube.", "... the 3♣. You
    cannot place a card", never "you take a cube."."""
    line = game_parts(game).text.log_line(view, actor, notation, names)
    if line is None:
        return None
    return _SENTENCE_YOU.sub(lambda found: found.group(1) + "You", line)


_SENTENCE_YOU = re.compile(r"(^|[.!?] )you\b", re.MULTILINE)


def action_label(game: str, view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    """A legal action as a person reads it in a list of choices (the notation by default)."""
    labeller = game_parts(game).action_label
    return notation if labeller is None else labeller(view, notation, names)


def move_words(game: str, view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    """A legal action as a page's list of moves reads it: the game's words for it where it
    has them (``move_words``), else its label (``action_label``), on one line."""
    worder = game_parts(game).move_words
    text = action_label(game, view, notation, names) if worder is None else \
        worder(view, notation, names)
    return " ".join(text.split())


def game_over(names: Sequence[str], winners: Sequence[int], how: str = "") -> str:
    """A finished game's result as one sentence, for a game's table to end with: "Game
    over: Ann wins.", "Game over: you win with 8 open cells to 6.", "Game over: Ann and you
    share the win.", "Game over: a draw." (``how``: the words after "wins", or after a
    comma if it begins with one)."""
    shown = [names[seat] if 0 <= seat < len(names) else "a player" for seat in winners]
    if not shown:
        who = "a draw"
    elif len(shown) > 1:
        who = f"{', '.join(shown[:-1])} and {shown[-1]} share the win"
    else:
        who = f"{shown[0]} win" if shown[0] == "you" else f"{shown[0]} wins"
    space = " " if how and not how.startswith(",") else ""
    return f"Game over: {who}{space}{how}."
