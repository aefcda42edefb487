"""Building Hadronize positions by playing their chance actions, as the rules would."""

from __future__ import annotations

from quarkade import load_game
from quarkade.games.hadronize.notation import FLAVOURS
from quarkade.games.hadronize.rules import HadronizeState


def dealt(chambers: list[list[str]], first: int = 0, **options: object) -> HadronizeState:
    """A game whose seats were dealt exactly these starting quarks, ``first`` to move."""
    game = load_game("hadronize", players=len(chambers), **options)
    state = game.new_initial_state()
    for quarks in chambers:
        assert len(quarks) == 4
        for flavour in quarks:
            state.apply_action(state.string_to_action(f"deal {flavour}"))
    state.apply_action(state.string_to_action(f"first {first}"))
    return state


def turn(state: HadronizeState, superposition: str, observer: int, collapse: str) -> None:
    """Play one whole turn: ``superpose u/s/c``, ``observe N``, ``collapse flavour``."""
    state.apply_action(state.string_to_action(f"superpose {superposition}"))
    state.apply_action(state.string_to_action(f"observe {observer}"))
    state.apply_action(state.string_to_action(f"collapse {collapse}"))


def chamber(state: HadronizeState, seat: int) -> dict[str, int]:
    """The seat's chamber as {flavour: count}, leaving out flavours it lacks."""
    return {f: c for f, c in zip(FLAVOURS, state.chamber(seat), strict=True) if c}
