"""Ratings: per game and player count, for people and for bot levels (the model is
``skill``: OpenSkill, anchors, eligibility).

A game's ``rated`` flag is set when it begins (``play.rated.eligible``, by the session).
Anything that makes it unfit later (a hint asked for: issue 19) calls
``GameQueries.set_unrated`` or adds a check to ``vetoes``; an abort is never rated. The
finish order: the winners first (tied), everyone else next (tied); a seat a bot took over
after its person resigned, ran out of time or abandoned finishes last (docs/RULINGS.md
S-2).

A game's ratings are applied once, by whichever process sees it end first
(``rating_state`` pending -> done in the same transaction): ``Ratings`` listens for the
session's ``Finished`` event; a process starting up loads the games left pending, which
emit it again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from quarkade.agents.registry import LEVEL_NAMES
from quarkade.server.context import Context
from quarkade.server.people.skill import (
    ANCHORS,
    CENTRE,
    SCALE,
    anchor,
    conservative,
    rate,
    shown,
)
from quarkade.server.play import seats as seating
from quarkade.server.play.events import Finished
from quarkade.server.play.rated import level
from quarkade.server.play.session import GameSession
from quarkade.server.storage import Store, Unavailable
from quarkade.server.storage.ratings import BOT

log = logging.getLogger("quarkade.server")


def ranks(session: GameSession) -> list[int]:
    """Each seat's place: winners 1, others 2, a seat a bot took over from its person
    last."""
    outcome = session.outcome() or {}
    winners = set(outcome.get("winners", []))
    places = [1 if seat in winners else 2 for seat in range(session.game.num_players)]
    for s in session.seats:
        if s.replaced:
            places[s.seat] = 3
    return places


class Ratings:
    """Rating games once they end, and reading ratings for pages."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.store = ctx.store
        self.queries = ctx.store.ratings
        # More reasons a finished game is not rated: async (store, game id) -> True to veto.
        self.vetoes: list[Callable[[Store, str], Awaitable[bool]]] = []
        ctx.events.on(Finished, self.finished)

    async def finished(self, event: Finished[GameSession]) -> None:
        """``event.session`` is over and due its ratings: rate it (once, across
        processes) and show the changes."""
        session = event.session
        if session.times.rating_state != "pending":
            return
        try:
            await self.apply(session, self.ctx.clock.time())
        except Unavailable:
            return  # a process's start-up, or the next look, rates it
        await session.rated()

    async def apply(self, session: GameSession, now: float) -> bool:
        """Rate ``session`` (over, rated, pending) once; True if this call rated it."""
        store = self.store
        for veto in self.vetoes:
            if await veto(store, session.id):
                await store.run(store.games.set_unrated, session.id)
                return False
        if (session.outcome() or {}).get("result") == "aborted":
            return False
        subjects: dict[int, str] = {}
        levels: dict[int, str] = {}
        for s in session.seats:
            found = level(s.agent) if s.kind == seating.BOT and not s.replaced else None
            if found is not None:
                levels[s.seat] = found
                subjects[s.seat] = BOT + found
            elif s.player_id is not None:
                subjects[s.seat] = s.player_id
            else:
                return False
        return await store.run(
            self.queries.apply, session.id, session.name, session.game.num_players,
            subjects, rate(ranks(session), levels), shown, now)

    async def leaderboard(self, game: str, players: int) -> list[dict[str, Any]]:
        rows = await self.store.run(self.queries.leaderboard, game, players)
        board = [{"name": r["name"], "rating": round(shown((r["mu"], r["sigma"]))),
                  "deviation": round(SCALE * 2 * r["sigma"]), "games": r["games"],
                  "order": conservative(r["mu"], r["sigma"]), "bot": False} for r in rows]
        for name in LEVEL_NAMES:
            mu, sigma = anchor(name)
            board.append({"name": f"bot: {name}", "rating": round(ANCHORS[name]),
                          "deviation": round(SCALE * 2 * sigma), "games": None,
                          "order": conservative(mu, sigma), "bot": True})
        return sorted(board, key=lambda entry: -entry["order"])

    async def of_player(self, player_id: str) -> list[dict[str, Any]]:
        rows = await self.store.run(self.queries.player_ratings, player_id)
        return [{"game": r["game"], "players": r["players"],
                 "rating": round(shown((r["mu"], r["sigma"]))),
                 "deviation": round(SCALE * 2 * r["sigma"]), "games": r["games"]}
                for r in rows]

    async def history(self, player_id: str) -> list[dict[str, Any]]:
        return await self.store.run(self.queries.history, player_id)

    async def current(self, player_ids: list[str], game: str, players: int) -> dict[str, int]:
        """Shown ratings of these players in ``game`` with ``players`` (newcomers 1500)."""
        found = await self.store.run(self.queries.ratings, player_ids, game, players)
        return {p: round(shown(found[p][:2])) if p in found else round(CENTRE)
                for p in player_ids}
