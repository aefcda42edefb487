"""Golden renders of the Dead Cat terminal table, its log lines and move labels."""

from pathlib import Path

from quarkade import SPECTATOR
from quarkade.core import words
from quarkade.games.dead_cat import text
from tests.games.dead_cat.helpers import announce, award, peek, play, table, with_cubes
from tests.golden import assert_golden, render_text

GOLDEN = Path(__file__).with_name("golden")
NAMES = ["Ann", "Ben", "Cat"]


def _midgame():
    state = table(3, first=0)
    award(state, 1)  # Ben takes round 1; Cat starts round 2
    peek(state, "alive", 4)  # Cat
    peek(state, "dead", 3)  # Ann
    peek(state, "alive", 5)  # Ben
    return state


def test_midgame_table_as_ann_sees_it():
    state = _midgame()
    assert_golden(render_text(text.render(state.view(0), NAMES, you=0)),
                  GOLDEN / "midgame_3p_ann.txt")


def test_midgame_table_as_a_spectator_sees_it():
    state = _midgame()
    rendered = render_text(text.render(state.view(SPECTATOR), NAMES))
    assert "dead" not in rendered.split("Round 1")[0]  # no card shows before the last round
    assert_golden(rendered, GOLDEN / "midgame_3p_spectator.txt")


def test_finished_table():
    state = with_cubes([3, 2], first=0)  # five rounds played: Ben starts the sixth
    peek(state, "dead", 5)  # Ben
    peek(state, "alive", 2)  # Ann
    announce(state)  # Ben: the dead cat is second, Ann's 2 takes her fourth cube
    assert state.is_terminal()
    assert_golden(render_text(text.render(state.view(1), NAMES[:2], you=1)),
                  GOLDEN / "over_2p.txt")


def test_log_lines_tell_a_round():
    state = table(2, first=1)
    assert text.log_line(state.view(0), -1, "first 1", NAMES) == \
        "The die roll gives the first turn to Ben."
    play(state, "peek", "draw dead")
    assert text.log_line(state.view(1), -1, "draw dead", NAMES) == "Ben peeks: a dead cat."
    assert text.log_line(state.view(0), -1, "draw", NAMES) == \
        "Ben peeks at the top card of the box."
    play(state, "bet 2")
    assert text.log_line(state.view(0), 1, "bet 2", NAMES) == "Ben turns the die to 2."
    assert text.log_line(state.view(0), 1, "peek", NAMES) is None
    announce(state)
    assert text.log_line(state.view(0), 0, "announce", NAMES) == (
        "Ann calls Dead Cat. Round 1: Ann called Dead Cat; revealed dead: the cat died 1 "
        "card ago. Dice 1 2: Ann takes a cube. Round 2 begins with Ann.")


def test_lines_about_you_say_you_take_not_you_takes():
    # The terminal calls the person's seat "you": a round they win reads "you take a
    # cube", and a line that starts with them starts with a capital (core.words.log_line).
    you = ["you", "Ben"]
    state = table(2, first=1)
    play(state, "peek", "draw dead")
    play(state, "bet 2")
    announce(state)  # Ann (you) calls: the dead cat is the first card, Ann's 1 wins
    assert text.describe_round(state.view(0)["last_round"], you).endswith(
        "Dice 1 2: you take a cube.")
    assert text.log_line(state.view(0), 0, "announce", you) == (
        "you call Dead Cat. Round 1: you called Dead Cat; revealed dead: the cat died 1 "
        "card ago. Dice 1 2: you take a cube. Round 2 begins with you.")
    assert words.log_line("dead-cat", state.view(0), 0, "announce", you).startswith(
        "You call Dead Cat. Round 1: you called Dead Cat;")
    table_text = " ".join(render_text(text.render(state.view(0), you, you=0)).split())
    assert "Dice 1 2: you take a cube." in table_text
    assert text.describe_round(state.view(1)["last_round"], ["Ann", "you"]).endswith(
        "Dice 1 2: Ann takes a cube.")


def test_log_line_when_the_box_runs_out():
    state = table(2)
    for bet in [2, 2, 3, 3, 4, 4, 5, 5]:
        peek(state, "alive", bet)
    assert text.log_line(state.view(0), 1, "bet 5", NAMES) == (
        "Ben turns the die to 5. The box is empty. Round 1: the box ran out; revealed "
        + ", ".join(["alive"] * 8) + ": no dead cat, so the highest die wins. Dice 5 5: "
        "Ann and Ben take a cube each. Round 2 begins with Ben.")


def test_an_empty_time_deck_in_words():
    state = announce(table(2))
    assert "the time deck was empty, so the highest die wins" in \
        text.describe_round(state.view(0)["last_round"], NAMES)


def test_move_labels():
    state = play(table(2), "peek", "draw alive")
    view = state.view(0)
    assert text.action_label(view, "bet 4", NAMES) == "bet 4"
    assert text.log_line(view, 0, "bet 4", ["you", "Ben"]) == "you turn the die to 4."
    assert text.log_line(view, -1, "draw alive", ["you", "Ben"]) == "you peek: an alive cat."
    assert text.action_label(view, "announce", NAMES).startswith("announce  call Dead Cat")
    assert text.action_label(view, "peek", NAMES).startswith("peek      look at the top card")


def test_move_words_for_the_web_lists():
    state = play(table(2), "peek", "draw alive")
    view = state.view(0)
    bets = [words.move_words("dead-cat", view, state.action_to_string(a), NAMES)
            for a in state.legal_actions()]
    assert bets and all(w.startswith("Turn your die to ") for w in bets)
    assert "Turn your die to 4" in bets
    start = table(2)
    assert [words.move_words("dead-cat", start.view(start.current_player()),
                             start.action_to_string(a), NAMES)
            for a in start.legal_actions()] == [
        "Call Dead Cat: turn the time deck over from the top",
        "Peek at the top card of the box, then turn your die"]
