"""The Ray back end on a local Ray instance gives the local back end's results exactly."""

import ray

from quarkade.sim.plan import tournament_plan
from quarkade.sim.runner import run_plan
from tests.sim.helpers import simulate


def test_ray_gives_the_same_results_as_local(tmp_path):
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        for engine in ("reference", "compiled"):
            local, remote = tmp_path / f"local-{engine}.jsonl", tmp_path / f"ray-{engine}.jsonl"
            args = ("hadronize", "--agents", "greedy,random", "--players", 3, "--games", 60,
                    "--seed", 9, "--engine", engine)
            simulate(*args, "--workers", 2, "--out", local)
            shown = simulate(*args, "--backend", "ray", "--out", remote)
            assert remote.read_bytes() == local.read_bytes()
            assert "Win rate by agent" in shown.stdout
        plan = tournament_plan("hadronize", {"players": 2, "goal": 10, "max_turns": 0},
                               ["random", "greedy"], 30, 3)
        on_ray = run_plan(plan, backend="ray", keep_results=True)
        here = run_plan(plan, workers=1, keep_results=True)
        assert len(here.results) == 30 and on_ray.results == here.results
        assert on_ray.tally == here.tally and here.tally.games == 30
    finally:
        ray.shutdown()


def test_a_dropped_task_that_is_running_on_ray_finishes():
    """RayPool.cancel leaves a running task to finish, as LocalPool does. Ray's own cancel
    interrupts it wherever it is; once that was inside numba's loading of compiled code, and
    every later task on that worker failed (the Ray solve test's old flake)."""
    from ray.util.queue import Queue

    from quarkade.sim.backends import RayPool

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        pool = RayPool()
        started, go = Queue(), Queue()

        def doubled(value):
            started.put("running")
            go.get()  # blocks until the test has dropped the task
            return value * 2

        handle = pool.submit(doubled, 21)
        assert started.get(timeout=120) == "running"
        pool.cancel(handle)
        go.put("finish")
        assert pool.result(handle) == 42
    finally:
        ray.shutdown()
