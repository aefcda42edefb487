"""What an agent (a bot, a person at a terminal, a remote player) is handed, and returns.

An agent never sees the state. It gets a ``Turn``: its seat, its own view, the legal
actions, and a way to draw full states consistent with its view (``sample_state``, which
search bots use); it returns one of the legal actions.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field

from quarkade.core.errors import NotationError
from quarkade.core.protocol import JSON, Game, State


@dataclass(frozen=True)
class Turn:
    """One decision: who decides, what they know, what they may do."""

    game: Game
    player: int
    view: JSON
    legal_actions: list[int]
    _sampler: Callable[[random.Random], State] = field(repr=False, compare=False)
    _namer: Callable[[int], str] = field(repr=False, compare=False)
    _parser: Callable[[str], int] | None = field(default=None, repr=False, compare=False)

    def sample_state(self, rng: random.Random) -> State:
        """A full state consistent with this seat's view, hidden part drawn with ``rng``."""
        return self._sampler(rng)

    def action_text(self, action: int) -> str:
        """The notation of one of the legal actions."""
        return self._namer(action)

    def parse(self, text: str) -> int:
        """The legal action ``text`` names, read by the game's own notation parser (which
        may accept more spellings than ``action_text`` gives); a ``NotationError`` says why
        ``text`` names none."""
        if self._parser is None:
            raise NotationError(f"{text!r}: this turn has no notation parser")
        return self._parser(text)


def turn_for(state: State) -> Turn:
    """The ``Turn`` the seat to move in ``state`` is handed (its view, never the state)."""
    player = state.current_player()
    frozen = state.clone()
    return Turn(
        game=state.game,
        player=player,
        view=state.view(player),
        legal_actions=state.legal_actions(),
        _sampler=lambda rng: frozen.resample(player, rng),
        _namer=lambda action: frozen.action_string_for(player, action),
        _parser=frozen.string_to_action,
    )


class Agent(ABC):
    """Chooses actions for one seat. ``spec`` is the text that names it (``"greedy"``)."""

    spec: str = "agent"

    @abstractmethod
    def act(self, turn: Turn, rng: random.Random) -> int:
        """One of ``turn.legal_actions``."""

    def __repr__(self) -> str:
        return f"<agent {self.spec}>"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    spec = "random"

    def act(self, turn: Turn, rng: random.Random) -> int:
        return rng.choice(turn.legal_actions)
