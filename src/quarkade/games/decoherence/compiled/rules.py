"""Decoherence's rules, compiled: ``rules.py``, ``sentences.py`` and ``entanglement.py``
again, step for step, on the layout of ``layout.py``.

Every function mirrors the reference function of the same name (its rulings are cited
there); the proofs ``knowledge`` keeps are recorded at the same moments (``proofs.py``).
The caller makes sure an action is legal: nothing here refuses one.
"""

from __future__ import annotations

import numpy as np

from quarkade.core.jit import below, njit, njit_inline
from quarkade.core.protocol import CHANCE, TERMINAL
from quarkade.games.decoherence.compiled.layout import (
    ACTIVE,
    CHAINS,
    CLASSICAL,
    COMPOSITION_START,
    COMPOSITIONS,
    DECKLISTS,
    DECKS,
    DECOHERED,
    DISCARDS,
    EMPTY,
    EMPTY_DECK,
    ENDING,
    FIRST,
    HANDS,
    ID_WORDS,
    IDS,
    IDS_GIVEN,
    LEAK_UP,
    NO_LEAK,
    P_CLOSER,
    P_OWNER,
    P_QUALIFIER,
    P_THING,
    P_VERB,
    PENDING,
    PHASE,
    RANDOM_DECKS,
    SEAT_SPAN,
    STEP,
    TABLE,
    TARGETS,
    TURN,
    VERVE,
    WINNERS,
    count_hidden,
    count_lulus,
    deck_size,
    free_slot,
    hand_size,
    item_size,
    open_chains,
    settle_spin,
)
from quarkade.games.decoherence.compiled.proofs import (
    note_bunching,
    note_lulus,
    note_push,
    note_settle,
    note_twig_options,
    push_snapshot,
)
from quarkade.games.decoherence.notation import (
    BOOD,
    CLOSE_BASE,
    COMPOSITION_BASE,
    DISCARD_BASE,
    DOWN,
    FIRST_BASE,
    HEADS,
    KIKI,
    MAX_CHAINS,
    MAX_TABLE,
    NOUN_BASE,
    NUM_WORDS,
    OUT,
    OWN_TARGET_BASE,
    PASS,
    QUALIFIER_BASE,
    RIFFED,
    TAPPED,
    THEIR_TARGET_BASE,
    THROUGH,
    TWIGGED,
    UP,
    VERB_BASE,
    VERVED,
)
from quarkade.games.decoherence.rules import HAND_LIMIT, OPENING_HAND
from quarkade.games.decoherence.sentences import (
    COIN,
    DISCARD,
    DRAW,
    OPENING,
    OVER,
    PLAY,
    TARGET,
)
from quarkade.games.decoherence.sentences import (
    DECKS as DECKS_PHASE,
)
from quarkade.games.decoherence.sentences import FIRST as FIRST_PHASE
from quarkade.games.decoherence.table import (
    BARE,
    FATAL,
    FIELDS,
    GROWTH,
    HIDDEN,
    KIND,
    KNOWN,
    LINK,
    MEASURED,
    NO_SPIN,
    ORIGIN,
    SEEN,
    SPIN,
    SPIN_DOWN,
    SPIN_UP,
    STATE,
    VIS,
)

MAX_ACTIONS = COMPOSITION_START[1]  # a random deck's verbs: the most outcomes of any node
CLOSE_COST = np.array((0,) * 9 + (3, 2, 2), np.int64)  # rules.CLOSE_COST (D-5)
# The opening hand's kinds (D-23): a verb, a qualifier, a noun, then any two; as word spans.
OPENING_LOW = np.array((0, 5, 9, 0, 0), np.int64)
OPENING_HIGH = np.array((5, 9, 12, 12, 12), np.int64)


# -- whose move, what is legal ---------------------------------------------------------------

@njit_inline
def current_player(s: np.ndarray) -> int:
    phase = s[PHASE]
    if phase in (PLAY, DISCARD):
        return s[ACTIVE]
    if phase == TARGET:
        return s[P_OWNER]  # D-1: the chain's owner
    if phase == OVER:
        return TERMINAL
    return CHANCE


