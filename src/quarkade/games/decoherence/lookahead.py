"""``lookahead``, Decoherence's hard level: a turn of each seat ahead, on sampled worlds.

At a play decision of its own turn it draws ``worlds`` full states from its view
(``Turn.sample_state``: the other seat's hand, deck and face-down nouns as the table allows,
see ``knowledge``) and on each:

1. scores every legal move by the best line it starts (``lines.LinePlayer``, with its own
   weights ``TUNED``), averaged over the worlds; the ``top`` best go on;
2. plays each of those on: the rest of its turn by the same lines, then the other seat's
   whole turn as ``greedy`` would play it (the model of the other seat: ``greedy`` hardly
   depends on the cards it cannot see, so on a world it plays much as it will), then its
   own draw and the best line of its next turn, whose score is the move's value there;
3. plays the move with the best value summed over the worlds (each world keeps its own
   chance for every move, so the moves meet the same draws and coins).

Other decisions (a target chosen during the other seat's turn, discards) take the best
line on one world. Looking past the turn's end is what pays: the other seat's reply shows
which cover it can strip and which damage it can deal, and the next turn shows whether a
verb is left to open a chain with (made classical) and whether an attack goes through.

``TUNED`` differs from ``greedy``'s weights as issue 6's experiments found best (docs/
AGENTS.md): an open chain costs half a verve (it leaks) instead of being worth up to 0.8,
a card in hand is worth 0.4, and the first mover (whose deck runs out first, so who must
win before it does) gains 3 when the other seat is exposed.
"""

from __future__ import annotations

import random
from typing import cast

from quarkade.core.agent import Agent, Turn
from quarkade.core.errors import AgentSpecError
from quarkade.core.options import Option
from quarkade.core.rng import sample_chance
from quarkade.games.decoherence.lines import GREEDY, LinePlayer, Weights, score
from quarkade.games.decoherence.rules import DecoherenceState
from quarkade.games.decoherence.sentences import OVER, PLAY

TUNED = Weights(complete_chain=-0.5, verb_chain=-0.5, hand_card=0.4, race_exposed=3.0)


class LookaheadAgent(Agent):
    """Plays each of its best few moves a turn of each seat ahead on sampled worlds."""

    spec = "lookahead"
    title = "Lookahead bot"
    about = ("Tries its few best moves a turn of each player ahead, on several guesses of the "
             "hidden cards.")
    parameters = (
        Option("worlds", 8, "worlds drawn from its view at each of its plays", int,
               minimum=1, server_maximum=32),
        Option("top", 4, "its best moves played a turn of each seat ahead", int, minimum=1,
               server_maximum=16),
    )

    def __init__(self, worlds: int = 8, top: int = 4) -> None:
        if worlds < 1 or top < 1:
            raise AgentSpecError(f"worlds and top must be at least 1 (got worlds={worlds}, "
                                 f"top={top})")
        self.worlds = int(worlds)
        self.top = int(top)
        self.mine = LinePlayer(TUNED)
        self.model = LinePlayer(GREEDY)  # how the other seat is expected to play

    def act(self, turn: Turn, rng: random.Random) -> int:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        me = turn.player
        first = cast(DecoherenceState, turn.sample_state(rng))
        if first._phase != PLAY or first._active != me:
            return self.mine.choose(first, me, legal)
        worlds = [first] + [cast(DecoherenceState, turn.sample_state(rng))
                            for _ in range(self.worlds - 1)]
        seeds = [rng.getrandbits(32) for _ in worlds]
        mine = self.mine
        now = {a: sum(mine.line(world, me, a) for world in worlds) for a in legal}
        ranked = sorted(legal, key=lambda a: (-now[a], a))[:self.top]
        if len(ranked) == 1:
            return ranked[0]
        ahead = {a: sum(self._ahead(world, me, a, random.Random(seed))
                        for world, seed in zip(worlds, seeds, strict=True))
                 for a in ranked}
        return max(ranked, key=lambda a: (ahead[a], -ranked.index(a)))

    def _ahead(self, world: DecoherenceState, me: int, action: int,
               rng: random.Random) -> float:
        """``action``'s value on ``world``: the rest of this turn, the other seat's turn,
        then the best line of the next one."""
        state = world.clone()
        state.apply_action(action)
        self.mine.play_turn(state, me, rng)
        while state._phase != OVER:
            player = state.current_player()
            if player < 0:
                state.apply_action(sample_chance(state, rng))
            elif player != me:
                state.apply_action(self.model.choose(state, player, state.legal_actions()))
            elif state._active == me:
                return self.mine.best_line(state, me)
            else:  # a target for its own chain, closed by the other seat (D-1)
                state.apply_action(self.mine.choose(state, me, state.legal_actions()))
        return score(state, me, TUNED)
