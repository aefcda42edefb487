"""Dead Cat bots that read only their own view: ``bayes`` and ``greedy`` (and ``sleuth``,
in ``sleuth.py``, which reads the other seats' bets and looks ahead).

``bayes`` keeps the exact chance of where the first dead cat from the top of the time deck
lies, given what its seat has seen (``policies.first_dead_chances``): the cards it has not
seen (the other seats' peeks, the undrawn box and the removed cards) are equally likely to
be in any order, so each unseen time-deck card is dead with the odds of the unseen cards
left. It then plays to win the round, looking one reveal ahead:

* on its turn it compares its chance of winning if it announces now with its chance if it
  peeks (averaged over the card it may draw, betting its best die afterwards), and takes
  the better; a tie goes to announcing, which ends the round on known terms;
* after a peek it turns its die to the number with the best chance of winning if the time
  deck were revealed next, by the next seat announcing (or with no announcer when the box
  is now empty, which is exact). Among equally good numbers it takes the highest: every
  later peek pushes the first dead cat one card deeper, and a time deck without a dead cat
  goes to the highest die, so high bets age best.

It does not read anything into the other seats' bets, and it does not plan past the next
reveal: "its chance of winning the round" is always the chance at that next reveal.

``greedy`` is a simpler rule of thumb: it treats every card it has not seen as alive. It
announces when that picture makes it the winner, and after a peek bets the position of the
topmost dead cat it knows (at most 6), or as high as it can if it knows none.
"""

from __future__ import annotations

import random

from quarkade.core.agent import Agent, Turn
from quarkade.core.parts import LevelSpec
from quarkade.core.protocol import State
from quarkade.games.dead_cat.notation import ANNOUNCE
from quarkade.games.dead_cat.policies import bayes_action, greedy_action
from quarkade.games.dead_cat.sleuth import SleuthAgent


class BayesAgent(Agent):
    """Exact odds of the first dead cat's position; announces or bets to win the round."""

    spec = "bayes"
    title = "Odds bot"
    about = ("Works out the odds of where the first dead cat lies, and announces or bets to win "
             "the round.")

    def act(self, turn: Turn, rng: random.Random) -> int:
        return bayes_action(turn.view, turn.player, ANNOUNCE in turn.legal_actions)


class GreedyAgent(Agent):
    """Takes every card it has not seen for alive; announces when that makes it win."""

    spec = "greedy"
    title = "Greedy bot"
    about = ("Counts every card it has not seen as alive, and announces when that would win.")

    def act(self, turn: Turn, rng: random.Random) -> int:
        return greedy_action(turn.view, turn.player, ANNOUNCE in turn.legal_actions)


def rollout(state: State, rng: random.Random) -> int:
    """A search playout's move for the seat to move (``ismcts:rollout=greedy``): greedy's,
    from that seat's view of the playout's state."""
    player = state.current_player()
    return greedy_action(state.view(player), player, ANNOUNCE in state.legal_actions())


# Difficulty levels (see docs/AGENTS.md). Search alone does not pay here: ismcts samples
# the other seats' cards as if their bets said nothing and loses to greedy, and so does the
# sleuth's own search when it treats bets as noise. Reading the bets does pay, so hard is
# the sleuth (with two seats; with more it plays as bayes).
LEVELS: dict[str, LevelSpec] = {"easy": "random", "medium": "greedy", "hard": "sleuth"}

BOTS: dict[str, type[Agent]] = {"bayes": BayesAgent, "greedy": GreedyAgent, "sleuth": SleuthAgent}
