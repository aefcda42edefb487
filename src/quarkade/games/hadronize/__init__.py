"""Hadronize (seed 003): ``rules`` is the engine; ``PARTS`` declares everything the game
provides (``quarkade.core.parts``)."""

from quarkade.core.parts import Analysis, GameParts
from quarkade.games.hadronize import analysis, bots, encode, notation, text
from quarkade.games.hadronize.rules import HadronizeGame, HadronizeState

PARTS = GameParts(
    rules=HadronizeGame,
    notation=notation,
    text=text,
    action_label=text.action_label,
    encode=encode,
    analysis=Analysis(key_events=analysis.key_events, game_tags=analysis.game_tags,
                      seat_tags=analysis.seat_tags, running_score=analysis.running_score,
                      notes=analysis.NOTES),
    bots=bots.BOTS,
    levels=bots.LEVELS,
    endgame=bots.endgame,
    rollout=bots.rollout,
    lessons="lessons",
    compiled="compiled",
)

__all__ = ["PARTS", "HadronizeGame", "HadronizeState"]
