"""Options: coerced from text, range-checked, and refused with what is allowed."""

import pytest

import quarkade
from quarkade.core.options import Option, option_variations, parse_option_pairs, parse_options
from quarkade.core.registry import game_class


def test_list_games_is_sorted_and_names_only_built_games():
    games = quarkade.list_games()
    assert games == sorted(games)
    assert set(games) <= {"card-commons", "dead-cat", "decoherence", "hadronize"}
    assert "hadronize" in games


def test_load_game_applies_options_and_defaults():
    game = quarkade.load_game("hadronize", players="4", goal=12)
    assert (game.name, game.num_players, game.min_players, game.max_players) == \
        ("hadronize", 4, 2, 6)
    assert game.options == {"players": 4, "goal": 12, "max_turns": 0}
    assert game.num_distinct_actions == 38
    assert game == quarkade.load_game("hadronize", players=4, goal="12")


@pytest.mark.parametrize(("call", "message"), [
    (lambda: quarkade.load_game("no-such-game"), "no game named 'no-such-game'; the games are"),
    (lambda: quarkade.load_game("hadronize", players=1), "from 2 to 6"),
    (lambda: quarkade.load_game("hadronize", players=True), "whole number"),
    (lambda: quarkade.load_game("hadronize", players="two"), "whole number"),
    (lambda: quarkade.load_game("hadronize", no_such_option=1), "its options are: players"),
    (lambda: quarkade.load_game("hadronize", max_turns=-1), "at least 0"),
])
def test_bad_games_and_options_are_refused_with_what_is_allowed(call, message):
    with pytest.raises(quarkade.GameOptionError, match=message) as caught:
        call()
    assert isinstance(caught.value, ValueError)


def test_bool_and_choice_options_take_text():
    specs = (Option("torus", False, "wrap", bool),
             Option("variant", "classic", "rules", str, choices=("classic", "tutorial")))
    assert parse_options("g", specs, {"torus": "yes", "variant": "Tutorial"}) == \
        {"torus": True, "variant": "tutorial"}
    with pytest.raises(quarkade.GameOptionError, match="one of classic, tutorial"):
        parse_options("g", specs, {"variant": "torus"})
    with pytest.raises(quarkade.GameOptionError, match="true or false"):
        parse_options("g", specs, {"torus": "maybe"})


def test_checked_text_options_explain_their_refusal():
    def deck(text):
        if "," not in text:
            raise ValueError("a deck lists words separated by commas")
        return text
    specs = (Option("deck", "a,b", "a deck", str, check=deck),)
    with pytest.raises(quarkade.GameOptionError, match="separated by commas"):
        parse_options("g", specs, {"deck": "ab"})


def test_option_pairs_from_the_command_line():
    assert parse_option_pairs(["players=3", " max-turns = 5"]) == \
        {"players": "3", "max_turns": "5"}
    with pytest.raises(quarkade.GameOptionError, match="name=value"):
        parse_option_pairs(["players"])


def test_option_variations_cover_choices_and_switches():
    specs = game_class("card-commons").option_specs
    assert option_variations(specs) == [
        {"variant": v, "torus": t} for v in ("classic", "tutorial") for t in (False, True)]
    assert option_variations(specs, switches=False) == [{"variant": "classic"},
                                                         {"variant": "tutorial"}]
    assert option_variations(game_class("hadronize").option_specs) == [{}]
