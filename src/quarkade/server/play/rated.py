"""Which games are rated: decided once, when a game begins (docs/RULINGS.md S-5), by
``GameSession`` (the rating model itself is ``quarkade.server.people.skill``).

A game is rated only if every seat a person holds is held by a *named* player (one who
claimed the name with a password), every bot seat is a bot *level* (easy, medium, hard),
at least one person plays, and nobody plays two seats.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from quarkade.agents.registry import LEVEL_NAMES
from quarkade.server.storage import StoredSeat

BOT_KIND = "bot"


def level(agent: str | None) -> str | None:
    """The bot level an agent spec names (None: not a level)."""
    return agent if agent in LEVEL_NAMES else None


async def eligible(seats: Sequence[StoredSeat],
                   player: Callable[[str], Awaitable[Any]]) -> bool:
    """Whether a game with ``seats`` is rated (see the module); ``player(id)`` is the
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
