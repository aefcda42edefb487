"""Helpers for the server tests: make games over the API and read the truth from storage."""

from __future__ import annotations

import asyncio
import os
import re
import weakref
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from starlette.testclient import TestClient

from quarkade import load_game
from quarkade.core.protocol import SPECTATOR, State
from quarkade.core.registry import game_class
from quarkade.server.play.session import GameSession
from quarkade.server.storage import StoredGame, StoredSeat


def friend_game(client: TestClient, game: str, seat_options: dict[int, dict[str, Any]]
                | None = None, time_control: str = "none", reveal: bool | None = None,
                visibility: str = "unlisted", **options: Any) -> dict[str, Any]:
    """A game whose seats are all friends, each joined (with ``seat_options[seat]``, the
    options that seat chooses itself), with ``time_control`` (``reveal``: show every
    hidden card once it is over): returns the API answer plus ``seat_tokens``."""
    players = load_game(game, **options).num_players
    answer = client.post("/api/games", json={"game": game, "options": options,
                                             "seats": ["friend"] * players,
                                             "time_control": time_control,
                                             "reveal": reveal, "visibility": visibility})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    client.cookies.clear()  # the creating device's cookie; tests pass tokens explicitly
    chosen = seat_options or {}
    created["seat_tokens"] = {
        invite["seat"]: join(client, created["id"], invite["url"], chosen.get(invite["seat"]))
        for invite in created["invites"]}
    return created


def join(client: TestClient, game_id: str, invite_url: str,
         options: dict[str, Any] | None = None) -> str:
    """Spend an invite as a new device would; returns the seat's new secret."""
    answer = client.post(f"/api/games/{game_id}/join",
                         json={"invite": invite_url.rsplit("/", 1)[1],
                               **({"options": options} if options else {})})
    assert answer.status_code == 200, answer.text
    client.cookies.clear()
    return str(answer.json()["token"])


class BotGate:
    """The named pipes test bots (``tests.server.agents``) talk through, in ``folder``
    (set as QUARKADE_TEST_GATE): ``thinking()`` waits until a bot says it started its
    move; ``let_move()`` lets one gated bot move. Both ends are opened read-write here,
    so neither side waits for the other to open its end."""

    def __init__(self, folder: Path) -> None:
        os.environ["QUARKADE_TEST_GATE"] = str(folder)
        for name in ("asked", "open"):
            os.mkfifo(folder / name)
        self.asked = os.fdopen(os.open(folder / "asked", os.O_RDWR), "r")
        self.opening = os.open(folder / "open", os.O_RDWR)

    def thinking(self) -> int:
        """The worker process of the next bot that says it started thinking."""
        return int(self.asked.readline())

    def let_move(self) -> None:
        os.write(self.opening, b"x")

    def close(self) -> None:
        self.asked.close()
        os.close(self.opening)
        os.environ.pop("QUARKADE_TEST_GATE", None)


def another_device(client: TestClient) -> TestClient:
    """Another device on ``client``'s running app: its own cookies (its own player), the
    same server."""
    device = TestClient(client.app)
    device.portal = client.portal
    return device


def form_token(client: TestClient, page: str = "/me") -> str:
    """The form token of ``client``'s session (forms' ``csrf``), read from ``page`` as a
    browser gets it."""
    found = re.search(r'name="csrf" value="([^"]+)"', client.get(page).text)
    assert found, f"{page} shows no form token"
    return found.group(1)


def post_form(client: TestClient, path: str, data: dict[str, Any], page: str = "/me",
              **more: Any) -> Any:
    """A form posted from one of our pages (``page``, which shows it): with the session's
    token, as a browser does."""
    return client.post(path, data={**data, "csrf": form_token(client, page)}, **more)


def bearer(*tokens: str | None) -> dict[str, str]:
    """The header a script proves what it holds with (secrets never go in the address)."""
    held = [t for t in tokens if t]
    return {"authorization": "Bearer " + ".".join(held)} if held else {}