@njit_inline
def _random_step(s: np.ndarray) -> tuple[int, int]:
    """The seat and kind of the random deck's draw at step ``STEP`` (``random_steps``)."""
    step = s[STEP]
    seat = 0 if s[RANDOM_DECKS] & 1 and step < 3 else 1
    return seat, step % 3


@njit
def chance_outcomes(s: np.ndarray, actions: np.ndarray, weights: np.ndarray) -> int:
    """The chance outcomes and their integer weights (probability: weight / total)."""
    phase = s[PHASE]
    if phase in (DRAW, OPENING):
        if phase == DRAW:
            seat, low, high = s[ACTIVE], 0, NUM_WORDS
        else:
            seat, index = divmod(s[STEP], OPENING_HAND)
            low, high = OPENING_LOW[index], OPENING_HIGH[index]
        count = 0
        for w in range(low, high):
            left = s[DECKS + seat * NUM_WORDS + w]
            if left:
                actions[count] = w
                weights[count] = left
                count += 1
        return count
    if phase in (COIN, FIRST_PHASE):
        base = HEADS if phase == COIN else FIRST_BASE
        actions[0], actions[1] = base, base + 1
        weights[0] = weights[1] = 1
        return 2
    if phase == DECKS_PHASE:
        kind = _random_step(s)[1]
        count = COMPOSITION_START[kind + 1] - COMPOSITION_START[kind]
        for i in range(count):
            actions[i] = COMPOSITION_BASE[kind] + i
            weights[i] = 1
        return count
    return 0


@njit_inline
def sample_chance(s: np.ndarray, streams: np.ndarray) -> int:
    """A chance outcome drawn with its probability from the chance stream."""
    phase = s[PHASE]
    if phase in (DRAW, OPENING):
        if phase == DRAW:
            seat, low, high = s[ACTIVE], 0, NUM_WORDS
        else:
            seat, index = divmod(s[STEP], OPENING_HAND)
            low, high = OPENING_LOW[index], OPENING_HIGH[index]
        start = DECKS + seat * NUM_WORDS
        total = 0
        for w in range(low, high):
            total += s[start + w]
        point = below(streams, 0, total)
        for w in range(low, high):
            point -= s[start + w]
            if point < 0:
                return w
        return high - 1
    if phase == COIN:
        return HEADS + below(streams, 0, 2)
    if phase == FIRST_PHASE:
        return FIRST_BASE + below(streams, 0, 2)
    kind = _random_step(s)[1]
    return COMPOSITION_BASE[kind] + below(
        streams, 0, COMPOSITION_START[kind + 1] - COMPOSITION_START[kind])


@njit
def legal_actions(s: np.ndarray, out: np.ndarray) -> int:
    """Writes the legal actions (ascending) into ``out``; returns how many."""
    phase = s[PHASE]
    if phase == PLAY:
        return play_actions(s, out)
    if phase == TARGET:
        count = 0
        targets = s[TARGETS]
        for bit in range(2 * MAX_TABLE):
            if targets >> bit & 1:
                out[count] = OWN_TARGET_BASE + bit
                count += 1
        return count
    if phase == DISCARD:
        start = HANDS + s[ACTIVE] * NUM_WORDS
        count = 0
        for w in range(NUM_WORDS):
            if s[start + w]:
                out[count] = DISCARD_BASE + w
                count += 1
        return count
    if phase == OVER:
        return 0
    weights = np.empty(MAX_ACTIONS, np.int64)
    return chance_outcomes(s, out, weights)


