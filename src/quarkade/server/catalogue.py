"""What the site offers, in words: every game with its options (labelled, with their help
and what is allowed), the bots a seat may be, the seat kinds and visibilities; and a
game's options that differ from the defaults, as the lobby and pages describe them."""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import Any

from quarkade.agents import available_agents
from quarkade.agents.registry import agent_summary, bot_about, bot_title, builtin_agents
from quarkade.core.parts import LEVEL_NAMES
from quarkade.core.registry import game_class, list_games
from quarkade.server.decks.games import deck_games, deck_options, deck_rules
from quarkade.server.errors import ApiError
from quarkade.server.play import seats as seating


def known_game(name: str) -> str:
    """``name`` if it is a game here, else ``ApiError(404)`` naming the games."""
    if name not in list_games():
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise ApiError(404, f"no game named {shown!r}; the games are: {', '.join(list_games())}")
    return name


def catalogue(plugins: Collection[str] = ()) -> list[dict[str, Any]]:
    return [game_entry(name, plugins) for name in list_games()]


def game_entry(name: str, plugins: Collection[str] = ()) -> dict[str, Any]:
    """A game as the new-game form and the home page describe it (with the plug-in bots
    among ``plugins``, the server's allow-list)."""
    cls = game_class(name)
    agents = available_agents(name, plugins)
    return {
        "name": name, "title": cls.title, "summary": cls.summary,
        "min_players": cls.min_players, "max_players": cls.max_players,
        "options": [{"name": o.name, "default": o.default, "help": option_help(o.help),
                     "label": o.label or option_label(o.name), "about": o.about,
                     "suggested": o.default if o.recommended is None else o.recommended,
                     "kind": o.kind.__name__, "minimum": o.minimum, "maximum": o.maximum,
                     "choices": list(o.choices), "allowed": o.allowed(),
                     "seat": _seat_of_option(cls, o.name),
                     "deck": o.name in deck_options(name)}
                    for o in cls.option_specs if not o.simulation],
        "counts": list(range(cls.min_players, cls.max_players + 1)),
        "agents": agents,
        "seat_kinds": [seating.YOU, seating.OPEN, seating.FRIEND, seating.HOTSEAT,
                       *(f"bot:{agent}" for agent in agents)],
        "people": [seating.YOU, seating.OPEN, seating.FRIEND, seating.HOTSEAT],
        # The bots a seat may be: the levels first, then every other bot, each with a line.
        "levels": [_bot(name, level) for level in LEVEL_NAMES],
        "bots": sorted(_menu_bots(name, agents), key=lambda bot: bot["title"]),
        "visibilities": list(seating.VISIBILITIES),
        "deck_builder": name in deck_games(),
        "presets": list(deck_rules(name).PRESETS) if name in deck_games() else [],
        "hides": not cls.perfect_information,
        "more_bots": more_bots(name),
    }


def players_words(cls: Any) -> str:
    """A game's player counts in words: "2 players", "2 to 6 players"."""
    low, high = cls.min_players, cls.max_players
    return f"{low} players" if low == high else f"{low} to {high} players"


def suggested_options(game: str) -> dict[str, Any]:
    """The options a person's game gets unless they choose otherwise: the recommended
    values where a game has them (Dead Cat's peek first), not the simulator's defaults."""
    return {o.name: o.recommended for o in game_class(game).option_specs
            if o.recommended is not None}


def _menu_bots(game: str, agents: list[str]) -> list[dict[str, str]]:
    """The seat menu's bots besides the levels. The learned bot is offered once for each
    checkpoint the operator named for this game ("Learned bot (tutorial)"), and not at
    all without one: alone, "learned" names no network to play."""
    from quarkade.agents.learned import named_for, option_words, untrained

    bots = [_bot(game, agent) for agent in agents
            if agent not in LEVEL_NAMES and agent != "learned"]
    if "learned" in agents:
        defaults = {o.name: o.default for o in game_class(game).option_specs}
        for checkpoint, options in named_for(game):
            bot = _bot(game, f"learned:name={checkpoint}")
            bot["title"] = f"{bot['title']} ({checkpoint})"
            trained = untrained(options, defaults)  # what sets it apart from a default game
            if trained:  # "It plays only games with variant tutorial."
                bot["about"] += f" It plays only games with {option_words(trained)}."
            bots.append(bot)
    return bots


def _bot(game: str, agent: str) -> dict[str, str]:
    return {"spec": f"bot:{agent}", "title": bot_title(agent, game),
            "about": bot_about(agent, game)}


def more_bots(game: str) -> list[dict[str, Any]]:
    """The built-in bots of ``game`` whose spec may set parameters, each with what it does
    and its parameters as this server allows them (the "More bots" of the new-game form):
    all read from the bots' own declarations (``Agent.parameters``)."""
    found = []
    for name, agent in sorted(builtin_agents(game).items()):
        if not agent.parameters:
            continue
        found.append({"name": name, "about": agent_summary(agent), "parameters": [
            {"name": option.name, "default": option.default, "help": option.help,
             "allowed": option.on_server().allowed()}
            for option in agent.parameters if not option.local_only]})
    return found


RULING_ID = re.compile(r"\s*\((?:see )?[A-Z]{1,3}-\d+\)|;?\s*see [A-Z]{1,3}-\d+")


SEAT_OWNED = re.compile(r"^seat \d+'s [a-z ]+:\s*")


def option_help(text: str) -> str:
    """An option's help as players read it: without the rulings' ids (those are for
    developers, in docs/RULINGS.md), nor the seat a seat's own option names ("seat 1's
    deck: word counts..." -> "Word counts...": the label says whose)."""
    text = SEAT_OWNED.sub("", RULING_ID.sub("", text).strip())
    return text[:1].upper() + text[1:]


def option_label(name: str) -> str:
    """An option's name in words: ``max_turns`` -> ``Max turns``, ``deck1`` -> ``Deck of
    player 2`` (seats count from 1 for players)."""
    found = re.fullmatch(r"([a-z_]+?)(\d+)", name)
    if found:
        return (f"{found.group(1).replace('_', ' ').capitalize()} of player "
                f"{int(found.group(2)) + 1}")
    return name.replace("_", " ").capitalize()


def describe_options(game: str, options: dict[str, Any]) -> list[str]:
    """The options that differ from the defaults, in words (``Goal: 8``); a seat's own
    options (a deck) are never shown, since they may be secret."""
    cls = game_class(game)
    described = []
    for option in cls.option_specs:
        if option.name == "players" or _seat_of_option(cls, option.name) is not None:
            continue
        value = options.get(option.name, option.default)
        if value != option.default:
            shown = ("yes" if value else "no") if isinstance(value, bool) else str(value)
            described.append(f"{option_label(option.name)}: {shown}")
    return described


def _seat_of_option(cls: Any, name: str) -> int | None:
    for seat in range(cls.max_players):
        if name in cls.seat_option_names(seat):
            return seat
    return None
