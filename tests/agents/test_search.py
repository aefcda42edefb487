"""Search bots (mcts, ismcts) and difficulty levels, on every game that has landed."""

import random

import pytest

import quarkade
from quarkade.agents import make_agent, turn_for
from quarkade.agents.registry import LEVEL_NAMES, ByPlayersAgent, levels
from quarkade.agents.search import _Search
from quarkade.core.errors import AgentSpecError
from quarkade.core.registry import has_numba
from quarkade.core.rng import sample_chance
from quarkade.games.hadronize.bots import RolloutAgent
from quarkade.sim import play_match

ANN_SEAT = 0


def midgame(name, seed=3, decisions=6, players=None):
    """A state a few decisions into a random game (of ``players`` seats, else the game's
    default), with a seat to move."""
    rng = random.Random(seed)
    game = quarkade.load_game(name) if players is None else \
        quarkade.load_game(name, players=players)
    state = game.new_initial_state()
    made = 0
    while True:
        while state.is_chance_node():
            state.apply_action(sample_chance(state, rng))
        if state.is_terminal():
            return midgame(name, seed + 1, decisions, players)
        if made == decisions:
            return state
        state.apply_action(rng.choice(state.legal_actions()))
        made += 1


def search_spec(name, budget):
    hidden = not quarkade.core.game_class(name).perfect_information
    return f"{'ismcts' if hidden else 'mcts'}:{budget}"


@pytest.mark.parametrize("name", quarkade.list_games())
def test_same_seed_same_moves(name):
    game = quarkade.load_game(name)
    spec = search_spec(name, "iterations=60")
    runs = [play_match(game, [make_agent(spec, name), make_agent("random", name)], seed=4)[0]
            for _ in range(2)]
    assert runs[0].history() == runs[1].history()


class SteppingClock:
    """A clock the test controls: each reading is ``step`` seconds after the last."""

    def __init__(self, step: float) -> None:
        self.now, self.step, self.readings = 0.0, step, 0

    def __call__(self) -> float:
        self.readings += 1
        self.now += self.step
        return self.now


@pytest.mark.parametrize("name", quarkade.list_games())
@pytest.mark.parametrize("algorithm", ["mcts", "ismcts"])
def test_a_time_budget_stops_the_search_at_its_deadline(name, algorithm):
    # The clock advances 0.01 s per reading: one reading sets the deadline, one follows
    # each iteration, so a 0.3 s budget allows exactly 30 iterations. (How long a real
    # second buys is a benchmark: bench/bench_search.py.)
    state = midgame(name)
    agent = make_agent(f"{algorithm}:time=0.3", name)
    agent.clock = SteppingClock(0.01)
    action = agent.act(turn_for(state), random.Random(0))
    assert action in state.legal_actions()
    assert agent.last_iterations == 30 and agent.clock.readings == 31


def test_iterations_with_a_time_cap_stop_at_whichever_comes_first():
    state = midgame("hadronize")
    capped = make_agent("mcts:iterations=50,time=5", "hadronize")
    capped.clock = SteppingClock(0.01)
    capped.act(turn_for(state), random.Random(0))
    assert capped.last_iterations == 50  # 0.5 s of the clock: the iterations ran out first
    hurried = make_agent("mcts:iterations=10000000,time=0.2", "hadronize")
    hurried.clock = SteppingClock(0.01)
    hurried.act(turn_for(state), random.Random(0))
    assert hurried.last_iterations == 20  # the deadline came first


@pytest.mark.parametrize("algorithm", ["mcts", "ismcts"])
def test_search_finds_the_winning_hadronization(algorithm):
    from tests.games.hadronize.helpers import dealt
    state = dealt([["charm", "strange", "up", "top"], ["down"] * 4], goal=2)
    state.apply_action(state.string_to_action("superpose c/s/u"))
    agent = make_agent(f"{algorithm}:iterations=200", "hadronize")
    assert state.action_to_string(agent.act(turn_for(state), random.Random(0))) == "observe 0"


def test_bad_search_parameters_are_refused():
    with pytest.raises(AgentSpecError, match="iterations='-1' is not allowed; it takes a "
                                             "whole number of at least 0"):
        make_agent("mcts:iterations=-1", "hadronize")
    with pytest.raises(AgentSpecError, match="time='-1' is not allowed; it takes a number "
                                             "of at least 0"):
        make_agent("ismcts:time=-1", "hadronize")
    with pytest.raises(AgentSpecError, match="time='nan' is not allowed"):
        make_agent("mcts:time=nan", "hadronize")
    with pytest.raises(AgentSpecError, match="it takes one of random, greedy"):
        make_agent("mcts:rollout=smart", "hadronize")
    with pytest.raises(AgentSpecError, match="agent 'mcts' has no parameter 'depth'; its "
                                             "parameters are: iterations, time, c"):
        make_agent("mcts:depth=2", "hadronize")


