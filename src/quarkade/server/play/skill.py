"""The rating model: OpenSkill's Plackett-Luce, anchors for the bot levels, provisional
ratings, and ratings as pages show them (which games are rated, and the rating an ending
applies: ``rated``).

Why OpenSkill (the ``openskill`` package): our tables seat two to four players, and
OpenSkill rates a finish order of any number of players (ties and shared wins included)
in one model, so a 2-player Card Commons game and a 4-player Hadronize game are rated the
same way; Glicko-2 rates pairs only (a 4-player game would be cut into six pretend
duels). It is maintained, MIT-licensed, pure Python and fast (microseconds per game), and
like Glicko it keeps an uncertainty (sigma) per rating, so a newcomer's first games move
their rating a lot and a regular's little.

- Bot levels carry fixed anchor ratings (``ANCHORS``) with a small sigma and are never
  updated, so a newcomer's first games against bots place them on a known scale.
- Shown ratings are ``1500 + 60 * (mu - 25)``; a newcomer shows 1500 with a margin of
  +-1000 (two sigmas). A rating is *provisional* while its sigma is above
  ``ESTABLISHED_SIGMA`` (RULINGS S-10): pages show it as "1500?" and the leaderboard
  leaves it out.
- A game against a provisional opponent counts for little (RULINGS S-11): each person's
  change (mu and sigma) is scaled by ``PROVISIONAL_WEIGHT`` when any opponent is a
  provisional person, so a ring of fresh accounts cannot lift anyone far (four such wins:
  under +60 in all).
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
ESTABLISHED_SIGMA = 5.0  # at or below: no longer provisional (margin +-600, ~10 games)
PROVISIONAL_WEIGHT = 0.08  # a game against a provisional person counts this much


def shown(rating: Rating) -> float:
    """A rating as pages show it."""
    return CENTRE + SCALE * (rating[0] - MODEL.mu)


def margin(sigma: float) -> float:
    """The shown margin of a rating (two sigmas)."""
    return SCALE * 2 * sigma


def provisional(sigma: float) -> bool:
    """Whether a rating with this uncertainty is still provisional (RULINGS S-10)."""
    return sigma > ESTABLISHED_SIGMA


def label(rating: Rating) -> str:
    """A rating as a player reads it: ``1500?`` while provisional, else ``1627``."""
    return f"{round(shown(rating))}{'?' if provisional(rating[1]) else ''}"


def anchor(level: str) -> Rating:
    return ((ANCHORS[level] - CENTRE) / SCALE + MODEL.mu, ANCHOR_SIGMA)


def conservative(mu: float, sigma: float) -> float:
    """A rating the player is very likely above."""
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
        after: dict[int, Rating] = {}
        for seat, team in enumerate(rated):
            if seat in levels:
                after[seat] = before[seat]
                continue
            weight = _weight(seat, before, levels)
            mu, sigma = before[seat]
            after[seat] = (mu + weight * (team[0].mu - mu),
                           sigma + weight * (team[0].sigma - sigma))
        return before, after

    return rater


def _weight(seat: int, before: dict[int, Rating], levels: dict[int, str]) -> float:
    """How much the game counts for ``seat``: in full, unless an opponent is a person
    whose rating is provisional (RULINGS S-11)."""
    others = [other for other in before if other != seat and other not in levels]
    if any(provisional(before[other][1]) for other in others):
        return PROVISIONAL_WEIGHT
    return 1.0
