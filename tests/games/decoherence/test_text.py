"""Golden renders of the Decoherence terminal table, and its log lines."""

from pathlib import Path

from quarkade import SPECTATOR
from quarkade.core import words
from quarkade.games.decoherence import text
from tests.games.decoherence.helpers import ANN, BOB, play, scene, sentence, set_verve
from tests.golden import assert_golden, render_text

GOLDEN = Path(__file__).with_name("golden")
NAMES = ["Ann", "Bob"]


def _midgame():
    # Bob: a lulu linked to a bouba; Ann riffs the lulu (both grow) and starts boo'd out.
    return scene((BOB, ["riffed through lulu", "twigged down bouba > your #1"]),
                 (ANN, ["riffed up kiki > their #1", "verb boo'd -> chain 1",
                        "qualifier out -> chain 1"]))


def test_midgame_as_ann_sees_it():
    assert_golden(render_text(text.render(_midgame().view(ANN), NAMES, you=ANN)),
                  GOLDEN / "midgame_ann.txt")


def test_midgame_as_bob_sees_it_at_the_keyboard():
    view = _midgame().view(BOB)
    assert_golden(render_text(text.render(view, ["seat 0 (greedy)", "you"], you=BOB)),
                  GOLDEN / "midgame_you.txt")


def test_midgame_as_a_spectator_sees_it():
    assert_golden(render_text(text.render(_midgame().view(SPECTATOR), NAMES)),
                  GOLDEN / "midgame_spectator.txt")


def test_waiting_for_a_target_and_the_end():
    state = scene((BOB, ["verb riffed -> chain 1", "qualifier up -> chain 1",
                         "riffed through lulu"]),
                  (ANN, ["verved down bouba", "close their chain 1 with kiki"]))
    assert_golden(render_text(text.render(state.view(BOB), NAMES, you=BOB)),
                  GOLDEN / "closed_chain_bob.txt")
    play(state, "target their #1", "pass")  # Ann is left with nothing: made classical
    assert state.is_terminal()
    assert_golden(render_text(text.render(state.view(ANN), NAMES, you=ANN)),
                  GOLDEN / "over.txt")


def test_log_line_for_a_riff_that_grows():
    state = scene((BOB, ["twigged up lulu"]), (ANN, []), test="riffed up bouba")
    sentence(state, "riffed up bouba")
    play(state, "target their #1")
    assert text.log_line(state.view(BOB), ANN, "target: their lulu #1", ["Ann", "you"]) == (
        "Ann targets your lulu #1.\n"
        "Ann's riffed up bouba: your lulu #1 grows by 2; Ann's bouba #1 grows by 2; "
        "it leaves an up state (#1).")
    assert text.log_line(state.view(ANN), ANN, "target: their hidden #1", ["you", "Bob"]) == (
        "you target Bob's hidden #1.\n"
        "Your riffed up bouba: Bob's hidden #1 grows by 2; your bouba #1 grows by 2; "
        "it leaves an up state (#1).")


def test_log_lines_for_a_closed_chain_and_a_break():
    state = scene((BOB, ["verb verved -> chain 1", "qualifier out -> chain 1"]),
                  (ANN, ["close their chain 1 with kiki"]))
    line = text.log_line(state.view(ANN), ANN, "close their chain 1 with kiki", NAMES)
    assert line == ("Ann closes Bob's chain 1 with kiki.\nAnn pays 3 verve to close.\n"
                    "Bob's verved out kiki, closed by Ann: Ann loses 3 verve; "
                    "Bob loses 1 verve; it leaves a bare particle (#1).")
    state = scene((BOB, ["riffed through lulu", "twigged down bouba > your #1"]),
                  (ANN, []), test="riffed out kiki")
    sentence(state, "riffed out kiki", "their #2")
    line = text.log_line(state.view(ANN), ANN, "target: their hidden #2", NAMES)
    assert line.splitlines()[1] == (
        "Ann's riffed out kiki: Bob's bouba #2 is discarded; Bob's hidden #1 goes dark; "
        "Ann's kiki #1 is discarded; nothing is left.")


