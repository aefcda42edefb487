"""Search bots that work on every game through the protocol.

``mcts`` is UCT for open-information games: each iteration copies the root state, walks
the tree (UCB1 at decision nodes, a sampled outcome at chance nodes), adds one node,
plays out to the end (uniformly random by default, or with the game's ``rollout`` policy,
its greedy bot's move: ``rollout=greedy``) and backs the returns up. Each node keeps the
reward of the seat that moved into it, so the same code plays 2 to 6 seats (max-n style).

``ismcts`` is single-observer information-set MCTS for hidden-information games. It never
sees the true state: every iteration it draws a full state consistent with its own view
(``Turn.sample_state``, i.e. ``State.resample``) and walks one tree built from its own
point of view. Its own decisions are keyed by action id; chance outcomes and other seats'
decisions are keyed by their notation *as this seat sees it* (``action_string_for``), so
hidden draws and face-down plays fuse into one node; the move played for such a node is
drawn uniformly among the legal moves it stands for. Children carry availability counts
(how often they were legal when their parent was visited), since the legal set varies
from one sampled state to the next.

The game's hooks are its declared parts (``quarkade.core.parts.GameParts``):

Endgames: a game may declare ``endgame(state, rng) -> action | None``, an exact solver for
small positions (Card Commons and Hadronize have one). ``mcts`` asks it first at the
root and plays its answer when it has one (``endgame=0`` turns this off).

Candidates: with ``candidates=1`` an ``mcts`` tree holds only the moves the game's
``candidate_actions(legal) -> list`` keeps (Card Commons: an inversion with one
discard, the card its mover can best spare, instead of up to eleven inversions that differ
only in the discard); playouts still draw from every legal move. A game without the hook
searches every move.

Estimates: with ``rollout_depth=N`` a playout stops after N actions; a game may declare
``estimate(state) -> list[float]``, each seat's expected return in
[-1, 1] for a full state, and the cut playout scores that (without it, a draw).

Compiled: on a game with a compiled engine (``games/<game>/compiled.py``, with numba, the
``quarkade[fast]`` extra) and playouts to the end, the search runs there
(``compiled_search.py``): the same search, its hidden part drawn by the compiled engine,
tens of times the iterations a second; ``compiled=0`` keeps it in Python.

Budgets: ``iterations=N`` (default 1000), ``time=SECONDS`` (as many iterations as fit), or
both (whichever runs out first: an iteration budget with a time cap, which keeps the bot
repeatable while it stays under the cap and promptly answering when the machine is slow).
With an iteration budget and the rng the match runner hands the bot, the same seed always
gives the same move.
"""

from __future__ import annotations

import math
import random
import time as _time
from collections.abc import Callable, Hashable
from functools import cache
from typing import Any

from quarkade.core.agent import Agent, Turn
from quarkade.core.errors import AgentSpecError
from quarkade.core.options import Option
from quarkade.core.protocol import CHANCE, State
from quarkade.core.registry import game_parts, has_numba
from quarkade.core.rng import sample_chance


