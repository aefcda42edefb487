"""Game records: one JSON document per game, replayable step by step.

A record holds the game and its options, the seats (name and agent spec), every action
(chance included) as its id, its notation and who took it, and the result: the returns
and the outcome (``State.outcome()``: a win, a shared win or a draw, and who won). Replaying a
record rebuilds every state; a record that stops replaying raises ``RecordError`` naming
the step and the reason. A game in which a seat asked for a hint lists those seats in
``hints`` (such a game is never rated); the key is there only when some seat did. A
game in which a plug-in bot was stopped (it raised, chose an illegal action or overran
its time, and its seat played ``random`` from then on) is flagged: the record lists
those ``faults``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from quarkade.core.errors import QuarkadeError, RecordError
from quarkade.core.protocol import CHANCE, State
from quarkade.core.registry import load_game

FORMAT = "quarkade-record/1"


@dataclass(frozen=True)
class Seat:
    """Who sat at a seat: a display name and the agent spec that played it."""

    name: str
    agent: str


@dataclass(frozen=True)
class RecordedAction:
    """One action: its id, its notation at that moment, and who took it (-1 for chance)."""

    id: int
    text: str
    player: int


@dataclass(frozen=True)
class Fault:
    """A bot stopped mid-game: its seat, its spec, which of its own moves (1 for its first)
    went wrong, what went wrong (``raised``, ``illegal``, ``time``, or on the web server
    ``crashed``: it took its worker process down), a sentence naming the bot that anyone
    may read, and ``detail`` (the exception's text, or what the bot answered), which may
    hold what only the bot's seat knows: it is for the operator and offline analysis, never
    shown to another seat. The seat played ``random`` from that move on."""

    seat: int
    agent: str
    move: int
    kind: str
    message: str
    detail: str = ""

    def public(self) -> Fault:
        """The fault as any seat may read it (no detail)."""
        return Fault(self.seat, self.agent, self.move, self.kind, self.message)

    @property
    def whole(self) -> bool:
        """Whether ``message`` is a whole sentence naming the seat by number, as records
        and results files of 0.2 or before keep it (now: only what happened)."""
        return self.message.startswith("bot ")

    def sentence(self, names: Sequence[str]) -> str:
        """The fault for a person, with the seat's name: "At its move 3, Raiser bot raised
        ZeroDivisionError; its seat plays random moves from here." (An old ``whole``
        message is said as it was.)"""
        if self.whole:
            return self.message[:1].upper() + self.message[1:] + "."
        name = names[self.seat] if 0 <= self.seat < len(names) else "a bot"
        return f"At its move {self.move}, {name} {self.message}; its seat plays random " \
               "moves from here."


@dataclass(frozen=True)
class GameRecord:
    """A complete game: enough to rebuild every state and to show it to a person."""

    game: str
    options: dict[str, Any]
    seats: list[Seat]
    actions: list[RecordedAction]
    returns: list[float] | None = None
    seed: int | str | None = None
    created: str = field(default_factory=lambda: datetime.now(UTC).isoformat(timespec="seconds"))
    outcome: dict[str, Any] | None = None
    # "server" when the outcome was ruled outside the rules (a resignation, a flag that
    # fell, an abort): replay then does not expect the rules to have ended the game.
    decided_by: str | None = None
    hints: list[int] = field(default_factory=list)
    faults: list[Fault] = field(default_factory=list)

    @classmethod
    def from_state(
        cls,
        state: State,
        seats: list[Seat] | None = None,
        seed: int | str | None = None,
        faults: list[Fault] | None = None,
    ) -> GameRecord:
        """The record of the game that led to ``state`` (replayed to get each notation)."""
        game = state.game
        if seats is None:
            seats = [Seat(f"seat {i}", "unknown") for i in range(game.num_players)]
        actions: list[RecordedAction] = []
        replay = game.new_initial_state()
        for action in state.history():
            player = replay.current_player()
            actions.append(RecordedAction(action, replay.action_to_string(action), player))
            replay.apply_action(action)
        returns = state.returns() if state.is_terminal() else None
        outcome = state.outcome()
        return cls(game.name, dict(game.options), list(seats), actions, returns, seed,
                   outcome=None if outcome is None else outcome.as_json(),
                   faults=list(faults or []))

    # -- JSON --------------------------------------------------------------------------

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        if not self.hints:  # only a game where hints were used carries the key
            del data["hints"]
        if not self.faults:  # only a flagged game carries the key
            del data["faults"]
        return {"format": FORMAT, **data}

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=1)

    @classmethod
    def from_dict(cls, data: Any) -> GameRecord:
        if not isinstance(data, dict):
            raise RecordError("a record is a JSON object with game, options, seats and actions")
        if data.get("format") != FORMAT:
            raise RecordError(f"format is {data.get('format')!r}; this version reads {FORMAT!r}")
        try:
            seats = [Seat(str(s["name"]), str(s["agent"])) for s in data["seats"]]
            actions = [
                RecordedAction(int(a["id"]), str(a["text"]), int(a["player"]))
                for a in data["actions"]
            ]
            returns = data.get("returns")
            outcome = data.get("outcome")
            if outcome is not None:  # older records have none
                outcome = {"result": str(outcome["result"]),
                           "winners": [int(w) for w in outcome["winners"]],
                           "ending": str(outcome.get("ending", ""))}
            return cls(
                game=str(data["game"]),
                options=dict(data["options"]),
                seats=seats,
                actions=actions,
                returns=None if returns is None else [float(r) for r in returns],
                seed=data.get("seed"),
                created=str(data.get("created", "")),
                outcome=outcome,
                decided_by=None if data.get("decided_by") is None else str(data["decided_by"]),
                hints=sorted({int(seat) for seat in data.get("hints", [])}),
                faults=[Fault(int(f["seat"]), str(f["agent"]), int(f["move"]), str(f["kind"]),
                              str(f["message"]), str(f.get("detail", "")))
                        for f in data.get("faults", [])],
            )
        except (KeyError, TypeError, ValueError) as problem:
            raise RecordError(f"malformed record: {problem!r} (needs game, options, "
                              "seats[name, agent], actions[id, text, player]; hints, if any, "
                              "a list of seats; faults, if any, [seat, agent, move, kind, "
                              "message])") from None

    @classmethod
    def from_json(cls, text: str) -> GameRecord:
        try:
            data = json.loads(text)
        except json.JSONDecodeError as problem:
            raise RecordError(f"not JSON: {problem}") from None
        return cls.from_dict(data)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(self.to_json() + "\n", encoding="utf-8")

    @classmethod
    def load(cls, path: str | Path) -> GameRecord:
        try:
            text = Path(path).read_text(encoding="utf-8")
        except OSError as problem:
            raise RecordError(f"cannot read {path}: {problem.strerror}") from None
        return cls.from_json(text)

    # -- replay ------------------------------------------------------------------------

    def states(self) -> Iterator[State]:
        """The initial state, then the state after each action; checks every step."""
        try:
            state = load_game(self.game, **self.options).new_initial_state()
        except QuarkadeError as problem:
            raise RecordError(str(problem), step=0) from None
        yield state.clone()
        for step, recorded in enumerate(self.actions, start=1):
            if state.is_terminal():
                raise RecordError("the game was already over", step)
            player = state.current_player()
            if recorded.player != player:
                who = "chance" if player == CHANCE else f"seat {player}"
                raise RecordError(f"recorded for player {recorded.player}, but {who} was to act",
                                  step)
            try:
                text = state.action_to_string(recorded.id)
                state.apply_action(recorded.id)
            except QuarkadeError as problem:
                raise RecordError(f"action {recorded.id} ({recorded.text!r}): {problem}",
                                  step) from None
            if text != recorded.text:
                raise RecordError(f"action {recorded.id} reads {text!r} here, "
                                  f"but the record says {recorded.text!r}", step)
            yield state.clone()
        if self.decided_by is not None:  # ended by a ruling, not by the rules
            return
        if self.returns is not None and state.returns() != self.returns:
            raise RecordError(f"replay ends with returns {state.returns()}, "
                              f"the record says {self.returns}", len(self.actions))
        outcome = state.outcome()
        if self.outcome is not None and (outcome is None or outcome.as_json() != self.outcome):
            raise RecordError(f"replay ends with outcome "
                              f"{None if outcome is None else outcome.as_json()}, "
                              f"the record says {self.outcome}", len(self.actions))

    def replay(self) -> State:
        """The final state, rebuilt by replaying every action."""
        *_, final = self.states()
        return final
