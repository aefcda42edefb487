"""The self-play agent: a trainer's checkpoint plays as the bot ``learned:PATH`` in the
terminal's specs, the simulator and (named by the operator) the web; ``quarkade train``
writes one with its learning curve; bad input is answered with what is allowed."""

from __future__ import annotations

import json
import random

import jax
import numpy as np
import pytest
from typer.testing import CliRunner

from quarkade import load_game
from quarkade.agents import make_agent, turn_for
from quarkade.agents.learned import WIDEST, LearnedAgent
from quarkade.cli.main import app
from quarkade.core.errors import AgentSpecError
from quarkade.games.card_commons.solver import empty_cells
from quarkade.jax import make, network
from quarkade.jax.alphazero import Config, Trainer, label
from quarkade.jax.search import LATE_LEFT, PLAY_CONSIDERED, PLAY_LATE, inputs
from quarkade.sim import run_plan, simulation_plan
from quarkade.sim.match import play_game
from quarkade.sim.starts import start_pool

runner = CliRunner()
TUTORIAL = {"variant": "tutorial"}


@pytest.fixture(scope="module")
def trainer():
    """A small Card Commons Tutorial trainer (random weights; its games at their start,
    new ones too: by default no endgame starts, and each game's result its value
    target)."""
    return Trainer(Config("card-commons", TUTORIAL, games=4, simulations=2, max_steps=40,
                          width=16, blocks=1))


@pytest.fixture(scope="module")
def checkpoint(trainer, tmp_path_factory):
    """An untrained Card Commons Tutorial checkpoint."""
    folder = tmp_path_factory.mktemp("learned") / "cc"
    trainer.save(folder)
    return folder


def test_the_bot_plays_whole_games_from_its_view(checkpoint):
    bot = make_agent(f"learned:{checkpoint},simulations=0", "card-commons")
    game = load_game("card-commons", **TUTORIAL)
    for seed in range(3):
        final = play_game(game, [bot, make_agent("random", "card-commons")], seed)
        assert final.is_terminal()


def test_the_bot_reads_the_same_observation_as_the_environment(trainer, checkpoint):
    # numpy's forward pass on encode(turn.view) is the network's on the JAX observation
    # (without the averaging over the field's symmetries: tests/jaxenv/test_network_inputs.py).
    bot = make_agent(f"learned:{checkpoint},simulations=0,symmetric=0", "card-commons")
    state = jax.tree_util.tree_map(lambda leaf: leaf[0], trainer.state)  # a game's start
    reference = trainer.env.to_reference(state)
    turn = turn_for(reference)
    logits, _ = network.forward(bot.params, inputs(trainer.env, bot.params,
                                                   state.observation[None]))
    legal = turn.legal_actions
    assert bot.policy_action(turn) == legal[int(np.argmax(np.asarray(logits)[0][legal]))]


def test_the_bot_searches_with_the_jax_rules(checkpoint):
    bot = make_agent(f"learned:{checkpoint},simulations=4", "card-commons")
    game = load_game("card-commons", **TUTORIAL)
    final = play_game(game, [bot, make_agent("greedy", "card-commons")], 7)
    assert final.is_terminal()


def test_the_simulator_plays_the_bot_by_its_spec(checkpoint):
    spec = f"learned:path={checkpoint},simulations=0"
    plan = simulation_plan("card-commons", dict(load_game("card-commons", **TUTORIAL).options),
                           [spec, "random"], games=4, seed=2)
    results = run_plan(plan).results
    assert len(results) == 4 and {spec, "random"} == {a for r in results for a in r["seats"]}


def test_bad_specs_say_what_is_wrong(checkpoint, tmp_path):
    with pytest.raises(AgentSpecError, match="checkpoint folder"):
        make_agent("learned", "card-commons")
    with pytest.raises(AgentSpecError, match=r"no checkpoint of quarkade train: it has no "
                       r"agent\.json") as empty:
        make_agent(f"learned:{tmp_path}", "card-commons")
    with pytest.raises(AgentSpecError, match=r"there is no folder .*quarkade train wrote"):
        make_agent(f"learned:{tmp_path / 'gone'}", "card-commons")
    (tmp_path / "agent.json").write_text("{not json")
    (tmp_path / "params.npz").write_bytes(b"")
    with pytest.raises(AgentSpecError, match=r"its agent\.json cannot be read as JSON") as bad:
        make_agent(f"learned:{tmp_path}", "card-commons")
    assert "Errno" not in str(empty.value) + str(bad.value)
    with pytest.raises(AgentSpecError, match="plays card-commons, not dead-cat"):
        make_agent(f"learned:{checkpoint}", "dead-cat")
    with pytest.raises(AgentSpecError, match="simulations='-5' is not allowed; it takes a "
                       "whole number from -1 to 4096"):
        make_agent(f"learned:{checkpoint},simulations=-5", "card-commons")
    with pytest.raises(AgentSpecError, match="considered is 1 to 128 root moves, not 0"):
        make_agent(f"learned:{checkpoint},considered=0", "card-commons")
    with pytest.raises(AgentSpecError, match="considered='200' is not allowed; it takes a "
                       "whole number from -1 to 128"):
        make_agent(f"learned:{checkpoint},considered=200", "card-commons")
    with pytest.raises(AgentSpecError, match="late='5000' is not allowed; it takes a whole "
                       "number from -1 to 4096"):
        make_agent(f"learned:{checkpoint},late=5000", "card-commons")
    with pytest.raises(AgentSpecError, match="no checkpoint is named 'best'"):
        make_agent("learned:name=best", "card-commons")
    bot = make_agent(f"learned:{checkpoint},simulations=0", "card-commons")
    classic = load_game("card-commons").new_initial_state()
    classic.apply_action(classic.legal_actions()[0])  # the coin
    with pytest.raises(ValueError, match="plays card-commons \\(players=2, variant=tutorial"):
        bot.act(turn_for(classic), random.Random(0))


