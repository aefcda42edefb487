"""``quarkade train``: self-play training of a learned bot (the ``jax`` extra).

The work is in ``quarkade.jax.alphazero``; this module reads the command line, shows a
progress bar, measures the raw policy against ``greedy`` every few minutes, writes the
checkpoint after every iteration and draws the learning curve (``curve.png``).
"""

from __future__ import annotations

import random
import time
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import BarColumn, Progress, TextColumn, TimeElapsedColumn

from quarkade.cli.output import console, user_errors
from quarkade.core.errors import QuarkadeError
from quarkade.core.options import parse_option_pairs
from quarkade.core.registry import load_game

TRAINABLE = ("card-commons", "dead-cat")


def train(
    game: Annotated[str, typer.Argument(help="The game: card-commons or dead-cat.")],
    out: Annotated[Path, typer.Option(
        "--out", help="The checkpoint's folder (agent.json, params.npz, curve.png); the bot "
        "learned:FOLDER plays it.")],
    option: Annotated[list[str] | None, typer.Option(
        "--option", "-o", help="A game option NAME=VALUE (repeatable): variant=tutorial, "
        "peek_first=true.")] = None,
    minutes: Annotated[float, typer.Option(help="How long to train.")] = 60.0,
    games: Annotated[int, typer.Option(help="Self-play games per iteration, played at "
                                            "once.")] = 128,
    simulations: Annotated[int, typer.Option(help="Search simulations per self-play "
                                                  "decision.")] = 16,
    steps: Annotated[int, typer.Option(help="Decisions per game of the batch per iteration "
                                            "(a finished game is replaced at once).")] = 32,
    updates: Annotated[int, typer.Option(help="Minibatches of learning per iteration, drawn "
                                              "from the last eight iterations' positions.")
                       ] = 256,
    check_minutes: Annotated[float, typer.Option(
        help="Play the raw policy against greedy this often (0: never).")] = 5.0,
    check_games: Annotated[int, typer.Option(help="Games per check against greedy.")] = 20,
    seed: Annotated[int, typer.Option(help="The random seed.")] = 0,
    rescore: Annotated[int, typer.Option(
        help="Positions with at most this many empty cells learn the exact solver's value "
        "instead of their game's result, as Leela Chess Zero rescores with tablebases "
        "(Card Commons' Tutorial; 0: off).")] = 0,
    rescore_policy: Annotated[bool, typer.Option(
        "--rescore-policy", help="With --rescore: a position the solver finds won also "
        "learns the winning move it found as its policy.")] = False,
    rescore_children: Annotated[int, typer.Option(
        help="At each self-play decision, also try a legal move drawn at random without "
        "playing it; where at most this many cells are empty after it, that position "
        "learns the exact solver's value (Card Commons' Tutorial; 0: off).")] = 0,
    bot_starts: Annotated[float | None, typer.Option(
        help="The share of new self-play games (0 to 1) that start at a position of a game "
        "between two greedy bots, as KataGo starts some self-play games from human games' "
        "positions (0: all start at the opening). Default: 0.5 in Card Commons' Tutorial, "
        "where it was measured to help (docs/RESEARCH.md), 0 elsewhere.")] = None,
    bot_starts_left: Annotated[int | None, typer.Option(
        help="With bot starts: only positions with at least this many empty cells (Card "
        "Commons; the default 10 leaves out every endgame the learned-strength bench "
        "grades, which have at most 9).")] = None,
    bot_starts_games: Annotated[int, typer.Option(
        help="With bot starts: how many games the two greedy bots play for the pool of "
        "starting positions (inside the training time).")] = 256,
    explore: Annotated[float, typer.Option(
        help="Near the end of the game (Card Commons: at most --explore-left empty cells), "
        "the share of self-play moves (0 to 1) drawn at random from the legal ones instead "
        "of the search's, so self-play also learns the positions its own choices rarely "
        "reach.")] = 0.0,
    explore_left: Annotated[int, typer.Option(
        help="With --explore: explore where at most this many cells are empty.")] = 8,
    average: Annotated[float, typer.Option(
        help="The checkpoint holds a moving average of the weights, each iteration's "
        "weighing 1 minus this (0: the latest weights alone); self-play goes on with the "
        "latest.")] = 0.9,
) -> None:
    """Train a bot by self-play (AlphaZero-style, mctx's search over the JAX rules)."""
    with user_errors():
        config = _config(game, option, minutes, games, simulations, steps, seed)
        if updates < 1:
            raise QuarkadeError(f"--updates {updates}: give at least 1")
        config.updates = updates
        if not 0 <= average < 1:
            raise QuarkadeError(f"--average {average:g}: give 0 (the latest weights) or more, "
                                "below 1")
        config.average = average
        config.rescore = _solved_up_to("--rescore", rescore, game, config.options)
        config.rescore_children = _solved_up_to("--rescore-children", rescore_children, game,
                                                config.options)
        if rescore_policy and not rescore:
            raise QuarkadeError("--rescore-policy goes with --rescore N (N empty cells)")
        config.rescore_policy = rescore_policy
        bot_starts, bot_starts_left = _bot_starts(game, config.options, bot_starts,
                                                  bot_starts_left, bot_starts_games)
        config.bot_starts, config.start_left = bot_starts, bot_starts_left
        config.start_games = bot_starts_games
        if not 0 <= explore <= 1:
            raise QuarkadeError(f"--explore {explore:g}: give a share from 0 to 1")
        if explore and not (game == "card-commons" and 0 <= explore_left <= 16):
            raise QuarkadeError(f"--explore-left {explore_left}: give 0 to 16 empty cells, in "
                                "Card Commons (the other games have no count of what is left)")
        config.explore, config.explore_left = explore, explore_left
        if check_minutes < 0 or check_games < 2:
            raise QuarkadeError("--check-minutes is 0 or more and --check-games at least 2")
        try:
            from quarkade.jax.alphazero import Trainer
        except ImportError as missing:
            raise QuarkadeError(f"training needs the jax extra ({missing.name} is missing): "
                                "pip install 'quarkade[jax]'") from None
        console.print(f"Training {game} ({_shown(config.options)}) for {minutes:g} minutes "
                      f"into {out}: {games} games an iteration, {simulations} simulations a "
                      "move. The first iteration compiles (a minute or two).")
        started = time.perf_counter()
        pool = None
        if bot_starts:
            kept = (f" with at least {bot_starts_left} empty cells" if bot_starts_left
                    else "")
            console.print(f"Playing {config.start_games} games between two greedy bots first; "
                          f"{bot_starts:.0%} of the self-play games will start at one of "
                          f"their positions{kept}. This takes a minute or two of the "
                          "training time.")
            from quarkade.jax import make
            from quarkade.sim.starts import start_pool

            pool = start_pool(make(game, **config.options), config.start_bot,
                              config.start_games, config.seed, config.start_left)
        trainer = Trainer(config, pool)
    _run(trainer, out, minutes, check_minutes, check_games, seed, started)


