"""What the worker processes compute: a bot's move, a hint, a review, a chunk of a deck test.

Each job is replayable data only (a game's name, options and history; never a state
object), rebuilt in the worker, where the agent gets only its seat's ``Turn``. Each runs
in a worker process of ``quarkade.server.work.pool`` under the deadline the scheduler
gives it.

A bot's move has a thinking budget whatever its spec: a built-in search bot is given it
as its time cap (the search's own "whichever runs out first", so it answers with its best
move in time rather than being cut off), and any bot still thinking when it is spent is
stopped by the pool. A plug-in bot's move time is its own budget, measured here from the
moment it starts thinking.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

from quarkade.server.work.pool import JobFailed, WorkerState

KEPT_AGENTS = 64  # agents a worker keeps between moves (by game and seat)


def server_agent(spec: str, game: str, plugins: Collection[str] = ()) -> Any:
    """The default agent factory of the workers: the agent for ``spec``, a plug-in bare
    (the worker's deadline contains it)."""
    from quarkade.agents.registry import make_agent

    return make_agent(spec, game, plugins=plugins, contained=False)


def _state(game: str, options: dict[str, Any], history: list[int]) -> Any:
    from quarkade.core.registry import load_game

    state = load_game(game, **options).new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


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
            state = _state(self.game, self.options, self.history)
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


@dataclass(frozen=True)
class HintSearch:
    """The hint for ``seat``, to move now: the hard bot's move and a win chance for each
    legal move, labelled as the seat's page reads them (JSON)."""

    key: str | None
    game: str
    options: dict[str, Any]
    history: list[int]
    seat: int
    names: list[str]
    seed: int

    def run(self, worker: WorkerState, say: Callable[..., None]) -> dict[str, Any]:
        from quarkade.core.agent import turn_for
        from quarkade.learn.hints import hint_for

        state = _state(self.game, self.options, self.history)
        turn = turn_for(state)
        found = hint_for(turn, random.Random(self.seed),
                         past_turns=_past_turns(self.game, self.options, self.history,
                                                self.seat))
        labels = {move.action: self._label(turn, move.text) for move in found.moves}
        body = found.as_json()
        for move in body["moves"]:
            move["label"] = labels[move["id"]]
        body["bot_move"]["label"] = labels[found.bot_move]
        return body

    def _label(self, turn: Any, text: str) -> str:
        from quarkade.core.errors import QuarkadeError
        from quarkade.core.words import action_label

        try:
            return " ".join(action_label(self.game, turn.view, text, self.names).split())
        except QuarkadeError:
            return text

    def think_limit(self) -> float | None:
        return None

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        return JobFailed(f"no hint within {seconds:g} s", "time")


def _past_turns(game: str, options: dict[str, Any], history: list[int],
                seat: int) -> Iterator[Any]:
    """The seat's earlier turns of the game, rebuilt from its history (read only by a bot
    that remembers, such as Dead Cat's sleuth)."""
    from quarkade.core.agent import turn_for

    state = _state(game, options, [])
    for action in history:
        if state.current_player() == seat:
            yield turn_for(state)
        state.apply_action(action)


@dataclass(frozen=True)
class ReviewRun:
    """A finished game's review for ``seats`` as ``viewer`` may read it (JSON); says its
    progress as decisions are judged. ``ended`` is the server's outcome of a game it
    decided (its rules did not end it)."""

    key: str | None
    game: str
    options: dict[str, Any]
    history: list[int]
    seats: list[int]
    viewer: int
    names: list[str]
    budget: Any  # quarkade.learn.review.Budget
    seed: str
    ended: dict[str, Any] | None = None

    def run(self, worker: WorkerState, say: Callable[..., None]) -> dict[str, Any]:
        from quarkade.core.registry import load_game
        from quarkade.learn.review import review_game

        found = review_game(load_game(self.game, **self.options), self.history, self.seats,
                            viewer=self.viewer, names=self.names, budget=self.budget,
                            seed=self.seed, progress=lambda done, total:
                            say("progress", done, total), ended=self.ended)
        return dict(found.as_json())

    def think_limit(self) -> float | None:
        return None

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        return JobFailed(f"the review took more than {seconds:g} s", "time")


@dataclass(frozen=True)
class DeckChunk:
    """Games ``start..stop-1`` of a deck test's plan: (wins, draws, games) of the deck
    at ``seat`` (``quarkade.server.decks.plays.tally``)."""

    key: str | None
    plan: Any
    start: int
    stop: int
    seat: int

    def run(self, worker: WorkerState, say: Callable[..., None]) -> tuple[int, int, int]:
        from quarkade.server.decks.plays import tally

        return tally(self.plan, self.start, self.stop, self.seat)

    def think_limit(self) -> float | None:
        return None

    def overran(self, seconds: float, thinking: bool) -> JobFailed:
        return JobFailed(f"a chunk of the deck test took more than {seconds:g} s", "time")