def test_a_named_checkpoint_is_offered_by_name(checkpoint, monkeypatch):
    monkeypatch.setenv("QUARKADE_LEARNED", f"tutorial-bot={checkpoint};other=/nowhere")
    bot = make_agent("learned:name=tutorial-bot,simulations=0", "card-commons")
    assert bot.folder == checkpoint


def test_quarkade_train_writes_a_checkpoint_and_its_learning_curve(tmp_path):
    out = tmp_path / "cat"
    done = runner.invoke(app, ["train", "dead-cat", "-o", "peek_first=true", "--out", str(out),
                               "--minutes", "0.01", "--games", "4", "--simulations", "2",
                               "--steps", "4", "--updates", "2", "--check-games", "2"])
    assert done.exit_code == 0, done.output
    assert (out / "curve.png").stat().st_size > 1000
    about = json.loads((out / "agent.json").read_text())
    assert about["game"] == "dead-cat" and about["options"]["peek_first"] is True
    assert about["config"]["bot_starts"] == 0  # bot starts are a Tutorial default only
    history = json.loads((out / "curve.json").read_text())
    assert history[0]["games"] >= 0 and "score_vs_greedy" in history[0]
    assert 1e-4 <= history[0]["learning_rate"] <= 1e-3  # on its way down the half cosine
    assert f"learned:{out}" in done.output.replace("\n", "")
    # Dead Cat has no features or symmetries: its network reads the observation alone.
    assert about["config"]["features"] and about["config"]["symmetries"]
    assert len(np.load(out / "params.npz")["in_w"]) == 78
    bot = make_agent(f"learned:{out},simulations=4", "dead-cat")  # hidden cards redrawn
    final = play_game(load_game("dead-cat", peek_first=True),
                      [bot, make_agent("greedy", "dead-cat")], 1)
    assert final.is_terminal()


@pytest.mark.parametrize(("args", "message"), [
    (["hadronize", "--out", "x"], "no self-play training for 'hadronize'"),
    (["dead-cat", "--out", "x", "--players", "3"], "No such option"),
    (["dead-cat", "--out", "x", "-o", "players=3"], "two seats, not 3"),
    (["card-commons", "--out", "x", "--games", "1"], "--games 1: give at least 2"),
    (["card-commons", "--out", "x", "--minutes", "0"], "give a time above 0"),
    (["card-commons", "--out", "x", "-o", "variant=huge"], "variant"),
    (["card-commons", "--out", "x", "--rescore", "8"], "only Card Commons' Tutorial"),
    (["card-commons", "--out", "x", "-o", "variant=tutorial", "--rescore", "-1"],
     "give 1 to 16 empty cells"),
    (["card-commons", "--out", "x", "-o", "variant=tutorial", "--rescore", "17"],
     "give 1 to 16 empty cells"),
    (["card-commons", "--out", "x", "-o", "variant=tutorial", "--rescore-policy"],
     "--rescore-policy goes with --rescore N"),
    (["card-commons", "--out", "x", "--bot-starts", "1.5"],
     "--bot-starts 1.5: give a share from 0 to 1"),
    (["card-commons", "--out", "x", "--bot-starts", "-0.1"],
     "--bot-starts -0.1: give a share from 0 to 1"),
    (["card-commons", "--out", "x", "--bot-starts-left", "10"],
     "--bot-starts-left 10: give 0 to 16 empty"),
    (["card-commons", "--out", "x", "--bot-starts", "0.5", "--bot-starts-left", "17"],
     "--bot-starts-left 17: give 0 to 16"),
    (["dead-cat", "--out", "x", "--bot-starts", "0.5", "--bot-starts-left", "3"],
     "--bot-starts-left 3: give 0 to 16 empty"),
    (["card-commons", "--out", "x", "-o", "variant=tutorial", "--bot-starts-games", "0"],
     "--bot-starts-games 0: give at least 1 game"),
    (["card-commons", "--out", "x", "-o", "variant=tutorial", "--bot-starts", "0",
      "--bot-starts-left", "10"], "--bot-starts-left 10: give 0 to 16 empty cells"),
    (["dead-cat", "--out", "x", "--average", "1"], "--average 1: give 0 (the latest"),
    (["card-commons", "--out", "x", "--rescore-children", "6"],
     "--rescore-children 6: only Card Commons' Tutorial"),
    (["card-commons", "--out", "x", "-o", "variant=tutorial", "--rescore-children", "17"],
     "give 1 to 16 empty cells there, or 0"),
    (["card-commons", "--out", "x", "--explore", "1.5"],
     "--explore 1.5: give a share from 0 to 1"),
    (["card-commons", "--out", "x", "--explore", "0.1", "--explore-left", "17"],
     "--explore-left 17: give 0 to 16 empty cells"),
    (["dead-cat", "--out", "x", "--explore", "0.1"], "--explore-left 8: give 0 to 16 empty "
     "cells, in Card Commons (the other games have no count of what is left)"),
])
def test_quarkade_train_refuses_bad_input(args, message):
    done = runner.invoke(app, ["train", *args])
    assert done.exit_code == 2
    assert message in done.output


