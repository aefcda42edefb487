"""Endings the server decides, not the rules: resigning, aborting, a flag that falls, and a
seat abandoned. docs/RULINGS.md (S-1 to S-4) says why each does what it does.

- With two players, the seat that resigns, runs out of time or abandons loses: the game
  ends with the server's outcome (``{"result": "win", "winners": [other], "ending":
  "resigned"}``), stored with the game (``games.ending``) and shown by every page, list and
  record in place of the rules' outcome (``LiveGame.outcome``).
- With more players, the game goes on: the ``medium`` bot takes the seat over for the
  rest of the game (``seats.replaced`` says why), and for ratings that seat finishes last.
- An abort (before every person at the table has moved) ends the game with no result:
  ``{"result": "aborted", "winners": []}``, never rated.

Each ruling is stored with ``Store.decide``, which applies it once (at the step the game
is at, if nobody moved meanwhile, and for a flag, if its deadline is still the one seen),
so of several processes that see a flag fall exactly one applies it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from quarkade.core.protocol import shared_returns
from quarkade.server import seats as seating
from quarkade.server.clocks import NONE
from quarkade.server.errors import ApiError

if TYPE_CHECKING:
    from quarkade.server.live import LiveGame

RESIGNED, OUT_OF_TIME, ABANDONED, ABORTED = "resigned", "out of time", "abandoned", "aborted"
TAKEOVER = "medium"  # the bot level that takes a seat over at a table of three or more


def returns_of(ending: dict[str, Any], players: int) -> list[float] | None:
    if ending.get("result") == ABORTED:
        return None
    return shared_returns(ending.get("winners", []), players)


def allowed(live: LiveGame, holder: seating.Holder) -> dict[str, Any]:
    """What this device may do now beside moving: resign which seats, abort, claim which
    abandoned seats (for the page's buttons)."""
    mine = sorted(holder.seats & live.people())
    if live.over:
        return {"resign": [], "abort": False, "claim": []}
    return {"resign": [] if live.waiting else mine,
            "abort": bool(mine or holder.host) and _abortable(live),
            "claim": [seat for seat in _abandoned(live) if set(mine) - {seat}]}


async def resign(live: LiveGame, holder: seating.Holder, seat: int) -> None:
    if seat not in holder.seats or seat not in live.people():
        raise ApiError(403, f"this device holds no seat {seat} to resign")
    async with live.lock:
        _refuse_when_over(live)
        if live.waiting:
            raise ApiError(409, "the game has not begun; abort it instead")
        await _rule(live, seat, RESIGNED)
    await live.hub.after_ruling(live)


async def abort(live: LiveGame, holder: seating.Holder) -> None:
    if not (holder.seats & live.people()) and not holder.host:
        raise ApiError(403, "only someone at the table can abort the game")
    async with live.lock:
        _refuse_when_over(live)
        if not _abortable(live):
            raise ApiError(409, "every player has moved: the game can no longer be aborted; "
                           "resign instead")
        ending: dict[str, Any] = {"result": ABORTED, "winners": [], "ending": ABORTED,
                                  "seat": None}
        await _store(live, {"ending": ending, "finished": live.hub.clock.time(),
                            "deadline": None, "rating_state": "none"}, {})
    await live.hub.after_ruling(live)


async def claim_abandoned(live: LiveGame, holder: seating.Holder, seat: int) -> None:
    async with live.lock:
        _refuse_when_over(live)
        if seat not in _abandoned(live):
            days = live.hub.limits.abandon_seconds / 86400
            raise ApiError(409, f"seat {seat} cannot be claimed: only a person to move in a "
                           f"game with no clock who has not moved for {days:g} days")
        if not (holder.seats & live.people()) - {seat}:
            raise ApiError(403, "only another player at the table can claim a seat abandoned")
        await _rule(live, seat, ABANDONED)
    await live.hub.after_ruling(live)


async def flag(live: LiveGame, deadline: float) -> bool:
    """The clock of the seat to move ran out at ``deadline``: apply it (call with the lock
    held); False if it no longer applies or another process applied it."""
    times = live.times
    to_move = live.state.current_player()
    if live.over or times.deadline != deadline or live.hub.clock.time() < deadline or \
            to_move not in live.people():
        return False
    return await _rule(live, to_move, OUT_OF_TIME, deadline)


async def _rule(live: LiveGame, seat: int, reason: str, deadline: float | None = None
                ) -> bool:
    now = live.hub.clock.time()
    game: dict[str, Any]
    if live.game.num_players == 2:
        ending = {"result": "win", "winners": [1 - seat], "ending": reason, "seat": seat}
        game = {"ending": ending, "returns": returns_of(ending, 2), "finished": now,
                "deadline": None,
                "rating_state": "pending" if live.times.rated else "none"}
        return await _store(live, game, {}, deadline)
    seats = {seat: {"kind": seating.BOT, "agent": TAKEOVER, "replaced": reason,
                    "token": None}}
    if live.state.current_player() == seat:  # the bot moves now: no clock
        game = {"deadline": None, "turn_started": now}
    else:  # someone else's clock keeps running
        game = {"turn_started": live.times.turn_started}
    return await _store(live, game, seats, deadline)


async def _store(live: LiveGame, game: dict[str, Any], seats: dict[int, dict[str, Any]],
                 deadline: float | None = None) -> bool:
    store = live.hub.store
    done = await store.run(store.decide, live.id, live.step, game, seats, deadline)
    await live._catch_up()
    return done


def _refuse_when_over(live: LiveGame) -> None:
    if live.over:
        raise ApiError(409, "the game is over; nothing more can be done")


def _abortable(live: LiveGame) -> bool:
    """Before every person at the table has made a first move."""
    moved = {player for player, _ in live.moves}
    return bool(live.people() - moved)


def _abandoned(live: LiveGame) -> list[int]:
    """The seat to move, if a person's with no clock who has not moved for long."""
    to_move = live.state.current_player()
    started = live.times.turn_started
    if live.control.kind != NONE or live.waiting or to_move not in live.people() or \
            started is None:
        return []
    idle = live.hub.clock.time() - started
    return [to_move] if idle >= live.hub.limits.abandon_seconds else []
