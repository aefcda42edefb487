"""A finished game's rematch offer as its pages show it (RULINGS S-13; offering and
answering are ``rematch``): who accepted, who is still to answer, and whether it began,
was declined or expired. Seats here are the finished game's."""

from __future__ import annotations

from typing import Any

from quarkade.server.play import seats as seating
from quarkade.server.play.session import GameSession
from quarkade.server.storage import StoredRematch

OFFERED, ACCEPTED, DECLINED, EXPIRED = "offered", "accepted", "declined", "expired"


def offer_state(offer: StoredRematch | None) -> str | None:
    if offer is None:
        return None
    if offer.started:
        return ACCEPTED
    return offer.ended or OFFERED


def rematch_view(session: GameSession) -> dict[str, Any] | None:
    """The rematch as a page of the finished game shows it (seats are this game's):
    ``{id, state, accepted, waiting, by}`` (``by``: who declined or left); None if none
    was offered."""
    offer = session.offer
    state = offer_state(offer)
    if offer is None or state is None:
        return None
    players = session.game.num_players
    before = {seating.turned(seat, players): seat for seat in range(players)}
    people = [before[seat] for seat in offer.people]
    accepted = sorted(before[seat] for seat in offer.accepted if seat in offer.people)
    return {"id": offer.id, "state": state, "accepted": accepted,
            "waiting": sorted(set(people) - set(accepted)) if state == OFFERED else [],
            "by": None if offer.by is None or state in (OFFERED, ACCEPTED)
            else before[offer.by]}
