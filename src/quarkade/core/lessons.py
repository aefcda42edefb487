"""Tutorials: a game's rules as a map of short rule ids, and lessons that teach them.

A game's package may hold ``lessons.py`` with ``TUTORIAL``, a ``Tutorial``: its rulebook
map (``Rule``: an id such as ``C.law``, a name, our own sentence, and the seed section it
comes from) and its lessons in order. Each ``Lesson`` names the rules it teaches (the
lesson -> rule table), starts from a position reached by playing ``setup`` (notation,
chance included) on a new game, so it is always legal, and asks one ``Task`` after
another: a sentence, the moves that complete it (``goal``, in the learner's notation),
and what to say to any other move. The last lesson is a real game (``final``).

``LessonRun`` plays a lesson through the protocol: a goal move is applied, followed by
the task's scripted replies (``then``: chance and the other seats, full notation); any
other move is refused, with the rule it breaks, and changes nothing. Nothing here reads a
state's insides, so every face (terminal, web) and every game share it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from quarkade.core.errors import IllegalActionError, QuarkadeError
from quarkade.core.protocol import JSON, State, normalize_notation
from quarkade.core.registry import game_parts, load_game

# A task whose goal is ``ANY`` is completed by any legal move (its traps are the lesson).
ANY: tuple[str, ...] = ("*",)


class LessonError(QuarkadeError):
    """An unknown tutorial or lesson, or moves that do not follow a lesson's tasks."""


@dataclass(frozen=True)
class Rule:
    """One rule of a rulebook, in our own words, and where the rulebook states it."""

    id: str
    name: str
    text: str
    source: str  # the seed file and section, e.g. "002 Play 2"


@dataclass(frozen=True)
class Trap:
    """A tempting wrong move (legal or not, in the learner's notation) and why it fails."""

    move: str
    rule: str
    why: str


@dataclass(frozen=True)
class Task:
    """One thing to do in a lesson.

    ``goal`` lists the moves that complete it (each legal there). A legal move outside the
    goal is refused with ``rule`` and ``why`` unless a ``Trap`` names it; a move the rules
    forbid is refused with the engine's reason and the rule that reason falls under.
    ``then`` is played after a goal move (full notation: chance and the other seats), and
    ``done`` is said once it is.
    """

    say: str
    goal: tuple[str, ...]
    rule: str
    why: str
    traps: tuple[Trap, ...] = ()
    then: tuple[str, ...] = ()
    done: str = ""


@dataclass(frozen=True)
class Lesson:
    """A prepared position and its tasks; or, with ``final``, a real game against ``easy``."""

    key: str
    title: str
    teaches: tuple[str, ...]
    intro: str
    setup: tuple[str, ...] = ()
    tasks: tuple[Task, ...] = ()
    options: dict[str, Any] = field(default_factory=dict)
    seat: int = 0
    final: bool = False


