"""The part of a game's chat a session holds: the newest ``CHAT_TAIL`` messages and how
many the game has in all (messages are numbered 0, 1, 2, ... in the order stored, by
whichever process). A page is sent the tail on connecting and asks for older pages
(``ChatQueries.before``); what another process stored is read on from ``count``."""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from quarkade.server.storage import Store, StoredChat
from quarkade.server.storage.chat import CHAT_TAIL


class ChatTail:
    """The newest messages of one game's chat, in order, and the number of the next."""

    def __init__(self, messages: Iterable[StoredChat], count: int = -1) -> None:
        self.messages = list(messages)[-CHAT_TAIL:]
        self.count = len(self.messages) if count < 0 else count  # -1: as many as held

    def __iter__(self) -> Iterator[StoredChat]:
        return iter(self.messages)

    def __len__(self) -> int:
        return len(self.messages)

    @property
    def earliest(self) -> int:
        """The number of the oldest message held (the game's count if none is)."""
        return self.messages[0].number if self.messages else self.count

    def add(self, messages: Iterable[StoredChat]) -> list[StoredChat]:
        """Keep the messages that follow those held (in order; the newest ``CHAT_TAIL``);
        returns those."""
        fresh = []
        for message in messages:
            if message.number == self.count:
                self.messages.append(message)
                self.count += 1
                fresh.append(message)
        del self.messages[:-CHAT_TAIL]
        return fresh

    async def read(self, store: Store, game_id: str) -> list[StoredChat]:
        """Read the messages stored after those held (by any process) and keep them;
        returns the newest ``CHAT_TAIL`` of them."""
        found = await store.run(store.chat.since, game_id, self.count)
        fresh = self.add(found)
        while len(found) == CHAT_TAIL:  # more than a page came in: read on
            found = await store.run(store.chat.since, game_id, self.count)
            fresh += self.add(found)
        return fresh[-CHAT_TAIL:]
