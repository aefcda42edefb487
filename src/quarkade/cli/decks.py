"""``quarkade deck-test``: a deck played against each preset, as "Test this deck" on the
web plays it (``quarkade.sim.decktest``), on the compiled engine when it can."""

from __future__ import annotations

import os
import time
from typing import Annotated

import typer
from rich.table import Table

from quarkade.cli.output import console, errors, user_errors
from quarkade.cli.simulate import ENGINE_NAMES, EngineOpt
from quarkade.core.errors import QuarkadeError
from quarkade.sim.decktest import DeckScore, decks_of, run_deck_test


def deck_test(
    deck: Annotated[str, typer.Argument(
        help="The deck: word counts such as \"kiki 3, bouba 4, lulu 3 | ...\" or a preset.")],
    game: Annotated[str, typer.Option(help="The game whose decks these are.")] = "decoherence",
    games: Annotated[int, typer.Option(
        help="Games against each preset, half with the deck at each seat.")] = 2000,
    agent: Annotated[str | None, typer.Option(
        help="The bot at both seats (default: the game's test bot).")] = None,
    workers: Annotated[int | None, typer.Option(
        help="Local worker processes (default: one per core).")] = None,
    engine: EngineOpt = "auto",
) -> None:
    """Test a deck: its win rate against each preset, with 95% intervals, beside each
    preset's own strength."""
    with user_errors():
        decks = decks_of(game)
        if workers is not None and workers < 1:
            raise QuarkadeError(f"--workers {workers}: use at least one worker")
        started = time.perf_counter()
        scores = run_deck_test(game, deck, games, workers or os.cpu_count() or 1, engine,
                               agent)
        seconds = time.perf_counter() - started
    bot = agent or decks.TEST_AGENT
    table = Table("against", "games", "wins", "draws", "win rate [95% CI]",
                  "the preset's own strength", title=f"Testing {deck} ({bot} at both seats)",
                  title_justify="left", show_edge=False)
    for preset, score in scores.items():
        strength = decks.PRESET_STRENGTH.get(preset)
        table.add_row("every preset" if preset == "all" else preset, f"{score.games:,}",
                      f"{score.wins:,}", f"{score.draws:,}", _rate(score),
                      "" if strength is None else
                      f"{100 * strength[0]:.1f}% [{100 * strength[1]:.1f}, "
                      f"{100 * strength[2]:.1f}]")
    console.print(table)
    total = scores["all"]
    engines = ", ".join(ENGINE_NAMES[e] for e in sorted(total.engines))
    errors.print(f"{total.games:,} games in {seconds:.1f} s ({engines})", markup=False)


def _rate(score: DeckScore) -> str:
    low, high = score.interval
    return f"{100 * score.rate:.1f}% [{100 * low:.1f}, {100 * high:.1f}]"
