"""Ctrl-C in the middle of a run: the command stops cleanly, keeps whole lines, and says
exactly how many games the file holds."""

import os
import signal
import subprocess
import sys
import threading

import pytest

from quarkade.sim.plan import simulation_plan
from quarkade.sim.runner import run_plan
from quarkade.sim.tally import Tally
from tests.sim.helpers import lines, simulate, table_rows

COMMAND = [sys.executable, "-c", "from quarkade.cli.main import main; main()"]


@pytest.mark.parametrize(("engine", "games"), [("reference", 1_000_000),
                                               ("compiled", 100_000_000)])
def test_sigint_keeps_the_finished_games_and_resume_finishes_them(tmp_path, engine, games):
    out = tmp_path / "run.jsonl"
    run = ["hadronize", "--agents", "random,greedy", "--engine", engine]
    process = subprocess.Popen(
        [*COMMAND, "simulate", *run, "--games", str(games), "--seed", "5", "--workers", "2",
         "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        # Without a terminal the command logs a line after the first games are written:
        # wait for it (a blocking read, no sleep), then press Ctrl-C.
        first = process.stderr.readline()
        assert "games written" in first, first
        process.send_signal(signal.SIGINT)
        stdout, stderr = process.communicate(timeout=120)
    finally:
        process.kill()
    assert process.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert "finished games kept in" in stderr and "--resume" in stderr
    assert "Win rate by agent" in stdout  # the summary of what finished
    text = out.read_text()
    assert text.endswith("\n")
    kept = lines(out)  # every line whole JSON
    assert 0 < len(kept) < games
    assert [r["index"] for r in kept] == list(range(len(kept)))
    # The message and the summary count exactly the games in the file.
    assert f"stopped: {len(kept):,} finished games kept" in stderr
    assert table_rows(stdout, "Balance")[0][:2] == ["games", f"{len(kept):,}"]
    # The kept games are exactly the first games of the same run played without a stop...
    fresh = tmp_path / "fresh.jsonl"
    simulate(*run, "--games", len(kept) + 30, "--seed", 5, "--workers", 1, "--out", fresh)
    assert fresh.read_text().startswith(text)
    # ... and --resume plays on from where the stop left off.
    simulate(*run, "--games", len(kept) + 30, "--workers", 1, "--out", out, "--resume")
    assert out.read_bytes() == fresh.read_bytes()


@pytest.mark.parametrize("engine", ["reference", "compiled"])
def test_a_ctrl_c_between_writing_a_chunk_and_counting_it_waits_for_the_count(
        tmp_path, monkeypatch, engine):
    """The stop the issue saw (8,792 games printed, 8,800 in the file), forced: a SIGINT
    arrives when the third chunk is in the file but not yet counted."""
    out = tmp_path / "run.jsonl"
    plan = simulation_plan("hadronize", {"players": 2}, ["random", "greedy"], 160, 3)
    merge = Tally.merge
    merged: list[int] = []

    def merge_after_a_ctrl_c(tally: Tally, other: Tally) -> None:
        merged.append(other.games)
        if len(merged) == 3:
            assert threading.current_thread() is threading.main_thread()
            os.kill(os.getpid(), signal.SIGINT)  # handled before the next line runs
        merge(tally, other)

    monkeypatch.setattr(Tally, "merge", merge_after_a_ctrl_c)
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        outcome = run_plan(plan, out, workers=1, engine=engine, keep_results=False)
    finally:
        signal.signal(signal.SIGINT, previous)
    assert outcome.interrupted and len(merged) == 3
    assert outcome.tally.games == sum(merged) == len(lines(out)) < plan.total
