"""Building Card Commons positions: by legal play, or laid out directly for ruling tests."""

from __future__ import annotations

from quarkade import load_game
from quarkade.games.card_commons.notation import CARD_NAMES, CELL_NAMES, card_id, cell_id
from quarkade.games.card_commons.rules import FACE_DOWN, TURN, CardCommonsState

# The worked examples' position (seed 002, Examples), reached by legal play (RULINGS C-1..C-7).
EXAMPLE_MOVES = ("opener 1", "3D c2", "pass", "5C b2", "polarize c2", "2H d3", "4D c3")


def play(*moves: str, **options: object) -> CardCommonsState:
    """A new game with ``moves`` (notation, the coin included) applied in order."""
    state = load_game("card-commons", **options).new_initial_state()
    for move in moves:
        state.apply_action(state.string_to_action(move))
    return state


def example_position(**options: object) -> CardCommonsState:
    """Seat 0 to move with 5♣ on b2, the 3♦ face down on c2, 2♥ on d3 and 4♦ on c3."""
    return play(*EXAMPLE_MOVES, **options)


def arrange(layout: dict[str, str], to_move: int = 0, hands: dict[int, str] | None = None,
            opener: int = 0, **options: object) -> CardCommonsState:
    """A position laid out directly (its history is empty, so it does not replay).

    ``layout`` maps cells to cards: ``"5C"``; ``"4H-"`` for a face-down card; ``"4D/4S"``
    for a stack, bottom first. Hands default to every card not on the field; ``hands``
    may give a seat's hand as text (``"AS 3S"``); cards in neither go to the discards.
    """
    state = load_game("card-commons", **options).new_initial_state()
    on_field = set()
    for cell_name, text in layout.items():
        cell = cell_id(cell_name)
        codes = []
        for word in text.split("/"):
            down = word.endswith("-")
            card = card_id(word.rstrip("-"))
            on_field.add(card)
            codes.append(card + 1 + (FACE_DOWN if down else 0))
        state._top[cell] = codes[-1]
        state._under[cell] = codes[0] if len(codes) == 2 else 0
    state.rebuild()
    for seat in (0, 1):
        own = range(seat * 12, seat * 12 + 12)
        if hands and seat in hands:
            held = {card_id(w) for w in hands[seat].split()}
        else:
            held = set(own) - on_field
        state._hands[seat] = sum(1 << (c % 12) for c in held)
        state._discards[seat] = sum(1 << (c % 12) for c in set(own) - held - on_field)
    state._phase = TURN
    state._to_move = to_move
    state._opener = opener
    state._legal = None
    return state


def texts(state: CardCommonsState) -> list[str]:
    """The notation of every legal action."""
    return [state.action_to_string(a) for a in state.legal_actions()]


def field(state: CardCommonsState) -> dict[str, str]:
    """The occupied cells as text, in the ``arrange`` format."""
    shown = {}
    for cell in range(16):
        cards = state.stack(cell)
        if cards:
            shown[CELL_NAMES[cell]] = "/".join(
                f"{CARD_NAMES[c]}{'' if up else '-'}" for c, up in cards)
    return shown
