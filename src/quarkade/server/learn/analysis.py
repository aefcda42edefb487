"""The Card Commons analysis board on the web: a position from moves, and its moves judged.

A board is the game's options and its actions from the start (the coin's included), so
the page can step back and forth by sending a shorter or longer list. Setting it up
(``position``) is a replay on the web loop; judging its moves (``judge``: exact where the
solver reaches, else the search's estimate, ``quarkade.learn.analysis``) is CPU work, a
``PositionAnalysis`` job in the worker processes, merged by position and kept.
A stored game opens on the board once it is over (an analysis of a game in play would
help a seat against the rules of fair play).
"""

from __future__ import annotations

import random
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from quarkade.core.errors import QuarkadeError
from quarkade.core.protocol import JSON, SPECTATOR
from quarkade.games.card_commons.rules import CardCommonsGame, CardCommonsState
from quarkade.server.context import Context
from quarkade.server.errors import ApiError
from quarkade.server.learn.boards import board
from quarkade.server.learn.searches import PositionAnalysis
from quarkade.server.work.pool import JobFailed
from quarkade.server.work.scheduler import Busy

GAME = "card-commons"
VARIANTS = ("classic", "tutorial")
NAMES = ("Hearts and Spades", "Diamonds and Clubs")  # the seats' suits (RULINGS C-2)
MAX_MOVES = 200  # actions a board may hold (a Card Commons game has fewer than 60)
KEPT = 500  # judged positions kept


def position(options: dict[str, Any], history: object) -> CardCommonsState:
    """The state after ``history`` (action ids) under ``options``; a clear refusal of
    anything the engine does not accept."""
    if (
        not isinstance(history, list)
        or len(history) > MAX_MOVES
        or not all(isinstance(action, int) and not isinstance(action, bool) for action in history)
    ):
        raise ApiError(
            400, f"'moves' should be the board's moves from the start, at most {MAX_MOVES}"
        )
    state = CardCommonsGame(**options).new_initial_state()
    for number, action in enumerate(history, 1):
        try:
            state.apply_action(action)
        except QuarkadeError as problem:
            raise ApiError(422, f"move {number} cannot be played: {problem}") from None
    return state


def options_of(variant: object, torus: object) -> dict[str, Any]:
    if variant not in VARIANTS:
        raise ApiError(400, f"'variant' should be {' or '.join(VARIANTS)}")
    if not isinstance(torus, bool):
        raise ApiError(400, "'torus' should be true or false")
    return {"variant": variant, "torus": torus}


def read_moves(options: dict[str, Any], text: str) -> list[int]:
    """Action ids from moves in the game's notation, separated by commas (as ``quarkade
    solve --moves`` takes them)."""
    state = CardCommonsGame(**options).new_initial_state()
    history = []
    parts = [part.strip() for part in text.split(",") if part.strip()]
    if len(parts) > MAX_MOVES:
        raise ApiError(400, f"at most {MAX_MOVES} moves")
    for number, part in enumerate(parts, 1):
        try:
            action = state.string_to_action(part[:200])
            state.apply_action(action)
        except QuarkadeError as problem:
            raise ApiError(
                422, f"move {number} ({part[:40]}) cannot be played: {problem}"
            ) from None
        history.append(action)
    return history


class Analysis:
    """The boards' judgements of this process: asked, merged, kept."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self.kept: OrderedDict[tuple[Any, ...], JSON] = OrderedDict()

    def show(self, options: dict[str, Any], history: object, names: Sequence[str] = NAMES) -> JSON:
        """The board after ``history``: the position from the side of the seat to move
        (seat 0's when nobody is)."""
        state = position(options, history)
        history = state.history()
        seat = max(state.current_player(), 0)
        table = board(f"analysis-{len(history)}", state, seat, names, 0)
        table["held"] = [0, 1]
        table["viewpoint"] = SPECTATOR  # nobody is "you" on the board: "Ben's side"
        outcome = state.outcome()
        text = ""
        if state.is_terminal() and outcome is not None:
            winners = [names[s] for s in outcome.winners]
            text = (
                f"The game is over: {' and '.join(winners)} won."
                if winners
                else "The game is over: a draw."
            )
        elif state.current_player() < 0:
            text = "A coin decides who opens: play one of its two sides."
        moves = []
        if state.current_player() < 0 and not state.is_terminal():
            for action, _ in state.chance_outcomes():
                coin = state.action_to_string(action)  # "opener N": seat N opens
                opener = names[int(coin.split()[-1])]
                moves.append({"id": action, "text": coin, "label": f"The coin: {opener} opens"})
        replayed = state.game.new_initial_state()
        notation = []
        for action in history:
            notation.append(replayed.action_to_string(action))
            replayed.apply_action(action)
        return {
            "variant": options["variant"],
            "torus": options["torus"],
            "moves": list(history),
            "notation": notation,
            "table": table,
            "said": text,
            "coin": moves,
            "names": list(names),
            "to_move": names[state.current_player()]
            if state.current_player() >= 0 and not state.is_terminal()
            else None,
        }

    async def judge(
        self, options: dict[str, Any], history: list[int], names: Sequence[str], client: str
    ) -> JSON:
        """Every legal move of the seat to move, judged (in a worker process)."""
        state = position(options, history)
        if state.is_terminal() or state.current_player() < 0:
            return {"moves": []}
        key = ("analysis", options["variant"], options["torus"], tuple(history), tuple(names))
        if key in self.kept:
            self.kept.move_to_end(key)
            return self.kept[key]
        job = PositionAnalysis(
            None, dict(options), list(history), list(names), random.SystemRandom().getrandbits(32)
        )
        try:
            # a review's deadline: a worker's first job loads the compiled solver, which
            # on a busy machine takes longer than a hint may
            body = await self.ctx.work.submit(
                job, client, "analysis", self.ctx.limits.review_seconds, key=key
            )
        except Busy as busy:
            raise ApiError(
                429,
                f"you have {busy.waiting} requests waiting for the "
                "server's workers already; wait for them first",
            ) from None
        except JobFailed as problem:
            raise ApiError(
                503, f"this position could not be analysed this time ({problem}); ask again"
            ) from None
        self.kept[key] = body
        while len(self.kept) > KEPT:
            self.kept.popitem(last=False)
        return body


__all__ = ["NAMES", "Analysis", "options_of", "position", "read_moves"]