@pytest.mark.parametrize("keep", [0.9, 0.0])
def test_the_checkpoint_holds_the_moving_average_of_the_weights(keep, tmp_path):
    # Each iteration after the first moves the average 1 - keep of the way to the latest
    # weights, from the first iteration's; self-play goes on with the latest, and the
    # checkpoint (what the bot plays) is the average. With keep 0 it is the latest.
    averaging = Trainer(Config("card-commons", TUTORIAL, games=4, simulations=2, max_steps=40,
                               width=16, blocks=1, updates=4, batch_size=8, eval_games=2,
                               average=keep))
    averaging.iteration()
    expected = {k: np.asarray(v) for k, v in averaging.params.items()}
    for _ in range(2):
        averaging.iteration()
        expected = {k: keep * v + (1 - keep) * np.asarray(averaging.params[k])
                    for k, v in expected.items()}
    averaging.save(tmp_path)
    with np.load(tmp_path / "params.npz") as saved:
        for key, value in expected.items():
            assert np.allclose(saved[key], value, atol=1e-6)
            latest = np.asarray(averaging.params[key])
            assert keep == 0 or not np.allclose(saved[key], latest, atol=1e-6)


def test_self_play_values_are_each_games_result_from_the_movers_side(trainer):
    # The Tutorial alternates seats and ends in a win: every decision of an ended game is
    # labelled +1 or -1, flipping from one decision to the next within a game (a game
    # starts at its opening, the phase an observation's second place marks), also for
    # the games still going when the first of two iterations ends.
    state, *first, _ = jax.device_get(
        trainer._selfplay(trainer.params, trainer.state, jax.random.PRNGKey(0)))
    _, *second, _ = jax.device_get(trainer._selfplay(trainer.params, state,
                                                     jax.random.PRNGKey(1)))
    assert first[4].sum() >= 4  # forty decisions finish a Tutorial game in every lane
    assert np.allclose(first[1].sum(axis=-1), 1, atol=1e-5)
    checked = crossing = 0
    for lane in range(4):
        one, two = ([np.asarray(part)[:, lane:lane + 1] for part in played]
                    for played in (first, second))
        (seen, _, target), pending = label(one, None)
        assert len(seen) == int(np.flatnonzero(one[4][:, 0])[-1]) + 1  # up to its end
        (later, _, later_target), _ = label(two, pending)
        crossing += len(pending[0]) if pending is not None else 0
        seen, target = np.concatenate([seen, later]), np.concatenate([target, later_target])
        assert np.allclose(np.abs(target), 1)
        game = np.cumsum(seen[:, 1] == 1)
        for step in range(len(seen) - 1):
            if game[step + 1] == game[step]:
                assert target[step + 1] == pytest.approx(-target[step])
                checked += 1
    assert checked > 40 and crossing > 0


