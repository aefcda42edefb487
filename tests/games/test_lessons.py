"""Every game's tutorial: its rulebook map, its lesson -> rule table, and every lesson played.

For each game: every rule id a lesson names is in the game's rulebook map, and every rule of
the map is taught by a lesson; every lesson position is reached by legal play from a new
game (so it is reachable and legal) and replays from its history; at every task the learner
is to move, every goal move is legal and accepted, every other move is refused with a rule
of the map and changes nothing, and the scripted replies after each goal move are legal.
"""

from __future__ import annotations

import pytest

from quarkade import list_games
from quarkade.core.lessons import ANY, LessonError, LessonRun, tutorial
from quarkade.core.protocol import normalize_notation

GAMES = list_games()


@pytest.fixture(params=GAMES)
def course(request):
    return tutorial(request.param)


def test_every_game_has_a_tutorial_ending_in_a_real_game(course):
    keys = [lesson.key for lesson in course.lessons]
    assert len(keys) == len(set(keys)), "lesson keys are unique"
    finals = [lesson for lesson in course.lessons if lesson.final]
    assert finals == [course.lessons[-1]], "one final game, the last lesson"
    assert all(lesson.tasks for lesson in course.lessons if not lesson.final)


def test_every_rule_is_taught_and_every_taught_rule_is_in_the_map(course):
    ids = [rule.id for rule in course.rules]
    assert len(ids) == len(set(ids)), "rule ids are unique"
    taught = {rule_id for lesson in course.lessons for rule_id in lesson.teaches}
    assert taught - set(ids) == set(), "a lesson names a rule the map does not have"
    assert set(ids) - taught == set(), "a rule of the rulebook map is taught by no lesson"
    used = {rule_id for lesson in course.lessons for task in lesson.tasks
            for rule_id in (task.rule, *(trap.rule for trap in task.traps))}
    used |= {rule_id for _, rule_id in course.refusals}
    assert used - set(ids) == set(), "a task, trap or refusal names a rule not in the map"


def test_every_rule_cites_its_rulebook_section(course):
    numbers = {seed[:3] for seed in course.seeds}
    for rule in course.rules:
        assert rule.source[:3] in numbers and len(rule.source) > 4, rule
        assert rule.name and rule.text.endswith("."), rule


def _runs(course):
    """Every (lesson, chosen prefix) at which a task is asked, taking each goal move in turn
    at the last task and the first goal move before it."""
    for lesson in course.lessons:
        if lesson.final:
            continue
        chosen: list[int] = []
        for index, _task in enumerate(lesson.tasks):
            run = LessonRun(course, lesson, chosen)
            assert run.index == index
            first_goal = run.goal_actions()[0]
            yield lesson, list(chosen), run
            chosen.append(first_goal)


def test_every_lesson_position_is_legal_and_every_task_answers_every_move(course):
    for lesson, chosen, run in _runs(course):
        state, seat, task = run.state, run.seat, run.task
        where = f"{course.game} lesson {lesson.key!r} task {run.index + 1}"
        # Reachable and legal: it replays from its history, and the learner is to move.
        replayed = run.game.new_initial_state()
        for action in state.history():
            replayed.apply_action(action)
        assert replayed.view(seat) == state.view(seat), where
        assert state.current_player() == seat, where
        legal = state.legal_actions()
        goals = run.goal_actions()
        assert goals and set(goals) <= set(legal), where
        if task.goal != ANY:
            assert len(goals) == len(task.goal) == len(set(goals)), where
        traps = run.trap_actions()
        assert len(traps) == len(task.traps), f"{where}: two traps name one action"
        assert not set(traps) & set(goals), f"{where}: a trap is a goal move"
        before = (state.history(), state.view(seat))
        for action in run.moves():
            feedback = run.attempt(action)
            assert (state.history(), state.view(seat)) == before or feedback.accepted, where
            if action in goals:
                assert feedback.accepted, where
                run = LessonRun(course, lesson, chosen)
                state = run.state
                continue
            assert not feedback.accepted and feedback.rule is not None, (where, action)
            course.rule(feedback.rule.id)
            if action in traps:
                assert feedback.rule.id == traps[action].rule, where
                assert traps[action].why in feedback.message, where
        # Each goal move is accepted and its scripted replies are legal.
        for goal in goals:
            run = LessonRun(course, lesson, [*chosen, goal])
            assert run.finished or run.state.current_player() == seat, where


def test_text_attempts_are_read_in_the_learners_notation(course):
    for lesson, _chosen, run in _runs(course):
        task = run.task
        where = f"{course.game} lesson {lesson.key!r} task {run.index + 1}"
        if task.goal != ANY:
            text = task.goal[0].upper()
            assert run.check(text).accepted, where
        for trap in task.traps:
            feedback = run.check(f"  {trap.move}  ")
            assert not feedback.accepted and feedback.rule.id == trap.rule, where
            # the trap's own words, without the engine's refusal in notation after them
            assert feedback.message == f"{feedback.rule.name}: {trap.why}", where
        refused = run.check("no such move at all")
        assert not refused.accepted and refused.rule is not None, where
        assert normalize_notation(run.check(12345).message), where
        assert run.check(True).rule is not None, where


def test_a_run_rebuilds_only_from_goal_moves(course):
    lesson = next(lesson for lesson in course.lessons if not lesson.final)
    run = LessonRun(course, lesson)
    wrong = next((a for a in run.moves() if a not in run.goal_actions()), None)
    if wrong is not None:
        with pytest.raises(LessonError, match="not one of the moves"):
            LessonRun(course, lesson, [wrong])
    with pytest.raises(LessonError, match="no lesson"):
        course.lesson("no-such-lesson")
    with pytest.raises(LessonError, match="real game"):
        LessonRun(course, course.lessons[-1])
