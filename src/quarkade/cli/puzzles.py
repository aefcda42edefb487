"""``quarkade puzzles``: Card Commons positions with exactly one winning move, from games.

The mining is ``quarkade.learn.puzzles``; this module reads the command line and prints the
puzzles as a table or, with ``--json``, as a JSON list.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress, TimeElapsedColumn
from rich.table import Table

from quarkade.cli.output import console, errors, user_errors
from quarkade.core.errors import QuarkadeError

VARIANTS = ("classic", "tutorial")


def puzzles(
    game: Annotated[str, typer.Argument(help="The game: card-commons.")],
    count: Annotated[int, typer.Option(help="How many puzzles (1-500).")] = 10,
    variant: Annotated[str, typer.Option(
        help="The rules: tutorial (quick to prove) or classic (slower: its positions "
        "take longer searches, and fewer of its games give a puzzle).")] = "tutorial",
    torus: Annotated[bool, typer.Option(help="Play on the torus field.")] = False,
    max_empty: Annotated[int, typer.Option(
        help="Only positions with at most this many empty cells (1-12).")] = 8,
    seed: Annotated[int, typer.Option(help="The first self-play game's seed.")] = 0,
    as_json: Annotated[bool, typer.Option(
        "--json", help="Print a JSON list of puzzles: variant, torus, moves (from the "
        "start, as quarkade solve --moves takes them), solution, empty, themes.")] = False,
    pool: Annotated[Path | None, typer.Option(
        help="Also write the puzzles to this file for the web's /puzzles page, each with "
        "the answer to every move along its solution (the reply that beats a wrong one); "
        "quarkade serve --puzzles reads it.")] = None,
) -> None:
    """Puzzles from bot self-play: the seat to move wins with exactly one move (proven by
    the exact solver), with the solution against the best defence. The progress bar goes
    to stderr, so --json output can be piped."""
    with user_errors():
        if game != "card-commons":
            raise QuarkadeError(f"no puzzles for {game!r}; puzzles are mined for card-commons")
        if variant not in VARIANTS:
            raise QuarkadeError(f"--variant {variant!r}: {' or '.join(VARIANTS)} allowed")
        if not 1 <= count <= 500:
            raise QuarkadeError(f"--count {count}: 1-500 allowed")
        if not 1 <= max_empty <= 12:
            raise QuarkadeError(f"--max-empty {max_empty}: 1-12 allowed")
        if pool is not None and not pool.parent.is_dir():
            raise QuarkadeError(f"--pool {pool}: no folder {str(pool.parent)!r} to write in")
        from quarkade.games.card_commons.solve.jit import require

        require()
    from quarkade.learn.puzzles import mine

    with Progress(*Progress.get_default_columns(), TimeElapsedColumn(), console=errors,
                  transient=True) as bar:
        task = bar.add_task("mining self-play games", total=count)

        def progress(games: int, found: int) -> None:
            bar.update(task, completed=found,
                       description=f"{games} self-play games, {found} puzzles")

        found = list(mine(count, variant, torus, max_empty, seed, progress,
                          studied=pool is not None))
    if pool is not None:
        pool.write_text(json.dumps([puzzle.as_json() for puzzle in found], indent=1) + "\n")
    if as_json:
        typer.echo(json.dumps([{key: value for key, value in puzzle.as_json().items()
                                if key != "steps"} for puzzle in found], indent=1))
        return
    table = Table("empty cells", "solution", "themes", "moves to the position",
                  show_edge=False)
    for puzzle in found:
        table.add_row(str(puzzle.empty), ", ".join(puzzle.solution),
                      ", ".join(puzzle.themes), ", ".join(puzzle.moves))
    console.print(table)
    if len(found) < count:
        console.print(f"only {len(found)} puzzles: the self-play games stopped giving new "
                      "ones (try a larger --max-empty or another --seed)", markup=False)
