"""Dead Cat's ``sleuth`` bot: reads the other seats' bets, then looks ahead.

With two seats it searches the next turns of the round; with more it plays for the next
reveal as ``bayes`` does, on the worlds its reading leaves (see "More seats" below).

**What it infers.** A bet is public, and a bet usually says something about the card the
bettor just saw. The sleuth keeps three models of the other seat and weighs them by how
well each explains what that seat did:

* ``greedy``: the other seat plays exactly as the ``greedy`` bot would, knowing its own
  cards (it announces when the cards it knows make it the winner; otherwise it peeks and
  turns its die to the position of the topmost dead cat it knows, or to 6);
* ``bayes``: it plays exactly as the ``bayes`` bot would;
* ``random``: its choices say nothing about its cards (each legal choice equally likely).

A *world* is one way the other seat's peeked cards of this round might lie. Each world is
weighed by its chance before anyone bet (every unseen card is equally likely to be any of
the unseen ones) times the chance that the model would have made the decisions the other
seat made this round. The models' own weights start level (``models`` picks which are in
play) and come from earlier rounds of the game: at the end of a round the cards that were
turned over and the other seat's decisions give the chance of that round under each model.
A model that cannot explain a decision (greedy betting 3 on its first peek) drops out for
the rest of the game; ``random`` explains everything, so it is the fallback for a player
who is neither bot (such a player's bets are then read as saying nothing).

**What it remembers.** The view shows the dice only as they are now, so the sleuth keeps
what it saw at each of its own turns: the dice after its own bets, and the other seat's
die after each of its peeks. The same agent object plays its seat for the whole game (the
simulator makes a fresh one per game); it notices a new game and starts again. A sleuth
that joins in the middle of a round knows only the other seat's last bet, not the die it
turned from, and uses what it can. A round whose end it did not see (the next round ended
before its first turn there) adds nothing to the models' weights.

**How it chooses.** An expectimax over the next turns of the round, with the worlds as its
chance: its own peek (a card drawn from the unseen ones of each world), its bet (every
number), the other seat's answer under each model (announce, or a peek, a card and a bet;
worlds that give the same public answer are merged, exactly as the sleuth would see it),
and so on for ``depth`` turns of its own. Where the search stops it counts the chance of
winning by announcing then, which it can always do, so the value there is a lower bound.
The round ends in the tree as it does in the game: an announcement, or the box running out
(then with no announcer). The value is the chance of winning the round, a shared cube
counted as half (with two seats a cube is shared only between equal scores, where half is
its fair worth); it does not weigh one round against the rest of the game.

**More seats.** Every other seat is read as above, each with its own three models and
their weights from the earlier rounds; a world's weight is its chance times, seat by
seat, the chance of that seat's decisions summed over its models. The dice before each
of those decisions are known: each seat acts once between two turns of the sleuth, so
they are the dice after its own last bet with the seats since then turned to the bets
they show (at the start of a round, every die on 1). It does not search: it announces or
peeks, and bets, as ``bayes`` would (``policies``: the chance of winning when the time
deck is next revealed, by the next seat's announcement or the box running out), but with
the odds of the worlds it read instead of bayes's even odds. Over ``MAX_HIDDEN`` cards it
has not seen, too many worlds to list, it plays as ``bayes``.

Everything it reads is in its own ``Turn``: the view, and what it remembered of earlier
views. It never samples states and never draws on its rng, so it is repeatable.
"""

from __future__ import annotations

import math
import random
from itertools import product
from typing import Any

from quarkade.core.agent import Agent, Turn
from quarkade.core.options import Option
from quarkade.games.dead_cat.notation import ANNOUNCE, BET_BASE, PEEK
from quarkade.games.dead_cat.policies import bayes_action, greedy_action
from quarkade.games.dead_cat.rules import NO_ANNOUNCER, round_winners

View = dict[str, Any]
GREEDY, BAYES, RANDOM = 0, 1, 2  # the models of the other seat
MODEL_NAMES = ("greedy", "bayes", "random")
NEGLIGIBLE = 1e-9  # a world or model this unlikely is dropped from the search
MAX_HIDDEN = 12  # with more seats, more unseen time-deck cards than this: bayes's odds
DIE = (1, 2, 3, 4, 5, 6)

