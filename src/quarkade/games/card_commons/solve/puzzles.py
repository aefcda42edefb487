"""Card Commons puzzles: positions where the seat to move wins with exactly one move.

A position is a puzzle when the seat to move has at least two legal actions and exactly
one of them wins under best play (an inversion with another discard is another action).
Both claims are the exact solvers' (``tutorial`` for the Tutorial game, ``classic`` for
Classic), which makes every puzzle proven rather than guessed.

The solution line starts with the winning move and follows the game to its end: the
winner plays a winning action (the only one, or the first the engine lists), and the
defender plays the reply that leaves the winner the fewest winning answers (ties: the
engine's first; a reply that ends the game only when nothing else is left), the hardest
line to find. Themes are read from the winner's moves:
``invert``, ``repel``, ``polarize``, ``pass`` and ``the last card`` (in Classic, the
winner plays the last card from hand; every won Tutorial line ends so, so it is not a
theme there).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from quarkade.games.card_commons.notation import (
    DECLINE,
    INVERT_BASE,
    PASS,
    POLARIZE_BASE,
    REPEL_BASE,
)
from quarkade.games.card_commons.rules import CardCommonsGame, CardCommonsState
from quarkade.games.card_commons.solve import classic, tutorial
from quarkade.games.card_commons.solver import empty_cells

TABLE_BITS = 20  # 32 MiB per solver
BUDGET = 300_000  # nodes per search before a position counts as unsettled (0: no limit)
PUZZLE_PHASES = ("turn",)  # a puzzle starts where a seat begins its turn
SOLVED_PHASES = ("turn", "repel", "polarize")
THEMES = ("invert", "repel", "polarize", "pass", "the last card")


@dataclass(frozen=True)
class Puzzle:
    """A won position with one winning move, and its solution against the best defence."""

    variant: str
    torus: bool
    moves: list[str]  # the game's notation from the start, the opener's coin included
    solution: list[str]  # the winning move first, then the defence and the winner in turn
    empty: int  # empty cells in the puzzle's position
    themes: list[str] = field(default_factory=list)
    steps: list[dict[str, Any]] | None = None  # ``study``'s answers to every move, if made

    def as_json(self) -> dict[str, Any]:
        found = {"variant": self.variant, "torus": self.torus, "moves": self.moves,
                 "solution": self.solution, "empty": self.empty, "themes": self.themes}
        if self.steps is not None:
            found["steps"] = self.steps
        return found


class Unsettled(Exception):
    """A search ran past its node budget: the position's value is not known."""


class Exact:
    """Exact win/loss of Card Commons positions after the opening, one solver per rule set
    and field, each keeping its table across calls (every value it holds is exact).
    A search past ``budget`` nodes (0: no limit) raises ``Unsettled``."""

    def __init__(self, table_bits: int = TABLE_BITS, budget: int = BUDGET) -> None:
        self.table_bits = table_bits
        self.budget = budget
        self._solvers: dict[tuple[str, bool], Any] = {}

    def _solver(self, state: CardCommonsState) -> Any:
        key = (state.variant, bool(state.game.options["torus"]))
        if key not in self._solvers:
            kind = tutorial.TutorialSolver if state.variant == "tutorial" else \
                classic.ClassicSolver
            self._solvers[key] = kind(torus=key[1], table_bits=self.table_bits)
        return self._solvers[key]

    def wins(self, state: CardCommonsState, seat: int) -> bool:
        """Whether ``seat`` wins from ``state`` with best play on both sides."""
        if state.is_terminal():
            return state.returns()[seat] > 0
        if state.phase() not in SOLVED_PHASES:
            raise ValueError(f"the solvers read positions after the opening, not a game in "
                             f"its {state.phase()} phase")
        module = tutorial if state.variant == "tutorial" else classic
        value = self._solver(state).value(module.position_of(state), budget=self.budget).value
        if value not in (tutorial.WIN, tutorial.LOSS):
            raise Unsettled
        mover_wins = value == tutorial.WIN
        return mover_wins if state.current_player() == seat else not mover_wins

    def winning_actions(self, state: CardCommonsState) -> list[int]:
        """Every legal action after which the seat to move wins, in the engine's order."""
        seat = state.current_player()
        winners = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            if self.wins(child, seat):
                winners.append(action)
        return winners


def puzzle_at(state: CardCommonsState, exact: Exact) -> Puzzle | None:
    """The puzzle at ``state`` if it is one (see the module docstring), else None (also
    when a search it needs runs past the budget)."""
    if state.is_terminal() or state.phase() not in PUZZLE_PHASES or \
            len(state.legal_actions()) < 2:
        return None
    try:
        # one search says whether the mover wins at all; most positions of a bot's game
        # are settled by it, and only won ones pay for a search of every move
        if not exact.wins(state, state.current_player()):
            return None
        winners = exact.winning_actions(state)
        if len(winners) != 1:
            return None
        line, themes = solution(state, winners[0], exact)
    except Unsettled:
        return None
    moves = [before.action_to_string(action) for before, action in _replayed(state)]
    return Puzzle(state.variant, bool(state.game.options["torus"]), moves, line,
                  empty_cells(state), themes)


