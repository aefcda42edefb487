"""What the learning features keep in the database, beside the games.

- ``learn_progress``: the lessons each learner has finished (a learner is a signed-in
  player, ``player:<id>``, else a device, by the digest of its id; ``LearnQueries`` is a
  ``ProgressStore``, so the tutorials never know which);
- ``learn_finals``: the real game a learner started as a tutorial's last lesson;
- ``game_hints``: the seats of a game that asked for a hint (such a game is never rated);
- ``game_reviews``: finished reviews, cached with their game (per viewer: a seat, or
  ``all`` where every seat sees everything).

The tables are in ``storage/tables.py`` and made by migration 0004. The queries are
plain and synchronous: the routes run them on the store's thread pool (``Store.run``).
"""

from __future__ import annotations

import contextlib
import json
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import delete, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

from quarkade.learn.progress import ProgressStore
from quarkade.server.storage.tables import game_hints_table as hints_table
from quarkade.server.storage.tables import game_reviews_table as reviews_table
from quarkade.server.storage.tables import learn_finals_table as finals_table
from quarkade.server.storage.tables import learn_progress_table as progress_table


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


class LearnQueries(ProgressStore):
    """Progress, final games, hint flags and cached reviews, on the server's engine."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- progress ---------------------------------------------------------------------------

    def completed(self, learner: str, game: str) -> set[str]:
        with self.engine.connect() as db:
            rows = db.execute(select(progress_table.c.lesson).where(
                progress_table.c.learner == learner, progress_table.c.game == game)).scalars()
            return set(rows)

    def complete(self, learner: str, game: str, lesson: str) -> None:
        try:
            with self.engine.begin() as db:
                db.execute(insert(progress_table).values(learner=learner, game=game,
                                                         lesson=lesson, done=_now()))
        except IntegrityError:
            pass  # finished before: nothing to add

    def reset(self, learner: str, game: str) -> None:
        with self.engine.begin() as db:
            db.execute(delete(progress_table).where(progress_table.c.learner == learner,
                                                    progress_table.c.game == game))
            db.execute(delete(finals_table).where(finals_table.c.learner == learner,
                                                  finals_table.c.game == game))

    def adopt(self, device: str, learner: str) -> None:
        """What ``device`` learned before a player signed in on it becomes ``learner``'s
        (lessons the player finished already stay as they were; a final game the player
        has already stays too); the device keeps nothing, so this happens once."""
        with contextlib.suppress(IntegrityError):  # another request adopted it just now
            self._adopt(device, learner)

    def _adopt(self, device: str, learner: str) -> None:
        with self.engine.begin() as db:
            lessons = db.execute(select(progress_table).where(
                progress_table.c.learner == device)).all()
            finals = db.execute(select(finals_table).where(
                finals_table.c.learner == device)).all()
            if not lessons and not finals:
                return
            have = {(row.game, row.lesson) for row in db.execute(select(progress_table).where(
                progress_table.c.learner == learner))}
            new_lessons = [{"learner": learner, "game": row.game, "lesson": row.lesson,
                            "done": row.done} for row in lessons
                           if (row.game, row.lesson) not in have]
            if new_lessons:
                db.execute(insert(progress_table), new_lessons)
            have_finals = set(db.execute(select(finals_table.c.game).where(
                finals_table.c.learner == learner)).scalars())
            new_finals = [{"learner": learner, "game": row.game, "game_id": row.game_id}
                          for row in finals if row.game not in have_finals]
            if new_finals:
                db.execute(insert(finals_table), new_finals)
            for table in (progress_table, finals_table):
                db.execute(delete(table).where(table.c.learner == device))

    # -- the final lesson's game ----------------------------------------------------------

    def final_game(self, learner: str, game: str) -> str | None:
        with self.engine.connect() as db:
            found: str | None = db.execute(select(finals_table.c.game_id).where(
                finals_table.c.learner == learner, finals_table.c.game == game)).scalar()
            return found

    def set_final_game(self, learner: str, game: str, game_id: str) -> None:
        with self.engine.begin() as db:
            db.execute(delete(finals_table).where(finals_table.c.learner == learner,
                                                  finals_table.c.game == game))
            db.execute(insert(finals_table).values(learner=learner, game=game,
                                                   game_id=game_id))

    # -- hints ------------------------------------------------------------------------------

    def hinted(self, game_id: str) -> list[int]:
        """The seats of the game that asked for a hint (sorted)."""
        with self.engine.connect() as db:
            return sorted(db.execute(select(hints_table.c.seat).where(
                hints_table.c.game_id == game_id)).scalars())

    def mark_hinted(self, game_id: str, seat: int) -> None:
        try:
            with self.engine.begin() as db:
                db.execute(insert(hints_table).values(game_id=game_id, seat=seat,
                                                      first=_now()))
        except IntegrityError:
            pass  # already flagged

    # -- reviews ----------------------------------------------------------------------------

    def review(self, game_id: str, viewer: str) -> dict[str, Any] | None:
        with self.engine.connect() as db:
            text = db.execute(select(reviews_table.c.review).where(
                reviews_table.c.game_id == game_id, reviews_table.c.viewer == viewer)).scalar()
        return None if text is None else dict(json.loads(text))

    def save_review(self, game_id: str, viewer: str, review: dict[str, Any]) -> None:
        try:
            with self.engine.begin() as db:
                db.execute(insert(reviews_table).values(game_id=game_id, viewer=viewer,
                                                        review=json.dumps(review),
                                                        created=_now()))
        except IntegrityError:
            pass  # another request finished the same review first
