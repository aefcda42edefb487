"""mcts and ismcts on the compiled engines (``quarkade.agents.compiled_search``): the same
search as in Python, node for node, and a compiled resample that knows only what its seat
knows."""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from scipy.stats import chisquare

import quarkade
from quarkade.agents import compiled_search, make_agent, turn_for
from quarkade.agents.search import ISMCTSAgent, MCTSAgent, Node
from quarkade.core import jit
from quarkade.core.errors import AgentSpecError
from quarkade.games.card_commons import compiled as card_commons_compiled
from quarkade.games.dead_cat import compiled
from tests.agents.test_search import midgame
from tests.twins import history_with_secrets, twin_history


def replayed(game, history):
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def unseen_cards(array: np.ndarray, seat: int) -> tuple[int, ...]:
    deck = array[compiled.DECK]
    return tuple(int(array[compiled.CARDS + i]) for i in range(deck)
                 if array[compiled.PEEKERS + i] != seat)


@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_resample_gives_twins_the_same_draws(players):
    game = quarkade.load_game("dead-cat", players=players)
    rng = random.Random(players)
    apart = 0  # twins whose compiled states differ (in what the seat cannot see)
    for seed in range(12):
        seat = seed % players
        history = history_with_secrets(game, seat, rng, 8 + seed)
        twin = twin_history(game, history, seat, random.Random(seed))
        arrays = [compiled.to_compiled(replayed(game, h)) for h in (history, twin)]
        apart += not (arrays[0] == arrays[1]).all()
        for draw in range(5):
            drawn = []
            for array in arrays:
                streams = np.zeros(players + 1, np.uint64)
                jit.seed_streams(streams, draw)
                copy = array.copy()
                compiled.resample(copy, seat, streams)
                drawn.append(copy)
            assert (drawn[0] == drawn[1]).all()
    # Equal draws from equal states would prove nothing: most twins' states differ.
    assert apart >= 9, apart


def test_the_compiled_resample_draws_as_the_reference_resample():
    """Both draw the unseen cards of the round with the chances of drawing them one by one
    from the cards the seat has not seen (DC-3): checked against those chances exactly."""
    game = quarkade.load_game("dead-cat", players=3, peek_first=True)
    rng = random.Random(5)
    state = game.new_initial_state()
    while len(unseen_cards(compiled.to_compiled(state), 0)) < 4:  # seats that always peek
        legal = state.legal_actions()
        state.apply_action(rng.choice(legal) if state.is_chance_node() or 1 not in legal
                           else 1)
    array = compiled.to_compiled(state)
    exact = _chances(array, 0)
    reference = Counter(unseen_cards(compiled.to_compiled(state.resample(0, random.Random(i))),
                                     0) for i in range(3000))
    streams = np.zeros(4, np.uint64)
    jit.seed_streams(streams, 1)
    ours: Counter[tuple[int, ...]] = Counter()
    for _ in range(200_000):
        copy = array.copy()
        compiled.resample(copy, 0, streams)
        ours[unseen_cards(copy, 0)] += 1
    for drawn in (reference, ours):
        assert set(drawn) <= set(exact)
        total = sum(drawn.values())
        observed = [drawn[p] for p in exact]
        expected = [total * exact[p] for p in exact]
        assert chisquare(observed, expected).pvalue > 1e-4
    copy = array.copy()
    compiled.resample(copy, 0, streams)
    assert copy[compiled.DEAD_CATS] == sum(copy[compiled.CARDS:compiled.CARDS +
                                                copy[compiled.DECK]])


def _chances(array: np.ndarray, seat: int) -> dict[tuple[int, ...], float]:
    """Each way the cards ``seat`` has not seen may lie, with its chance."""
    players = int(array[compiled.PLAYERS])
    seen = [int(array[compiled.CARDS + i]) for i in range(array[compiled.DECK])
            if array[compiled.PEEKERS + i] == seat]
    pool, dead = 5 * players - len(seen), players - sum(seen)
    chances = {(): 1.0}
    for _ in range(len(unseen_cards(array, seat))):
        grown = {}
        for pattern, chance in chances.items():
            left, dead_left = pool - len(pattern), dead - sum(pattern)
            if dead_left:
                grown[(*pattern, 1)] = chance * dead_left / left
            if left > dead_left:
                grown[(*pattern, 0)] = chance * (left - dead_left) / left
        chances = grown
    return chances


