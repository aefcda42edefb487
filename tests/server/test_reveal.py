"""Reveal after the game: chosen at creation (by default on when a bot plays), shown to
every seat, and only once the game is over does every page, replay step and record show
every hidden card. Before the end, or with reveal off, a seat still cannot tell apart two
games that differ only in what it cannot see."""

from __future__ import annotations

import random

import pytest

from quarkade import list_games
from quarkade.core.protocol import SPECTATOR
from quarkade.core.registry import game_class
from quarkade.core.rng import random_playout
from quarkade.server.play.views import payload, record_for, step_view
from tests.server.helpers import (
    bearer,
    friend_game,
    play_moves,
    post_form,
    refused,
    seat_payload,
    stored_copy,
    true_states,
    viewpoints,
)
from tests.twins import NoTwin, history_with_secrets, twin_history

HIDDEN = [name for name in list_games() if not game_class(name).perfect_information]


def made(client, seats, **extra):
    answer = client.post("/api/games", json={"game": "decoherence", "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    payload = client.get(f"/api/games/{created['id']}").json()
    assert payload["reveal"] is created["reveal"] and payload["revealed"] is False
    client.cookies.clear()
    return created["reveal"]


def test_reveal_is_chosen_at_creation_and_on_by_default_with_a_bot(client):
    assert made(client, ["you", "bot:greedy"]) is True
    assert made(client, ["you", "friend"]) is False
    assert made(client, ["you", "friend"], reveal=True) is True
    assert made(client, ["you", "bot:greedy"], reveal="no") is False
    for bad in ("maybe", 3, ["yes"], {"x": 1}):
        answer = client.post("/api/games", json={"game": "decoherence", "reveal": bad,
                                                 "seats": ["you", "friend"]})
        refused(answer, 400, "reveal", "choose true", "or false")
    # The form too: a refusal names what is allowed, and no game was made.
    before = client.app.state.store.games.count()
    page = post_form(client, "/new/decoherence", {"seat0": "you", "seat1": "friend",
                                                 "reveal": "perhaps"})
    assert page.status_code == 400 and "choose true" in page.text
    assert client.app.state.store.games.count() == before


def everything_a_seat_gets(live, viewpoint, holder):
    """The payload, the record and a few replay steps, as ``viewpoint`` gets them."""
    steps = sorted({0, live.step // 2, live.step})
    return (payload(live, viewpoint, holder), record_for(live, viewpoint),
            [step_view(live, viewpoint, step) for step in steps])


@pytest.mark.parametrize("game", HIDDEN)
def test_nothing_is_revealed_before_the_end_or_with_reveal_off(client, game):
    """Twins (histories a seat sees the same way, really differing) give that seat the
    same payload (its moves, and which of them would end the game for it, included),
    record and replay: with reveal on while the game goes on, and with reveal off once it
    is over."""
    created = friend_game(client, game)
    live = client.app.state.site.hub.games[created["id"]].session
    for viewpoint in range(live.game.num_players):
        holder = live.holder([created["seat_tokens"][viewpoint]])
        rng = random.Random(viewpoint)
        history = history_with_secrets(live.game, viewpoint, rng, 10, deciding=True)
        twin = twin_history(live.game, history, viewpoint, random.Random(4))
        assert twin != history
        first, second = stored_copy(live, history, True), stored_copy(live, twin, True)
        assert not first.state.is_terminal() and first.state.current_player() == viewpoint
        assert payload(first, viewpoint, holder)["legal"]  # with any warnings of a last move
        assert everything_a_seat_gets(first, viewpoint, holder) == \
            everything_a_seat_gets(second, viewpoint, holder)
        assert payload(first, viewpoint, holder)["revealed"] is False
        # The whole game, reveal off: its twin to the end looks the same too.
        whole, twin = finished_twins(live.game, viewpoint, rng)
        first, second = stored_copy(live, whole, False), stored_copy(live, twin, False)
        assert first.state.is_terminal()
        assert everything_a_seat_gets(first, viewpoint, holder) == \
            everything_a_seat_gets(second, viewpoint, holder)
        # The same pair with reveal on: now the seat is shown what differed (in the log,
        # which reads every action in full, and the record).
        first, second = stored_copy(live, whole, True), stored_copy(live, twin, True)
        assert payload(first, viewpoint, holder)["log"] != \
            payload(second, viewpoint, holder)["log"]
        assert record_for(first, viewpoint) != record_for(second, viewpoint)


def finished_twins(game, seat, rng):
    """A whole game that hid something from ``seat`` to the end, and a twin of it."""
    for _ in range(30):
        whole = random_playout(game.new_initial_state(), rng).history()
        try:
            twin = twin_history(game, whole, seat, random.Random(5), tries=30)
        except NoTwin:
            continue
        assert twin != whole
        return whole, twin
    raise NoTwin(f"no finished {game.name} game hid anything from seat {seat}")


def lasting(client, game_id, rng):
    """A chooser of random moves that do not end the game (the deal is the server's, so a
    plain random pick may, e.g. Decoherence's pass with nothing on the table)."""
    def choose(legal):
        state = true_states(client, game_id)[-1]
        going_on = [action for action in legal if not after(state, action).is_terminal()]
        return rng.choice(going_on)
    return choose


def after(state, action):
    child = state.clone()
    child.apply_action(action)
    return child


@pytest.mark.parametrize("game", HIDDEN)
def test_a_finished_game_with_reveal_on_shows_everyone_everything(client, game):
    created = friend_game(client, game, reveal=True)
    game_id, tokens = created["id"], created["seat_tokens"]
    rng = random.Random(3)
    before = play_moves(client, game_id, tokens, 2, lasting(client, game_id, rng))
    assert not before.is_terminal()
    middle = seat_payload(client, game_id, tokens[0], 0).json()
    assert middle["reveal"] is True and middle["revealed"] is False
    assert middle["view"] == before.view(0)
    final = play_moves(client, game_id, tokens, 5000, rng.choice)
    assert final.is_terminal()
    states = true_states(client, game_id)
    history = final.history()
    for viewpoint in viewpoints(final):
        token = tokens.get(viewpoint)
        params = {"seat": "spectator" if viewpoint == SPECTATOR else viewpoint}
        headers = bearer(token)
        payload = client.get(f"/api/games/{game_id}", params=params, headers=headers).json()
        assert payload["revealed"] is True and payload["secret"] is False
        assert payload["view"] == final.revealed_view()
        assert payload["options"] == dict(final.game.options)
        assert [e["text"] for e in payload["log"]] == [
            states[step].action_to_string(action) for step, action in enumerate(history)]
        record = client.get(f"/games/{game_id}/record", params=params,
                            headers=headers).json()
        assert record["revealed"] is True
        assert [a["id"] for a in record["actions"]] == history
        for step in (0, len(history) // 3, len(history)):
            shown = client.get(f"/api/games/{game_id}/steps/{step}", params=params,
                               headers=headers).json()
            assert shown["view"] == states[step].revealed_view()


@pytest.mark.parametrize("reveal", [True, False])
def test_a_resignation_ends_the_game_and_reveals_only_if_the_table_chose_it(client, reveal):
    """A game the server ends (here by a resignation) is over too: with reveal on, every
    page then sees every hidden card; with it off, the other seat still sees its own view."""
    created = friend_game(client, "decoherence", reveal=reveal)
    game_id, tokens = created["id"], created["seat_tokens"]
    state = play_moves(client, game_id, tokens, 4, max)  # never "pass" (move 1): it may lose
    assert not state.is_terminal() and state.history()
    quitter = state.current_player()
    answer = client.post(f"/api/games/{game_id}/resign", json={"seat": quitter},
                         headers=bearer(tokens[quitter]))
    assert answer.status_code == 200, answer.text
    other = 1 - quitter
    seen = seat_payload(client, game_id, tokens[other], other).json()
    record = client.get(f"/games/{game_id}/record",
                        params={"seat": other}, headers=bearer(tokens[other])).json()
    last = client.get(f"/api/games/{game_id}/steps/{seen['step']}",
                      params={"seat": other}, headers=bearer(tokens[other])).json()
    assert seen["over"] is True and seen["outcome"]["winners"] == [other]
    assert seen["revealed"] is reveal and record["revealed"] is reveal
    if reveal:
        assert seen["view"] == state.revealed_view() == last["view"]
        assert [a["id"] for a in record["actions"]] == state.history()
    else:
        assert seen["view"] == state.view(other) == last["view"]
        assert seen["options"][f"deck{quitter}"] == "hidden"
