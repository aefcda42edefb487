"""Game parts (``quarkade.core.parts``): one typed declaration per game package, checked
when the package is imported, and the only way every face finds a game's hooks."""

from __future__ import annotations

import importlib
import sys
import textwrap

import pytest

import quarkade
from quarkade.core import registry
from quarkade.core.parts import GameParts, GamePartsError
from quarkade.core.registry import game_part, game_parts, register_game

TOY_RULES = '''
from quarkade.core.protocol import Game


class ToyGame(Game):
    name = "toy"
    title = "Toy"
    summary = "A game with nothing in it."
    min_players = max_players = 2
    option_specs = ()
    num_distinct_actions = 1

    def new_initial_state(self):
        raise NotImplementedError
'''
TOY_TEXT = '''
def render(view, names, you=None):
    return ""


def log_line(view, actor, notation, names):
    return None
'''
TOY_PARTS = '''
from quarkade.core.parts import GameParts
from {package} import notation, text
from {package}.rules import ToyGame


def estimate(state):
    return [0.0, 0.0]


PARTS = GameParts(rules=ToyGame, notation=notation, text=text, {extra})
'''


@pytest.fixture
def toy_games(tmp_path, monkeypatch):
    """Write toy game packages under ``tmp_path`` (``make(package, extra, text=...)``)
    and register each as game ``toy``; the registry is restored afterwards."""
    monkeypatch.setattr(registry, "_GAMES", dict(registry._GAMES))
    monkeypatch.setattr(registry, "_PARTS", dict(registry._PARTS))
    monkeypatch.syspath_prepend(str(tmp_path))

    def make(package: str, extra: str, text: str = TOY_TEXT) -> None:
        folder = tmp_path / package
        folder.mkdir()
        (folder / "rules.py").write_text(TOY_RULES)
        (folder / "notation.py").write_text("")
        (folder / "text.py").write_text(textwrap.dedent(text))
        (folder / "__init__.py").write_text(TOY_PARTS.format(package=package, extra=extra))
        monkeypatch.setattr(registry, "_GAMES", {**registry._GAMES, "toy": package})
        registry._PARTS.pop("toy", None)

    yield make
    for name in [module for module in sys.modules if module.startswith("toy_")]:
        del sys.modules[name]


def test_a_game_with_a_misspelt_part_fails_at_import_and_says_which(toy_games):
    toy_games("toy_misspelt", "estimat=estimate")
    with pytest.raises(GamePartsError) as refused:
        importlib.import_module("toy_misspelt")
    message = str(refused.value)
    assert "game 'toy' declares a part 'estimat', which is no part of a game" in message
    assert "did you mean 'estimate'?" in message
    assert "the parts are: rules, notation, text," in message
    with pytest.raises(GamePartsError, match="'estimat'"):  # and so does the registry
        game_parts("toy")


def test_a_registered_game_with_sound_parts_is_found_by_every_face(toy_games):
    toy_games("toy_sound", "estimate=estimate")
    parts = game_parts("toy")
    assert parts.name == "toy" and parts.package == "toy_sound"
    assert parts.estimate is not None and parts.estimate(None) == [0.0, 0.0]
    assert parts.endgame is None and parts.bots == {}
    assert registry.game_class("toy").title == "Toy"


@pytest.mark.parametrize(("package", "extra", "text", "fragment"), [
    ("toy_text", "", "def render(view, names, you=None):\n    return ''\n",
     "its text part lacks log_line (a text part provides log_line, render)"),
    ("toy_compiled", "compiled='compield'", TOY_TEXT,
     "compiled names a module of the game's package to load when asked for; there is "
     "no toy_compiled.compield"),
    ("toy_level", "levels={'expert': 'random'}", TOY_TEXT,
     "'expert' is no level; the levels are: easy"),
    ("toy_more", "levels={'hard': {2: 'random'}}", TOY_TEXT, 'with one for "more"'),
    ("toy_bot", "bots={'lazy': print}", TOY_TEXT, "bot 'lazy' is an Agent subclass"),
    ("toy_hook", "endgame=3", TOY_TEXT, "endgame is a function (or left out), not int"),
])
def test_a_part_of_the_wrong_kind_fails_at_import(toy_games, package, extra, text, fragment):
    toy_games(package, extra, text)
    with pytest.raises(GamePartsError) as refused:
        importlib.import_module(package)
    assert fragment in str(refused.value)


def test_a_package_whose_parts_name_another_game_is_refused(toy_games):
    toy_games("toy_other", "")
    register_game("toy-two", "toy_other")
    with pytest.raises(GamePartsError, match="declares the parts of 'toy', not of 'toy-two'"):
        game_parts("toy-two")


def test_every_game_declares_its_parts():
    for name in quarkade.list_games():
        parts = game_parts(name)
        assert isinstance(parts, GameParts) and parts.name == name
        assert parts.bots and set(parts.levels) == {"easy", "medium", "hard"}
        assert parts.rollout is not None and parts.lessons == "lessons"
        assert parts.load("lessons").TUTORIAL.game == name


def test_a_part_a_game_does_not_declare_is_refused_by_name():
    with pytest.raises(GamePartsError, match="hadronize has no decks part; its module "
                                             "parts are: notation, text, encode, lessons"):
        game_part("hadronize", "decks")
    assert game_part("decoherence", "decks").DECK_OPTION == "deck{seat}"
    with pytest.raises(GamePartsError, match="'notation' is not a part loaded when asked "
                                             "for; those are lessons and compiled"):
        game_parts("hadronize").load("notation")
