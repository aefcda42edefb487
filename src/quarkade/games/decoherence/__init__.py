"""Decoherence (seeds 000 and 001): ``rules`` is the engine; ``PARTS`` declares everything
the game provides (``quarkade.core.parts``)."""

from quarkade.core.parts import Analysis, GameParts
from quarkade.games.decoherence import analysis, bots, decks, encode, notation, text
from quarkade.games.decoherence.rules import DecoherenceGame, DecoherenceState

PARTS = GameParts(
    rules=DecoherenceGame,
    notation=notation,
    text=text,
    encode=encode,
    analysis=Analysis(key_events=analysis.key_events, game_tags=analysis.game_tags,
                      seat_tags=analysis.seat_tags, running_score=analysis.running_score,
                      notes=analysis.NOTES),
    bots=bots.BOTS,
    levels=bots.LEVELS,
    estimate=bots.estimate,
    rollout=bots.rollout,
    decks=decks,
    lessons="lessons",
)

__all__ = ["PARTS", "DecoherenceGame", "DecoherenceState"]
