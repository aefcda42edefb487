"""Dead Cat (seed 004): ``rules`` is the engine; ``PARTS`` declares everything the game
provides (``quarkade.core.parts``)."""

from quarkade.core.parts import Analysis, GameParts
from quarkade.games.dead_cat import analysis, bots, encode, notation, text
from quarkade.games.dead_cat.rules import DeadCatGame, DeadCatState

PARTS = GameParts(
    rules=DeadCatGame,
    notation=notation,
    text=text,
    action_label=text.action_label,
    move_words=text.move_words,
    encode=encode,
    analysis=Analysis(key_events=analysis.key_events, game_tags=analysis.game_tags,
                      seat_tags=analysis.seat_tags, tallies=analysis.tallies,
                      running_score=analysis.running_score, notes=analysis.NOTES),
    bots=bots.BOTS,
    levels=bots.LEVELS,
    rollout=bots.rollout,
    lessons="lessons",
    compiled="compiled",
)

__all__ = ["PARTS", "DeadCatGame", "DeadCatState"]
