"""Golden renders of the Card Commons terminal table, its log lines, menu and commands."""

from pathlib import Path

from quarkade.games.card_commons import text
from tests.games.card_commons.helpers import arrange, example_position, play, texts
from tests.golden import assert_golden, render_text

GOLDEN = Path(__file__).with_name("golden")
NAMES = ["you", "Bob"]


def test_example_position_as_seat_0_sees_it():
    state = example_position()
    assert_golden(render_text(text.render(state.view(0), NAMES, you=0)),
                  GOLDEN / "examples.txt")


def test_torus_repel_decision_with_a_stack_and_discards():
    state = arrange({"b2": "4D/4S", "c1": "2D-", "a4": "6C"}, hands={0: "3H 5S AS",
                                                                     1: "AD 2C"},
                    torus=True)
    state.apply_action(state.string_to_action("3H b1"))
    assert_golden(render_text(text.render(state.view(1), NAMES)), GOLDEN / "repel_torus.txt")


def test_finished_tutorial_names_the_stuck_seat():
    state = arrange({"b2": "4C"}, hands={0: "3S 2H", 1: "6D"}, variant="tutorial")
    state.apply_action(state.string_to_action("3S a2"))
    rendered = render_text(text.render(state.view(-2), NAMES))
    assert_golden(rendered, GOLDEN / "tutorial_over.txt")
    assert "Game over: you win as Bob cannot place a card." in rendered


def test_only_classic_tells_a_seat_to_keep_its_side_open():
    layout, hands = {"b2": "4C"}, {0: "3S 2H", 1: "6D"}
    for variant, shown in (("classic", True), ("tutorial", False)):
        state = arrange(layout, hands=hands, variant=variant)
        rendered = render_text(text.render(state.view(0), NAMES, you=0))
        assert ("(keep it open)" in rendered) is shown, variant


def test_result_line_names_the_deciding_scoring_step():
    def over(layout, opener=0):
        state = arrange(layout, opener=opener)
        for _ in range(2):
            state.apply_action(state.string_to_action("pass"))
        return text.result_line(state.view(0), NAMES)
    assert over({"b2": "4D", "b1": "3C"}) == "Game over: you win with 8 open cells to 6."
    assert over({"b2": "4D/4S", "b3": "3C"}) == \
        "Game over: you win with open cells tied at 7 and particles 1 to 2."
    assert over({"b2": "4D", "b3": "3C"}, opener=1) == \
        "Game over: Bob wins as the opener, with open cells and particles tied."


def test_log_lines_say_what_happened():
    state = play("opener 1")
    assert text.log_line(state.view(0), -1, "opener 1", NAMES) == "Coin: Bob opens."
    lines = []
    for move in ("3D c2", "pass", "5C b2", "polarize c2", "2H d3", "4D c3", "inv 4S c3 /AH",
                 "3C b3", "repel c3>d3", "pass", "pass"):
        if move == "repel c3>d3":
            assert texts(state) == ["repel b2>b1", "no repel"]  # d3 is taken
            move = "no repel"
        state.apply_action(state.string_to_action(move))
        lines.append(text.log_line(state.view(0), 0, move, NAMES))
    assert lines == [
        "Bob opened with the 3♦ on c2.",
        "you passed.",
        "Bob channelled the 5♣ to b2.",
        "Bob turned the 3♦ on c2 face down.",
        "you tunnelled the 2♥ to d3.",
        "Bob channelled the 4♦ to c3.",
        "you inverted the 4♦ on c3 with the 4♠, discarding the A♥.",
        "Bob channelled the 3♣ to b3.",
        "Bob did not repel with the 3♣.",
        "you passed.",
        "Bob passed. Two passes in a row: game over.",
    ]


def test_anchor_shows_in_the_log():
    state = arrange({"a2": "5D"})
    state.apply_action(state.string_to_action("4S a1"))
    assert text.log_line(state.view(0), 0, "4S a1", NAMES) == \
        "you channelled the 4♠ to a1 (Anchor: ignoring a2)."


def test_action_labels_name_the_side():
    view = example_position().view(0)
    assert text.action_label(view, "3H c1", NAMES) == "3H c1            on Bob's side"
    assert text.action_label(view, "inv 4S c3 /AH", NAMES) == "inv 4S c3 /AH    on your side"
    assert text.action_label(view, "pass", NAMES) == "pass"


def test_move_words_read_without_the_notation():
    view = example_position().view(0)
    assert text.move_words(view, "3H c1", ["Ann", "Bob"]) == "3♥ on c1 (Bob's side)"
    assert text.move_words(view, "inv 4S c3 /AH", ["Ann", "Bob"]) == \
        "Invert the 4♦ on c3 with the 4♠, throwing away the A♥ (your side)"
    assert text.move_words(view, "pass", NAMES) == "Pass"
    spectator = example_position().view(-2)
    assert text.move_words(spectator, "inv 4S c3 /AH", ["Ann", "Bob"]).endswith("(Ann's side)")