def test_a_game_across_two_iterations_is_labelled_once_when_it_ends():
    # One lane, seats alternating: a game of two decisions ends at step 1 of the first
    # iteration; the next runs past its end and ends at step 1 of the second, won by the
    # seat that made that last decision.
    def iteration(rewards, ended, first_index):
        steps = len(rewards)
        observation = np.arange(first_index, first_index + steps, dtype=np.float32)
        return [observation.reshape(steps, 1, 1), np.ones((steps, 1, 2)) / 2,
                (observation % 2).astype(np.int32).reshape(steps, 1),
                np.array(rewards, np.float32).reshape(steps, 1),
                np.array(ended).reshape(steps, 1)]

    (seen, _, target), pending = label(iteration([0, 1, 0, 0], [False, True, False, False],
                                                 0), None)
    assert seen[:, 0].tolist() == [0, 1] and target.tolist() == [-1, 1]
    assert pending is not None
    (seen, _, target), pending = label(iteration([0, 1, 0], [False, True, False], 4),
                                       pending)
    assert seen[:, 0].tolist() == [2, 3, 4, 5] and target.tolist() == [-1, 1, -1, 1]
    assert pending is not None and pending[0][:, 0, 0].tolist() == [6]
    # With the root's values: a proven one is the target; elsewhere mix of the searched
    # value, the rest the result.
    proven = np.array([np.nan, -1.0, np.nan, np.nan]).reshape(4, 1)
    searched = np.array([0.5, -0.5, 0.0, 0.0]).reshape(4, 1)
    first = iteration([0, 1, 0, 0], [False, True, False, False], 0)
    (_, _, target), _ = label([*first, proven, searched], None, mix=0.25)
    assert target.tolist() == [-0.625, -1.0]


def test_a_random_move_gives_the_positions_before_it_the_searched_value():
    # One lane, seats alternating, a game of five decisions won at step 4 by its mover.
    # The move at step 2 was drawn at random (Config.explore): the game after it says
    # nothing of the position before it, so step 2 learns its search's value and steps 0
    # and 1 learn it too, each from its own side; steps 3 and 4 learn the result.
    steps = 5
    observation = np.arange(steps, dtype=np.float32).reshape(steps, 1, 1)
    played = [observation, np.ones((steps, 1, 2)) / 2,
              (np.arange(steps) % 2).astype(np.int32).reshape(steps, 1),
              np.array([0, 0, 0, 0, 1], np.float32).reshape(steps, 1),
              np.array([False] * 4 + [True]).reshape(steps, 1),
              np.full((steps, 1), np.nan, np.float32),
              np.array([0.1, 0.2, 0.25, 0.4, 0.5], np.float32).reshape(steps, 1)]
    explored = np.array([False, False, True, False, False]).reshape(steps, 1)
    (_, _, target), pending = label([*played, explored], None)
    assert target.tolist() == [0.25, -0.25, 0.25, -1.0, 1.0] and pending is None
    (_, _, target), _ = label([*played, np.zeros_like(explored)], None)
    assert target.tolist() == [1.0, -1.0, 1.0, -1.0, 1.0]
    # A game still going at the iteration's end: the decisions up to its random move are
    # labelled at once, the rest wait for its end.
    going = [part[:4] for part in played]
    going[4] = np.zeros((4, 1), bool)
    (seen, _, target), pending = label([*going, explored[:4]], None)
    assert seen[:, 0].tolist() == [0, 1, 2] and target.tolist() == [0.25, -0.25, 0.25]
    assert pending is not None and pending[0][:, 0, 0].tolist() == [3]


def test_self_play_explores_only_near_the_end():
    # With explore=1 every decision with at most explore_left empty cells plays a move
    # drawn at random and is marked so; no other is; without explore none is.
    exploring = Trainer(Config("card-commons", TUTORIAL, games=8, simulations=2,
                               max_steps=40, width=16, blocks=1, explore=1.0,
                               explore_left=9))
    _, *played, boards = jax.device_get(exploring._selfplay(
        exploring.params, exploring.state, jax.random.PRNGKey(0)))
    explored, boards = np.asarray(played[7]), np.asarray(boards)
    left = np.vectorize(lambda step, lane: empty_cells(
        exploring.env.rules.to_state(boards[step, lane])))(*np.indices(explored.shape))
    assert np.array_equal(explored, left <= 9)
    assert explored.any() and not explored.all()
    # What is drawn at one of those positions: every legal move, evenly, never the
    # search's choice (given here as 0, which is not legal there) unless it is drawn.
    step, lane = np.argwhere(explored)[0]
    copies = jax.vmap(exploring.env._at_board)(np.repeat(boards[step, lane][None], 4096, 0))
    legal = np.flatnonzero(np.asarray(copies.legal_action_mask[0]))
    assert 0 not in legal
    drawn, marked = exploring._explored(copies, np.zeros(4096, np.int32),
                                        jax.random.PRNGKey(1))
    counts = np.bincount(np.asarray(drawn), minlength=exploring.env.num_actions)
    assert np.asarray(marked).all() and set(np.flatnonzero(counts)) == set(legal)
    assert counts.max() < 2 * 4096 / len(legal)
    plain = Trainer(Config("card-commons", TUTORIAL, games=8, simulations=2, max_steps=40,
                           width=16, blocks=1))
    _, *played, _ = jax.device_get(plain._selfplay(plain.params, plain.state,
                                                   jax.random.PRNGKey(0)))
    assert not np.asarray(played[7]).any()


