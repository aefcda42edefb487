"""Load on the web server: many live two-seat games, moves at a fixed rate, and memory
after thousands of finished games, for 1 and 2 server processes on SQLite and
PostgreSQL.

Run with ``make bench`` (or ``python bench/bench_server.py [--games 500] [--seconds 20]
[--rate 100] [--finished 10000] [--scale-games 5000] [--scale-rate 500] [--only ROW]``).
For each configuration it starts ``quarkade serve`` (on a private PostgreSQL and
redis-server, as the tests do), and this process (a separate one, on loopback only)
opens two sockets per game plus spectators, sends moves at a fixed aggregate rate round
the games, and times each move from its send to the moment every other page of its game
(the other seat and its spectators) has the new state. Then it opens ``--finished``
finished games, stored beforehand, and reads each server process's resident memory every
2,000. Everything is bounded: the move phase by ``--seconds``, a missing update by 5 s.
A row at scale (PostgreSQL, 2 processes: 5,000 games, 10,000 sockets, 500 moves/s; the
open-files limit is raised for it) follows, and the fairness of issue 24: one player's
six games of the heaviest bot spec the web accepts on each process, and how long another
player's bot:random takes to answer.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import resource
import signal
import statistics
import sys
import time
import urllib.request
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import websockets
from rich.console import Console
from rich.table import Table

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.server.processes import Server, Visitor, new_friend_game, receive_state
from tests.server.services import Postgres, Redis

from quarkade import load_game
from quarkade.server.keys import digest, new_secret
from quarkade.server.play.seats import new_game_id
from quarkade.server.storage import Store, StoredSeat

try:  # the load runs on the loop the server runs on (uvloop where installed)
    from uvloop import run as run_loop
except ImportError:  # pragma: no cover - Windows
    from asyncio import run as run_loop

MISSED_AFTER = 5.0
GOAL = "postgresql, 2 processes"


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


def server_pids(main: int, workers: int) -> list[int]:
    """The processes serving requests: the main one, or its uvicorn workers (waiting until
    every one has started: the first to answer may be alone yet)."""
    if workers == 1:
        return [main]
    deadline = time.monotonic() + 60
    while True:
        children = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rsplit(")", 1)[1].split()
                if int(fields[1]) == main and "python" in (stat.parent / "comm").read_text() \
                        and b"resource_tracker" not in (stat.parent / "cmdline").read_bytes():
                    children.append(int(stat.parent.name))
            except OSError:
                continue
        if len(children) >= workers or time.monotonic() > deadline:
            return sorted(children)
        time.sleep(0.1)


def store_finished_games(db: str, count: int) -> list[str]:
    """``count`` finished Hadronize games (random play), stored as the server stores them."""
    store = Store(db)
    rng = random.Random(1)
    game = load_game("hadronize", goal=1)
    ids = []
    for _ in range(count):
        state = game.new_initial_state()
        played = []
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            played.append((state.current_player(), action))
            state.apply_action(action)
        game_id = new_game_id()
        store.games.create(game_id, "hadronize", dict(game.options), digest(new_secret()), [
            StoredSeat(seat, "friend", None, f"seat {seat}", digest(new_secret()), True)
            for seat in range(2)])
        store.games.add_actions(game_id, 0, played, state.returns())
        ids.append(game_id)
    store.close()
    return ids


class Load:
    """The live phase: sockets, a move schedule, and what each move's update took."""

    def __init__(self, url: str, games: list[tuple[str, dict[int, str]]], spectators: int):
        self.ws = url.replace("http", "ws", 1)
        self.games = games
        self.spectators = spectators
        self.latest: dict[str, dict] = {}  # game -> newest state seen by its seat to move
        self.sockets: dict[str, list] = {}
        self.seat_sockets: dict[tuple[str, int], object] = {}
        self.pending: dict[str, tuple[int, float, set[int]]] = {}
        self.latencies: list[float] = []
        self.refused = 0
        self.reasons: Counter[str] = Counter()
        self.missed = 0

    async def open(self) -> None:
        limit = asyncio.Semaphore(50)

        async def connect(game_id, query, key, token=None):
            async with limit:
                # No pings from this side, as from a browser (the server pings each socket
                # and is answered): 10,000 sockets' pings would be the load's own work.
                socket = await websockets.connect(
                    f"{self.ws}/ws/games/{game_id}{query}", max_size=2**22, open_timeout=60,
                    ping_interval=None,
                    additional_headers={"authorization": f"Bearer {token}"} if token else None)
            self.sockets.setdefault(game_id, []).append(socket)
            asyncio.get_running_loop().create_task(self.read(game_id, socket, key))
            return socket

        jobs = []
        for index, (game_id, tokens) in enumerate(self.games):
            for seat, token in tokens.items():
                jobs.append((game_id, f"?seat={seat}", seat, token))
            if index < self.spectators:
                jobs.append((game_id, "?seat=spectator", -1 - index))
        made = await asyncio.gather(*(connect(*job) for job in jobs))
        for (game_id, _, key, *_), socket in zip(jobs, made, strict=True):
            if key >= 0:
                self.seat_sockets[(game_id, key)] = socket

    async def read(self, game_id: str, socket, key: int) -> None:
        try:
            async for raw in socket:
                message = json.loads(raw)
                if message["type"] == "error":
                    self.refused += 1
                    self.reasons[f"{message['status']} {message['message'][:60]}"] += 1
                    continue
                if message["type"] != "state":
                    continue
                if message["legal"]:
                    self.latest[game_id] = message
                pending = self.pending.get(game_id)
                if pending and message["step"] > pending[0] and id(socket) in pending[2]:
                    pending[2].discard(id(socket))
                    if not pending[2]:
                        self.latencies.append(time.monotonic() - pending[1])
                        del self.pending[game_id]
        except websockets.ConnectionClosed:
            pass

    async def run(self, rate: float, seconds: float) -> int:
        """Send moves at ``rate`` for ``seconds``, then wait for the last updates; sets
        ``busy``, the share of one core this process (the load) spent meanwhile, and
        ``late``, its event loop's worst lag (a load near a full core measures itself)."""
        # The load's own sockets and states, frozen as the server freezes its games
        # (server/collector.py): a full collection over 10,000 sockets stopped this
        # process for over a second, which its timings then blamed on the server.
        gc.collect()
        gc.freeze()
        sent = 0
        start = time.monotonic()
        began_cpu = time.process_time()
        self.late = 0.0
        order = [g for g, _ in self.games]
        index = 0
        while time.monotonic() - start < seconds:
            now = time.monotonic()
            for game_id, (_, when, _) in list(self.pending.items()):
                if now - when > MISSED_AFTER:
                    self.missed += 1
                    del self.pending[game_id]
            for _ in range(len(order)):
                game_id = order[index % len(order)]
                index += 1
                state = self.latest.get(game_id)
                if state and game_id not in self.pending and not state["over"]:
                    break
            else:
                await asyncio.sleep(1 / rate)
                continue
            seat = state["viewpoint"]
            others = {id(s) for s in self.sockets[game_id] if s is not
                      self.seat_sockets[(game_id, seat)]}
            self.pending[game_id] = (state["step"], time.monotonic(), others)
            del self.latest[game_id]
            try:
                await self.seat_sockets[(game_id, seat)].send(json.dumps(
                    {"type": "act", "action": random.choice(state["legal"])["id"],
                     "step": state["step"]}))
            except websockets.ConnectionClosed:  # the server closed it (a missed ping)
                del self.pending[game_id]
                self.missed += 1
                self.reasons["socket closed by the server"] += 1
                continue
            sent += 1
            target = start + sent / rate
            now = time.monotonic()
            self.late = max(self.late, now - target)
            await asyncio.sleep(max(0.0, target - now))
        self.busy = (time.process_time() - began_cpu) / (time.monotonic() - start)
        deadline = time.monotonic() + MISSED_AFTER
        while self.pending and time.monotonic() < deadline:
            await asyncio.sleep(0.05)
        self.missed += len(self.pending)
        return sent

    async def close(self) -> None:
        await asyncio.gather(*(s.close() for sockets in self.sockets.values()
                               for s in sockets), return_exceptions=True)


