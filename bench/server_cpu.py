"""CPU time per move of the web server on PostgreSQL + Redis with 2 processes: what the
server, PostgreSQL, Redis and the load's own client spend on each move, in CPU seconds
(``/proc/<pid>/stat``), so the figure holds however busy the machine is (wall-clock
latency does not). The rate the server can hold on a machine is then about its cores
over the CPU a move takes in all.

Run with ``python bench/server_cpu.py [--games 1000] [--moves 3000] [--rate 150]
[--spectators 0] [--rounds 2] [--against REF ...] [--without-tree] [--profile DIR]``.
It starts ``quarkade serve --workers 2`` (on a private PostgreSQL and redis-server, as
the tests do), makes ``--games`` two-seat games, opens their sockets (two seats each,
and ``--spectators``), then plays ``--moves`` moves at ``--rate`` a second round the
games (as ``bench_server.py`` does), reading each process's CPU time before and after.
``--against REF`` (a git commit) runs that commit's server too (``git archive`` into a
temporary folder, on the same Python), alternating the sides ``--rounds`` times in one
run, so their ratios compare.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from rich.console import Console
from rich.table import Table

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))
sys.path.insert(0, str(HERE))

from bench_server import Load, raise_open_files, run_loop, server_pids  # noqa: E402
from tests.server.processes import Server, new_friend_game  # noqa: E402
from tests.server.services import Postgres, Redis  # noqa: E402

TICK = os.sysconf("SC_CLK_TCK")


def descendants(root: int) -> list[int]:
    """``root`` and every process below it."""
    parents: dict[int, list[int]] = {}
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        parents.setdefault(int(fields[1]), []).append(int(stat.parent.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo.extend(parents.get(pid, []))
    return found


def cpu(pids: list[int], reaped: int | None = None) -> float:
    """The CPU seconds (user + system) the living ``pids`` have spent, and (``reaped``: a
    parent among them) its children that ended, so a process that ends between two
    readings still counts (a PostgreSQL backend whose connection closed)."""
    total = 0
    for pid in pids:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
        if pid == reaped:
            total += int(fields[13]) + int(fields[14])
    return total / TICK


def sessions(postgres: Postgres) -> int:
    """How many connections PostgreSQL has taken so far (each one a new process)."""
    import psycopg

    with psycopg.connect(f"host=127.0.0.1 port={postgres.port} user=quarkade "
                         "dbname=postgres", autocommit=True) as connection:
        row = connection.execute("SELECT sum(sessions) FROM pg_stat_database").fetchone()
    return int(row[0] if row else 0)


def postmaster(postgres: Postgres) -> int:
    return int((postgres.data / "postmaster.pid").read_text().split()[0])


def measure(side: str, path: str, postgres: Postgres, redis: Redis, args) -> dict:
    """One side's CPU per move (server processes, PostgreSQL, Redis, this client)."""
    env = {"PYTHONPATH": path}
    server = Server(postgres.new_database(), redis.url(), "--workers", "2",
                    "--no-rate-limits", env=env)
    try:
        workers = server_pids(server.process.pid, 2)
        with ThreadPoolExecutor(8) as pool:
            games = list(pool.map(lambda _: new_friend_game(server, goal=40),
                                  range(args.games)))
        load = Load(server.url, games, args.spectators)
        parts: dict[str, list[int]] = {}
        figures: dict[str, float] = {}

        def snapshot() -> dict[str, float]:
            parts["server"] = workers
            parts["postgres"] = descendants(postmaster(postgres))
            parts["redis"] = [redis.process.pid]
            now = {name: cpu(pids, postmaster(postgres) if name == "postgres" else None)
                   for name, pids in parts.items()}
            now["sessions"] = sessions(postgres)
            now["client"] = time.process_time()
            now["wall"] = time.monotonic()
            return now

        async def live() -> int:
            began = snapshot()
            await load.open()
            await asyncio.sleep(1)  # every first state in
            opened = snapshot()
            figures.update({f"open {k}": opened[k] - began[k] for k in began})
            await asyncio.sleep(args.idle)
            idle = snapshot()
            figures.update({f"idle {k}": idle[k] - opened[k] for k in opened})
            spies = [subprocess.Popen(
                ["py-spy", "record", "--format", "raw", "--rate", "500", "--gil", "--nonblocking",
                 "-o", str(Path(args.profile) / f"{side.replace(' ', '-')}-{pid}.txt"),
                 "-p", str(pid)], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
                for pid in workers] if args.profile else []
            sent = await load.run(args.rate, args.moves / args.rate)
            for spy in spies:
                spy.send_signal(signal.SIGINT)
                spy.wait(timeout=60)
            done = snapshot()
            figures.update({k: done[k] - idle[k] for k in idle})
            await load.close()
            return sent

        sent = run_loop(live())
    finally:
        server.stop()
    figures["moves"] = sent
    figures["missed"] = load.missed
    figures["refused"] = load.refused
    figures["reasons"] = "; ".join(f"{n} x {why}" for why, n in  # type: ignore[assignment]
                                   load.reasons.most_common(3))
    figures["side"] = side  # type: ignore[assignment]
    return figures


SPEEDUPS = ("uvloop", "hiredis")  # used when installed; an older tree may not ask for them


def archive(commit: str, into: Path) -> str:
    """``commit``'s tree in ``into``; the ``PYTHONPATH`` that runs it as installed by its
    own ``pyproject.toml`` (the speed-ups it does not ask for hidden)."""
    into.mkdir(parents=True)
    tree = subprocess.run(["git", "-C", str(HERE.parent), "archive", commit],
                          check=True, capture_output=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=tree, check=True)
    wanted = (into / "pyproject.toml").read_text()
    for name in SPEEDUPS:
        if name not in wanted:
            (into / "hidden" / name).mkdir(parents=True)
            (into / "hidden" / name / "__init__.py").write_text(
                f"raise ImportError('{name} is hidden: {commit} does not use it')\n")
    return f"{into / 'hidden'}{os.pathsep}{into / 'src'}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--spectators", type=int, default=0)
    parser.add_argument("--moves", type=int, default=3000)
    parser.add_argument("--rate", type=float, default=150.0, help="moves per second")
    parser.add_argument("--idle", type=float, default=3.0,
                        help="seconds of no moves measured before them")
    parser.add_argument("--rounds", type=int, default=1)
    parser.add_argument("--against", action="append", default=[],
                        help="a git commit to compare with (again for more)")
    parser.add_argument("--without-tree", action="store_true",
                        help="only the commits, not this working tree")
    parser.add_argument("--profile", default="", help="a folder for py-spy's samples of "
                        "each server process during the moves (needs py-spy on PATH)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))
    raise_open_files(4 * args.games + 4 * args.spectators + 1000)
    console = Console(width=150)
    folder = Path(tempfile.mkdtemp(prefix="quarkade-cpu-"))
    os.environ.setdefault("QUARKADE_SECRET_FILE", str(folder / "session.key"))
    sides = [(ref, archive(ref, folder / f"against-{n}"))
             for n, ref in enumerate(args.against)]
    if not args.without_tree:
        sides.append(("this tree", str(HERE.parent / "src")))
    postgres, redis = Postgres(), Redis()
    rows = []
    try:
        for round_ in range(args.rounds):
            for side, path in sides if round_ % 2 == 0 else sides[::-1]:
                console.print(f"round {round_ + 1}: {side} ({args.games} games, "
                              f"{args.moves} moves at {args.rate:g}/s) ...")
                rows.append(measure(side, path, postgres, redis, args))
                row = rows[-1]
                console.print(f"  server {1000 * row['server'] / row['moves']:.2f} ms/move, "
                              f"missed {row['missed']}, refused {row['refused']} "
                              f"({row['reasons'] or 'none'})")
    finally:
        postgres.close()
        redis.close()
        shutil.rmtree(folder, ignore_errors=True)
    table = Table(title=f"CPU ms per move: 2 processes, PostgreSQL + Redis, {args.games} "
                  f"games, {2 * args.games + args.spectators} sockets, {args.moves} moves "
                  f"at {args.rate:g}/s")
    heads = ("side", "moves", "server", "postgres", "redis", "client", "in all",
             "idle server ms/s", "open: server ms/socket", "new connections", "missed")
    for head in heads:
        table.add_column(head, justify="left" if head == "side" else "right")
    for row in rows:
        per = {k: 1000 * row[k] / max(1, row["moves"]) for k in
               ("server", "postgres", "redis", "client")}
        sockets = 2 * args.games + args.spectators
        table.add_row(row["side"], str(row["moves"]), *(f"{per[k]:.2f}" for k in per),
                      f"{sum(per.values()):.2f}",
                      f"{1000 * row['idle server'] / max(1e-9, row['idle wall']):.0f}",
                      f"{1000 * row['open server'] / sockets:.2f}",
                      f"{row['sessions'] - 1:.0f}", str(row["missed"]))
    console.print(table)
    first = sides[0][0]
    for side, _ in sides[1:]:
        for part in ("server", "postgres", "redis"):
            mine = [r[part] / r["moves"] for r in rows if r["side"] == side]
            theirs = [r[part] / r["moves"] for r in rows if r["side"] == first]
            console.print(f"{part}: {side} / {first} = "
                          f"{sum(mine) / len(mine) / (sum(theirs) / len(theirs)):.2f}")


if __name__ == "__main__":
    main()
