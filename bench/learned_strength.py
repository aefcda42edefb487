"""The learned bot measured against the truth: docs/RESEARCH.md, "The self-play agent".

    python bench/learned_strength.py grade CHECKPOINT [--positions 1000] [--agents ...]
            [--keep positions.json] [--subset 200] [--batch 100]
        Card Commons' Tutorial: won positions sampled from greedy games (greedy against
        greedy, every turn position whose value the exact solver settles within --nodes
        and that the seat to move wins); for each agent, the share of those positions
        where its move keeps the win (the solver says the opponent then loses), overall
        and by empty cells. With --keep, the positions are kept in that file and the
        solver's value of every position after a graded move in a second one beside it
        (``positions.values.json``): a move is solved once across agents and runs. With
        --subset N, N of the kept positions, evenly spaced (every game's stretch); with
        --empty K, only those with K empty cells.
    python bench/learned_strength.py ranks CHECKPOINT --keep positions.json --empty 6
        Why the bot misses the win where it does: for each distinct kept position with K
        empty cells, its legal and winning moves, and where the best winning move stands
        among the legal ones by the network's prior and by its value of the position
        after the move (one move ahead, as a shallow search sees it).
    python bench/learned_strength.py games CHECKPOINT --opponent greedy [--games 600]
            [--game dead-cat --option peek_first=true] [--simulations N] [--simulator]
            [--chunk 20]
        The bot's score against an opponent over seeded games, seats alternating, with
        Wilson's 95% interval (the bot's searches of all games batched together; with
        --simulator, the simulator's plans as bench/strength.py, one move at a time).
        With --chunk N, N games at a time, the score so far printed after each.

Dead Cat against OpenSpiel's ISMCTSBot: ``python bench/openspiel_opponent.py dead-cat --hero
learned:CHECKPOINT --option peek_first=true --games 100 --bot-seconds 1``.

Agents are specs (``learned:CHECKPOINT``, ``learned:CHECKPOINT,simulations=0`` for the
network alone, ``greedy``, ``hard``, ``random``); ``LEARNED`` in a spec stands for the
checkpoint's bot (``learned:CHECKPOINT``). Run with ``nice -n 10`` on a shared machine;
it prints Markdown rows.
"""

from __future__ import annotations

import argparse
import json
import random
import time
from collections import Counter
from pathlib import Path
from typing import Any

from quarkade import load_game
from quarkade.agents import make_agent
from quarkade.core.agent import turn_for
from quarkade.games.card_commons.rules import CardCommonsState
from quarkade.games.card_commons.solve import tutorial
from quarkade.games.card_commons.solver import empty_cells
from quarkade.sim.match import play_game
from quarkade.sim.plan import Plan
from quarkade.sim.runner import run_plan
from quarkade.sim.stats import wilson

GRADED = ["LEARNED", "LEARNED,simulations=0", "greedy", "hard", "random"]


def won_positions(count: int, seed: int, nodes: int, solver: Any, max_empty: int
                  ) -> tuple[list[CardCommonsState], Counter[str]]:
    """``count`` turn positions of greedy-against-greedy Tutorial games with at most
    ``max_empty`` empty cells that the seat to move wins, and what was seen on the way
    (games, positions, unsettled, lost, too early)."""
    game = load_game("card-commons", variant="tutorial")
    greedy = make_agent("greedy", "card-commons")
    rng = random.Random(seed)
    found: list[CardCommonsState] = []
    seen: Counter[str] = Counter()
    while len(found) < count:
        final = play_game(game, [greedy, greedy], rng.getrandbits(48))
        seen["games"] += 1
        state = game.new_initial_state()
        for action in final.history():
            empty = 16 - bin(state._occupied).count("1")
            if state.phase() == "turn" and empty > max_empty:
                seen["too early"] += 1
            elif state.phase() == "turn" and len(found) < count:
                seen["positions"] += 1
                value = solver.value(tutorial.position_of(state), budget=nodes).value
                if value == tutorial.WIN:
                    found.append(state.clone())
                elif value == tutorial.LOSS:
                    seen["lost"] += 1
                else:
                    seen["unsettled"] += 1
            state.apply_action(action)
    return found, seen


