"""Post-game review: every decision of the reviewed seats, judged by search.

For each decision of a reviewed seat, the review replays the game to it, hands the search the
``Turn`` that seat was handed (its view and seat model, nothing else) and estimates every
legal move's win chance (``quarkade.agents.estimate``). Then:

- *before* is the win chance of the best move (what the position offered), *after* that of
  the move played, and *loss* the difference;
- the mark follows the loss (``MARKS``): 0.10 or more is an inaccuracy, 0.20 a mistake,
  0.30 a blunder. These are twice lichess's steps (on the same 0-1 scale), because these
  estimates come from a short search and are noisier than a chess engine's; a loss below
  0.10 is within that noise.
- a decision with one legal move is *forced*: nothing to judge, no estimate;
- where the game solves the position (its ``exact`` part), the chances are exact (1 or 0)
  and the decision says so (``exact``).

Who may be reviewed (``seats_for``): in a game where every seat sees everything, every seat,
by anyone; where something is hidden, only the viewer's own seat (a face holding a full
record may review each seat, each from its own information). So a review never holds
anything its viewer may not know: the moves are in the viewer's notation, the options are
``options_for(viewer)``, and the estimates come from the deciding seat's information set
(``tests/learn/test_review_leaks.py`` proves it over twin games).

Time: ``Budget`` spreads a total over the decisions (within a per-decision floor and cap,
and an iteration cap), so a typical game's review takes well under a minute
(docs/PERFORMANCE.md). Time is read from an injected clock.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from quarkade.agents.estimate import estimate_moves
from quarkade.core.agent import turn_for
from quarkade.core.errors import QuarkadeError
from quarkade.core.protocol import JSON, SPECTATOR, Game

FORMAT = "quarkade-review/1"

# (mark, smallest win-chance loss that earns it), worst first.
MARKS = (("blunder", 0.30), ("mistake", 0.20), ("inaccuracy", 0.10))


class ReviewError(QuarkadeError):
    """A review that cannot be made: an unfinished game, or seats the viewer may not see."""


@dataclass(frozen=True)
class Budget:
    """Search time for a review: ``total`` seconds spread over the decisions to judge, each
    getting between ``least`` and ``most`` seconds and at most ``iterations`` iterations
    (0: no iteration cap). With ``total`` 0 only the iteration cap counts (repeatable)."""

    total: float = 40.0
    least: float = 0.2
    most: float = 2.0
    iterations: int = 4000

    def per_decision(self, decisions: int) -> tuple[int, float]:
        """``(iterations, seconds)`` for each of ``decisions`` decisions."""
        if not self.total:
            return self.iterations, 0.0
        share = self.total / max(1, decisions)
        return self.iterations, min(self.most, max(self.least, share))


@dataclass(frozen=True)
class Decision:
    """One decision of a reviewed seat (chances are 0-1 win chances for that seat)."""

    step: int  # the action's index in the game (0 for the first action, chance included)
    seat: int
    move: str
    forced: bool
    before: float | None = None
    after: float | None = None
    best: str | None = None
    loss: float = 0.0
    mark: str | None = None
    iterations: int = 0
    options: int = 1
    exact: bool = False  # the chances are the game's solved values (1 or 0)


@dataclass(frozen=True)
class Review:
    """A finished game's review, as its viewer may read it (see the module docstring)."""

    game: str
    options: dict[str, Any]
    names: list[str]
    viewer: int
    seats: list[int]
    decisions: list[Decision]
    outcome: dict[str, Any] | None
    budget: dict[str, Any] = field(default_factory=dict)

    def as_json(self) -> JSON:
        return {
            "format": FORMAT,
            "game": self.game,
            "options": self.options,
            "names": self.names,
            "viewer": None if self.viewer == SPECTATOR else self.viewer,
            "seats": self.seats,
            "decisions": [asdict(d) for d in self.decisions],
            "graph": self.graph(),
            "summary": self.summary(),
            "marks": {name: least for name, least in MARKS},
            "outcome": self.outcome,
            "budget": self.budget,
        }

    def graph(self) -> dict[str, list[list[float]]]:
        """Per reviewed seat, ``[step, win chance after the move]`` at each judged decision."""
        return {str(seat): [[d.step, round(d.after, 4)] for d in self.decisions
                            if d.seat == seat and d.after is not None]
                for seat in self.seats}

    def summary(self) -> dict[str, dict[str, Any]]:
        """Per reviewed seat: judged decisions, marks counted, the mean loss."""
        out: dict[str, dict[str, Any]] = {}
        for seat in self.seats:
            judged = [d for d in self.decisions if d.seat == seat and not d.forced]
            counts = {name: sum(d.mark == name for d in judged) for name, _ in MARKS}
            mean = sum(d.loss for d in judged) / len(judged) if judged else 0.0
            out[str(seat)] = {"decisions": len(judged), **counts, "mean_loss": round(mean, 4)}
        return out


