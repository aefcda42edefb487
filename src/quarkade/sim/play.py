"""Play game ``i`` of a plan and describe it as one JSON result line.

This is what every back end runs, in this process, in a local worker process or on a Ray
node: ``play_chunk(plan, start, stop)`` gives the lines of games ``start..stop-1``.
A line depends only on the plan and the game's index, never on where it was played.

A line holds, in this order: ``index``, ``game``, ``options``, ``run_seed``, ``seed``
(the game's own seed), ``agents`` (the matchup, the rotation list), ``seats`` (the agent
at each seat), ``winners`` and ``result`` (``State.outcome()``: who won, and whether it was
a win, a shared win or a draw), ``returns``, ``length`` (decisions taken by seats),
``actions`` (all actions, chance included), ``first`` (the seat that took the first
decision), then whatever the game's analysis hook adds: ``lead_changes`` and
``decided_at`` (with a running score), ``events``, ``tags`` and ``tallies`` (per seat,
each table as a list of ``[value, hits, trials]``, so that numbers stay numbers in JSON).
A game in which a plug-in bot was stopped has ``faults`` (``quarkade.core.records.Fault``
as JSON, before the hook's keys): its seat played ``random`` from then on.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import asdict, dataclass
from functools import cache
from typing import Any

from quarkade.agents import make_agent
from quarkade.agents.contained import faults_of
from quarkade.core.agent import Agent
from quarkade.core.protocol import CHANCE, Game, State
from quarkade.core.registry import load_game
from quarkade.sim.hooks import game_analysis
from quarkade.sim.match import play_game
from quarkade.sim.plan import Plan
from quarkade.sim.tally import Tally


@cache
def _game(name: str, options_json: str) -> Game:
    return load_game(name, **json.loads(options_json))


@cache
def _prototype(spec: str, game: str, move_time: float) -> Agent:
    return make_agent(spec, game, move_time=move_time)


def play_one(plan: Plan, index: int) -> dict[str, Any]:
    """Play game ``index`` of ``plan``; its result as a JSON-ready dict."""
    game = _game(plan.game, json.dumps(plan.options, sort_keys=True))
    specs = plan.seats(index)
    # Fresh agents for every game (copies of a never-used one, cheaper than parsing the
    # spec again): no memory carried from game to game, so a game's result cannot depend
    # on which games a worker happened to play before it.
    agents = [copy.deepcopy(_prototype(spec, plan.game, plan.move_time)) for spec in specs]
    seed = plan.game_seed(index)
    state = play_game(game, agents, seed)
    hook = game_analysis(plan.game)
    walk = walk_game(state, hook.running_score)
    outcome = state.outcome()
    assert outcome is not None  # play_game plays to the end
    line: dict[str, Any] = {
        "index": index,
        "game": plan.game,
        "options": plan.options,
        "run_seed": plan.seed,
        "seed": seed,
        "agents": list(plan.matchups[index // plan.games]),
        "seats": specs,
        "winners": list(outcome.winners),
        "result": outcome.result,
        "returns": state.returns(),
        "length": walk.decisions,
        "actions": len(state.history()),
        "first": walk.first,
    }
    faults = faults_of(agents)
    if faults:  # a plug-in bot was stopped: the game is flagged
        line["faults"] = [asdict(fault) for fault in faults]
    if hook.running_score is not None:
        line["lead_changes"], line["decided_at"] = walk.lead_changes, walk.decided_at
    if hook.key_events is not None:
        line["events"] = hook.key_events(state)
    if hook.game_tags is not None or hook.seat_tags is not None:
        line["tags"] = {
            "game": hook.game_tags(state) if hook.game_tags is not None else {},
            "seats": hook.seat_tags(state) if hook.seat_tags is not None
            else [{} for _ in specs],
        }
    if hook.tallies is not None:
        line["tallies"] = [{name: [[value, *counts] for value, counts in table.items()]
                            for name, table in seat.items()} for seat in hook.tallies(state)]
    return line


@dataclass(frozen=True)
class Walk:
    """What a replay of a finished game tells: decisions, the first mover, the lead."""

    decisions: int
    first: int | None
    lead_changes: int | None
    decided_at: float | None


def walk_game(state: State, running_score: Callable[[State], list[float]] | None) -> Walk:
    """Replay ``state``'s game once: who decided (only the protocol knows, so replay) and,
    with a running score, the lead.

    The leader is the seat with the strictly highest running score after an action (a tie
    leaves no leader); a lead change is a new leader different from the last one.
    ``decided_at`` is the fraction of the game's actions played when the sole winner last
    became the leader (it then led to the end); ``None`` without a sole winner.
    """
    replay = state.game.new_initial_state()
    history = state.history()
    decisions = 0
    first: int | None = None
    leader = previous = -1
    changes = 0
    since = 0  # actions played when the current leader took the lead
    for step, action in enumerate(history):
        player = replay.current_player()
        if player != CHANCE:
            decisions += 1
            if first is None:
                first = player
        replay.apply_action(action)
        if running_score is None:
            continue
        scores = running_score(replay)
        best = max(scores)
        top = [seat for seat, score in enumerate(scores) if score == best]
        now = top[0] if len(top) == 1 else -1
        if now != leader:
            since, leader = step, now
            if now >= 0:
                changes += previous >= 0 and now != previous
                previous = now
    if running_score is None:
        return Walk(decisions, first, None, None)
    winners = state.winners()
    decided = round(since / len(history), 4) \
        if len(winners) == 1 and leader == winners[0] else None
    return Walk(decisions, first, changes, decided)


def to_line(result: dict[str, Any]) -> str:
    """One result as its line of text (compact JSON and a newline)."""
    return json.dumps(result, separators=(",", ":")) + "\n"


@dataclass
class Chunk:
    """Games ``start`` to ``start + count - 1`` of a run: their result lines (None when the
    run keeps no file) and their tally."""

    start: int
    count: int
    lines: list[str] | None
    tally: Tally


def play_chunk(plan: Plan, start: int, stop: int, engine: str = "reference",
               lines: bool = True) -> Chunk:
    """Games ``start`` to ``stop - 1`` of ``plan`` on ``engine`` (``reference``,
    ``compiled``, or ``auto``: compiled when it can play the plan; see
    ``quarkade.sim.engines``)."""
    if engine == "auto":
        from quarkade.sim.engines import choose_engine

        engine = choose_engine(plan, engine)
    if engine == "compiled":
        from quarkade.sim.engines import play_compiled_chunk

        kept, tally = play_compiled_chunk(plan, start, stop, lines)
        return Chunk(start, stop - start, kept, tally)
    tally = Tally()
    written: list[str] | None = [] if lines else None
    for index in range(start, stop):
        result = play_one(plan, index)
        tally.add(result)
        if written is not None:
            written.append(to_line(result))
    return Chunk(start, stop - start, written, tally)
