"""Decks: the text form, presets, and refusals that name the broken rule."""

import re
from pathlib import Path

import pytest

from quarkade import GameOptionError, load_game
from quarkade.games.decoherence.decks import (
    PRESET_STRENGTH,
    PRESETS,
    check_deck,
    deck_text,
    normalize_deck,
    parse_deck,
)


@pytest.mark.parametrize("name", PRESETS)
def test_presets_are_legal_decks(name):
    counts = parse_deck(name)
    check_deck(counts)
    assert sum(counts) == 30
    assert parse_deck(deck_text(counts)) == counts


def test_the_text_form_takes_any_order_and_spacing():
    text = "kiki 3 , Bouba 4 | lulu 3; up 3, down 3, through 2, out 2 | tapped 2, verved 2, " \
           "bood 2, twigged 2, riffed 2"
    assert parse_deck(text) == parse_deck("balanced")
    assert normalize_deck(text) == PRESETS["balanced"]
    assert normalize_deck(" Surge ") == "surge"
    assert normalize_deck("RANDOM") == "random"


@pytest.mark.parametrize(("text", "reason"), [
    ("tapped 3, verved 2, boo'd 2, twigged 2, riffed 2 | up 3, down 3, through 2, out 2 | "
     "kiki 3, bouba 4, lulu 3", "11 verbs: a deck needs exactly 10 verbs"),
    ("tapped 5, verved 2, boo'd 1, twigged 1, riffed 1 | up 3, down 3, through 2, out 2 | "
     "kiki 3, bouba 4, lulu 3", "5 copies of tapped: a deck holds at most 4"),
    ("tapped 2, verved 2, boo'd 2, twigged 2, riffed 2 | up 3, down 3, through 2, out 2 | "
     "kiki 3, bouba 4", "7 nouns"),
    ("tapped 2, zapped 2", "'zapped' is not a Decoherence word"),
    ("kiki 2, kiki 2", "kiki is listed twice"),
    ("kiki two", "should be a word and a count"),
    ("", "the deck is empty"),
])
def test_illegal_decks_are_refused_naming_the_rule(text, reason):
    with pytest.raises(ValueError, match=reason):
        parse_deck(text)
    with pytest.raises(GameOptionError, match=reason):
        load_game("decoherence", deck1=text)


def test_deck_options_are_kept_normalized():
    game = load_game("decoherence", deck0="Observer", deck1="lulu 4, kiki 3, bouba 3 | "
                     "up 4, down 4, out 2 | verved 4, twigged 3, riffed 3")
    assert game.options["deck0"] == "observer"
    assert game.options["deck1"] == "verved 4, twigged 3, riffed 3 | up 4, down 4, out 2 | " \
                                    "kiki 3, bouba 3, lulu 4"
    with pytest.raises(GameOptionError, match="open_decklists"):
        load_game("decoherence", open_decklists="maybe")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_the_presets_strength_is_the_one_measured_in_the_analysis(preset):
    """The deck builder shows each preset's measured strength: the overall column of the
    rebalanced presets' table in docs/ANALYSIS.md."""
    analysis = (Path(__file__).resolve().parents[3] / "docs" / "ANALYSIS.md").read_text()
    section = analysis[analysis.index("### The presets rebalanced"):]
    found = re.search(rf"^\| {preset} \| ([\d.]+)% \[([\d.]+), ([\d.]+)\] \|", section,
                      re.M)
    assert found, preset
    assert tuple(round(float(x) / 100, 3) for x in found.groups()) == PRESET_STRENGTH[preset]