def open_finished(url: str, ids: list[str], pids: list[int]) -> list[list[float]]:
    """Open each finished game once (a page load's API read); RSS every 2,000 games."""
    samples = [[rss_mb(pid) for pid in pids]]

    def fetch(game_id: str) -> None:
        with urllib.request.urlopen(f"{url}/api/games/{game_id}", timeout=60) as answer:
            answer.read()

    with ThreadPoolExecutor(16) as pool:
        for start in range(0, len(ids), 2000):
            list(pool.map(fetch, ids[start:start + 2000]))
            samples.append([rss_mb(pid) for pid in pids])
    return samples


def measure(label: str, db: str, broker: str, workers: int, args, finished: list[str],
            console: Console, games_count: int | None = None, rate: float | None = None,
            spectators: int | None = None):
    """One configuration's row: ``games_count`` games (two seat sockets each, and
    ``spectators``), ``rate`` moves a second for ``args.seconds``, then ``finished``
    games opened."""
    games_count = args.games if games_count is None else games_count
    rate = args.rate if rate is None else rate
    spectators = args.spectators if spectators is None else spectators
    server = Server(db, broker, "--workers", str(workers), "--no-rate-limits") if workers > 1 \
        else Server(db, "", "--no-rate-limits")
    try:
        pids = server_pids(server.process.pid, workers)
        began = time.monotonic()
        with ThreadPoolExecutor(16) as pool:
            games = list(pool.map(lambda _: new_friend_game(server, goal=40),
                                  range(games_count)))
        console.print(f"  {games_count} games made and joined in "
                      f"{time.monotonic() - began:.0f} s")
        load = Load(server.url, games, spectators)

        async def live() -> int:
            await load.open()
            await asyncio.sleep(1)  # every first state in
            sent = await load.run(rate, args.seconds)
            await load.close()
            return sent

        sent = run_loop(live())
        began = time.monotonic()
        rss = open_finished(server.url, finished, pids)
        console.print(f"  {len(finished)} finished games opened in "
                      f"{time.monotonic() - began:.0f} s")
    finally:
        server.stop()
    times = sorted(load.latencies)

    def pct(p: float) -> float:
        return 1000 * times[min(len(times) - 1, int(p * len(times)))] if times else float("nan")

    after_2000 = sum(rss[1]) if len(rss) > 1 else float("nan")
    return {"label": label, "sent": sent, "rate": sent / args.seconds,
            "games": games_count, "sockets": 2 * games_count + spectators,
            "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99),
            "median": 1000 * statistics.median(times) if times else float("nan"),
            "missed": load.missed, "refused": load.refused, "reasons": load.reasons,
            "load busy": load.busy, "load late": load.late,
            "rss": [round(sum(sample)) for sample in rss],
            "flat": (sum(rss[-1]) - after_2000) / after_2000 if after_2000 else float("nan")}


