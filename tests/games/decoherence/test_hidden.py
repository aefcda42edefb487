"""Hidden information: views, notation and log lines name only cards a seat has seen, and
``resample`` draws the rest from what that seat cannot have seen, depending on nothing else.
"""

import random

import pytest

from quarkade import SPECTATOR, IllegalActionError, load_game
from quarkade.core.agent import turn_for
from quarkade.core.errors import NotationError
from quarkade.games.decoherence import text
from quarkade.games.decoherence.decks import PRESETS, check_deck
from quarkade.games.decoherence.notation import NOUNS, WORDS
from tests.games.decoherence.helpers import ANN, BOB, scene, sentence, table
from tests.games.decoherence.internals import internals
from tests.games.decoherence.test_invariants import choose, playout

NAMES = ["Ann", "Bob"]


def _twin(bob_noun):
    """Bob plays a hidden verved down with ``bob_noun`` and keeps a hand that differs."""
    return scene((BOB, [f"verved down {bob_noun}", "riffed through lulu"]), (ANN, []),
                 test="boo'd up kiki")


def test_states_differing_only_in_hidden_cards_look_the_same_to_the_other_seat():
    kiki, bouba = _twin("kiki"), _twin("bouba")
    assert table(kiki, BOB)[1][0] == "kiki" and table(bouba, BOB)[1][0] == "bouba"
    for viewer in (ANN, SPECTATOR):
        assert kiki.view(viewer) == bouba.view(viewer)
    assert kiki.view(BOB) != bouba.view(BOB)
    # Every action of the two games reads the same to Ann, and so does the log.
    replays = [load_game("decoherence", **s.game.options).new_initial_state()
               for s in (kiki, bouba)]
    for first, second in zip(kiki.history(), bouba.history(), strict=True):
        seen = [r.action_string_for(ANN, a) for r, a in zip(replays, (first, second),
                                                            strict=True)]
        assert seen[0] == seen[1]
        actor = replays[0].current_player()
        for r, a in zip(replays, (first, second), strict=True):
            r.apply_action(a)
        lines = [text.log_line(r.view(ANN), actor, seen[0], NAMES) for r in replays]
        assert lines[0] == lines[1]


def test_a_hidden_noun_play_reads_without_its_word():
    state = scene((BOB, []), (ANN, ["verb verved -> chain 1", "qualifier down -> chain 1"]),
                  test="kiki")
    action = state.string_to_action("noun kiki -> chain 1")
    assert state.action_string_for(ANN, action) == "noun kiki -> chain 1"
    assert state.action_string_for(BOB, action) == "noun -> chain 1"
    assert state.action_string_for(SPECTATOR, action) == "noun -> chain 1"
    state.apply_action(action)
    line = text.log_line(state.view(BOB), ANN, "noun -> chain 1", NAMES)
    assert line == ("Ann finishes chain 1 with a hidden noun.\n"
                    "Ann's verved down (hidden noun): Ann gains 1 verve; "
                    "no leak for Ann this turn; it leaves a down state (#1).")
    assert "kiki" in text.log_line(state.view(ANN), ANN, "noun kiki -> chain 1", NAMES)


def test_a_draw_reads_as_draw_to_everyone_else():
    state = scene((ANN, []))
    state.apply_action(16)  # pass
    draw = state.legal_actions()[0]
    assert state.action_string_for(BOB, draw) == f"draw {WORDS[draw]}"
    assert state.action_string_for(ANN, draw) == "draw"
    assert state.action_string_for(SPECTATOR, draw) == "draw"
    state.apply_action(draw)
    assert text.log_line(state.view(ANN), -1, "draw", NAMES) == "Bob draws a card."
    assert text.log_line(state.view(BOB), -1, "draw", NAMES) == f"Bob draws {WORDS[draw]}."


