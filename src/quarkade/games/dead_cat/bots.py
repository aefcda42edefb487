"""Dead Cat bots that read only their own view: ``bayes`` and ``greedy`` (and ``sleuth``,
in ``sleuth.py``, which reads the other seat's bets and searches a few turns ahead).

``bayes`` keeps the exact chance of where the first dead cat from the top of the time deck
lies, given what its seat has seen (``first_dead_chances``): the cards it has not seen (the
other seats' peeks, the undrawn box and the removed cards) are equally likely to be in any
order, so each unseen time-deck card is dead with the odds of the unseen cards left. It then
plays to win the round, looking one reveal ahead:

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
from typing import Any

from quarkade.core.agent import Agent, Turn
from quarkade.games.dead_cat.notation import ANNOUNCE, BET_BASE, PEEK
from quarkade.games.dead_cat.rules import NO_ANNOUNCER, round_winners
from quarkade.games.dead_cat.sleuth import SleuthAgent

View = dict[str, Any]


def unseen_cards(view: View) -> tuple[int, int]:
    """(alive, dead) cards of this round that the viewing seat has not seen."""
    known = [entry["card"] for entry in view["time_deck"] if entry["card"] is not None]
    return view["alive"] - known.count("alive"), view["dead"] - known.count("dead")


def first_dead_chances(deck: list[str | None], alive: int, dead: int) -> tuple[list[float],
                                                                               float]:
    """Chance that the first dead cat from the top is at each position of ``deck``, and the
    chance that the deck holds none.

    ``deck`` lists the time deck top first: ``"alive"``, ``"dead"`` or ``None`` for a card
    the seat has not seen; ``alive`` and ``dead`` count the unseen cards of the round.

    >>> first_dead_chances([None, "dead"], alive=8, dead=2)  # 2 of the 10 unseen are dead
    ([0.2, 0.8], 0.0)
    """
    chances = []
    none_yet = 1.0  # chance that every card above is alive
    for card in deck:
        if none_yet == 0.0:
            chances.append(0.0)
            continue
        if card is None:
            here = dead / (alive + dead)
            alive -= 1  # below this card, we are counting the cases where it was alive
        else:
            here = 1.0 if card == "dead" else 0.0
        chances.append(none_yet * here)
        none_yet *= 1.0 - here
    return chances, none_yet


def win_chance(seat: int, dice: list[int], cubes: list[int], announcer: int,
               chances: list[float], none: float) -> float:
    """Chance that ``seat`` wins if the time deck is revealed with these dice; a cube shared
    by k seats counts 1/k (the others score too)."""
    total = 0.0
    for count, chance in enumerate([none, *chances]):
        if chance:
            winners = round_winners(dice, cubes, count, announcer)
            if seat in winners:
                total += chance / len(winners)
    return total


def best_bet(view: View, seat: int, deck: list[str | None], alive: int, dead: int,
             box: int) -> tuple[float, int]:
    """The best chance of winning at the next reveal, over the dice ``seat`` may turn to,
    and the highest number that reaches it. The next reveal is the next seat's
    announcement, or the box running out when ``box`` is 0."""
    chances, none = first_dead_chances(deck, alive, dead)
    announcer = NO_ANNOUNCER if box == 0 else (seat + 1) % view["players"]
    dice = list(view["dice"])
    shown = dice[seat]
    scored = {}
    for value in range(1, 7):
        if value != shown:
            dice[seat] = value
            scored[value] = win_chance(seat, dice, view["cubes"], announcer, chances, none)
    best = max(scored.values())
    return best, max(value for value, score in scored.items() if score >= best - 1e-12)


def announce_value(view: View, seat: int) -> float:
    """Chance that ``seat`` wins the round by announcing now."""
    alive, dead = unseen_cards(view)
    deck = [entry["card"] for entry in view["time_deck"]]
    chances, none = first_dead_chances(deck, alive, dead)
    return win_chance(seat, view["dice"], view["cubes"], seat, chances, none)


def peek_value(view: View, seat: int) -> float:
    """Chance that ``seat`` wins at the next reveal if it peeks now and then bets its best."""
    alive, dead = unseen_cards(view)
    deck = [entry["card"] for entry in view["time_deck"]]
    value = 0.0
    for card, count in (("alive", alive), ("dead", dead)):
        if count:
            best, _ = best_bet(view, seat, [card, *deck], alive - (card == "alive"),
                               dead - (card == "dead"), view["box"] - 1)
            value += count / (alive + dead) * best
    return value


class BayesAgent(Agent):
    """Exact odds of the first dead cat's position; announces or bets to win the round."""

    spec = "bayes"

    def act(self, turn: Turn, rng: random.Random) -> int:
        view = turn.view
        seat = turn.player
        if view["phase"] == "bet":
            alive, dead = unseen_cards(view)
            deck = [entry["card"] for entry in view["time_deck"]]
            _, value = best_bet(view, seat, deck, alive, dead, view["box"])
            return BET_BASE + value - 1
        if ANNOUNCE in turn.legal_actions and announce_value(view, seat) >= peek_value(view,
                                                                                       seat):
            return ANNOUNCE
        return PEEK


class GreedyAgent(Agent):
    """Takes every card it has not seen for alive; announces when that makes it win."""

    spec = "greedy"

    def act(self, turn: Turn, rng: random.Random) -> int:
        view = turn.view
        seat = turn.player
        known_dead = [entry["position"] for entry in view["time_deck"] if entry["card"] == "dead"]
        if view["phase"] == "bet":
            shown = view["dice"][seat]
            target = min(known_dead[0], 6) if known_dead else 6
            if target == shown:
                target = target - 1 if target > 1 else 2
            return BET_BASE + target - 1
        count = known_dead[0] if known_dead else 0
        if ANNOUNCE in turn.legal_actions and seat in round_winners(view["dice"], view["cubes"],
                                                                    count, seat):
            return ANNOUNCE
        return PEEK


# Difficulty levels (see docs/AGENTS.md). Search alone does not pay here: ismcts samples
# the other seats' cards as if their bets said nothing and loses to greedy, and so does the
# sleuth's own search when it treats bets as noise. Reading the bets does pay, so hard is
# the sleuth (with two seats; with more it plays as bayes).
LEVELS = {"easy": "random", "medium": "greedy", "hard": "sleuth"}

BOTS = {"bayes": BayesAgent, "greedy": GreedyAgent, "sleuth": SleuthAgent}
