"""A game's log as each viewpoint may read it: each action's notation for that seat (never
its id) and its line in words.

The logs are made when first read, by replaying the game's moves once for every
viewpoint, then kept up to date as each move is played; a game nobody looks at (a bots'
game, one loaded for a list of whose turn it is) never renders a view for its log. Once
the game is over and revealed, the log reads every action in full, for everyone.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

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


class LogBook:
    """Every viewpoint's log of one game (``viewpoints``: its seats and the spectator)."""

    def __init__(self, name: str, viewpoints: Sequence[int],
                 names: Callable[[], list[str]]) -> None:
        self.name = name
        self.viewpoints = list(viewpoints)
        self.names = names  # the seats' names now, for the lines in words
        self.entries: dict[int, list[LogEntry]] | None = None  # None: not made yet
        self.revealed: list[LogEntry] | None = None

    def pending(self) -> Pending | None:
        """Where the entries of moves about to be played go (None: no log is made yet, so
        playing them renders nothing)."""
        return None if self.entries is None else {v: [] for v in self.viewpoints}

    def play(self, state: State, action: int, pending: Pending | None) -> None:
        """Apply ``action`` to ``state``, adding what each viewpoint reads of it to
        ``pending`` (if the logs are made)."""
        if pending is None:
            state.apply_action(action)
            return
        player = state.current_player()
        full = state.action_to_string(action)
        notations = {v: state.action_string_for(v, action) for v in self.viewpoints}
        state.apply_action(action)
        step = len(state.history())
        for viewpoint, notation in notations.items():
            line = self.line(state.view(viewpoint), player, notation)
            pending[viewpoint].append(LogEntry(step, player, notation, line,
                                               notation != full))

    def add(self, pending: Pending | None) -> None:
        """The moves whose entries are ``pending`` were made current."""
        if pending is not None and self.entries is not None:
            for viewpoint in self.viewpoints:
                self.entries[viewpoint].extend(pending[viewpoint])

    def of(self, viewpoint: int, game: Game, moves: Sequence[tuple[int, int]]
           ) -> list[LogEntry]:
        """``viewpoint``'s log of ``moves`` (``(player, action)`` from ``game``'s start)."""
        if self.entries is None:
            entries: Pending = {v: [] for v in self.viewpoints}
            state = game.new_initial_state()
            for _, action in moves:
                self.play(state, action, entries)
            self.entries = entries
        return self.entries[viewpoint]

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
        self.entries = None
        self.revealed = None

    def line(self, view: dict[str, Any], player: int, notation: str) -> str | None:
        try:
            return log_line(self.name, view, player, notation, self.names())
        except ModuleNotFoundError:  # a game without a text module: the notation says it
            return None
