"""The terminal's two consoles and the rule for bad input, shared by every command."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager

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
