"""A Card Commons position as a page's board draws it: the payload the game's own renderer
reads (the shape of a game page's table), for the puzzle and analysis pages."""

from __future__ import annotations

from collections.abc import Sequence

from quarkade.core.protocol import JSON
from quarkade.core.words import log_line, move_words
from quarkade.games.card_commons.rules import CardCommonsState

GAME = "card-commons"


def board(
    table_id: str,
    state: CardCommonsState,
    seat: int,
    names: Sequence[str],
    since: int,
    playable: bool = True,
) -> JSON:
    """``state`` seen from ``seat``: its moves to try when it is to move (and the board is
    ``playable``), and the log of the actions after the first ``since``."""
    view = state.view(seat)
    to_move = state.current_player()
    legal = []
    if playable and not state.is_terminal() and to_move == seat:
        legal = [
            {
                "id": action,
                "text": state.action_to_string(action),
                "label": label(state, state.action_to_string(action), names),
            }
            for action in state.legal_actions()
        ]
    outcome = state.outcome()
    return {
        "id": table_id,
        "step": len(state.history()),
        "view": view,
        "viewpoint": seat,
        "held": [seat],
        "to_move": to_move if to_move >= 0 and playable else None,
        "seats": [
            {"seat": s, "name": names[s], "kind": "you" if s == seat else "bot", "joined": True}
            for s in range(2)
        ],
        "legal": legal,
        "over": state.is_terminal(),
        "winners": list(outcome.winners) if outcome else [],
        "outcome": outcome.as_json() if outcome else None,
        "log": log_of(state, seat, names, since),
    }


def log_of(state: CardCommonsState, seat: int, names: Sequence[str], since: int) -> list[JSON]:
    """The log lines of ``state``'s actions after the first ``since``, as ``seat`` reads
    them."""
    history = state.history()
    current = state.game.new_initial_state()
    lines = []
    for index, action in enumerate(history):
        actor = current.current_player()
        text = current.action_to_string(action)
        current.apply_action(action)
        if index < since:
            continue
        line = log_line(GAME, current.view(seat), actor, text, names)
        if line:
            lines.append({"step": index + 1, "player": actor, "text": text, "line": sentence(line)})
    return lines


def label(state: CardCommonsState, text: str, names: Sequence[str]) -> str:
    """A legal move of ``state`` as a list of choices reads it."""
    seat = max(state.current_player(), 0)
    return move_words(GAME, state.view(seat), text, names)


def sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


__all__ = ["board", "label", "log_of", "sentence"]
