"""Search bots never read the true state: states that differ only in what the bot's seat
cannot see get the same moves from the same seed (hidden-information games)."""

import random

import pytest

import quarkade
from quarkade.agents import make_agent, turn_for
from quarkade.agents.registry import levels, parse_spec
from quarkade.core.rng import sample_chance
from quarkade.sim import play_match
from tests.twins import NoTwin, twin_history

HIDDEN = [name for name in quarkade.list_games()
          if not quarkade.core.game_class(name).perfect_information]


def decision_points(name, seeds):
    """(state, its twin for the seat to move) at points along random games."""
    game = quarkade.load_game(name)
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, rng))
                continue
            if len(state.history()) > 12 and rng.random() < 0.3:
                seat = state.current_player()
                try:
                    history = twin_history(game, state.history(), seat, random.Random(seed))
                except NoTwin:  # nothing hidden from this seat yet
                    history = None
                if history is not None:
                    twin = game.new_initial_state()
                    for action in history:
                        twin.apply_action(action)
                    yield state.clone(), twin
            state.apply_action(rng.choice(state.legal_actions()))


@pytest.mark.parametrize("name", HIDDEN)
@pytest.mark.parametrize("spec", ["ismcts:iterations=80", "hard", "greedy"])
def test_same_decisions_whatever_the_hidden_cards(name, spec):
    if spec == "hard":  # the level's own bot, on an iteration budget so it is repeatable
        bot, params = parse_spec(levels(name)["hard"])
        if "time" in params:
            params = {**params, "time": "0", "iterations": "60"}
        spec = bot + (":" + ",".join(f"{k}={v}" for k, v in params.items()) if params else "")
    compared = 0
    for state, twin in decision_points(name, range(12)):
        seat = state.current_player()
        assert twin.current_player() == seat
        assert twin.view(seat) == state.view(seat)
        assert twin.history() != state.history()
        for seed in (1, 2):
            moves = [make_agent(spec, name).act(turn_for(s), random.Random(seed))
                     for s in (state, twin)]
            assert moves[0] == moves[1]
        compared += 1
        if compared >= 6:
            break
    assert compared >= 3



def decisions_along(game, history, seat, spec):
    """The moves one agent of ``spec`` makes for ``seat`` at each of its decisions along
    ``history`` and at its end (the history's own moves are played whatever the agent
    says), so an agent that remembers earlier turns is fed the whole game."""
    agent = make_agent(spec, game.name)
    state = game.new_initial_state()
    moves = []
    for action in [*history, None]:
        if state.current_player() == seat:
            moves.append(agent.act(turn_for(state), random.Random(len(moves))))
        if action is not None:
            state.apply_action(action)
    return moves


@pytest.mark.parametrize("peek_first", [False, True])
@pytest.mark.parametrize("spec", ["sleuth", "hard"])
def test_a_bot_that_remembers_decides_the_same_along_twin_games(spec, peek_first):
    # Dead Cat's sleuth keeps what it saw at its earlier turns (the dice before and after
    # the other seat's bets); fed a game and its twin, it must decide the same all along.
    # The games stop where the other seat's cards of the round are still face down.
    game = quarkade.load_game("dead-cat", players=2, peek_first=peek_first)
    compared = 0
    for seed in range(8):  # as written, rounds with greedy end before anyone peeks (DC-6)
        opponent = "greedy" if seed % 2 and peek_first else "random"
        final, _ = play_match(game, [make_agent(spec, "dead-cat"),
                                     make_agent(opponent, "dead-cat")], seed=seed)
        history = final.history()
        state = game.new_initial_state()
        stops = []
        for index, action in enumerate(history):
            if state.current_player() == 0 and any(
                    e["peeker"] == 1 for e in state.view(0)["time_deck"]):
                stops.append(index)
            state.apply_action(action)
        for stop in random.Random(seed).sample(stops, min(2, len(stops))):
            # The other seat's peek is still face down: there is always a twin.
            twin = twin_history(game, history[:stop], 0, random.Random(seed))
            assert decisions_along(game, history[:stop], 0, spec) == \
                decisions_along(game, twin, 0, spec)
            compared += 1
    assert compared >= 6
