"""The rating model: OpenSkill's Plackett-Luce, anchors for the bot levels, ratings as
pages show them, and which games may be rated at all.

Why OpenSkill (the ``openskill`` package): our tables seat two to four players, and
OpenSkill rates a finish order of any number of players (ties and shared wins included)
in one model, so a 2-player Card Commons game and a 4-player Hadronize game are rated the
same way; Glicko-2 rates pairs only (a 4-player game would be cut into six pretend
duels). It is maintained, MIT-licensed, pure Python and fast (microseconds per game), and
like Glicko it keeps an uncertainty (sigma) per rating, so a newcomer's first games move
their rating a lot and a regular's little.

- A game is rated when it begins only if every seat a person holds is held by a *named*
  player, every bot seat is a bot level, and at least one person plays
  (``play.rated.eligible``).
- Bot levels carry fixed anchor ratings (``ANCHORS``) with a small sigma and are never
  updated, so a newcomer's first games against bots place them on a known scale.
- Shown ratings are ``1500 + 60 * (mu - 25)``: a newcomer shows 1500 (sigma 8.33, so
  +-500); the leaderboard orders by ``mu - 2 sigma``, so a few lucky games do not top it.
"""

from __future__ import annotations

from collections.abc import Callable

from openskill.models import PlackettLuce

from quarkade.server.storage.ratings import Rating

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