@njit_inline
def play_actions(s: np.ndarray, out: np.ndarray) -> int:
    """``DecoherenceState._play_actions``: pass, verbs, qualifiers, nouns, closes."""
    seat = s[ACTIVE]
    hand = HANDS + seat * NUM_WORDS
    mine = CHAINS + seat * MAX_CHAINS * 2
    out[0] = PASS
    count = 1
    if s[mine] < 0 or s[mine + 2] < 0 or s[mine + 4] < 0:
        for w in range(5):
            if s[hand + w]:
                out[count] = VERB_BASE + w
                count += 1
    for c in range(MAX_CHAINS):
        if s[mine + 2 * c] >= 0 and s[mine + 2 * c + 1] < 0:
            for q in range(4):
                if s[hand + 5 + q]:
                    out[count] = QUALIFIER_BASE + 4 * c + q
                    count += 1
    nouns = s[hand + 9] + s[hand + 10] + s[hand + 11]
    if nouns:
        for c in range(MAX_CHAINS):
            if s[mine + 2 * c + 1] >= 0:
                for n in range(3):
                    if s[hand + 9 + n]:
                        out[count] = NOUN_BASE + 3 * c + n
                        count += 1
        verve = s[VERVE + seat]
        if verve >= 2:
            theirs = CHAINS + (1 - seat) * MAX_CHAINS * 2
            for c in range(MAX_CHAINS):
                if s[theirs + 2 * c + 1] >= 0:
                    for n in range(3):
                        if s[hand + 9 + n] and CLOSE_COST[9 + n] <= verve:
                            out[count] = CLOSE_BASE + 3 * c + n
                            count += 1
    return count


# -- playing ---------------------------------------------------------------------------------

@njit_inline
def apply_action(s: np.ndarray, action: int) -> None:
    """Play a legal ``action`` (the caller makes sure it is legal)."""
    phase = s[PHASE]
    if phase == PLAY:
        _play(s, action)
    elif phase == DRAW:
        seat = s[ACTIVE]
        s[DECKS + seat * NUM_WORDS + action] -= 1
        s[HANDS + seat * NUM_WORDS + action] += 1
        s[PHASE] = PLAY
    elif phase == TARGET:
        owner = s[P_OWNER]
        if action >= THEIR_TARGET_BASE:
            target = (1 - owner) * MAX_TABLE + action - THEIR_TARGET_BASE
        else:
            target = owner * MAX_TABLE + action - OWN_TARGET_BASE
        choose_target(s, target)
    elif phase == DISCARD:
        seat = s[ACTIVE]
        word = action - DISCARD_BASE
        s[HANDS + seat * NUM_WORDS + word] -= 1
        s[DISCARDS + seat * NUM_WORDS + word] += 1
        if hand_size(s, seat) <= HAND_LIMIT:
            _end_turn(s)
    elif phase == COIN:
        coin(s, action == HEADS)
    elif phase == OPENING:
        seat = s[STEP] // OPENING_HAND
        s[DECKS + seat * NUM_WORDS + action] -= 1
        s[HANDS + seat * NUM_WORDS + action] += 1
        s[STEP] += 1
        if s[STEP] == 2 * OPENING_HAND:
            _start_turn(s, s[FIRST])
    elif phase == FIRST_PHASE:
        s[FIRST] = action - FIRST_BASE
        s[PHASE] = OPENING
        s[STEP] = 0
    elif phase == DECKS_PHASE:
        seat, kind = _random_step(s)
        row = COMPOSITION_START[kind] + action - COMPOSITION_BASE[kind]
        first_word = 0 if kind == 0 else 5 if kind == 1 else 9
        words = 5 if kind == 0 else 4 if kind == 1 else 3
        for i in range(words):
            count = COMPOSITIONS[row, i]
            s[DECKLISTS + seat * NUM_WORDS + first_word + i] = count
            s[DECKS + seat * NUM_WORDS + first_word + i] = count
        s[STEP] += 1
        steps = 3 * ((s[RANDOM_DECKS] & 1) + (s[RANDOM_DECKS] >> 1 & 1))
        if s[STEP] == steps:
            s[PHASE] = FIRST_PHASE
            s[STEP] = 0


