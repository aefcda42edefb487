"""``quarkade solve``: who wins Card Commons with perfect play (the compiled solver).

The work is in ``quarkade.games.card_commons.solve``; this module reads the command line,
prints the values as they come and writes the opening book.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Annotated, Any, cast

import typer
from rich.table import Table

from quarkade.cli.output import console, user_errors
from quarkade.core.errors import QuarkadeError
from quarkade.core.options import parse_option_pairs
from quarkade.core.registry import load_game
from quarkade.games.card_commons.rules import CardCommonsState

SOLVABLE = ("card-commons",)


def solve(
    game: Annotated[str, typer.Argument(help="The game to solve: card-commons.")],
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A game option NAME=VALUE (repeatable): variant=tutorial, "
        "torus=true.")] = None,
    book: Annotated[Path | None, typer.Option(
        help="Write the opening book here (default: card-commons-tutorial[-torus].json "
        "in this directory).")] = None,
    plies: Annotated[int, typer.Option(
        help="How deep the book follows the solution from each opening.")] = 4,
    table_bits: Annotated[int, typer.Option(
        help="The transposition table holds 2^N positions of 32 bytes (25: 1 GiB).")] = 24,
    verbose: Annotated[bool, typer.Option(
        "--verbose", "-v", help="Print each of the opener's replies as it is settled.")
    ] = False,
    moves: Annotated[str | None, typer.Option(
        help="Solve the position after these moves instead (the game's notation, separated "
        "by commas, from the start: 'opener 0, 3H b2, 4D b1, ...').")] = None,
    openings: Annotated[str | None, typer.Option(
        help="Solve only the openings of these cards and their images (commas: '2H,3H'; "
        "the others stay unsolved in the book). Default: all.")] = None,
    ledger: Annotated[Path | None, typer.Option(
        help="Keep the settled positions of the long searches in this file, and resume "
        "from it (default: the book's name with .ledger.json).")] = None,
    workers: Annotated[int, typer.Option(
        help="Worker processes that share out the positions two plies below each "
        "opening (each with its own table; 1: all in this process).")] = 1,
    ray: Annotated[str | None, typer.Option(
        "--ray", help="Search those positions as tasks on a Ray cluster instead: its "
        "HOST:PORT, or 'local' to start one on this machine.")] = None,
) -> None:
    """Solve a game: the value of every opening, node counts, time, and an opening book."""
    with user_errors():
        if game not in SOLVABLE:
            raise QuarkadeError(f"no solver for {game!r}; solvable: {', '.join(SOLVABLE)}")
        options: dict[str, Any] = parse_option_pairs(option or [])
        loaded = load_game(game, **options)
        if loaded.options["variant"] != "tutorial" and moves is None:
            raise QuarkadeError("only the Tutorial game is solved (--option variant=tutorial);"
                                " a Classic position near its end is solved with --moves "
                                "(docs/ANALYSIS.md, \"Classic endgames\")")
        if not 16 <= table_bits <= 30:
            raise QuarkadeError(f"--table-bits {table_bits}: 16-30 allowed")
        if not 1 <= workers <= 64:
            raise QuarkadeError(f"--workers {workers}: 1-64 allowed")
        if ray is not None and workers != 1:
            raise QuarkadeError("--workers and --ray do not go together: a Ray cluster "
                                "runs as many tasks at once as it has CPUs")
        if not 0 <= plies <= 8:
            raise QuarkadeError(f"--plies {plies}: 0-8 allowed")
        only = None
        if openings is not None:
            from quarkade.games.card_commons.notation import CARD_NAMES
            from quarkade.games.card_commons.rules import OPENING_CARDS

            allowed = [CARD_NAMES[local] for local in OPENING_CARDS]
            only = {text.strip().upper() for text in openings.split(",") if text.strip()}
            wrong = sorted(only - set(allowed))
            if wrong or not only:
                raise QuarkadeError(f"--openings {openings!r}: name opening cards, "
                                    f"separated by commas, from {', '.join(allowed)}")
        from quarkade.games.card_commons.solve.jit import require

        require()
        if moves is not None:
            state = cast(CardCommonsState, loaded.new_initial_state())
            for text in filter(None, (m.strip() for m in moves.split(","))):
                if state.is_terminal():
                    raise QuarkadeError(f"--moves: the game is over before {text!r}")
                state.apply_action(state.string_to_action(text))
            if state.variant != "tutorial":
                if state.phase() not in ("turn", "repel", "polarize"):
                    raise QuarkadeError(f"--moves: the position is in its {state.phase()} "
                                        "phase; the solver reads positions after the opening")
                _solve_classic(state, table_bits)
                return
            if state.phase() != "turn":
                raise QuarkadeError(f"--moves: the position is in its {state.phase()} phase; "
                                    "the solver reads positions where a seat takes its turn")
            _solve_position(state, table_bits)
            return
    from quarkade.games.card_commons.solve.book import build_book, solve_openings
    from quarkade.games.card_commons.solve.tutorial import TutorialSolver

    torus = bool(loaded.options["torus"])
    where = book or Path(f"card-commons-tutorial{'-torus' if torus else ''}.json")
    field = "torus" if torus else "flat field"
    which = "the 32 openings" if only is None else \
        f"the openings of {', '.join(sorted(only))} and their images"
    console.print(f"Card Commons, Tutorial game, {field}: solving {which} "
                  f"(table 2^{table_bits} positions)", markup=False)
    from quarkade.games.card_commons.solve.ledger import Ledger

    kept = ledger or where.with_name(where.name.removesuffix(".json") + ".ledger.json")
    with user_errors():
        try:
            shared = Ledger(kept, torus=torus)
        except (ValueError, OSError) as problem:
            raise QuarkadeError(f"--ledger {kept}: {problem}") from None
    if shared.positions:
        console.print(f"resuming from {kept}: {len(shared.positions):,} positions settled",
                      markup=False)
    solver = TutorialSolver(torus=torus, table_bits=table_bits, ledger=shared)
    start = time.perf_counter()
    pool = _pool(workers, ray)

    def report(opening: Any) -> None:
        if opening.group in groups_seen or not opening.value:
            return  # an image of a class already reported, or a class not asked for
        groups_seen.add(opening.group)
        how = f"{opening.nodes:,} nodes, {opening.seconds:.1f} s" if opening.nodes else \
            f"settled in {kept}"
        console.print(f"  {opening.card} {opening.cell}: the first mover "
                      f"{'wins' if opening.value == 'win' else 'loses'} ({how})",
                      markup=False)

    groups_seen: set[int] = set()

    def step(line: str) -> None:
        if verbose:
            console.print(f"    {line}", markup=False, soft_wrap=True)

    try:
        rows = solve_openings(solver, report, step, only, pool)
    finally:
        if pool is not None:
            pool.close()
    solved = time.perf_counter() - start
    table = Table("opening", "cells", "first mover", "a winning first move", "nodes",
                  "seconds", show_edge=False)
    groups: dict[int, list[Any]] = {}
    for row in rows:
        groups.setdefault(row.group, []).append(row)
    by_card: dict[tuple[str, int], list[str]] = {}
    for row in rows:
        by_card.setdefault((row.card, row.group), []).append(row.cell)
    for (card, group), cells in by_card.items():
        first = rows[group]
        own = first.card == card and first.cell in cells
        verdict = {"win": "wins", "loss": "loses"}.get(first.value, "not solved")
        table.add_row(card, " ".join(cells), verdict,
                      first.first_move if own else "",
                      _work(first, f"{first.nodes:,}") if own else
                      f"= {first.card} {first.cell}",
                      _work(first, f"{first.seconds:.1f}") if own else "")
    console.print(table)
    nodes = sum(r.nodes for r in rows)
    settled = len({row.group for row in rows if row.value})
    console.print(f"{len(groups)} classes of openings, {settled} solved, {nodes:,} nodes, "
                  f"{solved:.1f} s", markup=False)
    book_start = time.perf_counter()
    opening_book = build_book(solver, rows, plies)
    opening_book.save(where)
    console.print(f"book: {len(opening_book.positions):,} positions, {plies} plies deep, "
                  f"{where.stat().st_size:,} bytes, written to {where} "
                  f"({time.perf_counter() - book_start:.1f} s)", markup=False)


def _work(row: Any, figure: str) -> str:
    """A solved class's nodes or seconds; "ledger" where the ledger settled it before."""
    if not row.value:
        return ""
    return figure if row.nodes else "ledger"


