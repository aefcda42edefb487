"""Golden renders of the Hadronize terminal table, and its log lines."""

from pathlib import Path

from quarkade.games.hadronize import text
from tests.games.hadronize.helpers import dealt, turn
from tests.golden import assert_golden, render_text

GOLDEN = Path(__file__).with_name("golden")
NAMES = ["Alice", "Bob", "Carol"]


def _midgame():
    state = dealt([["charm", "charm", "charm", "bottom"], ["strange"] * 3 + ["top"],
                   ["up", "down", "up", "down"]])
    turn(state, "c/s/u", 1, "strange")  # Alice pulls Bob's strange quarks over
    turn(state, "u/d/t", 1, "top")  # Bob hadronizes his two top quarks
    state.apply_action(state.string_to_action("superpose u/d/b"))
    return state


def test_midgame_table_as_carol_sees_it():
    state = _midgame()
    assert_golden(render_text(text.render(state.view(2), NAMES, you=2)),
                  GOLDEN / "midgame_3p.txt")


def test_finished_table():
    state = dealt([["up"] * 4, ["down"] * 4], goal=5)
    turn(state, "u/d/s", 0, "up")
    assert_golden(render_text(text.render(state.view(1), NAMES[:2])), GOLDEN / "over_2p.txt")


def test_log_lines_say_what_reacted():
    state = dealt([["charm"] * 3 + ["bottom"], ["strange"] * 3 + ["top"]])
    turn(state, "c/s/u", 1, "strange")
    view = state.view(0)
    assert text.log_line(view, -1, "collapse strange", NAMES) == \
        "Alice made Bob observe it: strange; 4 strange quarks tunnel from Bob to Alice."
    turn(state, "u/d/t", 1, "top")
    assert text.log_line(state.view(0), -1, "collapse top", NAMES) == \
        "Bob observed it: top; 2 top quarks hadronize."
    assert text.log_line(view, 0, "observe 1", NAMES) is None


def test_action_labels_say_what_each_collapse_would_do():
    state = dealt([["charm"] * 3 + ["bottom"], ["strange"] * 3 + ["top"]])
    state.apply_action(state.string_to_action("superpose c/s/u"))
    view = state.view(0)
    assert text.action_label(view, "observe 0", NAMES) == \
        "observe 0  Alice - up: no reaction, strange: no reaction, charm: 4 hadronize"
    assert text.action_label(view, "observe 1", NAMES) == \
        "observe 1  Bob - up: no reaction, strange: 4 tunnel over, charm: no reaction"
