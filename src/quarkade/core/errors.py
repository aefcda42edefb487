"""The errors every face of Quarkade catches and shows to a person.

All of them are ``ValueError`` subclasses, so code that only cares "was the input bad?"
can catch one type. Each message says what was wrong and what would have been allowed.
"""

from __future__ import annotations


class QuarkadeError(ValueError):
    """Base class for bad input anywhere in Quarkade."""


class GameOptionError(QuarkadeError):
    """An unknown game, an unknown option, or an option value out of range."""


class IllegalActionError(QuarkadeError):
    """An action that is not legal in the current state; the state is left unchanged."""


class NotationError(IllegalActionError):
    """Text that names no legal action (unknown, malformed or ambiguous notation)."""


class RecordError(QuarkadeError):
    """A game record that is malformed or stops replaying; says at which step and why."""

    def __init__(self, message: str, step: int | None = None) -> None:
        self.step = step
        if step is not None:
            message = f"step {step}: {message}"
        super().__init__(message)


class AgentSpecError(QuarkadeError):
    """An agent spec such as ``mcts:iterations=x`` that names no agent or has a bad parameter."""