def test_an_unseen_target_reads_hidden():
    state = scene((BOB, ["verved down bouba"]), (ANN, []), test="riffed out kiki")
    sentence(state, "riffed out kiki")
    target = state.legal_actions()[0]
    assert state.action_to_string(target) == "target: their bouba #1"
    assert state.action_string_for(ANN, target) == "target: their hidden #1"
    assert state.action_string_for(BOB, target) == "target: their bouba #1"
    assert state.string_to_action_for(ANN, "target: their hidden #1") == target
    assert state.string_to_action_for(ANN, "target their #1") == target
    assert state.string_to_action("target: their bouba #1") == target


def test_a_seat_cannot_probe_an_unseen_noun_by_naming_it():
    """Bob's two face-down nouns are a bouba and a lulu; Ann, choosing a target for riffed
    out, may name them only as hidden. A guess of their word is refused exactly as a wrong
    guess is, and no refusal she can reach names them (the leak of issue 13)."""
    state = scene((BOB, ["verved down bouba", "riffed through lulu"]), (ANN, []),
                  test="riffed out kiki")
    sentence(state, "riffed out kiki")
    assert state.current_player() == ANN
    refusals = []
    for guess in ("target: their bouba #1", "target: their kiki #1", "target: their lulu #2",
                  "target: their bouba #2", "nonsense"):
        with pytest.raises(NotationError) as refused:
            state.string_to_action_for(ANN, guess)
        refusals.append(str(refused.value).split(";", 1)[1])
    assert len(set(refusals)) == 1
    assert refusals[0] == " legal: target: their hidden #1, target: their hidden #2"
    with pytest.raises(IllegalActionError) as illegal:
        state.clone().apply_action(16)  # pass, while a target is owed
    assert "bouba" not in str(illegal.value) and "lulu" not in str(illegal.value)
    assert "target: their hidden #1" in str(illegal.value)
    turn = turn_for(state)
    assert [turn.action_text(a) for a in turn.legal_actions] == [
        "target: their hidden #1", "target: their hidden #2"]
    assert turn.parse("target their hidden #2") == turn.legal_actions[1]
    with pytest.raises(NotationError, match="legal: target: their hidden #1"):
        turn.parse("target: their lulu #2")


@pytest.mark.parametrize("seed", range(6))
def test_random_games_never_show_a_seat_an_unseen_card(seed):
    """At every step, what each other seat reads of the action about to be played is the
    same in a state resampled for it: the notation depends only on what it knows."""
    rng = random.Random(seed)
    state = load_game("decoherence", deck1="random").new_initial_state()
    while not state.is_terminal():
        action = choose(state, rng)
        actor = state.current_player()
        for viewer in (ANN, BOB):
            if viewer == actor:
                continue
            shown = state.action_string_for(viewer, action)
            twin = state.resample(viewer, random.Random(seed))
            legal = twin.legal_actions()
            if action in legal:
                assert twin.action_string_for(viewer, action) == shown
            if 0 <= action < 12 and actor < 0:
                drawer = state.view(SPECTATOR)["active"] if state.phase() == "draw" else None
                if drawer is not None and drawer != viewer:
                    assert shown == "draw"
            if 34 <= action < 43:
                assert not any(noun in shown for noun in NOUNS)
        state.apply_action(action)
        for viewer in (ANN, BOB):
            view = state.view(viewer)
            for thing in view["tables"][1 - viewer]:
                if thing["status"] == "hidden" and thing["noun"] is not None:
                    # Only a once-seen noun that went dark (D-16) keeps its name.
                    assert state.thing(1 - viewer, thing["slot"])["seen"]


def test_decklists_are_private_unless_opened():  # D-21
    private = scene((ANN, []))
    assert private.view(ANN)["decklists"][BOB] is None
    assert private.view(BOB)["decklists"][ANN] is None
    assert private.view(SPECTATOR)["decklists"] == [None, None]
    assert private.view(ANN)["decklists"][ANN] is not None
    opened = scene((ANN, []), open_decklists=True)
    assert None not in opened.view(BOB)["decklists"]
    assert opened.view(SPECTATOR)["decklists"] == opened.view(ANN)["decklists"]


