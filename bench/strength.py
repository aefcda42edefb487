"""The strength table of docs/AGENTS.md: each level against the weaker ones, seats rotated.

Run: ``python bench/strength.py [--games 200] [--workers 2] [--seed 1] [--write docs/AGENTS.md]``

For every table (a game and its options) and pairing (hero against opponent), plays
``--games`` seeded games through the simulator (``quarkade.sim``): the hero takes one seat
and the opponent every other seat, the hero's seat rotating game by game, and every
pairing of a table plays the same deals. A game scores 1 for a hero win, 1/k for a win
shared by k seats, and 1/players when nobody wins. The interval is Wilson's 95% interval
of that score over the games. ``--write`` replaces the table between the markers in the
file (with ``--only``, just that game's rows); without it the table is printed.
"""

from __future__ import annotations

import argparse
import re
import time
from pathlib import Path

from quarkade.agents.registry import levels
from quarkade.sim.plan import Plan
from quarkade.sim.runner import run_plan
from quarkade.sim.stats import wilson
from quarkade.sim.tally import Tally

TABLES: list[tuple[str, dict[str, object]]] = [
    ("hadronize", {"players": 2}),
    ("hadronize", {"players": 4}),
    ("card-commons", {"players": 2}),
    ("dead-cat", {"players": 2}),
    ("dead-cat", {"players": 2, "peek_first": True}),
    ("decoherence", {"players": 2}),
]
PAIRINGS = [("hard", "greedy"), ("hard", "random"), ("greedy", "random")]
BEGIN, END = "<!-- strength table: begin -->", "<!-- strength table: end -->"


def hero_score(tally: Tally, hero: str) -> float:
    total = 0.0
    for (_, seats, winners, _), count in tally.outcomes.items():
        if not winners:
            total += count / len(seats)
        elif any(seats[w] == hero for w in winners):
            total += count / len(winners)
    return total


def measure(game: str, options: dict[str, object], hero: str, opponent: str, games: int,
            workers: int, seed: int) -> tuple[float, float, float, float]:
    players = int(options["players"])  # type: ignore[call-overload]
    plan = Plan(game, dict(options), ((hero, *[opponent] * (players - 1)),), games, seed)
    start = time.perf_counter()
    outcome = run_plan(plan, workers=workers, keep_results=False)
    score = hero_score(outcome.tally, hero)
    low, high = wilson(score, games)
    return score / games, low, high, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--only", help="only the tables of this game")
    parser.add_argument("--write", type=Path, help="replace the table in this Markdown file")
    args = parser.parse_args()
    header = ["| game | options | hero | opponent | hero's score | 95% interval | fair share "
              "| minutes |", "| --- | --- | --- | --- | --- | --- | --- | --- |"]
    text = args.write.read_text(encoding="utf-8") if args.write else ""
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    found = pattern.search(text)
    rows = previous_rows(found.group(0) if found else "")
    for game, options in TABLES:
        if args.only and game != args.only:
            continue
        shown = options_text(options)
        for hero, opponent in PAIRINGS:
            rate, low, high, seconds = measure(game, options, hero, opponent, args.games,
                                               args.workers, args.seed)
            players = int(options["players"])  # type: ignore[call-overload]
            line = (f"| {game} | {shown} | {hero} | {opponent} | {rate:.3f} | "
                    f"[{low:.3f}, {high:.3f}] | {1 / players:.2f} | {seconds / 60:.1f} |")
            print(line, flush=True)
            rows[(game, shown, hero, opponent)] = line
    lines = header + [rows[key] for key in row_order() if key in rows]
    specs = "\n".join(f"- {game}: " + ", ".join(f"{level} = {shown_spec(spec)}" for level, spec in
                                                 levels(game).items())
                      for game in dict.fromkeys(g for g, _ in TABLES))
    block = (f"{BEGIN}\n{args.games} games per row, seed {args.seed}, {args.workers} "
             f"workers.\n\n" + "\n".join(lines) + f"\n\nThe levels:\n\n{specs}\n{END}")
    if args.write:
        args.write.write_text(pattern.sub(lambda _: block, text), encoding="utf-8")
    else:
        print(block)


def shown_spec(spec: object) -> str:
    """A level's spec in Markdown; one that depends on the player count reads per count."""
    if isinstance(spec, dict):
        return "; ".join(f"{'more' if count == 'more' else f'{count} players'}: `{inner}`"
                         for count, inner in spec.items())
    return f"`{spec}`"


def options_text(options: dict[str, object]) -> str:
    """A table's options as its rows show them, e.g. ``players=2, peek_first=True``."""
    return ", ".join(f"{k}={v}" for k, v in options.items())


def row_order() -> list[tuple[str, str, str, str]]:
    return [(game, options_text(options), hero, opponent)
            for game, options in TABLES for hero, opponent in PAIRINGS]


def previous_rows(block: str) -> dict[tuple[str, str, str, str], str]:
    """The rows already in the file, so that ``--only`` replaces just its game's rows."""
    rows = {}
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if len(cells) == 8 and cells[0] not in ("game", "---"):
            rows[(cells[0], cells[1], cells[2], cells[3])] = line
    return rows

if __name__ == "__main__":
    main()