def test_self_play_starts_most_new_games_near_the_end():
    # Of 64 new games at endgame_share 0.5, about half start at the opening (16 empty
    # cells) and the others were played on to at most endgame_left empty cells, or stopped
    # just before a move that ends the game; none has ended.
    config = Config("card-commons", TUTORIAL, games=2, simulations=2, max_steps=1, width=16,
                    blocks=1, endgame_share=0.5, endgame_left=6)
    staged = Trainer(config)
    starts = jax.device_get(jax.jit(staged._starts, static_argnums=2)(
        staged.params, jax.random.PRNGKey(0), 64))
    left = np.asarray(jax.vmap(staged.env.rules.left)(starts._board))
    assert not starts.terminated.any()
    assert 16 <= int((left == 16).sum()) <= 48
    near = np.flatnonzero(left < 16)
    assert (left[near] <= 6).sum() > len(near) / 2
    for index in near[left[near] > 6]:
        state = staged.env.rules.to_state(starts._board[index])
        assert any(ends(state, action) for action in state.legal_actions())


def test_self_play_starts_new_games_at_positions_of_the_bots_games():
    # With bot_starts 0.5, about half of 64 new games start at a decision of one of the
    # pool's greedy games (the rest at the opening); the pool holds every decision of
    # those games, none a chance node, and with start_left 10 only those with at least
    # ten empty cells.
    config = Config("card-commons", TUTORIAL, games=2, simulations=2, max_steps=1, width=16,
                    blocks=1, bot_starts=0.5, start_games=3, seed=4)
    env = make("card-commons", **TUTORIAL)
    pooled = Trainer(config, start_pool(env, "greedy", 3, 4))
    greedy = make_agent("greedy", "card-commons")
    game = pooled.env.rules.game
    expected = []
    for seed in start_seeds(3, 4):
        state = game.new_initial_state()
        for action in play_game(game, [greedy, greedy], seed).history():
            if not state.is_chance_node():
                expected.append(pooled.env.rules.to_board(state).tolist())
            state.apply_action(action)
    pool = np.asarray(pooled._pool).tolist()
    assert pool == expected
    starts = jax.device_get(jax.jit(pooled._starts, static_argnums=2)(
        pooled.params, jax.random.PRNGKey(0), 64))
    left = np.asarray(jax.vmap(pooled.env.rules.left)(starts._board))
    drawn = [board.tolist() in pool for board in np.asarray(starts._board)]
    assert all(drawn[index] or left[index] == 16 for index in range(64))
    assert 16 <= int((left < 16).sum()) <= 48
    assert start_pool(env, "greedy", 3, 4, least_left=10).tolist() == [
        board for board in expected if pooled.env.rules.left(np.asarray(board)) >= 10]
    assert Trainer(Config("card-commons", TUTORIAL, games=2, width=16, blocks=1))._pool is None
    with pytest.raises(ValueError, match="needs the pool of starting positions"):
        Trainer(config)


def test_dead_cat_self_play_starts_at_the_bots_decisions_whole_cards_and_all():
    # The trainer holds the real state (its search draws each mover's hidden cards again):
    # a Dead Cat pool position is a decision of a greedy game, time deck and all.
    pooled = Trainer(Config("dead-cat", {"peek_first": True}, games=2, simulations=2,
                            max_steps=1, width=16, blocks=1, bot_starts=1.0),
                     start_pool(make("dead-cat", peek_first=True), "greedy", 2, 0))
    pool = np.asarray(pooled._pool)
    for board in pool:
        state = pooled.env.rules.to_state(board)
        assert not (state.is_chance_node() or state.is_terminal())
    starts = jax.device_get(jax.jit(pooled._starts, static_argnums=2)(
        pooled.params, jax.random.PRNGKey(1), 16))
    assert all(board.tolist() in pool.tolist() for board in np.asarray(starts._board))


def start_seeds(games: int, seed: int) -> list[int]:
    rng = random.Random(f"start-pool/{seed}")
    return [rng.getrandbits(48) for _ in range(games)]


def test_self_play_learns_what_its_search_proves():
    # Where some moves win at once, self-play's search (every root move tried) proves the
    # root won: its policy target is spread over the winning moves alone, the value
    # target is the win, and the move played wins.
    state, wins = won_at_once(range(300))
    config = Config("card-commons", TUTORIAL, games=2, simulations=64, considered=64,
                    max_steps=1, width=16, blocks=1, proven_targets=True)
    proving = Trainer(config)
    start = proving.env.from_reference(state)
    batch = jax.tree_util.tree_map(lambda leaf: np.stack([leaf, leaf]), start)
    _, *played, _ = jax.device_get(proving._selfplay(proving.params, batch,
                                                     jax.random.PRNGKey(0)))
    policy, proven = played[1][0], played[5][0]
    assert len(state.legal_actions()) <= 64
    for lane in range(2):
        assert set(np.flatnonzero(policy[lane] > 0)) == set(wins)
        assert policy[lane][wins] == pytest.approx(1 / len(wins))
        assert proven[lane] == 1.0
    (_, _, target), pending = label([np.asarray(part) for part in played], None)
    assert target.tolist() == [1.0, 1.0] and pending is None


