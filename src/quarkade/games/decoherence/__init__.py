"""Decoherence (seeds 000 and 001): ``rules`` is the engine; ``PARTS`` declares everything
the game provides (``quarkade.core.parts``)."""

from quarkade.core.parts import Analysis, GameParts
from quarkade.games.decoherence import analysis, bots, decks, encode, lines, notation, text
from quarkade.games.decoherence.rules import DecoherenceGame, DecoherenceState

PARTS = GameParts(
    rules=DecoherenceGame,
    notation=notation,
    text=text,
    move_words=text.move_words,
    encode=encode,
    analysis=Analysis(key_events=analysis.key_events, game_tags=analysis.game_tags,
                      seat_tags=analysis.seat_tags, running_score=analysis.running_score,
                      notes=analysis.NOTES),
    bots=bots.BOTS,
    levels=bots.LEVELS,
    estimate=bots.estimate,
    rollout=bots.rollout,
    line_playout=lines.playout_move,
    decks=decks,
    lessons="lessons",
    compiled="compiled",
)

__all__ = ["PARTS", "DecoherenceGame", "DecoherenceState"]
