"""Decoherence (seeds 000_f21bea9f3b6d9580.txt, the full rules, and 001_89ac9a7346c2d312.txt,
the player aid): two players build sentences, verb + qualifier + noun, from decks of their
own. Nouns go down face-down; verve is life.

Modules: ``notation`` (words and action ids), ``decks`` (deck text and presets), ``table``
(the flat table of states and bare particles), ``entanglement`` (links, pushes, discards),
``sentences`` (the twenty effects) and this one (setup, turns, chance, views, resampling).

Rulings relied on (docs/RULINGS.md, section Decoherence): D-1 who chooses for a closed
chain, D-2 verved up/down on the other player's turn, D-3 when verve is checked, D-4
targets are compulsory, D-5 closing cost of a bouba, D-6 closing with your last verve,
D-7 leak modifiers, D-8 a kiki excluded on arrival, D-9 exclusion for pushes and twig
partners, D-10 twigged out, D-11 tapped on a spinless state, D-12 lulus and verved
through, D-13 a measured bare particle given a spin, D-14 cover, D-15 revealing, D-16
going dark, D-17 growth, D-18 boo'd through's fallback, D-19 the first player's draw, D-20
random decks, D-21 decklists, D-22 made classical, D-23 the opening hands, D-24 chains
per player, D-25 discard piles, D-26 simultaneous loss.

A game: for each ``random`` deck three chance actions (its verbs, qualifiers, nouns); the
coin for the first player; five chance draws per seat for the opening hands; then turns.
A turn: the made-classical check and the draw (a chance action, one card at a time,
outcomes the words left in the deck weighted by count); plays (decisions), each noun
resolving at once, perhaps through a target decision of the chain's owner or a coin; pass;
discards down to seven (decisions, card by card); the leak.
"""

from __future__ import annotations

import random
from typing import Any

from quarkade.core.errors import IllegalActionError, NotationError
from quarkade.core.options import Option, players_option
from quarkade.core.protocol import (
    CHANCE,
    HIDDEN_OPTION,
    SPECTATOR,
    TERMINAL,
    Game,
    Outcome,
    State,
    as_action_id,
    legal_text,
    normalize_notation,
)
from quarkade.games.decoherence import knowledge, sentences
from quarkade.games.decoherence.decks import (
    PRESETS,
    RANDOM,
    deck_text,
    normalize_deck,
    parse_deck,
)
from quarkade.games.decoherence.notation import (
    BOUBA,
    CLOSE_BASE,
    COMPOSITION_BASE,
    DISCARD_BASE,
    FIRST_BASE,
    HEADS,
    KIND_COMPOSITIONS,
    KIND_NAMES,
    KIND_OF,
    KIND_WORDS,
    MAX_CHAINS,
    MAX_TABLE,
    NOUN,
    NOUN_BASE,
    NUM_ACTIONS,
    NUM_WORDS,
    OWN_TARGET_BASE,
    PASS,
    QUALIFIER,
    QUALIFIER_BASE,
    TAILS,
    THEIR_TARGET_BASE,
    VERB,
    VERB_BASE,
    WORDS,
    chain_text,
    close_text,
    composition_text,
    noun_text,
    qualifier_text,
    target_text,
    verb_text,
)
from quarkade.games.decoherence.sentences import (
    COIN,
    DECKS,
    DISCARD,
    DRAW,
    FIRST,
    OPENING,
    OVER,
    PHASE_NAMES,
    PLAY,
    TARGET,
)
from quarkade.games.decoherence.table import (
    BASE_SIZE,
    FATAL,
    FIELDS,
    GROWTH,
    HIDDEN,
    KIND,
    LINK,
    ORIGIN,
    SEAT_SPAN,
    SEEN,
    SPIN,
    SPIN_NAMES,
    STATE,
    VIS,
    VIS_NAMES,
    count_hidden,
    empty_table,
    item_size,
)

STARTING_VERVE = 10
HAND_LIMIT = 7
OPENING_HAND = 5
# The opening hand (D-23): a verb, a qualifier and a noun, then two cards of any kind.
OPENING_KINDS = (VERB, QUALIFIER, NOUN, -1, -1)


# Why a game ended.
DECOHERED, EMPTY_DECK, CLASSICAL = "decoherence", "empty deck", "made classical"
# The viewer of ``revealed_view``: sees what every seat hides (never a ``view`` argument).
EVERYONE = -3

CLOSE_COST = (0,) * 9 + (3, 2, 2)  # D-5: the printed sizes
_IS_CHANCE = tuple(phase in (DECKS, FIRST, OPENING, DRAW, COIN) for phase in range(9))
_KIND_SPAN = {VERB: (0, 5), QUALIFIER: (5, 9), NOUN: (9, 12), -1: (0, NUM_WORDS)}
_COIN_OUTCOMES = ((HEADS, 0.5), (TAILS, 0.5))
_FIRST_OUTCOMES = ((FIRST_BASE, 0.5), (FIRST_BASE + 1, 0.5))
_KIND_OUTCOMES = tuple(
    tuple((COMPOSITION_BASE[kind] + i, 1 / len(comps)) for i in range(len(comps)))
    for kind, comps in enumerate(KIND_COMPOSITIONS))


# The play step's card actions depend on the hand; computed once per distinct hand (the
# counts of the twelve words): verbs; per chain, qualifiers; per chain, nouns; per chain,
# closes with every noun held, and with the nouns costing 2 only.
_HAND_ACTIONS: dict[tuple[int, ...], tuple] = {}


def _hand_actions(hand: tuple[int, ...]) -> tuple:
    verbs = tuple(VERB_BASE + w for w in range(5) if hand[w])
    quals = tuple(q for q in range(4) if hand[5 + q])
    nouns = tuple(n for n in range(3) if hand[9 + n])
    parts = (
        verbs,
        tuple(tuple(QUALIFIER_BASE + 4 * c + q for q in quals) for c in range(MAX_CHAINS))
        if quals else (),
        tuple(tuple(NOUN_BASE + 3 * c + n for n in nouns) for c in range(MAX_CHAINS))
        if nouns else (),
        tuple(tuple(CLOSE_BASE + 3 * c + n for n in nouns) for c in range(MAX_CHAINS)),
        tuple(tuple(CLOSE_BASE + 3 * c + n for n in nouns if CLOSE_COST[9 + n] <= 2)
              for c in range(MAX_CHAINS)),
    )
    if len(_HAND_ACTIONS) > 100_000:
        _HAND_ACTIONS.clear()
    _HAND_ACTIONS[hand] = parts
    return parts


