"""A game's chat: short messages among the seated players, read by everyone at the table.

Only a seat's holder writes for it (a spectator reads); a message is plain text of at most
``Limits.chat_characters`` characters, its whitespace folded to single spaces, with no
control characters; each seat of a game may send ``Limits.chat_messages`` (a rate), and a
game's chat holds at most ``Limits.chat_per_game`` messages. A message is stored with the
game first, then shown on this process's pages and announced to the other processes
through the broker, like a move (the session's ``Chatted`` event). Pages put the text in
as text, never as markup.
"""

from __future__ import annotations

from typing import Any

from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.inputs import fold_text, whole_number
from quarkade.server.limits import RateLimiter
from quarkade.server.play import seats as seating
from quarkade.server.play.session import UNAVAILABLE, GameSession
from quarkade.server.storage import StoredChat, Unavailable
from quarkade.server.storage.chat import ChatFull


def clean(text: Any, limit: int) -> str:
    """The message as it is kept: whitespace folded, 1 to ``limit`` characters, printable."""
    if not isinstance(text, str):
        raise ApiError(400, f"a chat message is text of 1 to {limit} characters")
    return fold_text(text, limit, "a chat message")


class Chat:
    """Chat in this process's games: who may write, the rate per seat, the cap per game."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.rate = RateLimiter(ctx.limits.chat_messages, ctx.clock)  # per seat of a game

    async def post(self, session: GameSession, holder: seating.Holder, seat: Any,
                   text: Any) -> StoredChat:
        """Send ``text`` for ``seat`` (held by ``holder``): stored, shown, announced."""
        ctx = self.ctx
        seat = whole_number(seat, "seat", "the number of a seat this device holds")
        if not holder.seats:
            raise ApiError(403, "spectators read the chat; only the players at the table "
                           "write")
        if seat not in holder.seats:
            held = ", ".join(map(str, sorted(holder.seats)))
            raise ApiError(403, f"this device holds no token for seat {seat} (it holds: "
                           f"{held}); you can chat only for your own seat")
        body = clean(text, ctx.limits.chat_characters)
        if not self.rate.allow(f"{session.id}/{seat}"):
            raise ApiError(429, "too many chat messages from this seat; wait a little")
        name = session.names[seat]
        store = ctx.store
        try:
            message = await store.run(store.chat.add, session.id, seat, name, body,
                                      ctx.clock.time(), ctx.limits.chat_per_game)
        except ChatFull:
            raise ApiError(409, f"this game's chat is full: it holds "
                           f"{ctx.limits.chat_per_game} messages, the most a game keeps"
                           ) from None
        except Unavailable:
            raise ApiError(503, UNAVAILABLE.replace("played", "sent")) from None
        await session.chat_stored(message)
        return message


__all__ = ["Chat", "clean"]
