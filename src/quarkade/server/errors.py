"""The one error the server's layers raise for bad requests: a status code and a reason."""

from __future__ import annotations


class ApiError(Exception):
    """A request the server refuses (a 4xx); nothing was changed.

    The message says what was wrong and, where it can, what is allowed.
    """

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
