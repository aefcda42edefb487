"""Decoherence's analysis hook: endings, decks, sentences per seat and the running score."""

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from quarkade import load_game
from quarkade.core.rng import random_playout
from quarkade.games.decoherence import analysis
from quarkade.games.decoherence.analysis import COVER
from quarkade.games.decoherence.decks import PRESETS, parse_deck
from quarkade.games.decoherence.notation import NUM_WORDS, WORDS
from quarkade.sim.hooks import game_analysis
from quarkade.sim.play import walk_game
from tests.games.decoherence.helpers import ANN, BOB, play, scene, sentence, set_verve, start


def test_a_seat_left_with_nothing_is_made_classical():
    state = start(["verved", "down", "kiki", "riffed", "up"],
                  ["tapped", "up", "bouba", "lulu", "out"], first=ANN, deck0="surge",
                  deck1="balanced", draw="riffed")
    sentence(state, "verved down kiki")  # Ann gains 1, leaks nothing, hides a kiki
    play(state, "pass", "draw tapped", "pass")  # Bob plays nothing
    assert state.is_terminal() and state.winners() == [ANN]
    assert analysis.key_events(state) == {
        "ended": "made classical", "turns": 3, "verve": [11, 10], "hidden_nouns": [1, 0],
        "sentences": [1, 0], "closed": [0, 0], "played": [["verved down kiki"], []],
        "decks": ["surge", "balanced"]}
    assert analysis.game_tags(state) == {"how it ended": "made classical"}
    assert analysis.seat_tags(state) == [
        {"deck": "surge", "deck matchup": "surge vs balanced", "sentence": ["verved down kiki"],
         "verb + qualifier": ["verved down"]},
        {"deck": "balanced", "deck matchup": "balanced vs surge", "sentence": [],
         "verb + qualifier": []}]
    # Ann has cover (her hidden kiki), Bob none: 11 + 3 against 10.
    assert analysis.running_score(state) == [11 + COVER, 10]
    walk = walk_game(state, analysis.running_score)
    # Level at 10 each until Ann's verb opens a chain (cover): she leads from then on.
    verb_step = next(i for i, a in enumerate(state.history())
                     if state.action_to_string(a).startswith("verb verved"))
    assert (walk.lead_changes, walk.decided_at) == (0, round(verb_step / len(state.history()),
                                                            4))


def test_verve_alone_would_call_the_wrong_leader():
    """Bob is ahead on verve but exposed: the running score puts Ann ahead."""
    state = scene((ANN, ["verved down kiki"]), (BOB, ["verved up lulu"]))
    play(state, "pass")  # Bob's lulu is face up: he hides nothing and has no chain
    set_verve(state, 9, 11)
    assert state.is_classical(BOB) and not state.is_classical(ANN)
    assert analysis.running_score(state) == [9 + COVER, 11]


def test_a_closed_chain_is_its_owners_sentence():
    state = scene((BOB, ["verb verved -> chain 1", "qualifier down -> chain 1",
                         "riffed through kiki"]), (ANN, ["riffed through bouba"]), test="lulu")
    play(state, "close their chain 1 with lulu")
    events = analysis.key_events(state)
    assert events["played"] == [["riffed through bouba"],
                                ["riffed through kiki", "verved down lulu"]]
    assert events["closed"] == [1, 0]
    assert analysis.seat_tags(state)[BOB]["verb + qualifier"] == ["riffed through",
                                                                  "verved down"]


def test_both_decohering_at_once_is_its_own_ending():  # D-26
    state = scene((BOB, ["verved down bouba", "riffed through lulu"]),
                  (ANN, ["riffed through kiki"]), test="verved out kiki")
    set_verve(state, 1, 3)
    sentence(state, "verved out kiki")  # Bob loses 1 more, Ann pays 1: both at 0
    assert state.winners() == [BOB]  # two hidden nouns against one
    assert analysis.game_tags(state) == {"how it ended": "simultaneous decoherence"}
    assert analysis.key_events(state)["ended"] == "simultaneous decoherence"


def test_decks_are_named_as_written():
    balanced = PRESETS["balanced"].replace("|", ",")  # the preset, written out
    game = load_game("decoherence", deck0=balanced, deck1="kiki 4, bouba 4, lulu 2 | "
                     "up 4, down 4, out 2 | verved 4, riffed 4, tapped 2")
    final = random_playout(game.new_initial_state(), random.Random(5))
    tags = analysis.seat_tags(final)
    assert tags[0]["deck"] == "balanced"
    assert tags[1]["deck"] == ("tapped 2, verved 4, riffed 4 | up 4, down 4, out 2 | "
                               "kiki 4, bouba 4, lulu 2")
    assert tags[1]["deck matchup"] == f"{tags[1]['deck']} vs balanced"
    assert "random deck holds" not in tags[0]


def test_a_random_deck_is_tagged_with_its_word_counts():
    game = load_game("decoherence", deck0="random", deck1="observer")
    final = random_playout(game.new_initial_state(), random.Random(11))
    tags = analysis.seat_tags(final)
    assert tags[0]["deck"] == "random" and "random deck holds" not in tags[1]
    held = dict(item.rsplit(" ", 1) for item in tags[0]["random deck holds"])
    assert list(held) == list(WORDS)
    counts = tuple(int(held[word]) for word in WORDS)
    assert parse_deck(", ".join(f"{w} {c}" for w, c in zip(WORDS, counts, strict=True)
                                if c)) == counts  # a legal deck
    assert len(counts) == NUM_WORDS


def test_the_simulator_finds_the_hook_and_its_notes():
    hook = game_analysis("decoherence")
    assert hook.running_score is analysis.running_score
    assert "closed counts for its owner" in hook.note("sentence")


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_the_sentences_found_are_the_ones_the_players_saw(seed):
    """The hook replays the game; each seat's own view logged every sentence it owned."""
    game = load_game("decoherence", deck0="random", deck1="weaver")
    final = random_playout(game.new_initial_state(), random.Random(seed))
    replay = game.new_initial_state()
    seen: list[list[str]] = [[], []]
    for action in final.history():
        replay.apply_action(action)
        for seat in (0, 1):
            for event in replay.view(seat)["events"]:
                if event["type"] == "sentence" and event["owner"] == seat:
                    seen[seat].append(f"{event['verb']} {event['qualifier']} {event['noun']}")
    events = analysis.key_events(final)
    assert events["sentences"] == [len(seen[0]), len(seen[1])]
    assert events["played"] == [sorted(set(seen[0])), sorted(set(seen[1]))]
    assert events["ended"] in ("decoherence", "empty deck", "made classical",
                               "simultaneous decoherence")
