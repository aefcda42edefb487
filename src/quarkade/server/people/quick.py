"""Quick play (``POST /api/lobby/quick``: game, player count, time control): the player
is seated in the open game of that kind whose seated players' mean rating is closest to
theirs, or a new public game is opened (the player at seat 0, the other seats open) and
waits there. In a game with a deck builder the player may bring a deck.
"""

from __future__ import annotations

from typing import Any

from quarkade.core.errors import QuarkadeError
from quarkade.core.registry import game_class, load_game
from quarkade.server.catalogue import known_game, players_words, suggested_options
from quarkade.server.context import Context
from quarkade.server.decks.games import deck_games, deck_options
from quarkade.server.decks.saved import check_deck
from quarkade.server.errors import ApiError
from quarkade.server.people.ratings import Ratings
from quarkade.server.play import seats as seating
from quarkade.server.play.clocks import TimeControl
from quarkade.server.play.hub import Hub
from quarkade.server.play.seating import Seating
from quarkade.server.play.session import GameSession
from quarkade.server.storage.players import StoredPlayer


async def quick(ctx: Context, hub: Hub, seating_: Seating, ratings: Ratings,
                player: StoredPlayer, game: Any, players: Any, time_control: Any,
                deck: Any = None) -> tuple[GameSession, int, str | None]:
    """Seat ``player`` in the closest open game of this kind, or open one. Returns the
    game, the seat, and the seat's new secret. ``deck`` (a game with a deck builder
    only) is the player's deck at whichever seat they get; without it a seat's own
    options keep their defaults."""
    if not isinstance(game, str):
        raise ApiError(400, "'game' should name a game")
    known_game(game)
    if deck is not None and deck != "":
        if game not in deck_games():
            raise ApiError(400, f"{game} takes no deck; leave 'deck' out (decks are for: "
                           f"{', '.join(deck_games())})")
        deck = check_deck(game, deck)
    own = deck_options(game) if deck else ()

    def choices(seat: int) -> dict[str, str] | None:  # the player's deck at ``seat``
        names = [name for name in game_class(game).seat_option_names(seat) if name in own]
        return {name: deck for name in names} or None
    cls = game_class(game)
    if players is not None and str(players).strip() not in {
            str(n) for n in range(cls.min_players, cls.max_players + 1)}:
        raise ApiError(400, f"{cls.title} is for {players_words(cls)}; choose "
                       f"{'that' if cls.min_players == cls.max_players else 'one of those'}")
    try:
        count = load_game(game, **suggested_options(game),
                          **({} if players is None else {"players": players})).num_players
    except QuarkadeError as problem:
        raise ApiError(400, str(problem)) from None
    control = TimeControl.parse(time_control)
    store = ctx.store
    mine = (await ratings.current([player.id], game, count))[player.id]
    candidates = []
    for entry in await store.run(store.lobby.games, True, 200, game, control.text):
        seats = entry["seats"]
        if len(seats) != count or any(s["player_id"] == player.id for s in seats):
            continue
        open_seats = [s["seat"] for s in seats if s["kind"] == seating.OPEN
                      and not s["joined"]]
        if not open_seats:
            continue
        people = [s["player_id"] for s in seats if s["player_id"]]
        rated = await ratings.current(people, game, count)
        mean = sum(rated.values()) / len(rated) if rated else mine
        candidates.append((abs(mean - mine), entry["created"], entry["id"], open_seats))
    for _, _, game_id, open_seats in sorted(candidates, key=lambda c: (c[0], c[1])):
        session = await hub.get(game_id)
        for seat in open_seats:
            try:
                token = await seating_.take(session, seat, player, choices(seat))
            except ApiError as problem:
                if problem.status == 409:
                    continue  # someone took it first: the next one
                raise
            return session, seat, token
    specs = ["you", *[seating.OPEN] * (count - 1)]
    made = await seating_.create(game, {**suggested_options(game), "players": count,
                                        **(choices(0) or {})}, specs,
                                 seating.PUBLIC, control.text, player,
                                 client=f"player:{player.id}")
    return made.session, 0, made.tokens[0]


