"""Saved decks and the deck builder, for every game whose package has a ``decks`` module
with a ``builder()`` (Decoherence).

A deck is saved *to its player* under a name (1-40 characters, shown as text), at most
``Limits.saved_decks`` per player; the game's own rules check it (``parse_deck``), and a
refusal names the broken rule. The owner is the player asking (``owner_of``: a guest is
made for a first visitor who saves), so a player's decks follow them to every device they
log in on. A saved deck is picked on the new-game form for the creator's seats and on the
form for taking a seat: the seat's deck option then holds the deck's text, which the other
seats never see unless decklists are open (the game's ``options_for``).

Routes: ``/decks/{game}`` (the builder page), ``/api/decks/{game}`` (GET: the builder's
data and the owner's decks; POST ``{"name", "deck"}``: save), ``DELETE
/api/decks/{game}/{id}``, ``POST /api/decks/{game}/tests`` (``{"deck"}``: "test this
deck", see ``decktests``) and ``GET /api/deck-tests/{id}`` (its progress).
"""

from __future__ import annotations

import secrets
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import HTMLResponse, JSONResponse, Response

from quarkade.core.registry import game_class, game_part
from quarkade.server import html_decks, inputs
from quarkade.server.chat import fold_text
from quarkade.server.common import check_rate, deck_games, hub_of, me, players_of
from quarkade.server.decktests import report
from quarkade.server.errors import ApiError
from quarkade.server.storage import StoredDeck, Unavailable, ValueTooLong

NAME_LENGTH = 40


def deck_game(name: str) -> str:
    if name not in deck_games():
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise ApiError(404, f"no deck builder for {shown!r}; decks are built for: "
                       f"{', '.join(deck_games())}")
    return name


async def owner_of(connection: HTTPConnection) -> str | None:
    """Whose decks this request may see: the asking player's (None: nobody yet)."""
    player = await players_of(connection).current(connection)
    return None if player is None else player.id


async def owner_for(request: Request) -> str:
    """The asking player, made now (a guest) if there is none: a saved deck has an owner."""
    player = await players_of(request).required(request)
    return player.id


def check_deck(game: str, deck: Any) -> str:
    """The deck's canonical text, or ``ApiError(400)`` naming the rule it breaks."""
    rules = game_part(game, "decks")
    if not isinstance(deck, str) or not deck.strip() or len(deck) > 400:
        raise ApiError(400, "'deck' should be a deck's text, such as "
                       f"{rules.deck_text(rules.parse_deck('balanced'))!r}")
    try:
        counts = rules.parse_deck(deck)
    except ValueError as problem:
        raise ApiError(400, f"this deck cannot be played: {problem}") from None
    return str(rules.deck_text(counts))


def check_name(name: Any) -> str:
    if not isinstance(name, str):
        raise ApiError(400, f"'name' should be text of 1 to {NAME_LENGTH} characters")
    return fold_text(name, NAME_LENGTH, "a deck's name")


def deck_json(game: str, deck: StoredDeck) -> dict[str, Any]:
    rules = game_part(game, "decks")
    return {"id": deck.id, "name": deck.name, "deck": deck.deck,
            "counts": rules.counts_of(deck.deck), "updated": deck.updated}


async def saved_decks(connection: HTTPConnection, game: str, owner: str | None = None
                      ) -> list[dict[str, Any]]:
    """The owner's saved decks of ``game`` (the asking owner unless given; none if the
    database does not answer)."""
    owner = owner or await owner_of(connection)
    if owner is None or game not in deck_games():
        return []
    hub = hub_of(connection)
    try:
        decks = await hub.store.run(hub.store.decks, owner, game)
    except Unavailable:
        return []
    return [deck_json(game, deck) for deck in decks]


async def save(request: Request, game: str, name: Any, deck: Any
               ) -> tuple[dict[str, Any], bool, str]:
    """Check and save a deck for the asking player: the deck, whether it is new, and the
    owner (the player)."""
    name = check_name(name)
    deck = check_deck(game, deck)
    hub = hub_of(request)
    owner = await owner_for(request)
    try:
        saved, made = await hub.store.run(hub.store.save_deck, owner, game,
                                          secrets.token_urlsafe(12), name, deck,
                                          hub.clock.time(), hub.limits.saved_decks)
    except ValueTooLong as problem:  # cannot happen (checked above), but never a 500
        raise ApiError(400, str(problem)) from None
    except ValueError as problem:  # too many decks
        raise ApiError(409, str(problem)) from None
    except Unavailable:
        raise ApiError(503, "the database is not answering; nothing was saved: try again "
                       "in a moment") from None
    return deck_json(game, saved), made, owner


