"""Records: exact round trips, replays that rebuild the game, and breaks named by step."""

import json
import random

import pytest

from quarkade import GameRecord, RecordError, load_game
from quarkade.core.records import Seat
from quarkade.core.rng import random_playout


@pytest.fixture
def finished():
    state = random_playout(load_game("hadronize", players=3).new_initial_state(),
                           random.Random(5))
    return state, GameRecord.from_state(state, [Seat("Ann", "random"), Seat("Ben", "greedy"),
                                                Seat("Cy", "human")], seed=5)


def test_record_round_trips_exactly(finished, tmp_path):
    state, record = finished
    assert GameRecord.from_json(record.to_json()) == record
    path = tmp_path / "r.json"
    record.save(path)
    assert GameRecord.load(path) == record
    data = json.loads(path.read_text())
    assert data["format"] == "quarkade-record/1"
    assert data["actions"][0] == {"id": record.actions[0].id, "text": "deal " +
                                  record.actions[0].text.split()[1], "player": -1}
    assert data["returns"] == state.returns()


def test_replay_rebuilds_the_final_state(finished):
    state, record = finished
    replayed = record.replay()
    assert replayed.history() == state.history()
    assert [replayed.view(p) for p in range(3)] == [state.view(p) for p in range(3)]
    assert len(list(record.states())) == len(state.history()) + 1


def test_unfinished_records_replay_too():
    state = load_game("hadronize").new_initial_state()
    for _ in range(5):
        state.apply_action(state.legal_actions()[0])
    record = GameRecord.from_state(state)
    assert record.returns is None
    assert record.replay().history() == state.history()


def _broken(record, **changes):
    data = record.to_dict()
    data.update(changes)
    return GameRecord.from_dict(data)


def test_an_illegal_action_is_named_by_step(finished):
    _, record = finished
    data = record.to_dict()
    data["actions"][3]["id"] = 0  # a superposition during the deal
    with pytest.raises(RecordError, match=r"^step 4: action 0 .*not legal") as caught:
        GameRecord.from_dict(data).replay()
    assert caught.value.step == 4


def test_changed_notation_or_player_or_result_is_caught(finished):
    _, record = finished
    data = record.to_dict()
    data["actions"][0]["text"] = "deal quark"
    with pytest.raises(RecordError, match=r"step 1: .*record says 'deal quark'"):
        GameRecord.from_dict(data).replay()
    data = record.to_dict()
    data["actions"][0]["player"] = 2
    with pytest.raises(RecordError, match="step 1: recorded for player 2, but chance"):
        GameRecord.from_dict(data).replay()
    with pytest.raises(RecordError, match="returns"):
        _broken(record, returns=[1.0, -0.5, -0.5] if record.returns[0] != 1 else
                [-0.5, 1.0, -0.5]).replay()
    data = record.to_dict()
    data["actions"].append(data["actions"][-1])
    with pytest.raises(RecordError, match="already over"):
        GameRecord.from_dict(data).replay()


@pytest.mark.parametrize(("data", "message"), [
    ([], "JSON object"),
    ({"format": "other"}, "format is 'other'"),
    ({"format": "quarkade-record/1", "game": "hadronize"}, "malformed record"),
])
def test_malformed_records_say_what_they_need(data, message):
    with pytest.raises(RecordError, match=message):
        GameRecord.from_dict(data)


def test_a_record_of_an_unknown_game_fails_at_step_0(finished):
    _, record = finished
    with pytest.raises(RecordError, match="step 0: no game named 'chess'"):
        _broken(record, game="chess").replay()
