"""What a game package provides, declared once: ``GameParts``.

A game package declares its parts in its ``__init__.py`` (``PARTS = GameParts(...)``), and
every face (terminal, web, simulator, adapters, bots) finds a game's parts there, through
``quarkade.core.registry.game_parts``, and nowhere else: nothing looks a hook up by name.
The declaration is checked when it is made, so when the package is imported: an unknown
part (a misspelt name), a part of the wrong kind, a module part without one of its
functions, or a module to load later that does not exist, fails the import with a
``GamePartsError`` that says what is wrong and what is allowed.

The parts (only ``rules``, ``notation`` and ``text`` are required):

``rules``
    The ``Game`` subclass.
``notation``
    The module of action ids and their text.
``text``
    What the game says: a module with ``render(view, names, you)`` (a rich renderable for
    the terminal) and ``log_line(view, actor, notation, names)`` (``TextPart``), and three
    optional hooks beside it: ``action_label(view, notation, names)`` (a legal action as
    a person reads it in a list, the notation first: what the terminal lists),
    ``move_words(view, notation, names)`` (the same in words only, for the web's lists;
    the label when left out), and for the terminal only ``action_menu(view, texts,
    names)`` (lines shown instead of the numbered list of moves, or None) and
    ``prompt_command(view, text, names)`` (the game's own commands at the move prompt).
``encode``
    The observation encoding of the research adapters (``EncodePart``).
``analysis``
    What the simulator records about a finished game (``Analysis``).
``bots``, ``levels``
    The game's own bots (name -> ``Agent`` subclass) and the spec behind each difficulty
    level it sets (``LevelSpec``; see ``quarkade.agents.registry.levels``).
``estimate``, ``endgame``, ``candidate_actions``, ``rollout``
    What the generic search bots (``quarkade.agents.search``) ask of a game: each seat's
    expected return from a full state (a playout cut short), a solver for small positions
    (the action to play, or None), the moves worth searching among the legal ones, and
    the move a playout plays for the seat to move (``rollout=greedy``).
``exact``
    ``exact(state)``: the exact win chance (1 or 0) of the seat to move after each of its
    legal actions, as a dict, when a solver settles every one within its budget; else None.
    Hints and reviews (``quarkade.agents.estimate``) show these values instead of a
    search's estimates wherever the game gives them.
``line_playout``
    The move a ``rollout=lines`` playout plays, ``line_playout(state, me)``: the searching
    seat ``me`` plays as the hard level would and every other seat as ``greedy``
    (Decoherence). Hints and reviews estimate with these playouts when the game has them
    and its hard level is no search.
``decks``
    The deck builder (``DecksPart``), for a game whose seats bring their own deck.
``lessons``, ``compiled``
    Modules of the package loaded only when asked for (``GameParts.load``): the tutorial
    (its ``TUTORIAL``) and the compiled engine (numba, the ``quarkade[fast]`` extra).
"""

from __future__ import annotations

import difflib
import importlib
import importlib.util
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import ModuleType
from typing import Any, Protocol, runtime_checkable

from quarkade.core.agent import Agent
from quarkade.core.errors import QuarkadeError
from quarkade.core.protocol import Game

LEVEL_NAMES = ("easy", "medium", "hard")

# A difficulty level: an agent spec, or specs by player count ("more": any other count).
LevelSpec = str | Mapping[int | str, str]


class GamePartsError(QuarkadeError):
    """A game package declares its parts wrongly (see the module docstring)."""


@runtime_checkable
class TextPart(Protocol):
    """A game's ``text`` module: what it says, read from a seat's view, never the state."""

    def render(self, view: dict[str, Any], names: Sequence[str],
               you: int | None = None) -> Any:
        """The view as a rich renderable (the terminal's table)."""

    def log_line(self, view: dict[str, Any], actor: int, notation: str,
                 names: Sequence[str]) -> str | None:
        """The log line after ``notation`` was played (``view``: the state after it), or
        None when the game folds this action into a later line."""


