"""Hadronize bots: what greedy chooses, and that it beats random."""

import random

import pytest

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.games.hadronize.bots import RolloutAgent
from quarkade.games.hadronize.notation import OBSERVE_BASE
from quarkade.games.hadronize.policy import greedy_action
from quarkade.sim import play_match
from tests.agents.test_search import SteppingClock
from tests.games.hadronize.helpers import dealt


def _choice(state, spec="greedy", seed=0):
    state.apply_action(state.string_to_action("superpose c/s/u"))
    return state.action_to_string(make_agent(spec, "hadronize").act(turn_for(state),
                                                                      random.Random(seed)))


def test_greedy_takes_the_winning_hadronization():
    state = dealt([["charm", "strange", "up", "top"], ["strange"] * 4], goal=2)
    assert _choice(state) == "observe 0"  # any of c/s/u hadronizes 2 and wins


def test_greedy_tunnels_a_big_pile_away_from_the_opponent():
    state = dealt([["down", "down", "bottom", "bottom"], ["strange", "charm", "up", "top"]])
    # Seat 1 holds one of each of c/s/u: whatever collapses, two quarks tunnel to seat 0.
    assert _choice(state) == "observe 1"


def test_greedy_reads_only_its_view():
    state = dealt([["charm"] * 4, ["strange"] * 4])
    state.apply_action(state.string_to_action("superpose c/s/u"))
    turn = turn_for(state)
    assert turn.view == state.view(0)
    assert make_agent("greedy", "hadronize").act(turn, random.Random(1)) in turn.legal_actions


@pytest.mark.parametrize("players", [2, 4])
def test_greedy_beats_random(players):
    game = load_game("hadronize", players=players)
    wins = 0
    games = 120
    for seed in range(games):
        seat = seed % players
        agents = [make_agent("random", "hadronize") for _ in range(players)]
        agents[seat] = make_agent("greedy", "hadronize")
        final, _ = play_match(game, agents, seed=seed)
        wins += final.returns()[seat] > 0
    # Fair share is 1/players; greedy wins well over half the games in both settings.
    assert wins / games > 0.6


def test_ev_observes_where_it_hadronizes_the_most():
    # Seat 0 holds charm and strange: observing itself hadronizes 2 on two of three
    # collapses; observing seat 1 hadronizes nothing for seat 0.
    state = dealt([["charm", "strange", "down", "down"], ["up"] * 4])
    assert _choice(state, "ev") == "observe 0"


def test_ev_keeps_the_quark_when_nothing_hadronizes():
    # Nothing of c/s/u in either chamber of seat 0: no choice hadronizes, so it observes
    # itself, where greedy would rather tunnel two quarks to seat 1.
    state = dealt([["down"] * 4, ["strange", "charm", "up", "top"]])
    assert _choice(state, "ev") == "observe 0"


def test_rollout_takes_the_winning_hadronization_and_repeats_itself():
    state = dealt([["charm", "strange", "up", "top"], ["strange"] * 4, ["down"] * 4], goal=2)
    assert _choice(state, "rollout:playouts=8") == "observe 0"
    again = dealt([["top", "bottom", "down", "down"], ["strange", "charm", "up", "top"],
                   ["strange"] * 4])
    spec = "rollout:playouts=12"
    assert _choice(again.clone(), spec, seed=4) == _choice(again, spec, seed=4)


@pytest.mark.parametrize(("engine", "each"), [(1, RolloutAgent.BATCH), (0, 1)])
def test_rollout_keeps_to_its_time(engine, each):
    """rollout reads its clock before each batch of playouts but the first (a batch is
    ``BATCH`` playouts on the compiled engine, one in Python) and stops at the first
    reading past its deadline. With a clock that moves an eighth of the time at each
    reading, that is the tenth reading, after nine batches."""
    state = dealt([["top", "bottom", "down", "down"]] + [["strange", "charm", "up", "top"]] * 5)
    state.apply_action(state.string_to_action("superpose c/s/u"))
    agent = make_agent(f"rollout:playouts=100000,time=0.05,compiled={engine}", "hadronize")
    agent.clock = SteppingClock(0.05 / 8)
    assert agent.act(turn_for(state), random.Random(0)) in state.legal_actions()
    assert agent.last_playouts == 9 * each
    assert agent.clock.readings == 10


def _tunnel_or_keep():
    """Seat 0 to move, u/d/c superposed, goal 3. Observing itself hadronizes two on an
    up collapse (greedy's value 0.77); observing seat 1, which holds one each of u, d and
    c, tunnels two quarks to seat 0 whatever collapses (0.70). greedy keeps the quark;
    the look-ahead finds the sure tunnel better by about 0.14 of a win (30,000 paired
    playouts: 0.153 against 0.009)."""
    state = dealt([["top", "up", "top", "strange"], ["charm", "bottom", "up", "down"],
                   ["charm", "top", "up", "top"]], goal=3)
    state.apply_action(state.string_to_action("superpose u/d/c"))
    return turn_for(state)


@pytest.mark.parametrize("spec", ["rollout:playouts=3000,margin=2",
                                  "rollout:playouts=300,compiled=0"])
def test_rollout_overrules_greedy_where_the_look_ahead_says_so(spec):
    turn = _tunnel_or_keep()
    assert greedy_action(turn.view, turn.legal_actions, random.Random(0)) == OBSERVE_BASE
    agent = make_agent(spec, "hadronize")
    assert agent.act(turn, random.Random(1)) == OBSERVE_BASE + 1
    assert agent.last_playouts == agent.playouts


def test_rollout_keeps_greedys_choice_within_its_margin():
    # The same gain, but asked to clear 100 standard errors: greedy's choice stands.
    agent = make_agent("rollout:playouts=500,margin=100", "hadronize")
    assert agent.act(_tunnel_or_keep(), random.Random(1)) == OBSERVE_BASE
    assert max(agent.last_totals, key=agent.last_totals.get) == OBSERVE_BASE + 1


def test_hard_plays_perfectly_where_the_game_is_solved():
    # Two seats, goal 3: mcts's endgame hook answers with the solved game's best move
    # before any iteration (the hard level is perfect play there).
    from quarkade.core.rng import sample_chance
    from quarkade.games.hadronize.bots import _observer_values
    from quarkade.games.hadronize.notation import OBSERVE_BASE

    hard = make_agent("mcts:iterations=300,rollout=greedy,time=1.8", "hadronize")
    rng = random.Random(3)
    game = load_game("hadronize", players=2, goal=3)
    checked = 0
    for _ in range(30):
        state = game.new_initial_state()
        for _ in range(rng.randrange(4, 30)):
            if state.is_terminal():
                break
            state.apply_action(sample_chance(state, rng) if state.is_chance_node() else
                               rng.choice(state.legal_actions()))
        if state.is_terminal() or state.is_chance_node():
            continue
        if state.legal_actions()[0] < OBSERVE_BASE:
            continue
        me = state.current_player()
        stay, send = _observer_values(state.view(me))
        chosen = hard.act(turn_for(state), rng)
        assert hard.last_iterations == 0
        assert (stay if chosen - OBSERVE_BASE == me else send) == max(stay, send)
        checked += 1
    assert checked >= 5