@pytest.mark.parametrize("name", quarkade.list_games())
def test_every_level_makes_an_agent(name):
    mapping = levels(name)
    assert set(mapping) == set(LEVEL_NAMES)
    state = midgame(name)
    for level in LEVEL_NAMES:
        agent = make_agent(level, name)
        assert agent.spec == level
    for level in ("easy", "medium"):  # hard: test_the_hard_level_keeps_to_its_budget
        assert make_agent(level, name).act(turn_for(state), random.Random(0)) in \
            state.legal_actions()


def hard_levels():
    """(game, players, spec) for the bot behind each game's hard level, at every table
    size the level tells apart (the first count past those listed for ``"more"``)."""
    for name in quarkade.list_games():
        spec = levels(name)["hard"]
        if isinstance(spec, str):
            yield name, quarkade.core.game_class(name).min_players, spec
            continue
        for count, each in spec.items():
            counts = [c for c in spec if c != "more"]
            yield name, max(counts) + 1 if count == "more" else count, each


# Each hard level with a time budget, and a bot that keeps to it by the clock it is given.
TIMED = [case for case in hard_levels() if "time=" in case[2]]


@pytest.mark.parametrize(("name", "players", "spec"), TIMED,
                         ids=[f"{n}-{p}" for n, p, _ in TIMED])
def test_the_hard_level_keeps_to_its_budget(name, players, spec):
    """The hard level's bot stops when its time budget runs out on the clock it is given:
    here one that moves an eighth of the budget at each reading. (The levels without a
    time budget, Dead Cat's sleuth and Decoherence's lookahead, do a fixed amount of work
    set by their parameters; what a move costs in seconds is measured by
    bench/bench_search.py, never asserted here.)"""
    state = midgame(name, players=players)
    level = make_agent("hard", name)
    chosen = level.spec_for(players) if isinstance(level, ByPlayersAgent) else \
        levels(name)["hard"]
    assert chosen == spec  # the spec under test is the one the level plays at this table
    agent = make_agent(spec, name)
    agent.clock = SteppingClock(agent.time / 8)
    assert agent.act(turn_for(state), random.Random(0)) in state.legal_actions()
    if isinstance(agent, _Search):
        # One reading sets the deadline and one follows each iteration: the ninth reading
        # is the first at or past the deadline, after the eighth iteration.
        assert agent.last_iterations == 8 < agent.iterations
        assert agent.clock.readings == 9
    else:
        # rollout reads the clock before each batch of playouts but the first, and stops
        # at the first reading past the deadline: the tenth, after nine batches.
        assert isinstance(agent, RolloutAgent) and agent.compiled and has_numba()
        assert agent.last_playouts == 9 * RolloutAgent.BATCH < agent.playouts
        assert agent.clock.readings == 10


def test_every_game_has_a_hard_level_and_the_timed_ones_are_tested():
    cases = list(hard_levels())
    assert {name for name, _, _ in cases} == set(quarkade.list_games())
    assert {(name, players) for name, players, _ in TIMED} >= {
        ("hadronize", 2), ("hadronize", 3), ("card-commons", 2)}


def test_ismcts_plays_moves_it_cannot_tell_apart_equally_often(monkeypatch):
    """Ann's search reaches Bob's turn, where he may complete his chain with a face-down
    noun: one node for her, a move per noun he holds for him. The move played for that
    node is any of them alike (it used to be the lowest id, the kiki whenever he held
    one): over the search, the lowest is played as often as chance says."""
    from quarkade.games.decoherence.notation import NOUN_BASE
    from quarkade.games.decoherence.rules import DecoherenceState
    from tests.games.decoherence.helpers import BOB, scene

    state = scene((BOB, ["verved down lulu"]), (ANN_SEAT, ["verved down lulu"]),
                  (BOB, ["verb riffed -> chain 1", "qualifier through -> chain 1"]),
                  (ANN_SEAT, []))
    lowest, expected, seen = 0, 0.0, 0
    apply = DecoherenceState.apply_action

    def spy(self, action):
        nonlocal lowest, expected, seen
        if self.current_player() == BOB and NOUN_BASE <= action < NOUN_BASE + 3:
            options = [a for a in self.legal_actions() if NOUN_BASE <= a < NOUN_BASE + 3]
            if len(options) > 1:
                seen += 1
                lowest += action == options[0]
                expected += 1 / len(options)
        apply(self, action)

    monkeypatch.setattr(DecoherenceState, "apply_action", spy)
    agent = make_agent("ismcts:iterations=3000,rollout_depth=1", "decoherence")
    agent.act(turn_for(state), random.Random(4))
    assert seen > 200
    spread = (expected * (1 - expected / seen)) ** 0.5
    assert abs(lowest - expected) < 4 * spread, (lowest, expected, seen)