Cards = tuple[int, ...]  # a round's time deck in draw order (bottom first): 0 alive, 1 dead
Belief = list[tuple[int, Cards, float]]  # (model, cards, weight), weights summing to 1
# One decision of the other seat: cards in the time deck before it, the dice before it
# (None if the sleuth did not see them), and the die it turned to (0: it announced).
Decision = tuple[int, tuple[int, ...] | None, int]


def first_dead(cards: Cards) -> int:
    """Position from the top of the topmost dead cat in ``cards`` (0: none)."""
    for index in range(len(cards) - 1, -1, -1):
        if cards[index]:
            return len(cards) - index
    return 0


def worlds(owners: tuple[int, ...], known: dict[int, int], alive: int, dead: int) -> \
        list[tuple[Cards, float]]:
    """Every way the cards of a time deck not in ``known`` (index in draw order -> card)
    might lie, with its chance: the round's ``alive + dead`` cards were shuffled, so the
    chance of a whole sequence depends only on how many dead cats it holds."""
    hidden = [index for index in range(len(owners)) if index not in known]
    known_dead = sum(known.values())
    result = []
    for guess in product((0, 1), repeat=len(hidden)):
        dead_in = known_dead + sum(guess)
        if dead_in > dead or len(owners) - dead_in > alive:
            continue
        cards = [0] * len(owners)
        for index, card in known.items():
            cards[index] = card
        for index, card in zip(hidden, guess, strict=True):
            cards[index] = card
        chance = (math.perm(dead, dead_in) * math.perm(alive, len(owners) - dead_in)
                  / math.perm(alive + dead, len(owners)))
        result.append((tuple(cards), chance))
    return result


class Opponent:
    """Another seat of a round under each model: what it would do, knowing the cards it
    peeked (those of ``owners`` that are its own) and nothing else.

    ``cards`` and ``owners`` are the time deck in draw order, as one world has it. A model's
    choice is its bot's own rule (``policies.greedy_action``, ``policies.bayes_action``)
    applied to the view the other seat would have, cached by what that seat knows.
    """

    def __init__(self, seat: int, cubes: tuple[int, ...], box_size: int, alive: int,
                 dead: int, peek_first: bool) -> None:
        self.seat = seat
        self.players = len(cubes)
        self.cubes = cubes
        self.box_size = box_size
        self.alive = alive
        self.dead = dead
        self.peek_first = peek_first
        self._choices: dict[tuple[Any, ...], int] = {}

    def may_announce(self, size: int) -> bool:
        return size > 0 or not self.peek_first

    def announces(self, model: int, cards: Cards, owners: tuple[int, ...],
                  dice: tuple[int, ...]) -> bool:
        """Whether ``model`` (greedy or bayes) announces rather than peeks on its turn."""
        return self.choice(model, cards, owners, dice, "turn") == ANNOUNCE

    def bets(self, model: int, cards: Cards, owners: tuple[int, ...],
             dice: tuple[int, ...] | None) -> tuple[int, ...]:
        """The numbers ``model`` (greedy or bayes) may turn its die to after peeking the top
        card of ``cards``: one when ``dice`` (before the bet) are known; else, in order,
        every number it turns to from some dice."""
        if dice is not None:
            return (self.choice(model, cards, owners, dice, "bet") - BET_BASE + 1,)
        return tuple(sorted({self.choice(model, cards, owners, pair, "bet") - BET_BASE + 1
                             for pair in product(DIE, repeat=self.players)}))

    def choice(self, model: int, cards: Cards, owners: tuple[int, ...],
               dice: tuple[int, ...], phase: str) -> int:
        """The action ``model`` takes in ``phase`` ("turn" or "bet")."""
        seat = self.seat
        known = tuple(card if owner == seat else 2 for card, owner in zip(cards, owners,
                                                                           strict=True))
        key = (model, known, dice, phase)
        action = self._choices.get(key)
        if action is None:
            size = len(known)
            names = ("alive", "dead", None)
            view = {"phase": phase, "players": self.players, "dice": list(dice),
                    "cubes": list(self.cubes),
                    "alive": self.alive, "dead": self.dead, "box": self.box_size - size,
                    "time_deck": [{"position": size - index, "card": names[known[index]]}
                                  for index in range(size - 1, -1, -1)]}
            policy = greedy_action if model == GREEDY else bayes_action
            action = self._choices[key] = policy(view, seat, self.may_announce(size))
        return action

    def decision_chance(self, model: int, cards: Cards, owners: tuple[int, ...],
                        decisions: list[Decision]) -> float:
        """Chance that ``model``, holding the cards of ``cards`` it peeked, makes
        ``decisions`` (as ``Decision`` tuples, in order)."""
        chance = 1.0
        for before, dice, turned in decisions:
            may_announce = self.may_announce(before)
            if dice is None and self.players > 2:
                continue  # dice not seen: with more seats, too many to list; read nothing
            if model == RANDOM:
                chance *= (0.5 if may_announce else 1.0) * (0.2 if turned else 1.0)
                continue
            if dice is not None and may_announce and \
                    self.announces(model, cards[:before], owners[:before], dice) != (turned == 0):
                return 0.0
            if turned and turned not in self.bets(model, cards[:before + 1],
                                                  owners[:before + 1], dice):
                return 0.0
        return chance