def _pool(workers: int, ray: str | None) -> Any:
    """Where the top-level positions are searched: None (here), local processes or Ray."""
    from quarkade.sim.backends import LocalPool, RayPool

    if ray is not None:
        with user_errors():
            return RayPool(None if ray == "local" else ray)
    return LocalPool(workers) if workers > 1 else None


def _solve_position(state: Any, table_bits: int) -> None:
    """Print the value of one Tutorial position and every winning move."""
    from quarkade.games.card_commons.solve.tutorial import (
        WIN,
        TutorialSolver,
        action_of,
        position_of,
    )

    solver = TutorialSolver(torus=bool(state.game.options["torus"]), table_bits=table_bits)
    position = position_of(state)
    seat = state.current_player()
    result = solver.value(position)
    verdict = "wins" if result.value == WIN else "loses"
    console.print(f"seat {seat} to move {verdict} with best play ({result.nodes:,} nodes, "
                  f"{result.seconds:.2f} s)", markup=False)
    winners = solver.winning_moves(position) or []
    texts = sorted(state.action_to_string(action_of(m, d)) for m, d in winners)
    console.print(f"winning moves ({len(texts)}): {', '.join(texts) or 'none'}", markup=False)


def _solve_classic(state: Any, table_bits: int) -> None:
    """Print the value of one Classic position and every winning action (the search has
    no budget: a position far from the end can take very long)."""
    from quarkade.games.card_commons.solve.puzzles import Exact

    exact = Exact(table_bits=table_bits, budget=0)
    seat = state.current_player()
    start = time.perf_counter()
    wins = exact.wins(state, seat)
    winners = exact.winning_actions(state) if wins else []
    console.print(f"seat {seat} to move {'wins' if wins else 'loses'} with best play "
                  f"({time.perf_counter() - start:.2f} s)", markup=False)
    texts = [state.action_to_string(action) for action in winners]
    console.print(f"winning moves ({len(texts)}): {', '.join(texts) or 'none'}", markup=False)
