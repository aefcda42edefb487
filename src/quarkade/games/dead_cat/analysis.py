"""What the simulator records about a finished Dead Cat game (the hook described in
``quarkade.sim.hooks`` and docs/ARCHITECTURE.md).

The question a designer asks of Dead Cat is *when* to call "Dead Cat": the *timing* of a
round is how many cards lay in the time deck when it was called (0 is the first turn of a
round, before anyone peeked: ruling DC-6's degenerate line), or ``box ran out`` when the
last card of the box was drawn (DC-10: nobody announced; the seat that drew the last card
turned its die last, so it stands in for the announcer).

- key events: rounds played, how each round ended (its timing), the seats that took each
  round's cubes, and the final cubes;
- game tags: the player count;
- seat tags: each seat's place in the turn order (1 for the game's first seat, chosen by
  the die roll) and the timings at which it called "Dead Cat" in this game (each timing
  once, ``never announced`` if it never did, plus ``box ran out (last drawer)`` if it drew
  the last card of a box), so the summary gives the game win rate of seats that announced
  at each timing;
- tallies: the round win rate of the announcer (the last drawer when the box ran out) by
  timing: one trial per round, counted for the seat that called it (so that the summary
  can split it by agent);
- running score: cubes.

The player count is part of each seat tag's and tally's name, so runs of several player
counts analysed together keep their tables apart.
"""

from __future__ import annotations

from typing import Any

from quarkade.games.dead_cat.rules import NO_ANNOUNCER, DeadCatState, RoundResult

RAN_OUT = "box ran out (last drawer)"
NEVER = "never announced"
NOTES = {
    "turn order": "1 is the seat the die roll picked to begin the game; each new round "
                  "begins one seat lower (DC-2).",
    "time-deck size when announcing":
        "The game win rate of the seats that called Dead Cat with that many cards in the "
        "time deck at least once (0: before anyone peeked, DC-6's free cube); box ran out: "
        "seats that drew the last card of a box.",
    "announcer's round win rate by time-deck size when announcing":
        "One trial per round: did the seat that called Dead Cat take a cube? When the box "
        "ran out nobody called it, and the row counts the seat that drew the last card.",
}


def key_events(state: DeadCatState) -> dict[str, Any]:
    rounds = state.rounds()
    return {
        "rounds": len(rounds),
        "timings": [_timing(r) for r in rounds],
        "announcers": [None if r.announcer == NO_ANNOUNCER else r.announcer for r in rounds],
        "round_winners": [list(r.winners) for r in rounds],
        "cubes": state.cubes(),
    }


def game_tags(state: DeadCatState) -> dict[str, Any]:
    return {"players": state.game.num_players}


def seat_tags(state: DeadCatState) -> list[dict[str, Any]]:
    n = state.game.num_players
    rounds = state.rounds()
    first = rounds[0].starter if rounds else state.starter()
    announced: list[set[int]] = [set() for _ in range(n)]
    ran_out = [False] * n
    for r in rounds:
        if r.announcer == NO_ANNOUNCER:
            ran_out[r.peekers[-1]] = True
        else:
            announced[r.announcer].add(len(r.peekers))
    tags = []
    for seat in range(n):
        timings: list[Any] = sorted(announced[seat]) or [NEVER]
        if ran_out[seat]:
            timings.append(RAN_OUT)
        tags.append({"turn order": (seat - first) % n + 1,
                     f"time-deck size when announcing ({n} players)": timings})
    return tags


def tallies(state: DeadCatState) -> list[dict[str, dict[Any, tuple[int, int]]]]:
    n = state.game.num_players
    counts: list[dict[Any, list[int]]] = [{} for _ in range(n)]
    for r in state.rounds():
        caller = r.peekers[-1] if r.announcer == NO_ANNOUNCER else r.announcer
        tally = counts[caller].setdefault(_timing(r), [0, 0])
        tally[0] += caller in r.winners
        tally[1] += 1
    name = f"announcer's round win rate by time-deck size when announcing ({n} players)"
    return [{name: {timing: (hits, trials) for timing, (hits, trials) in seat.items()}}
            for seat in counts]


def running_score(state: DeadCatState) -> list[float]:
    return [float(cubes) for cubes in state.cubes()]


def _timing(r: RoundResult) -> int | str:
    """Cards in the time deck when the round was called, or ``RAN_OUT``."""
    return RAN_OUT if r.announcer == NO_ANNOUNCER else len(r.peekers)
