"""The OpenSpiel adapter, checked by OpenSpiel's own random simulation test (with
serialization) for every game, player count and variant, and played by OpenSpiel's Python
MCTS (open information) and IS-MCTS (hidden information) bots."""

import random

import numpy as np
import pyspiel
import pytest
from open_spiel.python.algorithms import ismcts, mcts

import quarkade
from quarkade import SPECTATOR
from quarkade.adapters.openspiel import seeded_resampler, short_name
from tests.adapters.cases import CASES, HIDDEN, IDS, OPEN
from tests.twins import history_with_secrets, twin_history

NAMES = {name: short_name(name) for name in quarkade.list_games()}


def spiel_state(game, history):
    state = game.new_initial_state()
    for action in history:
        state.apply_action(action)
    return state


def random_history(game, seed, limit=10_000):
    rng = random.Random(seed)
    state = game.new_initial_state()
    while not state.is_terminal() and len(state.history()) < limit:
        if state.is_chance_node():
            actions, weights = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(rng.choices(actions, weights)[0])
        else:
            state.apply_action(rng.choice(state.legal_actions()))
    return state.history()


def test_every_game_is_registered_under_its_name():
    registered = set(pyspiel.registered_names())
    assert set(NAMES.values()) <= registered
    assert NAMES["dead-cat"] == "quarkade_dead_cat"


@pytest.mark.parametrize(("name", "options"), CASES, ids=IDS)
def test_openspiel_random_sim_test_passes_with_serialization(name, options):
    game = pyspiel.load_game(NAMES[name], options)
    assert game.num_players() == options["players"]
    pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)


@pytest.mark.parametrize("name", quarkade.list_games())
def test_the_game_type_says_how_the_game_is_played(name):
    cls = quarkade.core.game_class(name)
    game_type = pyspiel.load_game(NAMES[name]).get_type()
    assert game_type.chance_mode == pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
    assert game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
    assert game_type.dynamics == pyspiel.GameType.Dynamics.SEQUENTIAL
    information = (pyspiel.GameType.Information.PERFECT_INFORMATION if cls.perfect_information
                   else pyspiel.GameType.Information.IMPERFECT_INFORMATION)
    assert game_type.information == information
    assert (game_type.min_num_players, game_type.max_num_players) == (cls.min_players,
                                                                      cls.max_players)
    assert set(game_type.parameter_specification) == {o.name for o in cls.option_specs}


def test_options_are_game_parameters_and_are_honoured():
    game = pyspiel.load_game("quarkade_hadronize(players=4,goal=3,max_turns=9)")
    assert game.num_players() == 4
    assert game.max_game_length() == 9
    state = game.new_initial_state()
    assert state.quarkade_state.game.options == {"players": 4, "goal": 3, "max_turns": 9}
    assert pyspiel.load_game("quarkade_card_commons", {"torus": True}).new_initial_state(
    ).quarkade_state.game.options["torus"] is True


def test_a_deck_text_parameter_survives_the_game_string():
    deck = ("tapped 2, verved 4, riffed 4 | up 4, down 2, through 2, out 2 | "
            "kiki 4, bouba 4, lulu 2")
    game = pyspiel.load_game("quarkade_decoherence", {"deck0": deck})
    again = pyspiel.load_game(str(game))
    assert again.new_initial_state().quarkade_state.game == game.new_initial_state(
    ).quarkade_state.game
    state = spiel_state(game, random_history(game, 2, limit=30))
    loaded_game, loaded = pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))
    assert str(loaded_game) == str(game)
    assert str(loaded) == str(state)
    assert loaded.history() == state.history()


def test_bad_parameters_get_the_games_refusal():
    with pytest.raises(quarkade.GameOptionError, match="players"):
        pyspiel.load_game("quarkade_dead_cat", {"players": 7})


@pytest.mark.parametrize("name", quarkade.list_games())
def test_strings_and_tensors_are_the_seats_view(name):
    game = pyspiel.load_game(NAMES[name])
    state = spiel_state(game, random_history(game, 4, limit=40))
    inner = state.quarkade_state
    public = pyspiel.IIGObservationType(perfect_recall=False,
                                        private_info=pyspiel.PrivateInfoType.NONE)
    observer = game.make_py_observer(public)
    for seat in range(game.num_players()):
        assert state.observation_string(seat).startswith("{")
        info = state.information_state_string(seat)
        assert info.startswith(state.observation_string(seat) + "\n")
        tensor = np.array(state.observation_tensor(seat))
        assert np.array_equal(tensor, np.array(state.information_state_tensor(seat)))
        coding = game.coding
        assert np.allclose(tensor, coding.encode(inner.view(seat)))
        observer.set_from(state, seat)
        assert np.allclose(observer.tensor, coding.encode(inner.view(SPECTATOR)))


