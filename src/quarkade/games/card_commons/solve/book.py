"""The Tutorial game from its openings: each opening's value, and the opening book.

An opening puts one of the opener's eight 2-5 cards on one of the four centre cells
(RULINGS C-3), so there are 32; the field's symmetries and the colour swap (see
``tutorial``) leave 4 classes on either field, and one search per class settles all 32.

The book is the top of the solution: from each opening class, every position within
``plies`` plies that best play on the winning side can reach, whatever the losing side
plays, with its value and, where the seat to move wins, a winning move. A position is
kept by its least symmetric image, so the book also answers for the images; a bot reads
it until play leaves it (the losing side's choices are all in it, so only the winning
side's own departure leaves it early) and searches from there.

File format (JSON): ``variant``, ``torus``, ``plies``, ``openings`` (one row per opening:
card, cell, class, value for the seat that moves after it or "" where the class was not
solved, nodes, seconds) and
``positions``: hex key -> 0 for a loss of the seat to move, else ``1 + move + 512 *
(discard + 1)`` in the key's frame (``discard`` -1 for a channel).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

from quarkade.games.card_commons.notation import CARD_NAMES, CELL_NAMES
from quarkade.games.card_commons.rules import CENTRE, OPENING_CARDS
from quarkade.games.card_commons.solve import split
from quarkade.games.card_commons.solve.split import Pool, solution
from quarkade.games.card_commons.solve.tutorial import (
    INVERT,
    NUM_CELLS,
    SINGLE,
    WIN,
    Position,
    TutorialSolver,
)

ALL_KINDS = (1 << 12) - 1
BOOK_FORMAT = 1


@dataclass
class Opening:
    """One of the 32 openings and what the solver found for it."""

    card: str  # as the opener holds it in seat 0 (hearts, spades); seat 1 mirrors it
    cell: str
    kind: int
    cell_id: int
    group: int  # openings with the same group are images of each other
    value: str = ""  # "win" or "loss" for the seat that moves after it; "" not solved
    nodes: int = 0
    seconds: float = 0.0
    first_move: str = ""  # a winning first move, when there is one

    @property
    def position(self) -> Position:
        cells = [0] * NUM_CELLS
        cells[self.cell_id] = SINGLE + self.kind
        return Position(tuple(cells), ALL_KINDS, ALL_KINDS & ~(1 << self.kind))


def openings(solver: TutorialSolver) -> list[Opening]:
    """The 32 openings, grouped by symmetry (group = index of the class's first one)."""
    found: list[Opening] = []
    seen: dict[int, int] = {}
    for local in OPENING_CARDS:
        for cell in CENTRE:
            opening = Opening(CARD_NAMES[local], CELL_NAMES[cell], local, cell, 0)
            opening.group = seen.setdefault(solver.packed(opening.position), len(found))
            found.append(opening)
    return found


def solve_openings(solver: TutorialSolver,
                   progress: Callable[[Opening], None] | None = None,
                   steps: Callable[[str], None] | None = None,
                   only: set[str] | None = None, pool: Pool | None = None) -> list[Opening]:
    """Every opening's value for the seat that moves after it (one search per class);
    ``steps`` hears of each of the opener's replies settled (see ``TutorialSolver.solve``).
    With ``only`` (opening cards such as ``"2H"``), just the classes holding one of those
    cards are searched; the other openings keep the value ``""`` (not solved). With a
    ``pool``, each class's top-level positions are searched there (``split``).
    """
    rows = openings(solver)
    wanted = None if only is None else {
        row.group for row in rows if row.card in only}
    for opening in rows:
        if wanted is not None and opening.group not in wanted:
            continue
        if opening.group != rows.index(opening):
            first = rows[opening.group]
            opening.value, opening.first_move = first.value, ""
        else:
            label = f"{opening.card} {opening.cell}: "
            told: Callable[[str], None] | None = None
            if steps is not None:
                def told(line: str, label: str = label, steps: Callable[[str], None] = steps
                         ) -> None:
                    steps(label + line)
            result = solver.solve(opening.position, progress=told) if pool is None else \
                split.solve(solver, opening.position, pool, progress=told)
            opening.value = "win" if result.value == WIN else "loss"
            opening.nodes, opening.seconds = result.nodes, round(result.seconds, 2)
            if result.move is not None:
                opening.first_move = describe(*result.move, seat=1)
        if progress is not None:
            progress(opening)
    return rows


def describe(move: int, discard: int, seat: int) -> str:
    """An abstract move in the game's notation, as ``seat`` holds the cards."""
    kind, cell = (move & 255) >> 4, move & 15
    card = CARD_NAMES[seat * 12 + kind]
    if move < INVERT:
        return f"{card} {CELL_NAMES[cell]}"
    return f"inv {card} {CELL_NAMES[cell]} /{CARD_NAMES[seat * 12 + discard]}"


@dataclass
class Book:
    variant: str
    torus: bool
    plies: int
    openings: list[Opening]
    positions: dict[int, int]  # packed key -> entry

    def save(self, path: Path) -> None:
        data = {
            "format": BOOK_FORMAT, "variant": self.variant, "torus": self.torus,
            "plies": self.plies, "openings": [asdict(o) for o in self.openings],
            "positions": {f"{key:x}": entry for key, entry in sorted(self.positions.items())},
        }
        path.write_text(json.dumps(data, separators=(",", ":")) + "\n")

    @classmethod
    def load(cls, path: Path) -> Book:
        data = json.loads(path.read_text())
        if data.get("format") != BOOK_FORMAT:
            raise ValueError(f"{path}: not a Card Commons book of format {BOOK_FORMAT}")
        return cls(data["variant"], data["torus"], data["plies"],
                   [Opening(**row) for row in data["openings"]],
                   {int(key, 16): entry for key, entry in data["positions"].items()})

    def lookup(self, solver: TutorialSolver, position: Position
               ) -> tuple[int, tuple[int, int] | None] | None:
        """(value, winning (move, discard) or None) for the seat to move, or None if the
        position is not in the book."""
        entry = self.positions.get(solver.packed(position))
        return None if entry is None else solver.read_entry(position, entry)


def build_book(solver: TutorialSolver, rows: list[Opening], plies: int) -> Book:
    """The book of the solved openings: the solution ``plies`` plies deep from each class
    solved (a class left unsolved keeps the value ``""`` and has no positions)."""
    roots = [row.position for index, row in enumerate(rows) if row.group == index and row.value]
    return Book("tutorial", solver.torus, plies, rows, solution(solver, roots, plies))


__all__ = ["Book", "Opening", "build_book", "openings", "solution",
           "solve_openings"]
