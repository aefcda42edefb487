"""Misbehaving bots for the server tests, made in the bot worker processes through
``create_app(agent_factory="tests.server.agents:NAME")`` whatever spec a seat names (a
factory is called with the spec, the game and the server's allowed plug-in bots).

A worker is another process, so a test talks to these bots through two named pipes in the
directory named by QUARKADE_TEST_GATE (``helpers.BotGate`` makes them): a bot says it
started thinking by a line in ``asked``, and ``gated`` moves once the test lets one move
through ``open`` (a byte each); ``held`` holds the heavy search bots (``ismcts`` specs)
until their worker is stopped, the others playing as on the server.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from quarkade.core.agent import Agent


def _say_thinking() -> None:
    with (Path(os.environ["QUARKADE_TEST_GATE"]) / "asked").open("w") as said:
        said.write(f"{os.getpid()}\n")


class Gated(Agent):
    """Says it started, then moves (its first legal action) once the test lets it."""

    spec = "gated"

    def act(self, turn, rng):
        _say_thinking()
        gate = os.open(Path(os.environ["QUARKADE_TEST_GATE"]) / "open", os.O_RDONLY)
        try:
            os.read(gate, 1)  # one byte: one move let through
        finally:
            os.close(gate)
        return turn.legal_actions[0]


class Held(Agent):
    """Says it started (its worker's pid, a line in the pipe ``asked``), then thinks until
    its worker is stopped."""

    spec = "held"

    def act(self, turn, rng):
        _say_thinking()
        while True:
            time.sleep(3600)


class Forever(Agent):
    """Never answers (as ``mcts:iterations=1000000000000`` would)."""

    spec = "forever"

    def act(self, turn, rng):
        while True:
            pass


class Explodes(BaseException):
    pass


class Raising(Agent):
    """Raises what no ``except Exception`` catches."""

    spec = "raising"

    def act(self, turn, rng):
        raise Explodes("the bot blew up")


class Exiting(Agent):
    """Takes its whole process down."""

    spec = "exiting"

    def act(self, turn, rng):
        os._exit(3)


def gated(spec, game, plugins=()):
    return Gated()


def forever(spec, game, plugins=()):
    return Forever()


def raising(spec, game, plugins=()):
    return Raising()


def exiting(spec, game, plugins=()):
    return Exiting()


def held(spec, game, plugins=()):
    if spec.startswith("ismcts"):
        return Held()
    from quarkade.server.play.botmove import server_agent

    return server_agent(spec, game, plugins)
