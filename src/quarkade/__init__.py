"""Quarkade: four quantum-physics card games behind one game protocol.

>>> import quarkade
>>> "hadronize" in quarkade.list_games()
True
>>> game = quarkade.load_game("hadronize", players=3)
>>> state = game.new_initial_state()
>>> state.current_player() == quarkade.CHANCE
True
>>> state.action_to_string(state.legal_actions()[0])
'deal up'
"""

from quarkade.core import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    Game,
    GameOptionError,
    GameRecord,
    IllegalActionError,
    Outcome,
    QuarkadeError,
    RecordError,
    State,
    list_games,
    load_game,
)

__version__ = "0.2.0"

__all__ = [
    "CHANCE",
    "SPECTATOR",
    "TERMINAL",
    "Game",
    "GameOptionError",
    "GameRecord",
    "IllegalActionError",
    "Outcome",
    "QuarkadeError",
    "RecordError",
    "State",
    "__version__",
    "list_games",
    "load_game",
]
