""""Test this deck": a deck played by a bot against each preset, in the background.

A run plays ``Limits.deck_test_games`` games against each preset, half with the deck at
seat 0 and half at seat 1 (both seats played by the game's test bot, ``greedy`` for
Decoherence), with the simulator's own plans and chunks (``quarkade.sim``): game ``i`` of
a run is fixed by its plan, so a run can be repeated. Chunks are played in a bounded pool
of worker processes (``Limits.deck_test_workers``), never on the event loop; after each
chunk the run's progress is stored, so every server process can answer for it. A process
keeps at most ``Limits.deck_tests_waiting`` runs queued or running; past that a run is
refused (503) until one ends. A stopping process marks its runs ``stopped``.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing
import secrets
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, Any

from quarkade.core.registry import game_part, load_game
from quarkade.server.errors import ApiError
from quarkade.server.storage import StoredDeckTest, Unavailable
from quarkade.sim.plan import simulation_plan
from quarkade.sim.play import play_chunk
from quarkade.sim.stats import wilson

if TYPE_CHECKING:
    from quarkade.server.hub import Hub

log = logging.getLogger("quarkade.server")

CHUNK = 25  # games per task: progress often enough, little overhead
RUN_SEED = 16


def plans(game: str, deck: str, preset: str, games: int) -> list[tuple[Any, int]]:
    """The two plans of a deck against one preset (the deck at seat 0, then at seat 1),
    each with the seat the deck holds."""
    decks = game_part(game, "decks")
    found = []
    for seat in (0, 1):
        chosen = {decks.DECK_OPTION.format(seat=seat): deck,
                  decks.DECK_OPTION.format(seat=1 - seat): preset}
        options = dict(load_game(game, **chosen).options)
        half = games // 2 + (games % 2 if seat == 0 else 0)
        found.append((simulation_plan(game, options, [decks.TEST_AGENT], half, RUN_SEED),
                      seat))
    return found


def tally(plan: Any, start: int, stop: int, seat: int) -> tuple[int, int, int]:
    """Games ``start..stop-1`` of ``plan``: (wins, draws, games) of the deck at ``seat``."""
    wins = draws = 0
    lines = play_chunk(plan, start, stop, engine="auto").lines or []
    for line in lines:
        winners = json.loads(line)["winners"]
        wins += seat in winners
        draws += not winners
    return wins, draws, stop - start


class DeckTests:
    """The runs of this process and their worker pool (made on the first run)."""

    def __init__(self, hub: Hub) -> None:
        self.hub = hub
        self.pool: ProcessPoolExecutor | None = None
        self.runs: dict[str, asyncio.Task[None]] = {}

    async def start(self, owner: str, game: str, deck: str) -> str:
        """Begin a run of ``deck`` (already checked) against ``game``'s presets; its id."""
        limits = self.hub.limits
        if len(self.runs) >= limits.deck_tests_waiting:
            raise ApiError(503, f"{len(self.runs)} deck tests are running here already; try "
                           "again when one has finished")
        test_id = secrets.token_urlsafe(12)
        store = self.hub.store
        try:
            await store.run(store.start_deck_test, test_id, owner, game, deck,
                            limits.deck_test_games, self.hub.clock.time())
        except Unavailable:
            raise ApiError(503, "the database is not answering; try again in a moment"
                           ) from None
        if self.pool is None:  # spawned, not forked: the server process holds threads
            self.pool = ProcessPoolExecutor(limits.deck_test_workers,
                                            mp_context=multiprocessing.get_context("spawn"))
        task = asyncio.get_running_loop().create_task(self._run(test_id, game, deck))
        self.runs[test_id] = task
        task.add_done_callback(lambda _: self.runs.pop(test_id, None))
        return test_id

    async def _run(self, test_id: str, game: str, deck: str) -> None:
        loop = asyncio.get_running_loop()
        presets = list(game_part(game, "decks").PRESETS)
        games = self.hub.limits.deck_test_games
        results: dict[str, list[int]] = {preset: [0, 0, 0] for preset in presets}
        chunks = []  # interleaved, so every preset's rate fills in from the start
        work = {preset: [(plan, start, min(start + CHUNK, plan.games), seat)
                         for plan, seat in plans(game, deck, preset, games)
                         for start in range(0, plan.games, CHUNK)] for preset in presets}
        while any(work.values()):
            for preset in presets:
                if work[preset]:
                    chunks.append((preset, work[preset].pop(0)))
        pool = self.pool
        assert pool is not None

        async def play(preset: str, chunk: tuple[Any, int, int, int]
                       ) -> tuple[str, tuple[int, int, int]]:
            return preset, await loop.run_in_executor(pool, tally, *chunk)

        tasks = [asyncio.ensure_future(play(preset, chunk)) for preset, chunk in chunks]
        state = "done"
        try:
            for finished in asyncio.as_completed(tasks):
                preset, (wins, draws, played) = await finished
                total = results[preset]
                total[0] += wins
                total[1] += draws
                total[2] += played
                await self._save(test_id, results, "running")
        except asyncio.CancelledError:
            state = "stopped"
            raise
        except Exception as problem:  # a worker died: say so, never leave it "running"
            log.error("deck test %s failed: %s", test_id, type(problem).__name__)
            state = "failed"
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.shield(self._save(test_id, results, state))

    async def _save(self, test_id: str, results: dict[str, list[int]], state: str) -> None:
        store = self.hub.store
        try:
            await store.run(store.update_deck_test, test_id, results, state,
                            self.hub.clock.time())
        except Unavailable:
            log.warning("deck test %s: progress not stored", test_id)

    async def close(self) -> None:
        for task in list(self.runs.values()):
            task.cancel()
        if self.runs:
            await asyncio.gather(*self.runs.values(), return_exceptions=True)
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)


def report(test: StoredDeckTest, game: str) -> dict[str, Any]:
    """A run as the page shows it: progress, and per preset the deck's win rate with its
    95% interval (draws count half), beside the preset's own measured strength."""
    decks = game_part(game, "decks")
    rows = []
    done = 0
    for preset in decks.PRESETS:
        wins, draws, played = test.results.get(preset, [0, 0, 0])
        done += played
        score = wins + draws / 2
        low, high = wilson(score, played)
        rate, preset_low, preset_high = decks.PRESET_STRENGTH[preset]
        rows.append({"preset": preset, "games": played, "wins": wins, "draws": draws,
                     "rate": score / played if played else None,
                     "low": low if played else None, "high": high if played else None,
                     "preset_strength": {"rate": rate, "low": preset_low,
                                         "high": preset_high}})
    total = test.games * len(decks.PRESETS)
    return {"id": test.id, "game": test.game, "deck": test.deck, "state": test.state,
            "games": test.games, "done": done, "total": total, "presets": rows}
