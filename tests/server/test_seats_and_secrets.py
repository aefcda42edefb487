"""Seats and secrets, for every registered game: each seat is sent only its own view, log,
moves and record; a token acts and reads for its own seat only; a spectator sees the
public view. Games are played to the end over the HTTP API with random legal moves."""

import json
import random

import pytest

from quarkade import list_games
from quarkade.core.protocol import SPECTATOR
from quarkade.core.registry import game_class
from quarkade.server.play.session import GameSession
from quarkade.server.play.views import payload
from quarkade.server.storage import StoredGame, StoredSeat
from tests.server.helpers import (
    bearer,
    friend_game,
    live_socket,
    move,
    play_moves,
    seat_payload,
    stored_actions,
    true_states,
    viewpoints,
)
from tests.twins import history_with_secrets, twin_history

HIDDEN = [name for name in list_games() if not game_class(name).perfect_information]


def expected_log(states, viewpoint):
    """What ``viewpoint`` may read of each action: its notation as that seat sees it."""
    history = states[-1].history()
    return [states[step].action_string_for(viewpoint, action)
            for step, action in enumerate(history)]


def check_payload(payload, states, viewpoint, holds_seat):
    state = states[-1]
    assert payload["view"] == state.view(viewpoint)
    assert payload["step"] == len(state.history())
    assert [entry["text"] for entry in payload["log"]] == expected_log(states, viewpoint)
    assert all(set(entry) == {"step", "player", "text", "line"} for entry in payload["log"])
    to_move = state.current_player()
    if holds_seat and to_move == viewpoint:
        assert [m["id"] for m in payload["legal"]] == state.legal_actions()
        assert [m["text"] for m in payload["legal"]] == [
            state.action_string_for(viewpoint, a) for a in state.legal_actions()]
    else:
        assert payload["legal"] == []
    assert "invites" not in payload


@pytest.mark.parametrize("game", list_games())
def test_each_seat_sees_only_its_own_view_log_and_moves_to_the_end(client, game):
    created = friend_game(client, game)
    game_id, tokens = created["id"], created["seat_tokens"]
    rng = random.Random(5)
    for _ in range(2000):
        states = true_states(client, game_id)
        state = states[-1]
        for viewpoint in viewpoints(state):
            token = tokens.get(viewpoint)
            payload = seat_payload(client, game_id, token,
                                   "spectator" if viewpoint == SPECTATOR else viewpoint).json()
            check_payload(payload, states, viewpoint, holds_seat=token is not None)
            others = [t for seat, t in tokens.items() if seat != viewpoint]
            assert not any(t in json.dumps(payload) for t in others)
        if state.is_terminal():
            break
        seat = state.current_player()
        answer = move(client, game_id, tokens[seat], seat, rng.choice(state.legal_actions()),
                      len(state.history()))
        assert answer.status_code == 200, answer.text
    else:
        pytest.fail("the game did not end")
    final = seat_payload(client, game_id, None).json()
    assert final["over"] and final["returns"] == states[-1].returns()


@pytest.mark.parametrize("game", list_games())
def test_a_token_cannot_act_or_read_for_another_seat(client, game):
    created = friend_game(client, game)
    game_id, tokens = created["id"], created["seat_tokens"]
    state = true_states(client, game_id)[-1]
    mover = state.current_player()
    other = (mover + 1) % state.game.num_players
    before = stored_actions(client, game_id)
    action = state.legal_actions()[0]
    # Acting for the seat to move with another seat's token, or with none.
    for token in (tokens[other], "not-a-token", ""):
        answer = move(client, game_id, token, mover, action, len(before))
        assert answer.status_code == 403, answer.text
        assert "holds no token for seat" in answer.json()["error"]
    # Reading another seat's view, record or replay steps.
    for path in (f"/api/games/{game_id}", f"/games/{game_id}/record",
                 f"/api/games/{game_id}/steps/0"):
        answer = client.get(path, params={"seat": mover}, headers=bearer(tokens[other]))
        assert answer.status_code == 403, (path, answer.text)
    # The replay and game pages hold no game data: they open as a spectator's (issue 25
    # item 8: a seat's address on another device), and their scripts ask as spectators.
    for path in (f"/games/{game_id}/replay", f"/games/{game_id}"):
        answer = client.get(path, params={"seat": mover}, headers=bearer(tokens[other]))
        assert answer.status_code == 200 and 'data-seat="spectator"' in answer.text, path
    # The live socket refuses it too, and says why.
    with live_socket(client, game_id, mover, tokens[other]
                                  ) as socket:
        refusal = socket.receive_json()
        assert refusal["type"] == "error" and refusal["status"] == 403
    assert stored_actions(client, game_id) == before
    # Without any token a page is a spectator's: the public view, no moves.
    public = seat_payload(client, game_id, None).json()
    assert public["viewpoint"] is None and public["legal"] == []
    assert public["view"] == state.view(SPECTATOR)