# A draw's outcomes depend only on the counts left of the words it draws from: computed
# once per distinct (first word, counts...) key.
_DRAW_OUTCOMES: dict[tuple[int, ...], tuple[tuple[int, float], ...]] = {}


def _draw_odds(key: tuple[int, ...]) -> tuple[tuple[int, float], ...]:
    low, counts = key[0], key[1:]
    total = sum(counts)
    outcomes = tuple((low + i, c / total) for i, c in enumerate(counts) if c)
    if len(_DRAW_OUTCOMES) > 100_000:
        _DRAW_OUTCOMES.clear()
    _DRAW_OUTCOMES[key] = outcomes
    return outcomes


def _deck_option(seat: int) -> Option:
    return Option(f"deck{seat}", "balanced",
                  f"seat {seat}'s deck: word counts such as 'kiki 3, bouba 4, ...', a preset "
                  f"({', '.join(PRESETS)}) or random", kind=str, check=normalize_deck)


class DecoherenceGame(Game):
    """Decoherence for two players; options: deck0, deck1, open_decklists."""

    name = "decoherence"
    title = "Decoherence"
    summary = "Build sentences from verbs, qualifiers and hidden nouns; keep your verve."
    min_players = 2
    max_players = 2
    perfect_information = False
    option_specs = (
        players_option(2, 2),
        _deck_option(0),
        _deck_option(1),
        Option("open_decklists", False,
               "show both decklists to both players (D-21); off: each sees only its own",
               kind=bool),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        lists: list[int] = []
        steps: list[tuple[int, int]] = []
        for seat in range(2):
            text = self.options[f"deck{seat}"]
            if text == RANDOM:
                lists.extend([0] * NUM_WORDS)
                steps.extend((seat, kind) for kind in range(3))
            else:
                lists.extend(parse_deck(text))
        self.decklists = tuple(lists)
        self.random_steps = tuple(steps)
        self.open_decklists: bool = self.options["open_decklists"]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> DecoherenceState:
        return DecoherenceState(self)

    @classmethod
    def seat_option_names(cls, seat: int) -> tuple[str, ...]:
        """Each player picks their own deck on taking a seat (issue 13)."""
        return (f"deck{seat}",)

    def options_for(self, player: int) -> dict[str, Any]:
        """With private decklists (D-21) another seat's deck option reads ``hidden``; a
        random deck stays ``random``, since its draws are in everyone's log anyway."""
        shown = dict(self.options)
        if not self.open_decklists:
            for seat in range(2):
                if seat != player and shown[f"deck{seat}"] != RANDOM:
                    shown[f"deck{seat}"] = HIDDEN_OPTION
        return shown

    def _with_decklists(self, lists: list[int]) -> DecoherenceGame:
        """This game with other decklists (a resample's invented ones): a state of it
        carries no trace of the real lists it replaced."""
        options = dict(self.options)
        decklists = list(self.decklists)
        for seat in range(2):
            part = slice(seat * NUM_WORDS, (seat + 1) * NUM_WORDS)
            # A random deck's option holds no list; a deck the seat knows is unchanged.
            if options[f"deck{seat}"] != RANDOM and lists[part] != decklists[part]:
                decklists[part] = lists[part]
                options[f"deck{seat}"] = deck_text(lists[part])
        if tuple(decklists) == self.decklists:
            return self
        copy = DecoherenceGame.__new__(DecoherenceGame)
        copy.__dict__.update(self.__dict__)
        copy.options = options
        copy.decklists = tuple(decklists)
        return copy


class DecoherenceState(State):
    """A Decoherence position. Per-seat word counts are flat lists indexed
    ``seat * 12 + word``; chains are ``(seat * 3 + chain) * 2`` (+0 verb, +1 qualifier);
    the table is described in ``table``."""

    game: DecoherenceGame

    __slots__ = (
        "_active",
        "_chains",
        "_decklists",
        "_decks",
        "_discards",
        "_ending",
        "_events",
        "_facts",
        "_first",
        "_flows",
        "_hands",
        "_history",
        "_id_words",
        "_ids",
        "_leak_up",
        "_no_leak",
        "_pending",
        "_phase",
        "_prepared",
        "_proofs",
        "_step",
        "_table",
        "_targets",
        "_turn",
        "_verve",
        "_winners",
        "game",
    )

    def __init__(self, game: DecoherenceGame) -> None:
        self.game = game
        self._decklists = list(game.decklists)
        self._decks = list(game.decklists)
        self._hands = [0] * (2 * NUM_WORDS)
        self._discards = [0] * (2 * NUM_WORDS)
        self._chains = [-1] * (2 * MAX_CHAINS * 2)
        self._table = empty_table()
        self._verve = [STARTING_VERVE, STARTING_VERVE]
        self._phase = DECKS if game.random_steps else FIRST
        self._step = 0  # position in the deck draws, then in the opening draws
        self._active = -1
        self._first = -1
        self._turn = -1  # 0 on the first player's first turn
        self._leak_up = 0  # verved ups resolved as the active player's this turn
        self._no_leak = False  # a verved down resolved as the active player's this turn
        self._pending: tuple[int, int, int, int, int] | None = None
        self._facts: list | None = None
        self._targets: tuple[int, ...] = ()
        self._winners: tuple[int, ...] = ()
        self._ending = ""
        self._events: list = []
        self._history: list[int] = []
        # Public knowledge about hidden cards (``knowledge``): each seat's turns as the
        # kinds of the cards that left its hand (one packed int a turn), each table slot's
        # card id, the words of cards that left the table face-up by id, and the proofs
        # the rules gave about face-down nouns. ``_prepared`` caches them for ``resample``.
        self._flows: list[tuple[int, ...]] = [(), ()]
        self._ids = [-1] * (2 * MAX_TABLE)
        self._id_words: list[int] = []
        self._proofs: tuple = ()
        self._prepared: dict | None = None

    # -- whose move, what is legal --------------------------------------------------------

    def current_player(self) -> int:
        phase = self._phase
        if phase in (PLAY, DISCARD):
            return self._active
        if phase == TARGET:
            return self._pending[0]  # type: ignore[index]  # D-1: the chain's owner
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_chance_node(self) -> bool:
        return _IS_CHANCE[self._phase]

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self._phase
        if phase == DRAW:
            return self._draw_outcomes(self._active, -1)
        if phase == COIN:
            return list(_COIN_OUTCOMES)
        if phase == OPENING:
            seat, index = divmod(self._step, OPENING_HAND)
            return self._draw_outcomes(seat, OPENING_KINDS[index])
        if phase == FIRST:
            return list(_FIRST_OUTCOMES)
        if phase == DECKS:
            return list(_KIND_OUTCOMES[self.game.random_steps[self._step][1]])
        return []

    def _draw_outcomes(self, seat: int, kind: int) -> list[tuple[int, float]]:
        low, high = _KIND_SPAN[kind]
        start = seat * NUM_WORDS
        key = (low, *self._decks[start + low:start + high])
        outcomes = _DRAW_OUTCOMES.get(key)
        if outcomes is None:
            outcomes = _draw_odds(key)
        return list(outcomes)

    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == PLAY:
            return self._play_actions()
        if phase == DRAW:
            start = self._active * NUM_WORDS
            return [i for i, c in enumerate(self._decks[start:start + NUM_WORDS]) if c]
        if phase == TARGET:
            return list(self._targets)
        if phase == DISCARD:
            start = self._active * NUM_WORDS
            hand = self._hands
            return [DISCARD_BASE + w for w in range(NUM_WORDS) if hand[start + w]]
        if phase == OVER:
            return []
        return [a for a, _ in self.chance_outcomes()]

    def _play_actions(self) -> list[int]:
        seat = self._active
        h = seat * NUM_WORDS
        key = tuple(self._hands[h:h + NUM_WORDS])
        parts = _HAND_ACTIONS.get(key)
        if parts is None:
            parts = _hand_actions(key)
        verbs, quals, nouns, closes, cheap_closes = parts
        chains = self._chains
        mine = seat * 6
        actions = [PASS]
        if verbs and (chains[mine] < 0 or chains[mine + 2] < 0 or chains[mine + 4] < 0):
            actions += verbs
        if quals:
            for c in range(MAX_CHAINS):
                if chains[mine + 2 * c] >= 0 and chains[mine + 2 * c + 1] < 0:
                    actions += quals[c]
        if nouns:
            for c in range(MAX_CHAINS):
                if chains[mine + 2 * c + 1] >= 0:
                    actions += nouns[c]
            verve = self._verve[seat]
            if verve >= 2:
                if verve < 3:
                    closes = cheap_closes  # D-5: a kiki costs 3 to close
                theirs = (1 - seat) * 6
                for c in range(MAX_CHAINS):
                    if chains[theirs + 2 * c + 1] >= 0:
                        actions += closes[c]
        return actions

    # -- playing ----------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = as_action_id(action, NUM_ACTIONS)
        phase = self._phase
        events = self._events
        self._events = []
        self._prepared = None
        try:
            if phase == PLAY:
                self._play(action)
            else:
                self._apply_other(phase, action)
        except IllegalActionError:
            self._events = events  # a refused action changes nothing
            raise
        self._history.append(action)

    def _apply_other(self, phase: int, action: int) -> None:
        if phase == DRAW:
            seat = self._active
            if not 0 <= action < NUM_WORDS or not self._decks[seat * NUM_WORDS + action]:
                raise IllegalActionError(self._refusal(action, "no such card is left in the "
                                                               "deck"))
            self._decks[seat * NUM_WORDS + action] -= 1
            self._hands[seat * NUM_WORDS + action] += 1
            self._events.append(("draw", seat, action, 0))
            self._flows[seat] += (0,)
            self._phase = PLAY
        elif phase == TARGET:
            if action not in self._targets:
                raise IllegalActionError(self._refusal(action, "the sentence needs one of the "
                                                               "targets listed"))
            owner = self.current_player()  # D-1: the chain's owner decides
            sentences.choose(self, sentences.target_of(owner, action))
        elif phase == DISCARD:
            seat = self._active
            word = action - DISCARD_BASE
            if not 0 <= word < NUM_WORDS or not self._hands[seat * NUM_WORDS + word]:
                raise IllegalActionError(self._refusal(action, "discard a card you hold"))
            self._hands[seat * NUM_WORDS + word] -= 1
            self._discards[seat * NUM_WORDS + word] += 1
            self._left(seat, word)
            self._events.append(("discard", seat, word))
            if self._hand_size(seat) <= HAND_LIMIT:
                self._end_turn()
        elif phase == COIN:
            if action != HEADS and action != TAILS:
                raise IllegalActionError(self._refusal(action, "the coin shows heads or tails"))
            sentences.coin(self, action == HEADS)
        elif phase == OPENING:
            seat, index = divmod(self._step, OPENING_HAND)
            kind = OPENING_KINDS[index]
            if (not 0 <= action < NUM_WORDS or not self._decks[seat * NUM_WORDS + action]
                    or (kind >= 0 and KIND_OF[action] != kind)):
                raise IllegalActionError(self._refusal(action, "the opening hand draws a card "
                                                               "left in the deck"))
            self._decks[seat * NUM_WORDS + action] -= 1
            self._hands[seat * NUM_WORDS + action] += 1
            self._events.append(("draw", seat, action, 1))
            self._step += 1
            if self._step == 2 * OPENING_HAND:
                self._start_turn(self._first)
        elif phase == FIRST:
            if action != FIRST_BASE and action != FIRST_BASE + 1:
                raise IllegalActionError(self._refusal(action, "the coin picks seat 0 or 1"))
            self._first = action - FIRST_BASE
            self._events.append(("first", self._first))
            self._phase = OPENING
            self._step = 0
        elif phase == DECKS:
            seat, kind = self.game.random_steps[self._step]
            index = action - COMPOSITION_BASE[kind]
            if not 0 <= index < len(KIND_COMPOSITIONS[kind]):
                raise IllegalActionError(self._refusal(action, f"a random deck's "
                                                               f"{KIND_NAMES[kind]} come next"))
            for word, count in zip(KIND_WORDS[kind], KIND_COMPOSITIONS[kind][index],
                                   strict=True):
                self._decklists[seat * NUM_WORDS + word] = count
                self._decks[seat * NUM_WORDS + word] = count
            self._events.append(("deck", seat, kind, index))
            self._step += 1
            if self._step == len(self.game.random_steps):
                self._phase = FIRST
                self._step = 0
        else:
            raise IllegalActionError(f"the game is over; no action is legal (got {action})")

    def _play(self, action: int) -> None:
        seat = self._active
        hand = self._hands
        h = seat * NUM_WORDS
        chains = self._chains
        if action == PASS:
            if self._hand_size(seat) > HAND_LIMIT:
                self._phase = DISCARD
            else:
                self._end_turn()
        elif VERB_BASE <= action < QUALIFIER_BASE:
            word = action - VERB_BASE
            if not hand[h + word]:
                raise IllegalActionError(self._refusal(action, f"you hold no {WORDS[word]}"))
            mine = seat * MAX_CHAINS * 2
            for c in range(MAX_CHAINS):
                if chains[mine + 2 * c] < 0:
                    chains[mine + 2 * c] = word
                    hand[h + word] -= 1
                    self._left(seat, word)
                    return
            raise IllegalActionError(self._refusal(action, f"you already have {MAX_CHAINS} "
                                                           "open chains"))
        elif QUALIFIER_BASE <= action < NOUN_BASE:
            chain, q = divmod(action - QUALIFIER_BASE, 4)
            word = 5 + q
            at = (seat * MAX_CHAINS + chain) * 2
            if not hand[h + word]:
                raise IllegalActionError(self._refusal(action, f"you hold no {WORDS[word]}"))
            if chains[at] < 0 or chains[at + 1] >= 0:
                raise IllegalActionError(self._refusal(
                    action, f"a qualifier goes on a chain that has a verb and nothing else; your "
                            f"{chain_text(chain)} {self._chain_state(at)}"))
            chains[at + 1] = word
            hand[h + word] -= 1
            self._left(seat, word)
        elif NOUN_BASE <= action < CLOSE_BASE:
            chain, n = divmod(action - NOUN_BASE, 3)
            word = 9 + n
            at = (seat * MAX_CHAINS + chain) * 2
            if not hand[h + word]:
                raise IllegalActionError(self._refusal(action, f"you hold no {WORDS[word]}"))
            if chains[at + 1] < 0:
                raise IllegalActionError(self._refusal(
                    action, f"a noun goes on a chain that has both a verb and a qualifier; your "
                            f"{chain_text(chain)} {self._chain_state(at)}"))
            hand[h + word] -= 1
            self._left(seat, word)
            sentences.begin(self, seat, -1, chain, word)
        elif CLOSE_BASE <= action < DISCARD_BASE:
            chain, n = divmod(action - CLOSE_BASE, 3)
            word = 9 + n
            at = ((1 - seat) * MAX_CHAINS + chain) * 2
            if not hand[h + word]:
                raise IllegalActionError(self._refusal(action, f"you hold no {WORDS[word]}"))
            if chains[at + 1] < 0:
                raise IllegalActionError(self._refusal(
                    action, f"you may close only a chain that has both a verb and a qualifier; "
                            f"their {chain_text(chain)} {self._chain_state(at)}"))
            cost = CLOSE_COST[word]
            if self._verve[seat] < cost:
                raise IllegalActionError(self._refusal(
                    action, f"closing with {WORDS[word]} costs {cost} verve and you have "
                            f"{self._verve[seat]}"))
            hand[h + word] -= 1
            self._left(seat, word)
            self._verve[seat] -= cost
            self._events.append(("pay", seat, cost))
            if self._check_verve():  # D-6: paying your last verve loses at once
                self._discards[seat * NUM_WORDS + word] += 1  # the noun never resolves
                return
            sentences.begin(self, 1 - seat, seat, chain, word)
        else:
            raise IllegalActionError(self._refusal(action, "it is not a move of the play "
                                                           "step"))

    def _left(self, seat: int, word: int) -> None:
        """A card of ``word`` left ``seat``'s hand this turn: its kind is public."""
        flows = self._flows[seat]
        self._flows[seat] = (*flows[:-1], flows[-1] + knowledge.FLOW_UNIT[KIND_OF[word]])

    def _chain_state(self, at: int) -> str:
        chains = self._chains
        if chains[at] < 0:
            return "is not open"
        if chains[at + 1] < 0:
            return f"holds only {WORDS[chains[at]]}"
        return f"already holds {WORDS[chains[at]]} {WORDS[chains[at + 1]]}"

    def _hand_size(self, seat: int) -> int:
        return sum(self._hands[seat * NUM_WORDS:(seat + 1) * NUM_WORDS])

    def _open_chains(self, seat: int) -> int:
        chains = self._chains
        mine = seat * MAX_CHAINS * 2
        return (chains[mine] >= 0) + (chains[mine + 2] >= 0) + (chains[mine + 4] >= 0)

    def _end_turn(self) -> None:
        """The leak (seed 000 section 4, D-7), then the next player's turn."""
        seat = self._active
        leak = 0 if self._no_leak else self._open_chains(seat) + self._leak_up
        if leak:
            self._verve[seat] -= leak
            self._events.append(("leak", seat, leak))
            if self._check_verve():
                return
        self._start_turn(1 - seat)

    def _start_turn(self, seat: int) -> None:
        """Made classical (D-22), then the draw, which loses on an empty deck."""
        self._active = seat
        self._turn += 1
        self._leak_up = 0
        self._no_leak = False
        if self._turn >= 2 and self.is_classical(1 - seat):
            self._end((1 - seat,), CLASSICAL)
        elif not any(self._decks[seat * NUM_WORDS:seat * NUM_WORDS + NUM_WORDS]):
            self._end((seat,), EMPTY_DECK)
        else:
            self._phase = DRAW

    def _check_verve(self) -> bool:
        """Decoherence: a seat at 0 or less loses; both at once, D-26. True if it ended."""
        verve = self._verve
        if verve[0] > 0 and verve[1] > 0:
            return False
        losers = tuple(seat for seat in range(2) if verve[seat] <= 0)
        self._end(losers, DECOHERED)
        return True

    def _end(self, losers: tuple[int, ...], reason: str) -> None:
        if len(losers) == 1:
            self._winners = (1 - losers[0],)
        else:
            hidden = (count_hidden(self._table, 0), count_hidden(self._table, 1))
            self._winners = () if hidden[0] == hidden[1] else ((0,) if hidden[0] > hidden[1]
                                                                else (1,))
        self._ending = reason
        self._phase = OVER
        self._events.append(("end", reason, losers, self._winners))

    def is_classical(self, seat: int) -> bool:
        """Whether ``seat`` has nothing left to hide behind: no open chain, no link touching
        its table and not one hidden noun (seed 000 section 7, D-22)."""
        if self._open_chains(seat):
            return False
        table = self._table
        start = seat * SEAT_SPAN
        for b in range(start, start + SEAT_SPAN, FIELDS):
            if table[b] >= 0 and (table[b + VIS] == HIDDEN or table[b + LINK] >= 0):
                return False
        return True

    def _refusal(self, action: int, why: str) -> str:
        """A refusal worded for the seat to move: actions in its own notation (hidden
        nouns stay hidden), ``why`` only about what that seat may know."""
        mover = self.current_player()
        viewer = mover if mover >= 0 else None
        try:
            shown_action = f"{action} ({self._notation(action, viewer)})"
        except IllegalActionError:
            shown_action = str(action)
        legal = self.legal_actions()
        return (f"action {shown_action} is not legal: {why}; "
                f"legal: {legal_text(self, viewer, legal, 10)}")

    # -- notation -----------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        return self._notation(action, None)

    def action_string_for(self, player: int, action: int) -> str:
        """Notation as ``player`` may see it: another seat's draws read ``draw``, its
        face-down nouns ``noun -> chain N``, unseen targets ``hidden``."""
        return self._notation(action, player)

    def _notation(self, action: int, viewer: int | None) -> str:
        action = as_action_id(action, NUM_ACTIONS)
        if 0 <= action < NUM_WORDS:
            if viewer is not None and viewer != self._drawer():
                return "draw"
            return f"draw {WORDS[action]}"
        if action == HEADS:
            return "heads"
        if action == TAILS:
            return "tails"
        if FIRST_BASE <= action < PASS:
            return f"first seat {action - FIRST_BASE}"
        if action == PASS:
            return "pass"
        if VERB_BASE <= action < QUALIFIER_BASE:
            return verb_text(action - VERB_BASE, self._free_chain())
        if QUALIFIER_BASE <= action < NOUN_BASE:
            chain, q = divmod(action - QUALIFIER_BASE, 4)
            return qualifier_text(5 + q, chain)
        if NOUN_BASE <= action < CLOSE_BASE:
            chain, n = divmod(action - NOUN_BASE, 3)
            shown = 9 + n if viewer is None or viewer == self.current_player() else None
            return noun_text(shown, chain)
        if CLOSE_BASE <= action < DISCARD_BASE:
            chain, n = divmod(action - CLOSE_BASE, 3)
            return close_text(9 + n, chain)
        if DISCARD_BASE <= action < OWN_TARGET_BASE:
            return f"discard {WORDS[action - DISCARD_BASE]}"
        if OWN_TARGET_BASE <= action < COMPOSITION_BASE[0]:
            decider = self._pending[0] if self._pending is not None else self.current_player()
            own = action < THEIR_TARGET_BASE
            g = sentences.target_of(max(decider, 0), action)
            base = g * FIELDS
            noun = self._table[base]
            slot = g % MAX_TABLE
            if noun < 0:
                return f"target: {'your' if own else 'their'} #{slot + 1}"
            visible = (viewer is None or viewer == g // MAX_TABLE or self._table[base + SEEN])
            return target_text(own, noun if visible else None, slot)
        for kind in (2, 1, 0):
            if action >= COMPOSITION_BASE[kind]:
                index = action - COMPOSITION_BASE[kind]
                if action >= NUM_ACTIONS or index >= len(KIND_COMPOSITIONS[kind]):
                    break
                seat = self._deck_seat()
                head = f"deck {seat} {KIND_NAMES[kind]}"
                if (viewer is not None and viewer != seat
                        and not self.game.open_decklists):
                    return head
                return f"{head}: {composition_text(kind, KIND_COMPOSITIONS[kind][index])}"
        raise NotationError(f"{action} is not a Decoherence action id "
                            f"(ids are 0-{NUM_ACTIONS - 1})")

    def _drawer(self) -> int:
        if self._phase == OPENING:
            return self._step // OPENING_HAND
        return self._active

    def _deck_seat(self) -> int:
        steps = self.game.random_steps
        if self._phase == DECKS and steps:
            return int(steps[self._step][0])
        return -1

    def _free_chain(self) -> int:
        seat = max(self._active, 0)
        for c in range(MAX_CHAINS):
            if self._chains[(seat * MAX_CHAINS + c) * 2] < 0:
                return c
        return MAX_CHAINS

    def string_to_action(self, text: str) -> int:
        """Parse the full notation (for whoever holds the whole state); ``:`` is optional,
        and a target may omit its word (``target their #3``)."""
        legal = self.legal_actions()
        action = self._parse(text, legal, None)
        if action is None:
            raise NotationError(f"{text!r} is not a legal action here; "
                                f"legal: {legal_text(self, None, legal)}")
        return action

    def string_to_action_for(self, player: int, text: str) -> int:
        """Parse what seat ``player`` typed, in its own notation only: an unseen target
        reads ``their hidden #3`` (or ``their #3``); naming the word behind it is refused
        like any other text, so a guess tells nothing."""
        legal = self._legal_for(player, text)
        action = self._parse(text, legal, player)
        if action is None:
            raise NotationError(f"{text!r} is not a legal action here; "
                                f"legal: {legal_text(self, player, legal)}")
        return action

    def _parse(self, text: str, legal: list[int], viewer: int | None) -> int | None:
        wanted = normalize_notation(text).replace(":", "")
        for action in legal:
            forms = [self._notation(action, viewer)]
            if OWN_TARGET_BASE <= action < COMPOSITION_BASE[0]:
                side = "your" if action < THEIR_TARGET_BASE else "their"
                forms.append(f"target {side} #{(action - OWN_TARGET_BASE) % MAX_TABLE + 1}")
            if any(normalize_notation(form).replace(":", "") == wanted for form in forms):
                return action
        return None

    # -- copies, results, history ---------------------------------------------------------

    def clone(self) -> DecoherenceState:
        copy = DecoherenceState.__new__(DecoherenceState)
        copy.game = self.game
        copy._active = self._active
        copy._chains = self._chains[:]
        copy._decklists = self._decklists[:]
        copy._decks = self._decks[:]
        copy._discards = self._discards[:]
        copy._ending = self._ending
        copy._events = self._events[:]
        copy._facts = None if self._facts is None else self._facts[:]
        copy._first = self._first
        copy._hands = self._hands[:]
        copy._history = self._history[:]
        copy._leak_up = self._leak_up
        copy._no_leak = self._no_leak
        copy._pending = self._pending
        copy._phase = self._phase
        copy._step = self._step
        copy._table = self._table[:]
        copy._targets = self._targets
        copy._turn = self._turn
        copy._verve = self._verve[:]
        copy._winners = self._winners
        copy._flows = self._flows[:]
        copy._ids = self._ids[:]
        copy._id_words = self._id_words[:]
        copy._proofs = self._proofs
        copy._prepared = self._prepared  # the same knowledge; any action drops it
        return copy

    def outcome(self) -> Outcome | None:
        """The winner (none: both decohered with as many hidden nouns, a draw) and how the
        game ended: decoherence, an empty deck or made classical."""
        if self._phase != OVER:
            return None
        return Outcome.of(self._winners, self._ending)

    def returns(self) -> list[float]:
        if self._phase != OVER or not self._winners:
            return [0.0, 0.0]
        winner = self._winners[0]
        return [1.0 if seat == winner else -1.0 for seat in range(2)]

    def history(self) -> list[int]:
        return self._history[:]

    # -- reading the game (used by the view, bots and tests) -------------------------------

    def verve(self, seat: int) -> int:
        return self._verve[seat]

    def hand(self, seat: int) -> list[str]:
        """The cards ``seat`` holds, in word order."""
        return [WORDS[w] for w in range(NUM_WORDS)
                for _ in range(self._hands[seat * NUM_WORDS + w])]

    def deck_size(self, seat: int) -> int:
        return sum(self._decks[seat * NUM_WORDS:(seat + 1) * NUM_WORDS])

    def active_seat(self) -> int:
        return self._active

    def ending(self) -> str:
        """Why the game ended (``decoherence``, ``empty deck``, ``made classical``)."""
        return self._ending

    def phase(self) -> str:
        return PHASE_NAMES[self._phase]

    def chains(self, seat: int) -> list[tuple[str, str | None] | None]:
        """Each of ``seat``'s three chains: (verb, qualifier or None), or None if not open."""
        out: list[tuple[str, str | None] | None] = []
        for c in range(MAX_CHAINS):
            at = (seat * MAX_CHAINS + c) * 2
            verb, qualifier = self._chains[at], self._chains[at + 1]
            out.append(None if verb < 0 else
                       (WORDS[verb], WORDS[qualifier] if qualifier >= 0 else None))
        return out

    def thing(self, seat: int, slot: int) -> dict[str, Any] | None:
        """Everything about the thing in ``seat``'s table slot ``slot`` (1-based), or None."""
        g = seat * MAX_TABLE + slot - 1
        base = g * FIELDS
        table = self._table
        if table[base] < 0:
            return None
        partner = table[base + LINK]
        return {
            "noun": WORDS[table[base]],
            "origin": table[base + ORIGIN],
            "kind": "state" if table[base + KIND] == STATE else "bare",
            "spin": SPIN_NAMES[table[base + SPIN]],
            "status": VIS_NAMES[table[base + VIS]],
            "seen": bool(table[base + SEEN]),
            "growth": table[base + GROWTH],
            "size": item_size(table, g),
            "link": None if partner < 0 else (partner // MAX_TABLE, partner % MAX_TABLE + 1,
                                              bool(table[base + FATAL])),
        }

    def things(self, seat: int) -> dict[int, dict[str, Any]]:
        """``seat``'s table as {slot (1-based): thing}."""
        found = {}
        for slot in range(1, MAX_TABLE + 1):
            thing = self.thing(seat, slot)
            if thing is not None:
                found[slot] = thing
        return found

    def discards(self, seat: int) -> dict[str, int]:
        start = seat * NUM_WORDS
        return {WORDS[w]: c for w in range(NUM_WORDS) if (c := self._discards[start + w])}

    def hidden_nouns(self, seat: int) -> int:
        return count_hidden(self._table, seat)

    def card_count(self) -> int:
        """Cards in decks, hands, chains, on the table and in discard piles (60 in play)."""
        chains = sum(1 for c in self._chains if c >= 0)
        pending = 2 if self._pending is not None else 0
        table = sum(1 for b in range(0, len(self._table), FIELDS) if self._table[b] >= 0)
        return (sum(self._decks) + sum(self._hands) + chains + pending + table
                + sum(self._discards))

    # -- the view ---------------------------------------------------------------------

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may know (``SPECTATOR``: the public view): own hand and nouns,
        every face-up card, both discard piles, sizes of decks and hands, the opponent's
        nouns only once seen, and decklists as D-21 allows."""
        if not (player in (0, 1) or player == SPECTATOR):
            raise IllegalActionError(f"no seat {player}; seats are 0-1 (or SPECTATOR, "
                                     f"{SPECTATOR})")
        return self._view(player)

    def revealed_view(self) -> dict[str, Any]:
        """Everything, for after the game when its players chose to reveal: both hands
        (``hands``), every noun with its exact size, both decklists, what is left in each
        deck (``decks``, word counts), every card drawn. ``player`` is None."""
        view = self._view(EVERYONE)
        view["hands"] = [self.hand(seat) for seat in range(2)]
        view["decks"] = [{WORDS[w]: self._decks[seat * NUM_WORDS + w]
                          for w in range(NUM_WORDS) if self._decks[seat * NUM_WORDS + w]}
                         for seat in range(2)]
        view["revealed"] = True
        return view

    def _view(self, player: int) -> dict[str, Any]:
        to_move = self.current_player()
        open_lists = self.game.open_decklists or player == EVERYONE
        pending = None
        if self._pending is not None:
            owner, closer, verb, qualifier, g = self._pending
            base = g * FIELDS
            noun = self._table[base]
            pending = {
                "owner": owner,
                "closer": closer if closer >= 0 else None,
                "verb": WORDS[verb],
                "qualifier": WORDS[qualifier],
                "noun": WORDS[noun] if noun >= 0 and (
                    _sees(player, owner) or self._table[base + SEEN]) else None,
                "slot": g % MAX_TABLE + 1,
                "waiting": "target" if self._phase == TARGET else "coin",
            }
        seat_active = self._active
        return {
            "game": "decoherence",
            "player": None if player < 0 else player,
            "phase": PHASE_NAMES[self._phase],
            "to_move": to_move if to_move >= 0 else None,
            "active": seat_active if seat_active >= 0 else None,
            "first": self._first if self._first >= 0 else None,
            "turn": self._turn + 1,
            "verve": self._verve[:],
            "hand": self.hand(player) if player >= 0 else None,
            "hand_sizes": [self._hand_size(s) for s in range(2)],
            "deck_sizes": [self.deck_size(s) for s in range(2)],
            "decklists": [deck_text(self._decklists[s * NUM_WORDS:(s + 1) * NUM_WORDS])
                          if (s == player or open_lists) else None for s in range(2)],
            "chains": [[{"chain": c + 1, "verb": pair[0], "qualifier": pair[1]}
                        for c, pair in enumerate(self.chains(s)) if pair is not None]
                       for s in range(2)],
            "tables": [self._table_view(s, player) for s in range(2)],
            "hidden_nouns": [count_hidden(self._table, s) for s in range(2)],
            "discards": [self.discards(s) for s in range(2)],
            "leak": None if seat_active < 0 else {
                "seat": seat_active,
                "open_chains": self._open_chains(seat_active),
                "verved_up": self._leak_up,
                "verved_down": self._no_leak,
                "amount": 0 if self._no_leak else self._open_chains(seat_active)
                + self._leak_up,
            },
            "resolving": pending,
            "events": [_event_view(event, player, self._table, open_lists)
                       for event in self._events],
            "winners": list(self._winners),
            "result": self._ending or None,
        }

    def _table_view(self, seat: int, player: int) -> list[dict[str, Any]]:
        table = self._table
        out = []
        start = seat * MAX_TABLE
        for g in range(start, start + MAX_TABLE):
            base = g * FIELDS
            noun = table[base]
            if noun < 0:
                continue
            visible = _sees(player, seat) or bool(table[base + SEEN])
            spin = table[base + SPIN]
            size = exact = None
            if visible:
                size = BASE_SIZE[noun] + table[base + GROWTH]
                exact = True
                if noun == BOUBA and spin:
                    for b in range(start * FIELDS, (start + MAX_TABLE) * FIELDS, FIELDS):
                        if b != base and table[b] >= 0 and table[b + SPIN] == spin:
                            if _sees(player, seat) or table[b + SEEN]:
                                size += table[b] == BOUBA
                            else:
                                exact = False  # an unseen noun in the same spin may bunch
            partner = table[base + LINK]
            out.append({
                "slot": g - start + 1,
                "noun": WORDS[noun] if visible else None,
                "status": VIS_NAMES[table[base + VIS]],
                "kind": "state" if table[base + KIND] == STATE else "bare",
                "spin": SPIN_NAMES[spin],
                "growth": table[base + GROWTH],
                "size": size,
                "size_exact": exact,
                "link": None if partner < 0 else {"seat": partner // MAX_TABLE,
                                                  "slot": partner % MAX_TABLE + 1,
                                                  "fatal": bool(table[base + FATAL])},
            })
        return out

    # -- resampling ---------------------------------------------------------------------

    def resample(self, player: int, rng: random.Random) -> DecoherenceState:
        """A state ``player`` cannot tell from this one: the other seat's hand, deck and
        unseen nouns (and its decklist, if decklists are private) drawn with ``rng`` from
        what ``player`` can work out (``knowledge``: the opening hands, what the rules
        proved about face-down nouns, how likely each decklist made the cards seen).

        It depends only on what ``player`` knows. Its ``history()`` starts empty: the real
        history names hidden cards, so a resampled state is a starting point for search,
        not a replayable record.
        """
        if not (player in (0, 1) or player == SPECTATOR):
            raise IllegalActionError(f"no seat {player}; seats are 0-1 (or SPECTATOR, "
                                     f"{SPECTATOR})")
        cache = self._prepared
        if cache is None:
            cache = self._prepared = {}
        prepared = cache.get(player)
        if prepared is None:
            prepared = cache[player] = knowledge.Prepared(self, player)
        copy = self.clone()
        copy._history = []
        copy._prepared = {player: prepared}  # never another seat's knowledge
        prepared.deal(copy, rng)
        open_lists = self.game.open_decklists
        if not open_lists:
            # The game's options name the real decks: the copy's game names the drawn ones.
            copy.game = self.game._with_decklists(copy._decklists)
        copy._events = [_redact_event(event, player, open_lists) for event in self._events]
        if copy._facts is not None:
            copy._facts = [_redact_fact(fact, player) for fact in copy._facts]
        if copy._phase == TARGET:
            owner, _, verb, qualifier, g = copy._pending  # type: ignore[misc]
            found_targets = (sentences.candidates(copy._table, owner, g, verb, qualifier)
                             # Cannot happen (a proof keeps a waiting twig's partner), but
                             # never leave the owner without a choice.
                             or sentences.candidates(copy._table, owner, g, verb, qualifier,
                                                     False))
            copy._targets = tuple(sorted(sentences.target_action(owner, t)
                                         for t in found_targets))
        return copy


# -- events: what the last action did, as each seat may read it ---------------------------

def _sees(player: int, seat: int) -> bool:
    """Whether ``player`` (a seat, ``SPECTATOR`` or ``EVERYONE``) sees what ``seat`` hides."""
    return player in (seat, EVERYONE)


def _event_view(event: tuple, player: int, table: list[int], open_lists: bool
                ) -> dict[str, Any]:
    kind = event[0]
    if kind == "draw":
        _, seat, word, opening = event
        return {"type": "draw", "seat": seat, "opening": bool(opening),
                "word": WORDS[word] if _sees(player, seat) and word >= 0 else None}
    if kind == "deck":
        _, seat, deck_kind, index = event
        shown = index >= 0 and (_sees(player, seat) or open_lists)
        return {"type": "deck", "seat": seat, "kind": KIND_NAMES[deck_kind],
                "cards": composition_text(deck_kind, KIND_COMPOSITIONS[deck_kind][index])
                if shown else None}
    if kind == "sentence":
        _, owner, closer, verb, qualifier, noun, g, public, facts = event
        return {
            "type": "sentence", "owner": owner, "closer": closer if closer >= 0 else None,
            "verb": WORDS[verb], "qualifier": WORDS[qualifier],
            "noun": WORDS[noun] if noun >= 0 and (public or _sees(player, owner)) else None,
            "left": None if g < 0 else _thing_ref(g, player, table),
            "facts": [_fact_view(fact, player, table) for fact in facts],
        }
    if kind in ("pay", "leak"):
        return {"type": kind, "seat": event[1], "amount": event[2]}
    if kind == "discard":
        return {"type": "discard", "seat": event[1], "word": WORDS[event[2]]}
    if kind == "first":
        return {"type": "first", "seat": event[1]}
    _, reason, losers, winners = event
    return {"type": "end", "reason": reason, "losers": list(losers), "winners": list(winners)}


def _thing_ref(g: int, player: int, table: list[int], noun: int = -2,
               seen: int = -1) -> dict[str, Any]:
    seat, slot = divmod(g, MAX_TABLE)
    base = g * FIELDS
    if noun == -2:
        noun = table[base]
    if seen < 0:
        seen = table[base + SEEN] if table[base] >= 0 else 1
    visible = noun >= 0 and (_sees(player, seat) or bool(seen))
    ref: dict[str, Any] = {"seat": seat, "slot": slot + 1,
                           "noun": WORDS[noun] if visible else None}
    if table[base] >= 0:
        ref["kind"] = "state" if table[base + KIND] == STATE else "bare"
        ref["spin"] = SPIN_NAMES[table[base + SPIN]]
    return ref


def _fact_view(fact: tuple, player: int, table: list[int]) -> dict[str, Any]:
    name = fact[0]
    out: dict[str, Any] = {"fact": name}
    if name in ("gain", "lose", "pay"):
        out["seat"], out["amount"] = fact[1], fact[2]
    elif name in ("spin", "kept"):
        out["thing"] = _thing_ref(fact[1], player, table)
        out["spin"] = SPIN_NAMES[fact[2]]
    elif name in ("discard", "reveal"):
        out["thing"] = _thing_ref(fact[1], player, table, fact[2], 1)
    elif name == "measure":
        out["thing"] = _thing_ref(fact[1], player, table, fact[2], 1)
        out["spin"] = SPIN_NAMES[fact[3]]
    elif name == "dark":
        out["thing"] = _thing_ref(fact[1], player, table, fact[2], fact[3])
    elif name == "link":
        out["things"] = [_thing_ref(fact[1], player, table), _thing_ref(fact[2], player, table)]
        out["fatal"] = bool(fact[3])
    elif name == "grow":
        out["thing"] = _thing_ref(fact[1], player, table)
        out["amount"] = fact[2]
    elif name == "too big":
        out["thing"] = _thing_ref(fact[1], player, table)
    elif name == "coin":
        out["heads"] = bool(fact[1])
    elif name in ("leak up", "no leak"):
        out["applies"] = bool(fact[1])
    elif name == "flipped":
        out["spin"] = SPIN_NAMES[fact[1]]
    return out


def _redact_event(event: tuple, player: int, open_lists: bool) -> tuple:
    """``event`` with every card ``player`` has not seen replaced by -1 (for resample)."""
    kind = event[0]
    if kind == "draw" and event[1] != player:
        return ("draw", event[1], -1, event[3])
    if kind == "deck" and event[1] != player and not open_lists:
        return (*event[:3], -1)
    if kind == "sentence":
        _, owner, closer, verb, qualifier, noun, g, public, facts = event
        if not public and owner != player:
            noun = -1
        return ("sentence", owner, closer, verb, qualifier, noun, g, public,
                tuple(_redact_fact(fact, player) for fact in facts))
    return event


def _redact_fact(fact: tuple, player: int) -> tuple:
    if fact[0] == "dark" and not fact[3] and fact[1] // MAX_TABLE != player:
        return ("dark", fact[1], -1, 0)
    return fact


__all__ = ["DecoherenceGame", "DecoherenceState"]