def position_key(position: tutorial.Position) -> str:
    """A Tutorial position as text (the key of the child-value cache)."""
    return f"{','.join(map(str, position.cells))}/{position.mover}/{position.other}"


def keeps_win(state: CardCommonsState, action: int, solver: Any, nodes: int,
              known: dict[str, int] | None = None) -> int:
    """1 if the seat to move still wins after ``action``, 0 if not, -1 if the solver did not
    settle it within ``nodes``. ``known`` caches the answers by the position after the move
    (its value never changes; an unsettled one is tried again)."""
    child = state.clone()
    child.apply_action(action)
    if child.is_terminal():
        return int(child.winner() == state.current_player())
    position = tutorial.position_of(child)
    key = position_key(position)
    if known is not None and key in known:
        return known[key]
    value = solver.value(position, budget=nodes).value
    mark = 1 if value == tutorial.LOSS else 0 if value == tutorial.WIN else -1
    if known is not None and mark >= 0:
        known[key] = mark
    return mark


def moves_of(spec: str, states: list[CardCommonsState], seed: int, batch: int = 100,
             prove: bool = True, symmetric: bool = False) -> tuple[list[int], float]:
    """Each state's move by the agent ``spec`` (the learned bot's searches in batches of
    ``batch``), and the CPU seconds a move took, all threads (the figure that holds on a
    shared machine; the learned bot's first batch, which compiles its search, not counted
    when there are more)."""
    agent = make_agent(spec, "card-commons")
    start = time.process_time()
    simulations = getattr(agent, "simulations", 0)
    if simulations:
        search = agent.search(states[0].game)
        search.prove, search.symmetric = prove, symmetric or agent.symmetric
        # Batches of one kind (the longer search near the end, or not), so each batch is
        # searched once; the moves go back in the states' order.
        near = search.near_the_end(states)
        order = sorted(range(len(states)), key=lambda index: near[index])
        ordered = [states[index] for index in order]
        found = search.choose_many(ordered[:batch], simulations, seed)  # and compiles
        timed = len(states)
        if len(states) > batch:
            start, timed = time.process_time(), len(states) - batch
            for begin in range(batch, len(states), batch):
                found += search.choose_many(ordered[begin:begin + batch], simulations,
                                            seed + begin)
        moves = [0] * len(states)
        for index, move in zip(order, found, strict=True):
            moves[index] = move
        return moves, (time.process_time() - start) / timed
    if symmetric and "learned" in spec:
        agent.symmetric = True
    rng = random.Random(seed)
    moves = [agent.act(turn_for(state), rng) for state in states]
    return moves, (time.process_time() - start) / len(states)


