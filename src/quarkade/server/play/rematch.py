"""The rematch, as an offer (RULINGS S-13): a player at a finished game offers it; the
others accept or decline; it begins only when every person at the table has accepted.

An offer is the rematch game itself, made at once and waiting: its players sit one seat on
(``seats.turned``: the opener alternates), the offering player's seats filled and every
other person's seat kept for them (``seats.rematch_seats``), so nothing starts and no
clock runs until the last one accepts (``Seating``'s rule: a game begins when every seat
is filled, S-6). Declining, or leaving the finished game's page while the offer stands,
ends the offer: the waiting game is aborted with its ``ending`` ``declined`` or
``expired``, and another may be offered. The finished game reads its rematch from storage
(``StoredRematch``) and every page of it shows the offer: who offered, who is still to
answer, and the new game's address once it begins.
"""

from __future__ import annotations

import logging
from collections.abc import Set as AbstractSet
from typing import Any

from quarkade.core.registry import game_class
from quarkade.server import keys
from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.play import seats as seating
from quarkade.server.play.audience import Audience
from quarkade.server.play.events import Updated
from quarkade.server.play.hub import Hub
from quarkade.server.play.offers import DECLINED, EXPIRED, OFFERED, offer_state
from quarkade.server.play.seating import Seating
from quarkade.server.play.session import GameSession
from quarkade.server.storage import Unavailable

log = logging.getLogger("quarkade.server")


def turned_options(game: str, options: dict[str, Any], players: int) -> dict[str, Any]:
    """The options of a rematch: each seat's own options (its deck) move with its player."""
    rules = game_class(game)
    moved = dict(options)
    for seat in range(players):
        mine = rules.seat_option_names(seat)
        theirs = rules.seat_option_names(seating.turned(seat, players))
        for name, target in zip(mine, theirs, strict=False):
            moved[target] = options[name]
    return moved


class Rematches:
    """Offering, accepting and declining rematches in this process."""

    def __init__(self, ctx: Context, hub: Hub, seating_: Seating) -> None:
        self.ctx = ctx
        self.hub = hub
        self.seating = seating_

    async def answer(self, session: GameSession, holder: seating.Holder, accept: bool = True
                     ) -> GameSession | None:
        """This device's players want a rematch of ``session`` (offer it, or accept the
        offer standing) or not (decline it, or take back their own offer). The rematch
        game (None after a decline)."""
        mine = holder.seats & session.people()
        if not mine:
            raise ApiError(403, "only someone at the table can offer or answer a rematch")
        if not session.over:
            raise ApiError(409, "the game is not over yet")
        new: GameSession | None = None
        async with session.lock:
            await session.catch_up()
            state = offer_state(session.offer)
            if not accept:
                if state != OFFERED:
                    raise ApiError(409, "no rematch is offered now")
                await self._end(session, DECLINED, mine)
            elif state in (None, DECLINED, EXPIRED):
                new = await self._offer(session, mine)
            else:
                assert session.offer is not None
                new = await self.hub.get(session.offer.id)
                if state == OFFERED:
                    await self._accept(session, new, mine)
        await self._show(session)
        return new

    async def left(self, session: GameSession, audience: Audience,
                   holder: seating.Holder) -> None:
        """A page of the finished game closed: if no other page here holds its seats,
        their player left, and the offer standing expires (RULINGS S-13)."""
        seats = holder.seats & session.people()
        if not seats or not session.over or offer_state(session.offer) != OFFERED or \
                all(audience.holds(seat) for seat in seats):
            return
        try:
            async with session.lock:
                await session.catch_up()
                if offer_state(session.offer) != OFFERED:
                    return
                await self._end(session, EXPIRED, seats)
            await self._show(session)
        except (ApiError, Unavailable):
            log.warning("game %s: a rematch offer could not be ended", session.id)

    async def _show(self, session: GameSession) -> None:
        """The offer changed (read under the lock already): show it on this process's
        pages and tell the other processes."""
        await session.changed()
        await self.ctx.events.emit(Updated(session))

    async def _offer(self, session: GameSession, mine: AbstractSet[int]) -> GameSession:
        """Make the rematch waiting for the others (call with the lock held)."""
        players = session.game.num_players
        offering = {seating.turned(seat, players) for seat in mine}
        seats = seating.rematch_seats(session.seats, offering, self.ctx.clock.time(),
                                      self.ctx.limits.invite_seconds)
        new = await self.seating.store_new(
            session.name, turned_options(session.name, session.options, players), seats,
            keys.digest(keys.new_secret()), session.visibility, session.reveal,
            session.control.text, session.times.host_player, session.owner,
            session.times.rated)
        store = self.ctx.store
        before = session.offer.id if session.offer is not None else None
        if await store.run(store.games.set_rematch, session.id, new.id, before):
            await session.catch_up()
            return new
        self.hub.forget(new.id)  # another process offered first: keep theirs
        await store.run(store.games.delete, new.id)
        await session.catch_up()
        assert session.offer is not None
        found = await self.hub.get(session.offer.id)
        if offer_state(session.offer) == OFFERED:
            await self._accept(session, found, mine)
        return found

    async def _accept(self, session: GameSession, new: GameSession, mine: AbstractSet[int]) -> None:
        """This device's players accept (call with ``session``'s lock held); the rematch
        begins if they were the last."""
        players = session.game.num_players
        store = self.ctx.store
        await store.run(store.seats.accept, new.id,
                        sorted(seating.turned(seat, players) for seat in mine))
        await new.refresh()
        await new.start()
        await self.ctx.events.emit(Updated(new))
        await session.catch_up()

    async def _end(self, session: GameSession, why: str, seats: AbstractSet[int]) -> None:
        """End the offer standing: its game aborted, never begun (call with
        ``session``'s lock held)."""
        assert session.offer is not None
        new = await self.hub.get(session.offer.id)
        players = session.game.num_players
        ending = {"result": "aborted", "winners": [], "ending": why,
                  "seat": min(seating.turned(seat, players) for seat in seats)}
        async with new.lock:
            if new.waiting and not new.over:
                await new.decide({"ending": ending, "finished": self.ctx.clock.time(),
                                  "deadline": None, "rating_state": "none"}, {})
        await new.ruled()
        await session.catch_up()


__all__ = ["Rematches", "turned_options"]
