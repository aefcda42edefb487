"""Exact play for two-player Hadronize with a small goal: the game solved by value iteration.

The position, seen from the seat to move, is the six (mover's pile, other's pile) pairs of
each flavour and the two hadronized counts. Three facts make the solved space finite and
small:

* flavours are interchangeable (superpositions are uniform over the 20 sets of three), so
  a position is the *sorted* tuple of its six pairs;
* a pile of ``goal - 1`` or more is as good as any bigger pile: hadronized, it wins at once
  whatever the score; tunnelled, it lands on a pile at least as big. Piles are capped there
  without changing any value;
* scores are below the goal until the game ends.

Capping makes positions recur, so values come from value iteration (to 1e-10), not
recursion. The solved value of a position is the probability that the seat to move wins
under best play by both seats; the opening value averages it over every deal.

The bound: the number of positions grows steeply with the goal (82 at goal 2, about
11,000 at goal 3, several hundred thousand at goal 4, out of reach for pure Python here),
so ``ExactAgent`` is exact for goals up to ``MAX_EXACT_GOAL`` (3) and two seats. Beyond the
bound it says so in ``exact`` (False) and plays like ``greedy``.
"""

from __future__ import annotations

import functools
from collections import Counter, deque
from itertools import product

from quarkade.games.hadronize.notation import NUM_FLAVOURS, SUPERPOSITIONS

MAX_EXACT_GOAL = 3
TOLERANCE = 1e-10

Position = tuple[tuple[int, ...], int, int]  # (sorted pair codes, mover's score, other's)


