"""A bot's move, computed in a worker process (``quarkade.server.work``): the job the bot
driver (``bots``) hands the scheduler.

A move has a thinking budget whatever the bot's spec: a built-in search bot is given it as
its time cap (the search's own "whichever runs out first", so it answers with its best
move in time rather than being cut off), and any bot still thinking when it is spent is
stopped by the pool. A plug-in bot's move time is its own budget, measured here from the
moment it starts thinking. The agent gets only its seat's ``Turn``.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection
from dataclasses import dataclass
from typing import Any

from quarkade.server.work.pool import JobFailed, WorkerState, rebuild

KEPT_AGENTS = 64  # agents a worker keeps between moves (by game and seat)


def server_agent(spec: str, game: str, plugins: Collection[str] = ()) -> Any:
    """The default agent factory of the workers: the agent for ``spec``, a plug-in bare
    (the worker's deadline contains it)."""
    from quarkade.agents.registry import make_agent

    return make_agent(spec, game, plugins=plugins, contained=False)


@dataclass(frozen=True)
class BotMove:
    """One move of the bot ``spec`` at the game's current seat. ``move_time`` (a
    plug-in's) is how long it may think, apart from the replay; ``budget`` caps a
    built-in search bot's thinking."""

    key: str  # the game and seat, so a worker can keep the agent between moves
    game: str
    options: dict[str, Any]
    history: list[int]
    spec: str
    move_time: float | None = None
    budget: float | None = None

    def run(self, worker: WorkerState, say: Callable[..., None]) -> int:
        from quarkade.agents.contained import Move
        from quarkade.agents.search import ISMCTSAgent, MCTSAgent
        from quarkade.core.agent import turn_for

        move = Move()
        legal: list[int] = []
        try:
            state = rebuild(self.game, self.options, self.history)
            agent = worker.agents.pop((self.key, self.spec), None) or worker.factory(
                self.spec, self.game, worker.plugins)
            worker.agents[(self.key, self.spec)] = agent
            if len(worker.agents) > KEPT_AGENTS:
                worker.agents.popitem(last=False)
            if self.budget is not None and isinstance(agent, MCTSAgent | ISMCTSAgent):
                agent.time = min(agent.time, self.budget) if agent.time else self.budget
            legal = state.legal_actions()
            turn = turn_for(state)
            rng = random.Random(random.SystemRandom().getrandbits(64))
            say("thinking")
            started = time.perf_counter()
            move.action = agent.act(turn, rng)
            move.seconds = time.perf_counter() - started
        except BaseException as problem:  # a bot may raise anything; the worker lives on
            move.error = problem
        move.finished = True
        found = move.problem(legal, math.inf if self.move_time is None else self.move_time)
        if found is None:
            return int(move.action)
        kind, what, detail = found
        if move.error is not None:
            reason = f"it raised {type(move.error).__name__}: {move.error}"
        elif kind == "illegal":
            reason = f"it chose {move.action!r}, which is not a legal action"
        else:
            reason = f"it {what}"
        raise JobFailed(reason[:300], kind, what, detail[:300])

    def think_limit(self) -> float | None:
        return self.move_time

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        if not thinking:
            return JobFailed(f"no move within its {seconds:g} s deadline", "time",
                             f"did not start its move within the server's {seconds:g} s "
                             "(stopped)")
        return JobFailed(f"no move within its {seconds:g} s deadline", "time",
                         f"gave no answer within its {seconds:g} s per move (stopped)")
