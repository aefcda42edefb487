"""A level against OpenSpiel's own Python search bot, played through the OpenSpiel adapter,
the OpenSpiel bot given a multiple of the level's wall time per move (issue 18).

Used by ``bench/strength.py --openspiel RATIO``; runnable alone:
``python bench/openspiel_opponent.py decoherence --games 20 --ratio 10``; with
``--option goal=3 --bot-seconds 1.2`` (any options; a fixed time for OpenSpiel's bot), e.g.
perfect play (``--hero exact``) at Hadronize's solved goal, the ceiling of the ratio runs.

Each game is played on the registered OpenSpiel game (``quarkade.adapters.openspiel``):
chance from the game's seed, the hero through the Quarkade protocol (``turn_for`` on the
engine state inside the OpenSpiel state), the other seats by OpenSpiel's
``open_spiel.python.algorithms.ismcts.ISMCTSBot`` (hidden-information games; its
resampling is the adapter's ``resample_from_infostate``) or ``mcts.MCTSBot`` (open ones),
with random rollouts (``RandomRolloutEvaluator``, one per leaf) and ``uct_c`` 2, the value
OpenSpiel's examples use.

The budget: OpenSpiel's bots take a number of simulations; here they search until a
deadline instead, ``ratio`` times the hero's mean wall time per move so far in this
worker (a move: a decision with more than one legal action; before the hero's first
move, its time on the position at hand). A worker's very first decision is first answered
once by the hero untimed, so that loading its code (imports, compiled engines from the
disk cache) is not counted as thinking. Both sides answer a
decision with one legal action at once. The hero's seat rotates game by game, as in the
simulator, and game ``i`` has the simulator's seed for game ``i`` of the run.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import multiprocessing
import time
from pathlib import Path
from typing import Any

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import quarkade.adapters.openspiel as adapter
from quarkade.agents import make_agent
from quarkade.core.agent import turn_for
from quarkade.core.registry import load_game
from quarkade.core.rng import derived_rng, sample_chance
from quarkade.sim.plan import game_seed
from quarkade.sim.stats import wilson

UCT_C = 2.0
UNLIMITED = 10**9


class _TimeUp(Exception):
    """The search's deadline passed."""


class TimedISMCTSBot(ismcts.ISMCTSBot):
    """OpenSpiel's ISMCTSBot, searching until ``seconds`` have passed (at least one
    simulation)."""

    seconds = 1.0

    def run_search(self, state: pyspiel.State) -> list[tuple[int, float]]:
        self._deadline = time.perf_counter() + self.seconds
        try:
            return super().run_search(state)
        except _TimeUp:
            return self.get_final_policy(state, self._root_node)

    def sample_root_state(self, state: pyspiel.State) -> pyspiel.State:
        if time.perf_counter() >= self._deadline and self._root_node.total_visits:
            raise _TimeUp
        return super().sample_root_state(state)


class TimedMCTSBot(mcts.MCTSBot):
    """OpenSpiel's MCTSBot, searching until ``seconds`` have passed (at least one
    simulation)."""

    seconds = 1.0

    def mcts_search(self, state: pyspiel.State) -> Any:
        self._deadline = time.perf_counter() + self.seconds
        self._root: Any = None
        try:
            return super().mcts_search(state)
        except _TimeUp:
            return self._root

    def _apply_tree_policy(self, root: Any, state: pyspiel.State) -> Any:
        if self._root is None:
            self._root = root
        elif time.perf_counter() >= self._deadline and root.explore_count:
            raise _TimeUp
        return super()._apply_tree_policy(root, state)


def opponent_name(game: str) -> str:
    hidden = not load_game(game).perfect_information
    return "OpenSpiel ISMCTSBot" if hidden else "OpenSpiel MCTSBot"


_HERO_TIMES: list[float] = []  # this worker's hero moves, in seconds
_WARM: list[bool] = []  # whether this worker's hero has made an untimed first move


