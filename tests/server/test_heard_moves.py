"""Another process's moves come in its broker message, as ``(player, action)`` pairs (never
a view): this process plays them on its copy with no database call, and falls back to a
reload from the database when a message does not follow its copy (one was missed, or it
does not replay here). Pages see the same either way."""

import random

import pytest
from starlette.testclient import TestClient

from quarkade.core.protocol import SPECTATOR
from quarkade.core.rng import sample_chance
from quarkade.server import create_app
from quarkade.server.storage import Store
from tests.server.helpers import friend_game, true_states
from tests.server.test_live import receive_until, socket_url


class OtherProcess:
    """Another server process on the same database: stores moves, says what it would
    publish."""

    def __init__(self, db_url, game_id):
        self.store = Store(db_url)
        self.game_id = game_id
        self.rng = random.Random(3)

    def move(self, state):
        """The first legal move of the seat to move and the chance after it, stored; the
        broker message that announces them."""
        first = len(state.history())
        moves = [(state.current_player(), state.legal_actions()[0])]
        state.apply_action(moves[0][1])
        while state.is_chance_node():
            outcome = sample_chance(state, self.rng)
            moves.append((state.current_player(), outcome))
            state.apply_action(outcome)
        self.store.add_actions(self.game_id, first, moves,
                               state.returns() if state.is_terminal() else None)
        return {"game": self.game_id, "step": first + len(moves), "origin": "other",
                "from": first, "moves": [list(pair) for pair in moves]}


@pytest.fixture
def setting(db_url):
    with TestClient(create_app(db_url)) as client:
        created = friend_game(client, "hadronize")
        hub = client.app.state.hub
        live = client.portal.call(hub.get, created["id"])
        other = OtherProcess(db_url, created["id"])
        reloads = []
        catch_up = live._catch_up

        async def counted():
            reloads.append(live.step)
            return await catch_up()

        live._catch_up = counted

        async def deliver(message):
            await hub._heard(message)
            if live.refreshing is not None:
                await live.refreshing

        yield client, live, other, reloads, lambda message: client.portal.call(deliver,
                                                                               message)
        other.store.close()


def shown_as_stored(client, page, game_id):
    """The page's state once it holds the stored game, and that it shows it truly."""
    truth = true_states(client, game_id)[-1]
    shown = receive_until(page, lambda m: m["step"] == len(truth.history()))
    assert shown["view"] == truth.view(SPECTATOR)
    assert [entry["text"] for entry in shown["log"]] == _texts(client, game_id)
    return shown


def _texts(client, game_id):
    states = true_states(client, game_id)
    return [before.action_string_for(SPECTATOR, action)
            for before, action in zip(states, states[-1].history(), strict=False)]


def test_moves_that_follow_are_played_from_the_message_without_the_database(setting):
    client, live, other, reloads, deliver = setting
    with client.websocket_connect(socket_url(live.id, "spectator")) as page:
        receive_until(page, lambda m: True)
        for _ in range(4):
            deliver(other.move(true_states(client, live.id)[-1]))
            shown_as_stored(client, page, live.id)
        assert reloads == []
        again = other.move(true_states(client, live.id)[-1])
        deliver(again)
        deliver(again)  # a message twice (or one this copy is ahead of): nothing happens
        shown_as_stored(client, page, live.id)
    assert reloads == []


def test_a_missed_message_is_made_up_for_by_a_reload(setting):
    client, live, other, reloads, deliver = setting
    with client.websocket_connect(socket_url(live.id, "spectator")) as page:
        receive_until(page, lambda m: True)
        missed = other.move(true_states(client, live.id)[-1])
        heard = other.move(true_states(client, live.id)[-1])
        deliver(heard)  # it starts after the missed one: a gap
        assert reloads == [missed["from"]]
        shown_as_stored(client, page, live.id)
        # and the next one follows again, from memory
        deliver(other.move(true_states(client, live.id)[-1]))
        shown_as_stored(client, page, live.id)
    assert reloads == [missed["from"]]


def test_moves_that_do_not_replay_here_are_reloaded_not_half_played(setting):
    client, live, _, reloads, deliver = setting
    state = true_states(client, live.id)[-1]
    step = len(state.history())
    player = state.current_player()
    for moves in ([[player, max(state.legal_actions()) + 1000]],  # not legal here
                  [[1 - player, state.legal_actions()[0]]],  # not that seat's turn
                  [[player, "1"]], "nonsense"):  # not pairs of whole numbers
        deliver({"game": live.id, "step": step + 1, "origin": "other", "from": step,
                 "moves": moves})
        assert live.step == step and live.state.history() == state.history()
    assert reloads == [step] * 4  # each reloaded: the database holds the truth
    deliver({"game": live.id, "step": step, "origin": "other"})  # a join, say: reload
    assert reloads == [step] * 5
