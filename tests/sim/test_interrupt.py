"""Ctrl-C in the middle of a run: the command stops cleanly and keeps whole lines."""

import signal
import subprocess
import sys

from tests.sim.helpers import lines, simulate

COMMAND = [sys.executable, "-c", "from quarkade.cli.main import main; main()"]


def test_sigint_keeps_the_finished_games_and_resume_finishes_them(tmp_path):
    out = tmp_path / "run.jsonl"
    process = subprocess.Popen(
        [*COMMAND, "simulate", "hadronize", "--agents", "random,greedy", "--games", "1000000",
         "--seed", "5", "--workers", "2", "--out", str(out)],
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
    assert 0 < len(kept) < 1_000_000
    assert [r["index"] for r in kept] == list(range(len(kept)))
    # The kept games are exactly the first games of the same run played without a stop...
    fresh = tmp_path / "fresh.jsonl"
    simulate("hadronize", "--agents", "random,greedy", "--games", len(kept) + 30, "--seed", 5,
             "--workers", 1, "--out", fresh)
    assert fresh.read_text().startswith(text)
    # ... and --resume plays on from where the stop left off.
    simulate("hadronize", "--agents", "random,greedy", "--games", len(kept) + 30,
             "--workers", 1, "--out", out, "--resume")
    assert out.read_bytes() == fresh.read_bytes()
