"""What a game's open pages are sent: each frame carries the log entries the page lacks,
and ``log_from`` never runs past what the page holds, even when a move is made current
(heard from another process) while a frame is on its way to a page."""

from __future__ import annotations

import json

from quarkade.server.messages import ClockStamp, Moves
from quarkade.server.play.audience import Audience, Watcher
from quarkade.server.play.session import GameSession
from quarkade.server.play.views import log_for
from tests.server.helpers import friend_game, run_alone, stored_copy


def hear_a_move(session: GameSession) -> None:
    """Another process's move reaches this copy, as ``hear`` plays it."""
    state = session.state
    move = (state.current_player(), state.legal_actions()[0])
    heard = Moves(session.id, session.step + 1, "another process", session.step, (move,),
                  ClockStamp({}, {}))
    assert session._play_heard(heard)


class Page:
    """An open page: it holds the log as game.js does, refusing a frame that does not
    follow what it holds (game.js reconnects then, and may land on another process)."""

    def __init__(self, on_send=None) -> None:
        self.log: list[dict] = []
        self.refused: list[str] = []
        self.step = -1
        self.on_send = on_send

    async def send(self, text: str) -> None:
        frame = json.loads(text)
        if frame["log_from"] > len(self.log):  # show() drops the page, as a closed one
            self.refused.append(f"a frame from log entry {frame['log_from']} to a page "
                                f"holding {len(self.log)}")
            raise ConnectionResetError(self.refused[-1])
        self.log = self.log[:frame["log_from"]] + frame["log"]
        self.step = frame["step"]
        if self.on_send is not None:
            self.on_send()


def test_a_move_heard_while_a_frame_is_sent_comes_in_the_next_frame(client) -> None:
    created = friend_game(client, "hadronize")
    live = client.app.state.site.hub.games[created["id"]].session
    session = stored_copy(live, [action for _, action in live.moves])  # another process's
    first = session.step
    sent_to = []

    def first_page_sent() -> None:  # the next move arrives while the first page is sent to
        sent_to.append(len(sent_to))
        if len(sent_to) == 2:
            hear_a_move(session)

    pages = [Page(first_page_sent), Page(), Page()]
    audience = Audience(session)
    watchers = [Watcher(pages[0].send, 0, session.holder([created["seat_tokens"][0]])),
                Watcher(pages[1].send, 0, session.holder([created["seat_tokens"][0]])),
                Watcher(pages[2].send, 1, session.holder([created["seat_tokens"][1]]))]

    async def show() -> None:
        for watcher in watchers:
            await audience.greet(watcher)
        hear_a_move(session)
        await audience.show()  # the first page is sent this move; a second arrives meanwhile
        await audience.show()  # and every page is sent what it lacks

    run_alone(show())
    assert not [page.refused for page in pages if page.refused]
    assert session.step == first + 2 and len(sent_to) == 3
    for page, watcher in zip(pages, watchers, strict=True):
        whole = [entry.public() for entry in log_for(session, watcher.viewpoint)]
        assert page.log == whole and page.step == session.step
