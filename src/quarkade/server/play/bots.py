"""The bots of one game: whenever a bot is to move, its move is computed and played.

A bot's turn is first claimed in the database (``bot_claims``, with a lease): only the
claiming process moves it; if that process dies, the lease runs out and another takes the
turn. The move is computed in a worker process (``quarkade.server.work``) as a job of the
game's owner, so one client's bots wait behind that client's own work only, with the
thinking budget of ``Limits.bot_think_seconds`` whatever the spec and the hard deadline of
``Limits.bot_seconds``. A bot that fails or runs out of time is replaced for that move by
the first legal action (logged). A plug-in bot that raises, answers an illegal action or
overruns its move time is stopped instead (``BotDriver.stop_plugin``): the seat plays
random from then on. A store that fails is retried with growing pauses, so bots resume
when the database is back; the loop's own failures are logged and retried.
"""

from __future__ import annotations

import asyncio
import logging

from quarkade.agents.contained import fault_for
from quarkade.core.records import Fault
from quarkade.server.play.botmove import BotMove
from quarkade.server.play.session import GameSession
from quarkade.server.storage import GameDecided, StepTaken, Unavailable
from quarkade.server.work.pool import JobFailed

log = logging.getLogger("quarkade.server")


class BotDriver:
    """Moves the bots of ``session`` while this process holds it."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.ctx = session.ctx
        self.task: asyncio.Task[None] | None = None
        self.recheck: asyncio.TimerHandle | None = None
        self.lease = self.ctx.limits.bot_seconds + 5.0  # a claim outlives the deadline

    def busy(self) -> bool:
        return self.recheck is not None or (self.task is not None and not self.task.done())

    def schedule(self) -> None:
        """Set the bots going if one is to move (and none is moving already)."""
        session = self.session
        if session.state.current_player() in session.bots and not session.over and \
                not session.waiting and (self.task is None or self.task.done()) and \
                not self.ctx.tasks.stopping:
            self.task = self.ctx.tasks.spawn(self.run())
            self.task.add_done_callback(self._done)

    def stop(self) -> None:
        if self.recheck is not None:
            self.recheck.cancel()
            self.recheck = None
        if self.task is not None:
            self.task.cancel()

    def _done(self, task: asyncio.Task[None]) -> None:
        if task.cancelled():
            return
        problem = task.exception()
        if problem is not None:  # never silent: log it and look again shortly
            log.error("game %s: the bot loop stopped (%s: %s); retrying", self.session.id,
                      type(problem).__name__, problem)
            self._recheck_in(1.0)

    def _recheck_in(self, seconds: float) -> None:
        if self.recheck is not None:
            self.recheck.cancel()

        def look_again() -> None:
            self.recheck = None
            self.schedule()

        self.recheck = asyncio.get_running_loop().call_later(seconds, look_again)

    async def run(self) -> None:
        """Move for bots while a bot is to move; returns when a person (or nobody) is."""
        session, ctx = self.session, self.ctx
        store = ctx.store
        pause = 0.05
        while not ctx.tasks.stopping:
            async with session.lock:
                seat = session.state.current_player()
                spec = session.bots.get(seat)
                if spec is None or session.over or session.waiting:
                    return
                step = session.step
                history = session.state.history()
                move = 1 + sum(player == seat for player, _ in session.moves)
            if ctx.bot_delay:
                await asyncio.sleep(ctx.bot_delay)  # so people can follow the bots
                if session.step != step:
                    continue
            try:
                claimed = await store.run(store.games.claim_bot_turn, session.id, step,
                                          ctx.process, ctx.clock.time(), self.lease)
            except Unavailable:
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
                continue
            if not claimed:
                # Another process moves it; if that process dies, its claim runs out.
                self._recheck_in(self.lease + 0.2)
                return
            action, fallback = await self._move(seat, spec, history, move)
            while not ctx.tasks.stopping:
                async with session.lock:
                    if session.step != step:
                        break  # someone else moved meanwhile; look again
                    if action is None or action not in session.state.legal_actions():
                        action = session.state.legal_actions()[0]
                        log.error("game %s: bot %s at seat %d failed at step %d (%s); "
                                  "played the fallback move %r", session.id, spec, seat,
                                  step, fallback or "no legal move",
                                  session.state.action_to_string(action))
                    try:
                        await session.commit(action)
                    except (StepTaken, GameDecided):
                        break
                    except Unavailable:
                        pass
                    else:
                        pause = 0.05
                        break
                log.warning("game %s: the bot's move could not be stored; retrying",
                            session.id)
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
            await session.changed()

    async def _move(self, seat: int, spec: str, history: list[int], move: int
                    ) -> tuple[int | None, str | None]:
        """The action of the bot at ``seat`` (its ``move``-th), or None and why not (the
        caller then plays the fallback move). A stopped plug-in's seat plays random; a
        plug-in that fails now is stopped."""
        session, ctx = self.session, self.ctx
        if session.fault_of(seat) is not None:
            return ctx.rng.choice(session.state.legal_actions()), None
        plugin = seat in session.plugins
        limits = ctx.limits
        job = BotMove(f"{session.id}/{seat}", session.name, session.options, history, spec,
                      ctx.move_time if plugin else None,
                      None if plugin else limits.bot_think_seconds)
        try:
            return await ctx.work.submit(job, session.owner, "bot", limits.bot_seconds,
                                         bounded=False), None
        except JobFailed as problem:
            if not plugin:
                return None, str(problem)
            failure = problem
        await self.stop_plugin(fault_for(seat, spec, move, failure.kind, failure.what,
                                         failure.detail))
        return ctx.rng.choice(session.state.legal_actions()), None

    async def stop_plugin(self, fault: Fault) -> None:
        """Stop a plug-in bot: its fault stored on its seat (retried while the database is
        away), then shown and announced by the session. The operator's log gets the
        detail, which may hold what only the bot's seat knows; pages never do."""
        session, store = self.session, self.ctx.store
        log.warning("game %s: %s (%s)", session.id, fault.message,
                    fault.detail or "no detail")
        pause = 0.05
        while not self.ctx.tasks.stopping:
            try:
                await store.run(store.games.set_fault, session.id, fault)
                break
            except Unavailable:
                await asyncio.sleep(pause)
                pause = min(pause * 2, 2.0)
        await session.fault_stored(fault)
