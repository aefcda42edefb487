"""The game protocol: the one interface every face of Quarkade drives every game through.

A ``Game`` is a rule set with its options fixed (player count, variant, ...). It makes
``State`` objects. A state is a node of the game tree: a seat to move, a chance node, or
the end. Chance is explicit: every shuffle, deal, coin and collapse is a chance node whose
outcomes are actions, so ``history()`` (every action, chance included) is a complete record
and replaying it on ``new_initial_state()`` rebuilds the same state.

The names here are public and fixed; code outside the project calls them exactly so.

Returns: with two players a win is +1, a loss -1, a draw 0. With more players the winners
share +1 equally and the others share -1 equally (see ``shared_returns``); when every
seat wins, or the game is drawn, everyone gets 0. Returns always sum to zero.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from quarkade.core.errors import IllegalActionError, NotationError
from quarkade.core.options import Option, parse_options

CHANCE = -1
TERMINAL = -4
# Pass as the player to view() and action_string_for() for what someone watching the table,
# holding no seat, may know: the public view.
SPECTATOR = -2
# What ``Game.options_for`` shows in place of an option the seat may not know.
HIDDEN_OPTION = "hidden"

JSON = dict[str, Any]

# How a finished game ended (``Outcome.result``).
WIN, SHARED_WIN, DRAW = "win", "shared win", "draw"


@dataclass(frozen=True)
class Outcome:
    """How a finished game ended: who won, and whether it was a win, a shared win or a draw.

    ``result`` is ``"win"`` (one winner), ``"shared win"`` (several seats won together) or
    ``"draw"`` (nobody won). ``ending`` says how it ended in the game's own words
    (``"reached the goal"``, ``"decohered"``), or is empty. Every face (web, terminal,
    records, simulator) reads the result from here, so they all say the same thing.
    """

    result: str
    winners: tuple[int, ...]
    ending: str = ""

    @classmethod
    def of(cls, winners: Sequence[int], ending: str = "") -> Outcome:
        """The outcome with these winners: none is a draw, several a shared win."""
        won = tuple(sorted(winners))
        result = DRAW if not won else WIN if len(won) == 1 else SHARED_WIN
        return cls(result, won, ending)

    def text(self, names: Sequence[str]) -> str:
        """``"Ann wins"``, ``"Ann and Bo share the win"`` or ``"a draw"``."""
        if self.result == DRAW:
            return "a draw"
        shown = " and ".join(names[seat] for seat in self.winners)
        return f"{shown} wins" if self.result == WIN else f"{shown} share the win"

    def as_json(self) -> JSON:
        return {"result": self.result, "winners": list(self.winners), "ending": self.ending}


class Game(ABC):
    """A rule set with fixed options; makes initial states.

    Subclasses set ``name``, ``min_players``, ``max_players``, ``num_distinct_actions``,
    ``option_specs`` and implement ``new_initial_state``.
    """

    name: ClassVar[str]
    title: ClassVar[str]
    summary: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    option_specs: ClassVar[tuple[Option, ...]]
    # False when a seat may not see everything (hands, face-down cards): search bots then
    # sample hidden information (ismcts) instead of reading the state (mcts).
    perfect_information: ClassVar[bool] = True

    def __init__(self, **options: Any) -> None:
        self.options: dict[str, Any] = parse_options(self.name, self.option_specs, options)
        self.num_players: int = self.options["players"]

    @property
    @abstractmethod
    def num_distinct_actions(self) -> int:
        """Size of the fixed integer action space: every action id is in ``range(this)``."""

    @abstractmethod
    def new_initial_state(self) -> State:
        """The state before anything has happened (usually a chance node: the deal)."""

    def options_for(self, player: int) -> dict[str, Any]:
        """The options as seat ``player`` (or ``SPECTATOR``) may know them.

        Most options are public; a game whose options hold a secret (Decoherence's
        private decklists, D-21) replaces it with ``HIDDEN_OPTION``. Every face shows a seat
        these, never ``options``.
        """
        return dict(self.options)

    def for_seat(self, player: int) -> Game:
        """This game as seat ``player`` may know it: itself, unless an option is secret
        (then a game whose secret options are stand-ins). Agents are handed this one."""
        return self

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"load_game({self.name!r}, {shown})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and (self.name, self.options) == (other.name, other.options)

    def __hash__(self) -> int:
        return hash((self.name, tuple(sorted(self.options.items()))))


class State(ABC):
    """One node of a game: whose turn, what is legal, what each seat may see."""

    __slots__ = ()

    game: Game

    @abstractmethod
    def current_player(self) -> int:
        """The seat to act (``0..n-1``), ``CHANCE`` at a chance node, ``TERMINAL`` at the end."""

    def is_chance_node(self) -> bool:
        return self.current_player() == CHANCE

    def is_terminal(self) -> bool:
        return self.current_player() == TERMINAL

    @abstractmethod
    def chance_outcomes(self) -> list[tuple[int, float]]:
        """``(action, probability)`` pairs in ascending action order; empty off chance nodes."""

    @abstractmethod
    def legal_actions(self) -> list[int]:
        """Legal actions in ascending order (the chance outcomes at a chance node)."""

    @abstractmethod
    def apply_action(self, action: int) -> None:
        """Play ``action``; raise ``IllegalActionError`` (state unchanged) if it is not legal.

        The refusal is worded for the seat to move: it names actions in that seat's
        notation and says nothing that seat may not know, so a face may show it to the
        seat that sent the action."""

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """Readable notation of ``action`` here; unique among the legal actions."""

    def string_to_action(self, text: str) -> int:
        """The legal action whose full notation is ``text`` (case and spacing do not matter).

        This reads the omniscient notation, so it is for whoever holds the whole state (the
        simulator, a record's replay); a seat's text goes through ``string_to_action_for``.
        """
        wanted = normalize_notation(text)
        legal = self.legal_actions()
        for action in legal:
            if normalize_notation(self.action_to_string(action)) == wanted:
                return action
        raise NotationError(f"{text!r} is not a legal action here; "
                            f"legal: {legal_text(self, None, legal)}")

    def string_to_action_for(self, player: int, text: str) -> int:
        """The legal action seat ``player`` names with ``text``, in its own notation.

        Only the seat to move may name an action, and only in the notation it is shown
        (``action_string_for``), so accepting or refusing a text tells the seat nothing it
        did not know; the refusal lists the seat's own notation. Games that accept other
        spellings override this, still reading only what the seat may see.
        """
        legal = self._legal_for(player, text)
        seen = [self.action_string_for(player, action) for action in legal]
        if seen == [self.action_to_string(action) for action in legal]:
            # The seat reads every legal move as it is: the game's own parser, with the
            # other spellings it accepts, tells it nothing new.
            return self.string_to_action(text)
        wanted = normalize_notation(text)
        for action, notation in zip(legal, seen, strict=True):
            if normalize_notation(notation) == wanted:
                return action
        raise NotationError(f"{text!r} is not a legal action here; "
                            f"legal: {legal_text(self, player, legal)}")

    def _legal_for(self, player: int, text: str) -> list[int]:
        """The legal actions, if ``player`` is the seat to move; else a ``NotationError``."""
        mover = self.current_player()
        if player != mover:
            whose = ("the game is over" if mover == TERMINAL else "chance acts next"
                     if mover == CHANCE else f"seat {mover} is to move")
            raise NotationError(f"{text!r}: seat {player} cannot act now ({whose})")
        return self.legal_actions()

    def action_string_for(self, player: int, action: int) -> str:
        """The notation of ``action`` (about to be applied here) as seat ``player`` may see it.

        Open-information games show everything; hidden-information games override this so
        that, for example, a card drawn by another seat reads "draw" rather than its name.
        """
        return self.action_to_string(action)

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's result; zeros until the game ends. Sums to zero."""

    @abstractmethod
    def history(self) -> list[int]:
        """Every action applied since the initial state, chance included."""

    @abstractmethod
    def view(self, player: int) -> JSON:
        """What ``player`` may know, as JSON-ready data (dicts, lists, str, int, bool, None).

        ``player`` is a seat, or ``SPECTATOR`` for the public view. An unknown seat raises
        ``IllegalActionError``.
        """

    @abstractmethod
    def resample(self, player: int, rng: random.Random) -> State:
        """A state ``player`` cannot tell from this one, its hidden part drawn with ``rng``.

        Must depend only on what ``player`` knows, so two states that differ only in what
        ``player`` cannot see give the same result for the same ``rng``.
        """

    def outcome(self) -> Outcome | None:
        """How the game ended (``None`` while it goes on).

        By default the seats with a positive return won, and a finished game without one is
        a draw. A game where every seat can win together (all returns 0, yet not a draw)
        overrides this.
        """
        if not self.is_terminal():
            return None
        return Outcome.of([seat for seat, value in enumerate(self.returns()) if value > 0])

    def winners(self) -> list[int]:
        """The seats that won (``outcome().winners``); empty for a draw or an unfinished game."""
        outcome = self.outcome()
        return list(outcome.winners) if outcome is not None else []

    def __str__(self) -> str:
        return f"{self.game.name} after {len(self.history())} actions"


def as_action_id(action: Any, size: int) -> int:
    """``action`` as a plain int (numpy integers included), or an ``IllegalActionError``
    saying what an action is. The range is checked by each game's ``apply_action``."""
    if isinstance(action, bool) or not hasattr(action, "__index__"):
        raise IllegalActionError(f"an action is an integer id 0-{size - 1}, not {action!r}")
    return int(action.__index__())


def legal_text(state: State, player: int | None, legal: Sequence[int], limit: int = 12) -> str:
    """The legal actions as a refusal lists them: in seat ``player``'s notation (``None``:
    the full notation, for whoever holds the whole state), ``limit`` at most."""
    name = state.action_to_string if player is None else (
        lambda action: state.action_string_for(player, action))
    shown = ", ".join(name(action) for action in legal[:limit])
    more = f" and {len(legal) - limit} more" if len(legal) > limit else ""
    return (shown + more) or "none"


def normalize_notation(text: str) -> str:
    """Lower-case and single-space notation so that ``'Observe  2'`` matches ``'observe 2'``."""
    return " ".join(text.lower().split())


def shared_returns(winners: Sequence[int], num_players: int) -> list[float]:
    """Zero-sum returns where ``winners`` share +1 and the other seats share -1.

    >>> shared_returns([2], 3)
    [-0.5, -0.5, 1.0]
    >>> shared_returns([0, 1], 2)
    [0.0, 0.0]
    """
    won = len(winners)
    if won == 0 or won == num_players:
        return [0.0] * num_players
    win_share = 1.0 / won
    loss_share = -1.0 / (num_players - won)
    winner_set = set(winners)
    return [win_share if seat in winner_set else loss_share for seat in range(num_players)]


def apply_notation(state: State, text: str) -> int:
    """Parse ``text`` with ``string_to_action`` and apply it; returns the action id."""
    action = state.string_to_action(text)
    state.apply_action(action)
    return action
