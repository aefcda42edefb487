"""Dead Cat in the terminal: the table as a rich renderable, and a log line per action.

Both read a seat's view (never the state), so they show only what that seat may know: its
own peeked cards, and ``?`` for every other card of the time deck.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from quarkade.core.words import game_over


def render(view: dict[str, Any], names: Sequence[str], you: int | None = None) -> RenderableType:
    """Seats with dice and cubes, the box, the time deck by position, and the last round.

    ``you`` marks the seat of the person looking, if a person is.
    """
    goal = view["goal"]
    seats = Table(title=_title(view, names), title_justify="left", show_edge=False,
                  pad_edge=False)
    seats.add_column("", width=1)
    seats.add_column("player")
    seats.add_column("die", justify="right")
    seats.add_column(f"cubes /{goal}")
    seats.add_column("")
    over = view["phase"] == "over"
    for seat, (die, cubes) in enumerate(zip(view["dice"], view["cubes"], strict=True)):
        marker = ">" if seat == view["active"] and not over else ""
        bar = "#" * min(cubes, goal) + "-" * max(goal - cubes, 0)
        note = "starts this round" if seat == view["starter"] and not over else ""
        seats.add_row(marker, _label(names, seat, you), str(die), f"{bar} {cubes}", note,
                      style="bold" if seat in view["winners"] else None)
    parts: list[RenderableType] = [seats]
    deck = view["time_deck"]
    if not over:
        parts.append(Text(f"box: {view['box']} cards left ({view['removed']} more were put "
                          f"aside unseen); time deck: "
                          + (f"{_cards(len(deck))}, top first" if deck else "empty")))
    if deck:
        cards = Table(show_edge=False, pad_edge=False, box=None)
        cards.add_column("pos", justify="right")
        cards.add_column("peeked by")
        cards.add_column("card")
        for entry in deck:
            cards.add_row(str(entry["position"]), _label(names, entry["peeker"], you),
                          entry["card"] or "?")
        parts.append(cards)
    mine = [f"{entry['card']} at {entry['position']}" for entry in deck
            if entry["card"] is not None]
    if view["player"] is not None and mine:
        parts.append(Text("your peeks: " + ", ".join(mine), style="bold"))
    if view["last_round"] is not None:
        parts.append(Text(describe_round(view["last_round"], names), style="dim" if not over
                          else ""))
    if over:
        together = len(view["winners"]) > 1  # (as State.outcome() says it)
        parts.append(Text(game_over(names, view["winners"], ", each with four cubes" if together
                                    else "with four cubes"), style="bold"))
    return Group(*parts)


def log_line(view: dict[str, Any], actor: int, notation: str, names: Sequence[str]) -> str | None:
    """A line for the running log after ``notation`` was played, or None to stay quiet."""
    word, _, rest = notation.partition(" ")
    active = view["active"]
    if word == "first":
        return f"The die roll gives the first turn to {_name(names, active)}."
    if word == "draw":
        if rest:
            return f"{_does(names, active, 'peek')}: {'an' if rest == 'alive' else 'a'} {rest} cat."
        return f"{_does(names, active, 'peek')} at the top card of the box."
    last = view["last_round"]
    if word == "announce" and last is not None:
        return f"{_does(names, last['announcer'], 'call')} Dead Cat. " + _after_round(view, names)
    if word == "bet":
        line = f"{_does(names, actor, 'turn')} the die to {rest}."
        if not view["time_deck"] and last is not None:  # that peek emptied the box
            line += " The box is empty. " + _after_round(view, names)
        return line
    return None


def describe_round(last: dict[str, Any], names: Sequence[str]) -> str:
    """A finished round in words: how it ended, what was revealed, who scored."""
    how = ("the box ran out" if last["ran_out"]
           else f"{_name(names, last['announcer'])} called Dead Cat")
    count = last["count"]
    revealed = last["revealed"]
    if count is not None:
        found = f"revealed {', '.join(revealed)}: the cat died {_cards(count)} ago"
    elif revealed:
        found = f"revealed {', '.join(revealed)}: no dead cat, so the highest die wins"
    else:
        found = "the time deck was empty, so the highest die wins"
    dice = " ".join(str(d) for d in last["dice"])
    winners = " and ".join(_name(names, s) for s in last["winners"])
    if len(last["winners"]) > 1:
        verb = "take a cube each"
    else:  # "you take a cube", "Ben takes a cube"
        verb = "take a cube" if winners == "you" else "takes a cube"
    return f"Round {last['round']}: {how}; {found}. Dice {dice}: {winners} {verb}."


def action_label(view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    """A move with a few words on what it does."""
    if notation == "announce":
        return "announce  call Dead Cat: turn the time deck over from the top"
    if notation == "peek":
        return "peek      look at the top card of the box, then turn your die"
    return notation


def move_words(view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    """A move in words for a page's list of moves (the terminal lists the notation, which
    is what a person types there)."""
    if notation == "announce":
        return "Call Dead Cat: turn the time deck over from the top"
    if notation == "peek":
        return "Peek at the top card of the box, then turn your die"
    words = notation.split()
    if words[0] == "bet" and len(words) == 2:
        return f"Turn your die to {words[1]}"
    return action_label(view, notation, names)


def _after_round(view: dict[str, Any], names: Sequence[str]) -> str:
    line = describe_round(view["last_round"], names)
    if view["phase"] != "over":
        line += f" Round {view['round']} begins with {_name(names, view['starter'])}."
    return line


def _title(view: dict[str, Any], names: Sequence[str]) -> str:
    phase = view["phase"]
    if phase == "over":
        return f"Dead Cat - over after round {view['last_round']['round']}"
    if phase == "first":
        return "Dead Cat - a die roll picks the first player"
    active = view["active"]
    doing = {"turn": f"{_name(names, active)} to move", "draw": _does(names, active, "peek"),
             "bet": _does(names, active, "turn") + " the die"}[phase]
    return f"Dead Cat - round {view['round']}, {doing}"


def _does(names: Sequence[str], seat: int, verb: str) -> str:
    """``'Ben peeks'``, but ``'you peek'``."""
    name = _name(names, seat)
    return f"{name} {verb}" if name == "you" else f"{name} {verb}s"


def _cards(count: int) -> str:
    return f"{count} card" if count == 1 else f"{count} cards"


def _label(names: Sequence[str], seat: int, you: int | None) -> str:
    label = _name(names, seat)
    return label + " (you)" if seat == you and label != "you" else label


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"