def evenly(items: list[Any], count: int) -> list[Any]:
    """``count`` of ``items`` evenly spaced (all of them if there are no more)."""
    if count >= len(items):
        return items
    return [items[index * len(items) // count] for index in range(count)]


def kept_states(kept: Path) -> list[CardCommonsState]:
    """The positions a ``grade --keep`` file holds, replayed."""
    game = load_game("card-commons", variant="tutorial")
    states = []
    for history in json.loads(kept.read_text())["histories"]:
        state = game.new_initial_state()
        for action in history:
            state.apply_action(action)
        states.append(state)
    return states


def grade(checkpoint: str, count: int, seed: int, nodes: int, agents: list[str],
          max_empty: int, kept: Path | None, subset: int = 0, batch: int = 100,
          prove: bool = True, symmetric: bool = False, only_empty: int = -1) -> None:
    solver = tutorial.TutorialSolver(table_bits=22)
    start = time.perf_counter()
    if kept is not None and kept.exists():
        states = kept_states(kept)
        seen = Counter(json.loads(kept.read_text())["seen"])
    else:
        states, seen = won_positions(count, seed, nodes, solver, max_empty)
        if kept is not None:
            kept.write_text(json.dumps({"seen": seen, "histories": [s.history()
                                                                    for s in states]}))
    cache = kept.with_suffix(".values.json") if kept is not None else None
    known: dict[str, int] = (json.loads(cache.read_text())
                             if cache is not None and cache.exists() else {})
    if subset:
        states = evenly(states, subset)
    if only_empty >= 0:
        states = [state for state in states if empty_cells(state) == only_empty]
    empties = Counter(empty_cells(s) for s in states)
    print(f"{len(states)} won positions from {seen['games']} greedy games "
          f"({seen['positions']} turn positions with at most {max_empty} empty cells: "
          f"{seen['lost']} lost for the mover, {seen['unsettled']} not settled within "
          f"{nodes:,} nodes; {seen['too early']} earlier ones left out), "
          f"{time.perf_counter() - start:.0f} s; empty cells: "
          + ", ".join(f"{e}: {n}" for e, n in sorted(empties.items())), flush=True)
    levels = sorted(empties)
    print("| agent | positions | keeps the win | 95% interval | not settled | CPU ms a move | "
          + " | ".join(f"{e} empty" for e in levels) + " |")
    print("| --- " * (6 + len(levels)) + "|")
    for spec in agents:
        shown = spec.replace("LEARNED", f"learned:{checkpoint}")
        moves, seconds = moves_of(shown, states, seed, batch, prove, symmetric)
        marks = [keeps_win(state, move, solver, nodes, known)
                 for state, move in zip(states, moves, strict=True)]
        if cache is not None:  # whole or not at all: another run may be reading it
            written = cache.with_suffix(".partial")
            written.write_text(json.dumps(known))
            written.replace(cache)
        settled = [m for m in marks if m >= 0]
        won = sum(settled)
        low, high = wilson(won, len(settled))
        by_empty = []
        for level in levels:
            here = [m for s, m in zip(states, marks, strict=True)
                    if m >= 0 and empty_cells(s) == level]
            by_empty.append(f"{sum(here) / len(here):.2f}" if here else "-")
        name = spec.replace("LEARNED", "learned:DIR")
        if "learned" in name and not prove:
            name += " (no proofs)"
        if "learned" in name and symmetric:
            name += " (symmetric)"
        print(f"| `{name}` | {len(settled)} | "
              f"{won / len(settled):.3f} | [{low:.3f}, {high:.3f}] | "
              f"{len(marks) - len(settled)} | {1000 * seconds:.0f} | "
              + " | ".join(by_empty) + " |", flush=True)


def batched_games(checkpoint: str, game_name: str, options: dict[str, Any], opponent: str,
                  count: int, seed: int, simulations: int | None, chunk: int = 0) -> None:
    """``games`` with the learned bot's moves searched together: every game is played up
    to the bot's turn (chance and the opponent, a fresh one per game, in Python), then the
    bot moves in all of them at once, from a state each seat draws from its own turn
    (``turn.sample_state``), as the bot's ``act`` does. Seats alternate game by game.
    With ``chunk``, ``chunk`` games at a time (smaller batches search faster a move),
    the score so far printed after each."""
    game = load_game(game_name, **options)
    hero = f"learned:{checkpoint}" + (f",simulations={simulations}"
                                       if simulations is not None else "")
    bot = make_agent(hero, game_name)
    start = time.perf_counter()
    step = chunk or count
    score = 0.0
    for first in range(0, count, step):
        last = min(first + step, count)
        score += _games_together(bot, game, opponent, range(first, last), seed)
        if last < count:
            low, high = wilson(score, last)
            print(f"after {last} games: {score / last:.3f} [{low:.3f}, {high:.3f}], "
                  f"{(time.perf_counter() - start) / 60:.1f} min", flush=True)
    low, high = wilson(score, count)
    print(f"| {game_name} | {options} | `{hero.replace(checkpoint, 'DIR')}` | {opponent} | "
          f"{count} | {score / count:.3f} | [{low:.3f}, {high:.3f}] | "
          f"{(time.perf_counter() - start) / 60:.1f} |", flush=True)


def _games_together(bot: Any, game: Any, opponent: str, numbers: range, seed: int) -> float:
    """The bot's score in the games ``numbers`` (``batched_games``), played together."""
    from quarkade.core.rng import derived_rng, sample_chance

    states = {index: game.new_initial_state() for index in numbers}
    rngs = {index: derived_rng(seed, f"game{index}") for index in numbers}
    rivals = {index: make_agent(opponent, game.name) for index in numbers}
    while True:
        waiting = []
        for index, state in states.items():
            rng = rngs[index]
            while not state.is_terminal():
                if state.is_chance_node():
                    state.apply_action(sample_chance(state, rng))
                elif state.current_player() == index % 2:
                    waiting.append(index)
                    break
                else:
                    state.apply_action(rivals[index].act(turn_for(state), rng))
        if not waiting:
            break
        turns = [turn_for(states[index]) for index in waiting]
        if bot.simulations:
            search = bot.search(game)
            drawn = [turn.sample_state(rngs[index]) for turn, index in zip(turns, waiting,
                                                                          strict=True)]
            moves = search.choose_many(drawn, bot.simulations, rngs[waiting[0]].getrandbits(31))
        else:
            moves = [bot.policy_action(turn) for turn in turns]
        for index, move in zip(waiting, moves, strict=True):
            states[index].apply_action(move)
    score = 0.0
    for index, state in states.items():
        winners = state.winners()
        score += 1 / len(winners) if index % 2 in winners else 0.0 if winners else 0.5
    return score


def games(checkpoint: str, game: str, options: dict[str, Any], opponent: str, count: int,
          seed: int, workers: int, simulations: int | None) -> None:
    hero = f"learned:{checkpoint}" + (f",simulations={simulations}"
                                       if simulations is not None else "")
    players = load_game(game, **options).num_players
    plan = Plan(game, dict(options), ((hero, *[opponent] * (players - 1)),), count, seed)
    start = time.perf_counter()
    outcome = run_plan(plan, workers=workers, keep_results=False)
    score = 0.0
    for (_, seats, winners, _), number in outcome.tally.outcomes.items():
        if not winners:
            score += number / len(seats)
        elif any(seats[w] == hero for w in winners):
            score += number / len(winners)
    low, high = wilson(score, count)
    print(f"| {game} | {options} | `{hero.replace(checkpoint, 'DIR')}` | {opponent} | {count} | "
          f"{score / count:.3f} | [{low:.3f}, {high:.3f}] | "
          f"{(time.perf_counter() - start) / 60:.1f} |", flush=True)


def ranks(checkpoint: str, kept: Path, empty: int, nodes: int) -> None:
    """Where the winning move stands among the legal ones, by the network's prior and by
    its value one move ahead, in each distinct kept position with ``empty`` empty cells."""
    solver = tutorial.TutorialSolver(table_bits=22)
    agent = make_agent(f"learned:{checkpoint},simulations=0", "card-commons")
    states = [s for s in kept_states(kept) if empty_cells(s) == empty]
    distinct = {position_key(tutorial.position_of(s)): s for s in states}
    print(f"{len(states)} kept positions with {empty} empty cells, {len(distinct)} distinct")
    print("| legal moves | winning moves | best winner by the prior | by the value one "
          "move ahead |")
    print("| --- | --- | --- | --- |")
    by_prior, by_value = [], []
    for state in distinct.values():
        mover, legal = state.current_player(), state.legal_actions()
        winners = [a for a in legal if keeps_win(state, a, solver, nodes) == 1]
        logits, _ = agent.guess(state.view(mover), state.game.options)
        ahead = {}
        for action in legal:
            child = state.clone()
            child.apply_action(action)
            if child.is_terminal():
                ahead[action] = 1.0 if child.winner() == mover else -1.0
                continue
            seat = child.current_player()
            _, value = agent.guess(child.view(seat), state.game.options)
            ahead[action] = value if seat == mover else -value
        prior = sorted(legal, key=lambda a: -logits[a])
        value_order = sorted(legal, key=lambda a: -ahead[a])
        by_prior.append(min(prior.index(a) for a in winners) + 1)
        by_value.append(min(value_order.index(a) for a in winners) + 1)
        print(f"| {len(legal)} | {len(winners)} | {by_prior[-1]} | {by_value[-1]} |",
              flush=True)
    for name, places in (("prior", by_prior), ("value one move ahead", by_value)):
        places.sort()
        print(f"best winner by the {name}: median place {places[len(places) // 2]}, "
              f"first in {places.count(1)} of {len(places)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    sub = parser.add_subparsers(dest="command", required=True)
    graded = sub.add_parser("grade")
    graded.add_argument("checkpoint")
    graded.add_argument("--positions", type=int, default=1000)
    graded.add_argument("--nodes", type=int, default=5_000_000)
    graded.add_argument("--agents", nargs="+", default=GRADED)
    graded.add_argument("--max-empty", type=int, default=10,
                        help="leave out positions with more empty cells (their solve is "
                        "too long for a thousand)")
    graded.add_argument("--keep", type=Path,
                        help="keep the sampled positions in this file (JSON), and read "
                        "them from it when it exists; the solver's values of the positions "
                        "after graded moves are kept beside it (.values.json)")
    graded.add_argument("--subset", type=int, default=0,
                        help="grade this many of the positions, evenly spaced (0: all)")
    graded.add_argument("--batch", type=int, default=100,
                        help="positions the learned bot searches together")
    graded.add_argument("--no-proofs", action="store_true",
                        help="the learned bot's search proves nothing (plain Gumbel "
                        "MuZero: not even a won ending at the root is trusted)")
    graded.add_argument("--empty", type=int, default=-1,
                        help="grade only the positions with this many empty cells")
    graded.add_argument("--symmetric", action="store_true",
                        help="the learned bot's network averaged over the rules' "
                        "symmetries (the Tutorial's eight maps of the field)")
    ranked = sub.add_parser("ranks")
    ranked.add_argument("checkpoint")
    ranked.add_argument("--keep", type=Path, required=True,
                        help="the positions file of grade --keep")
    ranked.add_argument("--empty", type=int, default=6)
    ranked.add_argument("--nodes", type=int, default=5_000_000)
    played = sub.add_parser("games")
    played.add_argument("checkpoint")
    played.add_argument("--game", default="card-commons")
    played.add_argument("--option", action="append", default=[])
    played.add_argument("--opponent", default="greedy")
    played.add_argument("--games", type=int, default=600)
    played.add_argument("--workers", type=int, default=1)
    played.add_argument("--simulations", type=int)
    played.add_argument("--chunk", type=int, default=0,
                        help="play this many games together at a time, printing the score "
                        "so far after each (0: all together)")
    played.add_argument("--simulator", action="store_true",
                        help="play through the simulator (one bot move at a time) instead "
                        "of searching the bot's moves in all games together")
    for each in (graded, played):
        each.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    checkpoint = str(Path(args.checkpoint))
    if args.command == "grade":
        grade(checkpoint, args.positions, args.seed, args.nodes, args.agents, args.max_empty,
              args.keep, args.subset, args.batch, not args.no_proofs, args.symmetric,
              args.empty)
    elif args.command == "ranks":
        ranks(checkpoint, args.keep, args.empty, args.nodes)
    else:
        from quarkade.core.options import parse_option_pairs

        options = parse_option_pairs(args.option) or {"variant": "tutorial"}
        if args.simulator:
            games(checkpoint, args.game, options, args.opponent, args.games, args.seed,
                  args.workers, args.simulations)
        else:
            batched_games(checkpoint, args.game, options, args.opponent, args.games,
                          args.seed, args.simulations, args.chunk)


if __name__ == "__main__":
    main()