def solution(state: CardCommonsState, first: int, exact: Exact) -> tuple[list[str], list[str]]:
    """The line from ``state`` starting with the winning action ``first`` to the end of the
    game, and its themes."""
    winner = state.current_player()
    line, themes = [], set()
    current = state.clone()
    action = first
    while True:
        if current.current_player() == winner:
            themes |= _themes_of(current, action)
        line.append(current.action_to_string(action))
        current.apply_action(action)
        if current.is_terminal():
            break
        if current.current_player() == winner:
            action = exact.winning_actions(current)[0]
        else:
            action = _best_defence(current, exact)
    if not exact.wins(current, winner):
        raise AssertionError("a solution line that does not win")
    return line, [theme for theme in THEMES if theme in themes]


def study(puzzle: Puzzle, exact: Exact) -> list[dict[str, Any]]:
    """What a page needs to answer any move the solver's seat tries along the solution:
    for each of that seat's steps (``at``, an index into ``solution``), the other moves that
    win too (``also``) and, for every move that loses, the reply that beats it
    (``refutations``: move -> reply, or ``""`` when the move itself ends the game). Raises
    ``Unsettled`` when a search runs past the budget."""
    game_state = replay(_game_of(puzzle), puzzle.moves)
    winner = game_state.current_player()
    steps = []
    for at, text in enumerate(puzzle.solution):
        if game_state.current_player() == winner:
            winning = set(exact.winning_actions(game_state))
            refutations = {}
            for action in game_state.legal_actions():
                if action in winning:
                    continue
                refutations[game_state.action_to_string(action)] = _refutation(
                    game_state, action, winner, exact)
            steps.append({"at": at, "also": [game_state.action_to_string(action)
                                             for action in sorted(winning)
                                             if game_state.action_to_string(action) != text],
                          "refutations": refutations})
        game_state.apply_action(game_state.string_to_action(text))
    return steps


def _refutation(state: CardCommonsState, action: int, winner: int, exact: Exact) -> str:
    """The defender's winning reply after the losing ``action`` ("" if the game ends
    first); a further decision of the same seat is made as the engine lists first."""
    current = state.clone()
    current.apply_action(action)
    while not current.is_terminal() and current.current_player() == winner:
        current.apply_action(current.legal_actions()[0])
    if current.is_terminal():
        return ""
    replies = exact.winning_actions(current)
    if not replies:
        raise AssertionError("a losing move with no winning reply")
    return current.action_to_string(replies[0])


def _game_of(puzzle: Puzzle) -> CardCommonsGame:
    return CardCommonsGame(variant=puzzle.variant, torus=puzzle.torus)


def _best_defence(state: CardCommonsState, exact: Exact) -> int:
    """The defender's reply that leaves the winner the fewest winning answers (a reply
    that ends the game is the last resort)."""
    best, fewest = -1, ENDS + 1
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        answers = _answers(child, state.current_player(), exact)
        if answers < fewest:
            best, fewest = action, answers
    return best


ENDS = 1 << 20  # "answers" to a reply that ends the game: the worst defence


def _answers(state: CardCommonsState, defender: int, exact: Exact) -> int:
    """How many winning actions the winner has after the defender's move, the defender's
    own further decision (Repel, Polarize) made as well as it can be."""
    if state.is_terminal():
        return ENDS
    if state.current_player() != defender:
        return len(exact.winning_actions(state))
    fewest = ENDS
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        fewest = min(fewest, _answers(child, defender, exact))
    return fewest


def _themes_of(state: CardCommonsState, action: int) -> set[str]:
    found = set()
    if INVERT_BASE <= action < REPEL_BASE:
        found.add("invert")
    elif REPEL_BASE <= action < POLARIZE_BASE:
        found.add("repel")
    elif POLARIZE_BASE <= action < DECLINE:
        found.add("polarize")
    elif action == PASS:
        found.add("pass")
    if action < REPEL_BASE and state.variant != "tutorial":
        child = state.clone()
        child.apply_action(action)
        if not child.hand(state.current_player()):
            found.add("the last card")
    return found


def _replayed(state: CardCommonsState) -> list[tuple[CardCommonsState, int]]:
    """Each action of ``state``'s history with the state before it."""
    current = state.game.new_initial_state()
    steps = []
    for action in state.history():
        steps.append((current.clone(), action))
        current.apply_action(action)
    return steps


def replay(game: Any, moves: list[str]) -> CardCommonsState:
    """The state after ``moves`` (the game's notation from the start)."""
    state = game.new_initial_state()
    for text in moves:
        state.apply_action(state.string_to_action(text))
    return state


__all__ = ["THEMES", "Exact", "Puzzle", "Unsettled", "empty_cells", "puzzle_at", "replay",
           "solution", "study"]