def _tutorial(game: str, options: dict[str, Any]) -> bool:
    """Whether the run trains Card Commons' Tutorial (the variant with an exact solver,
    where bot starts are on by default)."""
    return game == "card-commons" and options.get("variant") == "tutorial"


def _solved_up_to(flag: str, limit: int, game: str, options: dict[str, Any]) -> int:
    """The empty cells up to which the exact solver labels positions (0: off), checked."""
    if limit and not (_tutorial(game, options) and 0 < limit <= 16):
        raise QuarkadeError(f"{flag} {limit}: only Card Commons' Tutorial has an exact "
                            "solver to rescore with; give 1 to 16 empty cells there, or 0")
    return limit


def _bot_starts(game: str, options: dict[str, Any], share: float | None, left: int | None,
                games: int) -> tuple[float, int]:
    """The share of self-play games started from the greedy bots' positions and the empty
    cells those positions keep at least: what was given, else the game's default (on in
    Card Commons' Tutorial, where runs measured it, docs/RESEARCH.md; off elsewhere)."""
    if share is None:
        share = 0.5 if _tutorial(game, options) else 0.0
    if not 0 <= share <= 1:
        raise QuarkadeError(f"--bot-starts {share:g}: give a share from 0 to 1")
    if left is None:
        left = 10 if share and game == "card-commons" else 0
    elif left and not (share and game == "card-commons" and 0 <= left <= 16):
        raise QuarkadeError(f"--bot-starts-left {left}: give 0 to 16 empty cells, in Card "
                            "Commons, with bot starts on (--bot-starts above 0)")
    if share and games < 1:
        raise QuarkadeError(f"--bot-starts-games {games}: give at least 1 game")
    return share, left


