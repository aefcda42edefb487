"""Which engine plays a run, and a run's games played by a compiled engine.

``reference``: every game through the protocol, with the agents themselves
(``quarkade.sim.play``); the result lines hold the game's extras (its analysis hook).

``compiled``: the game's compiled engine (``games/<game>/compiled.py``, numba, the
``quarkade[fast]`` extra) plays whole chunks of games at once. It can when the game has
one and every agent of the run has a compiled form there (its ``AGENTS``: ``random`` and
``greedy``, and the levels that name them). Its games are the same in law but not the
same games: it draws from its own random streams (``quarkade.core.jit``), so game ``i``
of a run has its own seed (``jit.game_seed``). It reports what the summary and the
ratings need (winners, decisions, actions, the first mover), not the game's extras.

``auto`` (what ``quarkade simulate`` does unless told otherwise) is ``compiled`` when it
can, else ``reference``.
"""

from __future__ import annotations

import importlib.util
import json
from functools import cache
from typing import Any

from quarkade.agents.registry import levels, parse_spec
from quarkade.core.errors import QuarkadeError
from quarkade.core.protocol import Outcome, shared_returns
from quarkade.core.registry import INSTALL_FAST, compiled_engine, has_compiled_engine, load_game
from quarkade.sim.plan import Plan, seat_agents
from quarkade.sim.tally import Tally

ENGINES = ("auto", "compiled", "reference")
AUTO, COMPILED, REFERENCE = ENGINES


def compiled_policy(game: str, spec: str) -> int | None:
    """The compiled policy id of agent ``spec`` in ``game``, or None if it has none."""
    name, params = parse_spec(spec)
    if params:
        return None
    level = levels(game).get(name) if name in ("easy", "medium", "hard") else name
    if not isinstance(level, str) or not has_compiled_engine(game):
        return None
    agents: dict[str, int] = compiled_engine(game).AGENTS
    return agents.get(level)


def unavailable(game: str, specs: list[str]) -> str | None:
    """Why the compiled engine cannot play these agents in ``game`` (None if it can)."""
    if not has_compiled_engine(game):
        return f"{game} has no compiled engine"
    if importlib.util.find_spec("numba") is None:
        return f"the compiled engines need numba: {INSTALL_FAST}"
    missing = [spec for spec in specs if compiled_policy(game, spec) is None]
    if missing:
        known = ", ".join(compiled_engine(game).AGENTS)
        return (f"{', '.join(missing)} {'has' if len(missing) == 1 else 'have'} no compiled "
                f"form in {game} (compiled agents: {known}, and the levels naming them)")
    return None


def choose_engine(plan: Plan, engine: str) -> str:
    """``compiled`` or ``reference`` for ``--engine engine``; a ``QuarkadeError`` when
    ``compiled`` is asked for and cannot play the run, or the engine is unknown."""
    if engine not in ENGINES:
        raise QuarkadeError(f"--engine {engine!r}: the engines are {', '.join(ENGINES)}")
    if engine == REFERENCE:
        return REFERENCE
    reason = unavailable(plan.game, plan.agents)
    if reason is None:
        return COMPILED
    if engine == COMPILED:
        raise QuarkadeError(f"--engine compiled: {reason}; use --engine reference or auto")
    return REFERENCE


def prepare(plan: Plan) -> None:
    """Load (or compile, the first time) the compiled engine of ``plan`` here, so that
    worker processes forked from this one start with it ready."""
    play_compiled_chunk(plan, 0, min(plan.total, 2), lines=False)


@cache
def _template(game: str, options_json: str) -> Any:
    loaded = load_game(game, **json.loads(options_json))
    return compiled_engine(game).new_state(loaded)


def play_compiled_chunk(plan: Plan, start: int, stop: int, lines: bool
                        ) -> tuple[list[str] | None, Tally]:
    """Games ``start .. stop - 1`` of ``plan`` on its game's compiled engine: their result
    lines (if ``lines``) and their tally."""
    import numpy as np

    from quarkade.core import jit

    module = compiled_engine(plan.game)
    template = _template(plan.game, json.dumps(plan.options, sort_keys=True))
    matchups = np.array([[compiled_policy(plan.game, spec) for spec in matchup]
                         for matchup in plan.matchups], dtype=np.int64)
    results = jit.new_results(stop - start)
    module.play_games(template, matchups, plan.games, plan.seed, start, results)
    players = plan.players
    k = len(plan.matchups[0])
    index = np.arange(start, stop, dtype=np.int64)
    rotation = (index // plan.games) * k + index % plan.games % k
    winners = results[:, jit.WINNERS]
    first = results[:, jit.FIRST]
    decisions = results[:, jit.DECISIONS]
    # One key per outcome (matchup and rotation, winners, first mover), in the order met.
    key = (rotation * (1 << players) + winners) * (players + 1) + first + 1
    keys, met, group = np.unique(key, return_index=True, return_inverse=True)
    longest = int(decisions.max()) + 1
    pairs, counts = np.unique(group * longest + decisions, return_counts=True)
    histograms: list[dict[int, int]] = [{} for _ in keys]
    for pair, count in zip(pairs.tolist(), counts.tolist(), strict=True):
        histograms[pair // longest][pair % longest] = count
    tally = Tally()
    for position in np.argsort(met, kind="stable").tolist():
        row = int(met[position])
        matchup = plan.matchups[(start + row) // plan.games]
        seats = tuple(seat_agents(matchup, players, (start + row) % plan.games))
        mask = int(winners[row])
        seat = int(first[row])
        tally.add_outcome(plan.game, tuple(matchup), seats,
                          tuple(s for s in range(players) if mask >> s & 1),
                          seat if seat >= 0 else None, histograms[position])
    return (_lines(plan, start, results) if lines else None), tally


def _lines(plan: Plan, start: int, results: Any) -> list[str]:
    """Result lines as ``quarkade.sim.play`` writes them (its keys, in its order), without
    the game's extras, and with ``"engine": "compiled"``."""
    from quarkade.core import jit

    head = (f'"game":{json.dumps(plan.game)},"options":'
            f'{json.dumps(plan.options, separators=(",", ":"))},"run_seed":{plan.seed}')
    players = plan.players
    seats_json: dict[tuple[int, int], str] = {}
    outcome_json: dict[int, str] = {}
    lines = []
    for row, (seed, mask, decisions, actions, first) in enumerate(
            results[:, [jit.SEED, jit.WINNERS, jit.DECISIONS, jit.ACTIONS,
                        jit.FIRST]].tolist()):
        index = start + row
        matchup_index, j = divmod(index, plan.games)
        matchup = plan.matchups[matchup_index]
        place = (matchup_index, j % len(matchup))
        seats = seats_json.get(place)
        if seats is None:
            seats = seats_json[place] = (
                f'"agents":{json.dumps(list(matchup), separators=(",", ":"))},"seats":'
                f'{json.dumps(seat_agents(matchup, players, j), separators=(",", ":"))}')
        outcome = outcome_json.get(mask)
        if outcome is None:
            won = [s for s in range(players) if mask >> s & 1]
            outcome = outcome_json[mask] = (
                f'"winners":{json.dumps(won, separators=(",", ":"))},"result":'
                f'{json.dumps(Outcome.of(won).result)},"returns":'
                f'{json.dumps(shared_returns(won, players), separators=(",", ":"))}')
        shown_first = "null" if first < 0 else str(first)
        lines.append(f'{{"index":{index},{head},"seed":{seed},{seats},{outcome},'
                     f'"length":{decisions},"actions":{actions},"first":{shown_first},'
                     f'"engine":"compiled"}}\n')
    return lines
