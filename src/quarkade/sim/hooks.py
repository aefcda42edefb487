"""A game's optional analysis part: what the simulator asks of a game's ``analysis`` part
(``quarkade.core.parts.Analysis``, usually built from ``games/<pkg>/analysis.py``).

The part is optional, and so is each of its functions; every one takes the final
state of a finished game and returns plain JSON-ready data:

``key_events(state) -> dict``
    Facts about the game stored in its result line under ``"events"`` (counts, the
    largest swing, how it ended). Free-form; the simulator only stores them.
``game_tags(state) -> dict[str, str | int]``
    Categories of the whole game, such as ``{"players": 3}``. The summary breaks games
    down by each tag: games, draws, the first mover's win rate and the mean length.
``seat_tags(state) -> list[dict[str, str | int | list]]``
    Categories of each seat, such as ``{"deck": "north"}`` or ``{"sentences": ["A", "B"]}``
    (a list tags the seat with each value). The summary gives the win rate of the seats
    holding each value, with its interval.
``tallies(state) -> list[dict[str, dict[str | int, tuple[int, int]]]]``
    Rates counted inside the game, where a game holds several trials (rounds, plays):
    one dict per seat, holding per table, per value, the seat's ``(hits, trials)``, such
    as ``{"announcer's round win rate by time-deck size": {0: (3, 3), 2: (0, 1)}}`` for
    the rounds the seat called. The summary adds them up over the seats and games (and
    per agent) and gives each value's rate with its interval. Name a table ``"<rate> by
    <values>"``: the two parts head its columns.
``running_score(state) -> list[float]``
    Each seat's standing in any state of the game (not only the final one). With it the
    simulator replays each game and counts lead changes and when the winner took the
    lead for good.

Beside the functions the part may hold ``notes``, a dict from a tag's or tally's name to
one sentence that the summary and the report print under its table (what the values mean,
whose seats are counted). A name ending in a parenthesis, such as ``"... (3 players)"``,
also finds the note of the name without it.

A game's ``analysis`` module must not import the simulator (games sit below ``sim``);
it may replay ``state.history()`` on ``state.game.new_initial_state()`` when it needs
what happened along the way.
"""

from __future__ import annotations

from functools import cache

from quarkade.core.parts import Analysis
from quarkade.core.registry import game_parts

# The simulator's name for it.
GameAnalysis = Analysis


@cache
def game_analysis(game: str) -> Analysis:
    """The analysis part of ``game`` (every function ``None`` when it declares none)."""
    return game_parts(game).analysis or Analysis()
