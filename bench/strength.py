"""The strength table of docs/AGENTS.md: each level against the weaker ones, seats rotated.

Run: ``python bench/strength.py [--games 200] [--workers 2] [--seed 1] [--write docs/AGENTS.md]
[--only GAME] [--players N] [--options TEXT] [--pairing HERO:OPPONENT] [--openspiel RATIO]``

For every table (a game and its options) and pairing (hero against opponent), plays
``--games`` seeded games through the simulator (``quarkade.sim``): the hero takes one seat
and the opponent every other seat, the hero's seat rotating game by game, and every
pairing of a table plays the same deals. A game scores 1 for a hero win, 1/k for a win
shared by k seats, and 1/players when nobody wins. The interval is Wilson's 95% interval
of that score over the games. ``--write`` replaces the table between the markers in the
file (with ``--only``, just that game's rows); without it the table is printed.
``--players N`` (repeatable) keeps the tables of those player counts, ``--options TEXT``
the table whose options read so (``'players=2, goal=3'``), ``--pairing HERO:OPPONENT``
(repeatable) those pairings: a run plays only what it names and keeps the
file's other rows, so each row says how many games it was measured over.

Besides the level-against-level pairings, a table may name its own: issue 18's goals
(Hadronize at goal 3 against perfect play's score, ``hard`` against ``ev`` at goal 10,
``hard`` against ``greedy`` at every table size of Hadronize and Dead Cat).

``--openspiel RATIO`` adds a row per table: ``hard`` against OpenSpiel's own Python search
bot (ISMCTSBot, or MCTSBot for open games) through the OpenSpiel adapter, that bot given
RATIO times ``hard``'s wall time per move (``bench/openspiel_opponent.py``; needs the
``rl`` extra). The row's opponent cell gives both mean times per move.
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

PAIRINGS = [("hard", "greedy"), ("hard", "random"), ("greedy", "random")]
AGAINST_GREEDY = [("hard", "greedy")]
# Issue 18: at goal 3 (solved) hard is measured beside perfect play (``exact``).
AGAINST_PERFECT = [("hard", "random"), ("exact", "random"), ("hard", "greedy"),
                   ("exact", "greedy")]
TABLES: list[tuple[str, dict[str, object], list[tuple[str, str]]]] = [
    ("hadronize", {"players": 2}, [*PAIRINGS, ("hard", "ev")]),
    ("hadronize", {"players": 2, "goal": 3}, AGAINST_PERFECT),
    ("hadronize", {"players": 3}, AGAINST_GREEDY),
    ("hadronize", {"players": 4}, PAIRINGS),
    ("hadronize", {"players": 5}, AGAINST_GREEDY),
    ("hadronize", {"players": 6}, AGAINST_GREEDY),
    ("card-commons", {"players": 2}, PAIRINGS),
    ("dead-cat", {"players": 2}, PAIRINGS),
    ("dead-cat", {"players": 2, "peek_first": True}, PAIRINGS),
    *[("dead-cat", {"players": n, **rules}, AGAINST_GREEDY)
      for n in (3, 4, 5) for rules in ({}, {"peek_first": True})],
    ("decoherence", {"players": 2}, PAIRINGS),
]
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
    parser.add_argument("--players", type=int, action="append",
                        help="only the tables of this player count (repeatable)")
    parser.add_argument("--pairing", action="append", metavar="HERO:OPPONENT",
                        help="only this pairing (repeatable), e.g. hard:ev")
    parser.add_argument("--options", action="append", metavar="TEXT",
                        help="only the table whose options read so (repeatable), "
                             "e.g. 'players=2, goal=3'")
    parser.add_argument("--write", type=Path, help="replace the table in this Markdown file")
    parser.add_argument("--openspiel", type=float, default=0.0, metavar="RATIO",
                        help="add hard against OpenSpiel's search bot given RATIO times "
                             "hard's time per move")
    parser.add_argument("--no-pairings", action="store_true",
                        help="play only the OpenSpiel rows (keep the pairings' rows in the file)")
    args = parser.parse_args()
    header = ["| game | options | hero | opponent | games | hero's score | 95% interval "
              "| fair share | minutes |",
              "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"]
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    rows: dict[tuple[str, str, str, str], str] = {}  # this run's rows
    chosen = {tuple(text.split(":", 1)) for text in args.pairing or []}
    for game, options, pairings in TABLES:
        if args.only and game != args.only:
            continue
        if args.players and options["players"] not in args.players:
            continue
        shown = options_text(options)
        if args.options and shown not in args.options:
            continue
        for hero, opponent in [] if args.no_pairings else pairings:
            if chosen and (hero, opponent) not in chosen:
                continue
            rate, low, high, seconds = measure(game, options, hero, opponent, args.games,
                                               args.workers, args.seed)
            players = int(options["players"])  # type: ignore[call-overload]
            line = (f"| {game} | {shown} | {hero} | {opponent} | {args.games} | {rate:.3f} | "
                    f"[{low:.3f}, {high:.3f}] | {1 / players:.2f} | {seconds / 60:.1f} |")
            print(line, flush=True)
            rows[(game, shown, hero, opponent)] = line
        if args.openspiel:
            from openspiel_opponent import measure as against_openspiel

            found = against_openspiel(game, options, "hard", args.games, args.workers,
                                      args.seed, args.openspiel)
            players = int(options["players"])  # type: ignore[call-overload]
            label = openspiel_label(game, args.openspiel)
            line = (f"| {game} | {shown} | hard | {label} ({1000 * found['hero_move']:.0f} "
                    f"ms against {1000 * found['bot_move']:.0f} ms a move) | {args.games} | "
                    f"{found['rate']:.3f} | [{found['low']:.3f}, {found['high']:.3f}] | "
                    f"{1 / players:.2f} | {found['seconds'] / 60:.1f} |")
            print(line, flush=True)
            rows[(game, shown, "hard", label)] = line
    # The file's rows are read only now: other runs may have written theirs meanwhile.
    text = args.write.read_text(encoding="utf-8") if args.write else ""
    found = pattern.search(text)
    rows = without_renamed({**previous_rows(found.group(0) if found else ""), **rows})
    order = row_order()
    lines = header + [rows[key] for key in order if key in rows] + [
        line for key, line in rows.items() if key not in order]
    specs = "\n".join(f"- {game}: " + ", ".join(f"{level} = {shown_spec(spec)}" for level, spec in
                                                 levels(game).items())
                      for game in dict.fromkeys(g for g, _, _ in TABLES))
    block = (f"{BEGIN}\nSeed {args.seed}, {args.workers} workers; each row gives its number "
             f"of games.\n\n" + "\n".join(lines) + f"\n\nThe levels:\n\n{specs}\n{END}")
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


def openspiel_label(game: str, ratio: float) -> str:
    """The opponent cell's name for OpenSpiel's bot, without its measured times."""
    from openspiel_opponent import opponent_name

    return f"{opponent_name(game)}, {ratio:g}x hard's time"


def row_order() -> list[tuple[str, str, str, str]]:
    return [(game, options_text(options), hero, opponent)
            for game, options, pairings in TABLES for hero, opponent in pairings]


def without_renamed(rows: dict[tuple[str, str, str, str], str]
                    ) -> dict[tuple[str, str, str, str], str]:
    """``rows`` without those of a hero its table no longer names (the hard level's bot
    renamed: Decoherence's ``hard`` was ``lookahead``, whose rows then read ``lookahead``)
    once ``hard`` has a row against the same opponent: a row stays only while it is the
    figure there is."""
    heroes = {(game, options_text(options)): {"hard", *(hero for hero, _ in pairings)}
              for game, options, pairings in TABLES}

    def against(key: tuple[str, str, str, str]) -> tuple[str, str, str]:
        return key[0], key[1], key[3].split(",")[0]  # OpenSpiel's bot without its budget

    def current(key: tuple[str, str, str, str]) -> bool:
        return key[2] in heroes.get((key[0], key[1]), {key[2]})

    measured = {against(key) for key in rows if key[2] == "hard"}
    return {key: line for key, line in rows.items()
            if current(key) or against(key) not in measured}


def previous_rows(block: str) -> dict[tuple[str, str, str, str], str]:
    """The rows already in the file, so that ``--only`` replaces just its game's rows. A
    row written before rows had a games column gets the count its table's header gave."""
    rows = {}
    counted = re.search(r"(\d+) games per row", block)
    for line in block.splitlines():
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0] in ("game", "---") or len(cells) not in (8, 9):
            continue
        if len(cells) == 8:
            cells.insert(4, counted.group(1) if counted else "?")
            line = "| " + " | ".join(cells) + " |"
        # An OpenSpiel row is known by its opponent's name, without the measured times.
        rows[(cells[0], cells[1], cells[2], cells[3].split(" (")[0])] = line
    return rows

if __name__ == "__main__":
    main()