class RoundSearch:
    """Expectimax over the rest of a two-seat round, from ``seat``'s point of view."""

    def __init__(self, seat: int, opponent: Opponent) -> None:
        self.seat = seat
        self.other = 1 - seat
        self.opponent = opponent
        self.cubes = opponent.cubes
        self.box_size = opponent.box_size
        self.round_cards = opponent.alive + opponent.dead
        self.dead_cards = opponent.dead
        self._results: dict[tuple[Cards, tuple[int, ...], int], float] = {}

    def result(self, cards: Cards, dice: tuple[int, ...], announcer: int) -> float:
        """The seat's share of the round's cube if the time deck is ``cards`` and is
        revealed now."""
        key = (cards, dice, announcer)
        share = self._results.get(key)
        if share is None:
            winners = round_winners(dice, self.cubes, first_dead(cards), announcer)
            share = self._results[key] = (self.seat in winners) / len(winners)
        return share

    def announce_value(self, belief: Belief, dice: tuple[int, ...]) -> float:
        return sum(weight * self.result(cards, dice, self.seat) for _, cards, weight in belief)

    def draws(self, belief: Belief) -> list[tuple[int, float, Belief]]:
        """The card the next peek may give: (card, chance, belief after seeing it)."""
        left = self.round_cards - len(belief[0][1])
        result = []
        for card in (0, 1):
            branch = []
            total = 0.0
            for model, cards, weight in belief:
                dead_left = self.dead_cards - sum(cards)
                chance = weight * (dead_left if card else left - dead_left) / left
                if chance > 0.0:
                    branch.append((model, (*cards, card), chance))
                    total += chance
            if total > 0.0:
                result.append((card, total, [(m, c, w / total) for m, c, w in branch]))
        return result

    def reveal_bet(self, belief: Belief, dice: tuple[int, ...], box: int) -> tuple[float, int]:
        """With more than two seats: the best chance of winning at the next reveal over the
        numbers the seat may turn its die to, and the highest number that reaches it. The
        next reveal is the next seat announcing, or the box running out when ``box`` is 0
        (``policies.best_bet``, on the worlds of ``belief``)."""
        seat = self.seat
        announcer = NO_ANNOUNCER if box == 0 else (seat + 1) % len(dice)
        best, best_value = -1.0, 0
        for value in DIE:
            if value == dice[seat]:
                continue
            turned = (*dice[:seat], value, *dice[seat + 1:])
            score = sum(w * self.result(c, turned, announcer) for _, c, w in belief)
            if score >= best - 1e-12:
                best, best_value = max(best, score), value
        return best, best_value

    def reveal_turn(self, belief: Belief, dice: tuple[int, ...], box: int
                    ) -> tuple[float, float]:
        """With more than two seats: (chance of winning by announcing now, by peeking and
        then betting for the next reveal), as ``bayes`` weighs them, on the worlds of
        ``belief``; announcing is -1 where the rules forbid it."""
        announce = -1.0
        if self.opponent.may_announce(len(belief[0][1])):
            announce = sum(w * self.result(c, dice, self.seat) for _, c, w in belief)
        peek = sum(chance * self.reveal_bet(after, dice, box - 1)[0]
                   for _, chance, after in self.draws(belief))
        return announce, peek

    def turn_value(self, depth: int, owners: tuple[int, ...], belief: Belief,
                   dice: tuple[int, ...]) -> tuple[float, float]:
        """(value of announcing, value of peeking) on the seat's turn; -1 where not legal
        or not searched (peeking at depth 0, or when announcing wins for sure)."""
        announce = -1.0
        if self.opponent.may_announce(len(owners)):
            announce = self.announce_value(belief, dice)
        if (depth == 0 and announce >= 0.0) or announce >= 1.0 - 1e-12:
            return announce, -1.0  # the horizon, or a sure win: nothing to search
        peek = 0.0
        for _, chance, after in self.draws(belief):
            peek += chance * self.best_bet(depth, (*owners, self.seat), after, dice)[0]
        return announce, peek

    def best_bet(self, depth: int, owners: tuple[int, ...], belief: Belief,
                 dice: tuple[int, ...]) -> tuple[float, int]:
        """The best value over the numbers the seat may turn its die to after a peek, and
        the highest number that reaches it (high bets age best as the deck grows)."""
        best, best_value = -1.0, 0
        for value in DIE:
            if value == dice[self.seat]:
                continue
            turned = (value, dice[1]) if self.seat == 0 else (dice[0], value)
            if len(owners) == self.box_size:  # the box ran out: revealed, no announcer
                score = sum(w * self.result(c, turned, NO_ANNOUNCER) for _, c, w in belief)
            else:
                score = self.other_value(depth, owners, belief, turned)
            if score >= best - 1e-12:
                best, best_value = max(best, score), value
        return best, best_value

    def other_value(self, depth: int, owners: tuple[int, ...], belief: Belief,
                    dice: tuple[int, ...]) -> float:
        """The seat's value when the other seat is to move, under each model."""
        other = self.other
        opponent = self.opponent
        may_announce = opponent.may_announce(len(owners))
        value = 0.0
        answers: dict[int, list[tuple[int, Cards, float]]] = {}
        left = self.round_cards - len(owners)
        grown = (*owners, other)
        for model, cards, weight in belief:
            peeks = 1.0
            if may_announce:
                if model != RANDOM:
                    if opponent.announces(model, cards, owners, dice):
                        value += weight * self.result(cards, dice, other)
                        continue
                else:
                    value += 0.5 * weight * self.result(cards, dice, other)
                    peeks = 0.5
            dead_left = self.dead_cards - sum(cards)
            for card in (0, 1):
                chance = peeks * weight * (dead_left if card else left - dead_left) / left
                if chance <= 0.0:
                    continue
                drawn = (*cards, card)
                if model != RANDOM:
                    (turned,) = opponent.bets(model, drawn, grown, dice)
                    answers.setdefault(turned, []).append((model, drawn, chance))
                else:
                    for turned in DIE:
                        if turned != dice[other]:
                            answers.setdefault(turned, []).append((model, drawn, chance / 5))
        for turned, branch in answers.items():
            total = sum(w for _, _, w in branch)
            after = [(m, c, w / total) for m, c, w in branch if w / total > NEGLIGIBLE]
            new_dice = (turned, dice[1]) if other == 0 else (dice[0], turned)
            if len(grown) == self.box_size:
                value += total * sum(w * self.result(c, new_dice, NO_ANNOUNCER)
                                     for _, c, w in after)
            else:
                value += total * max(self.turn_value(depth - 1, grown, after, new_dice))
        return value


