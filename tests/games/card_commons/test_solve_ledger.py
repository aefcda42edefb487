"""The solver's ledger (``solve/ledger.py``) and the split solve (``solve/split.py``): a long
solve resumes from its file, and local workers and a local Ray cluster find what one process
finds."""

import json
import random

import pytest

from quarkade.games.card_commons.solve import split, trust, tutorial
from quarkade.games.card_commons.solve.ledger import Ledger


def start_position(seed: int) -> tutorial.Position:
    """A Tutorial position 7 plies in whose value takes a real search (10^4-10^6 nodes)."""
    rng = random.Random(seed)
    while True:
        state = trust.random_position(rng, "tutorial", False, (7, 7))
        if state is None:
            continue
        position = tutorial.position_of(state)
        nodes = tutorial.TutorialSolver(table_bits=16).value(position).nodes
        if 10_000 <= nodes <= 1_000_000:
            return position


@pytest.fixture(scope="module")
def position() -> tutorial.Position:
    return start_position(5)


@pytest.fixture(scope="module")
def truth(position) -> int:
    return tutorial.TutorialSolver(table_bits=18).value(position).value


def test_a_solve_resumes_from_the_positions_its_ledger_kept(tmp_path, position, truth):
    path = tmp_path / "ledger.json"
    first = tutorial.TutorialSolver(table_bits=16, ledger=Ledger(path, min_nodes=0))
    whole = first.solve(position)
    assert whole.value == truth
    kept = json.loads(path.read_text())
    assert kept["positions"]
    root = first.packed(position)
    tops = {root} | {first.packed(position.after(*move)) for move in first.moves(position)}
    kept["positions"] = {k: v for k, v in kept["positions"].items() if int(k, 16) not in tops}
    path.write_text(json.dumps(kept))  # as if the run stopped before its top level settled
    again = tutorial.TutorialSolver(table_bits=16, ledger=Ledger(path, min_nodes=0))
    resumed = again.solve(position)
    assert resumed.value == truth
    assert resumed.nodes < whole.nodes / 2
    value, move = again.known(position)
    assert value == truth and (move is None) == (truth == tutorial.LOSS)
    if move is not None:  # the ledger's move wins, as the book's would
        assert tutorial.TutorialSolver(table_bits=16).value(
            position.after(*move)).value == tutorial.LOSS


def check_split(pool, position, truth, tmp_path):
    """``split.solve`` on ``pool``: the value, a winning move that wins, and every
    top-level position it settled in the ledger holds the value one process finds."""
    path = tmp_path / "ledger.json"
    solver = tutorial.TutorialSolver(table_bits=16, ledger=Ledger(path, min_nodes=0))
    result = split.solve(solver, position, pool)
    assert result.value == truth and result.nodes > 0
    plain = tutorial.TutorialSolver(table_bits=18)
    if truth == tutorial.WIN:
        assert plain.value(position.after(*result.move)).value == tutorial.LOSS
    kept = Ledger(path)
    assert kept.get(solver.packed(position)) is not None
    checked = 0
    for move in solver.moves(position):
        child = position.after(*move)
        for reply in solver.moves(child):
            after = child.after(*reply)
            entry = kept.get(solver.packed(after))
            if entry is not None:
                assert solver.read_entry(after, entry)[0] == plain.value(after).value
                checked += 1
    assert checked >= 2


def test_two_local_workers_find_the_value_one_process_finds(tmp_path, position, truth):
    from quarkade.sim.backends import LocalPool

    pool = LocalPool(2)
    try:
        check_split(pool, position, truth, tmp_path)
    finally:
        pool.close()


def test_a_local_ray_cluster_finds_the_value_one_process_finds(tmp_path, position, truth):
    import ray

    from quarkade.sim.backends import RayPool

    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False,
             configure_logging=False)
    try:
        pool = RayPool()
        assert pool.workers == 2
        check_split(pool, position, truth, tmp_path)
    finally:
        ray.shutdown()


def test_a_ledger_of_the_other_field_is_refused(tmp_path):
    path = tmp_path / "ledger.json"
    Ledger(path, torus=True, min_nodes=0).settle(1, 0, nodes=0)
    with pytest.raises(ValueError, match="torus, not this field"):
        Ledger(path, torus=False)
