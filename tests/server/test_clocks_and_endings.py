"""Clocks and the endings the server decides (issue 15; docs/RULINGS.md S-1 to S-4), all on
an injected clock: time controls and their refusals; a flag that falls with no page open;
Fischer increments; correspondence deadlines; a bot taking over a timed-out seat at a
table of four; resigning, aborting, claiming an abandoned seat; deadlines that survive a
restart and one that expired while the server was down; an expiry applied once."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.errors import ApiError
from quarkade.server.play.clocks import DAY, TimeControl
from quarkade.server.storage import Store
from tests.server.helpers import (
    bearer,
    live_socket,
    move,
    refused,
    run_alone,
    seen,
    true_states,
    two_seat_game,
    watch_until,
)
from tests.server.test_turn_clocks import play_one_turn


def over(client: TestClient, game_id: str) -> bool:
    return seen(client, game_id)["over"]


@pytest.mark.parametrize("raw", ["5", "0+5", "181+0", "5+61", "corr:2", "blitz", "5 + 5 + 5",
                                 "x" * 500, 5])
def test_a_time_control_outside_what_is_allowed_is_refused_and_nothing_made(client, raw):
    before = client.app.state.store.games.count()
    refused(client.post("/api/games", json={"game": "hadronize", "seats": ["you", "friend"],
                                            "time_control": raw}),
            400, "MINUTES+SECONDS", "corr:DAYS")
    assert client.app.state.store.games.count() == before


def test_time_controls_read_and_label():
    assert TimeControl.parse("5+3").label == "5 min + 3 s"
    assert TimeControl.parse(" corr:7 ").text == "corr:7"
    assert TimeControl.parse(None).label == "no clock"
    with pytest.raises(ApiError):
        TimeControl.parse("corr:5")


def test_a_real_time_flag_falls_with_no_page_open_and_that_seat_loses(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        game_id, tokens = two_seat_game(client, "1+2")
        state = true_states(client, game_id)[-1]
        first = state.current_player()
        shown = seen(client, game_id)["clock"]
        assert shown["running"] == first and shown["left"] == 30.0  # a first move (S-8)
        clock.advance(10)  # the first move took ten seconds: 60 - 10 + 2 left
        assert move(client, game_id, tokens[first], first,
                    state.legal_actions()[0]).status_code == 200
        shown = seen(client, game_id)["clock"]
        assert shown["remaining"][first] == 52.0 and shown["running"] == 1 - first
        second, _ = play_one_turn(client, clock, game_id, tokens)  # 60 - 1 + 2
        assert second == 1 - first and seen(client, game_id)["clock"]["left"] == 52.0
        clock.advance(51)
        assert not over(client, game_id)
        clock.advance(2)  # the first seat's time is gone: the watcher applies it
        watch_until(client, game_id, lambda m: m["over"])
        answer = seen(client, game_id, tokens[second])
        assert answer["outcome"] == {"result": "win", "winners": [second],
                                     "ending": "out of time"}
        assert answer["returns"][second] == 1.0 and answer["legal"] == []
        # Nothing more can be played; the record says how it ended, and replays.
        late = true_states(client, game_id)[-1]
        refused(move(client, game_id, tokens[first], first, late.legal_actions()[0]),
                409, "over")
        record = client.get(f"/games/{game_id}/record", headers=bearer(tokens[second])).json()
        assert record["outcome"]["ending"] == "out of time" and record["decided_by"] == "server"
        from quarkade.core.records import GameRecord

        GameRecord.from_dict({**record, "actions": [a for a in record["actions"]]}).replay()


def test_a_move_after_the_deadline_is_refused_even_before_the_watcher_applies_it(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        game_id, tokens = two_seat_game(client, "1+0")
        state = true_states(client, game_id)[-1]
        seat = state.current_player()
        steps = len(state.history())
        clock.advance(61)
        refused(move(client, game_id, tokens[seat], seat, state.legal_actions()[0], steps), 409)
        assert len(true_states(client, game_id)[-1].history()) == steps


def test_a_correspondence_deadline_passes_after_its_days(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        game_id, tokens = two_seat_game(client, "corr:1")
        play_one_turn(client, clock, game_id, tokens)  # both have moved: no abort (S-8)
        play_one_turn(client, clock, game_id, tokens)
        seat = true_states(client, game_id)[-1].current_player()
        assert seen(client, game_id)["clock"]["left"] == DAY
        clock.advance(DAY - 60)
        assert not over(client, game_id)
        clock.advance(61)
        watch_until(client, game_id, lambda m: m["over"])
        assert seen(client, game_id)["outcome"]["winners"] == [1 - seat]


def test_at_a_table_of_four_the_medium_bot_takes_a_timed_out_seat_and_the_game_ends(db_url):
    clock = ManualClock()
    # Dealt so that seat 0 moves first: with another deal the bots may end the game before
    # its first turn, and there would be no clock to run out.
    with TestClient(create_app(db_url, clock=clock, rate_limits=False, chance_seed=1)
                    ) as client:
        created = client.post("/api/games", json={
            "game": "hadronize", "options": {"players": 4, "goal": 3},
            "seats": ["you", "bot:easy", "bot:easy", "bot:easy"], "time_control": "1+0"})
        game_id = created.json()["id"]
        assert watch_until(client, game_id, lambda m: m["to_move"] == 0 or m["over"]
                           )["to_move"] == 0
        token = created.json()["tokens"]["0"]
        state = true_states(client, game_id)[-1]  # a first move, so no abort (S-8)
        assert move(client, game_id, token, 0, state.legal_actions()[0]).status_code == 200
        shown = watch_until(client, game_id, lambda m: m["to_move"] == 0 or m["over"])
        assert not shown["over"], "the bots ended the game before seat 0's second turn"
        clock.advance(61)
        watch_until(client, game_id, lambda m: m["over"])
        answer = seen(client, game_id)
        assert answer["seats"][0]["kind"] == "bot" and answer["seats"][0]["replaced"] == \
            "out of time" and answer["seats"][0]["agent"] == "medium"
        assert true_states(client, game_id)[-1].is_terminal()  # finished by its rules
        assert answer["outcome"]["ending"] != "out of time"


def test_resign_for_a_held_seat_only_and_abort_only_before_everyone_moved(client):
    game_id, tokens = two_seat_game(client, "none")
    state = true_states(client, game_id)[-1]
    first = state.current_player()
    refused(client.post(f"/api/games/{game_id}/resign", json={"seat": 1 - first},
                        headers=bearer(tokens[first])), 403, "holds no seat")
    refused(client.post(f"/api/games/{game_id}/resign", json={"seat": "all"},
                        headers=bearer(tokens[first])), 400, "seat")
    refused(client.post(f"/api/games/{game_id}/abort"), 403, "someone at the table")
    assert move(client, game_id, tokens[first], first, state.legal_actions()[0]).status_code \
        == 200
    state = true_states(client, game_id)[-1]
    second = state.current_player()
    assert second == 1 - first
    assert move(client, game_id, tokens[second], second,
                state.legal_actions()[0]).status_code == 200
    refused(client.post(f"/api/games/{game_id}/abort", headers=bearer(tokens[first])), 409,
            "resign instead")
    answer = client.post(f"/api/games/{game_id}/resign", json={"seat": second},
                         headers=bearer(tokens[second]))
    assert answer.status_code == 200
    assert answer.json()["outcome"] == {"result": "win", "winners": [first],
                                        "ending": "resigned"}
    refused(client.post(f"/api/games/{game_id}/resign", json={"seat": first},
                        headers=bearer(tokens[first])), 409, "over")


def test_an_abort_before_the_first_moves_ends_with_no_result(client):
    game_id, tokens = two_seat_game(client, "5+5")
    with live_socket(client, game_id, None, tokens[1]) as page:
        assert page.receive_json()["may"]["abort"] is True
        page.send_json({"type": "abort"})
        while not (message := page.receive_json())["over"]:
            pass
    assert message["outcome"] == {"result": "aborted", "winners": [], "ending": "aborted"}
    assert message["returns"] is None and message["clock"]["running"] is None


def test_a_seat_idle_for_seven_days_with_no_clock_can_be_claimed_by_the_other(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        game_id, tokens = two_seat_game(client, "none")
        idle = true_states(client, game_id)[-1].current_player()
        other = tokens[1 - idle]
        claim = {"seat": idle}
        refused(client.post(f"/api/games/{game_id}/claim", json=claim,
                            headers=bearer(other)), 409, "7 days")
        clock.advance(7 * DAY + 1)
        refused(client.post(f"/api/games/{game_id}/claim", json=claim,
                            headers=bearer(tokens[idle])), 403, "another player")
        assert seen(client, game_id, other)["may"]["claim"] == [idle]
        assert client.post(f"/api/games/{game_id}/claim", json=claim,
                           headers=bearer(other)).status_code == 200
        assert seen(client, game_id)["outcome"] == {
            "result": "win", "winners": [1 - idle], "ending": "abandoned"}


def test_deadlines_survive_a_restart_and_one_that_passed_while_down_is_applied(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        kept, tokens = two_seat_game(client, "3+0")
        for _ in range(2):  # both seats have moved: the 3 minutes run (S-8)
            play_one_turn(client, clock, kept, tokens)
        missed, tokens = two_seat_game(client, "1+0")
        for _ in range(2):
            play_one_turn(client, clock, missed, tokens)
        before = seen(client, kept)["clock"]
    clock.advance(90)  # the server is down meanwhile: the 1-minute flag falls unseen
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        watch_until(client, missed, lambda m: m["over"])
        assert seen(client, missed)["outcome"]["ending"] == "out of time"
        after = seen(client, kept)["clock"]
        assert not over(client, kept) and after["running"] == before["running"]
        assert after["left"] == before["left"] - 90


def test_a_deadline_is_applied_once_however_many_processes_claim_it(any_db):
    with TestClient(create_app(any_db, rate_limits=False)) as client:
        game_id, _ = two_seat_game(client, "5+0")
        deadline = client.app.state.site.hub.games[game_id].session.times.deadline
        step = seen(client, game_id)["step"]
    store = Store(any_db)
    ending = {"result": "win", "winners": [0], "ending": "out of time", "seat": 1}
    claims = [store.games.decide(game_id, step, {"ending": ending, "deadline": None}, {}, deadline)
              for _ in range(2)]
    store.close()
    assert claims == [True, False]


@pytest.mark.parametrize("yields", [0, 1, 2, 3])
def test_the_deadline_watcher_stops_when_told_even_as_the_clock_wakes_it(yields):
    """A server's shutdown waits for the watcher; a wake landing in the same turn of the
    loop as the stop must not swallow the stop (Python 3.11's ``wait_for`` did, and the
    shutdown hung). Each case lets the wake run ``yields`` steps before the stop."""
    import asyncio

    from quarkade.server.play.clocks import DeadlineWatcher

    async def scenario() -> None:
        parked = asyncio.Event()

        async def expired(now: float) -> list[tuple[str, float]]:
            return []

        async def next_deadline() -> float | None:
            parked.set()
            return None

        async def expire(game_id: str, deadline: float) -> None:
            raise AssertionError("no game has a deadline here")

        watcher = DeadlineWatcher(ManualClock(), expired, next_deadline, expire, sweep=3600)
        watcher.start()
        await parked.wait()
        for _ in range(3):  # the watcher settles into its wait
            await asyncio.sleep(0)
        assert watcher.event is not None and watcher.task is not None
        watcher.event.set()
        for _ in range(yields):
            await asyncio.sleep(0)
        async with asyncio.timeout(10):  # a guard: a swallowed stop would wait an hour
            await watcher.close()
        assert watcher.task.done()

    run_alone(scenario())  # (see run_alone: a browser test may hold this thread's loop)