class SleuthAgent(Agent):
    """Infers the other seats' cards from their bets; with two seats it also searches the
    next turns, with more it plays for the next reveal.

    The module docstring says how."""

    spec = "sleuth"
    title = "Sleuth bot"
    about = ("Reads the other players' bets to guess their cards; against one player it also "
             "looks a few turns ahead.")
    parameters = (
        Option("depth", 2, "turns of its own it searches ahead (two seats)", int, minimum=1,
               maximum=4, server_maximum=3),
        Option("models", "greedy+bayes+random", "the models of the other seats it weighs",
               str, choices=tuple("+".join(chosen) for chosen in (
                   ("greedy",), ("bayes",), ("random",), ("greedy", "bayes"),
                   ("greedy", "random"), ("bayes", "random"), ("greedy", "bayes", "random")))),
    )

    def __init__(self, depth: int = 2, models: str = "greedy+bayes+random") -> None:
        if not 1 <= depth <= 4:
            raise ValueError(f"depth is the turns of its own to search, 1-4 (got {depth})")
        names = [name.strip() for name in str(models).split("+")]
        if not names or any(name not in MODEL_NAMES for name in names):
            raise ValueError(f"models are names from {', '.join(MODEL_NAMES)} joined by + "
                             f"(got {models!r})")
        self.depth = depth
        self.prior = tuple(float(name in names) / len(set(names)) for name in MODEL_NAMES)
        self._forget_game()

    # -- memory ---------------------------------------------------------------------------

    def _forget_game(self) -> None:
        self._round = 0
        # log chance of earlier rounds, per other seat and model
        self._evidence: dict[int, list[float]] = {}
        self._opponents: dict[tuple[int, tuple[int, ...]], Opponent] = {}  # by seat, cubes
        self._forget_round()

    def _forget_round(self) -> None:
        self._after_my_bets: dict[int, tuple[int, ...]] = {}  # deck size -> dice
        self._other_bets: dict[int, int] = {}  # deck size after another's peek -> its die
        self._my_cards: dict[int, int] = {}  # draw index -> card
        self._cubes: tuple[int, ...] | None = None  # during the round
        self._last_turn = 0  # deck size at its last turn (where it may have announced)
        self._last_bet = 0  # deck size after its last peek (0: it has not peeked)

    def evidence(self, other: int) -> list[float]:
        """The log chance of the earlier rounds under each model of seat ``other``."""
        return self._evidence.setdefault(other, [0.0] * len(MODEL_NAMES))

    def observe(self, view: View, seat: int) -> None:
        """Take in a view of ``seat`` (called on each of its turns, before it acts)."""
        cubes = tuple(view["cubes"])
        players = view["players"]
        if view["round"] < self._round or (view["round"] == self._round and cubes != self._cubes):
            self._forget_game()  # a new game
        if view["round"] > self._round:
            last = view["last_round"]
            if last is not None:
                if last["round"] == self._round:
                    self._weigh_round(view, seat, self._round_owners(view, seat, last))
                elif self._round and last["round"] == self._round + 1 and \
                        last["announcer"] not in (None, seat):
                    # A round it never had a turn in, right after one it played: the seats
                    # from its starter peeked once each, then one announced before its turn
                    # (with two seats: the other seat began and announced at once). A
                    # sleuth that joins in the middle of a game weighs nothing before.
                    self._forget_round()
                    size = (last["announcer"] - last["starter"]) % players
                    self._weigh_round(view, seat, tuple((last["starter"] + index) % players
                                                        for index in range(size)))
            self._round = view["round"]
            self._forget_round()
            self._cubes = cubes
        size = len(view["time_deck"])
        for entry in view["time_deck"]:
            if entry["card"] is not None:
                self._my_cards[size - entry["position"]] = int(entry["card"] == "dead")
        if view["phase"] == "turn":
            self._last_turn = size
            # Each seat's die shows the bet of its latest peek: read it for the peeks since
            # this seat's own (newest first, each seat once).
            seen = set()
            for entry in view["time_deck"]:
                peeker = entry["peeker"]
                if peeker == seat:
                    break
                if peeker not in seen:
                    seen.add(peeker)
                    self._other_bets[size - entry["position"] + 1] = view["dice"][peeker]

    def remember_bet(self, view: View, seat: int, value: int) -> None:
        dice = list(view["dice"])
        dice[seat] = value
        self._last_bet = len(view["time_deck"])
        self._after_my_bets[self._last_bet] = tuple(dice)

    def _round_owners(self, view: View, seat: int, last: dict[str, Any]) -> tuple[int, ...]:
        """Who peeked each card of the round that just ended, in draw order: turns go round
        from the starter, so only the number of cards is needed."""
        players = view["players"]
        announcer = last["announcer"]
        if last["ran_out"]:
            size = view["alive"] + view["dead"] - players
        elif announcer == seat:
            size = self._last_turn
        elif self._last_bet:  # the seats after its last bet peeked, up to the announcer
            size = self._last_bet + (announcer - seat - 1) % players
        else:
            size = (announcer - last["starter"]) % players
        return tuple((last["starter"] + index) % players for index in range(size))

    def decisions(self, owners: tuple[int, ...], seat: int, players: int,
                  final: tuple[int, ...] | None, announcer: int | None
                  ) -> dict[int, list[Decision]]:
        """Each other seat's decisions in the round of ``owners``, as far as they were
        seen. ``final``: the dice when the round ended, if it has; ``announcer``: who ended
        it by announcing (None: nobody, or not yet)."""
        result: dict[int, list[Decision]] = {o: [] for o in range(players) if o != seat}
        for index, peeker in enumerate(owners):
            if peeker == seat:
                continue
            turned = self._turned(owners, index, final)
            if turned is not None:
                dice = self._dice_before(owners, index, seat, players, final)
                result[peeker].append((index, dice, turned))
        if announcer is not None and announcer != seat and final is not None:
            result[announcer].append((len(owners), (1,) * players if not owners else final, 0))
        return result

    def _turned(self, owners: tuple[int, ...], index: int,
                final: tuple[int, ...] | None) -> int | None:
        """The die another seat turned to after peeking card ``index``, if seen."""
        turned = self._other_bets.get(index + 1)
        peeker = owners[index]
        if turned is None and final is not None and peeker not in owners[index + 1:]:
            turned = final[peeker]  # its last peek of the round: the die it ended with
        return turned

    def _dice_before(self, owners: tuple[int, ...], index: int, seat: int, players: int,
                     final: tuple[int, ...] | None) -> tuple[int, ...] | None:
        """The dice as they were before the decision at deck size ``index``, if known: from
        this seat's last bet before it (or the round's start, every die on 1), each seat
        since then turned to what it bet."""
        start = max((size for size in self._after_my_bets if size <= index), default=0)
        dice = list(self._after_my_bets[start]) if start else [1] * players
        for earlier in range(start, index):
            if owners[earlier] == seat:
                return None  # its own bet there was not remembered
            turned = self._turned(owners, earlier, final)
            if turned is None:
                return None
            dice[owners[earlier]] = turned
        return tuple(dice)

    def _weigh_round(self, view: View, seat: int, owners: tuple[int, ...]) -> None:
        """Add the round that just ended (``view["last_round"]``) to each model's evidence,
        seat by seat: the chance of that seat's decisions in it, over the ways the cards may
        have lain given what this seat saw and what was turned over."""
        last = view["last_round"]
        size = len(owners)
        known = {index: card for index, card in self._my_cards.items() if index < size}
        for position, card in enumerate(last["revealed"], start=1):
            known[size - position] = int(card == "dead")
        cubes = tuple(c - (s in last["winners"]) for s, c in enumerate(view["cubes"]))
        table = worlds(owners, known, view["alive"], view["dead"])
        everything = sum(chance for _, chance in table)
        for other, moves in self.decisions(owners, seat, view["players"], tuple(last["dice"]),
                                           last["announcer"]).items():
            opponent = self.opponent(view, other, cubes)
            evidence = self.evidence(other)
            for model in range(len(MODEL_NAMES)):
                likely = sum(chance * opponent.decision_chance(model, cards, owners, moves)
                             for cards, chance in table)
                evidence[model] += math.log(likely / everything) if likely > 0 else -math.inf

    def opponent(self, view: View, other: int, cubes: tuple[int, ...]) -> Opponent:
        """Seat ``other``'s models with these cubes (kept, with their cached choices)."""
        key = (other, cubes)
        if key not in self._opponents:
            self._opponents[key] = Opponent(other, cubes,
                                            view["alive"] + view["dead"] - view["players"],
                                            view["alive"], view["dead"], view["peek_first"])
        return self._opponents[key]

    def model_weights(self, other: int) -> list[float]:
        """Seat ``other``'s models weighed by the prior and the earlier rounds (not summing
        to 1: the best has its prior)."""
        evidence = self.evidence(other)
        top = max(evidence)
        if top == -math.inf:  # no model explains it: its choices say nothing
            return [float(model == RANDOM) for model in range(len(MODEL_NAMES))]
        return [self.prior[model] * math.exp(evidence[model] - top)
                for model in range(len(MODEL_NAMES))]

    # -- choosing -------------------------------------------------------------------------

    def belief(self, view: View, seat: int) -> tuple[tuple[int, ...], Belief]:
        """The time deck's owners in draw order, and the weighted worlds. With two seats a
        world is (model of the other seat, cards); with more, the models are summed out
        seat by seat and every world's model reads ``RANDOM``."""
        size = len(view["time_deck"])
        owners = tuple(entry["peeker"] for entry in reversed(view["time_deck"]))
        known = {index: card for index, card in self._my_cards.items() if index < size}
        cubes = tuple(view["cubes"])
        seats = [(self.opponent(view, other, cubes), self.model_weights(other), moves)
                 for other, moves in self.decisions(owners, seat, view["players"], None,
                                                    None).items()]
        table = worlds(owners, known, view["alive"], view["dead"])
        entries = []
        if len(seats) == 1:
            opponent, weights, moves = seats[0]
            for model, prior in enumerate(weights):
                if prior > 0.0:
                    for cards, chance in table:
                        weight = prior * chance * opponent.decision_chance(model, cards, owners,
                                                                           moves)
                        if weight > 0.0:
                            entries.append((model, cards, weight))
        else:
            for cards, chance in table:
                weight = chance
                for opponent, weights, moves in seats:
                    weight *= sum(prior * opponent.decision_chance(model, cards, owners, moves)
                                  for model, prior in enumerate(weights) if prior > 0.0)
                if weight > 0.0:
                    entries.append((RANDOM, cards, weight))
        if not entries:  # no model explains the other seats: their choices say nothing
            entries = [(RANDOM, cards, chance) for cards, chance in table]
        total = sum(w for _, _, w in entries)
        return owners, [(m, c, w / total) for m, c, w in entries if w / total > NEGLIGIBLE]

    def inferred(self, view: View, seat: int) -> dict[str, Any]:
        """What the sleuth in ``seat`` believes after taking in ``view``: each model's
        weight (with two seats, the other seat's, this round's bets included; with more,
        per seat, from the earlier rounds) and the chance that each card of the time deck
        is dead (by position, top first)."""
        self.observe(view, seat)
        _, belief = self.belief(view, seat)
        size = len(view["time_deck"])
        dead = dict.fromkeys(range(1, size + 1), 0.0)
        for _, cards, weight in belief:
            for index, card in enumerate(cards):
                dead[size - index] += weight * card
        if view["players"] == 2:
            models = dict.fromkeys(MODEL_NAMES, 0.0)
            for model, _, weight in belief:
                models[MODEL_NAMES[model]] += weight
            return {"models": models, "dead": dead}
        seats = {}
        for other in range(view["players"]):
            if other != seat:
                weights = self.model_weights(other)
                seats[other] = {name: w / sum(weights) for name, w in zip(MODEL_NAMES, weights,
                                                                          strict=True)}
        return {"models": seats, "dead": dead}

    def act(self, turn: Turn, rng: random.Random) -> int:
        view = turn.view
        seat = turn.player
        players = view["players"]
        self.observe(view, seat)
        hidden = sum(entry["card"] is None for entry in view["time_deck"])
        if players > 2 and hidden > MAX_HIDDEN:  # too many worlds to list: bayes's odds
            action = bayes_action(view, seat, ANNOUNCE in turn.legal_actions)
            if view["phase"] == "bet":
                self.remember_bet(view, seat, action - BET_BASE + 1)
            return action
        owners, belief = self.belief(view, seat)
        search = RoundSearch(seat, self.opponent(view, (seat + 1) % players,
                                                 tuple(view["cubes"])))
        dice = tuple(view["dice"])
        if view["phase"] == "bet":
            if players == 2:
                _, value = search.best_bet(self.depth, owners, belief, dice)
            else:
                _, value = search.reveal_bet(belief, dice, view["box"])
            self.remember_bet(view, seat, value)
            return BET_BASE + value - 1
        if players == 2:
            announce, peek = search.turn_value(self.depth, owners, belief, dice)
        else:
            announce, peek = search.reveal_turn(belief, dice, view["box"])
        if ANNOUNCE in turn.legal_actions and announce >= peek:
            return ANNOUNCE
        return PEEK


__all__ = ["Opponent", "RoundSearch", "SleuthAgent", "worlds"]