@pytest.mark.parametrize("moves", [False, True])
def test_self_play_learns_the_exact_value_of_positions_near_the_end(moves):
    # With rescore=6, each decision at a position with at most 6 empty cells learns its
    # exact value for the mover (here from a plain negamax over the reference engine),
    # whatever its game's result; the others keep NaN (their game's result). The search
    # proves nothing here, so every value comes from the solver. With rescore_policy, a
    # won position's policy target is one winning move; other targets are the search's.
    config = Config("card-commons", TUTORIAL, games=4, simulations=2, max_steps=40,
                    width=16, blocks=1, prove=False, rescore=6, rescore_policy=moves)
    rescoring = Trainer(config)
    _, *played, boards = jax.device_get(rescoring._selfplay(
        rescoring.params, rescoring.state, jax.random.PRNGKey(0)))
    played, boards = [np.asarray(part) for part in played], np.asarray(boards)
    searched = played[1].copy()
    assert np.isnan(played[5]).all()
    share = rescoring._rescore(played, boards)
    checked, won = 0, 0
    for step, lane in np.ndindex(*boards.shape[:2]):
        state = rescoring.env.rules.to_state(boards[step, lane])
        policy = played[1][step, lane]
        if state.phase() == "turn" and empty_cells(state) <= 6:
            assert played[5][step, lane] == negamax(state)
            checked += 1
            if moves and negamax(state) > 0:
                (move,) = np.flatnonzero(policy)
                assert policy[move] == 1.0 and winning(state, move)
                won += 1
                continue
        else:
            assert np.isnan(played[5][step, lane])
        assert np.array_equal(policy, searched[step, lane])
    assert checked >= 10 and share == pytest.approx(checked / boards[..., 0].size)
    assert won >= 3 or not moves
    (_, _, target), _ = label(played, None)
    assert set(np.unique(target)) <= {-1.0, 1.0}


def test_self_play_learns_the_exact_value_after_a_move_tried_aside():
    # With rescore_children=6, each decision also tries a legal move drawn at random
    # without playing it; where the position after it is a turn with at most 6 empty
    # cells, it is learned as a value-only row (no policy target): its exact value for
    # its own mover. The games themselves go on with the search's moves.
    config = Config("card-commons", TUTORIAL, games=4, simulations=2, max_steps=40,
                    width=16, blocks=1, prove=False, rescore_children=6)
    trying = Trainer(config)
    _, *played, aside_boards, boards = jax.device_get(trying._selfplay(
        trying.params, trying.state, jax.random.PRNGKey(0)))
    aside, aside_boards, boards = (np.asarray(played[8]), np.asarray(aside_boards),
                                   np.asarray(boards))
    observation, policy, target = trying._rescore_children(aside, aside_boards)
    rules = trying.env.rules
    expected = []
    for step, lane in np.ndindex(*boards.shape[:2]):
        state, after = rules.to_state(boards[step, lane]), rules.to_state(
            aside_boards[step, lane])
        children = []
        for action in state.legal_actions():
            child = state.clone()
            child.apply_action(action)
            children.append(child.position_key())
        assert after.position_key() in children  # one move on, never played
        if (not after.is_terminal() and after.phase() == "turn"
                and empty_cells(after) <= 6):
            expected.append((aside[step, lane], negamax(after)))
    assert len(expected) >= 10 and len(target) == len(expected)
    for row, (seen, value) in enumerate(expected):
        assert np.array_equal(observation[row], seen) and target[row] == value
    assert not policy.any()


def winning(state, action: int) -> bool:
    child = state.clone()
    child.apply_action(action)
    if child.is_terminal():
        return child.returns()[state.current_player()] > 0
    return negamax(child) < 0


def test_only_the_tutorial_has_a_solver_to_rescore_with():
    with pytest.raises(ValueError, match="no exact solver"):
        Trainer(Config("card-commons", {"variant": "classic"}, games=2, width=16, blocks=1,
                       rescore=4))


@pytest.mark.parametrize(("settings", "message"), [
    ({"games": 1}, "games is 1: give a whole number, at least 2"),
    ({"simulations": 0}, "simulations is 0: give a whole number, at least 2"),
    ({"updates": 2.5}, "updates is 2.5: give a whole number, at least 1"),
    ({"bot_starts": 1.5}, "bot_starts is 1.5: give a share from 0 to 1"),
    ({"explore": -0.5}, "explore is -0.5: give a share from 0 to 1"),
    ({"average": 1.0}, "average is 1.0: give 0 \\(the latest weights\\) or more, below 1"),
    ({"learning_rate": 0.0, "window": 0},
     "window is 0: .*; learning_rate is 0.0: give a rate above 0"),
])
def test_the_trainer_refuses_settings_it_cannot_train_with(settings, message):
    # The CLI checks its own options; a Python caller's Config is checked here, in words.
    config = Config("card-commons", TUTORIAL, games=2, simulations=2, width=16, blocks=1)
    assert config.problems() == []
    for name, value in settings.items():
        setattr(config, name, value)
    with pytest.raises(ValueError, match="cannot train with these settings: " + message):
        Trainer(config)


