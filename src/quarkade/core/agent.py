"""What an agent (a bot, a person at a terminal, a remote player) is handed, and returns.

An agent never sees the state. It gets a ``Turn``: its seat, its own view, the legal
actions, and a way to draw full states consistent with its view (``sample_state``, which
search bots use); it returns one of the legal actions.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from typing import ClassVar

from quarkade.core.options import Option
from quarkade.core.protocol import JSON, Game, State


@dataclass(frozen=True)
class Turn:
    """One decision: who decides, what they know, what they may do.

    A turn holds nothing that leads back to the real state: its notation, parser and
    samples come from ``_model``, a state the seat cannot tell from the real one that was
    built from the seat's knowledge alone (``seat_model``). So an agent, or anything else
    handed a turn, can learn from it only what the seat may know.
    """

    game: Game
    player: int
    view: JSON
    legal_actions: list[int]
    _model: State = field(repr=False, compare=False)

    def sample_state(self, rng: random.Random) -> State:
        """A full state consistent with this seat's view, hidden part drawn with ``rng``."""
        return self._model.resample(self.player, rng)

    def action_text(self, action: int) -> str:
        """The notation of one of the legal actions, as this seat sees it."""
        return self._model.action_string_for(self.player, action)

    def parse(self, text: str) -> int:
        """The legal action ``text`` names in this seat's notation (the game may accept
        other spellings of it); a ``NotationError`` says why ``text`` names none."""
        return self._model.string_to_action_for(self.player, text)


def seat_model(state: State, player: int) -> State:
    """A state seat ``player`` cannot tell from ``state``, made from what it knows only.

    In a perfect-information game that is a copy. Otherwise it is a resample with a fixed
    rng: ``resample`` depends only on the seat's knowledge, so the hidden part of the result
    is invented, never read from ``state``; and the seat's view, legal actions and
    notation are the same as in ``state``.
    """
    if state.game.perfect_information:
        return state.clone()
    return state.resample(player, random.Random(0))


def turn_for(state: State) -> Turn:
    """The ``Turn`` the seat to move in ``state`` is handed (its view, never the state)."""
    player = state.current_player()
    model = seat_model(state, player)
    return Turn(
        game=model.game,
        player=player,
        view=state.view(player),
        legal_actions=state.legal_actions(),
        _model=model,
    )


class Agent(ABC):
    """Chooses actions for one seat. ``spec`` is the text that names it (``"greedy"``).

    ``parameters`` declares what a spec may set (``mcts:iterations=500``): one ``Option``
    per keyword argument of the constructor, with its default, the values it takes and a
    line of help. The registry checks a spec against them, the server bounds them
    (``Option.server_maximum``), and ``quarkade agents GAME BOT`` and the new-game page
    show them; the first line of the class's docstring says what the bot does.
    ``title`` and ``about`` are the bot in players' words: its name on a seat ("Greedy
    bot") and a line on how it plays (the new-game form and the game page show them).
    """

    spec: str = "agent"
    parameters: ClassVar[tuple[Option, ...]] = ()
    title: ClassVar[str] = ""
    about: ClassVar[str] = ""

    @abstractmethod
    def act(self, turn: Turn, rng: random.Random) -> int:
        """One of ``turn.legal_actions``."""

    def __repr__(self) -> str:
        return f"<agent {self.spec}>"


class RandomAgent(Agent):
    """Plays a uniformly random legal action."""

    spec = "random"
    title = "Random bot"
    about = "Plays any legal move, at random."

    def act(self, turn: Turn, rng: random.Random) -> int:
        return rng.choice(turn.legal_actions)
