"""Hadronize (seed 003_c2aa2c0ad88b8bbf.txt): quarks collapse out of superposition, 2-6 players.

Each seat has a cloud chamber of collapsed quarks. On a turn a superposed quark with three
possible flavours appears; the seat to move picks who observes it; it collapses into one
of its flavours in the observer's chamber. If the observer already held that flavour, the
quarks react: they hadronize into the mover's score when the mover observed, otherwise they
tunnel from the observer's chamber into the mover's. First to the goal (10) wins.

Rulings relied on (docs/RULINGS.md): H-1 seat order and the first seat, H-2 the starting
quarks, H-3 the superposition's flavours, H-4 the collapse, H-5 what reacts, H-6 tunnelled
quarks, H-7 when the win is checked, H-8 the optional turn cap and how a capped game scores.

A turn is three actions: chance picks the superposition (20 outcomes), the mover picks the
observer (one of ``players`` seats), chance collapses it (3 outcomes). Setup is ``4 x
players`` chance deals of a flavour, then a chance pick of the first seat.
"""

from __future__ import annotations

import random
from typing import Any

from quarkade.core.errors import IllegalActionError, NotationError
from quarkade.core.options import Option, players_option
from quarkade.core.protocol import (
    CHANCE,
    SPECTATOR,
    TERMINAL,
    Game,
    State,
    as_action_id,
    normalize_notation,
    shared_returns,
)
from quarkade.games.hadronize.notation import (
    FIRST_BASE,
    FLAVOUR_BASE,
    FLAVOURS,
    LETTERS,
    NUM_ACTIONS,
    NUM_FLAVOURS,
    OBSERVE_BASE,
    SUPERPOSE_BASE,
    SUPERPOSITIONS,
    flavour_index,
    superposition_text,
)

STARTING_QUARKS = 4
DEFAULT_GOAL = 10

# Phases, in the order a game passes through them.
DEAL, FIRST, SUPERPOSE, OBSERVE, COLLAPSE, OVER = range(6)
PHASE_NAMES = ("deal", "first", "superpose", "observe", "collapse", "over")

# Reactions, as the view reports them.
NO_REACTION, HADRONIZED, TUNNELLED = "none", "hadronize", "tunnel"

_SUPERPOSE_ACTIONS = tuple(range(SUPERPOSE_BASE, SUPERPOSE_BASE + len(SUPERPOSITIONS)))
_SUPERPOSE_OUTCOMES = tuple((a, 1 / len(SUPERPOSITIONS)) for a in _SUPERPOSE_ACTIONS)  # H-3
_DEAL_ACTIONS = tuple(range(FLAVOUR_BASE, FLAVOUR_BASE + NUM_FLAVOURS))
_DEAL_OUTCOMES = tuple((a, 1 / NUM_FLAVOURS) for a in _DEAL_ACTIONS)  # H-2
# Per superposition: its collapse actions (ascending) and outcomes, each 1/3 (H-4).
_COLLAPSE_ACTIONS = tuple(tuple(FLAVOUR_BASE + f for f in sup) for sup in SUPERPOSITIONS)
_COLLAPSE_OUTCOMES = tuple(tuple((a, 1 / 3) for a in acts) for acts in _COLLAPSE_ACTIONS)


class HadronizeGame(Game):
    """Hadronize for 2-6 players; options: players, goal, max_turns."""

    name = "hadronize"
    title = "Hadronize"
    summary = "Quarks collapse out of superposition: hadronize them or tunnel them away."
    min_players = 2
    max_players = 6
    option_specs = (
        players_option(2, 6),
        Option("goal", DEFAULT_GOAL, "hadronized quarks needed to win", int, minimum=1,
               maximum=200),
        Option("max_turns", 0, "end the game after this many turns (0: no cap; see H-8)", int,
               minimum=0, simulation=True),
    )

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        n = self.num_players
        self.observe_actions = tuple(range(OBSERVE_BASE, OBSERVE_BASE + n))
        self.first_actions = tuple(range(FIRST_BASE, FIRST_BASE + n))
        self.first_outcomes = tuple((a, 1 / n) for a in self.first_actions)  # H-1
        self.goal: int = self.options["goal"]
        self.max_turns: int = self.options["max_turns"]

    @property
    def num_distinct_actions(self) -> int:
        return NUM_ACTIONS

    def new_initial_state(self) -> HadronizeState:
        return HadronizeState(self)