@njit_inline
def _play(s: np.ndarray, action: int) -> None:
    seat = s[ACTIVE]
    hand = HANDS + seat * NUM_WORDS
    if action == PASS:
        if hand_size(s, seat) > HAND_LIMIT:
            s[PHASE] = DISCARD
        else:
            _end_turn(s)
    elif action < QUALIFIER_BASE:
        word = action - VERB_BASE
        mine = CHAINS + seat * MAX_CHAINS * 2
        for c in range(MAX_CHAINS):
            if s[mine + 2 * c] < 0:
                s[mine + 2 * c] = word
                s[hand + word] -= 1
                return
    elif action < NOUN_BASE:
        chain, q = divmod(action - QUALIFIER_BASE, 4)
        s[CHAINS + (seat * MAX_CHAINS + chain) * 2 + 1] = 5 + q
        s[hand + 5 + q] -= 1
    elif action < CLOSE_BASE:
        chain, n = divmod(action - NOUN_BASE, 3)
        s[hand + 9 + n] -= 1
        begin(s, seat, -1, chain, 9 + n)
    else:
        chain, n = divmod(action - CLOSE_BASE, 3)
        word = 9 + n
        s[hand + word] -= 1
        s[VERVE + seat] -= CLOSE_COST[word]
        if check_verve(s):  # D-6: paying your last verve loses at once
            s[DISCARDS + seat * NUM_WORDS + word] += 1  # the noun never resolves
            return
        begin(s, 1 - seat, seat, chain, word)


@njit
def _end_turn(s: np.ndarray) -> None:
    """The leak (seed 000 section 4, D-7), then the next player's turn."""
    seat = s[ACTIVE]
    leak = 0 if s[NO_LEAK] else open_chains(s, seat) + s[LEAK_UP]
    if leak:
        s[VERVE + seat] -= leak
        if check_verve(s):
            return
    _start_turn(s, 1 - seat)


@njit
def _start_turn(s: np.ndarray, seat: int) -> None:
    """Made classical (D-22), then the draw, which loses on an empty deck."""
    s[ACTIVE] = seat
    s[TURN] += 1
    s[LEAK_UP] = 0
    s[NO_LEAK] = 0
    if s[TURN] >= 2 and is_classical(s, 1 - seat):
        _end(s, 1 << (1 - seat), CLASSICAL)
    elif deck_size(s, seat) == 0:
        _end(s, 1 << seat, EMPTY_DECK)
    else:
        s[PHASE] = DRAW


@njit_inline
def check_verve(s: np.ndarray) -> bool:
    """Decoherence: a seat at 0 or less loses; both at once, D-26. True if it ended."""
    if s[VERVE] > 0 and s[VERVE + 1] > 0:
        return False
    _end(s, (s[VERVE] <= 0) | (s[VERVE + 1] <= 0) << 1, DECOHERED)
    return True


@njit
def _end(s: np.ndarray, losers: int, reason: int) -> None:
    if losers != 3:
        s[WINNERS] = 3 - losers
    else:
        hidden0, hidden1 = count_hidden(s, 0), count_hidden(s, 1)
        s[WINNERS] = 0 if hidden0 == hidden1 else 1 if hidden0 > hidden1 else 2
    s[ENDING] = reason
    s[PHASE] = OVER


@njit
def is_classical(s: np.ndarray, seat: int) -> bool:
    """No open chain, no link touching its table, not one hidden noun (D-22)."""
    if open_chains(s, seat):
        return False
    start = TABLE + seat * SEAT_SPAN
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if s[b] >= 0 and (s[b + VIS] == HIDDEN or s[b + LINK] >= 0):
            return False
    return True


@njit
def returns(s: np.ndarray, out: np.ndarray) -> None:
    """Each seat's return: 1 for the winner, -1 for the loser, zeros for a draw or until
    the end."""
    winners = s[WINNERS] if s[PHASE] == OVER else 0
    for seat in range(2):
        out[seat] = 0.0 if winners == 0 else 1.0 if winners >> seat & 1 else -1.0


# -- sentences (``sentences.py``) --------------------------------------------------------------

