"""The terminal's two consoles and the rule for bad input, shared by every command."""

from __future__ import annotations

import math
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated

import typer
from rich.console import Console

from quarkade.core.errors import QuarkadeError

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False)


@contextmanager
def user_errors() -> Iterator[None]:
    """Bad input ends the command with one line on stderr and exit code 2, not a traceback."""
    try:
        yield
    except QuarkadeError as problem:
        errors.print(f"error: {problem}", markup=False, soft_wrap=True)
        raise typer.Exit(2) from None


MoveTimeOpt = Annotated[float, typer.Option(
    help="Seconds a plug-in bot has for each move; one that takes longer is stopped and its "
    "seat plays random (the result is flagged).")]


def check_move_time(seconds: float) -> None:
    if not (math.isfinite(seconds) and seconds > 0):
        raise QuarkadeError(f"--move-time {seconds}: give a number of seconds above 0, "
                            "e.g. --move-time 5")