def test_resample_with_private_decklists_invents_a_legal_deck():  # D-21
    state = _twin("kiki")
    decks = set()
    for seed in range(30):
        twin = state.resample(ANN, random.Random(seed))
        counts = twin._decklists[12:]
        check_deck(counts)
        assert twin._decklists[:12] == state._decklists[:12]  # Ann's own list is known
        assert twin.hand(ANN) == state.hand(ANN)
        assert twin._decks[:12] == state._decks[:12]  # so is what is left of her deck
        assert twin.view(ANN) == state.view(ANN)
        decks.add(tuple(counts))
    assert len(decks) > 10


def test_resample_redraws_the_opponents_hidden_nouns_and_deck():
    state = _twin("kiki")
    nouns, hands = set(), set()
    for seed in range(40):
        twin = state.resample(ANN, random.Random(seed))
        nouns.add(table(twin, BOB)[1][0])
        hands.add(tuple(twin._decks[12:]))  # Bob's hand is empty: his deck varies
        assert table(twin, BOB)[2][0] in NOUNS
    assert nouns == {"kiki", "bouba", "lulu"} and len(hands) > 10


def test_resample_with_open_decklists_draws_from_the_known_list():
    state = scene((BOB, ["verved down kiki"]), (ANN, []), open_decklists=True)
    seen = set()
    for seed in range(20):
        twin = state.resample(ANN, random.Random(seed))
        assert twin._decklists == state._decklists
        seen.add(tuple(twin.hand(BOB)))
    assert len(seen) > 3


def test_resample_depends_only_on_what_the_seat_knows():
    kiki, bouba = _twin("kiki"), _twin("bouba")
    for seed in range(5):
        assert internals(kiki.resample(ANN, random.Random(seed))) == \
            internals(bouba.resample(ANN, random.Random(seed)))
        assert kiki.resample(ANN, random.Random(seed)).history() == []


def test_resample_of_a_pending_hidden_sentence():
    # Bob's own hidden twig waits for his target: resampling for Ann redraws its noun too.
    state = scene((BOB, ["riffed through lulu", "verb twigged -> chain 1",
                         "qualifier up -> chain 1", "noun kiki -> chain 1"]))
    assert state.phase() == "target" and state.current_player() == BOB
    nouns = set()
    for seed in range(30):
        twin = state.resample(ANN, random.Random(seed))
        assert twin.view(ANN) == state.view(ANN)
        assert twin.legal_actions()
        nouns.add(table(twin, BOB)[2][0])
    assert len(nouns) > 1


def test_spectators_see_only_public_things():
    state = _twin("kiki")
    view = state.view(SPECTATOR)
    assert view["player"] is None and view["hand"] is None
    assert [t["noun"] for t in view["tables"][BOB]] == [None, None]
    assert view["hand_sizes"] == [len(state.hand(ANN)), len(state.hand(BOB))]
    with pytest.raises(IllegalActionError, match="no seat 2"):
        state.view(2)
    with pytest.raises(IllegalActionError):
        state.resample(5, random.Random(1))


def test_a_long_random_game_keeps_views_and_resamples_apart():
    final = playout(11, {"deck0": "weaver", "deck1": "observer"})
    rng = random.Random(11)
    state = load_game("decoherence", deck0="weaver", deck1="observer").new_initial_state()
    for action in final.history():
        if not state.is_chance_node():
            player = state.current_player()
            twin = state.resample(player, rng)
            assert twin.view(player) == state.view(player)
        state.apply_action(action)
    assert state.returns() == final.returns()


