"""The core: the game protocol, options, errors, the registry, randomness and records."""

from quarkade.core.errors import (
    AgentSpecError,
    GameOptionError,
    IllegalActionError,
    NotationError,
    QuarkadeError,
    RecordError,
)
from quarkade.core.options import Option, option_variations, parse_option_pairs, players_option
from quarkade.core.protocol import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    Game,
    Outcome,
    State,
    apply_notation,
    normalize_notation,
    shared_returns,
)
from quarkade.core.records import GameRecord, RecordedAction, Seat
from quarkade.core.registry import game_class, list_games, load_game
from quarkade.core.rng import derived_rng, play_chance, random_playout, sample_chance

__all__ = [
    "CHANCE",
    "SPECTATOR",
    "TERMINAL",
    "AgentSpecError",
    "Game",
    "GameOptionError",
    "GameRecord",
    "IllegalActionError",
    "NotationError",
    "Option",
    "Outcome",
    "QuarkadeError",
    "RecordError",
    "RecordedAction",
    "Seat",
    "State",
    "apply_notation",
    "derived_rng",
    "game_class",
    "list_games",
    "load_game",
    "normalize_notation",
    "option_variations",
    "parse_option_pairs",
    "play_chance",
    "players_option",
    "random_playout",
    "sample_chance",
    "shared_returns",
]
