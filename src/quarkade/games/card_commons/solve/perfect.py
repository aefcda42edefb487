"""What the ``perfect`` bot asks of the solver: a winning action, from the book or a search.

One solver (and its table) per field shape serves every game in the process; a lock keeps
the bots of the web app's threads from searching it at once. The books are the ones
``quarkade solve`` wrote, shipped in ``books/`` beside this module.
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

from quarkade.games.card_commons.notation import place_action
from quarkade.games.card_commons.rules import CardCommonsState
from quarkade.games.card_commons.solve.jit import require
from quarkade.games.card_commons.solve.tutorial import WIN, TutorialSolver, action_of

BOOKS = Path(__file__).with_name("books")
TABLE_BITS = 21  # 64 MiB: plenty for the searches past the book's edge

_lock = threading.Lock()
_solvers: dict[bool, TutorialSolver] = {}
_books: dict[bool, object] = {}


def book_path(torus: bool) -> Path:
    return BOOKS / f"tutorial{'-torus' if torus else ''}.json"


def solver(torus: bool) -> TutorialSolver:
    """The process's solver for the field shape (built on first use)."""
    if torus not in _solvers:
        _solvers[torus] = TutorialSolver(torus=torus, table_bits=TABLE_BITS)
    return _solvers[torus]


def book(torus: bool):  # type: ignore[no-untyped-def]
    """The shipped book for the field shape, or None if there is none."""
    from quarkade.games.card_commons.solve.book import Book

    if torus not in _books:
        path = book_path(torus)
        _books[torus] = Book.load(path) if path.exists() else None
    return _books[torus]


def winning_action(state: CardCommonsState, rng: random.Random, nodes: int = 0) -> int | None:
    """A winning action for the seat to move in a Tutorial game, or None when the seat
    loses against best play (or ``nodes`` ran out before the search settled it)."""
    from quarkade.games.card_commons.solve.tutorial import position_of

    torus = bool(state.game.options["torus"])
    with _lock:
        opening_book = book(torus)
        if state.phase() == "opening":
            if opening_book is None:
                return None
            winners = [row for row in opening_book.openings if row.value == "loss"]
            if not winners:
                return None
            chosen = rng.choice(winners)
            return place_action(chosen.kind, chosen.cell_id)
        position = position_of(state)
        search = solver(torus)
        if opening_book is not None:
            known = opening_book.lookup(search, position)
            if known is not None:
                value, move = known
                return action_of(*move) if value == WIN and move is not None else None
        value, move = search.best_move(position, budget=nodes)
        return action_of(*move) if value == WIN and move is not None else None


def unsettled_openings(state: CardCommonsState) -> list[int]:
    """The opening actions the book has not solved, for an opener with no opening known to
    win: none of them is known to lose, unlike the openings the book says the next seat
    wins. Empty without a book."""
    with _lock:
        opening_book = book(bool(state.game.options["torus"]))
    if opening_book is None:
        return []
    return sorted(place_action(row.kind, row.cell_id) for row in opening_book.openings
                  if not row.value)


__all__ = ["book", "book_path", "require", "solver", "unsettled_openings", "winning_action"]