def test_log_lines_for_draws_and_the_end():
    state = scene((ANN, ["verb tapped -> chain 1"]))
    set_verve(state, 1, 10)
    play(state, "pass")
    assert text.log_line(state.view(BOB), ANN, "pass", NAMES) == \
        "Ann passes.\nAnn leaks 1 verve.\nAnn decoheres at 0 verve and loses."
    assert text.log_line(state.view(ANN), ANN, "pass", ["you", "Bob"]) == \
        "you pass.\nyou leak 1 verve.\nyou decohere at 0 verve and lose."


def test_lines_about_you_agree_with_you():
    # "you draw", "you go first", "you win" (never "you draws"); the same events for a
    # named seat take the s. A log line that begins with "you" begins with a capital.
    you = ["you", "Bob"]
    assert text.describe({"type": "draw", "seat": ANN, "word": "bouba", "opening": False},
                         you) == "you draw bouba."
    assert text.describe({"type": "draw", "seat": BOB, "word": None, "opening": False},
                         you) == "Bob draws a card."
    assert text.describe({"type": "first", "seat": ANN}, you) == "The coin says you go first."
    assert text.describe({"type": "first", "seat": BOB}, you) == "The coin says Bob goes first."
    state = scene((ANN, ["verb tapped -> chain 1"]))
    set_verve(state, 1, 10)
    play(state, "pass")  # Ann decoheres: Bob wins
    assert "Game over: you win as Ann decohered." in render_text(
        text.render(state.view(BOB), ["Ann", "you"], you=BOB))
    assert "Game over: Bob wins as you decohered." in render_text(
        text.render(state.view(ANN), you, you=ANN))
    assert words.log_line("decoherence", state.view(ANN), ANN, "pass", you) == \
        "You pass.\nYou leak 1 verve.\nYou decohere at 0 verve and lose."


def test_move_words_for_the_web_lists():
    said = {notation: text.move_words({}, notation, ["Ann", "Ben"]) for notation in (
        "pass", "verb riffed -> chain 2", "qualifier up -> chain 2", "noun kiki -> chain 2",
        "close their chain 1 with kiki", "discard lulu", "target: your lulu #2",
        "target: their hidden #3")}
    assert said == {
        "pass": "Pass: end your turn",
        "verb riffed -> chain 2": "Open chain 2 with the verb riffed",
        "qualifier up -> chain 2": "Add the qualifier up to chain 2",
        "noun kiki -> chain 2": "Finish chain 2 with the noun kiki",
        "close their chain 1 with kiki": "Close their chain 1 with kiki",
        "discard lulu": "Discard lulu",
        "target: your lulu #2": "Target your lulu #2",
        "target: their hidden #3": "Target their hidden #3"}


def test_every_move_of_random_games_has_its_own_words():
    import random

    from quarkade import load_game

    for seed in (1, 2):
        state = load_game("decoherence").new_initial_state()
        rng = random.Random(seed)
        while not state.is_terminal():
            legal = state.legal_actions()
            if not state.is_chance_node():
                seat = state.current_player()
                said = [words.move_words("decoherence", state.view(seat),
                                         state.action_to_string(a), ["Ann", "Ben"])
                        for a in legal]
                assert len(set(said)) == len(said), said
                assert all(w[:1].isupper() and "->" not in w and not w.startswith("Target:")
                           for w in said), said
            state.apply_action(rng.choice(legal))


def test_the_log_says_each_move_in_words():
    said = {notation: text._played(notation, ANN, ["Ann", "Bob"]) for notation in (
        "verb riffed -> chain 2", "qualifier up -> chain 2", "noun kiki -> chain 2",
        "noun -> chain 2", "discard lulu", "target: your lulu #2")}
    assert said == {
        "verb riffed -> chain 2": "Ann opens chain 2 with riffed.",
        "qualifier up -> chain 2": "Ann adds up to chain 2.",
        "noun kiki -> chain 2": "Ann finishes chain 2 with kiki.",
        "noun -> chain 2": "Ann finishes chain 2 with a hidden noun.",
        "discard lulu": "Ann discards lulu.",
        "target: your lulu #2": "Ann targets Ann's lulu #2."}
    assert text._played("verb riffed -> chain 2", ANN, ["you", "Bob"]) == \
        "you open chain 2 with riffed."