def play(game: str, options: dict[str, Any], hero: str, ratio: float, run_seed: int,
         index: int, bot_seconds: float = 0.0) -> dict[str, Any]:
    """Game ``index``: the hero against OpenSpiel's bot in every other seat."""
    quarkade_game = load_game(game, **options)
    players = quarkade_game.num_players
    seat = index % players
    seed = game_seed(run_seed, index)
    spiel_game = pyspiel.load_game(adapter.short_name(game),
                                   adapter._spiel_parameters(quarkade_game))
    agent = make_agent(hero, game)
    numbers = np.random.RandomState(seed % 2**32)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=numbers)
    bot: Any
    if quarkade_game.perfect_information:
        bot = TimedMCTSBot(spiel_game, UCT_C, UNLIMITED, evaluator, random_state=numbers)
    else:
        bot = TimedISMCTSBot(spiel_game, evaluator, UCT_C, UNLIMITED, random_state=numbers)
        bot.set_resampler(adapter.seeded_resampler(seed))
    chance = derived_rng(seed, "chance")
    hero_rng = derived_rng(seed, "hero")
    state = spiel_game.new_initial_state()
    bot_times: list[float] = []
    while not state.is_terminal():
        inner = state.quarkade_state
        player = state.current_player()
        if player < 0:
            state.apply_action(sample_chance(inner, chance))
            continue
        if len(state.legal_actions()) == 1:
            state.apply_action(state.legal_actions()[0])
            continue
        if not _WARM:  # imports and compiled code loaded before any move is timed
            make_agent(hero, game).act(turn_for(inner), derived_rng(seed, "warm"))
            _WARM.append(True)
        if player == seat:
            start = time.perf_counter()
            action = agent.act(turn_for(inner), hero_rng)
            _HERO_TIMES.append(time.perf_counter() - start)
        else:
            if not _HERO_TIMES:  # the hero's time on this very position, then forgotten
                start = time.perf_counter()
                make_agent(hero, game).act(turn_for(inner), derived_rng(seed, "probe"))
                _HERO_TIMES.append(time.perf_counter() - start)
            bot.seconds = bot_seconds or ratio * sum(_HERO_TIMES) / len(_HERO_TIMES)
            start = time.perf_counter()
            action = int(bot.step(state))
            bot_times.append(time.perf_counter() - start)
        state.apply_action(action)
    returns = state.returns()
    winners = [p for p in range(players) if returns[p] == max(returns)]
    score = (1 / len(winners) if seat in winners else 0.0) if max(returns) > min(returns) \
        else 1 / players
    return {"score": score, "bot_seconds": bot_times,
            "hero_mean": sum(_HERO_TIMES) / len(_HERO_TIMES)}


def _play(job: tuple) -> dict[str, Any]:
    return play(*job)


def measure(game: str, options: dict[str, Any], hero: str, games: int, workers: int,
            seed: int, ratio: float, bot_seconds: float = 0.0,
            out: Path | None = None) -> dict[str, float]:
    """The hero's score over ``games`` games, its Wilson interval, and the mean seconds a
    move of the hero and of OpenSpiel's bot (``bot_seconds``, when given, instead of
    ``ratio`` times the hero's). With ``out``, each game's result is written there as
    it comes (one JSON line, in game order), so a long run stopped early keeps its games."""
    start = time.perf_counter()
    jobs = [(game, options, hero, ratio, seed, i, bot_seconds) for i in range(games)]
    results = []
    with contextlib.ExitStack() as stack:
        if workers > 1:
            pool = stack.enter_context(multiprocessing.get_context("fork").Pool(workers))
            played = pool.imap(_play, jobs, chunksize=1)
        else:
            played = map(_play, jobs)
        lines = stack.enter_context(out.open("w")) if out is not None else None
        for index, result in enumerate(played):
            results.append(result)
            if lines is not None:
                lines.write(json.dumps({"index": index, **result}) + "\n")
                lines.flush()
    score = sum(r["score"] for r in results)
    low, high = wilson(score, games)
    bot_moves = [s for r in results for s in r["bot_seconds"]]
    return {"rate": score / games, "low": low, "high": high,
            "seconds": time.perf_counter() - start,
            "hero_move": sum(r["hero_mean"] for r in results) / games,
            "bot_move": sum(bot_moves) / max(len(bot_moves), 1)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--hero", default="hard")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--ratio", type=float, default=10.0)
    parser.add_argument("--bot-seconds", type=float, default=0.0,
                        help="a fixed time a move for OpenSpiel's bot instead of the ratio")
    parser.add_argument("--option", action="append", default=[], metavar="NAME=VALUE",
                        help="a game option (repeatable), e.g. goal=3")
    parser.add_argument("--out", type=Path, help="write each game's result here (JSON lines)")
    args = parser.parse_args()
    from quarkade.core.options import parse_option_pairs

    options = parse_option_pairs(args.option)
    found = measure(args.game, options, args.hero, args.games, args.workers, args.seed,
                    args.ratio, args.bot_seconds, args.out)
    budget = f"{args.bot_seconds:g} s a move" if args.bot_seconds else \
        f"{args.ratio:g}x its time"
    print(f"{args.hero} against {opponent_name(args.game)} with {budget}: "
          f"{found['rate']:.3f} [{found['low']:.3f}, {found['high']:.3f}] over {args.games} "
          f"games; {1000 * found['hero_move']:.0f} ms a move against "
          f"{1000 * found['bot_move']:.0f} ms; {found['seconds'] / 60:.1f} minutes")


if __name__ == "__main__":
    main()