@njit_inline
def _chooses(verb: int, qualifier: int) -> bool:
    """``sentences._CHOOSES``: every sentence but verved, tapped through, riffed through."""
    if verb == VERVED:
        return False
    return qualifier != THROUGH or verb in (BOOD, TWIGGED)


@njit
def begin(s: np.ndarray, owner: int, closer: int, chain: int, noun: int) -> None:
    """``sentences.begin``: resolve ``owner``'s chain completed by ``noun``."""
    at = CHAINS + (owner * MAX_CHAINS + chain) * 2
    verb, qualifier = s[at], s[at + 1]
    s[at] = s[at + 1] = -1
    g = owner * MAX_TABLE + free_slot(s, owner)
    base = TABLE + g * FIELDS
    closed = closer >= 0
    s[base] = noun
    s[base + ORIGIN] = closer if closed else owner
    s[base + VIS] = KNOWN if closed else HIDDEN
    s[base + SEEN] = 1 if closed else 0
    s[IDS + g] = s[IDS_GIVEN]  # the card's public id (``knowledge``)
    s[ID_WORDS + s[IDS_GIVEN]] = -1
    s[IDS_GIVEN] += 1
    wanted = SPIN_UP if qualifier == UP else SPIN_DOWN if qualifier == DOWN else NO_SPIN
    if wanted:
        s[base + KIND] = STATE
        spin = settle_spin(s, g, wanted) if noun == KIKI else wanted
        note_settle(s, g, wanted, NO_SPIN, spin)
        if spin == NO_SPIN:  # D-8: excluded on arrival, no effect; tapped still pays
            discard(s, g)
            if verb == TAPPED:
                s[VERVE + owner] -= 1
            _finish(s, owner, verb, qualifier)
            return
        s[base + SPIN] = spin
    s[PENDING] = 1
    s[P_OWNER], s[P_CLOSER], s[P_VERB], s[P_QUALIFIER], s[P_THING] = (
        owner, closer, verb, qualifier, g)
    if verb == TAPPED:
        s[VERVE + owner] -= 1  # tapped always pays 1 (seed 000 section 5)
        if qualifier == THROUGH:
            s[PHASE] = COIN
            return
    if _chooses(verb, qualifier):
        if verb == BOOD and qualifier == THROUGH and _sweep(s, owner):
            _finish(s, owner, verb, qualifier)
            return
        options = candidates(s, owner, g, verb, qualifier, True)
        if verb == TWIGGED and qualifier != THROUGH:
            note_twig_options(s, owner, g, _partner_spin(s, g, qualifier), options != 0)
        if options:
            s[TARGETS] = options
            s[PHASE] = TARGET
            return
    elif verb == VERVED:
        _verved(s, owner, g, qualifier)
    _finish(s, owner, verb, qualifier)


@njit
def choose_target(s: np.ndarray, target: int) -> None:
    """``sentences.choose``: the pending sentence on table thing ``target``."""
    owner, verb, qualifier, g = s[P_OWNER], s[P_VERB], s[P_QUALIFIER], s[P_THING]
    base = TABLE + g * FIELDS
    tbase = TABLE + target * FIELDS
    if verb == TAPPED:
        if qualifier == OUT:
            _reveal(s, g)
            _reveal(s, target)
            size = item_size(s, g)
            if item_size(s, target) <= size:
                note_bunching(s, target, 0, size)
                discard(s, target)
            else:
                note_bunching(s, target, size + 1, 99)
        else:
            wanted = SPIN_UP if qualifier == UP else SPIN_DOWN
            snapshot = push_snapshot(s, target)
            push(s, target, wanted)
            note_push(s, snapshot, target, wanted)
    elif verb == BOOD:
        if qualifier == OUT:
            discard(s, target)
        else:
            s[tbase + VIS] = MEASURED
            s[tbase + SEEN] = 1
            if qualifier != THROUGH:
                wanted = SPIN_UP if qualifier == UP else SPIN_DOWN
                old = s[tbase + SPIN]
                spin = settle_spin(s, target, wanted)
                if spin:
                    s[tbase + SPIN] = spin
                    s[tbase + KIND] = STATE  # D-13
                note_settle(s, target, wanted, old, spin)
    elif verb == TWIGGED:
        fatal = 1 if qualifier == OUT else 0
        s[base + LINK] = target
        s[tbase + LINK] = g
        s[base + FATAL] = s[tbase + FATAL] = fatal
        if qualifier == THROUGH:
            s[base + KIND] = STATE  # a spinless state
        else:
            partner_spin = _partner_spin(s, g, qualifier)
            note_settle(s, target, partner_spin, s[tbase + SPIN], partner_spin)
            s[tbase + KIND] = STATE
            s[tbase + SPIN] = partner_spin
    else:  # riffed
        _reveal(s, g)
        if qualifier == OUT:
            discard(s, target)
            discard(s, g)
        elif s[tbase + SPIN] == s[base + SPIN]:
            grow = item_size(s, g)
            note_bunching(s, g, grow, grow)
            s[base + GROWTH] += grow
            s[tbase + GROWTH] += grow
        else:
            discard(s, target)
            discard(s, g)
    _finish(s, owner, verb, qualifier)


