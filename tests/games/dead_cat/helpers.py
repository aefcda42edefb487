"""Building Dead Cat positions by playing actions (chance included), as the rules would."""

from __future__ import annotations

from quarkade import load_game
from quarkade.games.dead_cat.rules import DeadCatState


def play(state: DeadCatState, *notations: str) -> DeadCatState:
    """Apply each notation in turn (``"peek"``, ``"draw dead"``, ``"bet 4"``, ...)."""
    for text in notations:
        state.apply_action(state.string_to_action(text))
    return state


def table(players: int = 2, first: int = 0, **options: object) -> DeadCatState:
    """A new game whose die roll gave the first turn to seat ``first``."""
    state = load_game("dead-cat", players=players, **options).new_initial_state()
    return play(state, f"first {first}")


def peek(state: DeadCatState, card: str, bet: int) -> DeadCatState:
    """The seat to move peeks, the box gives ``card`` (alive/dead), and it bets ``bet``."""
    return play(state, "peek", f"draw {card}", f"bet {bet}")


def announce(state: DeadCatState) -> DeadCatState:
    return play(state, "announce")


def award(state: DeadCatState, winner: int) -> DeadCatState:
    """Play one whole round that ``winner`` wins alone.

    Every seat peeks one alive cat in turn; the winner bets 6, the others 2, 3, 4, 5; then
    the starter (to move again) announces. No dead cat is revealed, so the 6 wins.
    """
    others = iter((2, 3, 4, 5))
    for _ in range(state.game.num_players):
        seat = state.current_player()
        peek(state, "alive", 6 if seat == winner else next(others))
    return announce(state)


def with_cubes(cubes: list[int], first: int = 0, **options: object) -> DeadCatState:
    """A game where each seat has won ``cubes[seat]`` rounds (each below four)."""
    state = table(len(cubes), first, **options)
    for seat, count in enumerate(cubes):
        for _ in range(count):
            award(state, seat)
    assert state.cubes() == cubes
    return state
