"""Lines of play on a full state: the score of a position and the search ``greedy`` makes.

A ``LinePlayer`` looks a short way ahead on one full state (a state sampled from a seat's
view, or a world inside a search):

* in the play step it tries every card it may play, and for a verb or a qualifier the
  cards that would finish that same chain (up to a whole sentence), choosing its own
  targets greedily and averaging over tapped through's coin; each line is scored as the
  turn would end after it (pass, discards, leak, and the made-classical check that opens
  the opponent's turn); passing now is one of the lines;
* a target decision (its own sentence, or its chain closed by the opponent) takes the
  target with the best score;
* discards drop a copy of the word it holds most of, from the kind it holds most of.

The score values verve (the difference between the seats), hidden nouns (cover: the first
few count most), live links, open chains, cards in hand, and a penalty for being one turn
from made classical; ``Weights`` says how much each is worth: ``GREEDY`` (greedy's) and
``TUNED`` (the hard level's and ``lookahead``'s; see ``lookahead.py``).

``playout_move`` is a search's ``lines`` playout (the game's ``line_playout`` part): the
searching seat on ``TUNED``, the other on ``GREEDY``. The compiled engine reads the
weights here, never from a bot module.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from quarkade.core.rng import sample_chance
from quarkade.games.decoherence.notation import (
    DISCARD_BASE,
    KIND_OF,
    MAX_TABLE,
    NOUN_BASE,
    NUM_WORDS,
    PASS,
    QUALIFIER_BASE,
    VERB_BASE,
)
from quarkade.games.decoherence.rules import DecoherenceState
from quarkade.games.decoherence.sentences import COIN, DISCARD, OVER, PLAY, TARGET
from quarkade.games.decoherence.table import EMPTY_SLOT, FIELDS, HIDDEN, LINK, SEAT_SPAN, VIS

WIN = 1000.0
STEP = 0.01  # the cost of each further card in a line
assert EMPTY_SLOT[VIS] == HIDDEN and EMPTY_SLOT[LINK] == -1  # what ``score`` counts on


class Weights(NamedTuple):
    """What each part of a position is worth, in verve, to ``score``."""

    hidden_first: float = 1.5  # each of the first two hidden nouns
    hidden_more: float = 0.4
    opponent: float = 0.5  # the opponent's cover, links and chains count this much
    link: float = 0.7
    complete_chain: float = 0.8  # an open chain holding a verb and a qualifier
    verb_chain: float = 0.35  # an open chain holding only a verb
    hand_card: float = 0.15
    exposed: float = 3.0  # no hidden nouns, links or chains: one slip from made classical
    # What the other seat being exposed is worth to the first mover, whose deck runs out
    # first (and costs the other seat the same).
    race_exposed: float = 0.0


GREEDY = Weights()
TUNED = Weights(complete_chain=-0.5, verb_chain=-0.5, hand_card=0.4, race_exposed=3.0)


def score(state: DecoherenceState, me: int, weights: Weights = GREEDY) -> float:
    """How good ``state`` looks for seat ``me`` (full information: a sampled state)."""
    if state._phase == OVER:
        return WIN * state.returns()[me]
    table = state._table
    chains = state._chains
    value = float(state._verve[me] - state._verve[1 - me])
    second_exposed = False
    for seat in (me, 1 - me):
        start = seat * SEAT_SPAN
        end = start + SEAT_SPAN
        # An empty slot reads HIDDEN and unlinked (table.EMPTY_SLOT): count with C loops.
        empty = table[start:end:FIELDS].count(-1)
        hidden = table[start + VIS:end:FIELDS].count(HIDDEN) - empty
        links = MAX_TABLE - table[start + LINK:end:FIELDS].count(-1)
        position = (min(hidden, 2) * weights.hidden_first
                    + max(hidden - 2, 0) * weights.hidden_more + weights.link * links)
        opened = False
        for c in range(seat * 6, seat * 6 + 6, 2):
            if chains[c] >= 0:
                opened = True
                position += (weights.complete_chain if chains[c + 1] >= 0
                             else weights.verb_chain)
        if not (hidden or links or opened):
            position -= weights.exposed
            second_exposed = second_exposed or seat != state._first
        value += position if seat == me else -weights.opponent * position
    if second_exposed and weights.race_exposed:
        value += weights.race_exposed if me == state._first else -weights.race_exposed
    value += weights.hand_card * sum(state._hands[me * NUM_WORDS:(me + 1) * NUM_WORDS])
    return value


def discard_choice(hand: list[int]) -> int:
    """The word to discard from counts ``hand``: most copies, from the fullest kind."""
    kinds = [0, 0, 0]
    for word, count in enumerate(hand):
        kinds[KIND_OF[word]] += count
    return max((w for w in range(NUM_WORDS) if hand[w]),
               key=lambda w: (kinds[KIND_OF[w]], hand[w], -w))


class LinePlayer:
    """Chooses moves on a full state by scoring short lines with ``weights``."""

    __slots__ = ("weights",)

    def __init__(self, weights: Weights = GREEDY) -> None:
        self.weights = weights

    def choose(self, state: DecoherenceState, me: int, legal: list[int]) -> int:
        """The move for seat ``me`` to play in ``state`` (its decision)."""
        if len(legal) == 1:
            return legal[0]
        if state._phase == DISCARD:
            return DISCARD_BASE + discard_choice(_hand(state, me))
        return max(legal, key=lambda a: (self.line(state, me, a, 2), -a))

    def line(self, state: DecoherenceState, me: int, action: int, depth: int = 2) -> float:
        """The best score reachable by playing ``action`` and then finishing its chain."""
        child = state.clone()
        child.apply_action(action)
        return self._settle(child, me, action, depth)

    def best_line(self, state: DecoherenceState, me: int) -> float:
        """The score of ``me``'s best line from its decision in ``state``."""
        return max(self.line(state, me, a) for a in state.legal_actions())

    def play_turn(self, state: DecoherenceState, seat: int, rng: random.Random) -> None:
        """Play ``seat``'s decisions (and chance) until another seat decides or the game
        ends."""
        while state._phase != OVER:
            player = state.current_player()
            if player < 0:
                state.apply_action(sample_chance(state, rng))
            elif player == seat:
                state.apply_action(self.choose(state, seat, state.legal_actions()))
            else:
                return

    def _settle(self, state: DecoherenceState, me: int, last: int, depth: int) -> float:
        phase = state._phase
        if phase == OVER:
            return score(state, me, self.weights)
        if phase == COIN:
            total = 0.0
            for outcome, probability in state.chance_outcomes():
                child = state.clone()
                child.apply_action(outcome)
                total += probability * self._settle(child, me, last, depth)
            return total
        mover = state.current_player()
        if mover == me and phase == TARGET:
            return max(self.line(state, me, a, depth) for a in state.legal_actions())
        if mover != me or phase != PLAY:
            return score(state, me, self.weights)
        best = self._end_of_turn(state, me)
        if depth > 0 and last != PASS:
            for follow in _same_chain(state.legal_actions(), last):
                # A line reaching the same score in fewer cards is better.
                best = max(best, self.line(state, me, follow, depth - 1) - STEP)
        return best

    def _end_of_turn(self, state: DecoherenceState, me: int) -> float:
        """Score after passing now: discards, leak, and the opponent's made-classical
        check."""
        child = state.clone()
        child.apply_action(PASS)
        while child._phase == DISCARD:
            child.apply_action(DISCARD_BASE + discard_choice(_hand(child, me)))
        return score(child, me, self.weights)


def _same_chain(legal: list[int], last: int) -> list[int]:
    """Actions that continue the chain ``last`` just touched."""
    if VERB_BASE <= last < QUALIFIER_BASE:
        return [a for a in legal if QUALIFIER_BASE <= a < NOUN_BASE]
    if QUALIFIER_BASE <= last < NOUN_BASE:
        chain = (last - QUALIFIER_BASE) // 4
        return [a for a in legal if NOUN_BASE + 3 * chain <= a < NOUN_BASE + 3 * chain + 3]
    return []


def _hand(state: DecoherenceState, seat: int) -> list[int]:
    return state._hands[seat * NUM_WORDS:(seat + 1) * NUM_WORDS]


_OWN, _OTHER = LinePlayer(TUNED), LinePlayer(GREEDY)


def playout_move(state: DecoherenceState, me: int) -> int:
    """A search's ``lines`` playout move in a world (a full state): seat ``me`` (the
    seat searching) plays the line search with ``TUNED``, the other seat with ``GREEDY``;
    nothing more is drawn (``compiled.lines.lines_action`` is the same)."""
    seat = state.current_player()
    return (_OWN if seat == me else _OTHER).choose(state, seat, state.legal_actions())
