"""Card Commons solved: the large checks and measurements behind docs/ANALYSIS.md.

    python bench/card_commons_solve.py crosscheck --count 1000   # solver vs plain minimax
        [--variant tutorial|classic] [--field flat|torus]
    python bench/card_commons_solve.py cuts --count 150          # Classic: the cuts against
        [--field flat|torus] [--budget 3e5]                       # the plain kernel
    python bench/card_commons_solve.py perfect --games 1000      # perfect never loses a win
        [--field flat|torus] [--chunk 100]
    python bench/card_commons_solve.py endgame --positions 20    # Classic: time per position
    python bench/card_commons_solve.py greedy --empty 12         # Classic: positions of
        [--positions 20] [--budget 2e7] [--search df-pn]          # greedy games, CPU time
    python bench/card_commons_solve.py classic-ablation          # Classic: each feature's
        [--empty 7] [--positions 10] [--budget 4e6] [--rows 0,1]  # nodes and CPU s
    python bench/card_commons_solve.py growth --empty 6,7,8,9    # Classic: cost by size
        [--positions 10] [--budget 4e7]
    python bench/card_commons_solve.py depth --positions 6       # Tutorial: cost by ply
    python bench/card_commons_solve.py ablation [--field torus]  # Tutorial: each feature's
        [--budget 2e9] [--table-bits 24] [--rows 0,1,2]           # nodes and seconds per class

Each prints Markdown rows for docs/ANALYSIS.md; run them with ``nice -n 10`` on a shared
machine. The tests (tests/games/card_commons/test_solve.py) run small versions.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import statistics
import time
from collections import Counter
from dataclasses import dataclass
from typing import Any

from quarkade.agents import make_agent
from quarkade.games.card_commons.solve import classic, proof, trust, tutorial


def crosscheck(count: int, seed: int, variants: list[str], fields: list[str]) -> None:
    print("| rules | positions compared | by depth (plies: positions) | seat to move wins | "
          "sampled (too large for minimax) | disagreements | seconds |")
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for variant, torus, plies in (("tutorial", False, (9, 18)), ("tutorial", True, (9, 18)),
                                  ("classic", False, (16, 28)), ("classic", True, (16, 28))):
        if variant not in variants or ("torus" if torus else "flat") not in fields:
            continue
        start = time.perf_counter()
        report = trust.crosscheck(variant, torus, count, seed, budget=200_000, plies=plies)
        depths = ", ".join(f"{d}: {n}" for d, n in sorted(report.compared.items()))
        print(f"| {variant}{' torus' if torus else ''} | {report.total:,} | {depths} | "
              f"{report.wins:,} | {report.sampled:,} ({report.too_large:,}) | "
              f"{len(report.disagreements)} | {time.perf_counter() - start:.0f} |", flush=True)
        for history in report.disagreements:
            print(f"  disagreement after {history}")


def cuts(count: int, seed: int, fields: list[str], budget: int) -> None:
    """Random reachable Classic positions (12-26 plies in) that the plain kernel (no cut,
    held to minimax by ``crosscheck``) settles within ``budget`` nodes, searched again with
    today's cuts by both searches (alpha-beta and df-pn): disagreements (either search),
    and in how many the Law's bound settled a node of the alpha-beta search."""
    print("| field | positions compared | the Law's bound used in | disagreements | CPU s |")
    print("| --- | --- | --- | --- | --- |")
    for torus in [field == "torus" for field in fields]:
        start = time.process_time()
        plain = classic.ClassicSolver(torus=torus, table_bits=20, features=0)
        cut = classic.ClassicSolver(torus=torus, table_bits=20, etc_from=1,
                                    features=classic.SEARCHES["alpha-beta"])
        by_proof = proof.ProofSolver(torus=torus, table_bits=20,
                                     features=classic.SEARCHES["df-pn"])
        rng = random.Random(seed)
        done = used = wrong = 0
        while done < count:
            state = trust.random_position(rng, "classic", torus, (12, 26))
            if state is None:
                continue
            position = classic.position_of(state)
            plain.clear()
            value = plain.value(position, budget).value
            if value == classic.ABORTED:
                continue
            cut.clear()
            by_proof.clear()
            before = int(cut.stats[classic.LAW_BOUNDED])
            if cut.value(position).value != value or by_proof.value(position).value != value:
                wrong += 1
                print(f"  disagreement at {position}")
            done += 1
            used += int(cut.stats[classic.LAW_BOUNDED]) > before
        print(f"| {'torus' if torus else 'flat'} | {done:,} | {used} | {wrong} | "
              f"{time.process_time() - start:.0f} |", flush=True)