def negamax(state, known={}) -> float:  # noqa: B006 - a memo of exact values
    """The value of a Tutorial turn position for its mover, every move searched on the
    reference engine (the memo keyed by the solver's abstract position)."""
    from quarkade.games.card_commons.solve.tutorial import position_of

    key = position_of(state)
    if key not in known:
        known[key] = 1.0 if any(winning(state, a) for a in state.legal_actions()) else -1.0
    return known[key]


def ends(state, action: int) -> bool:
    child = state.clone()
    child.apply_action(action)
    return child.is_terminal()


def won_at_once(seeds: range) -> tuple[object, list[int]]:
    """A Tutorial position of seeded random games where some legal moves end the game
    won for the mover and others do not, the one with the most legal moves: (state, the
    winning moves)."""
    game = load_game("card-commons", **TUTORIAL)
    found: list[tuple[int, object, list[int]]] = []
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node():
                mover, legal = state.current_player(), state.legal_actions()
                wins = [action for action in legal if won_by(state, action, mover)]
                if 0 < len(wins) < len(legal):
                    found.append((len(legal), state.clone(), wins))
            state.apply_action(rng.choice(state.legal_actions()))
    _, state, wins = max(found, key=lambda item: item[0])
    return state, wins


def won_by(state, action: int, mover: int) -> bool:
    child = state.clone()
    child.apply_action(action)
    return child.is_terminal() and child.returns()[mover] > 0


def first_decision(game, wanted, what: str):
    """The first decision for which ``wanted(state)`` holds in seeded random games."""
    for seed in range(100):
        rng = random.Random(seed)
        state = game.new_initial_state()
        while not state.is_terminal():
            if not state.is_chance_node() and wanted(state):
                return state
            state.apply_action(rng.choice(state.legal_actions()))
    raise AssertionError(f"no position {what}")


def many_moves(game, more_than: int):
    """The first decision with more than ``more_than`` legal moves in seeded random games."""
    return first_decision(game, lambda state: len(state.legal_actions()) > more_than,
                          f"with more than {more_than} legal moves")


def test_the_bot_plays_a_won_ending_its_network_ranks_last_and_weighs_what_it_is_told(
        trainer, tmp_path):
    # Its network puts the moves that win the game at once last by far, out of the 16 root
    # moves its search weighs by default; it still plays one of them.
    state, wins = won_at_once(range(300))
    folder = tmp_path / "cc"
    trainer.save(folder)
    params = {key: np.asarray(value) for key, value in trainer.params.items()}
    params["policy_b"] = params["policy_b"].copy()
    params["policy_b"][wins] -= 30.0
    np.savez(folder / "params.npz", **params)
    # (Plain: averaged over the field's maps, the bias falls on other moves too.)
    bot = make_agent(f"learned:{folder},symmetric=0", "card-commons")
    assert bot.simulations == Config("card-commons").play_simulations
    assert bot.considered == PLAY_CONSIDERED == 16
    assert len(state.legal_actions()) - len(wins) > PLAY_CONSIDERED
    assert bot.act(turn_for(state), random.Random(0)) in wins
    # The search weighs the 16 moves its prior likes best; with considered=128, every one.
    crowded = many_moves(load_game("card-commons", **TUTORIAL), 80)
    legal = crowded.legal_actions()
    assert 80 < len(legal) <= WIDEST
    for considered, tried in ((-1, PLAY_CONSIDERED), (WIDEST, len(legal))):
        wide = make_agent(f"learned:{folder},symmetric=0,considered={considered}",
                          "card-commons")
        _, visits = wide.search(crowded.game).search_many([crowded], wide.simulations, 0)
        assert np.count_nonzero(visits[0]) == tried
        assert (visits[0][legal] > 0).sum() == tried
    # A checkpoint older than the setting weighs as many as it did then (128).
    about = json.loads((folder / "agent.json").read_text())
    assert about["considered"] == PLAY_CONSIDERED
    del about["considered"]
    (folder / "agent.json").write_text(json.dumps(about))
    assert make_agent(f"learned:{folder}", "card-commons").considered == WIDEST


def near_the_end(game, at_most: int):
    """The first decision with at most ``at_most`` empty cells and a choice to make, in
    seeded random games."""
    return first_decision(game, lambda state: empty_cells(state) <= at_most
                          and len(state.legal_actions()) > 1,
                          f"with at most {at_most} empty cells and a choice")


