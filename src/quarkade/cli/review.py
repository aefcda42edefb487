"""``quarkade review RECORD``: a finished game's decisions judged by search, in the terminal.

A full record (``quarkade play --record``, the simulator) holds every card, so each seat's
decisions may be reviewed, each from that seat's own information (``quarkade.learn.review``).
By default the people's seats are reviewed, or every seat of a game among bots. A record
downloaded from the web app for one seat hides the others' cards and cannot be replayed
here: its review is on the game's page (``/games/<id>/review``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.progress import Progress
from rich.table import Table

from quarkade.cli.output import console, errors, user_errors
from quarkade.core.protocol import SPECTATOR
from quarkade.core.records import GameRecord
from quarkade.core.registry import load_game
from quarkade.learn.review import MARKS, Budget, Review, ReviewError, review_game

SPARKS = "▁▂▃▄▅▆▇█"
PLURALS = {"blunder": "blunders", "mistake": "mistakes", "inaccuracy": "inaccuracies"}


def review(
    file: Annotated[Path, typer.Argument(help="A finished game's full record (--record).")],
    seat: Annotated[list[int] | None, typer.Option(
        "--seat", "-s", help="Review this seat (repeatable); default: the people's seats, "
        "or every seat of a game among bots.")] = None,
    seconds: Annotated[float, typer.Option(
        help="Search time for the whole review, spread over its decisions.")] = 40.0,
    seed: Annotated[int, typer.Option(help="Seed for the search.")] = 0,
    image: Annotated[Path | None, typer.Option(
        help="Also draw the win-chance graph into this PNG (needs quarkade[sim]).")] = None,
    save: Annotated[Path | None, typer.Option(
        "--json", help="Also save the review as JSON here.")] = None,
) -> None:
    """Review a finished game: win chances before and after each decision, the best move,
    and inaccuracies, mistakes and blunders."""
    with user_errors():
        if seconds <= 0:
            raise ReviewError(f"--seconds {seconds}: the review needs some time, e.g. 40")
        record = GameRecord.load(file)
        if any(action.id < 0 for action in record.actions):
            raise ReviewError(f"{file} was saved for one seat and hides the other seats' "
                              "cards, so it cannot be replayed; review the game on its web "
                              "page (/games/<id>/review) or use a full record")
        final = record.replay()
        game = load_game(record.game, **record.options)
        seats_all = list(range(game.num_players))
        if seat:
            bad = [s for s in seat if s not in seats_all]
            if bad:
                raise ReviewError(f"--seat {bad[0]}: seats are 0-{game.num_players - 1}")
            chosen = sorted(set(seat))
        else:
            people = [s for s, who in enumerate(record.seats) if who.agent == "human"]
            chosen = people or seats_all
        if not final.is_terminal():
            raise ReviewError("this game is not finished: a review needs a finished game")
    names = [who.name for who in record.seats]
    with Progress(console=console, transient=True) as bar:
        task = bar.add_task("reviewing", total=None)

        def advance(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        found = review_game(game, final.history(), chosen,
                            viewer=chosen[0] if len(chosen) == 1 else SPECTATOR, names=names,
                            budget=Budget(total=seconds), seed=seed, progress=advance)
    show(found)
    if save is not None:
        save.write_text(json.dumps(found.as_json(), indent=1) + "\n", encoding="utf-8")
        console.print(f"review saved to {save}")
    if image is not None:
        try:
            draw_graph(found, image)
        except ModuleNotFoundError as missing:
            errors.print(f"error: --image needs matplotlib ({missing.name} is missing): "
                         "pip install 'quarkade[sim]'", markup=False, soft_wrap=True)
            raise typer.Exit(2) from None
        console.print(f"graph saved to {image}")


def show(found: Review) -> None:
    """The review as a table, a graph line per seat and a summary."""
    names = found.names
    table = Table("step", "seat", "move", "before", "after", "best move", "mark",
                  show_edge=False)
    for d in found.decisions:
        if d.forced:
            table.add_row(str(d.step), names[d.seat], d.move, "", "", "(only move)", "")
            continue
        assert d.before is not None and d.after is not None
        mark = d.mark or ""
        style = {"blunder": "bold red", "mistake": "red", "inaccuracy": "yellow"}.get(mark, "")
        best = "" if not d.loss else f"{d.best} ({d.before:.0%})"
        table.add_row(str(d.step), names[d.seat], d.move, f"{d.before:.0%}", f"{d.after:.0%}",
                      best, f"[{style}]{mark}[/{style}]" if mark else "")
    console.print(table)
    console.print("win chance after each move (low to high):")
    for seat, points in found.graph().items():
        line = "".join(SPARKS[min(len(SPARKS) - 1, int(chance * len(SPARKS)))]
                       for _, chance in points)
        console.print(f"  {names[int(seat)]:<12} {line}", markup=False)
    for seat, counts in found.summary().items():
        marks = ", ".join(f"{counts[name]} {name if counts[name] == 1 else PLURALS[name]}"
                          for name, _ in MARKS)
        console.print(f"{names[int(seat)]}: {counts['decisions']} decisions judged, {marks}, "
                      f"mean loss {counts['mean_loss']:.0%}", markup=False)
    limits = ", ".join(f"{name} {least:.0%}" for name, least in MARKS)
    console.print(f"[dim]marks by win-chance lost: {limits} or more[/dim]", highlight=False)


def draw_graph(found: Review, path: Path) -> None:
    """The win-chance graph as a PNG (matplotlib, the ``sim`` extra)."""
    import matplotlib

    matplotlib.use("Agg")
    from matplotlib import pyplot

    figure, axes = pyplot.subplots(figsize=(8, 3))
    for seat, points in found.graph().items():
        axes.plot([step for step, _ in points], [chance for _, chance in points],
                  marker="o", markersize=3, label=found.names[int(seat)])
    for d in found.decisions:
        if d.mark and d.after is not None:
            axes.annotate(d.mark[0].upper(), (d.step, d.after), color="red", fontsize=8,
                          xytext=(0, 6), textcoords="offset points", ha="center")
    axes.set_ylim(0, 1)
    axes.set_xlabel("step")
    axes.set_ylabel("win chance")
    axes.axhline(0.5, color="grey", linewidth=0.5)
    axes.legend(loc="upper left", fontsize=8)
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    pyplot.close(figure)