# -- the same search, node for node -------------------------------------------------------


class LockStep:
    """``search.py``'s search with its random draws made as ``compiled_search.search``
    makes them, from the same random streams and by the same dispatchers: the world
    (drawn again from the root when something is hidden), the untried move to add
    (stream 1 + the seat deciding), a chance outcome on the way down, and the playout
    (on the compiled engine, every seat playing ``policy``). Everything else (selection,
    availability counts, expansion, backup, keys, the move chosen) is search.py's own."""

    def __init__(self, name: str, root: np.ndarray, streams: np.ndarray, policy: int):
        self.game_id = compiled_search.GAMES[name]
        self.module = compiled_search.MODULES[name]
        self.root = root
        self.streams = streams
        self.players = int(root[0])
        self.policies = np.full(self.players, policy, np.int64)
        self.work = card_commons_compiled.new_work() if name == "card-commons" else \
            np.zeros((1, 1), np.int64)

    def agent(self, base: type, hidden: bool, **parameters):
        draws = self

        class Drawn(base):
            def _draw_world(self, turn, rng):
                array = draws.root.copy()
                if hidden:
                    compiled_search._resample(draws.game_id, array, turn.player, draws.streams)
                return draws.module.from_compiled(turn.game, array)

            def _draw_untried(self, untried, player, rng):
                return untried[int(jit.below(draws.streams, 1 + player, len(untried)))]

            def _draw_chance(self, state, rng):
                return int(compiled_search._sample(draws.game_id,
                                                   draws.module.to_compiled(state),
                                                   draws.streams))

            def _playout(self, state, rng):
                winners = compiled_search._play_out(draws.game_id,
                                                    draws.module.to_compiled(state),
                                                    draws.streams, draws.policies, draws.work)
                values = np.zeros(draws.players)
                jit.shared_returns(winners, draws.players, values)
                return [(value + 1.0) / 2.0 for value in values]

        return Drawn(compiled=0, **parameters)


def python_tree(node: Node) -> tuple:
    """A node's visits, reward sum and availability, and its children's, in an order
    that does not depend on their keys (ismcts keys by text, the compiled tree by id)."""
    return (node.visits, node.reward, node.available,
            tuple(sorted(python_tree(child) for child in node.children.values())))


def compiled_tree(tree: np.ndarray, rewards: np.ndarray, node: int) -> tuple:
    children = []
    child = tree[node, compiled_search.FIRST_CHILD]
    while child != compiled_search.NO_NODE:
        children.append(compiled_tree(tree, rewards, child))
        child = tree[child, compiled_search.NEXT]
    return (int(tree[node, compiled_search.VISITS]), float(rewards[node]),
            int(tree[node, compiled_search.AVAILABLE]), tuple(sorted(children)))


def compiled_root(tree: np.ndarray, rewards: np.ndarray) -> dict[int, tuple]:
    found = {}
    child = tree[0, compiled_search.FIRST_CHILD]
    while child != compiled_search.NO_NODE:
        found[int(tree[child, compiled_search.KEY])] = compiled_tree(tree, rewards, child)
        child = tree[child, compiled_search.NEXT]
    return found


LOCKSTEP = [("hadronize", 2, "mcts", "random", False), ("hadronize", 4, "mcts", "greedy", False),
            ("hadronize", 3, "ismcts", "random", False),
            ("card-commons", 2, "mcts", "random", False),
            ("card-commons", 2, "mcts", "greedy", False),
            ("card-commons", 2, "mcts", "random", True),
            ("dead-cat", 2, "ismcts", "random", False), ("dead-cat", 4, "ismcts", "greedy", False)]


