"""Which lessons a learner has finished, behind one small interface.

A learner is a key: in the terminal ``"local"`` (the person at this computer), on the web a
device id until players have accounts. ``ProgressStore`` is what the faces use;
``FileProgress`` keeps it in a JSON file under the user's data directory (the terminal), and
the web app keeps it in its database (``quarkade.server``) behind the same interface.
"""

from __future__ import annotations

import json
import os
from abc import ABC, abstractmethod
from pathlib import Path

from quarkade.core.errors import QuarkadeError
from quarkade.core.lessons import Lesson, Tutorial

FORMAT = "quarkade-progress/1"


class ProgressStore(ABC):
    """Finished lessons per learner and game."""

    @abstractmethod
    def completed(self, learner: str, game: str) -> set[str]:
        """The keys of the lessons of ``game`` that ``learner`` has finished."""

    @abstractmethod
    def complete(self, learner: str, game: str, lesson: str) -> None:
        """Remember that ``learner`` finished ``lesson`` of ``game``."""

    @abstractmethod
    def reset(self, learner: str, game: str) -> None:
        """Forget ``learner``'s progress in ``game``."""


def next_lesson(course: Tutorial, done: set[str]) -> Lesson | None:
    """The first lesson not finished yet, in the tutorial's order (None: all done)."""
    return next((lesson for lesson in course.lessons if lesson.key not in done), None)


def data_dir() -> Path:
    """Where Quarkade keeps a user's files: ``$QUARKADE_DATA``, else the XDG data
    directory (``~/.local/share/quarkade``), or ``%APPDATA%\\quarkade`` on Windows."""
    if os.environ.get("QUARKADE_DATA"):
        return Path(os.environ["QUARKADE_DATA"])
    if os.name == "nt" and os.environ.get("APPDATA"):
        return Path(os.environ["APPDATA"]) / "quarkade"
    base = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(base) / "quarkade"


class FileProgress(ProgressStore):
    """Progress in one small JSON file (``learn.json`` in ``data_dir()`` by default)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or data_dir() / "learn.json"

    def completed(self, learner: str, game: str) -> set[str]:
        return set(self._read().get(learner, {}).get(game, []))

    def complete(self, learner: str, game: str, lesson: str) -> None:
        data = self._read()
        done = data.setdefault(learner, {}).setdefault(game, [])
        if lesson not in done:
            done.append(lesson)
            self._write(data)

    def reset(self, learner: str, game: str) -> None:
        data = self._read()
        if data.get(learner, {}).pop(game, None) is not None:
            self._write(data)

    def _read(self) -> dict[str, dict[str, list[str]]]:
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return {}
        except OSError as problem:
            raise QuarkadeError(f"cannot read {self.path}: {problem.strerror}") from None
        try:
            data = json.loads(text)
            learners = data["learners"] if data.get("format") == FORMAT else None
        except (ValueError, TypeError, KeyError, AttributeError):
            learners = None
        if not isinstance(learners, dict):
            raise QuarkadeError(f"{self.path} is not a Quarkade progress file "
                                f"({FORMAT}); move it away to start afresh")
        return {str(learner): {str(game): [str(key) for key in keys]
                               for game, keys in games.items()}
                for learner, games in learners.items() if isinstance(games, dict)}

    def _write(self, learners: dict[str, dict[str, list[str]]]) -> None:
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            temporary = self.path.with_suffix(".tmp")
            temporary.write_text(json.dumps({"format": FORMAT, "learners": learners},
                                            indent=1) + "\n", encoding="utf-8")
            temporary.replace(self.path)
        except OSError as problem:
            raise QuarkadeError(f"cannot save progress to {self.path}: "
                                f"{problem.strerror}") from None