def test_move_words_for_an_opening_a_repel_and_a_polarize():
    from quarkade import load_game

    opening = load_game("card-commons").new_initial_state()
    opening.apply_action(opening.string_to_action("opener 1"))
    words = [text.move_words(opening.view(1), t, ["Ann", "Bob"]) for t in texts(opening)]
    assert words[0] == "Open with the 2♦ on b2 (your side)"
    assert text.move_words(opening.view(1), "2D b2", NAMES) == \
        "Open with the 2♦ on b2 (Bob's side)"  # names with a "you" say who reads
    assert all(w.startswith("Open with the ") for w in words)
    state = arrange({"b2": "4D/4S", "c1": "2D-", "a4": "6C"}, hands={0: "3H 5S AS",
                                                                     1: "AD 2C"},
                    torus=True)
    state.apply_action(state.string_to_action("3H b1"))
    words = [text.move_words(state.view(0), t, NAMES) for t in texts(state)]
    assert "Slide nothing (no Repel)" in words
    assert "Repel: slide the stack from b2 to b3" in words
    assert all(w.startswith(("Repel: slide ", "Slide nothing")) for w in words)
    state = arrange({"b2": "4D"}, hands={0: "5S 2H", 1: "AD"})
    state.apply_action(state.string_to_action("5S b3"))
    words = [text.move_words(state.view(0), t, NAMES) for t in texts(state)]
    assert words[-1] == "Turn nothing face down (no Polarize)"
    assert "Polarize: turn the 4♦ on b2 face down" in words
    assert "Polarize: turn the 5♠ on b3 face down" in words


def test_every_move_of_random_games_has_its_own_words_without_codes():
    import random
    import re

    from quarkade import load_game

    code = re.compile(r"\b[A2-6][HSDC]\b|\binv\b|/|seat|None|null")
    for variant, seed in (("classic", 1), ("classic", 2), ("tutorial", 3)):
        state = load_game("card-commons", variant=variant).new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(rng.choice(state.legal_actions()))
                continue
            seat = state.current_player()
            legal = state.legal_actions()
            words = [text.move_words(state.view(seat), state.action_to_string(a), ["Ann", "Bob"])
                     for a in legal]
            assert len(set(words)) == len(words), words
            assert not [w for w in words if code.search(w)], words
            state.apply_action(rng.choice(legal))


def test_menu_groups_the_moves_by_card():
    state = example_position()
    menu = text.action_menu(state.view(0), texts(state), NAMES)
    assert menu[0] == "your cards and the cells each can go on:"
    assert "  3H  b1 c1 a2 d2 d4" in menu
    assert "  4S  b1 c1 a2 d2 d4   invert on c3" in menu
    assert "  an inversion names a card to discard too: inv 5H b2 /AH" in menu
    assert menu[-2:] == ["  pass",
                         "type a move such as AH b1; lit AH marks a card's cells on the field"]
    state.apply_action(state.string_to_action("5H c1"))
    assert text.action_menu(state.view(0), texts(state), NAMES) is None  # Polarize: numbered


def test_the_menus_example_is_a_move_the_player_has():
    """With only an inversion to make in the Tutorial (which has no pass), the example
    was "pass"; and "lit 3H" named a card the ♦♣ player never holds."""
    state = arrange({"b2": "4D"}, hands={0: "4S AS", 1: "6D"}, variant="tutorial")
    assert texts(state) == ["inv 4S b2 /AS"]
    menu = text.action_menu(state.view(0), texts(state), NAMES)
    assert menu[-1] == ("type a move such as inv 4S b2 /AS; lit 4S marks a card's cells on "
                        "the field")
    assert "pass" not in " ".join(menu)


def test_lit_command_marks_a_cards_cells():
    view = example_position().view(0)
    shown = render_text(text.prompt_command(view, "lit 3h", NAMES))
    assert_golden(shown, GOLDEN / "lit_3H.txt")
    assert shown.rstrip().endswith("the 3♥ can go on 5 cells: b1 c1 a2 d2 d4")
    assert shown.count("*") == 5
    assert text.prompt_command(view, "3H c1", NAMES) is None

    def said(command):
        return render_text(text.prompt_command(view, command, NAMES)).strip()
    assert said("lit") == "lit takes one card, e.g. lit 3H"
    assert said("lit 9X").startswith("'9X' is not a card")
    assert said("lit 3D") == "the 3♦ is not in your hand"
    assert said("lit 2H") == "the 2♥ is not in your hand"
    blocked = arrange({"b2": "AS"}).view(0)
    assert render_text(text.prompt_command(blocked, "lit 6H", NAMES)).strip() == \
        "the 6♥ cannot go anywhere now"


def test_a_sentence_about_you_inside_a_log_line_begins_with_a_capital():
    from quarkade.core import words

    state = arrange({"b2": "4C"}, hands={0: "3S 2H", 1: "6D"}, variant="tutorial")
    state.apply_action(state.string_to_action("3S a2"))
    line = words.log_line("card-commons", state.view(1), 0, "3S a2", ["Ann", "you"])
    assert line is not None and line.endswith(". You cannot place a card: game over."), line
    assert words.log_line("card-commons", state.view(0), 0, "3S a2", ["you", "Bob"]) \
        .startswith("You channelled the 3♠ to a2.")