@runtime_checkable
class EncodePart(Protocol):
    """A game's ``encode`` module (see ``quarkade.adapters.common``)."""

    def encode(self, view: dict[str, Any]) -> list[float]:
        """A seat's view as floats in [0, 1], as many as ``observation_size`` says."""

    def observation_size(self, options: Mapping[str, Any]) -> int:
        """The length of an encoded view with these options."""

    def slices(self, options: Mapping[str, Any]) -> list[tuple[str, int]]:
        """The named parts of an encoded view, in order, with their lengths."""

    def max_decisions(self, options: Mapping[str, Any]) -> int | None:
        """A bound on the decisions of one game, or None when the game has none."""

    def encode_state(self, state: Any, seat: int, out: Any = None) -> Any:
        """``encode(state.view(seat))`` written straight into a zeroed ``out``."""


@runtime_checkable
class DecksPart(Protocol):
    """A game's ``decks`` module: the deck builder's rules (Decoherence)."""

    DECK_OPTION: str  # the name of a seat's deck option, with ``{seat}``
    PRESETS: dict[str, str]  # name -> deck text
    PRESET_STRENGTH: Any
    TEST_AGENT: str  # the bot that plays "test this deck"

    def builder(self) -> dict[str, object]:
        """What the deck builder page needs: the words, the limits, the presets."""

    def parse_deck(self, text: str) -> tuple[int, ...]:
        """A deck's text as counts per word; ``ValueError`` says what is wrong."""

    def deck_text(self, counts: Any) -> str:
        """Counts per word as a deck's text."""

    def counts_of(self, text: str) -> dict[str, int]:
        """A deck's text as a count per word name."""


@dataclass(frozen=True)
class Analysis:
    """What the simulator may ask of a finished game (``quarkade.sim.hooks`` says what
    each function returns); ``None`` for each the game leaves out."""

    key_events: Callable[[Any], dict[str, Any]] | None = None
    game_tags: Callable[[Any], dict[str, Any]] | None = None
    seat_tags: Callable[[Any], list[dict[str, Any]]] | None = None
    tallies: Callable[[Any], list[dict[str, dict[Any, tuple[int, int]]]]] | None = None
    running_score: Callable[[Any], list[float]] | None = None
    notes: Mapping[str, str] = field(default_factory=dict)

    def note(self, name: str) -> str:
        """The note for the table of tag or tally ``name`` (``""`` without one)."""
        return self.notes.get(name) or self.notes.get(name.split(" (")[0], "")


Estimate = Callable[[Any], list[float]]
Endgame = Callable[[Any, random.Random], "int | None"]
Exact = Callable[[Any], "dict[int, float] | None"]
Candidates = Callable[[list[int]], list[int]]
Policy = Callable[[Any, random.Random], int]
LinePolicy = Callable[[Any, int], int]


