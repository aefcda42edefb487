"""Worlds a seat cannot tell from the real one, drawn compiled (``knowledge.py``'s model).

``resample_nouns`` draws only the words of the other seat's face-down nouns: their
decklist's split of nouns (each split as likely as it was to deal the nouns seen), the
words like cards from an urn, kept when every proof that reads one of them holds
(rejection), or, when that fails ``REJECTIONS`` times and few nouns are constrained,
drawn from the enumerated and weighed assignments that satisfy the proofs; as
``knowledge.Prepared.draw_nouns``, so exact. That is all ``greedy`` needs: its lines read
no other hidden card (its own cards are its own; the other seat's hand and deck only by
their sizes, which are public).

``resample`` draws the whole hidden part, as ``DecoherenceState.resample`` does: the noun
words and split, the other kinds' splits of a private decklist, the hand by kinds (from
the odds at ``HAND_ODDS``, which ``with_odds`` copies from the reference for a search's
root, with the decklist's at ``SPLIT_ODDS``, so that a search's every world does not
weigh the 381 splits of verbs again), then the hand's words from what is left, the deck
the rest. Neither reads a card the seat has not seen: they overwrite every hidden card.
"""

from __future__ import annotations

import numpy as np

from quarkade.core.jit import below, next_u64, njit
from quarkade.games.decoherence.compiled.layout import (
    CHAINS,
    COMPOSITION_START,
    COMPOSITIONS,
    DECKLISTS,
    DECKS,
    DISCARDS,
    HAND_ODDS,
    HAND_ROWS,
    HANDS,
    ID_WORDS,
    IDS,
    IDS_GIVEN,
    KNOW,
    ODDS_SCALE,
    OPEN_LISTS,
    P_OWNER,
    P_QUALIFIER,
    P_THING,
    P_VERB,
    PENDING,
    PHASE,
    PROOFS,
    PROOFS_USED,
    SPLIT_ODDS,
    TABLE,
    TARGETS,
)
from quarkade.games.decoherence.compiled.proofs import holds
from quarkade.games.decoherence.compiled.rules import candidates
from quarkade.games.decoherence.decks import PER_KIND
from quarkade.games.decoherence.knowledge import Prepared
from quarkade.games.decoherence.notation import (
    KIND_COMPOSITIONS,
    KIND_WORDS,
    MAX_CHAINS,
    MAX_TABLE,
    NUM_WORDS,
)
from quarkade.games.decoherence.rules import DecoherenceState
from quarkade.games.decoherence.sentences import TARGET
from quarkade.games.decoherence.table import FIELDS, ORIGIN, SEEN

REJECTIONS = Prepared.REJECTIONS
MAX_ENUMERATED = Prepared.MAX_ENUMERATED
# Past this many failed draws with many constrained nouns (where ``knowledge`` would go
# on drawing), the last draw is kept: it cannot happen with the proofs of a real game.
GIVE_UP = 1_000_000
KIND_FIRST = np.array((0, 5, 9, 12), np.int64)


