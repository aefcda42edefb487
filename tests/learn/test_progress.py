"""Tutorial progress: kept per learner and game in a small file, refused clearly when bad."""

from __future__ import annotations

import pytest

from quarkade.core.errors import QuarkadeError
from quarkade.core.lessons import tutorial
from quarkade.learn.progress import FileProgress, data_dir, next_lesson


def test_progress_is_kept_per_learner_and_game(tmp_path):
    store = FileProgress(tmp_path / "deep" / "learn.json")
    assert store.completed("local", "hadronize") == set()
    store.complete("local", "hadronize", "first-quark")
    store.complete("local", "hadronize", "first-quark")
    store.complete("device-2", "dead-cat", "peek")
    again = FileProgress(tmp_path / "deep" / "learn.json")
    assert again.completed("local", "hadronize") == {"first-quark"}
    assert again.completed("local", "dead-cat") == set()
    assert again.completed("device-2", "dead-cat") == {"peek"}
    again.reset("local", "hadronize")
    assert FileProgress(tmp_path / "deep" / "learn.json").completed("local", "hadronize") == set()


def test_the_next_lesson_is_the_first_unfinished_one():
    course = tutorial("hadronize")
    assert next_lesson(course, set()).key == "first-quark"
    assert next_lesson(course, {"first-quark", "tunnel"}).key == "hadronize"
    assert next_lesson(course, {lesson.key for lesson in course.lessons}) is None


def test_a_file_that_is_not_a_progress_file_is_refused_not_overwritten(tmp_path):
    path = tmp_path / "learn.json"
    path.write_text("[1, 2, 3]")
    with pytest.raises(QuarkadeError, match="not a Quarkade progress file"):
        FileProgress(path).complete("local", "hadronize", "first-quark")
    assert path.read_text() == "[1, 2, 3]"


def test_the_data_directory_follows_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("QUARKADE_DATA", str(tmp_path / "q"))
    assert data_dir() == tmp_path / "q"
    monkeypatch.delenv("QUARKADE_DATA")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert data_dir() == tmp_path / "xdg" / "quarkade"
