"""Hints: for the held seat to move, in a casual game against bots, a win chance for
each of its moves and the best of them (``quarkade.learn.hints``), from that seat's
information only.

The search runs in a worker process as a job of the asking client, merged by game, step
and seat: however many ask at once, one search runs, and its answer is kept, so asking
again at that step costs nothing. Hints exist only in casual games (RULINGS S-9): a rated
game refuses them. A game where a seat asked is flagged in ``game_hints`` (storage checks
the flag again before rating any game: S-5).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from typing import Any

from quarkade.core.protocol import SPECTATOR
from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.learn.searches import HintSearch
from quarkade.server.play import seats as seating
from quarkade.server.play.session import GameSession
from quarkade.server.work.pool import JobFailed
from quarkade.server.work.scheduler import Busy

KEPT_HINTS = 1000  # the last hint of each (game, seat), by its step


def has_bots(session: GameSession) -> bool:
    return any(s.kind == seating.BOT for s in session.seats)


class Hints:
    """The hints of this process: asked, merged, kept."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.kept: OrderedDict[tuple[str, int], tuple[int, dict[str, Any]]] = OrderedDict()

    async def hint(self, session: GameSession, seat: int, client: str) -> dict[str, Any]:
        """The hint for ``seat`` (held by the asker), with the seats that asked for one."""
        if seat == SPECTATOR:
            raise ApiError(403, "hints are for a seat this device holds; a spectator gets "
                           "none")
        if not has_bots(session):
            raise ApiError(409, "hints are offered only in games against bots")
        if session.times.rated:
            raise ApiError(409, "this game is rated, and rated games have no hints; start a "
                           "casual game to play with hints")
        if session.over:
            raise ApiError(409, "the game is over; hints are for a game in play")
        if session.waiting:
            raise ApiError(409, "the game has not begun: it starts when every seat is filled")
        if session.state.current_player() != seat:
            raise ApiError(409, f"a hint is for the seat to move; it is not seat {seat}'s "
                           "turn")
        store = self.ctx.store
        step = session.step
        asked = self.kept.get((session.id, seat))
        if asked is not None and asked[0] == step:  # asked again at this step: the same
            return {**asked[1], "hinted": await store.run(store.learning.hinted, session.id)}
        await store.run(store.learning.mark_hinted, session.id, seat)
        asked = self.kept.get((session.id, seat))
        if asked is not None and asked[0] == step:  # found while this one was flagging
            return {**asked[1], "hinted": await store.run(store.learning.hinted, session.id)}
        job = HintSearch(None, session.name, session.options,
                         [action for _, action in session.moves], seat, list(session.names),
                         random.SystemRandom().getrandbits(32))
        try:
            body = await self.ctx.work.submit(job, client, "hint",
                                              self.ctx.limits.hint_seconds,
                                              key=("hint", session.id, step, seat))
        except Busy as busy:
            raise ApiError(429, f"you have {busy.waiting} requests waiting for the "
                           "server's workers already; wait for them first") from None
        except JobFailed as problem:
            raise ApiError(503, f"no hint could be found this time ({problem}); ask "
                           "again") from None
        self.kept[(session.id, seat)] = (step, body)
        self.kept.move_to_end((session.id, seat))
        while len(self.kept) > KEPT_HINTS:  # the oldest go first
            self.kept.popitem(last=False)
        return {**body, "hinted": await store.run(store.learning.hinted, session.id)}