@dataclass(frozen=True)
class Tutorial:
    """A game's rulebook map and its lessons, in the order they are taken.

    ``refusals`` maps a piece of the engine's refusal text to the rule it quotes, so that
    a forbidden move typed in any lesson is answered with its rule."""

    game: str
    seeds: tuple[str, ...]
    rules: tuple[Rule, ...]
    lessons: tuple[Lesson, ...]
    refusals: tuple[tuple[str, str], ...] = ()

    def rule(self, rule_id: str) -> Rule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise LessonError(f"{self.game} has no rule {rule_id!r}")

    def lesson(self, key: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.key == key:
                return lesson
        keys = ", ".join(lesson.key for lesson in self.lessons)
        raise LessonError(f"{self.game} has no lesson {key!r}; its lessons are {keys}")

    def rule_for_refusal(self, reason: str, fallback: str) -> str:
        """The rule an engine refusal falls under (``fallback`` when none matches)."""
        lowered = reason.lower()
        for fragment, rule_id in self.refusals:
            if fragment.lower() in lowered:
                return rule_id
        return fallback


def tutorial(game: str) -> Tutorial:
    """The tutorial of ``game`` (its ``lessons`` part's ``TUTORIAL``)."""
    parts = game_parts(game)
    if parts.lessons is None:
        raise LessonError(f"{game} has no tutorial yet")
    found: Tutorial = parts.load("lessons").TUTORIAL
    return found


@dataclass(frozen=True)
class LessonEvent:
    """One action as the learner saw it: who acted, its notation for the learner, and the
    learner's view right after it (what a log line is written from)."""

    player: int
    text: str
    view: JSON


@dataclass(frozen=True)
class Feedback:
    """What the learner is told after an attempt."""

    accepted: bool
    message: str
    rule: Rule | None = None
    finished: bool = False

    def as_json(self) -> JSON:
        rule = None if self.rule is None else {"id": self.rule.id, "name": self.rule.name,
                                               "text": self.rule.text}
        return {"accepted": self.accepted, "message": self.message, "rule": rule,
                "finished": self.finished}


class LessonRun:
    """A scripted lesson in progress: its position, the task at hand, the moves so far.

    ``chosen`` are goal moves already made (action ids, one per task done), so a face that
    keeps no state (a web page) rebuilds the run from them; any that is not a goal move of
    its task raises ``LessonError``.
    """

    def __init__(self, course: Tutorial, lesson: Lesson, chosen: Sequence[int] = ()) -> None:
        if lesson.final:
            raise LessonError(f"{lesson.key!r} is a real game, not a scripted lesson")
        self.course = course
        self.lesson = lesson
        self.seat = lesson.seat
        self.game = load_game(course.game, **lesson.options)
        self.state: State = self.game.new_initial_state()
        self.chosen: list[int] = []
        self.index = 0
        self._traps: tuple[int, dict[int, Trap]] = (-1, {})
        # What happened at the last goal move (the move and the scripted replies), as the
        # learner sees it; empty before the first task.
        self.events: list[LessonEvent] = []
        for text in lesson.setup:
            self.state.apply_action(self.state.string_to_action(text))
        for action in chosen:
            if self.finished or self.check(action).accepted is False:
                raise LessonError(f"move {action!r} is not one of the moves this lesson "
                                  f"asked for at task {self.index + 1}")
            self.attempt(action)

    # -- where the lesson is -------------------------------------------------------------

    @property
    def finished(self) -> bool:
        return self.index >= len(self.lesson.tasks)

    @property
    def task(self) -> Task | None:
        return None if self.finished else self.lesson.tasks[self.index]

    def goal_actions(self) -> list[int]:
        """The action ids that complete the task at hand (none once finished)."""
        task = self.task
        if task is None:
            return []
        if task.goal == ANY:
            traps = self.trap_actions()
            return [a for a in self.state.legal_actions() if a not in traps]
        return [self.state.string_to_action_for(self.seat, text) for text in task.goal]

    def trap_actions(self) -> dict[int, Trap]:
        """The task's traps by action id (a forbidden trap is found by its notation)."""
        task = self.task
        if task is None:
            return {}
        if self._traps[0] != self.index:  # found once per task: a forbidden one is a search
            self._traps = (self.index, {self._action_named(trap.move): trap
                                        for trap in task.traps})
        return dict(self._traps[1])

    def moves(self) -> list[int]:
        """What the learner may try: every legal move, and the task's traps."""
        if self.finished:
            return []
        return sorted({*self.state.legal_actions(), *self.trap_actions()})

    # -- trying a move -------------------------------------------------------------------

    def check(self, move: int | str) -> Feedback:
        """What ``move`` (an action id, or text in the learner's notation) would be told,
        without playing it."""
        task = self.task
        if task is None:
            return Feedback(False, "This lesson is complete.", finished=True)
        action, refusal = self._read(move)
        trap = self._trap_for(move, action)
        reason = refusal or (None if action is None else self._refusal(action))
        if trap is not None:  # its own words say why: the engine's refusal would repeat
            return self._refuse(trap.rule, trap.why, None)  # it in notation ("4D on c3")
        if action is not None and action in self.goal_actions():
            return Feedback(True, task.done or "Well done.")
        if reason is not None:
            rule_id = self.course.rule_for_refusal(reason, task.rule)
            return self._refuse(rule_id, self.course.rule(rule_id).text, reason)
        return self._refuse(task.rule, task.why, None)

    def attempt(self, move: int | str) -> Feedback:
        """Play ``move`` if it completes the task (then the scripted replies); otherwise say
        which rule it breaks and change nothing."""
        feedback = self.check(move)
        if not feedback.accepted:
            return feedback
        task = self.task
        assert task is not None
        action, _ = self._read(move)
        assert action is not None
        self.events = []
        self._apply(action)
        self.chosen.append(action)
        for text in task.then:
            self._script(text)
        self.index += 1
        return Feedback(True, feedback.message, finished=self.finished)

    # -- what a face shows ---------------------------------------------------------------

    def payload(self) -> JSON:
        """The lesson as the learner's seat may see it: view, task, moves (goal ones
        marked), in plain JSON."""
        task = self.task
        goals = set(self.goal_actions())
        teaches = [self.course.rule(rule_id) for rule_id in self.lesson.teaches]
        return {
            "lesson": self.lesson.key,
            "title": self.lesson.title,
            "intro": self.lesson.intro,
            "teaches": [{"id": r.id, "name": r.name, "text": r.text} for r in teaches],
            "task": None if task is None else task.say,
            "task_number": self.index + 1,
            "tasks": len(self.lesson.tasks),
            "finished": self.finished,
            "seat": self.seat,
            "view": self.state.view(self.seat),
            "moves": [{"id": a, "text": self.state.action_string_for(self.seat, a),
                       "goal": a in goals} for a in self.moves()],
            "chosen": list(self.chosen),
        }

    # -- inside ---------------------------------------------------------------------------

    def _script(self, text: str) -> None:
        """Play one scripted action (full notation); a script that does not fit the game is
        the lesson's own bug, so it raises."""
        self._apply(self.state.string_to_action(text))

    def _apply(self, action: int) -> None:
        """Apply ``action`` and note it as the learner sees it (``events``)."""
        state = self.state
        player = state.current_player()
        text = state.action_string_for(self.seat, action)
        state.apply_action(action)
        self.events.append(LessonEvent(player, text, state.view(self.seat)))

    def _read(self, move: int | str) -> tuple[int | None, str | None]:
        """``(action id, None)``, or ``(None, the refusal)`` for text naming no legal move."""
        if isinstance(move, str):
            try:
                return self.state.string_to_action_for(self.seat, move), None
            except QuarkadeError as refusal:
                return None, str(refusal)
        if isinstance(move, bool) or not isinstance(move, int):
            return None, f"a move is an action id or its notation, not {move!r}"
        return move, None

    def _refusal(self, action: int) -> str | None:
        """Why the engine refuses ``action`` here, or None if it is legal."""
        if action in self.state.legal_actions():
            return None
        try:
            self.state.clone().apply_action(action)
        except QuarkadeError as refusal:
            return str(refusal)
        return "that move is not legal here"  # pragma: no cover (an engine accepting it)

    def _trap_for(self, move: int | str, action: int | None) -> Trap | None:
        task = self.task
        assert task is not None
        if isinstance(move, str):
            wanted = normalize_notation(move)
            for trap in task.traps:
                if normalize_notation(trap.move) == wanted:
                    return trap
        if action is not None:
            return self.trap_actions().get(action)
        return None

    def _refuse(self, rule_id: str, why: str, reason: str | None) -> Feedback:
        rule = self.course.rule(rule_id)
        told = why if reason is None else f"{why} ({_short(reason)})"
        return Feedback(False, f"{rule.name}: {told}", rule)

    def _action_named(self, text: str) -> int:
        """The action id whose notation, for the learner, is ``text`` (legal or not)."""
        try:
            return self.state.string_to_action_for(self.seat, text)
        except IllegalActionError:
            pass
        wanted = normalize_notation(text)
        state = self.state
        for action in range(self.game.num_distinct_actions):
            if normalize_notation(state.action_string_for(self.seat, action)) == wanted:
                return action
        raise LessonError(f"lesson {self.lesson.key!r}: no action reads {text!r}")


def _short(reason: str) -> str:
    """An engine refusal without its list of legal moves (the page shows them) or action
    ids (a learner reads moves)."""
    for cut in ("; legal now:", "; legal:"):
        reason = reason.split(cut)[0]
    return re.sub(r" ?\(action \d+\)|action \d+ \(([^)]*)\)", r"\1", reason).strip()