@pytest.mark.parametrize(("name", "players", "algorithm", "rollout", "candidates"), LOCKSTEP)
@pytest.mark.parametrize("seed", [1, 2])
def test_compiled_and_python_search_build_the_same_tree_from_the_same_draws(
        name, players, algorithm, rollout, candidates, seed):
    """From the same position and random streams, the compiled search and search.py's
    (its draws made by the compiled streams: ``LockStep``) grow the same tree: every node's
    visits, reward sum and availability count, and so the same move. (Where cards are
    hidden each iteration starts from a world drawn again from the seat's view.)"""
    game = quarkade.load_game(name, players=players)
    state = midgame(name, seed, 6, players=players)
    turn = turn_for(state)
    hidden = not game.perfect_information
    module = compiled_search.MODULES[name]
    root = module.to_compiled(turn.sample_state(random.Random(seed)))
    iterations, c = 300, 0.9
    policy = module.AGENTS[rollout]
    streams = np.zeros(players + 1, np.uint64)
    jit.seed_streams(streams, seed)
    draws = LockStep(name, root, streams.copy(), policy)
    tree, rewards = compiled_search.new_tree(iterations + 2)
    compiled_search.search(compiled_search.GAMES[name], root, turn.player, hidden, iterations,
                           c, policy, streams, tree, rewards, 0, draws.work.copy(), candidates)
    expected = compiled_root(tree, rewards)

    parameters = {"iterations": iterations, "c": c, "rollout": rollout}
    if algorithm == "mcts":
        agent = draws.agent(MCTSAgent, hidden, endgame=0, candidates=int(candidates),
                            **parameters)
    else:
        agent = draws.agent(ISMCTSAgent, hidden, **parameters)
    action = agent.act(turn, random.Random(0))
    found = {key: python_tree(child) for key, child in agent.last_root.children.items()}
    assert found == expected
    assert agent.last_root.visits == int(tree[0, compiled_search.VISITS]) == iterations
    assert action == max(expected, key=lambda a: expected[a][:2])
    assert (draws.streams == streams).all()  # and both drew exactly as many numbers


@pytest.mark.parametrize("name", ["hadronize", "card-commons", "dead-cat"])
def test_a_compiled_search_counts_its_iterations_at_the_root(name):
    state = midgame(name)
    algorithm = "mcts" if quarkade.core.game_class(name).perfect_information else "ismcts"
    agent = make_agent(f"{algorithm}:iterations=500", name)
    action = agent.act(turn_for(state), random.Random(1))
    assert action in state.legal_actions() and agent.last_iterations == 500
    children = agent.last_root.children
    assert sum(child.visits for child in children.values()) == 500
    assert set(children) <= set(state.legal_actions())
    assert max(children, key=lambda a: (children[a].visits, children[a].reward)) == action
    python = make_agent(f"{algorithm}:iterations=50,compiled=0", name)
    assert python.act(turn_for(state), random.Random(1)) in state.legal_actions()
    assert sum(child.visits for child in python.last_root.children.values()) == 50


def test_compiled_is_zero_or_one():
    with pytest.raises(AgentSpecError, match="compiled='2' is not allowed; it takes 0 or 1"):
        make_agent("mcts:compiled=2", "hadronize")


@pytest.mark.parametrize("engine", [1, 0])
def test_candidates_searches_only_the_games_candidate_moves(engine):
    """``candidates=1``: Card Commons' tree holds one discard per inversion (greedy's
    ``candidate_actions``), each of them tried; without it the tree holds other discards."""
    from quarkade.games.card_commons.policy import candidate_actions

    # the first of these positions with inversions to choose a discard for
    state = next(s for s in (midgame("card-commons", seed, 8) for seed in range(20))
                 if len(candidate_actions(s.legal_actions())) < len(s.legal_actions()))
    legal = state.legal_actions()
    wanted = set(candidate_actions(legal))
    budget = 3 * len(wanted)
    pruned = make_agent(f"mcts:iterations={budget},endgame=0,candidates=1,compiled={engine}",
                        "card-commons")
    assert pruned.act(turn_for(state), random.Random(2)) in wanted
    assert set(pruned.last_root.children) == wanted
    full = make_agent(f"mcts:iterations={budget},endgame=0,compiled={engine}", "card-commons")
    full.act(turn_for(state), random.Random(2))
    assert set(full.last_root.children) - wanted


def test_candidates_leaves_a_game_without_the_hook_alone():
    state = midgame("hadronize")
    legal = state.legal_actions()
    budget = 4 * len(legal)
    for engine in (1, 0):
        agent = make_agent(f"mcts:iterations={budget},candidates=1,compiled={engine}",
                           "hadronize")
        agent.act(turn_for(state), random.Random(0))
        assert set(agent.last_root.children) == set(legal)
    with pytest.raises(AgentSpecError, match="candidates='2' is not allowed; it takes 0 or 1"):
        make_agent("mcts:candidates=2", "card-commons")