@njit
def _uniform(streams: np.ndarray, stream: int) -> float:
    """A float in [0, 1) from ``streams[stream]``."""
    return float(next_u64(streams, stream) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit
def seen_cards(s: np.ndarray, seat: int, seen: np.ndarray, slots: np.ndarray) -> int:
    """``knowledge._Seat``: the words of ``seat``'s cards everyone has seen (its discard
    pile, its chains, its pending sentence, its nouns face-up or closed onto the other
    table) into ``seen``, and its face-down nouns' table indices into ``slots``; returns
    how many face-down nouns."""
    for w in range(NUM_WORDS):
        seen[w] = s[DISCARDS + seat * NUM_WORDS + w]
    for i in range(2 * MAX_CHAINS):
        word = s[CHAINS + seat * MAX_CHAINS * 2 + i]
        if word >= 0:
            seen[word] += 1
    if s[PENDING] and s[P_OWNER] == seat:
        seen[s[P_VERB]] += 1
        seen[s[P_QUALIFIER]] += 1
    count = 0
    for g in range(2 * MAX_TABLE):
        base = TABLE + g * FIELDS
        if s[base] >= 0 and s[base + ORIGIN] == seat:
            if s[base + SEEN] or g // MAX_TABLE != seat:
                seen[s[base]] += 1
            else:
                slots[count] = g
                count += 1
    return count


@njit
def _known(s: np.ndarray, seat: int, kind: int) -> bool:
    """Whether the viewer knows ``seat``'s split of ``kind``: open decklists, or a random
    deck whose kind is not drawn yet (``_Seat.known``)."""
    if s[OPEN_LISTS]:
        return True
    total = 0
    for w in range(KIND_FIRST[kind], KIND_FIRST[kind + 1]):
        total += s[DECKLISTS + seat * NUM_WORDS + w]
    return total < PER_KIND


@njit
def _split_weight(row: int, kind: int, seen: np.ndarray) -> float:
    """How likely split ``row`` of ``kind`` was to deal the cards seen (the falling
    factorials of ``knowledge.split_odds``)."""
    weight = 1.0
    first = KIND_FIRST[kind]
    for i in range(KIND_FIRST[kind + 1] - first):
        have, need = COMPOSITIONS[row, i], seen[first + i]
        if need > have:
            return 0.0
        for k in range(need):
            weight *= have - k
    return weight


@njit
def _draw_split(s: np.ndarray, seat: int, kind: int, seen: np.ndarray, streams: np.ndarray,
                stream: int, out: np.ndarray, odds: np.ndarray) -> None:
    """``seat``'s split of ``kind`` into ``out`` (its words' counts): the known one, or one
    drawn by ``knowledge.split_odds`` (from ``odds``' ``SPLIT_ODDS`` if it holds them)."""
    first = KIND_FIRST[kind]
    words = KIND_FIRST[kind + 1] - first
    if _known(s, seat, kind):
        for i in range(words):
            out[i] = s[DECKLISTS + seat * NUM_WORDS + first + i]
        return
    rows = odds[SPLIT_ODDS + kind]
    if rows:
        at = SPLIT_ODDS + 3
        for earlier in range(kind):
            at += 2 * odds[SPLIT_ODDS + earlier]
        point = np.int64(next_u64(streams, stream) >> np.uint64(12))  # out of ODDS_SCALE
        chosen = odds[at + 2 * rows - 2]
        for r in range(rows):
            if point < odds[at + 2 * r + 1]:
                chosen = odds[at + 2 * r]
                break
        for i in range(words):
            out[i] = COMPOSITIONS[chosen, i]
        return
    total = 0.0
    for row in range(COMPOSITION_START[kind], COMPOSITION_START[kind + 1]):
        total += _split_weight(row, kind, seen)
    point = _uniform(streams, stream) * total
    chosen = COMPOSITION_START[kind + 1] - 1
    for row in range(COMPOSITION_START[kind], COMPOSITION_START[kind + 1]):
        weight = _split_weight(row, kind, seen)
        if weight > 0.0:
            chosen = row
            point -= weight
            if point < 0.0:
                break
    for i in range(words):
        out[i] = COMPOSITIONS[chosen, i]


@njit
def _urn(pool: np.ndarray, streams: np.ndarray, stream: int) -> int:
    """One noun drawn from ``pool`` (counts of kiki, bouba, lulu), taken out of it."""
    point = below(streams, stream, pool[0] + pool[1] + pool[2])
    n = 0 if point < pool[0] else 1 if point < pool[0] + pool[1] else 2
    pool[n] -= 1
    return n


@njit
def _all_hold(s: np.ndarray, proofs: np.ndarray, count: int, words: np.ndarray) -> bool:
    for i in range(count):
        if not holds(s, proofs[i], words):
            break
    else:
        return True
    return False


@njit
def resample_nouns(s: np.ndarray, viewer: int, streams: np.ndarray, stream: int,
                   split: np.ndarray, odds: np.ndarray) -> None:
    """Draw the words of the other seat's face-down nouns in ``s`` (in place) and its
    split of nouns (into ``split``), from what ``viewer`` knows (see the module), with
    ``streams[stream]`` (``odds``: where a search root's odds are, or ``s``)."""
    seat = 1 - viewer
    seen = np.zeros(NUM_WORDS, np.int64)
    slots = np.empty(2 * MAX_TABLE, np.int64)
    count = seen_cards(s, seat, seen, slots)
    _draw_nouns(s, seat, seen, slots, count, streams, stream, split, odds)


@njit
def _draw_nouns(s: np.ndarray, seat: int, seen: np.ndarray, slots: np.ndarray, count: int,
                streams: np.ndarray, stream: int, split: np.ndarray, odds: np.ndarray
                ) -> None:
    """``resample_nouns`` for ``seat``, whose seen cards and face-down nouns are given."""
    if count == 0:
        _draw_split(s, seat, 2, seen, streams, stream, split, odds)
        return
    # The cards' words as the viewer knows them; its proofs that read a face-down one.
    words = np.full(64, -1, np.int64)
    for card in range(s[IDS_GIVEN]):
        words[card] = s[ID_WORDS + card]
    for g in range(2 * MAX_TABLE):
        if s[TABLE + g * FIELDS] >= 0:
            words[s[IDS + g]] = s[TABLE + g * FIELDS]
    hidden = 0
    for i in range(count):
        card = s[IDS + slots[i]]
        words[card] = -1
        hidden |= 1 << card
    proofs = np.empty(s[PROOFS_USED] // 3 + 1, np.int64)
    relevant = 0
    used = 0
    at = PROOFS
    if s[KNOW] != 0:
        while at < PROOFS + s[PROOFS_USED]:
            if s[at + 2] & hidden:
                proofs[relevant] = at
                relevant += 1
                used |= s[at + 2] & hidden
            at += s[at + 1]
    pool = np.empty(3, np.int64)
    if relevant == 0:
        _draw_split(s, seat, 2, seen, streams, stream, split, odds)
        for n in range(3):
            pool[n] = split[n] - seen[9 + n]
        for i in range(count):
            s[TABLE + slots[i] * FIELDS] = 9 + _urn(pool, streams, stream)
        return
    variables = 0
    for card in range(64):
        variables += used >> card & 1
    tries = 0
    while True:
        _draw_split(s, seat, 2, seen, streams, stream, split, odds)
        for n in range(3):
            pool[n] = split[n] - seen[9 + n]
        for i in range(count):
            words[s[IDS + slots[i]]] = 9 + _urn(pool, streams, stream)
        if _all_hold(s, proofs, relevant, words):
            break
        tries += 1
        if tries == REJECTIONS and variables <= MAX_ENUMERATED:
            if _enumerated(s, seat, seen, slots, count, words, proofs, relevant, used,
                           streams, stream, split, odds):
                break
            # No assignment satisfies them (cannot happen in a real game): the urn alone,
            # as ``Prepared._enumerate`` falls back to.
            _draw_split(s, seat, 2, seen, streams, stream, split, odds)
            for n in range(3):
                pool[n] = split[n] - seen[9 + n]
            for i in range(count):
                words[s[IDS + slots[i]]] = 9 + _urn(pool, streams, stream)
            break
        if tries == GIVE_UP:
            break
    for i in range(count):
        s[TABLE + slots[i] * FIELDS] = words[s[IDS + slots[i]]]


@njit
def _enumerated(s: np.ndarray, seat: int, seen: np.ndarray, slots: np.ndarray, count: int,
                words: np.ndarray, proofs: np.ndarray, relevant: int, used: int,
                streams: np.ndarray, stream: int, split: np.ndarray, odds: np.ndarray
                ) -> bool:
    """``Prepared._enumerate`` and a draw from it: every split and every assignment of the
    constrained nouns (``used``) that satisfies the proofs, weighed by its chance; one of
    them drawn, the other face-down nouns then drawn from the urn. Writes ``words`` and
    ``split``; False if nothing satisfies the proofs."""
    variables = np.empty(64, np.int64)
    nvar = 0
    for card in range(64):
        if used >> card & 1:
            variables[nvar] = card
            nvar += 1
    # Each proof is checked at its last variable (in card order).
    check_at = np.empty(relevant, np.int64)
    for i in range(relevant):
        last = -1
        for v in range(nvar):
            if s[proofs[i] + 2] >> variables[v] & 1:
                last = v
        check_at[i] = last
    for i in range(count):
        words[s[IDS + slots[i]]] = -1
    known = _known(s, seat, 2)
    first_row, last_row = COMPOSITION_START[2], COMPOSITION_START[3]
    choice = np.empty(nvar + 1, np.int64)
    weights = np.empty(nvar + 1, np.float64)
    pool = np.empty(3, np.int64)
    total = 0.0
    point = -1.0
    chosen_row = -1
    for rounds in range(2):  # the total weight, then the leaf at a uniform point of it
        if rounds == 1:
            point = _uniform(streams, stream) * total
        running = 0.0
        for row in range(first_row, last_row):
            if known:
                if row > first_row:
                    break
                for n in range(3):
                    split[n] = s[DECKLISTS + seat * NUM_WORDS + 9 + n]
                weight = 1.0
            else:
                weight = _split_weight(row, 2, seen)
                if weight == 0.0:
                    continue
                for n in range(3):
                    split[n] = COMPOSITIONS[row, n]
            for n in range(3):
                pool[n] = split[n] - seen[9 + n]
            weights[0] = weight
            level = 0
            choice[0] = -1
            while level >= 0:
                if level == nvar:
                    running += weights[nvar]
                    if rounds == 1 and running > point:
                        chosen_row = row
                        break
                    level -= 1
                    if level >= 0:
                        pool[choice[level]] += 1
                    continue
                k = choice[level] + 1
                advanced = False
                while k < 3:
                    if pool[k] > 0:
                        words[variables[level]] = 9 + k
                        ok = True
                        for i in range(relevant):
                            if check_at[i] == level and not holds(s, proofs[i], words):
                                ok = False
                                break
                        if ok:
                            weights[level + 1] = weights[level] * pool[k] / (
                                pool[0] + pool[1] + pool[2])
                            pool[k] -= 1
                            choice[level] = k
                            level += 1
                            choice[level] = -1
                            advanced = True
                            break
                    k += 1
                if not advanced:
                    words[variables[level]] = -1
                    choice[level] = -1
                    level -= 1
                    if level >= 0:
                        pool[choice[level]] += 1
            if chosen_row >= 0:
                break
        if rounds == 0:
            total = running
    if chosen_row < 0:
        return False
    # ``pool`` is the chosen split less the seen nouns and the constrained ones; the other
    # face-down nouns come from the urn.
    for i in range(count):
        card = s[IDS + slots[i]]
        if not (used >> card & 1):
            words[card] = 9 + _urn(pool, streams, stream)
    return True


@njit
def resample(s: np.ndarray, viewer: int, streams: np.ndarray, stream: int, odds: np.ndarray
             ) -> None:
    """The hidden part of ``s`` drawn again, in place, from what ``viewer`` knows: the
    other seat's face-down nouns, its private decklist, its hand (by the odds at
    ``odds[HAND_ODDS:]``, see ``with_odds``) and its deck (``DecoherenceState.resample``).
    ``odds`` is ``s`` itself, or the search root ``s`` was copied from."""
    seat = 1 - viewer
    split = np.empty(5, np.int64)
    seen = np.zeros(NUM_WORDS, np.int64)
    slots = np.empty(2 * MAX_TABLE, np.int64)
    count = seen_cards(s, seat, seen, slots)
    _draw_nouns(s, seat, seen, slots, count, streams, stream, split, odds)
    lists = DECKLISTS + seat * NUM_WORDS
    for n in range(3):
        s[lists + 9 + n] = split[n]
    for kind in range(2):
        _draw_split(s, seat, kind, seen, streams, stream, split, odds)
        for i in range(KIND_FIRST[kind + 1] - KIND_FIRST[kind]):
            s[lists + KIND_FIRST[kind] + i] = split[i]
    pool = np.empty(NUM_WORDS, np.int64)
    for w in range(NUM_WORDS):
        pool[w] = s[lists + w] - seen[w]
    for i in range(count):
        pool[s[TABLE + slots[i] * FIELDS]] -= 1
    hand = HANDS + seat * NUM_WORDS
    for w in range(NUM_WORDS):
        s[hand + w] = 0
    rows = odds[HAND_ODDS]
    point = np.int64(next_u64(streams, stream) >> np.uint64(12))  # out of ODDS_SCALE
    row = rows - 1
    for r in range(rows):
        if point < odds[HAND_ODDS + 1 + 4 * r + 3]:
            row = r
            break
    for kind in range(3):
        for _ in range(odds[HAND_ODDS + 1 + 4 * row + kind]):
            total = 0
            for w in range(KIND_FIRST[kind], KIND_FIRST[kind + 1]):
                total += pool[w]
            point = below(streams, stream, total)
            for w in range(KIND_FIRST[kind], KIND_FIRST[kind + 1]):
                if point < pool[w]:
                    break
                point -= pool[w]
            pool[w] -= 1
            s[hand + w] += 1
    for w in range(NUM_WORDS):
        s[DECKS + seat * NUM_WORDS + w] = pool[w]
    if s[PHASE] == TARGET:  # ``resample``: the waiting sentence's targets on this table
        owner, g = s[P_OWNER], s[P_THING]
        targets = candidates(s, owner, g, s[P_VERB], s[P_QUALIFIER], True)
        if targets == 0:
            targets = candidates(s, owner, g, s[P_VERB], s[P_QUALIFIER], False)
        s[TARGETS] = targets


def with_odds(array: np.ndarray, state: DecoherenceState, viewer: int) -> np.ndarray:
    """``array`` (the compiled ``state``) with the odds of the other seat's hand by kinds
    and of its private decklist as ``viewer`` weighs them (``knowledge._Seat``,
    ``knowledge.split_odds``), for ``resample``."""
    from quarkade.games.decoherence import knowledge

    info = knowledge._Seat(state, 1 - viewer, state.game.open_decklists)
    at = SPLIT_ODDS + 3
    for kind, words in enumerate(KIND_WORDS):
        array[SPLIT_ODDS + kind] = 0
        if info.known[kind] is not None:
            continue
        splits, cumulative = knowledge.split_odds(kind, tuple(info.seen[w] for w in words))
        array[SPLIT_ODDS + kind] = len(splits)
        for split, weight in zip(splits, cumulative, strict=True):
            array[at] = COMPOSITION_START[kind] + KIND_COMPOSITIONS[kind].index(split)
            array[at + 1] = min(ODDS_SCALE, int(weight / cumulative[-1] * ODDS_SCALE))
            at += 2
        array[at - 1] = ODDS_SCALE  # the last row takes the rest
    rows = len(info.hands)
    if rows > HAND_ROWS:
        raise ValueError(f"a hand of {sum(info.hands[0])} cards has too many kinds' splits")
    total = info.hand_odds[-1]
    array[HAND_ODDS] = rows
    for r, (hand, running) in enumerate(zip(info.hands, info.hand_odds, strict=True)):
        array[HAND_ODDS + 1 + 4 * r:HAND_ODDS + 1 + 4 * r + 3] = hand
        array[HAND_ODDS + 1 + 4 * r + 3] = min(ODDS_SCALE, int(running / total * ODDS_SCALE))
    array[HAND_ODDS + 4 * rows] = ODDS_SCALE  # the last row takes the rest
    return array