class Node:
    """A tree node: statistics of the edge into it, and its children by key."""

    __slots__ = ("available", "children", "mover", "reward", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the seat that chose the edge into this node (CHANCE for chance)
        self.visits = 0
        self.reward = 0.0  # sum of the mover's rewards, each in [0, 1]
        self.available = 0  # times this edge was legal when its parent was visited
        self.children: dict[Hashable, Node] = {}


BUDGET = (
    Option("iterations", 0, "iterations a move (0 with no time either: 1000)", int,
           minimum=0, server_maximum=20_000),
    Option("time", 0.0, "seconds a move may search (0: no limit; with iterations, "
           "whichever runs out first)", float, minimum=0, server_maximum=5),
    Option("c", 1.4, "the exploration constant of UCB1", float, minimum=0,
           server_maximum=10),
    Option("rollout", "random", "how playouts play: random moves, or the game's greedy "
           "bot's", str, choices=("random", "greedy")),
    Option("rollout_depth", 0, "actions a playout plays before the game's estimate scores "
           "it (0: to the end)", int, minimum=0, server_maximum=1000),
)
COMPILED = Option("compiled", 1, "1: search on the game's compiled engine where it has one "
                  "(with numba); 0: in Python", int, minimum=0, maximum=1)


class _Search(Agent):
    """Shared budget handling, selection and playouts."""

    spec = "search"
    candidates = False  # search only the game's candidate moves (``MCTSAgent``)
    # What a time budget is measured with; tests set a clock they control.
    clock: Callable[[], float] = staticmethod(_time.perf_counter)

    def __init__(self, iterations: int = 0, time: float = 0.0, c: float = 1.4,
                 rollout: str = "random", rollout_depth: int = 0, compiled: int = 1) -> None:
        if not iterations and not time:
            iterations = 1000
        if iterations < 0 or time < 0 or c < 0 or rollout_depth < 0 or (
                not time and iterations < 1):
            raise AgentSpecError("iterations must be at least 1 (or 0 with a time); time, c "
                                 "and rollout_depth may not be negative")
        if rollout not in ("random", "greedy"):
            raise AgentSpecError(f"rollout={rollout!r}: the rollouts are random or greedy")
        if compiled not in (0, 1):
            raise AgentSpecError("compiled is 1 (search on the game's compiled engine, if it "
                                 "has one) or 0 (in Python)")
        self.compiled = bool(compiled)
        self.iterations = int(iterations)
        self.time = float(time)
        self.c = float(c)
        self.rollout = rollout
        self.rollout_depth = int(rollout_depth)
        self.last_iterations = 0
        self.last_root: Node | None = None

    def act(self, turn: Turn, rng: random.Random) -> int:
        if len(turn.legal_actions) == 1:
            self.last_iterations = 0
            return turn.legal_actions[0]
        if self._on_compiled(turn.game):
            return self._act_compiled(turn, rng)
        root = Node(CHANCE)
        now = self.clock
        deadline = now() + self.time if self.time else 0.0
        limit = self.iterations
        done = 0
        while True:
            self._iterate(root, turn, rng)
            done += 1
            if (limit and done >= limit) or (deadline and now() >= deadline):
                break
        self.last_iterations = done
        self.last_root = root
        best = max(turn.legal_actions,
                   key=lambda a: (root.children[a].visits, root.children[a].reward)
                   if a in root.children else (-1, 0.0))
        return best

    def _iterate(self, root: Node, turn: Turn, rng: random.Random) -> None:
        raise NotImplementedError

    def _on_compiled(self, game: Any) -> bool:
        """Whether this search runs on the game's compiled engine (see the docstring)."""
        return (self.compiled and not self.rollout_depth and _has_compiled_search(game.name))

    def _act_compiled(self, turn: Turn, rng: random.Random) -> int:
        from quarkade.agents import compiled_search

        hidden = isinstance(self, ISMCTSAgent) and not turn.game.perfect_information
        action, done, children = compiled_search.run(
            turn.game.name, turn.sample_state(rng), turn.player, hidden, turn.legal_actions,
            self.iterations, self.time, self.clock, self.c, self.rollout, rng,
            self.candidates)
        self.last_iterations = done
        root = Node(CHANCE)
        root.visits = done
        for key, (visits, reward) in children.items():
            child = root.children[key] = Node(turn.player)
            child.visits, child.reward = visits, reward
        self.last_root = root
        return action

    def _ucb(self, node: Node, keys: list[Any]) -> Any:
        """The child key with the best UCB1 score, all children having been tried."""
        c = self.c
        log = math.log
        sqrt = math.sqrt
        best_key = keys[0]
        best = -1.0
        for key in keys:
            child = node.children[key]
            score = child.reward / child.visits + c * sqrt(log(child.available) / child.visits)
            if score > best:
                best, best_key = score, key
        return best_key

    def _chance_child(self, node: Node, key: Hashable) -> tuple[Node, bool]:
        """The child for a sampled chance outcome, and whether it was just added."""
        child = node.children.get(key)
        if child is None:
            child = node.children[key] = Node(CHANCE)
            return child, True
        return child, False

    def _choose(self, node: Node, keys: list[Any], player: int,
                rng: random.Random) -> tuple[Any, Node, bool]:
        """At a decision of ``player`` with these keys available: count their availability,
        then an untried key (added as a child) or the UCB1 best. Returns (key, child,
        whether the child was just added)."""
        children = node.children
        untried = []
        for key in keys:
            existing = children.get(key)
            if existing is None:
                untried.append(key)
            else:
                existing.available += 1
        if untried:
            key = self._draw_untried(untried, player, rng)
            child = children[key] = Node(player)
            child.available = 1
            return key, child, True
        key = self._ucb(node, keys)
        return key, children[key], False

    # The search's random draws, each in one place: the compiled search makes the same
    # ones from its own streams (tests/agents/test_compiled_search.py feeds this search
    # those and compares the trees node for node).

    def _draw_world(self, turn: Turn, rng: random.Random) -> State:
        """The full state an iteration starts from: one the searching seat cannot tell
        from the real one (a copy, where nothing is hidden)."""
        return turn.sample_state(rng)

    def _draw_untried(self, untried: list[Any], player: int, rng: random.Random) -> Any:
        """Which untried move of ``player`` (a key of ``untried``) an iteration adds."""
        return rng.choice(untried)

    def _draw_chance(self, state: State, rng: random.Random) -> int:
        """A chance outcome on the way down the tree, by its probability."""
        return sample_chance(state, rng)

    @staticmethod
    def _backup(path: list[Node], rewards: list[float]) -> None:
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.reward += rewards[visited.mover]

    def _playout(self, state: State, rng: random.Random) -> list[float]:
        limit = self.rollout_depth or -1
        greedy = self.rollout == "greedy"
        policy = self._rollout_policy(state)
        # Bound methods and locals: this loop is where search spends most of its time.
        is_terminal = state.is_terminal
        is_chance = state.is_chance_node
        apply = state.apply_action
        legal = state.legal_actions
        outcomes = state.chance_outcomes
        choice = rng.choice
        uniform = rng.random
        while limit and not is_terminal():
            limit -= 1
            if is_chance():
                point = uniform()
                for action, probability in outcomes():  # noqa: B007 (used after the loop)
                    point -= probability
                    if point < 0.0:
                        break
                apply(action)
            elif greedy:
                apply(policy(state, rng))
            else:
                apply(choice(legal()))
        if not is_terminal():  # cut short by rollout_depth: the game's estimate, if any
            estimate = game_parts(state.game.name).estimate
            if estimate is not None:
                return [(r + 1.0) / 2.0 for r in estimate(state)]
        return [(r + 1.0) / 2.0 for r in state.returns()]

    def _rollout_policy(self, state: State) -> Any:
        """The game's greedy playout policy, for ``rollout=greedy`` (random without one)."""
        if self.rollout != "greedy":
            return None
        policy = game_parts(state.game.name).rollout
        if policy is None:
            raise AgentSpecError(f"{state.game.name} has no greedy playout policy; "
                                 "use rollout=random")
        return policy


class MCTSAgent(_Search):
    """UCT with sampled chance outcomes, for open-information games."""

    spec = "mcts"
    title = "Search bot"
    about = ("Plays many games out from each move and keeps the move that wins most often.")
    parameters = (
        *BUDGET,
        Option("endgame", 1, "1: play the game's solver's move where it solves the "
               "position; 0: search there too", int, minimum=0, maximum=1),
        COMPILED,
        Option("candidates", 0, "1: search only the game's candidate moves; 0: every "
               "legal move", int, minimum=0, maximum=1),
    )

    def __init__(self, iterations: int = 0, time: float = 0.0, c: float = 1.4,
                 rollout: str = "random", rollout_depth: int = 0, endgame: int = 1,
                 compiled: int = 1, candidates: int = 0) -> None:
        super().__init__(iterations, time, c, rollout, rollout_depth, compiled)
        if endgame not in (0, 1) or candidates not in (0, 1):
            raise AgentSpecError("endgame and candidates are 1 (on) or 0 (off)")
        self.endgame = bool(endgame)
        self.candidates = bool(candidates)

    def act(self, turn: Turn, rng: random.Random) -> int:
        if self.endgame and len(turn.legal_actions) > 1:
            solver = game_parts(turn.game.name).endgame
            if solver is not None:
                solved: int | None = solver(turn.sample_state(rng), rng)
                if solved is not None:
                    self.last_iterations = 0
                    return solved
        return super().act(turn, rng)

    def _iterate(self, root: Node, turn: Turn, rng: random.Random) -> None:
        state = self._draw_world(turn, rng)  # a copy: nothing is hidden in these games
        node = root
        path = [root]
        expanded = False
        while not expanded and not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = self._draw_chance(state, rng)
                node, expanded = self._chance_child(node, action)
            else:
                legal = state.legal_actions()
                if self.candidates:
                    legal = self._candidate_actions(state, legal)
                action, node, expanded = self._choose(node, legal, player, rng)
            state.apply_action(action)
            path.append(node)
        self._backup(path, self._playout(state, rng))

    def _candidate_actions(self, state: State, legal: list[int]) -> list[int]:
        prune = game_parts(state.game.name).candidate_actions
        return legal if prune is None else prune(legal)


class ISMCTSAgent(_Search):
    """Single-observer information-set MCTS: samples a full state from its view each time."""

    spec = "ismcts"
    title = "Guessing search bot"
    about = ("Like the search bot, but guesses the cards it cannot see afresh for every game it "
             "plays out.")
    parameters = (*BUDGET, COMPILED)

    def _iterate(self, root: Node, turn: Turn, rng: random.Random) -> None:
        me = turn.player
        state = self._draw_world(turn, rng)
        node = root
        path = [root]
        expanded = False
        while not expanded and not state.is_terminal():
            player = state.current_player()
            if player == CHANCE:
                action = self._draw_chance(state, rng)
                node, expanded = self._chance_child(node, state.action_string_for(me, action))
            else:
                legal = state.legal_actions()
                if player == me:  # a seat always knows its own decisions
                    key, node, expanded = self._choose(node, legal, player, rng)
                    action = key
                else:  # another seat's decisions, as this seat would see them
                    keyed: dict[Hashable, list[int]] = {}
                    for a in legal:
                        keyed.setdefault(state.action_string_for(me, a), []).append(a)
                    key, node, expanded = self._choose(node, list(keyed), player, rng)
                    # Moves this seat cannot tell apart (a face-down noun: which one?) are
                    # equally likely; always the first would make a kiki of every one.
                    group = keyed[key]
                    action = group[0] if len(group) == 1 else rng.choice(group)
            state.apply_action(action)
            path.append(node)
        self._backup(path, self._playout(state, rng))


@cache
def _has_compiled_search(game: str) -> bool:
    """Whether ``game`` has a compiled engine the search can run on, numba installed."""
    if not has_numba():
        return False
    from quarkade.agents.compiled_search import GAMES

    return game in GAMES


def search_stats(agent: Any) -> dict[str, Any]:
    """Visits and mean reward of the root's children after the last move (for display)."""
    root: Node | None = getattr(agent, "last_root", None)
    if root is None:
        return {}
    return {str(k): {"visits": c.visits, "reward": c.reward / c.visits if c.visits else 0.0}
            for k, c in root.children.items()}