@dataclass(frozen=True, kw_only=True)
class GameParts:
    """Everything a game package provides (see the module docstring for each part)."""

    rules: type[Game]
    notation: ModuleType
    text: TextPart
    action_label: Callable[[dict[str, Any], str, Sequence[str]], str] | None = None
    move_words: Callable[[dict[str, Any], str, Sequence[str]], str] | None = None
    action_menu: Callable[[dict[str, Any], Sequence[str], Sequence[str]],
                          list[str] | None] | None = None
    prompt_command: Callable[[dict[str, Any], str, Sequence[str]], Any] | None = None
    encode: EncodePart | None = None
    analysis: Analysis | None = None
    bots: Mapping[str, type[Agent]] = field(default_factory=dict)
    levels: Mapping[str, LevelSpec] = field(default_factory=dict)
    estimate: Estimate | None = None
    endgame: Endgame | None = None
    exact: Exact | None = None
    candidate_actions: Candidates | None = None
    rollout: Policy | None = None
    line_playout: LinePolicy | None = None
    decks: DecksPart | None = None
    lessons: str | None = None
    compiled: str | None = None

    def __new__(cls, **parts: object) -> GameParts:
        # Before the dataclass's own __init__, which would refuse a misspelt part with a
        # TypeError that names neither the game nor the parts there are.
        known = [spec.name for spec in fields(cls)]
        for name in parts:
            if name not in known:
                close = difflib.get_close_matches(name, known, n=1)
                hint = f" (did you mean {close[0]!r}?)" if close else ""
                raise GamePartsError(f"{_owner(parts)} declares a part {name!r}, which is "
                                     f"no part of a game{hint}; the parts are: "
                                     f"{', '.join(known)}")
        return super().__new__(cls)

    def __post_init__(self) -> None:
        owner = _owner({"rules": self.rules})
        if not (isinstance(self.rules, type) and issubclass(self.rules, Game)
                and isinstance(getattr(self.rules, "name", None), str)):
            raise GamePartsError(f"{owner}: rules is the game's Game subclass, with a name")
        _module_part(owner, "notation", self.notation, None)
        _module_part(owner, "text", self.text, TextPart)
        _module_part(owner, "encode", self.encode, EncodePart)
        _module_part(owner, "decks", self.decks, DecksPart)
        if self.analysis is not None and not isinstance(self.analysis, Analysis):
            raise GamePartsError(f"{owner}: analysis is an Analysis (quarkade.core.parts)")
        hooks = {"action_label": self.action_label, "move_words": self.move_words,
                 "action_menu": self.action_menu,
                 "prompt_command": self.prompt_command, "estimate": self.estimate,
                 "endgame": self.endgame, "exact": self.exact,
                 "candidate_actions": self.candidate_actions,
                 "rollout": self.rollout, "line_playout": self.line_playout}
        for name, hook in hooks.items():
            if hook is not None and not callable(hook):
                raise GamePartsError(f"{owner}: {name} is a function (or left out), not "
                                     f"{type(hook).__name__}")
        for name, bot in self.bots.items():
            if not (isinstance(bot, type) and issubclass(bot, Agent)):
                raise GamePartsError(f"{owner}: bot {name!r} is an Agent subclass, not "
                                     f"{bot!r}")
        for level, spec in self.levels.items():
            if level not in LEVEL_NAMES:
                raise GamePartsError(f"{owner}: {level!r} is no level; the levels are: "
                                     f"{', '.join(LEVEL_NAMES)}")
            if not isinstance(spec, str) and (not isinstance(spec, Mapping)
                                              or "more" not in spec):
                raise GamePartsError(f"{owner}: level {level} is an agent spec, or specs "
                                     "by player count with one for \"more\"")
        for name, module in self._loaded_later().items():
            if module is None:
                continue
            path = f"{self.package}.{module}"
            if not isinstance(module, str) or importlib.util.find_spec(path) is None:
                raise GamePartsError(f"{owner}: {name} names a module of the game's package "
                                     f"to load when asked for; there is no {path}")

    @property
    def name(self) -> str:
        """The game's name (``hadronize``)."""
        return self.rules.name

    @property
    def package(self) -> str:
        """The game's package (it holds ``rules.md`` beside the parts)."""
        return self.rules.__module__.rpartition(".")[0]

    def load(self, part: str) -> ModuleType:
        """A module part loaded only when asked for (``lessons``, ``compiled``);
        ``GamePartsError`` when the game declares none."""
        later = self._loaded_later()
        if part not in later:
            raise GamePartsError(f"{part!r} is not a part loaded when asked for; those are "
                                 f"{' and '.join(later)}")
        module = later[part]
        if module is None:
            raise GamePartsError(f"{self.name} has no {part} part")
        return importlib.import_module(f"{self.package}.{module}")

    def _loaded_later(self) -> dict[str, str | None]:
        return {"lessons": self.lessons, "compiled": self.compiled}


def _owner(parts: Mapping[str, object]) -> str:
    """The game a declaration is for, as far as it can be told, for error messages."""
    rules = parts.get("rules")
    name = getattr(rules, "name", None)
    return f"game {name!r}" if isinstance(name, str) else "a game"


def _module_part(owner: str, name: str, part: object, shape: type | None) -> None:
    """Refuse a module part without the functions its protocol ``shape`` names."""
    if part is None:
        if name in ("notation", "text"):
            raise GamePartsError(f"{owner}: {name} is required")
        return
    if shape is None:
        if not isinstance(part, ModuleType):
            raise GamePartsError(f"{owner}: {name} is a module")
        return
    if not isinstance(part, shape):
        wanted = [member for member in _members(shape) if not hasattr(part, member)]
        raise GamePartsError(f"{owner}: its {name} part lacks {', '.join(wanted)} (a {name} "
                             f"part provides {', '.join(_members(shape))})")


def _members(shape: type) -> list[str]:
    return sorted(name for name in vars(shape) if not name.startswith("_")
                  ) + sorted(name for name in getattr(shape, "__annotations__", {})
                             if name not in vars(shape))
