"""Decoherence in the terminal: the table as a rich renderable, and a log line per action.

Both read a seat's view (never the state), so they show only what that seat may know: the
opponent's unseen nouns appear as ``hidden``, its hand only as a count.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from quarkade.core.words import game_over


def render(view: dict[str, Any], names: Sequence[str], you: int | None = None) -> RenderableType:
    """Verve, decks and hands, chains, both tables, discards, the sentence being resolved
    and what the last action did. ``you`` marks the seat of the person looking."""
    parts: list[RenderableType] = [Text(_title(view, names), style="bold")]
    for seat in range(2):
        parts.append(_seat_block(view, seat, names, you))
    if view["hand"] is not None:
        hand = ", ".join(view["hand"]) or "(empty)"
        parts.append(Text(f"{_upper(_possessive(names, view['player']))} hand: {hand}"))
    resolving = view["resolving"]
    if resolving is not None:
        noun = resolving["noun"] or "a hidden noun"
        who = _name(names, resolving["owner"])
        waiting = "a target" if resolving["waiting"] == "target" else "the coin"
        parts.append(Text(f"Resolving {who}'s {resolving['verb']} {resolving['qualifier']} "
                          f"{noun}: waiting for {waiting}.", style="bold"))
    leak = view["leak"]
    if leak is not None and view["phase"] != "over":
        mods = []
        if leak["verved_up"]:
            mods.append(f"+{leak['verved_up']} from verved up")
        if leak["verved_down"]:
            mods.append("none after verved down")
        extra = f" ({', '.join(mods)})" if mods else ""
        parts.append(Text(f"Leak at the end of this turn: {leak['amount']}{extra}.", style="dim"))
    lines = [line for event in view["events"] if (line := describe(event, names))]
    if lines:
        parts.append(Text("Last: " + " ".join(lines), style="dim"))
    if view["phase"] == "over":
        parts.append(Text(_result(view, names), style="bold"))
    return Group(*parts)


def _title(view: dict[str, Any], names: Sequence[str]) -> str:
    if view["phase"] == "over":
        return f"Decoherence - over after {view['turn']} turns"
    if view["active"] is None:
        return "Decoherence - setting up"
    return f"Decoherence - turn {view['turn']}, {_name(names, view['active'])} to play"


def _seat_block(view: dict[str, Any], seat: int, names: Sequence[str],
                you: int | None) -> RenderableType:
    label = _name(names, seat)
    if seat == you and label != "you":
        label += " (you)"
    marker = "> " if seat == view["active"] and view["phase"] != "over" else "  "
    head = Text(f"{marker}{label}: verve {view['verve'][seat]}, deck {view['deck_sizes'][seat]}, "
                f"hand {view['hand_sizes'][seat]}, hidden nouns {view['hidden_nouns'][seat]}",
                style="bold" if seat == view["active"] else "")
    chains = view["chains"][seat]
    chain_text = "; ".join(f"{c['chain']}: {c['verb']}" + (f" {c['qualifier']}" if c["qualifier"]
                                                          else "") for c in chains)
    rows: list[RenderableType] = [head, Text(f"    chains: {chain_text or 'none'}")]
    things = view["tables"][seat]
    if things:
        table = Table(show_edge=False, pad_edge=False, box=None, padding=(0, 1))
        for column in ("  #", "noun", "as", "size", "status", "link"):
            table.add_column(column)
        for thing in things:
            table.add_row(f"  {thing['slot']}", thing["noun"] or "hidden", _shape(thing),
                          _size(thing), thing["status"], _link(thing, names))
        rows.append(table)
    else:
        rows.append(Text("    table: empty"))
    discards = view["discards"][seat]
    if discards:
        rows.append(Text("    discards: " + ", ".join(f"{w} {c}" for w, c in discards.items()),
                         style="dim"))
    if view["decklists"][seat] is not None:
        rows.append(Text(f"    deck list: {view['decklists'][seat]}", style="dim"))
    return Group(*rows)


def _shape(thing: dict[str, Any]) -> str:
    if thing["kind"] == "bare":
        return "bare"
    return thing["spin"] or "spinless"


def _size(thing: dict[str, Any]) -> str:
    if thing["size"] is None:
        return "?" if not thing["growth"] else f"?+{thing['growth']}"
    return str(thing["size"]) + ("" if thing["size_exact"] else "+?")


def _link(thing: dict[str, Any], names: Sequence[str]) -> str:
    link = thing["link"]
    if link is None:
        return ""
    fatal = " fatal" if link["fatal"] else ""
    return f"{_possessive(names, link['seat'])} #{link['slot']}{fatal}"


def _result(view: dict[str, Any], names: Sequence[str]) -> str:
    """The result as one sentence, with how the loser lost ("Game over: Bob wins as Ann
    decohered."); a draw says both sides lost at once."""
    if not view["winners"]:
        return game_over(names, [], f", both sides losing at once ({view['result']})")
    loser = _name(names, 1 - view["winners"][0])
    was = "were" if loser == "you" else "was"
    how = {"decoherence": f"as {loser} decohered",
           "empty deck": f"as {loser} had to draw from an empty deck",
           "made classical": f"as {loser} {was} made classical"}.get(view["result"], "")
    return game_over(names, view["winners"], how)


def log_line(view: dict[str, Any], actor: int, notation: str, names: Sequence[str]) -> str | None:
    """The log after ``notation`` was played: who did what, and what it caused in words.

    Opening draws stay quiet; other draws name the card only for the seat that drew it.
    """
    lines = []
    if actor >= 0:
        lines.append(_played(notation, actor, names))
    for event in view["events"]:
        if event["type"] == "draw" and event["opening"]:
            continue
        line = describe(event, names)
        if line:
            lines.append(line)
    return "\n".join(lines) if lines else None


def move_words(view: dict[str, Any], notation: str, names: Sequence[str]) -> str:
    """A move in words for a page's list of moves (the terminal lists the notation, which
    is what a person types there): "Open chain 2 with the verb riffed", "Target their
    bouba #3", "Pass: end your turn"."""
    if notation == "pass":
        return "Pass: end your turn"
    kind, word, chain, rest = _parts(notation)
    if chain and kind == "verb":
        return f"Open {chain} with the verb {word}"
    if chain and kind == "qualifier":
        return f"Add the qualifier {word} to {chain}"
    if chain and kind == "noun":
        return f"Finish {chain} with the noun {word or 'hidden from you'}"
    if kind == "close":
        return notation[:1].upper() + notation[1:]
    if kind == "discard":
        return f"Discard {rest}"
    if kind == "target:":
        return f"Target {rest}"
    return notation


def describe(event: dict[str, Any], names: Sequence[str]) -> str | None:
    """One event of the view in plain words."""
    kind = event["type"]
    if kind == "draw":
        return f"{_does(names, event['seat'], 'draw')} {event['word'] or 'a card'}."
    if kind == "first":
        return f"The coin says {_does(names, event['seat'], 'go')} first."
    if kind == "deck":
        cards = event["cards"] or "(hidden)"
        return f"{_upper(_possessive(names, event['seat']))} random deck's " \
               f"{event['kind']}: {cards}."
    if kind == "pay":
        return f"{_does(names, event['seat'], 'pay')} {event['amount']} verve to close."
    if kind == "leak":
        return f"{_does(names, event['seat'], 'leak')} {event['amount']} verve."
    if kind == "discard":
        return None  # the notation says it
    if kind == "sentence":
        return describe_sentence(event, names)
    if len(event["losers"]) > 1:
        return "Both decohere at 0 verve: " + (
            f"{_does(names, event['winners'][0], 'have')} more hidden nouns and "
            f"{'win' if _name(names, event['winners'][0]) == 'you' else 'wins'}."
            if event["winners"] else "equal hidden nouns, a draw.")
    loser = event["losers"][0]
    you = _name(names, loser) == "you"
    reason = {"decoherence": "decohere at 0 verve" if you else "decoheres at 0 verve",
              "empty deck": "must draw from an empty deck",
              "made classical": "have been made classical" if you else "has been made "
              "classical"}[event["reason"]]
    return f"{_name(names, loser)} {reason} and {'lose' if you else 'loses'}."


def describe_sentence(event: dict[str, Any], names: Sequence[str]) -> str:
    """``Bob's riffed up bouba: your hidden #2 grows by 3; Bob's bouba #1 grows by 3.``"""
    owner = event["owner"]
    noun = event["noun"] or "(hidden noun)"
    head = f"{_upper(_possessive(names, owner))} {event['verb']} {event['qualifier']} {noun}"
    if event["closer"] is not None:
        head += f", closed by {_name(names, event['closer'])}"
    parts = [_fact_text(fact, owner, names) for fact in event["facts"]]
    left = event["left"]
    if left is None:
        if not any(f["fact"] == "excluded" for f in event["facts"]):
            parts.append("nothing is left")
    else:
        shape = "a bare particle" if left["kind"] == "bare" else (
            f"an {left['spin']} state" if left["spin"] == "up" else
            f"a {left['spin']} state" if left["spin"] else "a spinless state")
        parts.append(f"it leaves {shape} (#{left['slot']})")
    return f"{head}: " + "; ".join(p for p in parts if p) + "."


def _fact_text(fact: dict[str, Any], owner: int, names: Sequence[str]) -> str:
    name = fact["fact"]
    if name in ("gain", "lose"):
        return f"{_does(names, fact['seat'], name)} {fact['amount']} verve"
    if name == "pay":
        return f"{_does(names, fact['seat'], 'pay')} {fact['amount']}"
    if name == "spin":
        return f"{_thing(fact['thing'], names)} is now {fact['spin']}"
    if name == "kept":
        return f"{_thing(fact['thing'], names)} keeps its spin (exclusion)"
    if name == "reveal":
        return f"{_thing(fact['thing'], names)} is revealed"
    if name == "too big":
        return "too big to decay"
    if name == "discard":
        return f"{_thing(fact['thing'], names)} is discarded"
    if name == "measure":
        spin = f", {fact['spin']}" if fact["spin"] else ""
        return f"{_thing(fact['thing'], names)} is measured{spin}"
    if name == "dark":
        return f"{_thing(fact['thing'], names)} goes dark"
    if name == "link":
        first, second = fact["things"]
        kind = "a fatal link" if fact["fatal"] else "a link"
        return f"{_thing(first, names)} and {_thing(second, names)} share {kind}"
    if name == "grow":
        return f"{_thing(fact['thing'], names)} grows by {fact['amount']}"
    if name == "coin":
        return "the coin shows " + ("heads" if fact["heads"] else "tails")
    if name == "leak up":
        return (f"{_possessive(names, owner)} leak this turn is 1 higher" if fact["applies"]
                else "not its owner's turn, so no leak changes")
    if name == "no leak":
        return (f"no leak for {_name(names, owner)} this turn" if fact["applies"]
                else "not its owner's turn, so no leak changes")
    if name == "flipped":
        return f"the kiki takes the {fact['spin']} spin (exclusion)"
    if name == "excluded":
        return "the kiki is discarded on arrival (both spins hold a kiki), no effect"
    if name == "no target":
        return "no target, no effect"
    return name


def _thing(ref: dict[str, Any], names: Sequence[str]) -> str:
    noun = ref["noun"] or "hidden"
    return f"{_possessive(names, ref['seat'])} {noun} #{ref['slot']}"


THIRD_PERSON = {"have": "has", "go": "goes", "pass": "passes",
                "finish": "finishes"}  # verbs not made by adding an s


def _parts(notation: str) -> tuple[str, str, str, str]:
    """A move's notation taken apart: its kind, the word it plays, the chain it plays it to
    ("" when none) and what follows the kind. "noun -> chain 1" (a noun hidden from this
    reader) has no word."""
    kind, _, rest = notation.partition(" ")
    if rest.startswith("-> "):
        return kind, "", rest[3:], rest
    word, _, chain = rest.partition(" -> ")
    return kind, word, chain, rest


def _played(notation: str, actor: int, names: Sequence[str]) -> str:
    """What ``actor`` did, as the log says it ("Ann opens chain 2 with riffed."; a noun
    the reader may not see reads "a hidden noun", as its notation hides it)."""
    other = 1 - actor
    if notation == "pass":
        return f"{_does(names, actor, 'pass')}."
    kind, word, chain, rest = _parts(notation)
    if chain and kind == "verb":
        return f"{_does(names, actor, 'open')} {chain} with {word}."
    if chain and kind == "qualifier":
        return f"{_does(names, actor, 'add')} {word} to {chain}."
    if chain and kind == "noun":
        return f"{_does(names, actor, 'finish')} {chain} with {word or 'a hidden noun'}."
    if kind == "close" and rest.startswith("their "):
        return f"{_does(names, actor, 'close')} {_possessive(names, other)} {rest[6:]}."
    if kind == "discard":
        return f"{_does(names, actor, 'discard')} {rest}."
    if kind == "target:" and rest.startswith(("your ", "their ")):
        whose, _, thing = rest.partition(" ")
        owner = actor if whose == "your" else other
        return f"{_does(names, actor, 'target')} {_possessive(names, owner)} {thing}."
    return f"{_name(names, actor)}: {notation}"


def _does(names: Sequence[str], seat: int, verb: str) -> str:
    """``Bob gains`` / ``you gain``."""
    name = _name(names, seat)
    if name == "you":
        return f"you {verb}"
    return f"{name} {THIRD_PERSON.get(verb, verb + 's')}"


def _upper(text: str) -> str:
    """The first letter in capitals, the rest as it was."""
    return text[:1].upper() + text[1:]


def _name(names: Sequence[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else f"seat {seat}"


def _possessive(names: Sequence[str], seat: int | None) -> str:
    if seat is None:
        return "the"
    name = _name(names, seat)
    return "your" if name == "you" else f"{name}'s"
