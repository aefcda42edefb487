"""Every Quarkade game as an OpenSpiel Python game (``pip install quarkade[rl]``).

>>> import pyspiel
>>> import quarkade.adapters.openspiel
>>> game = pyspiel.load_game("quarkade_hadronize", {"players": 3})
>>> game.num_players(), game.get_type().short_name
(3, 'quarkade_hadronize')

Importing this module registers ``quarkade_<game>`` (``quarkade_hadronize``,
``quarkade_card_commons``, ``quarkade_dead_cat``, ``quarkade_decoherence``). Each is
sequential, with explicit stochastic chance (every deal, draw and coin is a chance node
with its outcomes), zero-sum terminal returns in [-1, 1], and perfect or imperfect
information as the game's ``perfect_information`` says. Every option of the game is a game
parameter (``players`` among them, and honoured); a text option's commas are written as
bars in OpenSpiel's game strings, which separate parameters with commas.

Observations (observer objects, ``make_py_observer``):

- observation string: the seat's view (``State.view``) as compact JSON with sorted keys;
- information-state string: that view, a newline, then the whole history as the seat saw
  it, ``;``-separated, each ``<actor>:<notation>`` (actor ``c`` for chance), the notation
  being ``action_string_for`` (another seat's draw reads ``draw``). In a perfect-information
  game the history is the action ids, space-separated;
- observation and information-state tensors: the game's fixed-size encoding of the view
  (docs/RESEARCH.md); the tensor of the information state is the same one (the view holds
  what matters; the string holds the whole history);
- ``IIGObservationType(private_info=PrivateInfoType.NONE)`` gives the same from the public
  (spectator's) view.

A state is serialized as its game and history and rebuilt by replay (``serialize_game_and_state``
round-trips). ``resample_from_infostate(player, sampler)`` is built on ``State.resample``: the
hidden part is drawn with a ``random.Random`` seeded from ``sampler()`` (a
``pyspiel.UniformProbabilitySampler``, any callable returning a float in [0, 1), or a
``random.Random``), so OpenSpiel's Python ``ISMCTSBot`` plays the hidden-information games;
``seeded_resampler`` makes its sampling repeatable. OpenSpiel's C++ ``MCTSBot`` and
``ISMCTSBot`` crash on Python games: use ``open_spiel.python.algorithms.mcts`` and ``ismcts``.
"""

from __future__ import annotations

import functools
import json
import operator
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from quarkade.adapters.common import UNBOUNDED_DECISIONS, Encoding, encoding
from quarkade.core.errors import GameOptionError
from quarkade.core.protocol import CHANCE, SPECTATOR, TERMINAL, Game, State
from quarkade.core.registry import game_class, list_games, load_game

PREFIX = "quarkade_"
_GAME_STRING_BREAKERS = ",()="


def short_name(game_name: str) -> str:
    """OpenSpiel's name for a Quarkade game: ``dead-cat`` -> ``quarkade_dead_cat``."""
    return PREFIX + game_name.replace("-", "_")


# -- the engine state, with the history as each seat saw it -------------------------------


