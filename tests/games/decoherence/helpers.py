"""Building Decoherence positions by playing them, chance included, through the protocol.

``start`` deals chosen opening hands; ``sentence`` plays verb, qualifier and noun into a
new chain (and a target, if given); ``end_turn`` passes (discarding as told) and lets the
other seat draw a chosen card. Every step goes through ``string_to_action`` so the tests
read like the game's notation.
"""

from __future__ import annotations

from quarkade import load_game
from quarkade.games.decoherence.decks import deck_text
from quarkade.games.decoherence.notation import KIND_OF, NOUN, QUALIFIER, VERB, WORDS, word_index
from quarkade.games.decoherence.rules import DecoherenceState

# Four of most words, so that tests can deal what they need.
VERB_HEAVY = "tapped 2, verved 2, boo'd 2, twigged 2, riffed 2"
WIDE = f"{VERB_HEAVY} | up 4, down 4, through 1, out 1 | kiki 4, bouba 4, lulu 2"


def start(hand0: list[str], hand1: list[str], first: int = 0, deck0: str = WIDE,
          deck1: str = WIDE, draw: str | None = None, **options: object) -> DecoherenceState:
    """A game whose opening hands are ``hand0`` and ``hand1`` (five words each, holding a
    verb, a qualifier and a noun), ``first`` to move; ``draw`` is that seat's first draw."""
    state = load_game("decoherence", deck0=deck0, deck1=deck1, **options).new_initial_state()
    while state.phase() == "decks":
        state.apply_action(state.legal_actions()[0])
    play(state, f"first seat {first}")
    for hand in (hand0, hand1):
        for word in _opening_order(hand):
            play(state, f"draw {word}")
    if draw is not None:
        play(state, f"draw {draw}")
    return state


def _opening_order(hand: list[str]) -> list[str]:
    assert len(hand) == 5, hand
    rest = list(hand)
    ordered = []
    for kind in (VERB, QUALIFIER, NOUN):
        word = next(w for w in rest if KIND_OF[word_index(w)] == kind)
        rest.remove(word)
        ordered.append(word)
    return ordered + rest


def play(state: DecoherenceState, *notations: str) -> None:
    for text in notations:
        state.apply_action(state.string_to_action(text))


def sentence(state: DecoherenceState, text: str, target: str | None = None) -> int:
    """Play ``"verved up bouba"`` into a new chain of the seat to move; returns the chain
    (1-3). ``target`` is the target notation's tail, such as ``their #2``."""
    verb, qualifier, noun = text.split()
    chain = next(c for c in range(3) if state.chains(state.current_player())[c] is None) + 1
    play(state, f"verb {verb} -> chain {chain}", f"qualifier {qualifier} -> chain {chain}",
         f"noun {noun} -> chain {chain}")
    if target is not None:
        play(state, f"target {target}")
    return chain


def end_turn(state: DecoherenceState, draw: str | None = None, discard: tuple[str, ...] = ()
             ) -> None:
    """Pass, discard ``discard`` (down to seven), and draw ``draw`` for the next seat."""
    play(state, "pass", *(f"discard {word}" for word in discard))
    if draw is not None:
        play(state, f"draw {draw}")


def table(state: DecoherenceState, seat: int) -> dict[int, tuple]:
    """``seat``'s table as {slot: (noun, kind, spin, status, size, link)} for compact asserts;
    link is (seat, slot) or (seat, slot, 'fatal')."""
    out = {}
    for slot, thing in state.things(seat).items():
        link = thing["link"]
        if link is not None:
            link = link[:2] + (("fatal",) if link[2] else ())
        out[slot] = (thing["noun"], thing["kind"], thing["spin"], thing["status"],
                     thing["size"], link)
    return out


ANN, BOB = 0, 1
_FILLER_ORDER = (VERB, QUALIFIER, NOUN)


