"""A person at the terminal, as an agent: shows the table, lists the moves, reads a choice."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rich.console import Console

from quarkade.cli import faces
from quarkade.core.agent import Agent, Turn
from quarkade.core.errors import NotationError, QuarkadeError


class Quit(Exception):
    """The person asked to stop (``q``) or closed the input."""


class HumanAgent(Agent):
    """Prompts for a move by number or by notation; bad input is explained and asked again."""

    spec = "human"

    def __init__(self, console: Console, names: Sequence[str],
                 read: Callable[[str], str] | None = None) -> None:
        self.console = console
        self.names = names
        self.read = read or (lambda prompt: console.input(prompt))

    def act(self, turn: Turn, rng: random.Random) -> int:
        game = turn.game.name
        self.console.print()
        self.console.print(faces.render(game, turn.view, self.names, you=turn.player))
        texts = [turn.action_text(a) for a in turn.legal_actions]
        name = self.names[turn.player]
        self.console.print("[bold]your move:[/bold]" if name == "you" else
                           f"[bold]{name}, your move:[/bold]", highlight=False)
        menu = faces.action_menu(game, turn.view, texts, self.names)
        if menu is None:
            self._list(game, turn, texts)
            hint = f"enter 1-{len(texts)} or an action's notation (q quits)"
        else:
            for line in menu:
                self.console.print(f"  {line}", markup=False, highlight=False)
            hint = f"enter a move, list for the {len(texts)} moves by number, or q to quit"
        while True:
            try:
                answer = self.read(f"move ({hint}): ").strip()
            except EOFError:
                raise Quit from None
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer.isdigit():
                number = int(answer)
                if 1 <= number <= len(texts):
                    return turn.legal_actions[number - 1]
                self.console.print(f"{number} is out of range: {hint}.", markup=False)
                continue
            if not answer:
                self.console.print(f"nothing entered: {hint}.", markup=False)
                continue
            if answer.lower() == "list":
                self._list(game, turn, texts)
                continue
            matches = [a for a, t in zip(turn.legal_actions, texts, strict=True)
                       if " ".join(t.lower().split()) == " ".join(answer.lower().split())]
            if matches:
                return matches[0]
            reply = faces.prompt_command(game, turn.view, answer, self.names)
            if reply is not None:
                self.console.print(reply)
                continue
            try:
                return turn.parse(answer)  # other spellings the game's notation accepts
            except QuarkadeError as reason:
                self.console.print(
                    str(NotationError(f"{answer!r} is not one of the moves listed: {hint}")),
                    markup=False)
                self.console.print(f"  ({reason})", markup=False, highlight=False)

    def _list(self, game: str, turn: Turn, texts: list[str]) -> None:
        """Every legal move, numbered."""
        for number, text in enumerate(texts, start=1):
            label = faces.action_label(game, turn.view, text, self.names)
            self.console.print(f"  {number:>3}  {label}", markup=False, highlight=False)
