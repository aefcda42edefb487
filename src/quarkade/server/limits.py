"""What one client may ask of the server: sizes, rates, and what the server keeps in memory.

``Limits`` holds every bound in one place (``create_app(limits=...)`` changes them);
``RateLimiter`` is a token bucket per key (a client address or a connection) on an
injected clock.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from quarkade.server.clock import Clock


@dataclass(frozen=True)
class Rate:
    """``burst`` requests at once, then ``per_second`` on average."""

    burst: float
    per_second: float


@dataclass(frozen=True)
class Limits:
    body_bytes: int = 64 * 1024  # an HTTP request body, counted while it is read
    frame_bytes: int = 16 * 1024  # a WebSocket message (uvicorn closes above 1 MiB)
    number_digits: int = 18  # the longest whole number a request may hold
    create_games: Rate = field(default=Rate(20, 20 / 60))  # per client address
    http_moves: Rate = field(default=Rate(60, 20))  # per client address
    socket_messages: Rate = field(default=Rate(30, 10))  # per connection
    live_games: int = 2000  # games kept in memory; idle ones beyond it leave first
    idle_seconds: float = 600.0  # a game nobody watches leaves memory after this
    bot_seconds: float = 15.0  # a bot move's hard deadline (then a fallback move)
    bot_think_seconds: float = 5.0  # a bot's thinking, whatever its spec (its time cap)
    workers: int = 2  # processes for CPU work (bots, hints, reviews, deck tests), shared
    reserve_workers: int = 1  # more, only for a client with no job running
    jobs_per_client: int = 8  # jobs one client may have waiting (then 429)
    hint_seconds: float = 60.0  # a hint's hard deadline
    review_seconds: float = 300.0  # a review's hard deadline
    deck_chunk_seconds: float = 300.0  # a deck test's chunk's hard deadline
    invite_seconds: float = 7 * 24 * 3600.0  # an invite link's life
    link_seconds: float = 600.0  # a link-another-device code's life
    logins: Rate = field(default=Rate(10, 10 / 60))  # per address (people/passwords.py)
    password_changes: Rate = field(default=Rate(3, 3 / 300))  # per player, per address
    hashing: int = 4  # password hashes running or waiting in a process (then 503)
    guests: Rate = field(default=Rate(30, 30 / 60))  # new guest players per address
    sockets: int = 800  # WebSockets open at once in a process (then refused, 503)
    sockets_per_address: int = 64  # WebSockets open at once from one address (then 429)
    lobby_seconds: float = 3600.0  # a public game waiting for players, in the lobby
    abandon_seconds: float = 7 * 24 * 3600.0  # a seat with no clock idle this long
    first_move_seconds: float = 30.0  # real-time: a seat's first move, else aborted (S-8)
    chat_characters: int = 300  # one chat message
    chat_messages: Rate = field(default=Rate(5, 0.5))  # per seat of a game
    chat_per_game: int = 2000  # messages one game's chat may hold
    keys_per_seat: int = 20  # devices that hold one seat by its secret (the oldest go)
    saved_decks: int = 50  # decks one player may keep
    deck_test_games: int = 2000  # "test this deck": games against each preset
    deck_tests_waiting: int = 4  # deck tests queued or running on one process
    deck_tests: Rate = field(default=Rate(3, 1 / 60))  # per client address
    # uvicorn's own bounds, per process (server/run.py):
    connections: int = 1000  # HTTP and WebSocket connections at once (then 503)
    header_seconds: float = 10.0  # from connecting (or the last answer) to a whole request head
    keep_alive_seconds: int = 5  # an idle connection between requests
    header_bytes: int = 16 * 1024  # a request head, at most


UNLIMITED = Rate(float("inf"), float("inf"))


def without_rates(limits: Limits) -> Limits:
    """The same limits with no rate limits and no caps on open sockets (benchmarks,
    trusted networks)."""
    return replace(limits, create_games=UNLIMITED, http_moves=UNLIMITED,
                   socket_messages=UNLIMITED, logins=UNLIMITED, guests=UNLIMITED,
                   chat_messages=UNLIMITED, deck_tests=UNLIMITED,
                   password_changes=UNLIMITED, sockets=1 << 30,
                   sockets_per_address=1 << 30, connections=1 << 30)


class RateLimiter:
    """Token buckets by key; ``allow(key)`` spends one token or says no."""

    def __init__(self, rate: Rate, clock: Clock, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.clock = clock
        self.max_keys = max_keys
        self.buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when)

    def allow(self, key: str) -> bool:
        if self.rate.per_second == float("inf"):
            return True
        now = self.clock.monotonic()
        tokens, when = self.buckets.get(key, (self.rate.burst, now))
        tokens = min(self.rate.burst, tokens + (now - when) * self.rate.per_second)
        allowed = tokens >= 1
        if len(self.buckets) >= self.max_keys and key not in self.buckets:
            self._forget_full(now)
        self.buckets[key] = (tokens - 1 if allowed else tokens, now)
        return allowed

    def _forget_full(self, now: float) -> None:
        """Drop the buckets that have refilled (they hold nothing worth keeping)."""
        refill = self.rate.burst / self.rate.per_second
        self.buckets = {key: value for key, value in self.buckets.items()
                        if now - value[1] < refill}