SCALE = "postgresql, 2 processes, at scale"
HEAVY = "bot:ismcts:iterations=20000,rollout=greedy,rollout_depth=1000"


def raise_open_files(wanted: int) -> int:
    """Allow this process (and the servers it starts) ``wanted`` open files, as far as the
    hard limit goes: every socket is one, on both sides."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < wanted:
        soft = wanted if hard == resource.RLIM_INFINITY else min(wanted, hard)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
    return soft


def fairness(label: str, servers: list[Server], answers: int) -> dict:
    """Issue 24's HIGH finding: one player's six games of the heaviest spec the web
    accepts on each process, and how long another player's bot:random takes to answer
    each of ``answers`` moves."""
    ann, bob = Visitor(), Visitor()
    for server in servers:
        ann.request(server, "GET", "/api/me")
        for _ in range(6):
            status, made = ann.request(server, "POST", "/api/games",
                                       {"game": "hadronize", "seats": [HEAVY, HEAVY]})
            assert status == 201, made
    deadline = time.monotonic() + 120
    while any(server.get("/healthz")[1]["workers"]["running"] < 2 for server in servers):
        assert time.monotonic() < deadline, "the heavy bots never took the workers"
    bob.request(servers[0], "GET", "/api/me")
    status, made = bob.request(servers[0], "POST", "/api/games", {
        "game": "hadronize", "seats": ["you", "bot:random"]})
    assert status == 201, made
    took = []
    with bob.socket(servers[-1], made["id"]) as page:
        shown = receive_state(page, lambda m: m["to_move"] == 0)
        for _ in range(answers):
            if shown["over"]:
                break
            sent = time.monotonic()
            page.send(json.dumps({"type": "act", "action": shown["legal"][0]["id"],
                                  "step": shown["step"]}))
            shown = receive_state(page, lambda m, s=shown["step"]: m["step"] > s + 1 and
                                  m["to_move"] in (0, None))
            took.append(time.monotonic() - sent)
    busy = [server.get("/healthz")[1]["workers"]["running"] for server in servers]
    return {"label": label, "answers": took, "busy": busy}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--spectators", type=int, default=200)
    parser.add_argument("--rate", type=float, default=100.0, help="moves per second, in all")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--finished", type=int, default=10_000,
                        help="finished games opened by the goal's configuration")
    parser.add_argument("--finished-others", type=int, default=4_000,
                        help="finished games opened by the other configurations")
    parser.add_argument("--scale-games", type=int, default=5_000,
                        help=f"games of the row {SCALE!r} (two seat sockets each)")
    parser.add_argument("--scale-rate", type=float, default=500.0,
                        help=f"moves per second of the row {SCALE!r}")
    parser.add_argument("--fair-answers", type=int, default=10,
                        help="bot:random answers timed beside the heavy bots")
    parser.add_argument("--only", default="", help=f"one row, e.g. {GOAL!r}, {SCALE!r} or "
                        "'fairness'")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # stop the servers on the way out
    files = raise_open_files(4 * args.scale_games + 1000)
    console = Console(width=170)
    postgres, redis = Postgres(), Redis()
    rows, fair = [], []
    try:
        import tempfile

        folder = Path(tempfile.mkdtemp(prefix="quarkade-bench-"))
        os.environ.setdefault("QUARKADE_SECRET_FILE", str(folder / "session.key"))
        for kind in ("sqlite", "postgresql"):
            if args.only and args.only not in (f"{kind}, 1 process", f"{kind}, 2 processes"):
                continue  # (the row at scale opens no finished games)
            db = f"sqlite:///{folder / 'bench.db'}" if kind == "sqlite" else \
                postgres.new_database()
            finished = store_finished_games(db, args.finished)
            for workers in (1, 2):
                label = f"{kind}, {workers} process{'es' if workers > 1 else ''}"
                if args.only and label != args.only:
                    continue
                console.print(f"[bold]{label}[/bold]: {args.games} games, "
                              f"{2 * args.games + args.spectators} sockets ...")
                # The goal's configuration opens every finished game; the others fewer.
                opened = finished if label == GOAL else finished[:args.finished_others]
                rows.append(measure(label, db, redis.url(), workers, args, opened, console))
        if not args.only or args.only == SCALE:
            console.print(f"[bold]{SCALE}[/bold]: {args.scale_games} games, "
                          f"{2 * args.scale_games} sockets (open files allowed: {files}) ...")
            row = measure(SCALE, postgres.new_database(), redis.url(), 2, args, [], console,
                          args.scale_games, args.scale_rate, 0)
            rows.append(row)
        if not args.only or args.only == "fairness":
            sqlite_server = [Server(f"sqlite:///{folder / 'fair.db'}", "", "--no-rate-limits")]
            try:
                fair.append(fairness("sqlite, 1 process", sqlite_server, args.fair_answers))
            finally:
                sqlite_server[0].stop()
            db, broker = postgres.new_database(), redis.url()
            pair = [Server(db, broker, "--no-rate-limits") for _ in range(2)]
            try:
                fair.append(fairness("postgresql, 2 processes", pair, args.fair_answers))
            finally:
                for server in pair:
                    server.stop()
    finally:
        postgres.close()
        redis.close()
    if rows:
        table = Table(title=f"Server load: two-seat games (two seat sockets each, and "
                      f"{args.spectators} spectators except at scale), moves at a fixed rate "
                      f"for {args.seconds:g} s; then finished games opened ({args.finished} "
                      f"for {GOAL}, {args.finished_others} for the others)")
        for head in ("configuration", "games", "sockets", "moves/s", "p50 ms", "p90 ms",
                     "p99 ms", "missed", "refused", "RSS MB (0, 2k, 4k, ... opened)",
                     "RSS after 2k->end"):
            table.add_column(head, justify="right" if head != "configuration" else "left")
        for row in rows:
            table.add_row(row["label"], str(row["games"]), str(row["sockets"]),
                          f"{row['rate']:.0f}", f"{row['p50']:.1f}", f"{row['p90']:.1f}",
                          f"{row['p99']:.1f}", str(row["missed"]), str(row["refused"]),
                          " ".join(map(str, row["rss"])), f"{100 * row['flat']:+.0f}%")
        console.print(table)
        for row in rows:
            console.print(f"the load ({row['label']}): {100 * row['load busy']:.0f}% of a core "
                          f"while sending, its sends up to {1000 * row['load late']:.0f} ms "
                          "behind their schedule")
            for reason, count in row["reasons"].most_common(3):
                console.print(f"refused in {row['label']}: {count} x {reason}")
    goal = next((r for r in rows if r["label"] == GOAL), None)
    if goal is not None:
        met = goal["p99"] < 150 and goal["missed"] == 0 and abs(goal["flat"]) <= 0.2
        console.print(f"Goal (2 processes, PostgreSQL: p99 < 150 ms at 100 moves/s, no "
                      f"missed update, RSS within 20% after 2,000 games): "
                      f"{'met' if met else 'not met'} (p99 {goal['p99']:.0f} ms, missed "
                      f"{goal['missed']}, RSS {100 * goal['flat']:+.0f}%)")
    scale = next((r for r in rows if r["label"] == SCALE), None)
    if scale is not None:
        met = scale["p99"] < 100 and scale["missed"] == 0
        console.print(f"Goal ({scale['games']} games, {scale['sockets']} sockets, "
                      f"{args.scale_rate:g} moves/s: p99 < 100 ms, no missed update): "
                      f"{'met' if met else 'not met'} (p99 {scale['p99']:.0f} ms, moves/s "
                      f"{scale['rate']:.0f}, missed {scale['missed']})")
    if fair:
        table = Table(title="Fairness: one player's six games of "
                      f"{HEAVY.removeprefix('bot:')} on each process, and another player's "
                      "bot:random answering")
        for head in ("configuration", "answers", "median s", "slowest s",
                     "workers busy after", "goal < 5 s"):
            table.add_column(head, justify="right" if head != "configuration" else "left")
        for row in fair:
            took = row["answers"]
            table.add_row(row["label"], str(len(took)), f"{statistics.median(took):.2f}",
                          f"{max(took):.2f}", " ".join(map(str, row["busy"])),
                          "met" if max(took) < 5 else "not met")
        console.print(table)


if __name__ == "__main__":
    main()
