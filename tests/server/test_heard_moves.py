"""Another process's moves come in its broker message, as ``(player, action)`` pairs (never
a view) with the clock stored beside them: this process plays them on its copy with no
database call, and falls back to a reload from the database when a message does not
follow its copy (one was missed, it does not replay here, or its clock is not well
formed). Pages see the same either way."""

import random
import time

import pytest
from sqlalchemy import event
from starlette.testclient import TestClient

from quarkade.core.protocol import SPECTATOR
from quarkade.core.rng import sample_chance
from quarkade.server import create_app
from quarkade.server.messages import (
    ClockStamp,
    LobbyChanged,
    Moves,
    Reload,
    decode,
    encode,
    from_wire,
    to_wire,
)
from quarkade.server.storage import Store
from tests.server.helpers import friend_game, live_socket, receive_until, true_states


class OtherProcess:
    """Another server process on the same database: stores moves, and makes the message
    it would publish (``quarkade.server.messages``)."""

    def __init__(self, db_url, game_id):
        self.store = Store(db_url)
        self.game_id = game_id
        self.rng = random.Random(3)
        self.now = time.time()

    def move(self, state, deadline=None, remaining=None):
        """The first legal move of the seat to move and the chance after it, stored with
        the clock (the next turn's ``deadline``, the mover's time ``remaining``); the
        message that announces them."""
        first = len(state.history())
        mover = state.current_player()
        moves = [(mover, state.legal_actions()[0])]
        state.apply_action(moves[0][1])
        while state.is_chance_node():
            outcome = sample_chance(state, self.rng)
            moves.append((state.current_player(), outcome))
            state.apply_action(outcome)
        self.now += 1.0
        game = {"turn_started": self.now, "deadline": deadline}
        if state.is_terminal():
            game.update(finished=self.now, rating_state="none")
        seats = {} if remaining is None else {mover: {"remaining": remaining}}
        self.store.games.add_actions(self.game_id, first, moves,
                                     state.returns() if state.is_terminal() else None, game,
                                     seats)
        return Moves(self.game_id, first + len(moves), "other", first, tuple(moves),
                     ClockStamp(game, {seat: values["remaining"]
                                       for seat, values in seats.items()}))


@pytest.fixture(params=["none"])
def setting(db_url, request):
    """A game held by this process; the other process; the steps from which this process
    read the game's actions again (each a reload, seen in the database's own traffic);
    and ``deliver``, which hands the hub a message as the broker would and waits until
    the game took it in."""
    with TestClient(create_app(db_url)) as client:
        created = friend_game(client, "hadronize", time_control=request.param)
        hub = client.app.state.site.hub
        live = client.portal.call(hub.live, created["id"])
        other = OtherProcess(db_url, created["id"])
        reloads = []

        def read(connection, cursor, statement, parameters, context, many):
            if "actions.step >=" in statement:  # GameQueries.changes_since: a reload
                reloads.append(next(p for p in parameters if isinstance(p, int)))

        engine = client.app.state.store.engine
        event.listen(engine, "before_cursor_execute", read)

        async def deliver(message):
            await hub.hear(message)
            await live.taken_in()

        try:
            yield client, live.session, other, reloads, lambda message: client.portal.call(
                deliver, message)
        finally:
            event.remove(engine, "before_cursor_execute", read)
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
    with live_socket(client, live.id, "spectator") as page:
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
    with live_socket(client, live.id, "spectator") as page:
        receive_until(page, lambda m: True)
        missed = other.move(true_states(client, live.id)[-1])
        heard = other.move(true_states(client, live.id)[-1])
        deliver(heard)  # it starts after the missed one: a gap
        assert reloads == [missed.first]
        shown_as_stored(client, page, live.id)
        # and the next one follows again, from memory
        deliver(other.move(true_states(client, live.id)[-1]))
        shown_as_stored(client, page, live.id)
    assert reloads == [missed.first]


def test_moves_that_do_not_replay_here_are_reloaded_not_half_played(setting):
    client, live, _, reloads, deliver = setting
    state = true_states(client, live.id)[-1]
    step = len(state.history())
    player = state.current_player()
    legal = Moves(live.id, step + 1, "other", step, ((player, state.legal_actions()[0]),),
                  ClockStamp({"turn_started": 1.0}))
    for moves in (((player, max(state.legal_actions()) + 1000),),  # not legal here
                  ((1 - player, state.legal_actions()[0]),)):  # not that seat's turn
        deliver(Moves(live.id, step + 1, "other", step, moves, legal.clock))
        assert live.step == step and live.state.history() == state.history()
    # Not pairs of whole numbers, as the wire may carry: such a message reads as a reload.
    for moves in ([[player, "1"]], "nonsense"):
        heard = decode({**encode(legal), "moves": moves})
        assert heard == Reload(live.id, step + 1, "other")
        deliver(heard)
        assert live.step == step and live.state.history() == state.history()
    assert reloads == [step] * 4  # each reloaded: the database holds the truth
    deliver(Reload(live.id, step, "other"))  # a join, say: reload
    assert reloads == [step] * 5


@pytest.mark.parametrize("setting", ["5+5"], indirect=True)
def test_a_heard_move_brings_the_clock_it_stored(setting):
    client, live, other, reloads, deliver = setting
    assert live.control.text == "5+5" and live.times.deadline is not None
    state = true_states(client, live.id)[-1]
    mover = state.current_player()
    deadline = time.time() + 3600.0
    with live_socket(client, live.id, "spectator") as page:
        receive_until(page, lambda m: True)
        deliver(other.move(state, deadline=deadline, remaining=123.0))
        shown = shown_as_stored(client, page, live.id)
        assert reloads == []
        assert live.seats[mover].remaining == 123.0
        assert (live.times.turn_started, live.times.deadline) == (other.now, deadline)
        assert shown["clock"]["remaining"][mover] == 123.0
        stored = other.store.games.load(live.id)
        assert stored.times == live.times and stored.seats == live.seats  # as a reload
        for clock in ({"game": {"deadline": "soon"}, "seats": {}},
                      {"game": {"owner": 1.0}, "seats": {}},
                      {"game": {}, "seats": {"x": 1.0}}, None):
            step = live.step
            bad = other.move(true_states(client, live.id)[-1], deadline=deadline)
            heard = decode({**encode(bad), "clock": clock})
            assert heard == Reload(bad.game, bad.step, "other")
            deliver(heard)
            assert reloads[-1] == step and live.times.turn_started == other.now
        assert len(reloads) == 4  # a clock not well formed: reloaded instead
        shown_as_stored(client, page, live.id)


def test_a_process_drops_its_own_batches_unread():
    """A batch on the wire: the sender's id on its own line, then the JSON list. Every
    process hears every batch; its own it drops by that line alone."""
    batch = [Moves("g1", 2, "p1", 1, ((0, 4), (-1, 9)), ClockStamp({"turn_started": 2.0},
                                                                  {0: 61.5})),
             Reload("g2", 5, "p1")]
    raw = to_wire("p1", batch).encode()
    assert raw.startswith(b"p1\n")
    assert from_wire(raw, "p2") == batch
    assert from_wire(raw, "p1") == []
    assert from_wire(raw.replace(b"\n", b" ", 1), "p2") == []  # not ours
    assert from_wire(b"p1\n[{\"game\": 1}, \"x\"", "p2") == []  # not JSON
    assert from_wire(b"p1\n[{\"origin\": \"p1\", \"type\": \"lobby\"}, 7]", "p2") == [
        LobbyChanged("p1")]