class _Held:
    """What a ``QuarkadeSpielState`` holds: the engine's state, its game's encoding, the
    seats' histories and the actions not yet in OpenSpiel's own history. Deep-copied by
    ``clone`` (OpenSpiel's ``Clone`` deep-copies a Python state's attributes) and pickled
    as the game and its history (``Serialize``).

    The seats' histories (``seen``, in a hidden-information game: every seat's, then the
    spectator's) are built only when an information-state string is first asked for, by
    replaying the history, and from then on kept up to date move by move: a loop that never
    reads them never pays for them. A resampled state with no full record keeps its
    histories from the start.

    ``unsynced``: the ``(player, action)`` pairs applied from Python and not yet written
    into OpenSpiel's C++ history (see ``QuarkadeSpielState.apply_action``).
    """

    __slots__ = ("coding", "replayable", "seen", "state", "unsynced")

    def __init__(self, state: State, seen: list[list[str]] | None, replayable: bool,
                 unsynced: list[tuple[int, int]] | None = None) -> None:
        self.state = state
        self.coding = _encoding(state.game)
        self.seen = seen  # None: not built (yet), or an open-information game
        self.replayable = replayable
        self.unsynced = unsynced if unsynced is not None else []

    @classmethod
    def start(cls, game: Game) -> _Held:
        return cls(game.new_initial_state(), None, True)

    def apply(self, action: int) -> None:
        seen = self.seen
        if seen is None:
            self.state.apply_action(action)
            return
        _apply_seen(self.state, seen, action)

    def history_seen_by(self, player: int) -> str:
        """``player``'s history (``len(seen) - 1`` for the spectator's); see the module."""
        state = self.state
        if state.game.perfect_information:
            return " ".join(map(str, state.history()))
        if self.seen is None:
            self.seen = _seen_by_replay(state)
        return ";".join(self.seen[player])

    def __deepcopy__(self, memo: dict[int, Any]) -> _Held:
        seen = None if self.seen is None else [history[:] for history in self.seen]
        return _Held(self.state.clone(), seen, self.replayable, self.unsynced[:])

    def __getstate__(self) -> dict[str, Any]:
        game = self.state.game
        if self.replayable:
            return {"game": game.name, "options": game.options, "history": self.state.history(),
                    "unsynced": self.unsynced}
        # a resampled state with no record
        return {"state": self.state, "seen": self.seen, "unsynced": self.unsynced}

    def __setstate__(self, data: dict[str, Any]) -> None:
        self.unsynced = list(data.get("unsynced", []))
        if "history" not in data:
            self.state, self.seen, self.replayable = data["state"], data["seen"], False
        else:
            state = _game(data["game"], tuple(sorted(data["options"].items()))
                          ).new_initial_state()
            for action in data["history"]:
                state.apply_action(action)
            self.state, self.seen, self.replayable = state, None, True
        self.coding = _encoding(self.state.game)


def _apply_seen(state: State, seen: list[list[str]], action: int) -> None:
    """Apply ``action``, adding to each seat's history (and the spectator's) what it saw."""
    actor = state.current_player()
    label = "c" if actor == CHANCE else str(actor)
    n = len(seen) - 1
    texts = [f"{label}:{state.action_string_for(p, action)}" for p in range(n)]
    texts.append(f"{label}:{state.action_string_for(SPECTATOR, action)}")
    state.apply_action(action)
    for history, text in zip(seen, texts, strict=True):
        history.append(text)


def _seen_by_replay(state: State) -> list[list[str]]:
    """Every seat's history of ``state``'s game so far (and the spectator's), by replay."""
    game = state.game
    replay = game.new_initial_state()
    seen: list[list[str]] = [[] for _ in range(game.num_players + 1)]
    for action in state.history():
        _apply_seen(replay, seen, action)
    return seen


@functools.lru_cache(maxsize=64)
def _game(name: str, options: tuple[tuple[str, Any], ...]) -> Game:
    return load_game(name, **dict(options))


def _encoding(game: Game) -> Encoding:
    return _encoding_of(game.name, tuple(sorted(game.options.items())))


@functools.lru_cache(maxsize=64)
def _encoding_of(name: str, options: tuple[tuple[str, Any], ...]) -> Encoding:
    return encoding(_game(name, options))


# -- OpenSpiel's game, state and observer -------------------------------------------------


class QuarkadeSpielGame(pyspiel.Game):
    """A Quarkade game as OpenSpiel sees it; one subclass per game (``quarkade_name``)."""

    quarkade_name: str = ""
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        options = dict(params or {})
        game = load_game(self.quarkade_name, **options)
        coding = encoding(game)
        actions = game.num_distinct_actions
        info = pyspiel.GameInfo(
            num_distinct_actions=actions,
            max_chance_outcomes=actions,  # chance outcomes are action ids too
            num_players=game.num_players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=coding.max_decisions or UNBOUNDED_DECISIONS,
        )
        super().__init__(self.game_type, info, _spiel_parameters(game))
        self.quarkade: Game = game
        self.coding: Encoding = coding

    def new_initial_state(self) -> QuarkadeSpielState:
        return QuarkadeSpielState(self)

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> QuarkadeObserver:
        return QuarkadeObserver(self, iig_obs_type, params)