def test_the_other_deck_option_is_hidden_from_a_seat():  # D-21
    game = load_game("decoherence", deck0="surge", deck1="observer")
    assert game.options_for(ANN)["deck0"] == "surge"
    assert game.options_for(ANN)["deck1"] == "hidden"
    assert game.options_for(BOB)["deck0"] == "hidden"
    assert {game.options_for(SPECTATOR)[f"deck{s}"] for s in (0, 1)} == {"hidden"}
    assert load_game("decoherence", deck1="random").options_for(ANN)["deck1"] == "random"
    opened = load_game("decoherence", deck1="observer", open_decklists=True)
    assert opened.options_for(ANN) == opened.options
    # A seat's turn (and any state sampled for it) carries an invented list for the other
    # deck, never the real one.
    state = game.new_initial_state()
    rng = random.Random(3)
    while state.current_player() != BOB:
        state.apply_action(choose(state, rng))
    turn = turn_for(state)
    assert turn.game.options["deck1"] == "observer"
    assert turn.sample_state(rng).game.options["deck0"] != "surge"


def test_the_revealed_view_shows_every_hidden_card():
    """After the game (reveal on): both hands, every noun with its exact size, both
    decklists and what is left of each deck; nothing of it is in a seat's own view of
    the other side."""
    state = playout(0, {"deck0": "surge", "deck1": "observer"})
    assert state.is_terminal()
    revealed = state.revealed_view()
    assert revealed["player"] is None and revealed["revealed"] is True
    assert revealed["hands"] == [state.hand(0), state.hand(1)]
    assert revealed["decklists"] == [state.view(0)["decklists"][0],
                                     state.view(1)["decklists"][1]]
    for seat in (0, 1):
        assert sum(revealed["decks"][seat].values()) == state.deck_size(seat)
        own = state.view(seat)["tables"][seat]  # a seat sees all of its own table
        assert revealed["tables"][seat] == own
    hidden_somewhere = [thing for seat in (0, 1)
                        for thing in state.view(1 - seat)["tables"][seat]
                        if thing["noun"] is None]
    assert hidden_somewhere, "pick a seed whose final table hides a noun"
    assert all(thing["noun"] for seat in (0, 1) for thing in revealed["tables"][seat])
    assert state.view(0)["hand"] is not None and state.view(SPECTATOR)["hand"] is None


def _named_and_written_twins():
    """Twin games: seat 1's private deck is the preset ``surge`` in one and surge's list
    written out as text in the other. Seat 0 cannot tell them apart (its options read
    ``hidden`` in both), and the decks, so the deals and plays, are the same."""
    named = load_game("decoherence", deck1="surge")
    written = load_game("decoherence", deck1=PRESETS["surge"])
    assert named.options["deck1"] != written.options["deck1"]
    assert named.options_for(ANN) == written.options_for(ANN)
    assert named.decklists == written.decklists
    return named, written


def test_a_private_preset_and_its_list_written_out_resample_alike():
    """Issue 27: a resample for seat 0 writes a deck it does not know out as text, so the
    preset's name never rides along (it did when the drawn list was the real one)."""
    named, written = _named_and_written_twins()
    compared = 0
    for game_seed in range(80):
        rng = random.Random(game_seed)
        states = [named.new_initial_state(), written.new_initial_state()]
        while not states[0].is_terminal():
            if states[0].current_player() == ANN:
                models = [turn_for(state) for state in states]
                assert models[0].game.options == models[1].game.options
                assert repr(models[0].game) == repr(models[1].game)
                for seed in range(12):
                    samples = [state.resample(ANN, random.Random(seed)) for state in states]
                    assert samples[0].game.options == samples[1].game.options, seed
                    assert samples[0].game.options["deck1"] not in PRESETS
                    assert internals(samples[0]) == internals(samples[1])
                    again = [model.sample_state(random.Random(seed)) for model in models]
                    assert again[0].game.options == again[1].game.options
                    compared += 1
            action = choose(states[0], rng)
            for state in states:
                state.apply_action(action)
    assert compared > 10_000
