"""Issue 26: logins and password changes limited without letting a stranger lock the owner
out, password hashing that a flood cannot monopolise, and names that cannot pass for one
another.

Before: six wrong passwords for a name, from any addresses, and its owner got 429 (one
guess every 30 s kept them out); 40 password changes from one guest kept both hashing
threads busy and a real login waited seconds; ``AIiceQ`` could sit beside ``AliceQ``."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from starlette.testclient import TestClient

from quarkade.server import create_app
from quarkade.server.clock import ManualClock
from quarkade.server.people.players import SESSION_AGE
from tests.server.helpers import refused


def device(client: TestClient, address: str) -> TestClient:
    """Another device on ``client``'s app, at ``address`` (its own cookies)."""
    other = TestClient(client.app, client=(address, 40000))
    other.portal = client.portal
    return other


def claim(client: TestClient, name: str, password: str) -> str:
    client.get("/me")
    answer = client.post("/api/me", json={"name": name, "password": password})
    assert answer.status_code == 200, answer.text
    return str(answer.json()["id"])


def login(client: TestClient, name: str, password: str):
    return client.post("/api/login", json={"name": name, "password": password})


def test_strangers_wrong_passwords_do_not_lock_the_owner_out(any_db):
    clock = ManualClock()
    with TestClient(create_app(any_db, clock=clock), client=("10.1.0.1", 1)) as laptop:
        owner = claim(laptop, "Feynman", "path-integral")
        for number in range(2, 8):  # six strangers, one wrong password each
            stranger = device(laptop, f"10.9.0.{number}")
            refused(login(stranger, "Feynman", f"guess-{number}"), 403, "do not match")
        # and one stranger who keeps at it from one address
        guesser = device(laptop, "10.9.9.9")
        answers = [login(guesser, "Feynman", f"again-{n}").status_code for n in range(6)]
        assert answers == [403, 403, 403, 429, 429, 429]
        # The owner, on a new device elsewhere, logs in at once ...
        phone = device(laptop, "10.1.0.2")
        answer = login(phone, "Feynman", "path-integral")
        assert answer.status_code == 200 and answer.json()["id"] == owner
        # ... and on the laptop, after logging out, too.
        assert laptop.post("/api/logout").status_code == 200
        assert login(laptop, "feynman", "path-integral").json()["id"] == owner


def test_a_guesser_waits_longer_after_each_wrong_password(any_db):
    clock = ManualClock()
    with TestClient(create_app(any_db, clock=clock)) as owner:
        claim(owner, "Noether", "symmetries")
        guesser = device(owner, "10.7.0.1")
        assert [login(guesser, "Noether", f"g{n}").status_code for n in range(3)] == [403] * 3
        refused(login(guesser, "Noether", "g3"), 429, "try again in 2 seconds")
        for wait in (2, 4, 8):  # each wrong password doubles the wait
            clock.advance(wait - 0.5)
            refused(login(guesser, "Noether", "early"), 429, "try again in 1 second")
            clock.advance(0.5)
            refused(login(guesser, "Noether", f"wrong-after-{wait}"), 403, "do not match")
        refused(login(guesser, "Noether", "g9"), 429, "try again in 16 seconds")
        # The right password from that address, once the wait is over, logs in and
        # forgets the failures.
        clock.advance(16)
        assert login(guesser, "Noether", "symmetries").status_code == 200


def test_a_name_guessed_at_from_everywhere_waits_but_not_for_its_own_devices(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock)) as laptop:
        claim(laptop, "Curie", "radioactive")
        laptop.post("/api/logout")
        assert login(laptop, "Curie", "radioactive").status_code == 200  # remembered here
        laptop.post("/api/logout")
        for number in range(100):  # a hundred addresses, one guess each
            stranger = device(laptop, f"10.{number // 200}.{number % 200}.5")
            refused(login(stranger, "Curie", "guess"), 403)
        refused(login(device(laptop, "10.200.0.1"), "Curie", "radioactive"), 429,
                "from a device you logged in on before")
        assert login(laptop, "Curie", "radioactive").status_code == 200


class HeldHasher:
    """The server's own argon2 hasher, its next ``hash`` held until ``release`` is set
    (at most ``hold`` seconds): so a test can look at the server while a hash is busy."""

    def __init__(self, real: Any, hold: float = 60.0) -> None:
        self.real = real
        self.hold = hold
        self.entered = threading.Event()  # a hash is being held now
        self.release = threading.Event()
        self.finished = threading.Event()  # the held hash is done

    def hash(self, password: str) -> str:
        self.entered.set()
        self.release.wait(self.hold)
        found: str = self.real.hash(password)
        self.finished.set()
        return found

    def verify(self, stored: str, password: str) -> bool:
        return bool(self.real.verify(stored, password))

    def check_needs_rehash(self, stored: str) -> bool:
        return bool(self.real.check_needs_rehash(stored))


def test_a_flood_of_password_changes_never_holds_up_another_players_login(any_db):
    with TestClient(create_app(any_db), client=("10.3.0.1", 1)) as flooder:
        claim(flooder, "Flood", "first-password")
        owner = device(flooder, "10.3.0.2")
        claim(owner, "Owner", "my-password")
        owner.post("/api/logout")
        passwords = flooder.app.state.site.players.passwords  # type: ignore[attr-defined]
        held = passwords.hasher = HeldHasher(passwords.hasher)

        def change(number: int) -> int:
            return int(flooder.post("/api/me", json={"password": f"flooding-{number}"})
                       .status_code)

        first: list[int] = []
        hashing = threading.Thread(target=lambda: first.append(change(0)))
        hashing.start()
        assert held.entered.wait(60), "the first password change never reached the hasher"
        # Thirty-nine more while the first is still hashing: each refused at once, none
        # queued behind it (the guest's address holds its one place).
        rest = [change(number) for number in range(1, 40)]
        assert set(rest) <= {429, 503}, rest
        # The owner logs in on the server's other hashing place, the flood's hash still
        # held: had a hash blocked the event loop or the login waited in a queue behind
        # the flood, it would only be answered after the held hash was done.
        assert login(owner, "Owner", "my-password").status_code == 200
        assert not held.finished.is_set()
        held.release.set()
        hashing.join()
        assert first == [200]


@pytest.mark.parametrize("taken, look_alike", [
    ("AliceQ", "AIiceQ"),  # a capital I for an l
    ("AliceQ", "A1iceQ"),
    ("BOB-7", "B0B-7"),  # a zero for an O
    ("Kim_J", "Kirn_J"),  # r and n for an m
])
def test_a_name_that_looks_like_a_players_is_refused(any_db, taken, look_alike):
    with TestClient(create_app(any_db, rate_limits=False)) as client:
        claim(client, taken, "a-password")
        other = device(client, "10.4.0.1")
        other.get("/me")
        refused(other.post("/api/me", json={"name": look_alike}), 409, "looks too much like",
                taken)
        assert other.get("/api/me").json()["name"] != look_alike
        # Its owner may change the name's case or a look-alike of their own name.
        assert client.post("/api/me", json={"name": look_alike}).status_code == 200


def test_sessions_older_than_their_cookies_are_forgotten_at_start(db_url):
    clock = ManualClock()
    with TestClient(create_app(db_url, clock=clock)) as client:
        client.get("/me")  # a guest's session, kept on the server
        store = client.app.state.store
        assert store.players.forget_sessions(clock.time() - SESSION_AGE) == 0
    clock.advance(SESSION_AGE + 1)
    with TestClient(create_app(db_url, clock=clock)) as client:
        assert client.app.state.store.players.forget_sessions(clock.time()) == 0  # gone already
