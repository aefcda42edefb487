"""Misbehaving bots for the server tests, made in the bot worker processes through
``create_app(agent_factory="tests.server.agents:NAME")`` whatever spec a seat names (a
factory is called with the spec, the game and the server's allowed plug-in bots).

A worker is another process, so a test talks to these bots through files: ``gated`` writes
``asked`` in the directory named by QUARKADE_TEST_GATE and moves once ``open`` is there;
``held`` makes the heavy search bots (``ismcts`` specs) say when they start thinking, by a
line in the named pipe ``asked`` in that directory, and then think until stopped (the
others play as on the server).
"""

from __future__ import annotations

import os
import time
from pathlib import Path

from quarkade.core.agent import Agent


class Gated(Agent):
    spec = "gated"

    def act(self, turn, rng):
        gate = Path(os.environ["QUARKADE_TEST_GATE"])
        (gate / "asked").touch()
        while not (gate / "open").exists():  # the bot "thinks" until the test opens it
            time.sleep(0.01)
        return turn.legal_actions[0]


class Held(Agent):
    """Says it started (its worker's pid, a line in the pipe ``asked``), then thinks until
    its worker is stopped."""

    spec = "held"

    def act(self, turn, rng):
        pipe = Path(os.environ["QUARKADE_TEST_GATE"]) / "asked"
        with pipe.open("w") as said:  # blocks until the test listens
            said.write(f"{os.getpid()}\n")
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
