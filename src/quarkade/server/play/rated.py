"""Which games are rated, and how an ending rates them (the model is ``skill``).

A game is rated only if every seat a person holds is held by a *named* player (one who
claimed the name with a password), every bot seat is a bot *level* (easy, medium, hard),
at least one person plays, nobody plays two seats, and its maker chose a rated game
(casual by default against bots: RULINGS S-9). That is decided once, when it begins
(``eligible``, by ``GameSession``: docs/RULINGS.md S-5).

A rated game is rated in the same step that ends it, however it ends (a person's move, a
bot's, a flag, a resignation, a seat abandoned): the session hands storage the game's
``plan`` with the move or ruling, and storage applies it in that one transaction
(``RatingQueries.apply_in``), so no page ever shows a rated game over and not yet rated.
The finish order: the winners first (tied), everyone else next (tied); a seat a bot took
over after its person resigned, ran out of time or abandoned finishes last (S-2).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from quarkade.agents.registry import LEVEL_NAMES
from quarkade.server.play.skill import rate, shown
from quarkade.server.storage import StoredSeat
from quarkade.server.storage.ratings import BOT, RatingPlan

BOT_KIND = "bot"


def level(agent: str | None) -> str | None:
    """The bot level an agent spec names (None: not a level)."""
    return agent if agent in LEVEL_NAMES else None


async def eligible(seats: Sequence[StoredSeat],
                   player: Callable[[str], Awaitable[Any]]) -> bool:
    """Whether a game with ``seats`` may be rated (see the module); ``player(id)`` is the
    stored player (None if gone)."""
    people = [s for s in seats if s.kind != BOT_KIND]
    if not people or any(s.kind == BOT_KIND and level(s.agent) is None for s in seats):
        return False
    if any(s.player_id is None for s in people):
        return False
    for s in people:
        assert s.player_id is not None
        found = await player(s.player_id)
        if found is None or found.guest:
            return False
    return len({s.player_id for s in people}) == len(people)  # nobody plays two seats


def ranks(outcome: dict[str, Any] | None, players: int, seats: Sequence[StoredSeat]
          ) -> list[int]:
    """Each seat's place: winners 1, others 2, a seat a bot took over from its person
    last."""
    winners = set((outcome or {}).get("winners", []))
    places = [1 if seat in winners else 2 for seat in range(players)]
    for s in seats:
        if s.replaced:
            places[s.seat] = 3
    return places


def plan(game: str, players: int, seats: Sequence[StoredSeat],
         outcome: dict[str, Any] | None) -> RatingPlan | None:
    """How a rated game ending with ``outcome`` is rated (None: it cannot be, such as an
    abort, or a person's seat with no player)."""
    if outcome is None or outcome.get("result") == "aborted":
        return None
    subjects: dict[int, str] = {}
    levels: dict[int, str] = {}
    for s in seats:
        found = level(s.agent) if s.kind == BOT_KIND and not s.replaced else None
        if found is not None:
            levels[s.seat] = found
            subjects[s.seat] = BOT + found
        elif s.player_id is not None:
            subjects[s.seat] = s.player_id
        else:
            return None
    return RatingPlan(game, players, subjects, rate(ranks(outcome, players, seats), levels),
                      shown)
