"""What each viewpoint of a game may see: the page's table, the log, the record, a replay
step. Only that seat's view, log and (if it moves) moves; everything once the game is over
if the table chose to reveal.

Functions of a ``GameSession``; they never change it (``session.memo`` keeps what they
worked out for the current step).
"""

from __future__ import annotations

import random
from typing import Any

from quarkade.core.protocol import SPECTATOR
from quarkade.core.records import GameRecord, RecordedAction, Seat
from quarkade.core.registry import game_class
from quarkade.core.words import move_words
from quarkade.server.errors import ApiError
from quarkade.server.play import seats as seating
from quarkade.server.play.clocks import clock_view
from quarkade.server.play.endings import allowed
from quarkade.server.play.logbook import LogEntry
from quarkade.server.play.names import seat_about
from quarkade.server.play.offers import rematch_view
from quarkade.server.play.outcomes import outcome_of
from quarkade.server.play.session import GameSession
from quarkade.server.storage import StoredChat, StoredSeat


def payload(session: GameSession, viewpoint: int, holder: seating.Holder) -> dict[str, Any]:
    """Everything one page shows, its whole log included (the API's answer)."""
    return {**table(session, viewpoint, holder),
            "log": [entry.public() for entry in log_for(session, viewpoint)]}


def table(session: GameSession, viewpoint: int, holder: seating.Holder) -> dict[str, Any]:
    """Everything one page shows but the log: only ``viewpoint``'s view and (if it moves)
    moves; everything once the game is over if the table chose to reveal."""
    state = session.state
    to_move = state.current_player()
    revealing = session.revealing
    view = state.revealed_view() if revealing else state.view(viewpoint)
    legal: list[dict[str, Any]] = []
    over = session.over
    if viewpoint >= 0 and to_move == viewpoint and viewpoint in holder.seats and not over:
        losing = endings(session, viewpoint)
        for action in state.legal_actions():
            text = state.action_string_for(viewpoint, action)
            legal.append({"id": action, "text": text, "label": _label(session, view, text),
                          **({"ends": losing[action]} if action in losing else {})})
    outcome = session.outcome()
    data: dict[str, Any] = {
        "id": session.id,
        "game": session.name,
        "title": game_class(session.name).title,
        "options": session.game.options if revealing else
        session.game.options_for(viewpoint),
        "step": session.step,
        "seats": [{"seat": s.seat, "name": name, "kind": s.kind, "agent": s.agent,
                   "about": seat_about(session.name, s), "joined": s.joined,
                   "player": s.player_id is not None, "replaced": s.replaced}
                  for s, name in zip(session.seats, session.names, strict=True)],
        "viewpoint": None if viewpoint == SPECTATOR else viewpoint,
        "held": sorted(holder.seats),
        "view": view,
        "secret": not revealing and viewpoint >= 0 and _without_player(view)
        != _open_view(session),
        "to_move": to_move if to_move >= 0 and not over else None,
        "over": over,
        "returns": session.returns(),
        "winners": (outcome or {}).get("winners", []),
        "outcome": outcome,
        "waiting": session.waiting,
        "clock": clock_of(session),
        "rated": session.times.rated,
        "may": allowed(session, holder),
        "rating_changes": session.rating_changes,
        "legal": legal,
        "rematch": rematch_view(session),
        "visibility": session.visibility,
        # Plug-in bots stopped in this game (their seats play random): the game is flagged.
        # (Never a fault's detail: it may hold what only the bot's seat knows.)
        "flagged": [{"seat": s.seat, "message": s.fault.sentence(session.names)}
                    for s in session.seats if s.fault is not None],
        "reveal": session.reveal,
        "revealed": revealing,
        "hides": not session.game.perfect_information,
    }
    if holder.host:
        # The host sees whether each friend joined; the link only while it is unspent and
        # this device knows its code (the server keeps only its digest).
        codes = dict(holder.invites)
        data["invites"] = [
            {"seat": s.seat, "joined": s.joined,
             **({"url": f"/games/{session.id}/join/{codes[s.seat]}"}
                if s.invite and s.seat in codes else {})}
            for s in session.seats if s.kind == seating.FRIEND]
    return data


def log_for(session: GameSession, viewpoint: int) -> list[LogEntry]:
    """The log ``viewpoint`` reads: its own, or every action in full once revealed."""
    if session.revealing:
        return session.book.in_full(session.game, session.moves)
    return session.book.of(viewpoint, session.game, session.moves)


