"""Win chances for every legal move of a seat, from what that seat knows: for hints and reviews.

``estimate_moves(turn, ...)`` runs the project's search (``mcts`` where everything is open,
``ismcts`` where something is hidden, with the rollouts of the game's ``hard`` level) with
one change at the root: every legal move gets the same share of the iterations (the least
tried goes next), so each move's estimate is about as good as the others', the played move's
included. Below the root the search is the usual UCT, so a move is judged by good replies.

It is handed a ``Turn``, so it sees only the seat's view: with hidden information every
iteration samples a full state from the seat's information set (``Turn.sample_state``) and
keys other seats' moves by their notation as this seat sees them. Its estimates therefore
never depend on a card the seat has not seen (``tests/learn/test_review_leaks.py``).

A *win chance* is the seat's expected share of the win: 1 for winning alone, 1/k for a win
shared by k seats, 1/n for a draw among n, 0 for a loss (with two seats: win 1, draw 1/2).
A playout cut short by ``rollout_depth`` scores the game's ``estimate`` hook, read the same
way ((return + 1) / 2).

Budget: ``iterations`` and/or ``seconds`` (whichever runs out first; every move gets at
least one iteration), measured with ``clock`` (tests pass one they control).

Exact: where the game gives exact values (its ``exact`` part: a solver settles every legal
move within its budget), those are the chances (1 for a move that wins with best play, 0
for one that loses) and no search runs.

Compiled: on a game with a compiled search (``compiled_search.py``) and playouts to the
end, the same estimating search runs there (its root spread the same way).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

from quarkade.agents.registry import levels, parse_spec
from quarkade.agents.search import ISMCTSAgent, MCTSAgent, Node, _Search
from quarkade.core.agent import Turn
from quarkade.core.errors import AgentSpecError
from quarkade.core.protocol import CHANCE, State
from quarkade.core.registry import game_parts


@dataclass(frozen=True)
class MoveEstimate:
    """One legal move: its estimated win chance (0-1) for the seat, and the iterations
    that went into it."""

    action: int
    chance: float
    visits: int


@dataclass(frozen=True)
class Estimates:
    """Every legal move's estimate, in action order, and the search's size; ``exact``:
    the chances are the game's solved values (1 or 0), not a search's."""

    moves: tuple[MoveEstimate, ...]
    iterations: int
    exact: bool = False

    @property
    def best(self) -> MoveEstimate:
        """The move with the highest win chance (the lowest action id on a tie)."""
        return max(self.moves, key=lambda m: (m.chance, -m.action))

    def of(self, action: int) -> MoveEstimate:
        for move in self.moves:
            if move.action == action:
                return move
        raise KeyError(action)


def win_shares(state: State) -> list[float]:
    """Each seat's share of the win in a finished game (see the module docstring)."""
    outcome = state.outcome()
    n = state.game.num_players
    if outcome is None or not outcome.winners:
        return [1.0 / n] * n
    share = 1.0 / len(outcome.winners)
    return [share if seat in outcome.winners else 0.0 for seat in range(n)]


class _RootSpread(_Search):
    """A search whose root spreads its iterations evenly over the legal moves."""

    _root: Node | None = None

    def _choose(self, node: Node, keys: list[Any], player: int,
                rng: random.Random) -> tuple[Any, Node, bool]:
        if node is not self._root:
            return super()._choose(node, keys, player, rng)
        children = node.children
        for key in keys:
            if key in children:
                children[key].available += 1
        untried = [key for key in keys if key not in children]
        if untried:
            key = untried[0]
            child = children[key] = Node(player)
            child.available = 1
            return key, child, True
        key = min(keys, key=lambda k: children[k].visits)
        return key, children[key], False

    def _playout(self, state: State, rng: random.Random) -> list[float]:
        rewards = super()._playout(state, rng)
        return win_shares(state) if state.is_terminal() else rewards


class _SpreadMCTS(_RootSpread, MCTSAgent):
    pass


