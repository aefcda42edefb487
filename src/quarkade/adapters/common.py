"""What every adapter needs from a game beside the protocol: its observation encoding and
its terminal rendering as plain text.

A game's ``encode`` part (``quarkade.core.parts.EncodePart``) turns a seat's
view into a flat list of floats in [0, 1] whose length depends only on the game's options.
It offers ``encode(view)``, ``observation_size(options)``, ``slices(options)`` (the named
parts, in order, for docs/RESEARCH.md) and ``max_decisions(options)`` (a bound on the
decisions in one game, or None when the game has none), and the fast path
``encode_state(state, seat, out)``: the same floats as ``encode(state.view(seat))``, written
into a zeroed ``out`` straight from the state, without building the view dict
(``tests/adapters/test_encode_state.py`` proves it equal
to encoding the view, for every game, player count and variant, so it shows no more than
the view does).
"""

from __future__ import annotations

import io
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from rich.console import Console

from quarkade.core.parts import GamePartsError
from quarkade.core.protocol import SPECTATOR, Game, State
from quarkade.core.registry import game_parts

# Bounds the length of a game that has no bound of its own (Hadronize without a turn cap)
# where a library insists on one (OpenSpiel's max_game_length).
UNBOUNDED_DECISIONS = 100_000


@dataclass(frozen=True)
class Encoding:
    """A game's observation encoding with its options fixed."""

    encode: Callable[[dict[str, Any]], list[float]]
    size: int
    slices: tuple[tuple[str, int], ...]
    max_decisions: int | None
    # The fast path (see the module docstring), or None when the game has none.
    encode_state: Callable[[State, int, Any], Any] | None = None

    def write(self, state: State, seat: int, out: np.ndarray) -> None:
        """``seat``'s observation of ``state`` into ``out``, a zeroed float32 array of
        ``size``: through the fast path when the game has one (writing through the array's
        memoryview, ``out.data``, is nearly as fast as writing into a list), else by
        encoding the view, which is also what refuses an unknown seat."""
        fast = self.encode_state
        if fast is not None and type(seat) is int and (
                0 <= seat < state.game.num_players or seat == SPECTATOR):
            fast(state, seat, out.data)
        else:
            out[:] = self.encode(state.view(seat))


def encoding(game: Game) -> Encoding:
    """The observation encoding of ``game`` (its options fix the size)."""
    module = game_parts(game.name).encode
    if module is None:
        raise GamePartsError(f"{game.name} has no observation encoding (an encode part)")
    options: Mapping[str, Any] = game.options
    return Encoding(module.encode, module.observation_size(options),
                    tuple(module.slices(options)), module.max_decisions(options),
                    module.encode_state)


class Observations:
    """A game's observations as fresh numpy arrays: a seat's encoded view (float32) and
    its action mask (int8, 1 for each legal action; all zero when the seat is not to
    move). Masks are built once per distinct set of legal actions, which repeat a lot
    (Hadronize's choices of observer are always the same few)."""

    MASKS_KEPT = 4096  # distinct sets of legal actions; the cache starts over beyond it

    def __init__(self, game: Game) -> None:
        self.coding = encoding(game)
        self.actions = game.num_distinct_actions
        self._size = self.coding.size
        self._no_mask = np.zeros(self.actions, np.int8)
        self._masks: dict[tuple[int, ...], np.ndarray] = {}

    def observation(self, state: State, seat: int) -> np.ndarray:
        """``seat``'s encoded view of ``state``, a new float32 array (``Encoding.write``:
        with the game's fast path, no view, no list and no conversion)."""
        array = np.zeros(self._size, np.float32)
        self.coding.write(state, seat, array)
        return array

    def mask(self, state: State, seat: int) -> np.ndarray:
        if state.current_player() != seat:
            return self._no_mask.copy()
        key = tuple(state.legal_actions())
        built = self._masks.get(key)
        if built is None:
            if len(self._masks) >= self.MASKS_KEPT:
                self._masks.clear()
            built = np.zeros(self.actions, np.int8)
            built[np.fromiter(key, np.intp, len(key))] = 1
            self._masks[key] = built
        return built.copy()


def render_text(game: Game, view: dict[str, Any], names: Sequence[str],
                you: int | None = None, width: int = 100) -> str:
    """The game's terminal rendering of ``view`` as plain text (no colour codes, no
    trailing spaces)."""
    renderable = game_parts(game.name).text.render(view, names, you)
    console = Console(file=io.StringIO(), width=width, color_system=None,
                      force_terminal=False, highlight=False)
    console.print(renderable)
    text: str = console.file.getvalue()  # type: ignore[attr-defined]
    return "".join(line.rstrip() + "\n" for line in text.splitlines())