def _read_after_sync(name: str) -> Callable[..., Any]:
    """OpenSpiel's method ``name``, which reads its C++ history: written first (``_sync``)."""
    read = getattr(pyspiel.State, name)

    def method(self: QuarkadeSpielState) -> Any:
        self._sync()
        return read(self)

    method.__name__ = name
    method.__doc__ = f"OpenSpiel's ``{name}``, once its history holds every action."
    return method


class QuarkadeSpielState(pyspiel.State):
    """A Quarkade state as OpenSpiel sees it (``quarkade_state`` is the engine's).

    Every query a caller makes in Python is answered here, from the engine, without a
    round trip through OpenSpiel's C++ (which costs about 3 us for each call it makes back
    into Python, several per action). C++ callers (``random_sim_test``, C++ algorithms) take
    OpenSpiel's own path, which ends in the same engine calls; tests/adapters/
    test_openspiel.py holds the two paths equal, query by query.

    ``apply_action`` from Python applies the action to the engine at once and writes it into
    OpenSpiel's C++ history (the ``history_`` a C++ ``Clone`` and ``Serialize`` copy) only
    when something reads that history: ``history()``, ``full_history()``,
    ``history_str()``, ``move_number()``, ``is_initial_state()``, ``serialize()``, or an
    action applied from C++. Until then the unwritten actions travel with the state's Python
    attributes, which ``Clone`` deep-copies and ``Serialize`` pickles, so clones and
    serialized states stay whole (a serialized string's ``history=`` line may then stop
    short; ``deserialize_game_and_state`` restores the same state all the same).
    """

    def __init__(self, game: QuarkadeSpielGame, held: _Held | None = None) -> None:
        super().__init__(game)
        self._held = held or _Held.start(game.quarkade)

    @property
    def quarkade_state(self) -> State:
        """The engine's state (read it; applying actions to it bypasses OpenSpiel)."""
        return self._held.state

    # -- what OpenSpiel's C++ calls (and Python callers too) ---------------------------------

    def current_player(self) -> int:
        return self._held.state.current_player()

    def is_terminal(self) -> bool:
        return self._held.state.is_terminal()

    def _legal_actions(self, player: int) -> list[int]:
        state = self._held.state
        return state.legal_actions() if player == state.current_player() else []

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return self._held.state.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        if self._held.unsynced:  # C++ is about to write its history: the rest goes first
            self._sync()
        self._held.apply(action)

    def _action_to_string(self, player: int, action: int) -> str:
        return self._held.state.action_to_string(action)

    def returns(self) -> list[float]:
        return self._held.state.returns()

    # -- the same answers, straight from Python (see the class docstring) -------------------

    def apply_action(self, action: int) -> None:
        held = self._held
        if type(action) is not int:  # a numpy integer, say: stored as a plain int
            action = operator.index(action)
        player = held.state.current_player()
        held.apply(action)  # the engine refuses an illegal action, and nothing changes
        held.unsynced.append((player, action))

    def legal_actions(self, player: int | None = None) -> list[int]:
        """As OpenSpiel answers: at a chance node its outcomes, whoever asks."""
        state = self._held.state
        mover = state.current_player()
        if mover == TERMINAL:
            return []
        if player is None or player == mover or mover == CHANCE:
            return state.legal_actions()
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for pseudo-player {player}")
        return []

    def is_chance_node(self) -> bool:
        return self._held.state.current_player() == CHANCE

    def is_player_node(self) -> bool:
        return self._held.state.current_player() >= 0

    def observation_tensor(self, player: int | None = None) -> list[float]:
        """The same floats as OpenSpiel's (which it rounds to float32 on the way)."""
        held = self._held
        state = held.state
        seat = _seat(state, player)
        coding = held.coding
        if coding.encode_state is None:
            return list(coding.encode(state.view(seat)))
        out = [0.0] * coding.size
        coding.encode_state(state, seat, out)
        return out

    information_state_tensor = observation_tensor  # the view holds what matters

    def observation_string(self, player: int | None = None) -> str:
        state = self._held.state
        return _view_text(state, _seat(state, player))

    def information_state_string(self, player: int | None = None) -> str:
        state = self._held.state
        seat = _seat(state, player)
        return _view_text(state, seat) + "\n" + self._held.history_seen_by(seat)

    # -- OpenSpiel's own history, written when read ------------------------------------------

    history = _read_after_sync("history")
    full_history = _read_after_sync("full_history")
    history_str = _read_after_sync("history_str")
    move_number = _read_after_sync("move_number")
    is_initial_state = _read_after_sync("is_initial_state")
    serialize = _read_after_sync("serialize")

    def _sync(self) -> None:
        """Write the actions applied from Python into OpenSpiel's C++ history: each goes
        through OpenSpiel's ``ApplyAction`` (which records who moved and counts the move),
        with the engine's part, already done, skipped."""
        held = self._held
        pending, held.unsynced = held.unsynced, []
        for player, action in pending:
            # For this one call OpenSpiel reads the mover of the time and applies nothing.
            self.current_player = functools.partial(int, player)  # type: ignore[method-assign]
            self._apply_action = _already_applied  # type: ignore[method-assign]
            try:
                pyspiel.State.apply_action(self, action)
            finally:
                del self.current_player, self._apply_action

    def view(self, player: int) -> dict[str, Any]:
        """What seat ``player`` (or ``SPECTATOR``) may know: the engine's view."""
        return self._held.state.view(player)

    def history_seen_by(self, player: int) -> str:
        """The history as ``player`` saw it (see the module docstring); ``SPECTATOR`` for
        the public one."""
        if player == SPECTATOR:
            player = self._held.state.game.num_players
        return self._held.history_seen_by(player)

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Any) -> QuarkadeSpielState:
        """A state ``player_id`` cannot tell from this one, its hidden part drawn anew.

        Where the engine's resampled state keeps a full record (a history as long as this
        state's, which is a record from the start), it is replayed, so history and
        information states are those of the sampled world. Otherwise (Decoherence's
        resample starts an empty history) the state is taken as it is: ``history()`` then
        holds only what is played from here, ``player_id``'s past is this state's and
        every other seat's the public one (the truth is what is being sampled).
        """
        rng = _rng_from(probability_sampler)
        held = self._held
        sampled = held.state.resample(player_id, rng)
        game = self.get_game()
        fresh: QuarkadeSpielState = game.new_initial_state()
        if held.replayable and len(sampled.history()) == len(held.state.history()):
            for action in sampled.history():
                fresh.apply_action(action)
            return fresh
        seen: list[list[str]] | None = None
        if not held.state.game.perfect_information:
            held.history_seen_by(player_id)  # builds the histories if not yet built
            assert held.seen is not None
            public = held.seen[-1]
            seen = [(held.seen[p] if p == player_id else public)[:]
                    for p in range(len(held.seen) - 1)]
            seen.append(public[:])
        fresh._held = _Held(sampled, seen, replayable=False)
        return fresh

    def __str__(self) -> str:
        """Every seat's view, one JSON line each, then the history's action ids."""
        state = self._held.state
        views = [json.dumps(state.view(p), sort_keys=True, separators=(",", ":"))
                 for p in range(state.game.num_players)]
        return "\n".join([*views, " ".join(map(str, state.history()))])


