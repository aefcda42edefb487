"""The solver's ledger (``solve/ledger.py``): a long solve resumes from its file, a worker
drops a search the ledger settles under it, and workers sharing a file agree."""

import json
import multiprocessing
import random

import pytest

from quarkade.games.card_commons.solve import trust, tutorial
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
    assert kept["positions"] and kept["claims"] == {}  # every claim released when settled
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


def test_a_search_stops_when_another_worker_settles_its_position(tmp_path, position, truth):
    path = tmp_path / "ledger.json"
    solver = tutorial.TutorialSolver(table_bits=16, ledger=Ledger(path, min_nodes=0))
    other = Ledger(path, min_nodes=0)  # another worker's view of the same file
    root = solver.packed(position)
    entry = solver.entry(position, truth, None)
    heard = []

    def settle_it(line: str) -> None:  # the other worker settles the root meanwhile
        heard.append(line)
        if len(heard) == 1:
            other.settle(root, entry, nodes=0)

    unsettled = tutorial.TutorialSolver(table_bits=16).solve(position, progress=lambda _: None)
    result = solver.solve(position, progress=settle_it)
    assert result.value == truth
    assert len(heard) == 1  # no reply was searched after the ledger settled the root
    assert result.nodes < unsettled.nodes


def solve_in(path, seed, answers):
    solver = tutorial.TutorialSolver(table_bits=16, ledger=Ledger(path, min_nodes=0))
    answers.put(solver.solve(start_position(seed)).value)


def test_two_workers_sharing_a_ledger_both_find_the_value(tmp_path, position, truth):
    path = tmp_path / "ledger.json"
    context = multiprocessing.get_context("spawn")
    answers = context.Queue()
    helper = context.Process(target=solve_in, args=(path, 5, answers))
    helper.start()
    solve_in(path, 5, answers)
    helper.join(timeout=300)
    assert helper.exitcode == 0
    assert [answers.get(timeout=10), answers.get(timeout=10)] == [truth, truth]
    kept = Ledger(path)
    solver = tutorial.TutorialSolver(table_bits=16)
    assert kept.get(solver.packed(position)) is not None
    assert json.loads(path.read_text())["claims"] == {}


def test_a_ledger_of_the_other_field_is_refused(tmp_path):
    path = tmp_path / "ledger.json"
    Ledger(path, torus=True, min_nodes=0).settle(1, 0, nodes=0)
    with pytest.raises(ValueError, match="torus, not this field"):
        Ledger(path, torus=False)
