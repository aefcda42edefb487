"""Clocks by the turn (issue 25, RULINGS S-7, S-8, S-3), on an injected clock: a turn of
several actions gains one increment; a person who never makes a first move ends the game
aborted and unrated (30 s in real-time, the move time in correspondence); a game's maker
who is not at the table aborts it only while it waits; whatever ends a game stops its
clocks at their final values."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.play.clocks import DAY
from tests.server.helpers import (
    bearer,
    join,
    move,
    refused,
    seen,
    true_states,
    two_seat_game,
    watch_until,
)
from tests.server.test_lobby_and_ratings import Devices, public_game
from tests.server.test_players import named


def play_one_turn(client: TestClient, clock: ManualClock, game_id: str,
                  tokens: dict[int, str], seconds: float = 1.0) -> tuple[int, int]:
    """The seat to move plays a whole turn, ``seconds`` per action, preferring actions
    that keep the turn going (so a turn of several actions is played where one exists);
    returns the seat and how many actions it took."""
    state = true_states(client, game_id)[-1]
    seat = state.current_player()
    actions = 0
    def keeps_turn(state, action: int) -> bool:
        trial = state.clone()
        trial.apply_action(action)
        return trial.current_player() == seat and not trial.is_terminal()

    while state.current_player() == seat and not state.is_terminal():
        legal = state.legal_actions()
        action = next((a for a in legal if keeps_turn(state, a)), legal[0]) if actions < 7 \
            else next((a for a in legal if not keeps_turn(state, a)), legal[0])
        clock.advance(seconds)
        answer = move(client, game_id, tokens[seat], seat, action)
        assert answer.status_code == 200, answer.text
        actions += 1
        state = true_states(client, game_id)[-1]
    return seat, actions


@pytest.mark.parametrize("game, options", [("dead-cat", {"peek_first": True}),
                                           ("decoherence", {})])
def test_one_turn_of_several_actions_gains_one_increment(db_url, game, options):
    """With 1 min + 30 s, a Dead Cat turn (peek, then bet) and a Decoherence turn of
    several actions each add 30 s once: 60 - (seconds spent) + 30."""
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False, chance_seed=3)
                    ) as client:
        game_id, tokens = two_seat_game(client, "1+30", game, **options)
        seat, actions = play_one_turn(client, clock, game_id, tokens)
        assert actions >= 2, "the turn should take several actions"
        clock_now = seen(client, game_id)["clock"]
        assert clock_now["remaining"][seat] == 60.0 - actions + 30.0
        assert clock_now["running"] == 1 - seat and clock_now["left"] <= 30.0


def test_a_real_time_game_where_the_first_player_never_moves_is_aborted_and_unrated(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        devices = Devices(client)
        named(devices.use("ann"), "Ann", "ann-password")
        game_id = public_game(client, control="1+0")
        named(devices.use("ben"), "Ben", "ben-password")
        assert client.post(f"/api/games/{game_id}/seats/1/take", json={}).status_code == 200
        start = seen(client, game_id)
        assert start["rated"] and start["clock"]["left"] == 30.0  # a first move: 30 s
        clock.advance(29)
        assert not seen(client, game_id)["over"]
        clock.advance(2)
        over = watch_until(client, game_id, lambda m: m["over"])
        assert over["outcome"] == {"result": "aborted", "winners": [], "ending": "aborted"}
        assert over["returns"] is None and over["rating_changes"] == []
        assert over["clock"]["running"] is None
        board = client.get("/api/leaderboard/hadronize").json()["ratings"]
        assert [e for e in board if not e["bot"]] == []
        # Nothing to review in a game nobody moved in (issue 25 item 7).
        devices.use("ann")
        assert client.get(f"/api/games/{game_id}/coach").json()["review"] is None
        refused(client.post(f"/api/games/{game_id}/review"), 409, "nothing to review")


def test_the_second_player_who_never_moves_aborts_the_game_too(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        game_id, tokens = two_seat_game(client, "3+2")
        play_one_turn(client, clock, game_id, tokens, seconds=5)
        assert seen(client, game_id)["clock"]["left"] == 30.0
        clock.advance(31)
        over = watch_until(client, game_id, lambda m: m["over"])
        assert over["outcome"]["result"] == "aborted"
        # Once both moved, the clock decides: 3 minutes, and a loss on time.
        game_id, tokens = two_seat_game(client, "3+2")
        play_one_turn(client, clock, game_id, tokens, seconds=5)
        late, _ = play_one_turn(client, clock, game_id, tokens, seconds=5)
        assert seen(client, game_id)["clock"]["left"] > 60.0
        clock.advance(200)
        over = watch_until(client, game_id, lambda m: m["over"])
        assert over["outcome"]["ending"] == "out of time" and over["winners"] == [late]


def test_a_correspondence_game_never_started_is_aborted_after_its_move_time(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        game_id, _ = two_seat_game(client, "corr:1")
        assert seen(client, game_id)["clock"]["left"] == DAY
        clock.advance(DAY - 60)
        assert not seen(client, game_id)["over"]
        clock.advance(61)
        over = watch_until(client, game_id, lambda m: m["over"])
        assert over["outcome"]["result"] == "aborted" and over["returns"] is None


def test_a_flag_stops_the_clocks_at_their_final_values(db_url):
    """A flagged seat's clock shows 0:00, never its time at the turn's start; the
    other's what it had."""
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        game_id, tokens = two_seat_game(client, "1+0")
        first, _ = play_one_turn(client, clock, game_id, tokens, seconds=5)
        second, _ = play_one_turn(client, clock, game_id, tokens, seconds=5)
        third, _ = play_one_turn(client, clock, game_id, tokens, seconds=5)
        assert third == first
        clock.advance(100)
        over = watch_until(client, game_id, lambda m: m["over"])
        assert over["outcome"]["ending"] == "out of time"
        assert over["clock"]["running"] is None and over["clock"]["left"] is None
        remaining = over["clock"]["remaining"]
        assert remaining[second] == 0.0 and remaining[first] == 50.0
        clock.advance(100)
        assert seen(client, game_id)["clock"]["remaining"] == remaining