class QuarkadeObserver:
    """OpenSpiel's Python observer: ``tensor`` (and ``dict``) from ``set_from``, and
    ``string_from`` (see the module docstring for what each holds)."""

    def __init__(self, game: QuarkadeSpielGame,
                 iig_obs_type: pyspiel.IIGObservationType | None,
                 params: dict[str, Any] | None) -> None:
        if params:
            raise ValueError(f"Quarkade observers take no parameters; got {params}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info:
            raise ValueError("Quarkade observers always include public information "
                             "(public_info=False is not offered)")
        private = kind.private_info
        if (private == pyspiel.PrivateInfoType.ALL_PLAYERS
                and not game.quarkade.perfect_information):
            raise ValueError(f"{game.quarkade.name} hides information: an observer may see "
                             "one seat's private information (SINGLE_PLAYER) or none (NONE)")
        self._public = private == pyspiel.PrivateInfoType.NONE
        self._recall = kind.perfect_recall
        self._coding = game.coding
        self.tensor = np.zeros(game.coding.size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: QuarkadeSpielState, player: int) -> None:
        self.tensor.fill(0.0)  # the same array every time, as OpenSpiel expects
        self._coding.write(state.quarkade_state, SPECTATOR if self._public else player,
                           self.tensor)

    def string_from(self, state: QuarkadeSpielState, player: int) -> str:
        seat = SPECTATOR if self._public else player
        text = _view_text(state.quarkade_state, seat)
        if self._recall:
            text += "\n" + state.history_seen_by(seat)
        return text


def _already_applied(action: int) -> None:
    """Stands in for ``_apply_action`` while ``_sync`` writes an applied action."""


def _seat(state: State, player: int | None) -> int:
    """``player``, or the seat to move; refused as OpenSpiel refuses it."""
    if player is None:
        player = state.current_player()
    if type(player) is not int or not 0 <= player < state.game.num_players:
        raise pyspiel.SpielError(f"player = {player}: a player is 0 to "
                                 f"{state.game.num_players - 1}")
    return player


def _view_text(state: State, seat: int) -> str:
    """``seat``'s view as compact JSON with sorted keys (the observation string)."""
    return json.dumps(state.view(seat), sort_keys=True, separators=(",", ":"))


def seeded_resampler(seed: int | str) -> Callable[[QuarkadeSpielState, int], QuarkadeSpielState]:
    """A resampler for ``ISMCTSBot.set_resampler`` drawing from one seeded rng, so that a
    search is repeatable (the default sampler is seeded from the clock)."""
    rng = random.Random(seed)

    def resample(state: QuarkadeSpielState, player: int) -> QuarkadeSpielState:
        return state.resample_from_infostate(player, rng)

    return resample


def _rng_from(sampler: Any) -> random.Random:
    if isinstance(sampler, random.Random):
        return random.Random(sampler.getrandbits(64))
    return random.Random(int(float(sampler()) * 2**53))


def _spiel_parameters(game: Game) -> dict[str, Any]:
    """The game's options as OpenSpiel parameters (text without ``,()=``, see above)."""
    parameters = {}
    for name, value in game.options.items():
        if isinstance(value, str) and any(c in value for c in _GAME_STRING_BREAKERS):
            barred = value.replace(",", " |")
            if (any(c in barred for c in _GAME_STRING_BREAKERS)
                    or load_game(game.name, **{**game.options, name: barred}) != game):
                raise GameOptionError(f"{game.name}: option {name}={value!r} cannot be written "
                                      f"in an OpenSpiel game string (it holds one of "
                                      f"{_GAME_STRING_BREAKERS})")
            value = barred
        parameters[name] = value
    return parameters


def _register(game_name: str) -> None:
    cls = game_class(game_name)
    name = short_name(game_name)
    if name in pyspiel.registered_names():
        return
    information = (pyspiel.GameType.Information.PERFECT_INFORMATION
                   if cls.perfect_information
                   else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"Quarkade {cls.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=information,
        utility=pyspiel.GameType.Utility.ZERO_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=cls.max_players,
        min_num_players=cls.min_players,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={option.name: option.default for option in cls.option_specs},
    )
    spiel_class = type(f"Quarkade{cls.__name__}", (QuarkadeSpielGame,),
                       {"quarkade_name": game_name, "game_type": game_type,
                        "__doc__": f"{cls.title} as an OpenSpiel game ({name})."})
    pyspiel.register_game(game_type, spiel_class)


for _name in list_games():
    _register(_name)