def perfect(games: int, seed: int, fields: list[str], chunk: int) -> None:
    """Games in chunks of ``chunk`` (seeds ``seed``, ``seed + 1``, ...), a running total
    printed after each, so a run cut short still says how far it got."""
    opponents = {
        "random": lambda: make_agent("random", "card-commons"),
        "greedy": lambda: make_agent("greedy", "card-commons"),
        "hard": lambda: make_agent("hard", "card-commons"),
    }
    print("| field | games so far | from won positions against random / greedy / hard | "
          "perfect lost | seconds |")
    print("| --- | --- | --- | --- | --- |")
    agent = make_agent("perfect", "card-commons")
    for torus in [field == "torus" for field in fields]:
        start = time.perf_counter()
        played: Counter[str] = Counter()
        lost: Counter[str] = Counter()
        for index in range(0, games, chunk):
            report = trust.perfect_games(agent, opponents, min(chunk, games - index),
                                         seed + index // chunk, torus=torus)
            played.update(report.games)
            lost.update(report.losses)
            for history in report.lost:
                print(f"  lost from {history}")
            print(f"| {'torus' if torus else 'flat'} | {sum(played.values()):,} | "
                  f"{' / '.join(str(played[name]) for name in opponents)} | "
                  f"{sum(lost.values())} | {time.perf_counter() - start:.0f} |", flush=True)


def endgame(positions: int, seed: int, largest: int) -> None:
    print("| empty cells | positions | nodes: median / max | seconds: median / mean / max | "
          "seat to move wins |")
    print("| --- | --- | --- | --- | --- |")
    solver = classic.ClassicSolver(table_bits=22)
    rng = random.Random(seed)
    for empty in range(4, largest + 1):
        nodes, seconds, wins = [], [], 0
        while len(nodes) < positions:
            state = trust.random_position(rng, "classic", False, (2, 30))
            if state is None:
                continue
            position = classic.position_of(state)
            if position.empty != empty:
                continue
            solver.clear()
            result = solver.value(position)
            nodes.append(result.nodes)
            seconds.append(result.seconds)
            wins += result.value == classic.WIN
        print(f"| {empty} | {positions} | {statistics.median(nodes):,.0f} / {max(nodes):,} | "
              f"{statistics.median(seconds):.3f} / {statistics.mean(seconds):.3f} / "
              f"{max(seconds):.2f} | {wins} |", flush=True)


def greedy_positions(count: int, empty: int, seed: int) -> list[classic.Position]:
    """The first turn with ``empty`` empty cells of each of ``count`` greedy-against-greedy
    Classic games (seeds ``seed``, ``seed + 1``, ...; games that skip that size are
    passed over)."""
    from quarkade.core.registry import load_game
    from quarkade.games.card_commons.solve.puzzles import empty_cells
    from quarkade.sim.match import play_game

    game = load_game("card-commons", variant="classic")
    found: list[classic.Position] = []
    while len(found) < count:
        agents = [make_agent("greedy", "card-commons") for _ in range(2)]
        final = play_game(game, agents, seed)
        seed += 1
        state = game.new_initial_state()
        for action in final.history():
            state.apply_action(action)
            if state.is_terminal():
                break
            if state.current_player() >= 0 and state.phase() == "turn" and \
                    empty_cells(state) == empty:
                found.append(classic.position_of(state))
                break
    return found


CLASSIC_ABLATION = (
    ("before (issue 18's search)", 0),
    ("+ a pass that wins at once", classic.PASS_WINS),
    ("+ the static bound", classic.PASS_WINS | classic.BOUND),
    ("+ each discard a child", classic.PASS_WINS | classic.BOUND | classic.DISCARDS),
    ("+ known-lost children (ETC)", classic.PASS_WINS | classic.BOUND | classic.DISCARDS
     | classic.ETC),
    ("+ history order", classic.PASS_WINS | classic.BOUND | classic.DISCARDS | classic.ETC
     | classic.HISTORY),
    ("+ killer", classic.PASS_WINS | classic.BOUND | classic.DISCARDS | classic.ETC
     | classic.HISTORY | classic.KILLER),
    ("+ the Law's bound", classic.PASS_WINS | classic.BOUND | classic.DISCARDS | classic.ETC
     | classic.HISTORY | classic.KILLER | classic.LAW),
    ("+ cards matched to cells", classic.PASS_WINS | classic.BOUND | classic.DISCARDS
     | classic.ETC | classic.HISTORY | classic.KILLER | classic.LAW | classic.MATCHING),
    ("+ a useless pass forgotten", classic.PASS_WINS | classic.BOUND | classic.DISCARDS
     | classic.ETC | classic.HISTORY | classic.KILLER | classic.LAW | classic.MATCHING
     | classic.FORGET_PASS),
    ("+ children the bound settles", classic.FEATURES & ~classic.TIE),
    ("+ the tie bound: today's defaults", classic.FEATURES),
    ("defaults + the fewest-places discard first", classic.FEATURES | classic.SPARE_FIRST),
    ("defaults + mobility order", classic.FEATURES | classic.MOBILITY),
    ("defaults + the pass first when ahead", classic.FEATURES | classic.PASS_FIRST),
    ("defaults + symmetry keys", classic.FEATURES | classic.SYMMETRY),
)


def classic_ablation(empty: int, positions: int, seed: int, budget: int,
                     rows: list[int]) -> None:
    """The same greedy positions searched with the features of each row (a fresh table
    and history per position); a position past ``budget`` counts its budget. CPU s."""
    found = greedy_positions(positions, empty, seed)
    print(f"| search ({positions} greedy positions, {empty} empty cells) | settled | "
          "nodes: total / median / max | CPU s: total / max |")
    print("| --- | --- | --- | --- |")
    for index in rows:
        label, features = CLASSIC_ABLATION[index]
        tally = tally_searches(classic_solver(22, features), found, budget)
        print(f"| {label} | {tally.settled} of {positions} | {sum(tally.nodes):,} / "
              f"{statistics.median(tally.nodes):,.0f} / {max(tally.nodes):,} | "
              f"{sum(tally.seconds):.1f} / {max(tally.seconds):.2f} |", flush=True)


def growth(sizes: list[int], positions: int, seed: int, budget: int, features: int) -> None:
    """Greedy positions of each size searched with today's kernel (a fresh table each):
    how the cost grows with the empty cells. CPU s."""
    print("| empty cells | settled within the budget | nodes: median / max | "
          "CPU s: median / max | seat to move wins |")
    print("| --- | --- | --- | --- | --- |")
    solver = classic_solver(24, features)
    for empty in sizes:
        tally = tally_searches(solver, greedy_positions(positions, empty, seed), budget)
        print(f"| {empty} | {tally.settled} of {positions} (budget {budget:,}) | "
              f"{statistics.median(tally.nodes):,.0f} / {max(tally.nodes):,} | "
              f"{statistics.median(tally.seconds):.2f} / {max(tally.seconds):.2f} | "
              f"{tally.wins} |", flush=True)


@dataclass
class Tally:
    """Searches of a list of positions: nodes and CPU seconds of each, how many settled
    within the budget and how many the seat to move wins."""

    nodes: list[int] = dataclasses.field(default_factory=list)
    seconds: list[float] = dataclasses.field(default_factory=list)
    settled: int = 0
    wins: int = 0


def classic_solver(table_bits: int, features: int) -> classic.ClassicSolver:
    """A Classic solver with its kernel compiled (or loaded) before any clock starts."""
    solver = proof.solver(table_bits=table_bits, features=features)
    solver.value(classic.Position((1,) + (0,) * 15, (1, 2), 0, 0, False, 0, -1))
    return solver


def tally_searches(solver: classic.ClassicSolver, positions: list[classic.Position],
                   budget: int, each: bool = False) -> Tally:
    """Each position searched with a fresh table up to ``budget`` nodes (``timed_value``);
    with ``each``, a line per position as it is settled or given up."""
    tally = Tally()
    for position in positions:
        result, cpu = timed_value(solver, position, budget)
        tally.seconds.append(cpu)
        tally.nodes.append(result.nodes)
        tally.settled += result.value != classic.ABORTED
        tally.wins += result.value == classic.WIN
        if each:
            how = "settled" if result.value != classic.ABORTED else "not settled"
            print(f"  position {len(tally.nodes)}: {how}, {result.nodes:,} nodes, "
                  f"{cpu:.2f} CPU s", flush=True)
    return tally


def timed_value(solver: Any, position: Any, budget: int) -> tuple[Any, float]:
    """``position`` searched with a fresh table up to ``budget`` nodes, and the CPU seconds
    it took (the load does not inflate them)."""
    solver.clear()
    start = time.process_time()
    result = solver.value(position, budget)
    return result, time.process_time() - start


def greedy(positions: int, empty: int, seed: int, budget: int, features: int,
           table_bits: int) -> None:
    """Classic positions from greedy games with ``empty`` empty cells, each searched with a
    fresh table up to ``budget`` nodes; CPU seconds (the load does not inflate them)."""
    print("| empty cells | positions | settled within the budget | nodes: median / max | "
          "CPU seconds: median / max | seat to move wins |")
    print("| --- | --- | --- | --- | --- | --- |")
    solver = classic_solver(table_bits, features)
    tally = tally_searches(solver, greedy_positions(positions, empty, seed), budget,
                           each=True)
    print(f"| {empty} | {positions} | {tally.settled} (budget {budget:,}) | "
          f"{statistics.median(tally.nodes):,.0f} / {max(tally.nodes):,} | "
          f"{statistics.median(tally.seconds):.2f} / {max(tally.seconds):.2f} | "
          f"{tally.wins} |", flush=True)


def depth(positions: int, seed: int, torus: bool) -> None:
    print("| plies after the coin | positions | nodes: median / max | seconds: median / max |")
    print("| --- | --- | --- | --- |")
    solver = tutorial.TutorialSolver(torus=torus, table_bits=24)
    for plies in range(12, 3, -1):
        rng = random.Random(seed + plies)
        nodes, seconds = [], []
        while len(nodes) < positions:
            state = trust.random_position(rng, "tutorial", torus, (plies, plies))
            if state is None:
                continue
            solver.table.clear()
            result = solver.value(tutorial.position_of(state))
            nodes.append(result.nodes)
            seconds.append(result.seconds)
        print(f"| {plies} | {positions} | {statistics.median(nodes):,.0f} / {max(nodes):,} | "
              f"{statistics.median(seconds):.3f} / {max(seconds):.2f} |", flush=True)


# The Tutorial search's features turned on one at a time (docs/ANALYSIS.md, "The solver at
# C speed"): (label, features, inversion cost).
ABLATION = (
    ("before: kept card first", tutorial.KEPT_FIRST, 0),
    ("each discard a child", 0, 0),
    ("+ the sibling's refutation first", tutorial.SIBLING, 0),
    ("+ no reply wins at once", tutorial.SIBLING | tutorial.NO_REPLY_WINS, 0),
    ("+ a child known lost wins at once", tutorial.FEATURES, 0),
    (f"+ inversion cost {tutorial.INVERSION_COST} (today)", tutorial.FEATURES,
     tutorial.INVERSION_COST),
)


def ablation(torus: bool, budget: int, table_bits: int, rows: list[int]) -> None:
    """The four opening classes' root searches, one fresh solver (table) per class, with
    the features of each row; a class that needs more than ``budget`` nodes reads "> budget".
    Seconds are the process's CPU time, which the machine's load does not inflate."""
    from quarkade.games.card_commons.solve.book import openings

    classes = ["2H", "3H", "4H", "5H"]
    print("| search | " + " | ".join(f"{card}: nodes / CPU s" for card in classes)
          + " | all four: nodes / CPU s |")
    print("| --- |" + " --- |" * (len(classes) + 1))
    for index in rows:
        label, features, cost = ABLATION[index]
        cells, total, seconds, over = [], 0, 0.0, False
        for card in classes:
            solver = tutorial.TutorialSolver(torus=torus, table_bits=table_bits,
                                             features=features, inversion_cost=cost)
            root = next(row for row in openings(solver) if row.card == card).position
            tutorial_warm_up(solver)
            start = time.process_time()
            result = solver.value(root, budget=budget)
            spent = time.process_time() - start
            if result.value == tutorial.ABORTED:
                cells.append(f"> {budget:,} / {spent:.0f}")
                over = True
            else:
                cells.append(f"{result.nodes:,} / {spent:.1f}")
            total += result.nodes
            seconds += spent
        print(f"| {label} | " + " | ".join(cells)
              + f" | {'> ' if over else ''}{total:,} / {seconds:.0f} |", flush=True)


def tutorial_warm_up(solver: tutorial.TutorialSolver) -> None:
    """Compile (or load) the kernel before the clock starts: a tiny search."""
    solver.value(tutorial.Position((1,) + (0,) * 15, 1 << 3, 1 << 4))
    solver.table.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("crosscheck")
    check.add_argument("--count", type=int, default=1000)
    check.add_argument("--variant", action="append", choices=["tutorial", "classic"],
                       help="only these rules (repeatable; default both)")
    check.add_argument("--field", action="append", choices=["flat", "torus"],
                       help="only this field (repeatable; default both)")
    check_cuts = sub.add_parser("cuts")
    check_cuts.add_argument("--count", type=int, default=150)
    check_cuts.add_argument("--field", action="append", choices=["flat", "torus"],
                            help="only this field (repeatable; default both)")
    check_cuts.add_argument("--budget", type=float, default=3e5)
    games = sub.add_parser("perfect")
    games.add_argument("--games", type=int, default=1000)
    games.add_argument("--field", action="append", choices=["flat", "torus"],
                       help="only this field (repeatable; default both)")
    games.add_argument("--chunk", type=int, default=100)
    end = sub.add_parser("endgame")
    end.add_argument("--positions", type=int, default=20)
    end.add_argument("--largest", type=int, default=9)
    taken = sub.add_parser("greedy")
    taken.add_argument("--positions", type=int, default=20)
    taken.add_argument("--empty", type=int, default=12)
    taken.add_argument("--budget", type=float, default=2e7)
    taken.add_argument("--table-bits", type=int, default=22)
    ablate_classic = sub.add_parser("classic-ablation")
    ablate_classic.add_argument("--empty", type=int, default=7)
    ablate_classic.add_argument("--positions", type=int, default=10)
    ablate_classic.add_argument("--budget", type=float, default=4e6)
    ablate_classic.add_argument("--rows", default=",".join(
        str(i) for i in range(len(CLASSIC_ABLATION))))
    grows = sub.add_parser("growth")
    grows.add_argument("--empty", default="6,7,8,9")
    grows.add_argument("--positions", type=int, default=10)
    grows.add_argument("--budget", type=float, default=4e7)
    for each in (taken, grows):
        each.add_argument("--search", choices=sorted(classic.SEARCHES), default="default",
                          help="the Classic search (default: classic.FEATURES)")
    cost = sub.add_parser("depth")
    cost.add_argument("--positions", type=int, default=6)
    cost.add_argument("--torus", action="store_true")
    for each in (check, check_cuts, games, end, taken, cost, ablate_classic, grows):
        each.add_argument("--seed", type=int, default=1)
    ablate = sub.add_parser("ablation")
    ablate.add_argument("--field", choices=["flat", "torus"], default="flat")
    ablate.add_argument("--budget", type=float, default=2e9)
    ablate.add_argument("--table-bits", type=int, default=24)
    ablate.add_argument("--rows", default=",".join(str(i) for i in range(len(ABLATION))),
                        help="which rows (0: before, ..., the last: today)")
    args = parser.parse_args()
    if args.command == "crosscheck":
        crosscheck(args.count, args.seed, args.variant or ["tutorial", "classic"],
                   args.field or ["flat", "torus"])
    elif args.command == "cuts":
        cuts(args.count, args.seed, args.field or ["flat", "torus"], int(args.budget))
    elif args.command == "perfect":
        perfect(args.games, args.seed, args.field or ["flat", "torus"], args.chunk)
    elif args.command == "endgame":
        endgame(args.positions, args.seed, args.largest)
    elif args.command == "greedy":
        greedy(args.positions, args.empty, args.seed, int(args.budget),
               classic.SEARCHES[args.search], args.table_bits)
    elif args.command == "classic-ablation":
        classic_ablation(args.empty, args.positions, args.seed, int(args.budget),
                         [int(row) for row in args.rows.split(",")])
    elif args.command == "growth":
        growth([int(e) for e in args.empty.split(",")], args.positions, args.seed,
               int(args.budget), classic.SEARCHES[args.search])
    elif args.command == "ablation":
        ablation(args.field == "torus", int(args.budget), args.table_bits,
                 [int(row) for row in args.rows.split(",")])
    else:
        depth(args.positions, args.seed, args.torus)


if __name__ == "__main__":
    main()
