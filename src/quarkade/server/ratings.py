"""Ratings: per game and player count, for people and for bot levels, with OpenSkill.

Why OpenSkill (the ``openskill`` package, its Plackett-Luce model): our tables seat two to
four players, and OpenSkill rates a finish order of any number of players (ties and shared
wins included) in one model, so a 2-player Card Commons game and a 4-player Hadronize game
are rated the same way; Glicko-2 rates pairs only (a 4-player game would be cut into six
pretend duels). It is maintained, MIT-licensed, pure Python and fast (microseconds per
game), and like Glicko it keeps an uncertainty (sigma) per rating, so a newcomer's first
games move their rating a lot and a regular's little.

- A game is rated when it begins (``eligible``) only if every seat a person holds is held
  by a *named* player (one who claimed the name with a password), every bot seat is a bot
  *level* (easy, medium, hard), and at least one person plays. Anything that makes it
  unfit later (a hint asked for: issue 19) calls ``Store.set_unrated`` (or adds a
  ``vetoes`` check here); an abort is never rated.
- Bot levels carry fixed anchor ratings (``ANCHORS``) with a small sigma and are never
  updated, so a newcomer's first games against bots place them on a known scale.
- The finish order: the winners first (tied), everyone else next (tied); a seat a bot
  took over after its person resigned, ran out of time or abandoned finishes last
  (docs/RULINGS.md S-2).
- Shown ratings are ``1500 + 60 * (mu - 25)``: a newcomer shows 1500 (sigma 8.33, so
  +-500); the leaderboard orders by ``mu - 2 sigma``, so a few lucky games do not top it.

A game's ratings are applied once, by whichever process sees it end first (``rating_state``
pending -> done in the same transaction); a process starting up applies any left pending.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

from openskill.models import PlackettLuce

from quarkade.agents.registry import LEVEL_NAMES
from quarkade.server import seats as seating
from quarkade.server.storage import Store
from quarkade.server.storage.players import PlayerQueries
from quarkade.server.storage.ratings import BOT, Rating, RatingQueries

if TYPE_CHECKING:
    from quarkade.server.live import LiveGame

log = logging.getLogger("quarkade.server")

MODEL = PlackettLuce()
FRESH: Rating = (MODEL.mu, MODEL.sigma)
SCALE, CENTRE = 60.0, 1500.0
ANCHORS = {"easy": 1200.0, "medium": 1500.0, "hard": 1800.0}  # as shown
ANCHOR_SIGMA = 1.0


def shown(rating: Rating) -> float:
    """A rating as pages show it."""
    return CENTRE + SCALE * (rating[0] - MODEL.mu)


def anchor(level: str) -> Rating:
    return ((ANCHORS[level] - CENTRE) / SCALE + MODEL.mu, ANCHOR_SIGMA)


def conservative(mu: float, sigma: float) -> float:
    """The leaderboard's order: a rating the player is very likely above."""
    return shown((mu - 2 * sigma, sigma))


def ranks(live: LiveGame) -> list[int]:
    """Each seat's place: winners 1, others 2, a seat a bot took over from its person
    last."""
    outcome = live.outcome() or {}
    winners = set(outcome.get("winners", []))
    places = [1 if seat in winners else 2 for seat in range(live.game.num_players)]
    for s in live.seats:
        if s.replaced:
            places[s.seat] = 3
    return places


def rate(places: list[int], levels: dict[int, str]) -> Callable[
        [dict[int, Rating | None]], tuple[dict[int, Rating], dict[int, Rating]]]:
    """The rater for a game finished in ``places``, bots at seats ``levels``."""

    def rater(stored: dict[int, Rating | None]) -> tuple[dict[int, Rating], dict[int, Rating]]:
        before: dict[int, Rating] = {}
        for seat in range(len(places)):
            before[seat] = anchor(levels[seat]) if seat in levels else stored.get(seat) or FRESH
        teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in
                 (before[seat] for seat in range(len(places)))]
        rated = MODEL.rate(teams, ranks=[float(p) for p in places])
        after = {seat: before[seat] if seat in levels else (team[0].mu, team[0].sigma)
                 for seat, team in enumerate(rated)}
        return before, after

    return rater


class Ratings:
    """Deciding whether a game is rated, and rating it once it ends."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.queries = RatingQueries(store.engine)
        self.players = PlayerQueries(store.engine)
        # More reasons a finished game is not rated: async (store, game id) -> True to veto.
        self.vetoes: list[Callable[[Store, str], Awaitable[bool]]] = []

    async def eligible(self, live: LiveGame) -> bool:
        people = [s for s in live.seats if s.kind != seating.BOT]
        if not people or any(s.kind == seating.BOT and _level(s.agent) is None
                             for s in live.seats):
            return False
        if any(s.player_id is None for s in people):
            return False
        for s in people:
            player = await self.store.run(self.players.get, s.player_id)
            if player is None or player.guest:
                return False
        return len({s.player_id for s in people}) == len(people)  # nobody plays two seats

    async def apply(self, live: LiveGame, now: float) -> bool:
        """Rate ``live`` (over, rated, pending) once; True if this call rated it."""
        for veto in self.vetoes:
            if await veto(self.store, live.id):
                await self.store.run(self.store.set_unrated, live.id)
                return False
        if (live.outcome() or {}).get("result") == "aborted":
            return False
        subjects: dict[int, str] = {}
        levels: dict[int, str] = {}
        for s in live.seats:
            level = _level(s.agent) if s.kind == seating.BOT and not s.replaced else None
            if level is not None:
                levels[s.seat] = level
                subjects[s.seat] = BOT + level
            elif s.player_id is not None:
                subjects[s.seat] = s.player_id
            else:
                return False
        return await self.store.run(
            self.queries.apply, live.id, live.name, live.game.num_players, subjects,
            rate(ranks(live), levels), shown, now)

    async def changes(self, game_id: str) -> list[dict[str, Any]]:
        return await self.store.run(self.queries.changes_for_game, game_id)

    async def leaderboard(self, game: str, players: int) -> list[dict[str, Any]]:
        rows = await self.store.run(self.queries.leaderboard, game, players)
        board = [{"name": r["name"], "rating": round(shown((r["mu"], r["sigma"]))),
                  "deviation": round(SCALE * 2 * r["sigma"]), "games": r["games"],
                  "order": conservative(r["mu"], r["sigma"]), "bot": False} for r in rows]
        for level in LEVEL_NAMES:
            mu, sigma = anchor(level)
            board.append({"name": f"bot: {level}", "rating": round(ANCHORS[level]),
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


def _level(agent: str | None) -> str | None:
    return agent if agent in LEVEL_NAMES else None