def seat_payload(client: TestClient, game_id: str, token: str | None,
                 seat: int | str | None = None) -> Any:
    params: dict[str, Any] = {}
    if seat is not None:
        params["seat"] = seat
    return client.get(f"/api/games/{game_id}", params=params, headers=bearer(token))


def live_socket(client: TestClient, game_id: str, seat: int | str | None = None,
           token: str | None = None) -> Any:
    """A game page's socket (``seat``: the view asked for), holding ``token``."""
    query = "" if seat is None else f"?seat={seat}"
    return client.websocket_connect(f"/ws/games/{game_id}{query}", headers=bearer(token))


def move(client: TestClient, game_id: str, token: str, seat: Any, action: Any,
         step: Any = None) -> Any:
    """A move; ``step`` defaults to the game's current step."""
    if step is None:
        step = len(true_states(client, game_id)[-1].history())
    body = {"seat": seat, "action": action, "step": step}
    return client.post(f"/api/games/{game_id}/actions", headers=bearer(token), json=body)


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
    stored = client.app.state.store.games.load(game_id)  # type: ignore[attr-defined]
    assert stored is not None
    return list(stored.actions)


def true_states(client: TestClient, game_id: str) -> list[State]:
    """Every state of the stored game, from the initial one to the current one."""
    stored = client.app.state.store.games.load(game_id)  # type: ignore[attr-defined]
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


HELD_LOGS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def receive_state(socket):
    """The next message, a state's log made whole as the page makes it: a state carries
    only the entries after the first ``log_from`` the page holds."""
    message = socket.receive_json()
    if message["type"] == "state":
        held = HELD_LOGS.get(socket, [])
        assert message["log_from"] <= len(held), "a state that does not follow the page's"
        message["log"] = held[:message["log_from"]] + message["log"]
        HELD_LOGS[socket] = message["log"]
    return message


def receive_until(socket, done):
    for _ in range(10_000):
        message = receive_state(socket)
        if message["type"] == "state" and done(message):
            return message
    raise AssertionError("the awaited state never came")


def watch_until(client: TestClient, game_id: str, done: Callable[[dict[str, Any]], bool]
                ) -> dict[str, Any]:
    """The first state a spectator's page of ``game_id`` is shown for which ``done`` holds
    (what the server does meanwhile, in its own tasks and processes, reaches the page); an
    ``AssertionError`` if the game ends first."""
    with live_socket(client, game_id, "spectator") as page:
        shown = receive_until(page, lambda m: done(m) or m["over"])
    assert done(shown), "the game ended before what was awaited came"
    return shown


def two_seat_game(client: TestClient, control: str, game: str = "hadronize",
                  **options) -> tuple[str, dict[int, str]]:
    """A two-seat game with time control ``control``: seat 0 this device, seat 1 a friend
    who joins; the game's id and both seats' tokens."""
    created = client.post("/api/games", json={"game": game, "options": options,
                                              "seats": ["you", "friend"],
                                              "time_control": control})
    assert created.status_code == 201, created.text
    body = created.json()
    client.cookies.clear()
    tokens = {0: body["tokens"]["0"], 1: join(client, body["id"], body["invites"][0]["url"])}
    return body["id"], tokens


def seen(client: TestClient, game_id: str, token: str | None = None) -> dict:
    return client.get(f"/api/games/{game_id}", headers=bearer(token)).json()


def run_alone(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run ``coroutine`` to its end on an event loop of its own, in a thread of its own: a
    browser test earlier in this worker (Playwright's sync API) leaves its loop marked as
    running on the main thread, where ``asyncio.run`` then refuses to start."""
    with ThreadPoolExecutor(1) as thread:
        return thread.submit(asyncio.run, coroutine).result()


def stored_copy(live: GameSession, history: list[int], reveal: bool = False) -> GameSession:
    """``live``'s game replayed to ``history`` (a twin's, say), with reveal on or off: a
    copy as another process would load it."""
    seats = [StoredSeat(s.seat, s.kind, s.agent, s.name, s.token, s.joined) for s in live.seats]
    return GameSession(live.ctx, StoredGame(live.id, live.name, live.options,
                                            live.host_token, live.created, seats, history,
                                            None, None, reveal=reveal))
