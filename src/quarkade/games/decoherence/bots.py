"""Decoherence bots that read only their own view: ``greedy``.

``greedy`` draws one full state consistent with its view (``Turn.sample_state``) and looks
a short way ahead on it:

* in the play step it tries every card it may play, and for a verb or a qualifier the
  cards that would finish that same chain (up to a whole sentence), choosing its own
  targets greedily and averaging over tapped through's coin; each line is scored as the
  turn would end after it (pass, discards, leak, and the made-classical check that opens
  the opponent's turn); passing now is one of the lines;
* a target decision (its own sentence, or its chain closed by the opponent) takes the
  target with the best score;
* discards drop a copy of the word it holds most of, from the kind it holds most of.

The score values verve (the difference between the seats), hidden nouns (cover: the first
few count most), live links, open chains (tempo: a complete chain is one card from a
sentence), cards in hand, and a penalty for being one turn from made classical.
"""

from __future__ import annotations

import math
import random
from typing import cast

from quarkade.core.agent import Agent, Turn
from quarkade.games.decoherence.notation import (
    DISCARD_BASE,
    KIND_OF,
    NOUN_BASE,
    NUM_WORDS,
    PASS,
    QUALIFIER_BASE,
    VERB_BASE,
    word_index,
)
from quarkade.games.decoherence.rules import DecoherenceState

WIN = 1000.0
HIDDEN_FIRST = 1.5  # each of the first two hidden nouns
HIDDEN_MORE = 0.4
OPPONENT_WEIGHT = 0.5  # the opponent's cover, links and chains count half as much
LINK = 0.7
COMPLETE_CHAIN = 0.8
VERB_CHAIN = 0.35
HAND_CARD = 0.15
EXPOSED = 3.0  # no hidden nouns, links or chains: one slip from made classical
STEP = 0.01  # the cost of each further card in a line


def score(state: DecoherenceState, me: int) -> float:
    """How good ``state`` looks for seat ``me`` (full information: a sampled state)."""
    if state.is_terminal():
        return WIN * state.returns()[me]
    them = 1 - me
    value = float(state.verve(me) - state.verve(them))
    for seat in (me, them):
        hidden = state.hidden_nouns(seat)
        cover = min(hidden, 2) * HIDDEN_FIRST + max(hidden - 2, 0) * HIDDEN_MORE
        links = sum(1 for t in state.things(seat).values()
                    if t["link"] is not None)
        chains = 0.0
        for chain in state.chains(seat):
            if chain is not None:
                chains += COMPLETE_CHAIN if chain[1] else VERB_CHAIN
        exposed = EXPOSED if hidden == 0 and links == 0 and chains == 0 else 0.0
        position = cover + LINK * links + chains - exposed
        value += position if seat == me else -OPPONENT_WEIGHT * position
    value += HAND_CARD * len(state.hand(me))
    return value


ESTIMATE_SCALE = 6.0  # score points for a return of about +-0.76 (tanh 1)


def estimate(state: DecoherenceState) -> list[float]:
    """Each seat's expected return from a full state, for search playouts cut short."""
    if state.is_terminal():
        return state.returns()
    lead = math.tanh((score(state, 0) - score(state, 1)) / (2 * ESTIMATE_SCALE))
    return [lead, -lead]


def discard_choice(hand: list[int]) -> int:
    """The word to discard from counts ``hand``: most copies, from the fullest kind."""
    kinds = [0, 0, 0]
    for word, count in enumerate(hand):
        kinds[KIND_OF[word]] += count
    return max((w for w in range(NUM_WORDS) if hand[w]),
               key=lambda w: (kinds[KIND_OF[w]], hand[w], -w))


class GreedyAgent(Agent):
    """Scores short lines of play on one sampled state and takes the best first step."""

    spec = "greedy"

    def act(self, turn: Turn, rng: random.Random) -> int:
        legal = turn.legal_actions
        if len(legal) == 1:
            return legal[0]
        state = cast(DecoherenceState, turn.sample_state(rng))
        me = turn.player
        phase = state.phase()
        if phase == "discard":
            counts = [0] * NUM_WORDS
            for word in _hand_words(state, me):
                counts[word] += 1
            return DISCARD_BASE + discard_choice(counts)
        best = max(legal, key=lambda a: (self._line(state, me, a, 2), -a))
        return best

    def _line(self, state: DecoherenceState, me: int, action: int, depth: int) -> float:
        """The best score reachable by playing ``action`` and then finishing its chain."""
        child = state.clone()
        child.apply_action(action)
        return self._settle(child, me, action, depth)

    def _settle(self, state: DecoherenceState, me: int, last: int, depth: int) -> float:
        if state.is_terminal():
            return score(state, me)
        if state.is_chance_node() and state.phase() == "coin":
            total = 0.0
            for outcome, probability in state.chance_outcomes():
                child = state.clone()
                child.apply_action(outcome)
                total += probability * self._settle(child, me, last, depth)
            return total
        phase = state.phase()
        if state.current_player() == me and phase == "target":
            return max(self._line(state, me, a, depth) for a in state.legal_actions())
        if state.current_player() != me or phase != "play":
            return score(state, me)
        best = _end_of_turn(state, me)
        if depth > 0 and last != PASS:
            for follow in _same_chain(state.legal_actions(), last):
                # A line reaching the same score in fewer cards is better.
                best = max(best, self._line(state, me, follow, depth - 1) - STEP)
        return best


def _same_chain(legal: list[int], last: int) -> list[int]:
    """Actions that continue the chain ``last`` just touched."""
    if VERB_BASE <= last < QUALIFIER_BASE:
        return [a for a in legal if QUALIFIER_BASE <= a < NOUN_BASE]
    if QUALIFIER_BASE <= last < NOUN_BASE:
        chain = (last - QUALIFIER_BASE) // 4
        return [a for a in legal if NOUN_BASE + 3 * chain <= a < NOUN_BASE + 3 * chain + 3]
    return []


def _end_of_turn(state: DecoherenceState, me: int) -> float:
    """Score after passing now: discards, leak, and the opponent's made-classical check."""
    child = state.clone()
    child.apply_action(PASS)
    while not child.is_terminal() and child.phase() == "discard":
        counts = [0] * NUM_WORDS
        for word in _hand_words(child, me):
            counts[word] += 1
        child.apply_action(DISCARD_BASE + discard_choice(counts))
    return score(child, me)


def _hand_words(state: DecoherenceState, seat: int) -> list[int]:
    return [word_index(w) for w in state.hand(seat)]


# Difficulty levels (see docs/AGENTS.md): hard is information-set search from the seat's
# own view, 400 iterations capped at 1.8 s a move, each playout cut after 2 actions and
# scored by ``estimate`` (full random playouts lost to greedy).
LEVELS = {"easy": "random", "medium": "greedy",
          "hard": "ismcts:iterations=400,rollout_depth=2,time=1.8"}

BOTS = {"greedy": GreedyAgent}