@njit
def coin(s: np.ndarray, heads: bool) -> None:
    """``sentences.coin``: heads, the owner's opponent loses N."""
    owner, g = s[P_OWNER], s[P_THING]
    _reveal(s, g)
    if heads:
        s[VERVE + 1 - owner] -= item_size(s, g)
    _finish(s, owner, s[P_VERB], s[P_QUALIFIER])


@njit
def candidates(s: np.ndarray, owner: int, g: int, verb: int, qualifier: int,
               exclusion: bool) -> int:
    """``sentences.candidates`` as a mask of target actions (bit ``a - OWN_TARGET_BASE``)."""
    found = 0
    if verb == TWIGGED and qualifier != THROUGH:
        partner_spin = _partner_spin(s, g, qualifier)
        for t in range(owner * MAX_TABLE, (owner + 1) * MAX_TABLE):
            b = TABLE + t * FIELDS
            # The partner must be able to take the opposite spin (exclusion, D-9).
            if s[b] >= 0 and s[b + VIS] != MEASURED and s[b + LINK] < 0 and t != g and (
                    not exclusion or s[b] != KIKI
                    or settle_spin(s, t, partner_spin) == partner_spin):
                found |= 1 << (t - owner * MAX_TABLE)
        return found
    them = 1 - owner
    for slot in range(MAX_TABLE):
        b = TABLE + (them * MAX_TABLE + slot) * FIELDS
        if s[b] < 0:
            continue
        if verb == TAPPED:
            ok = s[b + KIND] == STATE if qualifier != OUT else s[b + LINK] < 0
        elif verb == BOOD:
            ok = s[b + VIS] == HIDDEN and s[b + LINK] < 0
            if qualifier == THROUGH:
                ok = ok and s[b + KIND] == STATE
        elif verb == TWIGGED:
            ok = s[b + VIS] != MEASURED and s[b + LINK] < 0
        elif verb == RIFFED:
            ok = qualifier == OUT or s[b + SPIN] != NO_SPIN
        else:
            ok = False
        if ok:
            found |= 1 << (MAX_TABLE + slot)
    return found


@njit_inline
def _partner_spin(s: np.ndarray, g: int, qualifier: int) -> int:
    """The spin a twigged up/down/out partner takes (``sentences._partner_spin``)."""
    if qualifier == OUT:
        return SPIN_DOWN
    return 3 - s[TABLE + g * FIELDS + SPIN]