@pytest.mark.parametrize("game", list_games())
def test_the_record_a_seat_downloads_is_redacted_like_its_log(client, game):
    created = friend_game(client, game)
    game_id, tokens = created["id"], created["seat_tokens"]
    rng = random.Random(2)
    play_moves(client, game_id, tokens, 12, rng.choice)
    states = true_states(client, game_id)
    history = states[-1].history()
    for viewpoint in viewpoints(states[-1]):
        params = {"seat": "spectator" if viewpoint == SPECTATOR else viewpoint}
        headers = bearer(tokens.get(viewpoint))
        answer = client.get(f"/games/{game_id}/record", params=params, headers=headers)
        assert answer.status_code == 200
        assert "attachment" in answer.headers["content-disposition"]
        record = answer.json()
        texts = expected_log(states, viewpoint)
        assert [a["text"] for a in record["actions"]] == texts
        for step, (recorded, action) in enumerate(zip(record["actions"], history, strict=True)):
            full = states[step].action_to_string(action)
            assert recorded["id"] == (action if texts[step] == full else -1)
        for step in (0, len(history) // 2, len(history)):
            shown = client.get(f"/api/games/{game_id}/steps/{step}", params=params,
                               headers=headers).json()
            assert shown["view"] == states[step].view(viewpoint)


@pytest.mark.parametrize("game", HIDDEN)
def test_a_seat_cannot_tell_games_apart_that_differ_only_in_what_it_cannot_see(client, game):
    """Two games whose histories differ only in what a seat cannot know (the twin plays,
    at every step, an action that seat sees the same way) give it the same payload:
    nothing hidden leaks through the server. Each twin really differs from its game."""
    created = friend_game(client, game)
    game_id, tokens = created["id"], created["seat_tokens"]
    live = client.app.state.site.hub.games[game_id].session
    seats = [StoredSeat(s.seat, s.kind, s.agent, s.name, s.token, s.joined)
             for s in live.seats]

    def stored(history):
        return GameSession(live.ctx, StoredGame(game_id, game, live.options, live.host_token,
                                                live.created, seats, history, None, None))

    for viewpoint in range(live.game.num_players):
        history = history_with_secrets(live.game, viewpoint, random.Random(viewpoint), 30)
        twin_history_ = twin_history(live.game, history, viewpoint, random.Random(4))
        assert twin_history_ != history
        original, twin = stored(history), stored(twin_history_)
        holder = live.holder([tokens[viewpoint]])
        assert payload(twin, viewpoint, holder) == payload(original, viewpoint, holder)


def test_the_creating_device_holds_its_seats_and_sees_the_invites(client):
    answer = client.post("/api/games", json={
        "game": "hadronize", "options": {"players": 4},
        "seats": ["you", "hotseat", "friend", "bot:greedy"]})
    assert answer.status_code == 201
    created = answer.json()
    assert set(created["tokens"]) == {"0", "1"}
    assert [invite["seat"] for invite in created["invites"]] == [2]
    payload = client.get(created["url"].replace("/games/", "/api/games/")).json()
    assert payload["held"] == [0, 1]
    assert payload["invites"][0]["url"] == created["invites"][0]["url"]
    assert [s["kind"] for s in payload["seats"]] == ["you", "hotseat", "friend", "bot"]
    # The friend, on another device, opens the invite link: the seat is theirs and joined.
    client.cookies.clear()
    joined = client.get(created["invites"][0]["url"], follow_redirects=False)
    assert joined.status_code == 303 and joined.headers["location"].endswith("?seat=2")
    mine = client.get(f"/api/games/{created['id']}", params={"seat": 2}).json()
    assert mine["held"] == [2] and "invites" not in mine
    assert mine["seats"][2]["joined"] is True


def test_a_seat_sees_only_its_own_deck_option(client):  # D-21
    """Decoherence decklists are private: the page data and the record of each seat name
    its own deck and hide the other one; a spectator sees neither. Each player chose
    their own deck on joining (issue 13): the host's choice for an invited seat is not
    used."""
    created = friend_game(client, "decoherence", {0: {"deck0": "surge"},
                                                  1: {"deck1": "observer"}},
                          deck0="observer", deck1="surge")
    game_id, tokens = created["id"], created["seat_tokens"]
    for seat, mine, theirs in ((0, "surge", "deck1"), (1, "observer", "deck0")):
        payload = seat_payload(client, game_id, tokens[seat], seat).json()
        assert payload["options"][f"deck{seat}"] == mine
        assert payload["options"][theirs] == "hidden"
        record = client.get(f"/games/{game_id}/record",
                            params={"seat": seat}, headers=bearer(tokens[seat])).json()
        assert record["options"][f"deck{seat}"] == mine and record["options"][theirs] == "hidden"
        other = "observer" if seat == 0 else "surge"
        assert other not in json.dumps(payload) and other not in json.dumps(record)
    spectator = seat_payload(client, game_id, None, "spectator").json()
    assert spectator["options"]["deck0"] == spectator["options"]["deck1"] == "hidden"