class HadronizeState(State):
    """A Hadronize position. Chambers are a flat list: ``chambers[seat * 6 + flavour]``."""

    __slots__ = (
        "_active",
        "_chambers",
        "_dealt",
        "_hadronized",
        "_history",
        "_last",
        "_observer",
        "_phase",
        "_superposition",
        "_turns",
        "_winners",
        "game",
    )

    def __init__(self, game: HadronizeGame) -> None:
        self.game = game
        n = game.num_players
        self._chambers = [0] * (NUM_FLAVOURS * n)
        self._hadronized = [0] * n
        self._phase = DEAL
        self._dealt = 0  # starting quarks dealt so far (H-2: seat 0's four first)
        self._active = -1  # whose turn it is, once the first seat is chosen
        self._superposition = -1  # index into SUPERPOSITIONS during OBSERVE and COLLAPSE
        self._observer = -1
        self._turns = 0  # completed turns
        self._winners: tuple[int, ...] = ()
        self._last: tuple[int, int, int, str, int] | None = None
        self._history: list[int] = []

    # -- whose move, what is legal --------------------------------------------------------

    def current_player(self) -> int:
        phase = self._phase
        if phase == OBSERVE:
            return self._active
        if phase == OVER:
            return TERMINAL
        return CHANCE

    def is_chance_node(self) -> bool:
        return self._phase in (DEAL, FIRST, SUPERPOSE, COLLAPSE)

    def is_terminal(self) -> bool:
        return self._phase == OVER

    def chance_outcomes(self) -> list[tuple[int, float]]:
        phase = self._phase
        if phase == SUPERPOSE:
            return list(_SUPERPOSE_OUTCOMES)
        if phase == COLLAPSE:
            return list(_COLLAPSE_OUTCOMES[self._superposition])
        if phase == DEAL:
            return list(_DEAL_OUTCOMES)
        if phase == FIRST:
            return list(self.game.first_outcomes)  # type: ignore[attr-defined]
        return []

    def legal_actions(self) -> list[int]:
        phase = self._phase
        if phase == OBSERVE:
            return list(self.game.observe_actions)  # type: ignore[attr-defined]  # H-9
        if phase == SUPERPOSE:
            return list(_SUPERPOSE_ACTIONS)
        if phase == COLLAPSE:
            return list(_COLLAPSE_ACTIONS[self._superposition])
        if phase == DEAL:
            return list(_DEAL_ACTIONS)
        if phase == FIRST:
            return list(self.game.first_actions)  # type: ignore[attr-defined]
        return []

    # -- playing ----------------------------------------------------------------------

    def apply_action(self, action: int) -> None:
        if type(action) is not int:
            action = as_action_id(action, NUM_ACTIONS)
        phase = self._phase
        if phase == OBSERVE:
            observer = action - OBSERVE_BASE
            if not 0 <= observer < len(self._hadronized):
                raise IllegalActionError(self._refusal(action))
            self._observer = observer
            self._phase = COLLAPSE
        elif phase == SUPERPOSE:
            if not SUPERPOSE_BASE <= action < OBSERVE_BASE:
                raise IllegalActionError(self._refusal(action))
            self._superposition = action - SUPERPOSE_BASE
            self._phase = OBSERVE
        elif phase == COLLAPSE:
            if action not in _COLLAPSE_ACTIONS[self._superposition]:
                raise IllegalActionError(self._refusal(action))
            self._react(action - FLAVOUR_BASE)
        elif phase == DEAL:
            if not FLAVOUR_BASE <= action < FIRST_BASE:
                raise IllegalActionError(self._refusal(action))
            self._deal(action - FLAVOUR_BASE)
        elif phase == FIRST:
            first = action - FIRST_BASE
            if not 0 <= first < len(self._hadronized):
                raise IllegalActionError(self._refusal(action))
            self._active = first
            self._phase = SUPERPOSE
        else:
            raise IllegalActionError(f"the game is over; no action is legal (got {action})")
        self._history.append(action)

    def _deal(self, flavour: int) -> None:
        seat = self._dealt // STARTING_QUARKS
        self._chambers[seat * NUM_FLAVOURS + flavour] += 1
        self._dealt += 1
        if self._dealt == STARTING_QUARKS * len(self._hadronized):
            self._phase = FIRST

    def _react(self, flavour: int) -> None:
        """The collapsed quark lands in the observer's chamber and reacts (H-5, H-6)."""
        active = self._active
        observer = self._observer
        chambers = self._chambers
        slot = observer * NUM_FLAVOURS + flavour
        held = chambers[slot]
        if held == 0:
            chambers[slot] = 1
            self._last = (active, observer, flavour, NO_REACTION, 1)
        elif observer == active:
            chambers[slot] = 0
            self._hadronized[active] += held + 1
            self._last = (active, observer, flavour, HADRONIZED, held + 1)
        else:
            chambers[slot] = 0
            chambers[active * NUM_FLAVOURS + flavour] += held + 1
            self._last = (active, observer, flavour, TUNNELLED, held + 1)
        self._turns += 1
        self._observer = -1
        self._superposition = -1
        game: HadronizeGame = self.game  # type: ignore[assignment]
        if self._hadronized[active] >= game.goal:  # H-7: only the mover's score can rise
            self._winners = (active,)
            self._phase = OVER
        elif self._turns == game.max_turns:  # H-8 (0 never equals: turns >= 1)
            best = max(self._hadronized)
            self._winners = tuple(s for s, h in enumerate(self._hadronized) if h == best)
            self._phase = OVER
        else:
            self._active = (active + 1) % len(self._hadronized)
            self._phase = SUPERPOSE

    def _refusal(self, action: int) -> str:
        legal = self.legal_actions()
        shown = ", ".join(f"{a} ({self.action_to_string(a)})" for a in legal[:8])
        more = f", ... ({len(legal)} in all)" if len(legal) > 8 else ""
        what = {DEAL: "a starting quark is being dealt",
                FIRST: "the first seat is being chosen",
                SUPERPOSE: "a superposed quark is appearing",
                OBSERVE: f"seat {self._active} must choose who observes",
                COLLAPSE: "the superposed quark is collapsing"}[self._phase]
        return f"action {action} is not legal: {what}; legal: {shown}{more}"

    # -- notation -----------------------------------------------------------------------

    def action_to_string(self, action: int) -> str:
        action = as_action_id(action, NUM_ACTIONS)
        if SUPERPOSE_BASE <= action < OBSERVE_BASE:
            return "superpose " + superposition_text(SUPERPOSITIONS[action - SUPERPOSE_BASE])
        if OBSERVE_BASE <= action < FLAVOUR_BASE:
            return f"observe {action - OBSERVE_BASE}"
        if FLAVOUR_BASE <= action < FIRST_BASE:
            verb = "deal" if self._phase == DEAL else "collapse"
            return f"{verb} {FLAVOURS[action - FLAVOUR_BASE]}"
        if FIRST_BASE <= action < NUM_ACTIONS:
            return f"first {action - FIRST_BASE}"
        raise NotationError(f"{action} is not a Hadronize action id (ids are 0-{NUM_ACTIONS - 1})")

    def string_to_action(self, text: str) -> int:
        """Parse notation; also takes a bare seat number to observe, and flavours in any order."""
        words = normalize_notation(text).replace("/", " ").split()
        action = -1
        try:
            if len(words) == 1 and words[0].isdigit() and self._phase == OBSERVE:
                action = OBSERVE_BASE + int(words[0])
            elif len(words) == 2 and words[0] in ("observe", "first") and words[1].isdigit():
                base = OBSERVE_BASE if words[0] == "observe" else FIRST_BASE
                action = base + int(words[1])
            elif len(words) == 2 and words[0] in ("deal", "collapse"):
                action = FLAVOUR_BASE + flavour_index(words[1])
            elif len(words) == 4 and words[0] == "superpose":
                flavours = tuple(sorted(flavour_index(w) for w in words[1:]))
                if flavours in SUPERPOSITIONS:
                    action = SUPERPOSE_BASE + SUPERPOSITIONS.index(flavours)
        except ValueError as problem:
            raise NotationError(f"{text!r}: {problem}") from None
        if action in self.legal_actions():
            spelled = self.action_to_string(action).split()[0]
            if words[0].isdigit() or words[0] == spelled:
                return action
        return super().string_to_action(text)

    # -- copies, results, history ---------------------------------------------------------

    def clone(self) -> HadronizeState:
        copy = HadronizeState.__new__(HadronizeState)
        copy.game = self.game
        copy._chambers = self._chambers[:]
        copy._hadronized = self._hadronized[:]
        copy._phase = self._phase
        copy._dealt = self._dealt
        copy._active = self._active
        copy._superposition = self._superposition
        copy._observer = self._observer
        copy._turns = self._turns
        copy._winners = self._winners
        copy._last = self._last
        copy._history = self._history[:]
        return copy

    def returns(self) -> list[float]:
        if self._phase != OVER:
            return [0.0] * len(self._hadronized)
        return shared_returns(self._winners, len(self._hadronized))

    def history(self) -> list[int]:
        return self._history[:]

    def resample(self, player: int, rng: random.Random) -> HadronizeState:
        """Nothing in Hadronize is hidden: every seat sees the whole table."""
        return self.clone()

    # -- reading the table (used by the view, bots and tests) ------------------------------

    def chamber(self, seat: int) -> list[int]:
        """Unhadronized quarks of ``seat`` per flavour (up, down, strange, charm, bottom, top)."""
        return self._chambers[seat * NUM_FLAVOURS:(seat + 1) * NUM_FLAVOURS]

    def hadronized(self, seat: int) -> int:
        return self._hadronized[seat]

    def superposition(self) -> tuple[int, int, int] | None:
        """The superposed quark's flavours while it awaits observation or collapse."""
        return SUPERPOSITIONS[self._superposition] if self._superposition >= 0 else None

    def active_seat(self) -> int:
        """Whose turn it is (-1 before the first seat is chosen)."""
        return self._active

    def turns_played(self) -> int:
        return self._turns

    def total_quarks(self) -> int:
        """Quarks in chambers plus hadronized ones: 4 per seat plus one per completed turn."""
        return sum(self._chambers) + sum(self._hadronized)

    # -- the view ---------------------------------------------------------------------

    def view(self, player: int) -> dict[str, Any]:
        """Everything: Hadronize has no hidden information. ``player`` is echoed back
        (``None`` for the spectator's view)."""
        n = len(self._hadronized)
        if not (0 <= player < n or player == SPECTATOR):
            raise IllegalActionError(f"no seat {player}; seats are 0-{n - 1} "
                                     f"(or SPECTATOR, {SPECTATOR})")
        superposition = self.superposition()
        last = None
        if self._last is not None:
            active, observer, flavour, reaction, count = self._last
            last = {"active": active, "observer": observer, "flavour": FLAVOURS[flavour],
                    "reaction": reaction, "count": count}
        to_move = self.current_player()
        return {
            "game": "hadronize",
            "player": None if player == SPECTATOR else player,
            "players": n,
            "goal": self.game.options["goal"],
            "max_turns": self.game.options["max_turns"],
            "phase": PHASE_NAMES[self._phase],
            "to_move": to_move if to_move >= 0 else None,
            "active": self._active if self._active >= 0 else None,
            "turn": self._turns,
            "flavours": list(FLAVOURS),
            "chambers": [self.chamber(seat) for seat in range(n)],
            "hadronized": self._hadronized[:],
            "superposition": None if superposition is None
            else [FLAVOURS[f] for f in superposition],
            "observer": self._observer if self._observer >= 0 else None,
            "last": last,
            "winners": list(self._winners),
        }


__all__ = ["FLAVOURS", "LETTERS", "HadronizeGame", "HadronizeState"]
