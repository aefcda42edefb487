"""Hadronize in the terminal: the table as a rich renderable, and a log line per turn.

Both read a seat's view (never the state), so they show only what that seat may know.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from quarkade.core.words import game_over
from quarkade.games.hadronize.notation import LETTERS


def render(view: dict[str, Any], names: Sequence[str], you: int | None = None) -> RenderableType:
    """Chambers per seat, hadronized quarks against the goal, and the superposed quark.

    ``you`` marks the seat of the person looking, if a person is.
    """
    goal = view["goal"]
    turns = view["turn"]
    title = (f"Hadronize - over after {turns} turn{'' if turns == 1 else 's'}"
             if view["phase"] == "over" else f"Hadronize - turn {turns + 1}")
    table = Table(title=title, title_justify="left",
                  show_edge=False, pad_edge=False)
    table.add_column("", width=1)
    table.add_column("player")
    for letter in LETTERS:
        table.add_column(letter, justify="right", header_style="bold")
    table.add_column("chamber", justify="right")
    table.add_column(f"hadronized /{goal}", justify="right")
    for seat, (chamber, done) in enumerate(zip(view["chambers"], view["hadronized"],
                                               strict=True)):
        marker = ">" if seat == view["active"] and view["phase"] != "over" else ""
        label = _name(names, seat)
        if seat == you and label != "you":
            label += " (you)"
        cells = [str(c) if c else "." for c in chamber]
        bar = "#" * min(done, goal) + "-" * max(goal - done, 0)
        table.add_row(marker, label, *cells, str(sum(chamber)),
                      f"{done:>3} {bar}" if goal <= 20 else str(done),
                      style="bold" if seat in view["winners"] else None)
    parts: list[RenderableType] = [table]
    pairs = zip(LETTERS, view["flavours"], strict=True)
    legend = Text("flavours: " + ", ".join(f"{letter}={name}" for letter, name in pairs),
                  style="dim")
    parts.append(legend)
    if view["superposition"]:
        parts.append(Text("superposed quark: " + " | ".join(view["superposition"]),
                          style="bold"))
    if view["last"] is not None:
        parts.append(Text("last turn: " + describe_last(view["last"], names)))
    if view["phase"] == "over":
        parts.append(Text(game_over(names, view["winners"]), style="bold"))
    return Group(*parts)


def log_line(view: dict[str, Any], actor: int, notation: str, names: Sequence[str]) -> str | None:
    """A line for the running log after ``notation`` was played, or None to stay quiet.

    Deals, superpositions and the choice of observer are folded into the collapse line.
    """
    word = notation.split()[0]
    if word == "first":
        return f"First to move: {_name(names, view['active'])}."
    if word == "collapse" and view["last"] is not None:
        return describe_last(view["last"], names)
    return None


def describe_last(last: dict[str, Any], names: Sequence[str]) -> str:
    """The last turn in words: who observed, what it collapsed into, how it reacted."""
    active = _name(names, last["active"])
    flavour = last["flavour"]
    if last["observer"] == last["active"]:
        head = f"{active} observed it: {flavour}"
    else:
        head = f"{active} made {_name(names, last['observer'])} observe it: {flavour}"
    if last["reaction"] == "hadronize":
        return f"{head}; {last['count']} {flavour} quarks hadronize."
    if last["reaction"] == "tunnel":
        return (f"{head}; {last['count']} {flavour} quarks tunnel from "
                f"{_name(names, last['observer'])} to {active}.")
    return f"{head}; no reaction."


def action_label(view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    """``observe 1`` with whom it names and what each possible collapse would do."""
    word, _, seat_text = notation.partition(" ")
    if word != "observe" or not view["superposition"]:
        return notation
    observer = int(seat_text)
    mover = view["active"]
    outcomes = []
    for flavour in view["superposition"]:
        held = view["chambers"][observer][view["flavours"].index(flavour)]
        if not held:
            outcomes.append(f"{flavour}: no reaction")
        elif observer == mover:
            outcomes.append(f"{flavour}: {held + 1} hadronize")
        else:
            outcomes.append(f"{flavour}: {held + 1} tunnel over")
    return f"{notation:<10} {_name(names, observer)} - " + ", ".join(outcomes)


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"