def endings(session: GameSession, seat: int) -> dict[int, str]:
    """The legal moves after which the game is over without ``seat`` winning (``loss``
    or ``draw``), or which leave ``seat`` to move with only moves that lose (``trap``: a
    Decoherence play that throws away its last nouns, leaving a pass that loses), so a
    page asks first. Judged from what the seat knows only, so the warning tells it
    nothing hidden: the move must do so in every one of a few states the seat cannot
    tell from this one (any state, with open cards)."""
    key = ("endings", session.step, seat)
    if key in session.memo:
        found: dict[int, str] = session.memo[key]
        return found
    state = session.state
    models = [state] if session.game.perfect_information else [
        state.resample(seat, random.Random(seed)) for seed in range(3)]
    found = {}
    for action in state.legal_actions():
        results = set()
        for model in models:
            trial = model.clone()
            trial.apply_action(action)
            outcome = trial.outcome()
            results.add(("trap" if _only_losing(trial, seat) else None)
                        if outcome is None else
                        None if seat in outcome.winners else outcome.result)
        ending = results.pop() if len(results) == 1 else None
        if ending is not None:
            found[action] = ending if ending in ("draw", "trap") else "loss"
    session.memo[key] = found
    return found


def _only_losing(state: Any, seat: int) -> bool:
    """Whether ``seat`` is to move again with a few moves, every one of which ends the game
    in its loss (a longer list is not looked into: the check stays cheap)."""
    if state.current_player() != seat:
        return False
    legal = state.legal_actions()
    if not legal or len(legal) > 4:
        return False
    for action in legal:
        trial = state.clone()
        trial.apply_action(action)
        outcome = trial.outcome()
        if outcome is None or seat in outcome.winners:
            return False
    return True


def clock_of(session: GameSession) -> dict[str, Any]:
    to_move = session.state.current_player()
    running = to_move if to_move >= 0 and not session.over else None
    return clock_view(session.control, [s.remaining for s in session.seats], running,
                      session.times.turn_started, session.times.deadline,
                      session.ctx.clock.time())


def record_for(session: GameSession, viewpoint: int) -> dict[str, Any]:
    """The game record as ``viewpoint`` may read it: its notation, and no id it may not
    know (an action whose notation it reads differently gets id -1); once revealed,
    every action in full, for everyone."""
    revealing = session.revealing
    actions = [RecordedAction(-1 if entry.hidden else action, entry.text, player)
               for entry, (player, action) in zip(log_for(session, viewpoint),
                                                  session.moves, strict=True)]
    seats = [Seat(name, _agent_of(s)) for s, name in zip(session.seats, session.names,
                                                          strict=True)]
    decided = session.times.ending is not None
    options = session.game.options if revealing else session.game.options_for(viewpoint)
    record = GameRecord(session.name, options, seats, actions,
                        session.returns(), seed="live", created=session.created,
                        outcome=session.outcome(), decided_by="server" if decided else None,
                        faults=[s.fault for s in session.seats if s.fault is not None])
    data = record.to_dict()
    data["viewer"] = "spectator" if viewpoint == SPECTATOR else viewpoint
    data["revealed"] = revealing
    return data


def step_view(session: GameSession, viewpoint: int, step: int) -> dict[str, Any]:
    """The table ``viewpoint`` saw after ``step`` actions (for the replay page); every
    step in full once the game is over, if the table chose to reveal."""
    if not 0 <= step <= session.step:
        raise ApiError(404, f"step {step} does not exist; this game has steps "
                       f"0-{session.step}")
    state = session.game.new_initial_state()
    for _, action in session.moves[:step]:
        state.apply_action(action)
    to_move = state.current_player()
    if step == session.step and session.times.ending is not None:  # the server's ruling
        outcome = session.outcome()
        assert outcome is not None
        view = state.revealed_view() if session.revealing else state.view(viewpoint)
        return {"step": step, "steps": session.step, "view": view,
                "to_move": None, "over": True, "winners": outcome["winners"],
                "outcome": outcome, "returns": session.returns()}
    over = state.is_terminal()
    view = state.revealed_view() if session.revealing else state.view(viewpoint)
    return {"step": step, "steps": session.step, "view": view,
            "to_move": to_move if to_move >= 0 else None, "over": over,
            "winners": state.winners() if over else [],
            "outcome": outcome_of(state),
            "returns": state.returns() if over else None}


def chat_json(message: StoredChat) -> dict[str, Any]:
    """A chat message as pages get it (its text is shown as text, never as markup)."""
    return {"number": message.number, "seat": message.seat, "name": message.name,
            "text": message.body, "sent": message.sent}


def _label(session: GameSession, view: dict[str, Any], notation: str) -> str:
    try:
        return move_words(session.name, view, notation, session.names)
    except ModuleNotFoundError:
        return notation


def _agent_of(seat: StoredSeat) -> str:
    if seat.replaced:  # a person, then a bot for the rest of the game
        return f"person, then bot:{seat.agent} ({seat.replaced})"
    return seat.agent or seat.kind


def _open_view(session: GameSession) -> dict[str, Any]:
    """What a spectator sees now, but whose view it is (worked out once per step)."""
    key = ("open view", session.step)
    if key not in session.memo:
        session.memo[key] = _without_player(session.state.view(SPECTATOR))
    found: dict[str, Any] = session.memo[key]
    return found


def _without_player(view: dict[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in view.items() if key != "player"}
