"""``quarkade learn``, ``hint`` at the play prompt and ``quarkade review``, driven as a person
would: typed answers, files, and the one-line error rule for bad input."""

from __future__ import annotations

import json
import re

from typer.testing import CliRunner

from quarkade.cli.main import app
from quarkade.core.records import GameRecord
from tests.cli.test_cli import assert_clean_error

runner = CliRunner()


def run(*args, input=None):
    return runner.invoke(app, list(args), input=input)


def test_a_lesson_refuses_a_wrong_move_with_its_rule_then_goes_on(tmp_path):
    progress = tmp_path / "learn.json"
    # Lesson 1: a wrong move (2), a number out of range, then the right move (1); lesson 2: q.
    result = run("learn", "hadronize", "--progress-file", str(progress), input="2\n7\n1\nq\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert "Lesson 1/4: A quark appears" in out
    assert "Not that: Choosing the observer:" in out
    assert "H.observe" not in out  # a rule's id is for developers (issue 25 item 19)
    assert "7 is out of range" in out
    assert "Lesson 1 done." in out and "Lesson 2/4: Hadronize your quarks" in out
    assert "Stopped." in out
    stored = json.loads(progress.read_text())
    assert stored["learners"]["local"]["hadronize"] == ["first-quark"]
    # The next run goes on from lesson 2; the overview shows it.
    overview = run("learn", "--progress-file", str(progress))
    assert "1/4" in overview.output and "Hadronize your quarks" in overview.output
    again = run("learn", "hadronize", "--progress-file", str(progress), input="q\n")
    assert "Lesson 2/4" in again.output and "Lesson 1/4" not in again.output


def test_a_typed_forbidden_move_is_answered_with_the_rule_it_breaks(tmp_path):
    result = run("learn", "card-commons", "--lesson", "open", "--progress-file",
                 str(tmp_path / "p.json"), input="AH b2\n6S c2\n3H c3\n3H b2\n")
    assert result.exit_code == 0, result.output
    out = " ".join(result.output.split())
    assert out.count("Not that: The opening: An Ace may never open the field.") == 1
    assert "A 6 may never open the field." in out
    assert "Your side of the field: b3 and c3 are centre cells on your own side" in out
    assert "Lesson 1 done." in out and "Lesson 2/11" not in out


def test_learn_refuses_unknown_games_and_lessons(tmp_path):
    assert_clean_error(run("learn", "chess"), "no game named 'chess'")
    assert_clean_error(run("learn", "hadronize", "--lesson", "nope", "--progress-file",
                           str(tmp_path / "p.json")), "no lesson 'nope'", "first-quark")
    reset = run("learn", "hadronize", "--reset", "--progress-file", str(tmp_path / "p.json"))
    assert reset.exit_code == 0 and "forgotten" in reset.output


def test_hint_at_the_prompt_shows_each_moves_chance_and_flags_the_record(tmp_path):
    path = tmp_path / "game.json"
    answers = "hint\n" + "1\n" * 60
    result = run("play", "dead-cat", "--seed", "3", "--seat", "0=human", "--seat", "1=random",
                 "--record", str(path), input=answers)
    assert result.exit_code == 0, result.output
    assert "hint: best by this search:" in result.output
    assert "win chance" in result.output
    assert "You asked for hints in this game; its record says so." in result.output
    assert not re.search(r"\brated\b", result.output)  # nothing in the terminal is
    assert GameRecord.load(path).hints == [0]
    plain = tmp_path / "plain.json"
    run("play", "dead-cat", "--seed", "3", "--seat", "0=human", "--seat", "1=random",
        "--record", str(plain), input="1\n" * 60)
    assert "hints" not in json.loads(plain.read_text())


def test_review_prints_marks_and_a_graph_and_saves_json(tmp_path):
    record = tmp_path / "game.json"
    run("play", "card-commons", "--seat", "0=greedy", "--seat", "1=random", "--seed", "4",
        "--record", str(record))
    saved = tmp_path / "review.json"
    result = run("review", str(record), "--seconds", "2", "--json", str(saved))
    assert result.exit_code == 0, result.output
    assert "win chance after each move" in result.output
    assert "decisions judged" in result.output
    data = json.loads(saved.read_text())
    assert data["format"] == "quarkade-review/1" and data["seats"] == [0, 1]
    assert data["graph"]["0"] and data["graph"]["1"]


def test_review_refuses_unfinished_seat_and_bad_records(tmp_path):
    record = tmp_path / "game.json"
    run("play", "dead-cat", "--seed", "3", "--seat", "0=human", "--seat", "1=random",
        "--record", str(record), input="1\nq\n")
    assert_clean_error(run("review", str(record)), "not finished")
    full = tmp_path / "full.json"
    run("play", "dead-cat", "--seed", "3", "--seat", "0=random", "--seat", "1=random",
        "--record", str(full))
    assert_clean_error(run("review", str(full), "--seat", "5"), "--seat 5", "seats are 0-1")
    assert_clean_error(run("review", str(full), "--seconds", "0"), "needs some time")
    redacted = json.loads(full.read_text())
    redacted["actions"][2]["id"] = -1
    seat_record = tmp_path / "seat.json"
    seat_record.write_text(json.dumps(redacted))
    assert_clean_error(run("review", str(seat_record)), "saved for one seat")
    assert_clean_error(run("review", str(tmp_path / "missing.json")), "cannot read")
