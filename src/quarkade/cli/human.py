"""A person at the terminal, as an agent: shows the table, lists the moves, reads a choice."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence

from rich.columns import Columns
from rich.console import Console, RenderableType
from rich.text import Text

from quarkade.cli import faces
from quarkade.core.agent import Agent, Turn
from quarkade.core.errors import NotationError, QuarkadeError

# hints(turn, earlier turns of the seat) -> something to print (see quarkade.cli.hints)
HintSource = Callable[[Turn, list[Turn]], RenderableType]


class Quit(Exception):
    """The person asked to stop (``q``) or closed the input."""


class HumanAgent(Agent):
    """Prompts for a move by number or by notation; bad input is explained and asked again.

    With ``hints`` (offered in games against bots), ``hint`` at the prompt prints one and
    marks the seats that asked in ``hinted``, so the game is never rated."""

    spec = "human"

    def __init__(self, console: Console, names: Sequence[str],
                 read: Callable[[str], str] | None = None,
                 hints: HintSource | None = None) -> None:
        self.console = console
        self.names = names
        self.read = read or (lambda prompt: console.input(prompt))
        self.hints = hints
        self.hinted: set[int] = set()
        self._turns: dict[int, list[Turn]] = {}  # each seat's earlier turns, for a hint

    def act(self, turn: Turn, rng: random.Random) -> int:
        earlier = self._turns.setdefault(turn.player, [])
        action = self._ask(turn)
        earlier.append(turn)
        return action

    def _ask(self, turn: Turn) -> int:
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
            hint = f"enter a number from 1 to {len(texts)}, or help"
            prompt = f"move (1-{len(texts)}, help): "
        else:
            for line in menu:
                self.console.print(f"  {line}", markup=False, highlight=False)
            hint = "enter a move as the menu writes it, or help"
            prompt = "move (help): "
        while True:
            try:
                answer = self.read(prompt).strip()
            except EOFError:
                raise Quit from None
            if answer.lower() in ("q", "quit", "exit"):
                raise Quit
            if answer.lower() in ("help", "?", "h"):
                self._help(len(texts), menu is not None)
                continue
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
            if answer.lower() == "hint" and self.hints is not None:
                self.console.print("thinking...", markup=False)
                self.console.print(self.hints(turn, self._turns[turn.player]))
                self.hinted.add(turn.player)
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
        numbered(self.console, [faces.action_label(game, turn.view, text, self.names)
                                for text in texts])

    def _help(self, count: int, menu: bool) -> None:
        """What may be typed at the prompt."""
        lines = [f"1 to {count}: play the move with that number"
                 + (" (list shows the numbers)" if menu else ""),
                 "a move as written" + (" in the menu" if menu else " in the list")
                 + ": play it",
                 "list: show every move again, numbered"]
        if self.hints is not None:
            lines.append("hint: each move's win chance, the best one starred")
        lines += ["help: this list", "q: stop the game"]
        for line in lines:
            self.console.print(f"  {line}", markup=False, highlight=False)


def numbered(console: Console, labels: Sequence[str], marks: Sequence[str] = ()) -> None:
    """Moves numbered from 1 (``marks``: a character before each, such as ">" for a move a
    lesson asks for). A long list is set in columns, so the table above stays in view."""
    lines = [f"{marks[i] if marks else ' '}{i + 1:>3}  {label}"
             for i, label in enumerate(labels)]
    if len(lines) <= 12:
        for line in lines:
            console.print(f" {line}", markup=False, highlight=False)
        return
    console.print(Columns([Text(line) for line in lines], padding=(0, 3), column_first=True))
