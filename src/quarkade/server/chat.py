"""A game's chat: short messages among the seated players, read by everyone at the table.

Only a seat's holder writes for it (a spectator reads); a message is plain text of at most
``Limits.chat_characters`` characters, its whitespace folded to single spaces, with no
control characters; each seat of a game may send ``Limits.chat_messages`` (a rate). A
message is stored with the game first, then shown on this process's pages and announced
to the other processes through the broker, like a move. Pages put the text in as text,
never as markup.
"""

from __future__ import annotations

import unicodedata
from typing import TYPE_CHECKING, Any

from quarkade.server import seats as seating
from quarkade.server.errors import ApiError
from quarkade.server.inputs import whole_number
from quarkade.server.live import UNAVAILABLE, LiveGame
from quarkade.server.storage import StoredChat, Unavailable

if TYPE_CHECKING:
    from quarkade.server.hub import Hub


def clean(text: Any, limit: int) -> str:
    """The message as it is kept: whitespace folded, 1 to ``limit`` characters, printable."""
    if not isinstance(text, str):
        raise ApiError(400, f"a chat message is text of 1 to {limit} characters")
    return fold_text(text, limit, "a chat message")


def fold_text(text: str, limit: int, what: str) -> str:
    """``text`` with its whitespace folded to single spaces: 1 to ``limit`` characters and
    no control characters, else ``ApiError(400)`` saying so (chat messages, deck names)."""
    folded = " ".join(text.split())
    if not folded:
        raise ApiError(400, f"{what} is empty; write 1 to {limit} characters")
    if len(folded) > limit:
        raise ApiError(400, f"{what} is at most {limit} characters; this one has "
                       f"{len(folded)}")
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in folded):
        raise ApiError(400, f"{what} holds no control characters; write plain text")
    return folded


async def post(hub: Hub, live: LiveGame, holder: seating.Holder, seat: Any,
               text: Any) -> StoredChat:
    """Send ``text`` for ``seat`` (held by ``holder``): stored, shown, announced."""
    seat = whole_number(seat, "seat", "the number of a seat this device holds")
    if not holder.seats:
        raise ApiError(403, "spectators read the chat; only the players at the table write")
    if seat not in holder.seats:
        held = ", ".join(map(str, sorted(holder.seats)))
        raise ApiError(403, f"this device holds no token for seat {seat} (it holds: {held}); "
                       "you can chat only for your own seat")
    body = clean(text, hub.limits.chat_characters)
    if not hub.chat_rate.allow(f"{live.id}/{seat}"):
        raise ApiError(429, "too many chat messages from this seat; wait a little")
    name = live.seats[seat].name if seat < len(live.seats) else f"seat {seat}"
    try:
        message = await hub.store.run(hub.store.add_chat, live.id, seat, name, body,
                                      hub.clock.time())
    except Unavailable:
        raise ApiError(503, UNAVAILABLE.replace("played", "sent")) from None
    async with live.lock:
        missing = await hub.store.run(hub.store.chat_since, live.id, len(live.chat)) \
            if message.number > len(live.chat) else [message]
        fresh = live.add_chat(missing)
    if fresh:
        await live.send_chat(fresh)
    await hub.announce(live, chat=message.number)
    return message


__all__ = ["clean", "fold_text", "post"]