def test_the_bot_searches_longer_near_the_end_of_a_game(checkpoint):
    # At most four empty cells left, the bot's search makes ``late`` simulations (1,024
    # by default, whatever the checkpoint), elsewhere its ``simulations``; a batch that
    # holds both kinds gives each its own.
    game = load_game("card-commons", **TUTORIAL)
    early, late = many_moves(game, 80), near_the_end(game, LATE_LEFT)
    assert empty_cells(early) > LATE_LEFT >= empty_cells(late)
    for spec, counts in (("simulations=8,late=24", [8, 24, 8]),
                         ("simulations=8,late=0", [8, 8, 8])):
        search = make_agent(f"learned:{checkpoint},{spec}", "card-commons").search(game)
        assert search.near_the_end([early, late, early]) == [c == 24 for c in counts]
        _, visits = search.search_many([early, late, early], 8, 0)
        assert visits.sum(axis=1).tolist() == counts
    assert make_agent(f"learned:{checkpoint}", "card-commons").search(game).late \
        == PLAY_LATE == 1024
    with pytest.raises(ValueError, match="late is 0 to 4096 simulations, or -1 for the "
                       "default, not -5"):
        LearnedAgent(path=str(checkpoint), late=-5)


def test_the_learning_rate_falls_along_a_half_cosine_to_the_final_rate(trainer):
    config = trainer.config
    assert trainer.rate(0.0) == pytest.approx(config.learning_rate)
    assert trainer.rate(0.5) == pytest.approx((config.learning_rate
                                               + config.final_learning_rate) / 2)
    assert trainer.rate(1.0) == trainer.rate(2.0) == pytest.approx(config.final_learning_rate)
    # The optimiser takes the rate set for an iteration: AdamW's step scales with it.
    rows = np.arange(8)
    batch = (trainer.state.observation[:4].repeat(2, axis=0)[rows],
             np.full((8, trainer.env.num_actions), 1 / trainer.env.num_actions, np.float32),
             np.where(rows % 2 == 0, 1.0, -1.0).astype(np.float32))
    steps = []
    for progress in (0.0, 1.0):
        trainer._set_rate(progress)
        moved, _, _ = trainer._update(trainer.params, trainer.opt_state, batch,
                                      np.zeros(8, np.int32))
        steps.append(np.asarray(moved["in_w"]) - np.asarray(trainer.params["in_w"]))
    trainer._set_rate(0.0)
    ratio = config.final_learning_rate / config.learning_rate
    assert np.abs(steps[0]).max() > 0
    assert np.allclose(steps[1], ratio * steps[0], rtol=1e-3, atol=1e-7)


def test_the_web_takes_a_named_checkpoint_and_never_a_path(checkpoint, monkeypatch):
    from quarkade.server.catalogue import more_bots
    from quarkade.server.errors import ApiError
    from quarkade.server.play.specs import check_spec

    monkeypatch.setenv("QUARKADE_LEARNED", f"tutorial-bot={checkpoint}")
    spec = "learned:name=tutorial-bot,simulations=8"
    assert check_spec("card-commons", spec) == spec
    for refused, fragment in ((f"learned:{checkpoint}", "takes no parameter 'path'"),
                              ("learned:name=other", "no checkpoint is named 'other' here; "
                               "named: tutorial-bot"),
                              ("learned:name=tutorial-bot,simulations=999", "from -1 to 256")):
        with pytest.raises(ApiError, match=fragment) as caught:
            check_spec("card-commons", refused)
        assert caught.value.status == 400
    offered = {bot["name"]: bot for bot in more_bots("card-commons")}["learned"]
    assert [p["name"] for p in offered["parameters"]] == ["name", "simulations"]


def test_quarkade_train_on_the_tutorial_reads_the_features_and_learns_through_the_maps(
        tmp_path):
    # In the Tutorial, half the self-play games start from the greedy bots' positions
    # with at least 10 empty cells unless told otherwise (docs/RESEARCH.md, run G).
    out = tmp_path / "cc"
    done = runner.invoke(app, ["train", "card-commons", "-o", "variant=tutorial", "--out",
                               str(out), "--minutes", "0.01", "--games", "2",
                               "--simulations", "2", "--steps", "2", "--updates", "1",
                               "--check-minutes", "0", "--bot-starts-games", "2"])
    assert done.exit_code == 0, done.output
    assert "Playing 2 games between two greedy bots first; 50% of the self-play games" \
        in " ".join(done.output.split())
    about = json.loads((out / "agent.json").read_text())
    assert (about["config"]["bot_starts"], about["config"]["start_left"],
            about["config"]["start_games"]) == (0.5, 10, 2)
    assert about["symmetric"] is True and about["simulations"] == 256
    assert len(np.load(out / "params.npz")["in_w"]) == 405 + 168
    bot = make_agent(f"learned:{out}", "card-commons")
    assert bot.symmetric and bot.simulations == 256
