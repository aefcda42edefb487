"""Card Commons puzzles on the web: a pool mined ahead, and the answer to each move tried.

The pool is a file ``quarkade puzzles card-commons --pool FILE`` wrote (the server ships
one, ``puzzles.json`` beside this module; ``quarkade serve --puzzles FILE`` names
another). Each entry holds the puzzle (the moves to its position, the solution line) and
the solver's answer to every move the solving seat can try along the line (``study``):
other winning moves, and for each losing move the reply that beats it. So answering a move
is a lookup and a replay, never a search: nothing here needs a worker process.

A puzzle is played by the page from step ``0`` (an index into the solution): a right move
is answered with the defence's reply from the line, up to the solver's next decision or
the end (solved); a move that also wins is neither right nor wrong (the line goes another
way: try again); any other move fails the puzzle, and the answer shows the reply that
refutes it. The page keeps the step; the server rebuilds the position from it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import urlencode

from quarkade.core.errors import QuarkadeError
from quarkade.core.protocol import JSON
from quarkade.core.registry import load_game
from quarkade.games.card_commons.rules import CardCommonsGame, CardCommonsState
from quarkade.server.errors import ApiError
from quarkade.server.learn.boards import board, label, sentence

GAME = "card-commons"
POOL = Path(__file__).with_name("puzzles.json")
NAMES = ("you", "opponent")  # the solving seat, the defending one (as the page says)
MAX_POOL = 10_000  # puzzles a pool file may hold


@dataclass(frozen=True)
class PoolPuzzle:
    """One puzzle of the pool, checked against the engine when the pool is read."""

    number: int  # 1, 2, ... in the pool's order (what the page shows)
    variant: str
    torus: bool
    moves: tuple[int, ...]  # action ids from the start to the puzzle's position
    solution: tuple[int, ...]  # action ids of the solution line
    themes: tuple[str, ...]
    empty: int
    steps: dict[int, dict[str, Any]]  # solver's step -> {"also": [...], "refutations": {...}}

    def state_at(self, step: int) -> CardCommonsState:
        state = CardCommonsGame(variant=self.variant, torus=self.torus).new_initial_state()
        for action in self.moves + self.solution[:step]:
            state.apply_action(action)
        return state

    @property
    def solver(self) -> int:
        """The seat that is to find the winning moves."""
        return self.state_at(0).current_player()

    def names(self) -> list[str]:
        solver = self.solver
        return [NAMES[0] if seat == solver else NAMES[1] for seat in range(2)]


class PuzzlePool:
    """The puzzles of one pool file, numbered from 1."""

    def __init__(self, path: Path | None = POOL) -> None:
        self.path = path
        self.puzzles: list[PoolPuzzle] = [] if path is None else read_pool(path)

    def puzzle(self, number: int) -> PoolPuzzle:
        if not self.puzzles:
            raise ApiError(404, "this server has no puzzles yet")
        if not 1 <= number <= len(self.puzzles):
            raise ApiError(
                404, f"there is no puzzle {number}; the puzzles are numbered 1-{len(self.puzzles)}"
            )
        return self.puzzles[number - 1]

    def show(self, number: int, step: int = 0) -> JSON:
        """Puzzle ``number`` at ``step`` of its solution, as its page draws it."""
        puzzle = self.puzzle(number)
        _check_step(puzzle, step)
        state = puzzle.state_at(step)
        return {
            "number": number,
            "of": len(self.puzzles),
            "step": step,
            "themes": list(puzzle.themes),
            "empty": puzzle.empty,
            "variant": puzzle.variant,
            "torus": puzzle.torus,
            "task": _task(puzzle, state),
            "solved": state.is_terminal(),
            "table": table_of(puzzle, state, step),
            "analyse": analyse_url(state),
        }

    def attempt(self, number: int, step: object, move: object) -> JSON:
        """The answer to ``move`` (an action id or its notation) tried at ``step``."""
        puzzle = self.puzzle(number)
        step = _check_step(puzzle, step)
        state = puzzle.state_at(step)
        if state.is_terminal():
            raise ApiError(409, "this puzzle is solved already; take the next one")
        action = _action(state, move)
        names = puzzle.names()
        text = state.action_to_string(action)
        said = label(state, text, names)
        expected = puzzle.solution[step]
        answers = puzzle.steps[step]
        if action == expected:
            played = [said]
            after = step + 1
            while after < len(puzzle.solution):
                current = puzzle.state_at(after)
                if current.current_player() == puzzle.solver:
                    break
                played.append(
                    label(current, current.action_to_string(puzzle.solution[after]), names)
                )
                after += 1
            body = self.show(number, after)
            body["result"] = "solved" if body["solved"] else "right"
            body["played"] = played
            return body
        if text in answers["also"]:
            body = self.show(number, step)
            body["result"] = "also"
            body["message"] = (
                f"{sentence(said)} wins too, but this puzzle's line goes "
                "another way: look for another winning move."
            )
            return body
        if text not in answers["refutations"]:
            raise ApiError(409, "the puzzle has no answer to that move; take the next one")
        reply = answers["refutations"][text]
        wrong = puzzle.state_at(step)
        wrong.apply_action(action)
        if reply:  # the refutation is played on the board, so the player sees it
            refuted = wrong.clone()
            while not refuted.is_terminal() and refuted.current_player() == puzzle.solver:
                refuted.apply_action(refuted.legal_actions()[0])
            reply_label = label(refuted, reply, names)
            refuted.apply_action(refuted.string_to_action(reply))
            why = (
                f"{sentence(said)} loses: your opponent answers “{reply_label}”, and "
                "from there your opponent wins however you play."
            )
            shown = refuted
        else:
            why = f"{sentence(said)} ends the game, and you lose."
            shown = wrong
        body = self.show(number, step)
        body["table"] = table_of(puzzle, shown, step, over=True)
        body["result"] = "wrong"
        body["refutation"] = why
        body["answer"] = label(state, state.action_to_string(expected), names)
        return body


def read_pool(path: Path) -> list[PoolPuzzle]:
    """The puzzles of a pool file, each replayed through the engine (a file that does not
    hold a pool the engine accepts is refused with the first thing wrong)."""
    try:
        entries = json.loads(path.read_text())
    except (OSError, ValueError) as problem:
        raise ValueError(f"{path}: not a puzzle pool ({problem})") from None
    if not isinstance(entries, list) or len(entries) > MAX_POOL:
        raise ValueError(
            f"{path}: a puzzle pool is a JSON list of at most {MAX_POOL} "
            "puzzles (quarkade puzzles card-commons --pool FILE writes one)"
        )
    found = []
    for number, entry in enumerate(entries, 1):
        try:
            found.append(_entry(number, entry))
        except (KeyError, TypeError, ValueError, QuarkadeError) as problem:
            raise ValueError(
                f"{path}: puzzle {number} is not one the engine accepts "
                f"({problem}); write the pool again with quarkade puzzles "
                "card-commons --pool FILE"
            ) from None
    return found


def _entry(number: int, entry: dict[str, Any]) -> PoolPuzzle:
    game = load_game(GAME, variant=entry["variant"], torus=bool(entry["torus"]))
    state = game.new_initial_state()
    moves = []
    for text in entry["moves"]:
        moves.append(state.string_to_action(text))
        state.apply_action(moves[-1])
    solution = []
    steps = {}
    studied = {step["at"]: step for step in entry["steps"]}
    solver = state.current_player()
    for at, text in enumerate(entry["solution"]):
        if state.current_player() == solver:
            step = studied[at]
            steps[at] = {"also": list(step["also"]), "refutations": dict(step["refutations"])}
        solution.append(state.string_to_action(text))
        state.apply_action(solution[-1])
    if not state.is_terminal() or state.returns()[solver] <= 0:
        raise ValueError("its solution does not win")
    return PoolPuzzle(
        number,
        entry["variant"],
        bool(entry["torus"]),
        tuple(moves),
        tuple(solution),
        tuple(entry.get("themes", ())),
        int(entry["empty"]),
        steps,
    )


def table_of(puzzle: PoolPuzzle, state: CardCommonsState, step: int, over: bool = False) -> JSON:
    """The position as the game's own renderer draws it, from the solver's side: its moves
    to try while it is to move (none once ``over``: a failed puzzle's board)."""
    return board(
        f"puzzle-{puzzle.number}",
        state,
        puzzle.solver,
        puzzle.names(),
        len(puzzle.moves),
        playable=not over,
    )


def analyse_url(state: CardCommonsState) -> str:
    """The analysis board's address for ``state``."""
    replayed = state.game.new_initial_state()
    moves = []
    for action in state.history():
        moves.append(replayed.action_to_string(action))
        replayed.apply_action(action)
    query = urlencode(
        {
            "variant": state.variant,
            "torus": "yes" if state.game.options["torus"] else "no",
            "moves": ", ".join(moves),
        }
    )
    return f"/analysis/card-commons?{query}"


def _check_step(puzzle: PoolPuzzle, step: object) -> int:
    if (
        isinstance(step, bool)
        or not isinstance(step, int)
        or not (step in puzzle.steps or step == len(puzzle.solution))
    ):
        raise ApiError(
            400,
            "'step' should be where the puzzle stands: 0 at its start, "
            "then the step each answer gives",
        )
    return step


def _action(state: CardCommonsState, move: object) -> int:
    if (
        isinstance(move, bool)
        or not isinstance(move, int | str)
        or (isinstance(move, str) and not 0 < len(move) <= 200)
    ):
        raise ApiError(
            400,
            "'move' should be a move of the list, or a move's notation (at most 200 characters)",
        )
    try:
        action = state.string_to_action(move) if isinstance(move, str) else move
    except QuarkadeError as problem:
        raise ApiError(400, f"{problem}") from None
    if action not in state.legal_actions():
        raise ApiError(422, "that move is not legal here; choose one from the list")
    return action


def _task(puzzle: PoolPuzzle, state: CardCommonsState) -> str:
    if state.is_terminal():
        return "Solved: you win."
    if puzzle.state_at(0).history() == state.history():
        return "You are to move, and exactly one move wins. Find it."
    return "Right. You are to move again: find the move that keeps the win."


__all__ = ["POOL", "PoolPuzzle", "PuzzlePool", "read_pool", "table_of"]
