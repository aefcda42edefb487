"""A game's log as each viewpoint may read it: each action's notation for that seat (never
its id) and its line in words.

Each viewpoint's log is made when first read, by replaying the game's moves once, then
kept up to date as each move is played; a viewpoint nobody looks at (a game's spectators
while none watches, a seat whose page is open in another process, a bots' game) never
renders a view for its log. Once the game is over and revealed, the log reads every action
in full, for everyone.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, cast

from quarkade.core.protocol import Game, State
from quarkade.core.words import log_line

Pending = dict[int, list["LogEntry"]]


@dataclass
class LogEntry:
    """One action as one viewpoint may read it (never its id)."""

    step: int
    player: int
    text: str
    line: str | None
    hidden: bool  # the notation differs from the full one: the id would tell more

    def public(self) -> dict[str, Any]:
        return {"step": self.step, "player": self.player, "text": self.text, "line": self.line}


class ViewAfter(Mapping[str, Any]):
    """``state``'s view for ``viewpoint``, worked out when a log line first reads it: most
    lines (a deal, a draw) read nothing of it. Read it before ``state`` changes."""

    __slots__ = ("state", "view", "viewpoint")

    def __init__(self, state: State, viewpoint: int) -> None:
        self.state = state
        self.viewpoint = viewpoint
        self.view: dict[str, Any] | None = None

    def _made(self) -> dict[str, Any]:
        if self.view is None:
            self.view = self.state.view(self.viewpoint)
        return self.view

    def __getitem__(self, key: str) -> Any:
        return self._made()[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._made())

    def __len__(self) -> int:
        return len(self._made())


class LogBook:
    """Every viewpoint's log of one game (``viewpoints``: its seats and the spectator)."""

    def __init__(self, name: str, viewpoints: Sequence[int],
                 names: Callable[[], list[str]]) -> None:
        self.name = name
        self.viewpoints = list(viewpoints)
        self.names = names  # the seats' names now, for the lines in words
        self.entries: dict[int, list[LogEntry]] = {}  # the viewpoints read so far
        self.revealed: list[LogEntry] | None = None

    def pending(self) -> Pending | None:
        """Where the entries of moves about to be played go, for each log made so far
        (None: none is, so playing them renders nothing)."""
        return {v: [] for v in self.entries} if self.entries else None

    def play(self, state: State, action: int, pending: Pending | None) -> None:
        """Apply ``action`` to ``state``, adding what each viewpoint reads of it to
        ``pending`` (if the logs are made)."""
        if pending is None:
            state.apply_action(action)
            return
        player = state.current_player()
        full = state.action_to_string(action)
        notations = {v: state.action_string_for(v, action) for v in pending}
        state.apply_action(action)
        step = len(state.history())
        for viewpoint, notation in notations.items():
            line = self.line(ViewAfter(state, viewpoint), player, notation)
            pending[viewpoint].append(LogEntry(step, player, notation, line,
                                               notation != full))

    def add(self, pending: Pending | None) -> None:
        """The moves whose entries are ``pending`` were made current."""
        if pending is not None:
            for viewpoint, entries in pending.items():
                self.entries[viewpoint].extend(entries)

    def of(self, viewpoint: int, game: Game, moves: Sequence[tuple[int, int]]
           ) -> list[LogEntry]:
        """``viewpoint``'s log of ``moves`` (``(player, action)`` from ``game``'s start).
        (A log made while a move was being stored lacks it: made again.)"""
        made = self.entries.get(viewpoint)
        if made is None or len(made) != len(moves):
            entries: Pending = {viewpoint: []}
            state = game.new_initial_state()
            for _, action in moves:
                self.play(state, action, entries)
            made = self.entries[viewpoint] = entries[viewpoint]
        return made

    def in_full(self, game: Game, moves: Sequence[tuple[int, int]]) -> list[LogEntry]:
        """The log that reads every action in full (a game over and revealed)."""
        if self.revealed is None or len(self.revealed) != len(moves):
            state = game.new_initial_state()
            entries = []
            for player, action in moves:
                notation = state.action_to_string(action)
                state.apply_action(action)
                entries.append(LogEntry(len(state.history()), player, notation,
                                        self.line(state.revealed_view(), player, notation),
                                        False))
            self.revealed = entries
        return self.revealed

    def forget(self) -> None:
        """The game starts again from other options (a seat chose its own): no log yet."""
        self.entries = {}
        self.revealed = None

    def line(self, view: Mapping[str, Any], player: int, notation: str) -> str | None:
        try:
            # (Text modules only read a view, so a ViewAfter serves as the dict they take.)
            return log_line(self.name, cast("dict[str, Any]", view), player, notation,
                            self.names())
        except ModuleNotFoundError:  # a game without a text module: the notation says it
            return None
