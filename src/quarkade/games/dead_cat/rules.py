"""Dead Cat (seed 004_40da6d2f15ae9db5.txt): bet on how long ago the cat died; 2-5 players.

Each round a box of ``4n`` alive and ``n`` dead cat cards is shuffled and ``n`` cards are
put aside unseen. On a turn a seat either peeks (draws the top card of the box, looks at it
alone, lays it face down on top of the time deck and turns its die to another number) or
announces "Dead Cat": the time deck is turned over from the top until the first dead cat,
and the die closest to that count wins the round (the highest die if no dead cat turns up).
The round also ends when the box runs out. Winners take a cube; four cubes win the game.

Rulings relied on (docs/RULINGS.md): DC-1 the first seat, DC-2 turn order and the next
starter, DC-3 the box and the chance model, DC-4 the time deck's order, DC-5 the die change,
DC-6 announcing with an empty time deck (option ``peek_first``), DC-7 the reveal, DC-8 the
winning bet, DC-9 tiebreaks, DC-10 the box running out, DC-11 the cube supply, DC-12 new
rounds, DC-13 the end and shared wins, DC-14 what each seat sees.

Chance model (DC-3). The shuffled box is never laid out. Each peek is one chance action,
``draw alive`` or ``draw dead``, weighted by the cards nobody has drawn this round: the
``5n`` cards of the round minus the time deck, so the ``n`` removed cards count as undrawn.
This is exactly the physical process: in a uniformly shuffled deck the cards at any set of
positions (here the box, read from its top) are a uniform draw without replacement from the
whole deck, and the removed cards and the undrawn box are never seen by anyone, not even
when the round ends (they are reshuffled face down). So the removal and each round's
reshuffle need no chance action of their own: they fix nothing that can ever be observed.
``test_lazy_draws_match_the_physical_shuffle`` checks the equality exactly for two players.

What is hidden (DC-14): the time deck's cards are known only to their peekers until they
are revealed; nothing else is. ``resample`` redraws every card a seat has not seen, round by
round in draw order, from the cards it has not seen, and rewrites the history to match.

Actions per turn: ``peek``, chance ``draw alive|dead``, ``bet N``; or ``announce``.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from quarkade.core.errors import IllegalActionError, NotationError
from quarkade.core.options import Option, players_option
from quarkade.core.protocol import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    Game,
    Outcome,
    State,
    as_action_id,
    normalize_notation,
    shared_returns,
)
from quarkade.games.dead_cat.notation import (
    ALIVE,
    ANNOUNCE,
    BET_BASE,
    CARD_NAMES,
    DEAD,
    DIE_VALUES,
    FIRST_BASE,
    NUM_ACTIONS,
    PEEK,
    REDACTED_DRAW,
    action_text,
    bet_action,
)

ALIVE_PER_SEAT = 4  # 4n alive cats
DEAD_PER_SEAT = 1  # n dead cats; n cards are removed, so the box holds 4n
GOAL = 4  # cubes that win the game

# Phases, in the order a round passes through them.
FIRST, TURN, DRAW, BET, OVER = range(5)
PHASE_NAMES = ("first", "turn", "draw", "bet", "over")

NO_ANNOUNCER = -1  # the box ran out (DC-10)


class RoundResult(NamedTuple):
    """What everyone saw when a round ended (public information only)."""

    number: int
    starter: int
    announcer: int  # NO_ANNOUNCER when the box ran out
    peekers: tuple[int, ...]  # who drew each time-deck card, in draw order (bottom first)
    revealed: tuple[int, ...]  # the cards turned over, top first (0 alive, 1 dead)
    first_dead: int  # position of the first dead cat from the top; 0 if none was revealed
    dice: tuple[int, ...]
    winners: tuple[int, ...]


def round_winners(dice: list[int] | tuple[int, ...], cubes: list[int] | tuple[int, ...],
                  count: int, announcer: int) -> tuple[int, ...]:
    """The seats that take a cube: closest die to ``count`` (highest if ``count`` is 0).

    Ties (DC-9): the lower of two equally close numbers; then, among the seats on that
    number, the announcer; else the fewest cubes, every seat level on those scoring.

    >>> round_winners([5, 4], [0, 0], 3, 0)  # seed example 1: John is closer
    (1,)
    >>> round_winners([3, 5, 5], [0, 0, 0], 4, 1)  # an indirect tie: the lower number
    (0,)
    """
    if count:
        distance = count + 6  # farther than any die can be
        for d in dice:
            if -distance < d - count < distance:
                distance = abs(d - count)
        number = count - distance if count - distance in dice else count + distance  # DC-9
    else:
        number = max(dice)
    if dice.count(number) == 1:
        return (dice.index(number),)
    holders = [seat for seat, d in enumerate(dice) if d == number]
    if announcer in holders:
        return (announcer,)
    fewest = min(cubes[seat] for seat in holders)
    return tuple(seat for seat in holders if cubes[seat] == fewest)


class DeadCatGame(Game):
    """Dead Cat for 2-5 players; options: players, peek_first (DC-6)."""

    name = "dead-cat"
    title = "Dead Cat"
    summary = "Peek into Schrodinger's box and bet on how long ago the cat died."
    min_players = 2
    max_players = 5
    perfect_information = False
    option_specs = (
        players_option(2, 5),
        Option("peek_first", False, "forbid announcing while the time deck is empty, so each "
               "round opens with a peek (off: the rulebook as written; see DC-6)", bool,
               label="Peek first (recommended)", recommended=True,
               about="As the rules are written, the player who starts a round may announce "
               "Dead Cat before anyone has peeked: every die still shows 1, so that player "
               "wins the tie and the cube, and bots do it every time. With peek first, "
               "each round opens with a peek."),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.num_players
        self.alive_cards = ALIVE_PER_SEAT * n
        self.dead_cards = DEAD_PER_SEAT * n
        self.box_size = self.alive_cards + self.dead_cards - n
        self.first_actions = tuple(range(FIRST_BASE, FIRST_BASE + n))
        self.first_outcomes = tuple((a, 1 / n) for a in self.first_actions)  # DC-1
        self.peek_first: bool = self.options["peek_first"]
        self.turn_actions = (ANNOUNCE, PEEK)
        self.opening_actions = (PEEK,) if self.peek_first else self.turn_actions
        # Bets allowed from each die value (DC-5), indexed by the value showing.
        self.bet_actions = ((), *(tuple(bet_action(v) for v in DIE_VALUES if v != shown)
                                  for shown in DIE_VALUES))
        # Draw outcomes by (cards drawn, dead cats drawn), indexed drawn * (n + 1) + dead (DC-3).
        self.draw_actions: list[tuple[int, ...]] = []
        self.draw_outcomes: list[tuple[tuple[int, float], ...]] = []
        undrawn_total = self.alive_cards + self.dead_cards
        for drawn in range(self.box_size):
            for dead in range(n + 1):
                undrawn = undrawn_total - drawn
                dead_left = self.dead_cards - dead
                alive_left = undrawn - dead_left
                outcomes = tuple((a, count / undrawn) for a, count in
                                 ((ALIVE, alive_left), (DEAD, dead_left)) if count > 0)
                self.draw_actions.append(tuple(a for a, _ in outcomes))
                self.draw_outcomes.append(outcomes)

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> DeadCatState:
        return DeadCatState(self)


class DeadCatState(State):
    """A Dead Cat position. The time deck is kept in draw order: ``_cards[-1]`` is its top."""

    __slots__ = (
        "_cards",
        "_cubes",
        "_dead",
        "_dice",
        "_history",
        "_mover",
        "_n",
        "_peekers",
        "_phase",
        "_round",
        "_rounds",
        "_starter",
        "_winners",
        "game",
    )

    game: DeadCatGame

    def __init__(self, game: DeadCatGame) -> None:
        self.game = game
        n = game.num_players
        self._n = n
        self._phase = FIRST
        self._mover = -1  # whose turn it is (the peeker during DRAW and BET)
        self._starter = -1
        self._dice = [1] * n
        self._cubes = [0] * n
        self._cards: list[int] = []  # time deck, bottom first: 0 alive, 1 dead
        self._peekers: list[int] = []  # who drew each time-deck card
        self._dead = 0  # dead cats in the time deck
        self._round = 1
        self._rounds: tuple[RoundResult, ...] = ()
        self._winners: tuple[int, ...] = ()
        self._history: list[int] = []

    # -- whose move, what is legal --------------------------------------------------------

    def current_player(self) -> int:
        phase = self._phase
        if phase in (TURN, BET):
            return self._mover
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_chance_node(self) -> bool:
        return self._phase == DRAW or self._phase == FIRST

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self._phase
        if phase == DRAW:
            return list(self.game.draw_outcomes[len(self._cards) * (self._n + 1) + self._dead])
        if phase == FIRST:
            return list(self.game.first_outcomes)
        return []

    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == TURN:
            game = self.game
            return list(game.turn_actions if self._cards else game.opening_actions)  # DC-6
        if phase == BET:
            return list(self.game.bet_actions[self._dice[self._mover]])
        if phase == DRAW:
            return list(self.game.draw_actions[len(self._cards) * (self._n + 1) + self._dead])
        if phase == FIRST:
            return list(self.game.first_actions)
        return []

    # -- playing ----------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = as_action_id(action, NUM_ACTIONS)
        phase = self._phase
        if phase == TURN:
            if action == PEEK:
                self._phase = DRAW
            elif action == ANNOUNCE and (self._cards or not self.game.peek_first):  # DC-6
                self._history.append(action)
                self._end_round(self._mover)
                return
            else:
                raise IllegalActionError(self._refusal(action))
        elif phase == DRAW:
            if action == ALIVE:
                self._cards.append(0)
            elif action == DEAD and self._dead < self.game.dead_cards:
                self._cards.append(1)
                self._dead += 1
            else:
                raise IllegalActionError(self._refusal(action))
            self._peekers.append(self._mover)
            self._phase = BET
        elif phase == BET:
            mover = self._mover
            value = action - BET_BASE + 1
            if not 1 <= value <= 6 or value == self._dice[mover]:
                raise IllegalActionError(self._refusal(action))
            self._dice[mover] = value
            self._history.append(action)
            if len(self._cards) == self.game.box_size:
                self._end_round(NO_ANNOUNCER)  # DC-10: the last card of the box was drawn
            else:
                self._mover = (mover + 1) % self._n  # DC-2
                self._phase = TURN
            return
        elif phase == FIRST:
            first = action - FIRST_BASE
            if not 0 <= first < self._n:
                raise IllegalActionError(self._refusal(action))
            self._starter = self._mover = first
            self._phase = TURN
        else:
            raise IllegalActionError(f"the game is over; no action is legal (got {action})")
        self._history.append(action)

    def _end_round(self, announcer: int) -> None:
        """Reveal the time deck, score, and set up the next round or end the game."""
        top_first = self._cards[::-1]  # the reveal starts at the top (DC-4, DC-7)
        count = top_first.index(1) + 1 if self._dead else 0
        revealed = tuple(top_first[:count]) if count else tuple(top_first)
        cubes = self._cubes
        winners = round_winners(self._dice, cubes, count, announcer)
        game_over = False
        for seat in winners:
            cubes[seat] += 1  # DC-11: the supply never runs short
            game_over = game_over or cubes[seat] >= GOAL
        self._rounds += (RoundResult(self._round, self._starter, announcer,
                                     tuple(self._peekers), revealed, count,
                                     tuple(self._dice), winners),)
        self._cards = []
        self._peekers = []
        self._dead = 0
        if game_over:  # DC-13
            self._winners = tuple(seat for seat in range(self._n) if cubes[seat] >= GOAL)
            self._phase = OVER
            return
        self._round += 1  # DC-12
        self._starter = self._mover = (self._starter - 1) % self._n  # DC-2
        self._dice = [1] * self._n
        self._phase = TURN

    def _refusal(self, action: Any) -> str:
        legal = self.legal_actions()
        shown = ", ".join(f"{a} ({self.action_to_string(a)})" for a in legal)
        phase = self._phase
        mover = self._mover
        if phase == TURN:
            if action == ANNOUNCE:
                what = (f"the time deck is empty, so seat {mover} must peek before anyone "
                        "announces (option peek_first)")
            else:
                what = f"seat {mover} must peek or announce"
        elif phase == BET:
            shows = self._dice[mover]
            if action == bet_action(shows):
                what = (f"seat {mover}'s die already shows {shows}; a peek must turn it to "
                        "another number")
            else:
                what = f"seat {mover} must turn its die from {shows} to another number 1-6"
        elif phase == DRAW:
            what = ("no dead cat is left among the undrawn cards this round"
                    if action == DEAD else f"the box is giving seat {mover} its card")
        else:
            what = "a die roll is choosing the first seat"
        return f"action {action} is not legal: {what}; legal: {shown}"

    # -- notation -----------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        text = action_text(as_action_id(action, NUM_ACTIONS))
        if text is None:
            raise NotationError(f"{action} is not a Dead Cat action id "
                                f"(ids are 0-{NUM_ACTIONS - 1})")
        return text

    def action_string_for(self, player: int, action: int) -> str:
        """Another seat's draw reads ``draw``: only the peeker sees the card (DC-14)."""
        if action in (ALIVE, DEAD) and player != self._mover:
            return REDACTED_DRAW
        return self.action_to_string(action)

    def string_to_action(self, text: str) -> int:
        """Parse notation; a bare number is a bet while a die is being turned."""
        words = normalize_notation(text).split()
        if self._phase == BET and len(words) == 1 and words[0].isdigit():
            value = int(words[0])
            if value in DIE_VALUES and bet_action(value) in self.legal_actions():
                return bet_action(value)
        return super().string_to_action(text)

    # -- copies, results, history ---------------------------------------------------------

    def clone(self) -> DeadCatState:
        copy = DeadCatState.__new__(DeadCatState)
        copy.game = self.game
        copy._n = self._n
        copy._phase = self._phase
        copy._mover = self._mover
        copy._starter = self._starter
        copy._dice = self._dice[:]
        copy._cubes = self._cubes[:]
        copy._cards = self._cards[:]
        copy._peekers = self._peekers[:]
        copy._dead = self._dead
        copy._round = self._round
        copy._rounds = self._rounds
        copy._winners = self._winners
        copy._history = self._history[:]
        return copy

    def returns(self) -> list[float]:
        if self._phase != OVER:
            return [0.0] * self._n
        return shared_returns(self._winners, self._n)

    def outcome(self) -> Outcome | None:
        """Whoever reached four cubes won; seats that reach them together share the win,
        even when that is every seat (returns all 0, yet not a draw)."""
        if self._phase != OVER:
            return None
        return Outcome.of(self._winners, "four cubes")

    def history(self) -> list[int]:
        return self._history[:]

    def resample(self, player: int, rng: random.Random) -> DeadCatState:
        """This state with every card ``player`` has not seen redrawn (DC-3, DC-14).

        Round by round, the cards the seat did not peek and nobody revealed are drawn again,
        in draw order, from the cards of that round the seat has not seen. Which cards those
        are, and in what order, is public, so the result depends only on what the seat knows.
        The history is rewritten to match, so replaying it rebuilds the returned state.
        """
        self._check_viewer(player)
        round_cards = self.game.alive_cards + self.game.dead_cards
        history = self._history[:]
        draws = [i for i, action in enumerate(history) if action in (ALIVE, DEAD)]
        rounds = [(r.peekers, len(r.revealed)) for r in self._rounds]
        rounds.append((tuple(self._peekers), 0))
        start = 0
        for peekers, revealed in rounds:
            size = len(peekers)
            indices = draws[start:start + size]
            start += size
            seen = [peekers[j] == player or j >= size - revealed for j in range(size)]
            unseen_dead = self.game.dead_cards - sum(
                history[i] == DEAD for i, known in zip(indices, seen, strict=True) if known)
            unseen = round_cards - sum(seen)
            for i, known in zip(indices, seen, strict=True):
                if not known:
                    dead = rng.random() * unseen < unseen_dead
                    history[i] = DEAD if dead else ALIVE
                    unseen_dead -= dead
                    unseen -= 1
        copy = self.clone()
        copy._history = history
        copy._cards = [history[i] - ALIVE for i in draws[len(draws) - len(self._peekers):]]
        copy._dead = sum(copy._cards)
        return copy

    # -- reading the table (used by the view, bots and tests) ------------------------------

    def dice(self) -> list[int]:
        return self._dice[:]

    def cubes(self) -> list[int]:
        return self._cubes[:]

    def time_deck(self) -> list[str]:
        """Every time-deck card, top first (the full truth, not any seat's view)."""
        return [CARD_NAMES[card] for card in reversed(self._cards)]

    def box_left(self) -> int:
        """Cards still in the box this round."""
        return self.game.box_size - len(self._cards)

    def round_number(self) -> int:
        return self._round

    def starter(self) -> int:
        """The seat that began this round (-1 before the die roll)."""
        return self._starter

    def active_seat(self) -> int:
        """Whose turn it is (-1 before the die roll)."""
        return self._mover

    def game_winners(self) -> list[int]:
        """The seats that reached four cubes (empty until the game ends)."""
        return list(self._winners)

    def card_counts(self) -> dict[str, int]:
        """This round's cards by where they are: time deck (alive/dead), box, removed."""
        size = len(self._cards)
        return {"time_deck_alive": size - self._dead, "time_deck_dead": self._dead,
                "box": self.game.box_size - size, "removed": self._n,
                "alive": self.game.alive_cards, "dead": self.game.dead_cards}

    def rounds(self) -> tuple[RoundResult, ...]:
        """Every finished round, first to last, as everyone saw it end."""
        return self._rounds

    def last_round(self) -> dict[str, Any] | None:
        """The last finished round as everyone saw it, or None in the first round."""
        if not self._rounds:
            return None
        last = self._rounds[-1]
        return {
            "round": last.number,
            "starter": last.starter,
            "announcer": None if last.announcer == NO_ANNOUNCER else last.announcer,
            "ran_out": last.announcer == NO_ANNOUNCER,
            "revealed": [CARD_NAMES[card] for card in last.revealed],
            "count": last.first_dead or None,
            "dice": list(last.dice),
            "winners": list(last.winners),
        }

    # -- the view ---------------------------------------------------------------------

    def view(self, player: int) -> dict[str, Any]:
        """What ``player`` may know (DC-14): its own peeked cards, who peeked each position,
        every die and cube, the box size and the revealed cards; ``player`` is echoed back
        (``None`` for the spectator's view)."""
        self._check_viewer(player)
        return self._view(player)

    def revealed_view(self) -> dict[str, Any]:
        """Everything, for after the game when its players chose to reveal: every card of
        the time deck face up, and the last finished round's whole time deck
        (``last_round["time_deck"]``, top first); the box and the removed cards were never
        drawn, so there is nothing more to show. ``player`` is None."""
        view = self._view(SPECTATOR, everything=True)
        if view["last_round"] is not None:
            view["last_round"]["time_deck"] = self._last_time_deck()
        view["revealed"] = True
        return view

    def _last_time_deck(self) -> list[str]:
        """The last finished round's whole time deck, top first (a round's end keeps only
        the cards it turned over, so the round is played again from the history)."""
        replay = self.game.new_initial_state()
        cards: list[int] = []
        for action in self._history:
            before, rounds = replay._cards[:], len(replay._rounds)
            replay.apply_action(action)
            if len(replay._rounds) > rounds:
                cards = before
        return [CARD_NAMES[card] for card in reversed(cards)]

    def _view(self, player: int, everything: bool = False) -> dict[str, Any]:
        size = len(self._cards)
        time_deck = [
            {"position": size - index, "peeker": peeker,
             "card": CARD_NAMES[self._cards[index]] if everything or peeker == player
             else None}
            for index, peeker in reversed(list(enumerate(self._peekers)))
        ]
        to_move = self.current_player()
        return {
            "game": "dead-cat",
            "player": None if player == SPECTATOR else player,
            "players": self._n,
            "peek_first": self.game.options["peek_first"],
            "goal": GOAL,
            "phase": PHASE_NAMES[self._phase],
            "to_move": to_move if to_move >= 0 else None,
            "active": self._mover if self._mover >= 0 else None,
            "round": self._round,
            "starter": self._starter if self._starter >= 0 else None,
            "dice": self._dice[:],
            "cubes": self._cubes[:],
            "box": self.game.box_size - size,
            "removed": self._n,
            "alive": self.game.alive_cards,
            "dead": self.game.dead_cards,
            "time_deck": time_deck,
            "last_round": self.last_round(),
            "winners": list(self._winners),
        }

    def _check_viewer(self, player: int) -> None:
        if not (type(player) is int and (0 <= player < self._n or player == SPECTATOR)):
            raise IllegalActionError(f"no seat {player!r}; seats are 0-{self._n - 1} "
                                     f"(or SPECTATOR, {SPECTATOR})")


__all__ = ["GOAL", "DeadCatGame", "DeadCatState", "RoundResult", "round_winners"]
