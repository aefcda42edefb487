"""Card Commons (seed 002): ``rules`` is the engine; ``PARTS`` declares everything the game
provides (``quarkade.core.parts``)."""

from quarkade.core.parts import Analysis, GameParts
from quarkade.games.card_commons import analysis, bots, encode, notation, policy, text
from quarkade.games.card_commons.rules import CardCommonsGame, CardCommonsState

PARTS = GameParts(
    rules=CardCommonsGame,
    notation=notation,
    text=text,
    action_label=text.action_label,
    move_words=text.move_words,
    action_menu=text.action_menu,
    prompt_command=text.prompt_command,
    encode=encode,
    analysis=Analysis(key_events=analysis.key_events, game_tags=analysis.game_tags,
                      seat_tags=analysis.seat_tags, running_score=analysis.running_score,
                      notes=analysis.NOTES),
    bots=bots.BOTS,
    levels=bots.LEVELS,
    endgame=bots.endgame,
    exact=bots.exact,
    candidate_actions=policy.candidate_actions,
    rollout=bots.rollout,
    lessons="lessons",
    compiled="compiled",
)

__all__ = ["PARTS", "CardCommonsGame", "CardCommonsState"]
