"""The fast path of each game's encoding: ``encode_state(state, seat)`` writes exactly the
floats of ``encode(state.view(seat))`` without building the view, so an adapter that uses
it can show a seat no more than its view does.

Hypothesis plays games of every game, player count and variant (and a few more options:
random Decoherence decks, other presets, Hadronize's goal and turn cap), with random moves
or mostly the greedy bot's, and compares the two at every position for every seat and the
spectator, in each form an adapter hands out: the list, the float32 array of PettingZoo
and Gymnasium (``Observations``) and OpenSpiel's observer tensors, the observer reused
from position to position as OpenSpiel reuses it. Right after every hidden draw it also
compares them in states resampled for each seat.
"""

import dataclasses
import random

import numpy as np
import pyspiel
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import quarkade
from quarkade import SPECTATOR, IllegalActionError
from quarkade.adapters import Observations, encoding
from quarkade.adapters.openspiel import short_name
from quarkade.agents.registry import game_agents, make_agent
from quarkade.core.agent import turn_for
from quarkade.core.registry import game_part
from quarkade.core.rng import sample_chance
from tests.adapters.cases import CASES, HIDDEN

MORE = [
    ("decoherence", {"players": 2, "deck0": "random", "deck1": "random"}),
    ("decoherence", {"players": 2, "deck0": "random", "deck1": "weaver",
                     "open_decklists": True}),
    ("decoherence", {"players": 2, "deck0": "surge", "deck1": "observer"}),
    ("hadronize", {"players": 3, "goal": 4, "max_turns": 9}),
    ("hadronize", {"players": 6, "goal": 25, "max_turns": 40}),
]
FAST_CASES = CASES + MORE
FAST_IDS = [f"{name}-" + "-".join(f"{k}={v}" for k, v in options.items())
            for name, options in FAST_CASES]
PUBLIC = pyspiel.IIGObservationType(perfect_recall=False,
                                    private_info=pyspiel.PrivateInfoType.NONE)
PRIVATE = pyspiel.IIGObservationType(perfect_recall=False)


class Checker:
    """Compares the fast path with the encoded view of one game, in every form."""

    def __init__(self, spiel_game):
        self.game = spiel_game.quarkade
        self.module = game_part(self.game.name, "encode")
        self.observations = Observations(self.game)
        self.private = spiel_game.make_py_observer(PRIVATE)
        self.public = spiel_game.make_py_observer(PUBLIC)
        self.viewers = [*range(self.game.num_players), SPECTATOR]

    def engine_state(self, state):
        for seat in self.viewers:
            expected = self.module.encode(state.view(seat))
            assert self.module.encode_state(state, seat) == expected, seat
            array = self.observations.observation(state, seat)
            assert array.dtype == np.float32
            assert np.array_equal(array, np.array(expected, np.float32)), seat

    def spiel_state(self, spiel_state):
        state = spiel_state.quarkade_state
        self.engine_state(state)
        for seat in range(self.game.num_players):
            self.private.set_from(spiel_state, seat)
            expected = np.array(self.module.encode(state.view(seat)), np.float32)
            assert np.array_equal(self.private.tensor, expected), seat
        self.public.set_from(spiel_state, 0)
        expected = np.array(self.module.encode(state.view(SPECTATOR)), np.float32)
        assert np.array_equal(self.public.tensor, expected)


def hidden(state, action):
    """Whether some seat (or the spectator) cannot see which chance ``action`` this is."""
    shown = state.action_to_string(action)
    return any(state.action_string_for(p, action) != shown
               for p in [*range(state.game.num_players), SPECTATOR])


def walk(name, options, seed, greedy):
    """Play one game (the greedy bot's move with probability ``greedy``, else a random
    one), checking every position; returns how many hidden draws it checked after."""
    spiel_game = pyspiel.load_game(short_name(name), options)
    check = Checker(spiel_game)
    game = check.game
    bot = make_agent("greedy", name) if "greedy" in game_agents(name) else None
    rng = random.Random(seed)
    spiel_state = spiel_game.new_initial_state()
    hidden_draws = 0
    while True:
        check.spiel_state(spiel_state)
        state = spiel_state.quarkade_state
        if state.is_terminal():
            return hidden_draws
        if state.is_chance_node():
            action = sample_chance(state, rng)
            secret = hidden(state, action)
            spiel_state.apply_action(action)
            if secret:  # right after a hidden draw: also in the worlds each seat imagines
                hidden_draws += 1
                for seat in range(game.num_players):
                    check.engine_state(spiel_state.quarkade_state.resample(seat, rng))
            continue
        if bot is not None and rng.random() < greedy:
            action = bot.act(turn_for(state), rng)
        else:
            action = rng.choice(state.legal_actions())
        spiel_state.apply_action(action)


@pytest.mark.parametrize(("name", "options"), FAST_CASES, ids=FAST_IDS)
@given(seed=st.integers(0, 2**32 - 1), greedy=st.sampled_from([0.0, 0.8]))
@settings(max_examples=8)
def test_encode_state_writes_exactly_the_encoded_view(name, options, seed, greedy):
    walk(name, options, seed, greedy)


HIDDEN_CASES = [(case, ident) for case, ident in zip(FAST_CASES, FAST_IDS, strict=True)
                if case[0] in HIDDEN]


@pytest.mark.parametrize(("name", "options"), [case for case, _ in HIDDEN_CASES],
                         ids=[ident for _, ident in HIDDEN_CASES])
def test_the_walk_checks_positions_right_after_hidden_draws(name, options):
    assert walk(name, options, seed=1, greedy=0.0) > 0


@pytest.mark.parametrize("name", quarkade.list_games())
def test_every_game_offers_the_fast_path(name):
    assert encoding(quarkade.load_game(name)).encode_state is not None


@pytest.mark.parametrize("name", quarkade.list_games())
def test_without_a_fast_path_the_adapters_encode_the_view(name):
    game = quarkade.load_game(name)
    state = game.new_initial_state()
    rng = random.Random(2)
    for _ in range(12):
        state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                           else rng.choice(state.legal_actions()))
    fast = Observations(game).observation(state, 0)
    slow = Observations(game)
    slow.coding = dataclasses.replace(slow.coding, encode_state=None)
    assert np.array_equal(slow.observation(state, 0), fast)
    spiel_game = pyspiel.load_game(short_name(name))
    observer = spiel_game.make_py_observer(PRIVATE)
    spiel_state = spiel_game.new_initial_state()
    for action in state.history():
        spiel_state.apply_action(action)
    observer.set_from(spiel_state, 0)
    assert np.array_equal(observer.tensor, fast)


@pytest.mark.parametrize("name", quarkade.list_games())
def test_an_unknown_seat_is_refused_as_the_view_refuses_it(name):
    game = quarkade.load_game(name)
    observations = Observations(game)
    state = game.new_initial_state()
    for seat in (game.num_players, -1):
        with pytest.raises(IllegalActionError, match="seat"):
            observations.observation(state, seat)
