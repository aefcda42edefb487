"""Helpers for the server tests: make games over the API and read the truth from storage."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from starlette.testclient import TestClient

from quarkade import load_game
from quarkade.core.protocol import SPECTATOR, State
from quarkade.core.registry import game_class


def friend_game(client: TestClient, game: str, **options: Any) -> dict[str, Any]:
    """A game whose seats are all friends: returns the API answer plus ``seat_tokens``."""
    players = load_game(game, **options).num_players
    answer = client.post("/api/games", json={"game": game, "options": options,
                                             "seats": ["friend"] * players})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    client.cookies.clear()  # the creating device's cookie; tests pass tokens explicitly
    created["seat_tokens"] = {invite["seat"]: join(client, created["id"], invite["url"])
                              for invite in created["invites"]}
    return created


def join(client: TestClient, game_id: str, invite_url: str) -> str:
    """Spend an invite as a new device would; returns the seat's new secret."""
    answer = client.post(f"/api/games/{game_id}/join",
                         json={"invite": invite_url.rsplit("/", 1)[1]})
    assert answer.status_code == 200, answer.text
    client.cookies.clear()
    return str(answer.json()["token"])


def seat_payload(client: TestClient, game_id: str, token: str | None,
                 seat: int | str | None = None) -> Any:
    params: dict[str, Any] = {}
    if token:
        params["token"] = token
    if seat is not None:
        params["seat"] = seat
    return client.get(f"/api/games/{game_id}", params=params)


def move(client: TestClient, game_id: str, token: str, seat: Any, action: Any,
         step: Any = None) -> Any:
    """A move; ``step`` defaults to the game's current step."""
    if step is None:
        step = len(true_states(client, game_id)[-1].history())
    body = {"seat": seat, "action": action, "step": step}
    return client.post(f"/api/games/{game_id}/actions", params={"token": token}, json=body)


def play_moves(client: TestClient, game_id: str, tokens: dict[int, str], count: int,
               choose: Callable[[list[int]], int]) -> State:
    """Up to ``count`` moves, each by the seat to move with its own token, ``choose``
    picking from the legal actions; returns the state after them."""
    for _ in range(count):
        state = true_states(client, game_id)[-1]
        if state.is_terminal():
            return state
        seat = state.current_player()
        answer = move(client, game_id, tokens[seat], seat, choose(state.legal_actions()),
                      len(state.history()))
        assert answer.status_code == 200, answer.text
    return true_states(client, game_id)[-1]


def stored_actions(client: TestClient, game_id: str) -> list[int]:
    stored = client.app.state.store.load_game(game_id)  # type: ignore[attr-defined]
    assert stored is not None
    return list(stored.actions)


def true_states(client: TestClient, game_id: str) -> list[State]:
    """Every state of the stored game, from the initial one to the current one."""
    stored = client.app.state.store.load_game(game_id)  # type: ignore[attr-defined]
    state = load_game(stored.game, **stored.options).new_initial_state()
    states = [state.clone()]
    for action in stored.actions:
        state.apply_action(action)
        states.append(state.clone())
    return states


def viewpoints(state: State) -> list[int]:
    return [*range(state.game.num_players), SPECTATOR]


def title(game: str) -> str:
    return game_class(game).title


def refused(answer: Any, status: int, *fragments: str) -> str:
    """Check a JSON refusal: its status, and that its message says each fragment."""
    assert answer.status_code == status, answer.text
    message = str(answer.json()["error"])
    for fragment in fragments:
        assert fragment in message, message
    return message
