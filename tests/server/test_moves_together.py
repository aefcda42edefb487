"""Moves that come in together are stored together: one transaction for many games'
moves (``GameQueries.add_many``, through ``Store.add_actions``), each move still refused
on its own (a step taken, a game decided) without losing the others'. And a connection
the database dropped is not an outage: the query runs again on a new one."""

import asyncio

import pytest
from sqlalchemy import event, make_url

from quarkade import load_game
from quarkade.server.keys import digest, new_secret
from quarkade.server.play.seats import new_game_id
from quarkade.server.storage import GameDecided, StepTaken, Store, StoredSeat
from tests.server.helpers import run_alone


def new_game(store: Store) -> str:
    game_id = new_game_id()
    store.games.create(game_id, "hadronize", dict(load_game("hadronize").options),
                       digest(new_secret()), [
                           StoredSeat(seat, "friend", None, f"seat {seat}", digest(new_secret()),
                                      True) for seat in range(2)])
    return game_id


def move(game_id: str, step: int = 0) -> tuple:
    """``add_actions``'s arguments: one action at ``step``, with its clock."""
    return (game_id, step, [(0, 7)], None, {"turn_started": 1.0}, {}, None, None, 0.0)


@pytest.fixture
def store(any_db):
    store = Store(any_db)
    commits = []
    event.listen(store.engine, "commit", lambda connection: commits.append(1))
    store.commits = commits
    yield store
    store.close()


def stored_actions(store: Store, game_id: str) -> list[int]:
    return store.games.load(game_id).actions


def test_each_move_of_a_batch_is_refused_alone(store):
    fine, taken, decided = (new_game(store) for _ in range(3))
    store.games.add_actions(*move(taken))  # another process stored step 0 there first
    assert store.games.decide(decided, 0, {"ending": {
        "result": "draw", "winners": [], "ending": "Agreed."}}, {})
    answers = store.games.add_many([move(fine), move(taken), move(decided)])
    assert answers[0] is None
    assert isinstance(answers[1], StepTaken) and isinstance(answers[2], GameDecided)
    assert stored_actions(store, fine) == [7] and stored_actions(store, taken) == [7]
    assert stored_actions(store, decided) == []


def test_moves_that_come_in_together_are_one_commit(store):
    games = [new_game(store) for _ in range(4)]
    store.commits.clear()

    async def together():
        return await asyncio.gather(*(store.add_actions(*move(g)) for g in games))

    assert run_alone(together()) == [None] * 4
    assert len(store.commits) == 1
    assert all(stored_actions(store, g) == [7] for g in games)
    # A decided game's move among them is refused; the others are stored.
    store.commits.clear()
    assert store.games.decide(games[1], 1, {"ending": {
        "result": "draw", "winners": [], "ending": "Agreed."}}, {})

    async def next_moves():
        return await asyncio.gather(*(store.add_actions(*move(g, 1)) for g in games),
                                    return_exceptions=True)

    answers = run_alone(next_moves())
    assert isinstance(answers[1], GameDecided) and answers[:1] + answers[2:] == [None] * 3
    assert len(store.commits) == 2  # the decision, then the three moves


def test_a_dropped_connection_is_opened_again(postgres):
    store = Store(postgres.new_database())
    try:
        game_id = new_game(store)
        name = make_url(store.url).database
        postgres.admin("SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                       f"WHERE datname = '{name}' AND pid <> pg_backend_pid()")

        async def moved():
            await store.add_actions(*move(game_id))
            return await store.run(store.games.load, game_id)

        assert run_alone(moved()).actions == [7]
    finally:
        store.close()