def test_resigning_stops_the_clock_where_it_was(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock, rate_limits=False)) as client:
        game_id, tokens = two_seat_game(client, "1+0")
        first, _ = play_one_turn(client, clock, game_id, tokens, seconds=5)
        clock.advance(12)
        answer = client.post(f"/api/games/{game_id}/resign", json={"seat": 1 - first},
                             headers=bearer(tokens[1 - first]))
        assert answer.status_code == 200, answer.text
        shown = seen(client, game_id)["clock"]
        assert shown["remaining"][1 - first] == 48.0 and shown["running"] is None


def test_a_maker_not_at_the_table_aborts_only_while_the_game_waits(client):
    """RULINGS S-3: a game's maker who plays no seat may abort it before it begins, never
    after a player moved (nor once it began)."""
    made = client.post("/api/games", json={"game": "hadronize",
                                           "seats": ["friend", "friend"]}).json()
    host = made["host_token"]
    client.cookies.clear()
    waiting = seen(client, made["id"], host)
    assert waiting["waiting"] and waiting["may"]["abort"]
    tokens = {invite["seat"]: join(client, made["id"], invite["url"])
              for invite in made["invites"]}
    assert not seen(client, made["id"], host)["may"]["abort"]
    refused(client.post(f"/api/games/{made['id']}/abort", headers=bearer(host)), 403,
            "only a player at the table")
    state = true_states(client, made["id"])[-1]
    seat = state.current_player()
    assert move(client, made["id"], tokens[seat], seat,
                state.legal_actions()[0]).status_code == 200
    refused(client.post(f"/api/games/{made['id']}/abort", headers=bearer(host)), 403)
    assert not seen(client, made["id"])["over"]
    # A player who has not moved yet may still abort.
    assert client.post(f"/api/games/{made['id']}/abort",
                       headers=bearer(tokens[1 - seat])).status_code == 200
    # And a game still waiting is the maker's to abort.
    other = client.post("/api/games", json={"game": "hadronize",
                                            "seats": ["friend", "friend"]}).json()
    client.cookies.clear()
    assert client.post(f"/api/games/{other['id']}/abort",
                       headers=bearer(other["host_token"])).status_code == 200
