"""Queries about ratings: a subject's rating per game and player count, applying a rated
game once, the leaderboard, and each subject's history.

A subject is a player id, or ``bot:LEVEL`` for a bot level (whose rating is a fixed
anchor, never stored). Like ``Store``'s, every method blocks (call through ``Store.run``).
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Connection, Engine

from quarkade.server.storage.tables import (
    game_hints_table,
    games_table,
    players_table,
    rating_changes_table,
    ratings_table,
    seats_table,
)

Rating = tuple[float, float]  # mu, sigma
BOT = "bot:"  # a bot level's subject: bot:easy, bot:medium, bot:hard
# Given the people's stored ratings by seat (None: not rated yet), every seat's rating
# before and after the game (the caller's model; bot seats keep their anchors).
Rater = Callable[[dict[int, Rating | None]], tuple[dict[int, Rating], dict[int, Rating]]]


@dataclass(frozen=True)
class RatingPlan:
    """How a rated game that ends is rated: its game and player count, each seat's subject
    (a player id, or ``bot:LEVEL``), the rater (the model, given the finish) and how
    pages show a rating."""

    game: str
    players: int
    subjects: dict[int, str]
    rater: Rater
    shown: Callable[[Rating], float]


class RatingQueries:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def ratings(self, subjects: list[str], game: str, players: int
                ) -> dict[str, tuple[float, float, int]]:
        """``{subject: (mu, sigma, games)}`` for the subjects rated in this game and count."""
        if not subjects:
            return {}
        with self.engine.connect() as db:
            rows = db.execute(select(ratings_table).where(
                ratings_table.c.subject.in_(subjects), ratings_table.c.game == game,
                ratings_table.c.players == players)).all()
        return {r.subject: (r.mu, r.sigma, r.games) for r in rows}

    def apply(self, game_id: str, plan: RatingPlan, now: float) -> list[dict[str, Any]] | None:
        """Rate game ``game_id`` once, if it is pending (a game an older process ended
        and left so): its ``rating_state`` goes from pending to done in the same
        transaction. The changes, or None if another process rated it or it is not
        pending."""
        with self.engine.begin() as db:
            claimed = db.execute(update(games_table).where(
                games_table.c.id == game_id, games_table.c.rating_state == "pending",
                games_table.c.rated.is_(True)).values(rating_state="done")).rowcount
            if not claimed:
                return None
            return self.apply_in(db, game_id, plan, now)

    @staticmethod
    def apply_in(db: Connection, game_id: str, plan: RatingPlan, now: float
                 ) -> list[dict[str, Any]] | None:
        """Rate game ``game_id`` inside transaction ``db`` (the one that ends it, or the
        claim of a pending one): every person's new rating and each seat's change, the
        game marked done. A game where a seat asked for a hint (RULINGS S-5), or made
        unrated meanwhile (``GameQueries.set_unrated``), is left unrated instead (None)."""
        hinted = db.execute(select(game_hints_table.c.seat).where(
            game_hints_table.c.game_id == game_id).limit(1)).first()
        still_rated = db.execute(select(games_table.c.rated).where(
            games_table.c.id == game_id)).scalar()
        if hinted is not None or not still_rated:
            db.execute(update(games_table).where(games_table.c.id == game_id).values(
                rated=False, rating_state="none"))
            return None
        db.execute(update(games_table).where(games_table.c.id == game_id).values(
            rating_state="done"))
        subjects, game, players = plan.subjects, plan.game, plan.players
        people = sorted({s for s in subjects.values() if not s.startswith(BOT)})
        rows = {r.subject: r for r in db.execute(select(ratings_table).where(
            ratings_table.c.subject.in_(people), ratings_table.c.game == game,
            ratings_table.c.players == players).with_for_update()).all()}
        stored = {seat: (rows[s].mu, rows[s].sigma) if s in rows else None
                  for seat, s in subjects.items() if not s.startswith(BOT)}
        before, after = plan.rater(stored)
        for seat, subject in subjects.items():
            if subject.startswith(BOT):
                continue  # an anchor: never changes
            mu, sigma = after[seat]
            if subject in rows:
                db.execute(update(ratings_table).where(
                    ratings_table.c.subject == subject, ratings_table.c.game == game,
                    ratings_table.c.players == players).values(
                    mu=mu, sigma=sigma, games=ratings_table.c.games + 1, updated=now))
            else:
                db.execute(insert(ratings_table).values(
                    subject=subject, game=game, players=players, mu=mu, sigma=sigma,
                    games=1, updated=now))
        changes = []
        for seat, new in sorted(after.items()):
            db.execute(insert(rating_changes_table).values(
                game_id=game_id, seat=seat, subject=subjects[seat],
                game=game, players=players, before=plan.shown(before[seat]),
                after=plan.shown(new), at=now))
            changes.append({"seat": seat, "before": round(plan.shown(before[seat])),
                            "after": round(plan.shown(new))})
        return changes

    def changes_for_game(self, game_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as db:
            rows = db.execute(select(rating_changes_table).where(
                rating_changes_table.c.game_id == game_id)
                .order_by(rating_changes_table.c.seat)).all()
        return [{"seat": r.seat, "before": round(r.before), "after": round(r.after)}
                for r in rows]

    def history(self, subject: str) -> list[dict[str, Any]]:
        """Every rated game of ``subject``, oldest first: its rating before and after,
        the game's seats (their names are worked out by ``play.names``) and
        ``subject``'s, and the result for ``subject`` (``won``, ``lost``,
        ``draw``, ``shared win``); the game's id only for a public game."""
        query = select(rating_changes_table, games_table.c.visibility,
                       games_table.c.outcome).join(
            games_table, games_table.c.id == rating_changes_table.c.game_id).where(
            rating_changes_table.c.subject == subject).order_by(rating_changes_table.c.at)
        with self.engine.connect() as db:
            rows = db.execute(query).all()
            ids = list({r.game_id for r in rows})
            seats = db.execute(select(seats_table.c.game_id, seats_table.c.seat,
                                      seats_table.c.name, seats_table.c.player_id,
                                      seats_table.c.kind, seats_table.c.agent,
                                      seats_table.c.joined, seats_table.c.replaced)
                               .where(seats_table.c.game_id.in_(ids))
                               .order_by(seats_table.c.seat)).all() if ids else []
        by_game: dict[str, list[Any]] = {}
        for seat in seats:
            by_game.setdefault(seat.game_id, []).append(seat)
        found = []
        for r in rows:
            table = by_game.get(r.game_id, [])
            mine = [s.seat for s in table if s.player_id == subject]
            outcome = json.loads(r.outcome) if r.outcome else {}
            winners = outcome.get("winners", [])
            result = ("draw" if outcome.get("result") == "draw"
                      else "shared win" if mine and mine[0] in winners and len(winners) > 1
                      else "won" if mine and mine[0] in winners else "lost")
            found.append({"game": r.game, "players": r.players, "before": round(r.before),
                          "after": round(r.after), "at": r.at, "result": result,
                          "seats": [dict(s._mapping) for s in table],
                          "mine": mine[0] if mine else None,
                          "game_id": r.game_id if r.visibility == "public" else None})
        return found

    def leaderboard(self, game: str, players: int, limit: int = 100) -> list[dict[str, Any]]:
        """People rated in ``game`` with ``players`` players: name, mu, sigma, games."""
        query = select(ratings_table, players_table.c.name).join(
            players_table, players_table.c.id == ratings_table.c.subject).where(
            ratings_table.c.game == game, ratings_table.c.players == players)
        with self.engine.connect() as db:
            rows = db.execute(query).all()
        return [{"name": r.name, "mu": r.mu, "sigma": r.sigma, "games": r.games}
                for r in rows][: limit * 10]

    def player_ratings(self, subject: str) -> list[dict[str, Any]]:
        with self.engine.connect() as db:
            rows = db.execute(select(ratings_table).where(
                ratings_table.c.subject == subject).order_by(
                ratings_table.c.game, ratings_table.c.players)).all()
        return [{"game": r.game, "players": r.players, "mu": r.mu, "sigma": r.sigma,
                 "games": r.games} for r in rows]

