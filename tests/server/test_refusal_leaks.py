"""The server's refusals tell a seat nothing it may not know (HTTP and WebSocket).

Pairs of stored games whose histories differ only in what one seat cannot see (twins,
``tests/twins.py``) are sent the same bad requests by that seat: every illegal action id,
values that are not ids, moves out of turn and at the wrong step, bad step numbers. Each
answer (status and message) must be the same for both games, so none can name a hidden
card. The engine-level version of this check, over thousands of positions, is
``tests/core/test_refusals_leak_nothing.py``.
"""

from __future__ import annotations

import random

import pytest

from quarkade import load_game
from quarkade.server import keys
from quarkade.server.play import seats as seating
from quarkade.server.storage import StoredSeat
from tests.server.helpers import bearer, live_socket
from tests.twins import history_with_secrets, twin_history

CASES = [("decoherence", {}), ("decoherence", {"deck0": "random", "deck1": "surge"}),
         ("dead-cat", {"players": 2}), ("dead-cat", {"players": 4, "peek_first": True})]
NOT_IDS = ["3", None, 2.5, -1, 10**30, True, [1], {"id": 1}]


def stored_game(client, name, options, history):
    """A game of friends stored with ``history``, as a restarted server would find it;
    returns its id and each seat's token."""
    game = load_game(name, **options)
    game_id = seating.new_game_id()
    tokens = {seat: keys.new_secret() for seat in range(game.num_players)}
    seats = [StoredSeat(seat, seating.FRIEND, None, f"seat {seat}", keys.digest(tokens[seat]),
                        True) for seat in range(game.num_players)]
    store = client.app.state.store
    store.games.create(game_id, name, dict(game.options), keys.digest(keys.new_secret()),
                       seats)
    state = game.new_initial_state()
    moves = []
    for action in history:
        moves.append((state.current_player(), action))
        state.apply_action(action)
    store.games.add_actions(game_id, 0, moves, state.returns() if state.is_terminal() else None)
    return game_id, tokens


def answers(client, game_id, tokens, seat, ids, step):
    """Every answer to ``seat``'s bad requests, with the game's own id taken out."""
    said = []
    headers = bearer(tokens[seat])

    def keep(response):
        said.append((response.status_code, response.text.replace(game_id, "GAME")))

    url = f"/api/games/{game_id}/actions"
    for action in [*ids, *NOT_IDS]:
        keep(client.post(url, headers=headers, json={"seat": seat, "action": action,
                                                   "step": step}))
    for bad_step in (step - 1, step + 1, "x"):
        keep(client.post(url, headers=headers, json={"seat": seat, "action": ids[0],
                                                   "step": bad_step}))
    for other in tokens:
        if other != seat:  # out of turn, or a seat this device does not hold
            keep(client.post(url, headers=headers, json={"seat": other, "action": ids[0]}))
    for bad in (step + 5, -1, "x"):
        keep(client.get(f"/api/games/{game_id}/steps/{bad}", headers=headers))
    with live_socket(client, game_id, seat, tokens[seat]
                                  ) as socket:
        socket.receive_json()
        for action in [*ids, *NOT_IDS]:
            socket.send_json({"type": "act", "action": action, "step": step})
            reply = socket.receive_json()
            said.append(("ws", reply.get("status"), reply.get("message")))
    return said


@pytest.mark.parametrize(("name", "options"), CASES,
                         ids=[f"{n}-{len(o)}" for n, o in CASES])
def test_a_seat_gets_the_same_refusals_in_games_it_cannot_tell_apart(client, name, options):
    game = load_game(name, **options)
    for seed in range(4):
        rng = random.Random(seed)
        seat = seed % game.num_players
        history = history_with_secrets(game, seat, rng, rng.randrange(12, 60), deciding=True)
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        twin = twin_history(game, history, seat, rng)
        assert twin != history
        legal = set(state.legal_actions())
        ids = [a for a in range(min(game.num_distinct_actions, 110)) if a not in legal]
        said = [answers(client, *stored_game(client, name, options, h), seat, ids, len(h))
                for h in (history, twin)]
        for mine, theirs in zip(*said, strict=True):
            assert mine == theirs, f"seat {seat} told apart: {mine} vs {theirs}"
