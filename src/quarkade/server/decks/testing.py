""""Test this deck": a deck played by a bot against each preset, in the background.

A run plays ``Limits.deck_test_games`` games against each preset (``plays``), in chunks
of ``CHUNK`` games, each a job of the asking player in the worker processes
(``quarkade.server.work``), so a deck test waits behind its player's own work only and
never holds anyone else's. After each chunk the run's progress is stored, so every
server process can answer for it. A process keeps at most ``Limits.deck_tests_waiting``
runs going; past that a run is refused (503) until one ends. A stopping process marks its
runs ``stopped``.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
from typing import Any

from quarkade.server.context import Context
from quarkade.server.decks.games import deck_rules
from quarkade.server.decks.plays import DeckChunk, plans
from quarkade.server.errors import ApiError
from quarkade.server.storage import StoredDeckTest, Unavailable
from quarkade.sim.stats import wilson

log = logging.getLogger("quarkade.server")

CHUNK = 25  # games per job: progress often enough, little overhead
AT_ONCE = 2  # chunks of one run in the scheduler at a time


class DeckTests:
    """The runs of this process."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.runs: dict[str, asyncio.Task[None]] = {}

    async def start(self, owner: str, game: str, deck: str) -> str:
        """Begin a run of ``deck`` (already checked) against ``game``'s presets for player
        ``owner``; its id."""
        ctx = self.ctx
        limits = ctx.limits
        if len(self.runs) >= limits.deck_tests_waiting:
            raise ApiError(503, f"{len(self.runs)} deck tests are running here already; try "
                           "again when one has finished")
        test_id = secrets.token_urlsafe(12)
        store = ctx.store
        try:
            await store.run(store.decks.start_test, test_id, owner, game, deck,
                            limits.deck_test_games, ctx.clock.time())
        except Unavailable:
            raise ApiError(503, "the database is not answering; try again in a moment"
                           ) from None
        task = ctx.tasks.spawn(self._run(test_id, owner, game, deck))
        self.runs[test_id] = task
        task.add_done_callback(lambda _: self.runs.pop(test_id, None))
        return test_id

    async def _run(self, test_id: str, owner: str, game: str, deck: str) -> None:
        presets = list(deck_rules(game).PRESETS)
        games = self.ctx.limits.deck_test_games
        results: dict[str, list[int]] = {preset: [0, 0, 0] for preset in presets}
        chunks = []  # interleaved, so every preset's rate fills in from the start
        work = {preset: [(plan, start, min(start + CHUNK, plan.games), seat)
                         for plan, seat in plans(game, deck, preset, games)
                         for start in range(0, plan.games, CHUNK)] for preset in presets}
        while any(work.values()):
            for preset in presets:
                if work[preset]:
                    chunks.append((preset, work[preset].pop(0)))
        limits = self.ctx.limits

        async def play(preset: str, chunk: tuple[Any, int, int, int]) -> None:
            plan, start, stop, seat = chunk
            wins, draws, played = await self.ctx.work.submit(
                DeckChunk(None, plan, start, stop, seat), f"player:{owner}", "deck test",
                limits.deck_chunk_seconds, bounded=False)
            total = results[preset]
            total[0] += wins
            total[1] += draws
            total[2] += played
            await self._save(test_id, results, "running")

        state = "done"
        try:
            for first in range(0, len(chunks), AT_ONCE):
                await asyncio.gather(*(play(*chunk) for chunk in
                                       chunks[first:first + AT_ONCE]))
        except asyncio.CancelledError:
            state = "stopped"
            raise
        except Exception as problem:  # a worker failed: say so, never leave it "running"
            log.error("deck test %s failed: %s", test_id, type(problem).__name__)
            state = "failed"
        finally:
            await asyncio.shield(self._save(test_id, results, state))

    async def _save(self, test_id: str, results: dict[str, list[int]], state: str) -> None:
        store = self.ctx.store
        try:
            await store.run(store.decks.update_test, test_id, results, state,
                            self.ctx.clock.time())
        except Unavailable:
            log.warning("deck test %s: progress not stored", test_id)

    async def close(self) -> None:
        for task in list(self.runs.values()):
            task.cancel()
        if self.runs:
            await asyncio.gather(*self.runs.values(), return_exceptions=True)


def report(test: StoredDeckTest, game: str) -> dict[str, Any]:
    """A run as the page shows it: progress, and per preset the deck's win rate with its
    95% interval (draws count half), beside the preset's own measured strength."""
    decks = deck_rules(game)
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
