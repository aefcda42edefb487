"""What the simulator records about a finished Decoherence game (the hook described in
``quarkade.sim.hooks`` and docs/ARCHITECTURE.md).

- key events: how the game ended, the turns played, each seat's final verve and hidden
  nouns, the sentences each seat resolved and the chains it closed, and the decks;
- game tags: ``how it ended``: ``decoherence`` (verve at 0 or less), ``empty deck``, ``made
  classical``, or ``simultaneous decoherence`` (both seats at once, D-26: the one with more
  hidden nouns wins, else a draw);
- seat tags: ``deck`` (the seat's deck option: a preset name, ``random``, or its word
  counts), ``deck matchup`` (``surge vs observer``: the seat's deck, then the
  opponent's); ``sentence`` (each sentence the seat resolved, ``verb qualifier noun``,
  once however often it played it) and ``verb + qualifier`` (the same without the noun,
  the player aid's twenty effects). A sentence belongs to the seat whose chain it
  finished, even when the other seat closed that chain with its own noun: the effect is
  the owner's (D-1). With a ``random`` deck the seat is also tagged with the deck's
  twelve word counts (``random deck holds``: ``kiki 4``, ``tapped 0``, ...), the win rate
  of random decks holding each count;
- running score: verve, plus ``COVER`` while the seat has something to hide behind (a
  hidden noun, a live link or an open chain: ``is_classical`` is false).

Why that running score and not verve alone: a game is lost in play by decoherence (verve)
or by being made classical (no cover); between ``random`` and ``greedy`` more games end
the second way than the first. A seat with no cover loses when the other's turn begins
unless it plays, so its verve overstates its standing. ``bench/decoherence_running_score.py``
asks, at every decision point, whether the seat leading alone is the eventual winner. In
300 ``random``-vs-``greedy`` games, by quarter of the game: verve 27%, 56%, 67%, 77%;
this score 49%, 66%, 76%, 88%. In 200 ``greedy`` self-play games: verve 25%, 41%, 52%,
63%; this score 31%, 45%, 52%, 65%. A bonus of 1 to 6 does about as well as 3; counting
each piece of cover does better in greedy self-play (mean 53% against 48%) but worse in
the mixed games (58% against 70%). Games that end on an empty deck (over a third of
greedy self-play) are decided by tempo, which no score of the table sees.
"""

from __future__ import annotations

from typing import Any

from quarkade.core.protocol import SPECTATOR
from quarkade.games.decoherence.decks import PRESETS, RANDOM, deck_text, parse_deck
from quarkade.games.decoherence.notation import NUM_WORDS, WORDS
from quarkade.games.decoherence.rules import DECOHERED, DecoherenceState

COVER = 3  # verve a seat's cover is worth in the running score
SIMULTANEOUS = "simultaneous decoherence"
NOTES = {
    "how it ended": "Decoherence: a seat's verve fell to 0; empty deck: a seat had to draw "
                    "from an empty deck; made classical: a seat had nothing hidden, linked or "
                    "open when the other's turn began; simultaneous: both decohered at once "
                    "(more hidden nouns wins). The first mover is the seat the coin picked.",
    "deck": "The seat's deck option: a preset, random, or its word counts.",
    "deck matchup": "The seat's deck, then its opponent's.",
    "sentence": "Seats that resolved the sentence at least once (a chain the opponent "
                "closed counts for its owner). Strong players finish more sentences of "
                "every kind: compare within an agent's column.",
    "verb + qualifier": "The same without the noun: the twenty effects of the player aid.",
    "random deck holds": "Seats with a random deck, by how many copies of each word it held.",
}
_PRESET_NAMES = {parse_deck(text): name for name, text in PRESETS.items()}


def key_events(state: DecoherenceState) -> dict[str, Any]:
    played, closed = _sentences(state)
    return {
        "ended": _ending(state),
        "turns": state.view(SPECTATOR)["turn"],
        "verve": [state.verve(0), state.verve(1)],
        "hidden_nouns": [state.hidden_nouns(0), state.hidden_nouns(1)],
        "sentences": [len(played[0]), len(played[1])],
        "closed": closed,
        "played": [sorted(set(played[0])), sorted(set(played[1]))],
        "decks": [_deck_label(state, 0), _deck_label(state, 1)],
    }


def game_tags(state: DecoherenceState) -> dict[str, Any]:
    return {"how it ended": _ending(state)}


def seat_tags(state: DecoherenceState) -> list[dict[str, Any]]:
    played, _ = _sentences(state)
    decks = [_deck_label(state, 0), _deck_label(state, 1)]
    tags: list[dict[str, Any]] = []
    for seat in (0, 1):
        sentences = sorted(set(played[seat]))
        tag: dict[str, Any] = {
            "deck": decks[seat],
            "deck matchup": f"{decks[seat]} vs {decks[1 - seat]}",
            "sentence": sentences,
            "verb + qualifier": sorted({s.rsplit(" ", 1)[0] for s in sentences}),
        }
        if state.game.options[f"deck{seat}"] == RANDOM:
            counts = _decklist(state, seat)
            tag["random deck holds"] = [f"{WORDS[w]} {counts[w]}" for w in range(NUM_WORDS)]
        tags.append(tag)
    return tags


def running_score(state: DecoherenceState) -> list[float]:
    return [float(state.verve(seat) + (0 if state.is_classical(seat) else COVER))
            for seat in (0, 1)]


def _sentences(state: DecoherenceState) -> tuple[list[list[str]], list[int]]:
    """Each seat's resolved sentences in order, as text, and the chains each seat closed.

    A sentence is logged by the action that finishes resolving it (its noun, its target or
    its coin), so the game is replayed and each action's events read.
    """
    played: list[list[str]] = [[], []]
    closed = [0, 0]
    replay: DecoherenceState = state.game.new_initial_state()
    for action in state.history():
        replay.apply_action(action)
        for event in replay._events:
            if event[0] == "sentence":
                _, owner, closer, verb, qualifier, noun = event[:6]
                played[owner].append(f"{WORDS[verb]} {WORDS[qualifier]} {WORDS[noun]}")
                if closer >= 0:
                    closed[closer] += 1
    return played, closed


def _ending(state: DecoherenceState) -> str:
    ending = state.ending()
    if ending == DECOHERED and state.verve(0) <= 0 and state.verve(1) <= 0:
        return SIMULTANEOUS
    return ending


def _decklist(state: DecoherenceState, seat: int) -> tuple[int, ...]:
    """The seat's twelve word counts (a random deck's as chance drew it)."""
    return tuple(state._decklists[seat * NUM_WORDS:(seat + 1) * NUM_WORDS])


def _deck_label(state: DecoherenceState, seat: int) -> str:
    """The deck option as a designer wrote it: a preset name (also for a preset's word
    counts written out), ``random``, or the word counts."""
    option = str(state.game.options[f"deck{seat}"])
    if option == RANDOM or option in PRESETS:
        return option
    counts = parse_deck(option)
    return _PRESET_NAMES.get(counts, deck_text(counts))
