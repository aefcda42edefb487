"""The open pages of one game, and what each is sent.

A page is sent its whole table and log when it connects, then after every change its new
table with only the log entries it has not had (``log_from``: how many it holds, which
the new ones follow), so what a move costs to send is bounded by that move's own log
lines, never by the game's length. (Once a game over is revealed, its log reads every
action in full: that once, the whole log is sent again, from 0.) Chat: the newest
``CHAT_TAIL`` messages on connecting (``earlier`` says how many come before them, sent on
request), then each new one. A frame is written as JSON text once and the same text sent
to every page that is to get it (a move's table goes to every page of a viewpoint alike).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any

import orjson

from quarkade.server.play import seats as seating
from quarkade.server.play.session import GameSession
from quarkade.server.play.views import chat_json, log_for, table
from quarkade.server.storage import StoredChat

Send = Callable[[str], Awaitable[None]]  # a text frame (JSON) to the page
Frames = dict[tuple[Any, ...], str]


def frame_text(data: dict[str, Any]) -> str:
    """A frame as a page gets it: compact JSON, as Starlette's ``send_json`` writes it
    (keys that are numbers as strings), written by orjson: the json module took an eighth
    of a server's CPU at 500 moves/s."""
    return orjson.dumps(data, option=orjson.OPT_NON_STR_KEYS).decode()


@dataclass(eq=False)
class Watcher:
    """One open page: where to send, whose view it shows, what its device holds, and how
    much of the log it holds."""

    send: Send  # a text frame
    viewpoint: int
    holder: seating.Holder
    logged: int = 0  # log entries sent
    revealed: bool = False  # whether those were the log in full (a game revealed)


class Audience:
    """The pages watching one game in this process."""

    def __init__(self, session: GameSession) -> None:
        self.session = session
        self.watchers: set[Watcher] = set()

    def __len__(self) -> int:
        return len(self.watchers)

    async def greet(self, watcher: Watcher) -> None:
        """A page connected: its whole table and log, and the newest chat."""
        session = self.session
        self.watchers.add(watcher)
        await self._send_state(watcher, {}, whole=True)
        if session.chat:
            await watcher.send(frame_text({
                "type": "chat", "all": True, "earlier": session.chat.earliest,
                "messages": [chat_json(m) for m in session.chat]}))

    def leave(self, watcher: Watcher) -> None:
        self.watchers.discard(watcher)

    def holds(self, seat: int) -> bool:
        """Whether an open page here holds ``seat``."""
        return any(seat in watcher.holder.seats for watcher in self.watchers)

    async def show(self) -> None:
        """Send every page what changed (each frame written once, sent to all its pages)."""
        frames: Frames = {}
        for watcher in list(self.watchers):
            try:
                await self._send_state(watcher, frames)
            except Exception:  # a page that went away; it catches up when it reconnects
                self.watchers.discard(watcher)

    async def send_chat(self, messages: list[StoredChat] | tuple[StoredChat, ...]) -> None:
        """Show new chat messages on every open page (the chat is the same for all)."""
        frame = frame_text({"type": "chat", "messages": [chat_json(m) for m in messages]})
        for watcher in list(self.watchers):
            try:
                await watcher.send(frame)
            except Exception:  # a page that went away; it catches up when it reconnects
                self.watchers.discard(watcher)

    async def _send_state(self, watcher: Watcher, frames: Frames, whole: bool = False
                          ) -> None:
        """Send ``watcher`` its table and the log entries it lacks; ``frames`` holds the
        frames written so far for this change, by viewpoint, device and log span."""
        session = self.session
        viewpoint = watcher.viewpoint
        log = log_for(session, viewpoint)
        revealed = session.revealing
        if whole or revealed != watcher.revealed or len(log) < watcher.logged:
            start = 0  # the log itself changed (revealed): all of it again
        else:
            start = watcher.logged
        # The log is the session's own list, which grows if a move is made current while
        # a frame is being sent: the page then holds only the entries its frame carried.
        sent = len(log)
        key = (viewpoint, watcher.holder, start, sent)
        frame = frames.get(key)
        if frame is None:
            frame = frames[key] = frame_text({
                "type": "state", "server": session.ctx.process,
                **table(session, viewpoint, watcher.holder), "log_from": start,
                "log": [entry.public() for entry in log[start:sent]]})
        await watcher.send(frame)
        watcher.logged = sent
        watcher.revealed = revealed