@njit
def _verved(s: np.ndarray, owner: int, g: int, qualifier: int) -> None:
    own_turn = owner == s[ACTIVE]
    if qualifier == DOWN:
        s[VERVE + owner] += 1
        if own_turn:
            s[NO_LEAK] = 1
        return
    _reveal(s, g)
    size = item_size(s, g)
    if qualifier == UP:
        note_bunching(s, g, size, size)
        s[VERVE + owner] += size
        if own_turn:
            s[LEAK_UP] += 1
    elif qualifier == THROUGH:
        lulus = count_lulus(s, owner)  # D-12, D-27: the sentence's own lulu included
        note_lulus(s, owner, lulus)
        s[VERVE + owner] += size + lulus
    else:
        s[VERVE + 1 - owner] -= size
        s[VERVE + owner] -= 1


@njit_inline
def _sweep(s: np.ndarray, owner: int) -> bool:
    """Boo'd through: measure every hidden, unlinked bare particle of the opponent's."""
    start = TABLE + (1 - owner) * SEAT_SPAN
    swept = False
    for b in range(start, start + SEAT_SPAN, FIELDS):
        if s[b] >= 0 and s[b + KIND] == BARE and s[b + VIS] == HIDDEN and s[b + LINK] < 0:
            s[b + VIS] = MEASURED
            s[b + SEEN] = 1
            swept = True
    return swept


@njit_inline
def _reveal(s: np.ndarray, g: int) -> None:
    base = TABLE + g * FIELDS
    if s[base + VIS] == HIDDEN:
        s[base + VIS] = KNOWN
    s[base + SEEN] = 1


@njit
def _finish(s: np.ndarray, owner: int, verb: int, qualifier: int) -> None:
    """The chain's verb and qualifier go to the owner's pile; verve is checked (D-3)."""
    s[DISCARDS + owner * NUM_WORDS + verb] += 1
    s[DISCARDS + owner * NUM_WORDS + qualifier] += 1
    s[PENDING] = 0
    s[P_OWNER] = s[P_CLOSER] = s[P_VERB] = s[P_QUALIFIER] = s[P_THING] = -1
    s[TARGETS] = 0
    s[PHASE] = PLAY
    check_verve(s)


# -- entanglement (``entanglement.py``) ----------------------------------------------------------

@njit
def push(s: np.ndarray, g: int, wanted: int) -> None:
    """Send ``g`` into ``wanted`` (tapped up/down); a spinning partner takes the opposite
    spin; if it cannot (a kiki held by exclusion), neither half moves (D-9)."""
    base = TABLE + g * FIELDS
    old = s[base + SPIN]
    new = settle_spin(s, g, wanted)
    if new == old:
        return
    partner = s[base + LINK]
    s[base + SPIN] = new
    s[base + KIND] = STATE
    if partner >= 0 and s[TABLE + partner * FIELDS + SPIN] != NO_SPIN:
        opposite = 3 - new
        if settle_spin(s, partner, opposite) != opposite:
            s[base + SPIN] = old
            return
        s[TABLE + partner * FIELDS + SPIN] = opposite


@njit_inline
def _take_off(s: np.ndarray, g: int) -> tuple[int, int]:
    """Empty ``g``'s slot into its origin's discard pile (its word becomes public by its
    id, ``knowledge.note_gone``): (its partner, whether the link was fatal)."""
    base = TABLE + g * FIELDS
    noun = s[base]
    partner = s[base + LINK]
    fatal = s[base + FATAL]
    s[DISCARDS + s[base + ORIGIN] * NUM_WORDS + noun] += 1
    s[ID_WORDS + s[IDS + g]] = noun
    for i in range(FIELDS):
        s[base + i] = EMPTY[i]
    return partner, fatal


@njit
def discard(s: np.ndarray, g: int) -> None:
    """``entanglement.discard``: take ``g`` off the table, breaking its link; the other
    half is discarded too (fatal) or goes dark."""
    partner, fatal = _take_off(s, g)
    if partner < 0:
        return
    pbase = TABLE + partner * FIELDS
    s[pbase + LINK] = -1
    s[pbase + FATAL] = 0
    if fatal:
        _take_off(s, partner)  # its link is broken already: nothing more follows
    else:
        s[pbase + KIND] = BARE
        s[pbase + SPIN] = NO_SPIN
        s[pbase + VIS] = HIDDEN