def seats_for(game: Game, viewer: int) -> list[int]:
    """The seats whose decisions ``viewer`` (a seat, or ``SPECTATOR``) may review."""
    everyone = list(range(game.num_players))
    if game.perfect_information:
        return everyone
    if viewer in everyone:
        return [viewer]
    raise ReviewError(f"{game.name} hides cards from every seat, so only a seat's own "
                      "decisions can be reviewed, by that seat; a spectator sees none")


def check_seats(game: Game, viewer: int, wanted: Sequence[int]) -> list[int]:
    """``wanted`` if ``viewer`` may review them all, else a ``ReviewError`` naming the
    seats it may review."""
    allowed = seats_for(game, viewer)
    refused = [seat for seat in wanted if seat not in allowed]
    if refused or not wanted:
        shown = ", ".join(map(str, allowed))
        raise ReviewError(f"seat(s) {', '.join(map(str, refused)) or 'none'} cannot be "
                          f"reviewed from this viewpoint; you may review seat(s) {shown}")
    return sorted(set(wanted))


def review_game(game: Game, history: Sequence[int], seats: Sequence[int],
                viewer: int = SPECTATOR, names: Sequence[str] | None = None,
                budget: Budget | None = None, seed: int | str = 0,
                progress: Callable[[int, int], None] | None = None,
                clock: Callable[[], float] = time.perf_counter,
                ended: dict[str, Any] | None = None) -> Review:
    """Review the finished game ``history`` of ``game`` for ``seats`` (checked by the face
    with ``check_seats``); each move reads as its own seat wrote it, and the options as
    ``viewer`` may know them. ``progress(done, total)`` is called as decisions are judged.
    The same seed and an iteration-only budget give the same review. ``ended`` is the
    outcome of a game the server decided before its rules ended it (a resignation, a
    flag, an abort: the record's ``decided_by``); the moves played are judged the same."""
    budget = budget or Budget()
    names = list(names) if names is not None else [f"seat {s}" for s in
                                                   range(game.num_players)]
    state = game.new_initial_state()
    turns = []
    for step, action in enumerate(history):
        mover = state.current_player()
        if mover in seats:
            legal = state.legal_actions()
            turns.append((step, mover, action, state.action_string_for(mover, action),
                          turn_for(state) if len(legal) > 1 else None, len(legal)))
        state.apply_action(action)
    if not state.is_terminal() and ended is None:
        raise ReviewError("this game is not finished: a review needs a finished game")
    judged = sum(turn is not None for *_, turn, _ in turns)
    iterations, seconds = budget.per_decision(judged)
    decisions: list[Decision] = []
    done = 0
    for step, seat, action, text, turn, options in turns:
        if turn is None:
            decisions.append(Decision(step, seat, text, forced=True))
            continue
        found = estimate_moves(turn, random.Random(f"{seed}:{step}"), iterations=iterations,
                               seconds=seconds, clock=clock)
        best = found.best
        played = found.of(action)
        loss = max(0.0, best.chance - played.chance)
        mark = next((name for name, least in MARKS if loss >= least), None)
        decisions.append(Decision(
            step, seat, text, forced=False, before=round(best.chance, 4),
            after=round(played.chance, 4), best=turn.action_text(best.action),
            loss=round(loss, 4), mark=mark, iterations=found.iterations, options=options,
            exact=found.exact))
        done += 1
        if progress is not None:
            progress(done, judged)
    outcome = state.outcome() if ended is None else None
    return Review(game.name, game.options_for(viewer), names, viewer, sorted(seats),
                  decisions, ended if outcome is None else outcome.as_json(),
                  {"total": budget.total, "seconds_per_decision": seconds,
                   "iterations_per_decision": iterations})