class Solution:
    """Every reachable two-seat position of a goal, with its value for the seat to move."""

    def __init__(self, goal: int) -> None:
        if not 1 <= goal <= MAX_EXACT_GOAL:
            raise ValueError(f"exact solutions exist for goals 1-{MAX_EXACT_GOAL}, not {goal}")
        self.goal = goal
        self.cap = max(goal - 1, 1)
        side = self.cap + 1
        self._side = side
        # Pair code a * side + b: mover holds a, the other seat holds b.
        self._flip = [(c % side) * side + c // side for c in range(side * side)]
        self.deals = self._deal_distribution()
        self._positions: list[Position] = []
        self._index: dict[Position, int] = {}
        self._moves: list[list[list[list[int]]]] = []  # [pos][superposition][observer][f]
        self._explore()
        self.values = self._iterate()

    # -- building the space ------------------------------------------------------------

    def encode(self, mine: list[int], theirs: list[int], scored: int, conceded: int) -> Position:
        cap = self.cap
        pairs = sorted(min(a, cap) * self._side + min(b, cap) for a, b in zip(mine, theirs,
                                                                               strict=True))
        return (tuple(pairs), scored, conceded)

    def _deal_distribution(self) -> Counter[tuple[int, ...]]:
        """Chambers after four uniform starting quarks, capped, with their frequencies."""
        deals: Counter[tuple[int, ...]] = Counter()
        for quarks in product(range(NUM_FLAVOURS), repeat=4):
            counts = [0] * NUM_FLAVOURS
            for flavour in quarks:
                counts[flavour] += 1
            deals[tuple(min(c, self.cap) for c in counts)] += 1
        return deals

    def _successor(self, position: Position, observer_is_mover: bool, slot: int) -> int:
        """-1 if the mover wins at once, else the index of the next position (other to move)."""
        pairs, scored, conceded = position
        side, cap = self._side, self.cap
        code = pairs[slot]
        mine, theirs = divmod(code, side)
        if observer_is_mover:
            if mine == 0:
                mine = 1
            else:
                scored += mine + 1
                if scored >= self.goal:
                    return -1
                mine = 0
        elif theirs == 0:
            theirs = 1
        else:
            mine = min(cap, mine + theirs + 1)
            theirs = 0
        flip = self._flip
        changed = list(pairs)
        changed[slot] = mine * side + theirs
        following: Position = (tuple(sorted(flip[c] for c in changed)), conceded, scored)
        found = self._index.get(following)
        if found is None:
            found = self._index[following] = len(self._positions)
            self._positions.append(following)
        return found

    def _explore(self) -> None:
        for mine, theirs in product(self.deals, repeat=2):
            start = self.encode(list(mine), list(theirs), 0, 0)
            if start not in self._index:
                self._index[start] = len(self._positions)
                self._positions.append(start)
        queue = deque(range(len(self._positions)))
        while queue:
            index = queue.popleft()
            position = self._positions[index]
            known = len(self._positions)
            moves = [[[self._successor(position, observer, slot) for slot in sup]
                      for observer in (True, False)] for sup in SUPERPOSITIONS]
            self._moves.append(moves)
            queue.extend(range(known, len(self._positions)))

    def _iterate(self) -> list[float]:
        """Gauss-Seidel value iteration over flat successor lists (the inner loop is hot)."""
        count = len(self._positions)
        # Index ``count`` stands for "the mover won": its value for the next seat is 0.
        flat = [[count if nxt < 0 else nxt for options in moves for results in options
                 for nxt in results] for moves in self._moves]
        values = [0.5] * count + [0.0]
        scale = 1.0 / (3 * len(SUPERPOSITIONS))
        while True:
            delta = 0.0
            for index in range(count):
                m = flat[index]
                total = 0.0
                for k in range(0, 120, 6):
                    stay = 3.0 - values[m[k]] - values[m[k + 1]] - values[m[k + 2]]
                    send = 3.0 - values[m[k + 3]] - values[m[k + 4]] - values[m[k + 5]]
                    total += stay if stay > send else send
                value = total * scale
                change = value - values[index]
                if change > delta:
                    delta = change
                elif -change > delta:
                    delta = -change
                values[index] = value
            if delta < TOLERANCE:
                return values[:count]

    # -- reading it ----------------------------------------------------------------------

    def __len__(self) -> int:
        return len(self._positions)

    def value(self, position: Position) -> float:
        """Probability that the seat to move wins from ``position`` under best play."""
        return self.values[self._index[position]]

    def observer_values(self, mine: list[int], theirs: list[int], scored: int, conceded: int,
                        superposition: tuple[int, ...]) -> tuple[float, float]:
        """Win probability for the mover if it observes itself, and if the other seat does."""
        results = []
        for observer_is_mover in (True, False):
            total = 0.0
            for flavour in superposition:
                changed_mine, changed_theirs = list(mine), list(theirs)
                win, after = self._apply(changed_mine, changed_theirs, scored, observer_is_mover,
                                         flavour)
                if win:
                    total += 1.0
                else:
                    total += 1.0 - self.value(self.encode(changed_theirs, changed_mine,
                                                          conceded, after))
            results.append(total / len(superposition))
        return results[0], results[1]

    def _apply(self, mine: list[int], theirs: list[int], scored: int, observer_is_mover: bool,
               flavour: int) -> tuple[bool, int]:
        if observer_is_mover:
            if mine[flavour]:
                scored += mine[flavour] + 1
                mine[flavour] = 0
            else:
                mine[flavour] = 1
        elif theirs[flavour]:
            mine[flavour] += theirs[flavour] + 1
            theirs[flavour] = 0
        else:
            theirs[flavour] = 1
        return scored >= self.goal, scored

    def opening_value(self) -> float:
        """Probability that the first seat to move wins, over every deal, under best play."""
        total = weight = 0
        value = 0.0
        for (mine, m_count), (theirs, t_count) in product(self.deals.items(), repeat=2):
            value += m_count * t_count * self.value(self.encode(list(mine), list(theirs), 0, 0))
            weight += m_count * t_count
        del total
        return value / weight


@functools.lru_cache(maxsize=MAX_EXACT_GOAL)
def solution(goal: int) -> Solution:
    """The solved game for ``goal`` (built once per process; goal 3 takes seconds)."""
    return Solution(goal)