@pytest.mark.parametrize("name", HIDDEN)
def test_information_states_hide_what_the_seat_has_not_seen(name):
    game = pyspiel.load_game(NAMES[name])
    rng = random.Random(5)
    quarkade_game = game.new_initial_state().quarkade_state.game
    for seed in range(3):
        for seat in range(game.num_players()):
            # Each twin differs from its game in what the seat has not seen.
            history = history_with_secrets(quarkade_game, seat, random.Random(seed), 45)
            twin = twin_history(quarkade_game, history, seat, rng)
            one, two = spiel_state(game, history), spiel_state(game, twin)
            assert one.information_state_string(seat) == two.information_state_string(seat)
            assert one.observation_string(seat) == two.observation_string(seat)
            assert one.information_state_tensor(seat) == two.information_state_tensor(seat)


@pytest.mark.parametrize("name", HIDDEN)
def test_a_resampled_state_keeps_the_information_state(name):
    game = pyspiel.load_game(NAMES[name])
    history = random_history(game, 6)
    state = spiel_state(game, history[:len(history) * 2 // 3])
    while state.is_chance_node():
        state.apply_action(state.legal_actions()[0])
    seat = state.current_player()
    sampler = pyspiel.UniformProbabilitySampler(7, 0.0, 1.0)  # seeded: the same every run
    worlds = set()
    for _ in range(12):
        sampled = state.resample_from_infostate(seat, sampler)
        assert sampled.information_state_string(seat) == state.information_state_string(seat)
        assert sampled.legal_actions() == state.legal_actions()
        worlds.add(str(sampled))
        clone = sampled.clone()
        assert str(clone) == str(sampled)
        again = sampled.resample_from_infostate(seat, sampler)  # a sample of a sample
        assert again.information_state_string(seat) == state.information_state_string(seat)
    assert len(worlds) > 1  # the hidden part really is drawn anew


def test_seeded_resampling_is_repeatable():
    game = pyspiel.load_game("quarkade_dead_cat", {"players": 3})
    state = spiel_state(game, random_history(game, 7)[:40])
    seat = max(state.current_player(), 0)
    first = [str(seeded_resampler(1)(state, seat)) for _ in range(3)]
    again = [str(seeded_resampler(1)(state, seat)) for _ in range(3)]
    assert first == again


def play_with_bots(game, bots, seed):
    rng = np.random.RandomState(seed)
    state = game.new_initial_state()
    decisions = 0
    while not state.is_terminal():
        if state.is_chance_node():
            actions, probabilities = zip(*state.chance_outcomes(), strict=True)
            state.apply_action(int(rng.choice(actions, p=probabilities)))
        else:
            state.apply_action(int(bots[state.current_player()].step(state)))
            decisions += 1
    return state, decisions


@pytest.mark.parametrize("name", OPEN)
def test_python_mcts_bots_play_a_whole_open_information_game(name):
    game = pyspiel.load_game(NAMES[name])
    rng = np.random.RandomState(1)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = [mcts.MCTSBot(game, uct_c=2.0, max_simulations=12, evaluator=evaluator,
                         random_state=rng, solve=False) for _ in range(game.num_players())]
    final, decisions = play_with_bots(game, bots, 1)
    assert decisions > 0
    assert sorted(final.returns()) == [-1.0, 1.0]
    assert final.quarkade_state.is_terminal()


@pytest.mark.parametrize("name", HIDDEN)
def test_python_ismcts_bots_play_a_whole_hidden_information_game(name):
    game = pyspiel.load_game(NAMES[name])
    rng = np.random.RandomState(2)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    bots = []
    for seat in range(game.num_players()):
        bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=12,
                               random_state=rng)
        bot.set_resampler(seeded_resampler(seat))
        bots.append(bot)
    final, decisions = play_with_bots(game, bots, 2)
    assert decisions > 0
    assert sum(final.returns()) == pytest.approx(0) and max(final.returns()) > 0
    assert final.quarkade_state.is_terminal()


# -- Python's answers against OpenSpiel's own C++ path ---------------------------------------

BASE = pyspiel.State  # OpenSpiel's own methods, called on our state: the C++ path


def same_floats(ours, theirs):
    """Ours are the encoding's doubles; OpenSpiel rounds them to float32 on the way."""
    return np.array_equal(np.array(ours, np.float32), np.array(theirs, np.float32))


@pytest.mark.parametrize("name", quarkade.list_games())
def test_every_python_answer_is_openspiels_own(name):
    cls = quarkade.core.game_class(name)
    game = pyspiel.load_game(NAMES[name], {"players": min(3, cls.max_players)})
    rng = random.Random(8)
    ours = game.new_initial_state()  # moved from Python
    theirs = game.new_initial_state()  # moved through OpenSpiel's C++ only
    n = game.num_players()
    steps = 0
    while not theirs.is_terminal() and steps < 150:
        assert ours.legal_actions() == BASE.legal_actions(theirs)
        assert ours.is_chance_node() == BASE.is_chance_node(theirs)
        assert ours.is_player_node() == BASE.is_player_node(theirs)
        for seat in range(n):
            assert ours.legal_actions(seat) == BASE.legal_actions(theirs, seat)
            assert same_floats(ours.observation_tensor(seat),
                               BASE.observation_tensor(theirs, seat))
            assert same_floats(ours.information_state_tensor(seat),
                               BASE.information_state_tensor(theirs, seat))
            assert ours.observation_string(seat) == BASE.observation_string(theirs, seat)
            if steps % 10 == 0:  # the strings grow with the game: now and then
                assert (ours.information_state_string(seat)
                        == BASE.information_state_string(theirs, seat))
        if BASE.is_player_node(theirs):
            assert same_floats(ours.observation_tensor(), BASE.observation_tensor(theirs))
        if steps % 7 == 3:  # OpenSpiel's history, written when read, is its own
            assert ours.history() == BASE.history(theirs)
            assert ours.move_number() == BASE.move_number(theirs)
            assert ours.history_str() == BASE.history_str(theirs)
            assert [(p.player, p.action) for p in ours.full_history()] == \
                [(p.player, p.action) for p in BASE.full_history(theirs)]
            assert ours.serialize() == BASE.serialize(theirs)
        action = rng.choice(BASE.legal_actions(theirs))
        if steps % 5 == 4:
            BASE.apply_action(ours, action)  # C++ too, between Python's moves
        else:
            ours.apply_action(np.int64(action))  # as a numpy-using agent would
        BASE.apply_action(theirs, action)
        steps += 1
    assert ours.history() == BASE.history(theirs) and ours.returns() == theirs.returns()
    assert ours.is_initial_state() is False and all(type(a) is int for a in ours.history())


def test_a_seat_out_of_range_is_refused_as_openspiel_refuses_it():
    state = pyspiel.load_game(NAMES["dead-cat"]).new_initial_state()
    for call in (lambda s, p: s.observation_tensor(p), lambda s, p: s.observation_string(p),
                 lambda s, p: s.information_state_string(p),
                 lambda s, p: BASE.observation_tensor(s, p)):
        for player in (-1, 2):
            with pytest.raises(pyspiel.SpielError, match="player"):
                call(state, player)
    with pytest.raises(pyspiel.SpielError, match="player"):
        state.observation_tensor()  # a chance node: nobody's observation


def test_clones_and_serialized_states_carry_what_openspiel_has_not_written_yet():
    game = pyspiel.load_game(NAMES["decoherence"])
    history = random_history(game, 3, limit=60)
    state = game.new_initial_state()
    for action in history[:40]:
        state.apply_action(action)
    clone = state.clone()  # OpenSpiel's C++ Clone: its history is written when read
    text = pyspiel.serialize_game_and_state(game, state)  # read by C++, not written yet
    _, loaded = pyspiel.deserialize_game_and_state(text)
    for copy in (clone, loaded):
        for action in history[40:]:
            copy.apply_action(action)
        assert copy.history() == history and copy.move_number() == len(history)
    assert state.history() == history[:40]
    assert pyspiel.deserialize_game_and_state(
        pyspiel.serialize_game_and_state(game, state))[1].history() == history[:40]


def test_the_seats_histories_are_built_only_when_asked_for():
    game = pyspiel.load_game(NAMES["dead-cat"])
    history = random_history(game, 9, limit=50)
    state = spiel_state(game, history[:30])
    assert state._held.seen is None  # nobody asked: nothing built
    asked = state.information_state_string(0)
    assert state._held.seen is not None
    for action in history[30:]:
        state.apply_action(action)  # kept up to date from now on
    fresh = spiel_state(game, history)  # built in one replay at the first question
    for seat in range(game.num_players()):
        assert state.information_state_string(seat) == fresh.information_state_string(seat)
    assert asked == spiel_state(game, history[:30]).information_state_string(0)