def scene(*turns: tuple[int, list[str]], test: str | None = None, **options: object
          ) -> DecoherenceState:
    """Play whole ``turns`` of (seat, sentences) in order and stop in the last one after its
    sentences, before passing; that seat also holds the cards of the ``test`` sentence.

    A sentence is ``"verb qualifier noun"``, or ``"verb qualifier noun > their #1"`` with a
    target. Each seat's deck and draws are built so the right cards arrive in time: the
    opening hand is the first five cards the seat needs, each turn's draw the next one.
    """
    needs: dict[int, list[str]] = {ANN: [], BOB: []}
    counts = {ANN: 0, BOB: 0}
    for seat, plays in turns:
        counts[seat] += 1
        for spec in plays:
            needs[seat] += _cards_of(spec)
    last = turns[-1][0]
    if test is not None:
        needs[last] += test.split()
    decks, supply = {}, {}
    for seat in (ANN, BOB):
        wanted = 5 + counts[seat]
        assert len(needs[seat]) <= wanted, f"seat {seat} needs more cards than it can hold"
        deck = _deck_holding(needs[seat])
        decks[seat] = deck
        spare = list(deck)
        for word in needs[seat]:
            spare[word_index(word)] -= 1
        # The opening hand must hold a verb, a qualifier and a noun: filler supplies the
        # kinds the first five needed cards lack, then the rest of the seat's cards.
        opening = {KIND_OF[word_index(w)] for w in needs[seat][:5]}
        kinds = [k for k in _FILLER_ORDER if k not in opening]
        filler = []
        while len(needs[seat]) + len(filler) < wanted:
            kind = kinds[len(filler)] if len(filler) < len(kinds) else \
                _FILLER_ORDER[len(filler) % 3]
            choices = [w for w in range(12) if spare[w] and KIND_OF[w] == kind]
            spare[choices[0]] -= 1
            filler.append(WORDS[choices[0]])
        front = 5 - len(kinds)
        supply[seat] = (needs[seat][:front] + filler[:len(kinds)] + needs[seat][front:]
                        + filler[len(kinds):])
    first = turns[0][0]
    state = start(supply[ANN][:5], supply[BOB][:5], first=first, deck0=deck_text(decks[ANN]),
                  deck1=deck_text(decks[BOB]), **options)
    drawn = {ANN: 5, BOB: 5}
    for index, (seat, plays) in enumerate(turns):
        assert state.current_player() == -1 and state.active_seat() == seat
        play(state, f"draw {supply[seat][drawn[seat]]}")
        drawn[seat] += 1
        for spec in plays:
            if spec.split()[0] in _RAW:
                play(state, spec)
                continue
            text, _, target = spec.partition(">")
            sentence(state, text.strip(), target.strip() or None)
        if index < len(turns) - 1:
            play(state, "pass")
    return state


_RAW = ("verb", "qualifier", "noun", "close", "target", "discard", "pass")


def _cards_of(spec: str) -> list[str]:
    """The cards a scene step plays: a sentence's three words, or a raw notation's card."""
    words = spec.split(">")[0].split() if spec.split()[0] not in _RAW else spec.split()
    if words[0] in ("verb", "qualifier", "noun"):
        return [words[1]]
    if words[0] == "close":
        return [words[-1]]
    if words[0] in _RAW:
        return []
    return words


def set_verve(state: DecoherenceState, ann: int, bob: int) -> None:
    """Put the seats on these verves, as if earlier turns had cost them (a test shortcut:
    reaching exact low verves through play takes many turns and tells nothing more)."""
    state._verve[:] = [ann, bob]


def _deck_holding(words: list[str]) -> list[int]:
    """A legal deck (10/10/10, at most 4 of a word) holding at least ``words``."""
    counts = [0] * 12
    for word in words:
        counts[word_index(word)] += 1
    assert max(counts) <= 4, words
    for kind in (VERB, QUALIFIER, NOUN):
        members = [w for w in range(12) if KIND_OF[w] == kind]
        while sum(counts[w] for w in members) < 10:
            word = min(members, key=lambda w: (counts[w], w))
            counts[word] += 1
    return counts


def seen_by(state: DecoherenceState, seat: int, viewer: int) -> dict[int, str | None]:
    """``seat``'s table as ``viewer``'s view shows it: {slot: noun or None (hidden)}."""
    return {thing["slot"]: thing["noun"] for thing in state.view(viewer)["tables"][seat]}


def facts(state: DecoherenceState) -> list[str]:
    """The names of the facts of the last resolution (from the public view)."""
    events = [e for e in state.view(-2)["events"] if e["type"] == "sentence"]
    assert events, "no sentence resolved in the last action"
    return [fact["fact"] for fact in events[-1]["facts"]]