def _config(game: str, option: list[str] | None, minutes: float, games: int,
            simulations: int, steps: int, seed: int) -> Any:
    if game not in TRAINABLE:
        raise QuarkadeError(f"no self-play training for {game!r}; trainable: "
                            f"{', '.join(TRAINABLE)}")
    options: dict[str, Any] = parse_option_pairs(option or [])
    loaded = load_game(game, **options)
    if loaded.num_players != 2:
        raise QuarkadeError(f"self-play training takes two seats, not {loaded.num_players}")
    if not 0 < minutes <= 24 * 60:
        raise QuarkadeError(f"--minutes {minutes:g}: give a time above 0, up to a day")
    for label, value, low in (("--games", games, 2), ("--simulations", simulations, 2),
                              ("--steps", steps, 1)):
        if value < low:
            raise QuarkadeError(f"{label} {value}: give at least {low}")
    try:
        from quarkade.jax.alphazero import Config
    except ImportError as missing:
        raise QuarkadeError(f"training needs the jax extra ({missing.name} is missing): "
                            "pip install 'quarkade[jax]'") from None
    return Config(game=game, options=dict(loaded.options), games=games,
                  simulations=simulations, max_steps=steps, seed=seed)


def _run(trainer: Any, out: Path, minutes: float, check_minutes: float, check_games: int,
         seed: int, started: float) -> None:
    from quarkade.jax.alphazero import plot_curve

    budget = minutes * 60
    next_check = 0.0
    greedy = None
    title = f"{trainer.config.game} ({_shown(trainer.config.options)}): self-play"
    columns = (TextColumn("[bold]{task.description}"), BarColumn(), TimeElapsedColumn(),
               TextColumn("{task.fields[status]}"))
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task("training", total=budget, status="compiling")
        elapsed = 0.0
        while elapsed < budget or not trainer.history:  # at least one iteration to save
            found = trainer.iteration(min(1.0, (time.perf_counter() - started) / budget))
            trainer.save(out)
            elapsed = time.perf_counter() - started
            if check_minutes and elapsed >= next_check:
                greedy = score_against_greedy(trainer, out, check_games,
                                              seed + trainer.iterations)
                found["score_vs_greedy"] = greedy
                trainer.save(out)
                next_check = elapsed + check_minutes * 60
            status = (f"iteration {found['iteration']}, {found['games']:,} games, "
                      f"losses {found['policy_loss']:.2f}/{found['value_loss']:.2f}"
                      + (f", against greedy {greedy:.2f}" if greedy is not None else ""))
            progress.update(task, completed=min(elapsed, budget), status=status)
    plot_curve(trainer.history, out / "curve.png", title)
    console.print(f"Saved the checkpoint and its learning curve in {out}: play it with "
                  f"--seat 1=learned:{out} (curve.png shows how it learned).")


def score_against_greedy(trainer: Any, out: Path, games: int, seed: int) -> float:
    """The checkpoint's raw policy (no search) against greedy, seats alternating: the mean
    score (win 1, shared or drawn 1/2, loss 0)."""
    from quarkade.agents import make_agent
    from quarkade.sim.match import play_game

    config = trainer.config
    game = load_game(config.game, **config.options)
    learned = make_agent(f"learned:{out},simulations=0", config.game)
    greedy = make_agent("greedy", config.game)
    total = 0.0
    rng = random.Random(seed)
    for index in range(games):
        seats = [learned, greedy] if index % 2 == 0 else [greedy, learned]
        final = play_game(game, seats, rng.getrandbits(48))
        winners = final.winners()
        mine = index % 2
        total += 1.0 if winners == [mine] else 0.5 if mine in winners or not winners else 0.0
    return total / games


def _shown(options: dict[str, Any]) -> str:
    return ", ".join(f"{key}={value}" for key, value in options.items())
