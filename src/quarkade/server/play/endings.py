"""Endings the server decides, not the rules: resigning, aborting, a flag that falls, and a
seat abandoned. docs/RULINGS.md (S-1 to S-4) says why each does what it does.

- With two players, the seat that resigns, runs out of time or abandons loses: the game
  ends with the server's outcome (``{"result": "win", "winners": [other], "ending":
  "resigned"}``), stored with the game (``games.ending``) and shown by every page, list and
  record in place of the rules' outcome (``GameSession.outcome``).
- With more players, the game goes on: the ``medium`` bot takes the seat over for the
  rest of the game (``seats.replaced`` says why), and for ratings that seat finishes last.
- An abort (before every person at the table has moved; by the game's maker who is not
  at the table, only while it waits for players: S-3) ends the game with no result:
  ``{"result": "aborted", "winners": []}``, never rated. A person whose first move does
  not come in time (30 s in real-time, the move time in correspondence) aborts the game
  the same way (S-8): a game one side never started is never rated.
- Whatever ends a game stores each real-time seat's time left then, so the clocks stop
  at their final values (a flag at 0).

Each ruling is stored with ``GameSession.decide``, which applies it once (at the step the
game is at, if nobody moved meanwhile, and for a flag, if its deadline is still the one
seen), so of several processes that see a flag fall exactly one applies it; the session
then emits ``Ruled``, and the hub shows it everywhere.
"""

from __future__ import annotations

from typing import Any

from quarkade.server.errors import ApiError
from quarkade.server.play import seats as seating
from quarkade.server.play.clocks import NONE, time_left
from quarkade.server.play.outcomes import ABANDONED, ABORTED, OUT_OF_TIME, RESIGNED, returns_of
from quarkade.server.play.session import GameSession

TAKEOVER = "medium"  # the bot level that takes a seat over at a table of three or more


def allowed(session: GameSession, holder: seating.Holder) -> dict[str, Any]:
    """What this device may do now beside moving: resign which seats, abort, claim which
    abandoned seats (for the page's buttons)."""
    mine = sorted(holder.seats & session.people())
    if session.over:
        return {"resign": [], "abort": False, "claim": []}
    return {"resign": [] if session.waiting else mine,
            "abort": bool(mine or (holder.host and session.waiting)) and _abortable(session),
            "claim": [seat for seat in _abandoned(session) if set(mine) - {seat}]}


async def resign(session: GameSession, holder: seating.Holder, seat: int) -> None:
    if seat not in holder.seats or seat not in session.people():
        raise ApiError(403, f"this device holds no seat {seat} to resign")
    async with session.lock:
        _refuse_when_over(session)
        if session.waiting:
            raise ApiError(409, "the game has not begun; abort it instead")
        await _rule(session, seat, RESIGNED)
    await session.ruled()


async def abort(session: GameSession, holder: seating.Holder) -> None:
    at_table = bool(holder.seats & session.people())
    if not at_table and not holder.host:
        raise ApiError(403, "only someone at the table can abort the game")
    async with session.lock:
        _refuse_when_over(session)
        if not at_table and not session.waiting:  # RULINGS S-3
            raise ApiError(403, "the game has begun: only a player at the table can abort "
                           "it now, and only before every player has moved")
        if not _abortable(session):
            raise ApiError(409, "every player has moved: the game can no longer be aborted; "
                           "resign instead")
        await _abort(session, None)
    await session.ruled()


async def _abort(session: GameSession, seat: int | None, deadline: float | None = None
                 ) -> bool:
    """End the game with no result (``seat``: the person whose first move never came)."""
    ending: dict[str, Any] = {"result": ABORTED, "winners": [], "ending": ABORTED,
                              "seat": seat}
    return await _store(session, {"ending": ending, "finished": session.ctx.clock.time(),
                                  "deadline": None, "rating_state": "none"},
                        _final_clocks(session), deadline)


async def claim_abandoned(session: GameSession, holder: seating.Holder, seat: int) -> None:
    async with session.lock:
        _refuse_when_over(session)
        if seat not in _abandoned(session):
            days = session.ctx.limits.abandon_seconds / 86400
            raise ApiError(409, f"seat {seat} cannot be claimed: only a person to move in a "
                           f"game with no clock who has not moved for {days:g} days")
        if not (holder.seats & session.people()) - {seat}:
            raise ApiError(403, "only another player at the table can claim a seat abandoned")
        await _rule(session, seat, ABANDONED)
    await session.ruled()


async def flag(session: GameSession, deadline: float) -> bool:
    """The clock of the seat to move ran out at ``deadline``: apply it (call with the lock
    held); False if it no longer applies or another process applied it."""
    times = session.times
    to_move = session.state.current_player()
    if session.over or times.deadline != deadline or session.ctx.clock.time() < deadline or \
            to_move not in session.people():
        return False
    if to_move not in session.movers():  # never started: aborted, unrated (S-8)
        return await _abort(session, to_move, deadline)
    return await _rule(session, to_move, OUT_OF_TIME, deadline)


async def _rule(session: GameSession, seat: int, reason: str, deadline: float | None = None
                ) -> bool:
    now = session.ctx.clock.time()
    game: dict[str, Any]
    if session.game.num_players == 2:
        ending = {"result": "win", "winners": [1 - seat], "ending": reason, "seat": seat}
        game = {"ending": ending, "returns": returns_of(ending, 2), "finished": now,
                "deadline": None,
                "rating_state": "pending" if session.times.rated else "none"}
        return await _store(session, game, _final_clocks(session), deadline)
    seats = {seat: {"kind": seating.BOT, "agent": TAKEOVER, "replaced": reason,
                    "token": None}}
    if session.state.current_player() == seat:  # the bot moves now: no clock
        game = {"deadline": None, "turn_started": now}
    else:  # someone else's clock keeps running
        game = {"turn_started": session.times.turn_started}
    return await _store(session, game, seats, deadline)


async def _store(session: GameSession, game: dict[str, Any], seats: dict[int, dict[str, Any]],
                 deadline: float | None = None) -> bool:
    return await session.decide(game, seats, deadline)


def _final_clocks(session: GameSession) -> dict[int, dict[str, Any]]:
    """Each real-time seat's time left now (the one to move stops where it is)."""
    now = session.ctx.clock.time()
    to_move = session.state.current_player()
    final: dict[int, dict[str, Any]] = {}
    for s in session.seats:
        if s.seat in session.people() and s.remaining is not None:
            left = time_left(session.control, session.times, s, s.seat == to_move, now)
            if left != s.remaining:
                final[s.seat] = {"remaining": left}
    return final


def _refuse_when_over(session: GameSession) -> None:
    if session.over:
        raise ApiError(409, "the game is over; nothing more can be done")


def _abortable(session: GameSession) -> bool:
    """Before every person at the table has made a first move."""
    moved = {player for player, _ in session.moves}
    return bool(session.people() - moved)


def _abandoned(session: GameSession) -> list[int]:
    """The seat to move, if a person's with no clock who has not moved for long."""
    to_move = session.state.current_player()
    started = session.times.turn_started
    if session.control.kind != NONE or session.waiting or to_move not in session.people() or \
            started is None:
        return []
    idle = session.ctx.clock.time() - started
    return [to_move] if idle >= session.ctx.limits.abandon_seconds else []
