"""Card Commons in the terminal: the field, both hands and the score, from a view.

Everything here reads a view (never the state). Red (positive) cards are drawn red and
black (negative) ones blue; a face-down card is in brackets, ``[3♦]``; a stack shows both
cards, the top one last, ``4♦/4♠``. Rows 3-4 are seat 0's own side, rows 1-2 seat 1's.
At a move prompt, ``lit 3H`` draws the field with the cells that card can go on marked.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich import box
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from quarkade.core.words import game_over
from quarkade.games.card_commons.notation import (
    CELL_NAMES,
    COLUMNS,
    SUIT_SYMBOLS,
    SUITS,
    card_id,
)

RED, BLACK = "bold red", "bold blue"
LIT = "*"


def render(view: dict[str, Any], names: Sequence[str], you: int | None = None,
           lit: Sequence[str] = ()) -> RenderableType:
    """The field with sides and coordinates, both hands, the score, and the last move.

    ``you`` marks the person's own seat; ``lit`` marks cells (for ``lit 3H``).
    """
    parts: list[RenderableType] = [Text(_title(view, names), style="bold"), _field(view, names,
                                                                                    you, lit)]
    for seat in (0, 1):
        parts.append(_hand_line(view, names, seat, you))
    score = _score_line(view, names)
    if score:
        parts.append(Text(score, style="dim"))
    if view["last"] is not None and view["phase"] != "over":
        line = describe(view["last"], names)
        if line:
            parts.append(Text("last: " + line))
    if view["ability"] is not None:
        ability = view["ability"]
        verb = "slide a card away from" if ability["kind"] == "repel" else \
            "turn face down the card on, or beside,"
        parts.append(Text(f"{_name(names, view['to_move'])} may {verb} the "
                          f"{pretty(ability['card'])} on {ability['cell']}", style="bold"))
    if view["phase"] == "over":
        parts.append(Text(result_line(view, names), style="bold"))
    return Group(*parts)


def log_line(view: dict[str, Any], actor: int, notation: str, names: Sequence[str]) -> str | None:
    """One line for the running log after an action (the view is the one after it)."""
    last = view["last"]
    if last is None:
        return None
    line = describe(last, names)
    if view["phase"] == "over" and view["variant"] == "tutorial":
        loser = 1 - view["winner"]
        line = f"{line} {_name(names, loser)} cannot place a card: game over."
    elif view["phase"] == "over":
        line = f"{line} Two passes in a row: game over."
    return line


def describe(last: dict[str, Any], names: Sequence[str]) -> str:
    """The last action in words."""
    kind = last["kind"]
    who = _name(names, last["seat"]) if last["seat"] is not None else "chance"
    if kind == "opener":
        opener = _name(names, last["opener"])
        return f"Coin: {opener} {'open' if opener == 'you' else 'opens'}."
    if kind == "pass":
        return f"{who} passed."
    if kind == "decline":
        return f"{who} did not {last['ability']} with the {pretty(last['card'])}."
    if kind == "polarize":
        return f"{who} turned the {pretty(last['card'])} on {last['cell']} face down."
    if kind == "repel":
        cards = "/".join(pretty(c) for c in last["cards"])
        return f"{who} repelled the {cards} from {last['cell']} to {last['to']}."
    card = pretty(last["card"])
    if kind == "invert":
        line = (f"{who} inverted the {pretty(last['covered'])} on {last['cell']} with the "
                f"{card}, discarding the {pretty(last['discard'])}.")
    elif kind == "open":
        line = f"{who} opened with the {card} on {last['cell']}."
    elif kind == "tunnel":
        line = f"{who} tunnelled the {card} to {last['cell']}."
    else:
        line = f"{who} channelled the {card} to {last['cell']}."
    if "ignored" in last:
        line = line[:-1] + f" (Anchor: ignoring {' and '.join(last['ignored'])})."
    return line


def result_line(view: dict[str, Any], names: Sequence[str]) -> str:
    """Who won and by which step of the scoring (or by being stuck, in the Tutorial), as
    one sentence."""
    winner = view["winner"]
    if view["variant"] == "tutorial":
        return game_over(names, [winner], f"as {_name(names, 1 - winner)} cannot place a card")
    open_cells, particles = view["open_cells"], view["particles"]
    if open_cells[0] != open_cells[1]:
        why = f"with {open_cells[winner]} open cells to {open_cells[1 - winner]}"
    elif particles[0] != particles[1]:
        why = (f"with open cells tied at {open_cells[0]} and particles {particles[winner]} to "
               f"{particles[1 - winner]}")
    else:
        why = "as the opener, with open cells and particles tied"
    return game_over(names, [winner], why)


def action_label(view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    """A placement with the side of the field it lands on."""
    words = notation.split()
    cell = words[2] if words[0] == "inv" else words[1] if len(words) == 2 else ""
    if cell not in CELL_NAMES or words[0] in ("repel", "polarize", "opener"):
        return notation
    return f"{notation:<16} on {_possessive(names, _side_of(view, cell))} side"


def move_words(view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    """A legal move in words for a page's list of moves (the terminal lists the notation,
    which is what a person types there): the cards by their symbols, the cell and whose
    side it is on ("your side" for the seat whose view this is), an inversion with the card
    it covers and the one thrown away, a Repel or Polarize with the card it moves or turns."""
    words = notation.split()
    if notation == "pass":
        return "Pass"
    if words[0] == "no" and len(words) == 2:
        return ("Slide nothing (no Repel)" if words[1] == "repel"
                else "Turn nothing face down (no Polarize)")
    if words[0] == "repel" and ">" in words[1]:
        start, end = words[1].split(">")
        return f"Repel: slide {_on(view, start)} from {start} to {end}"
    if words[0] == "polarize" and words[1] in CELL_NAMES:
        return f"Polarize: turn {_on(view, words[1])} on {words[1]} face down"
    if words[0] == "inv" and len(words) == 4 and words[2] in CELL_NAMES:
        cell, discard = words[2], words[3].lstrip("/")
        return (f"Invert {_on(view, cell)} on {cell} with the {pretty(words[1])}, "
                f"throwing away the {pretty(discard)} ({_whose_side(view, cell, names)})")
    if len(words) == 2 and words[1] in CELL_NAMES:
        placed = f"the {pretty(words[0])} on {words[1]}"
        side = _whose_side(view, words[1], names)
        if view["phase"] == "opening":
            return f"Open with {placed} ({side})"
        return f"{placed[4:]} ({side})"
    return action_label(view, notation, names)


def _side_of(view: dict[str, Any], cell: str) -> int:
    """The seat whose side of the field ``cell`` is on."""
    return 0 if int(cell[1]) in view["side_rows"][0] else 1


def _on(view: dict[str, Any], cell: str) -> str:
    """The card on ``cell`` as a move names it: "the 4♣", "the stack", "the face-down card"."""
    stack = view["field"][cell]
    if len(stack) > 1:
        return "the stack"
    if stack and stack[-1]["face_up"]:
        return f"the {pretty(stack[-1]['card'])}"
    return "the face-down card"


def _whose_side(view: dict[str, Any], cell: str, names: Sequence[str]) -> str:
    """"your side" for the reader: the seat named "you" where the names say who reads
    (puzzles and lessons, whichever seat's view it is), else the seat whose view it is."""
    side = _side_of(view, cell)
    if "you" not in names and side == view.get("player"):
        return "your side"
    return f"{_possessive(names, side)} side"


def action_menu(view: dict[str, Any], texts: Sequence[str], names: Sequence[str]
                ) -> list[str] | None:
    """The moves grouped by card, for the opening and ordinary turns (None otherwise)."""
    if view["phase"] not in ("opening", "turn"):
        return None
    channels: dict[str, list[str]] = {}
    inverts: dict[str, dict[str, None]] = {}  # card -> cells, in order, without repeats
    example_invert = ""
    for text in texts:
        words = text.split()
        if words[0] == "inv":
            inverts.setdefault(words[1], {})[words[2]] = None
            example_invert = example_invert or text
        elif text != "pass":
            channels.setdefault(words[0], []).append(words[1])
    lines = ["your cards and the cells each can go on:"]
    for card in view["hands"][view["to_move"]]:
        shown = " ".join(channels.get(card, ())) or "-"
        if card in inverts:
            shown += "   invert on " + " ".join(inverts[card])
        lines.append(f"  {card:<3} {shown}")
    if example_invert:
        lines.append(f"  an inversion names a card to discard too: {example_invert}")
    if "pass" in texts:
        lines.append("  pass")
    # An example the player could type now: a placement, else an inversion, else the pass.
    example = next((t for t in texts if t != "pass" and not t.startswith("inv")),
                   example_invert or "pass")
    hand = view["hands"][view["to_move"]]  # lit: a card that can go somewhere, if one can
    card = next((c for c in hand if c in channels), next(iter(inverts), hand[0] if hand else ""))
    lit = f"; lit {card} marks a card's cells on the field" if card else ""
    lines.append(f"type a move such as {example}{lit}")
    return lines


def prompt_command(view: dict[str, Any], text: str, names: Sequence[str]
                   ) -> RenderableType | None:
    """``lit 3H``: the field with that card's cells marked. None for anything else."""
    words = text.split()
    if not words or words[0].lower() != "lit":
        return None
    if len(words) != 2:
        return Text("lit takes one card, e.g. lit 3H")
    try:
        card = card_id(words[1])
    except ValueError as problem:
        return Text(str(problem))
    name = f"{'A23456'[card % 6]}{SUITS[card // 6]}"
    mover = view["to_move"]
    if mover is None or view["phase"] not in ("opening", "turn"):
        return Text("no card is being placed right now")
    if name not in view["hands"][mover]:
        return Text(f"the {pretty(name)} is not in {_possessive(names, mover)} hand")
    cells = view["lit"].get(name, [])
    if not cells:
        return Text(f"the {pretty(name)} cannot go anywhere now")
    count = f"{len(cells)} cell{'' if len(cells) == 1 else 's'}"
    return Group(_field(view, names, mover, cells),
                 Text(f"the {pretty(name)} can go on {count}: {' '.join(cells)}"))


def pretty(card: str) -> str:
    """``'3H'`` as ``'3♥'``."""
    return card[0] + SUIT_SYMBOLS[SUITS.index(card[1])]


# -- pieces ----------------------------------------------------------------------------


def _title(view: dict[str, Any], names: Sequence[str]) -> str:
    kind = "Tutorial" if view["variant"] == "tutorial" else "Classic"
    field = ", torus" if view["torus"] else ""
    head = f"Card Commons ({kind}{field})"
    if view["phase"] == "over":
        return f"{head} - game over"
    if view["phase"] == "coin":
        return f"{head} - tossing for the opener"
    mover = _name(names, view["to_move"])
    doing = {"opening": "to open", "turn": "to move", "repel": "to decide the Repel",
             "polarize": "to decide the Polarize"}[view["phase"]]
    return f"{head} - {mover} {doing}"


def _field(view: dict[str, Any], names: Sequence[str], you: int | None,
           lit: Sequence[str]) -> Table:
    table = Table(box=box.SQUARE, show_header=True, header_style="bold", pad_edge=False,
                  padding=(0, 1))
    table.add_column("", justify="right")
    for column in COLUMNS:
        table.add_column(column, justify="center", width=7)
    table.add_column("", justify="left")
    ability_cell = view["ability"]["cell"] if view["ability"] else None
    for row in (4, 3, 2, 1):
        side = 0 if row in view["side_rows"][0] else 1
        note = ""
        if row in (4, 2):
            note = f"{_possessive(names, side)} side"
        elif (you is not None and you == side and row in (3, 1)
              and view["variant"] != "tutorial"):  # the Tutorial never counts the sides
            note = "(keep it open)"
        cells = []
        for column in COLUMNS:
            name = f"{column}{row}"
            cell = _cell_text(view["field"][name], name in lit)
            if name == ability_cell:
                cell.stylize("reverse")
            cells.append(cell)
        table.add_row(str(row), *cells, Text(note, style="dim"), end_section=row == 3)
    return table


def _cell_text(stack: list[dict[str, Any]], lit: bool) -> Text:
    text = Text()
    for index, card in enumerate(stack):
        if index:
            text.append("/")
        shown = pretty(card["card"])
        if not card["face_up"]:
            text.append(f"[{shown}]", style="dim")
        else:
            text.append(shown, style=RED if card["card"][1] in "HD" else BLACK)
    if lit:
        text.append(LIT if not stack else " " + LIT, style="bold yellow")
    elif not stack:
        text.append(".", style="dim")
    return text


def _hand_line(view: dict[str, Any], names: Sequence[str], seat: int, you: int | None) -> Text:
    marker = ">" if view["to_move"] == seat and view["phase"] != "over" else " "
    label = _name(names, seat)
    if seat == you and label != "you":
        label += " (you)"
    suits = "".join(SUIT_SYMBOLS[SUITS.index(s)] for s in view["suits"][seat])
    line = Text(f"{marker} {label} {suits}: ")
    hand = view["hands"][seat]
    for card in hand:
        line.append(pretty(card), style=RED if card[1] in "HD" else BLACK)
        line.append(" ")
    if not hand:
        line.append("(no cards) ")
    if view["discards"][seat]:
        line.append("out: " + " ".join(pretty(c) for c in view["discards"][seat]), style="dim")
    return line


def _score_line(view: dict[str, Any], names: Sequence[str]) -> str:
    """What Classic's scoring counts (open cells, particles, the opener); the Tutorial
    scores none of it (a player who cannot place a card loses), so it shows none."""
    parts = []
    if view["variant"] != "tutorial":
        open_cells, particles = view["open_cells"], view["particles"]
        parts = [f"open cells on own side: {_name(names, 0)} {open_cells[0]}/8, "
                 f"{_name(names, 1)} {open_cells[1]}/8",
                 f"particles: {particles[0]} and {particles[1]}"]
        if view["opener"] is not None:
            parts.append(f"opener: {_name(names, view['opener'])}")
    if view["passed"] and view["phase"] == "turn":
        parts.append("the last turn was a pass")
    return "; ".join(parts)


def _name(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "nobody"
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _possessive(names: Sequence[str], seat: int) -> str:
    name = _name(names, seat)
    if name == "you":
        return "your"
    return f"{name}'" if name.endswith("s") else f"{name}'s"  # "Hearts and Spades' side"