# -- routes ---------------------------------------------------------------------------------


async def builder_page(request: Request) -> Response:
    """The builder; a POST (the form, without a script) saves a deck and shows the page
    again, or refuses it (4xx) with the reason and the counts as they were."""
    game = deck_game(request.path_params["game"])
    await me(request, create=True)  # like every page: the player, named in the header
    rules = game_part(game, "decks")
    title = game_class(game).title
    described = rules.builder()
    if request.method == "GET":
        return HTMLResponse(html_decks.builder(game, title, described,
                                               await saved_decks(request, game),
                                               rules.counts_of("balanced")))
    form = await request.form(max_files=0, max_fields=40, max_part_size=1024)
    words = [word for kind in described["kinds"] for word in kind["words"]]
    counts = {}
    for word in words:
        raw = str(form.get(f"count.{word}", "0")).strip() or "0"
        counts[word] = int(raw) if raw.isdigit() and len(raw) <= 3 else -1
    name = str(form.get("name", ""))[:200]
    try:
        bad = [word for word, count in counts.items() if count < 0]
        if bad:
            raise ApiError(400, f"the count of {bad[0]} should be a whole number from 0 to "
                           f"{described['max_copies']}")
        deck = rules.deck_text([counts[word] for word in words])
        saved, _, owner = await save(request, game, name, deck)
    except ApiError as problem:
        return HTMLResponse(html_decks.builder(game, title, described,
                                               await saved_decks(request, game), counts,
                                               name, error=problem.message),
                            status_code=problem.status)
    return HTMLResponse(html_decks.builder(game, title, described,
                                           await saved_decks(request, game, owner), counts,
                                           saved["name"], message=f"Saved: {saved['name']}."))


async def decks(request: Request) -> Response:
    game = deck_game(request.path_params["game"])
    hub = hub_of(request)
    if request.method == "GET":
        return JSONResponse({"game": game, "builder": game_part(game, "decks").builder(),
                             "decks": await saved_decks(request, game)})
    body = await inputs.json_body(request, hub.limits.body_bytes, hub.limits.number_digits)
    if "name" not in body or "deck" not in body:
        raise ApiError(400, "a deck to save is {\"name\": \"...\", \"deck\": \"...\"}; "
                       "'name' and 'deck' are required")
    saved, made, _ = await save(request, game, body["name"], body["deck"])
    return JSONResponse(saved, status_code=201 if made else 200)


async def delete_deck(request: Request) -> Response:
    game = deck_game(request.path_params["game"])
    hub = hub_of(request)
    owner = await owner_of(request)
    deck_id = request.path_params["id"]
    if owner is None or not 0 < len(deck_id) <= 32 or not await hub.store.run(
            hub.store.delete_deck, owner, deck_id):
        raise ApiError(404, f"you have no saved {game} deck with that id")
    return Response(status_code=204)


async def start_test(request: Request) -> Response:
    """Begin "test this deck" (202): its id and where to follow it."""
    game = deck_game(request.path_params["game"])
    hub = hub_of(request)
    check_rate(request, "deck tests", "deck tests")
    body = await inputs.json_body(request, hub.limits.body_bytes, hub.limits.number_digits)
    deck = check_deck(game, body.get("deck"))
    owner = await owner_for(request)
    test_id = await hub.deck_tests.start(owner, game, deck)
    return JSONResponse({"id": test_id, "url": f"/api/deck-tests/{test_id}"},
                        status_code=202)


async def test_progress(request: Request) -> Response:
    hub = hub_of(request)
    test_id = request.path_params["id"]
    found = await hub.store.run(hub.store.deck_test, test_id) if 0 < len(test_id) <= 32 \
        else None
    if found is None:
        raise ApiError(404, "no deck test with that id; start one from the deck builder")
    return JSONResponse(report(found, found.game))