class _SpreadISMCTS(_RootSpread, ISMCTSAgent):
    pass


def search_for(game: str, perfect_information: bool) -> _RootSpread:
    """The estimating search for ``game``: its hard level's rollouts when the hard level is
    a search, else its line playouts where it declares them (``line_playout``), else
    random rollouts to the end."""
    params: dict[str, str] = {}
    hard = levels(game)["hard"]
    spec = hard if isinstance(hard, str) else hard.get(2, hard.get("more", ""))
    name, given = parse_spec(spec)
    if name in ("mcts", "ismcts"):
        params = {key: value for key, value in given.items()
                  if key in ("c", "rollout", "rollout_depth")}
    elif game_parts(game).line_playout is not None:  # Decoherence: random play loses
        params = {"rollout": "lines"}  # within a few turns and says little about a move
    try:
        c = float(params.get("c", 1.4))
        rollout = params.get("rollout", "random")
        depth = int(params.get("rollout_depth", 0))
    except ValueError as problem:  # pragma: no cover (the levels are the project's own)
        raise AgentSpecError(f"{game}'s hard level {spec!r}: {problem}") from None
    kind = _SpreadMCTS if perfect_information else _SpreadISMCTS
    search: _RootSpread = kind(iterations=1, c=c, rollout=rollout, rollout_depth=depth)
    return search


def estimate_moves(turn: Turn, rng: random.Random, iterations: int = 0,
                   seconds: float = 0.0,
                   clock: Callable[[], float] = time.perf_counter) -> Estimates:
    """Each legal move's win chance for ``turn``'s seat (see the module docstring)."""
    if iterations < 0 or seconds < 0 or not (iterations or seconds):
        raise AgentSpecError("an estimate needs iterations >= 1 or seconds > 0")
    legal = list(turn.legal_actions)
    exact = game_parts(turn.game.name).exact
    if exact is not None and turn.game.perfect_information:
        values = exact(turn.sample_state(rng))
        if values is not None:
            return Estimates(tuple(MoveEstimate(action, values[action], 0)
                                   for action in legal), 0, exact=True)
    search = search_for(turn.game.name, turn.game.perfect_information)
    search._searcher = turn.player  # the seat whose ``lines`` playouts are its own
    if search._on_compiled(turn.game):
        return _compiled_estimates(turn, rng, search, legal, iterations, seconds, clock)
    root = Node(CHANCE)
    search._root = root
    deadline = clock() + seconds if seconds else 0.0
    done = 0
    while True:
        search._iterate(root, turn, rng)
        done += 1
        if done < len(legal):  # every move is tried once whatever the budget
            continue
        if (iterations and done >= iterations) or (deadline and clock() >= deadline):
            break
    return Estimates(tuple(_move(root.children, action) for action in legal), done)


def _compiled_estimates(turn: Turn, rng: random.Random, search: _RootSpread,
                        legal: list[int], iterations: int, seconds: float,
                        clock: Callable[[], float]) -> Estimates:
    """``estimate_moves`` on the game's compiled engine: the same search, the root spread
    the same way (``compiled_search.run`` with ``spread``), tens of times the iterations."""
    from quarkade.agents import compiled_search

    hidden = not turn.game.perfect_information
    _, done, children = compiled_search.run(
        turn.game.name, turn.sample_state(rng), turn.player, hidden, legal, iterations,
        seconds, clock, search.c, search.rollout, rng, spread=True)
    moves = []
    for action in legal:
        visits, reward = children.get(action, (0, 0.0))
        moves.append(MoveEstimate(action, reward / visits if visits else 0.5, visits))
    return Estimates(tuple(moves), done)


def _move(children: dict[Hashable, Node], action: int) -> MoveEstimate:
    child = children.get(action)
    if child is None or not child.visits:  # pragma: no cover (every move is tried)
        return MoveEstimate(action, 0.5, 0)
    return MoveEstimate(action, child.reward / child.visits, child.visits)
