"""The deck builder's routes: ``/decks/{game}`` (the builder page; a POST of its form saves
without a script), ``/api/decks/{game}`` (GET: the builder's data and the asker's decks;
POST ``{"name", "deck"}``: save), ``DELETE /api/decks/{game}/{id}``, ``POST
/api/decks/{game}/tests`` (``{"deck"}``: "test this deck") and ``GET
/api/deck-tests/{id}`` (its progress). The owner of a deck is the player asking (a guest
is made for a first visitor who saves)."""

from __future__ import annotations

from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response

from quarkade.core.registry import game_class
from quarkade.server import inputs
from quarkade.server.decks.games import deck_rules
from quarkade.server.decks.saved import check_deck, deck_game, save, saved
from quarkade.server.decks.testing import report
from quarkade.server.errors import ApiError
from quarkade.server.web import forms
from quarkade.server.web.asking import body_of, check_rate, me, site_of
from quarkade.server.web.rendering import page


async def owner_of(connection: HTTPConnection) -> str | None:
    """Whose decks this request may see: the asking player's (None: nobody yet)."""
    player = await site_of(connection).players.current(connection)
    return None if player is None else player.id


async def owner_for(request: Request) -> str:
    """The asking player, made now (a guest) if there is none: a saved deck has an owner."""
    player = await site_of(request).players.required(request)
    return player.id


def _builder(request: Request, game: str, decks: list[dict[str, Any]],
             counts: dict[str, int], name: str = "", message: str = "", error: str = "",
             status: int = 200) -> Response:
    """The builder for ``game``: its words by kind, the presets (with their measured
    strength), the owner's saved decks; ``counts``/``name`` refill the form."""
    title = game_class(game).title
    rules = deck_rules(game).builder()
    totals = {kind["name"]: sum(int(counts.get(word, 0)) for word in kind["words"])
              for kind in rules["kinds"]}
    return page(request, "deck_builder.html", f"{title} deck builder", status, game=game,
                title=title, rules=rules, saved=decks, counts=counts, totals=totals,
                name=name, message=message, error=error, script="/static/js/decks.js",
                wide=True)


async def builder_page(request: Request) -> Response:
    """The builder; a POST (the form, without a script) saves a deck and shows the page
    again, or refuses it (4xx) with the reason and the counts as they were."""
    game = deck_game(request.path_params["game"])
    await me(request, create=True)  # like every page: the player, named in the header
    ctx = site_of(request).ctx
    rules = deck_rules(game)
    described = rules.builder()
    if request.method != "POST":
        return _builder(request, game, await saved(ctx, await owner_of(request), game),
                        rules.counts_of("balanced"))
    form = await forms.posted(request, max_fields=40, max_part_size=1024)
    words = [word for kind in described["kinds"] for word in kind["words"]]
    counts = {}
    for word in words:
        raw = str(form.get(f"count.{word}", "0")).strip() or "0"
        whole = raw.isascii() and raw.isdigit() and len(raw) <= 3  # (isdigit takes "²")
        counts[word] = int(raw) if whole else -1
    name = str(form.get("name", ""))[:200]
    try:
        bad = [word for word, count in counts.items() if count < 0]
        if bad:
            raise ApiError(400, f"the count of {bad[0]} should be a whole number from 0 to "
                           f"{described['max_copies']}")
        deck = rules.deck_text([counts[word] for word in words])
        owner = await owner_for(request)
        found, _ = await save(ctx, owner, game, name, deck)
    except ApiError as problem:
        return _builder(request, game, await saved(ctx, await owner_of(request), game),
                        counts, name, error=problem.message, status=problem.status)
    return _builder(request, game, await saved(ctx, owner, game), counts, found["name"],
                    message=f"Saved: {found['name']}.")


async def decks(request: Request) -> Response:
    game = deck_game(request.path_params["game"])
    ctx = site_of(request).ctx
    if request.method != "POST":
        return JSONResponse({"game": game, "builder": deck_rules(game).builder(),
                             "decks": await saved(ctx, await owner_of(request), game)})
    body = await body_of(request)
    if "name" not in body or "deck" not in body:
        raise ApiError(400, "a deck to save is {\"name\": \"...\", \"deck\": \"...\"}; "
                       "'name' and 'deck' are required")
    found, made = await save(ctx, await owner_for(request), game, body["name"], body["deck"])
    return JSONResponse(found, status_code=201 if made else 200)


async def delete_deck(request: Request) -> Response:
    game = deck_game(request.path_params["game"])
    store = site_of(request).ctx.store
    owner = await owner_of(request)
    deck_id = request.path_params["id"]
    if owner is None or not 0 < len(deck_id) <= 32 or not await store.run(
            store.decks.delete, owner, deck_id):
        raise ApiError(404, f"you have no saved {game} deck with that id")
    return Response(status_code=204)


async def start_test(request: Request) -> Response:
    """Begin "test this deck" (202): its id and where to follow it."""
    game = deck_game(request.path_params["game"])
    await check_rate(request, "deck tests", "deck tests")
    body = await body_of(request)
    deck = check_deck(game, body.get("deck"))
    owner = await owner_for(request)
    test_id = await site_of(request).deck_tests.start(owner, game, deck,
                                                      inputs.client_key(request))
    return JSONResponse({"id": test_id, "url": f"/api/deck-tests/{test_id}"},
                        status_code=202)


async def test_progress(request: Request) -> Response:
    store = site_of(request).ctx.store
    test_id = request.path_params["id"]
    found = await store.run(store.decks.test, test_id) if 0 < len(test_id) <= 32 else None
    if found is None:
        raise ApiError(404, "no deck test with that id; start one from the deck builder")
    return JSONResponse(report(found, found.game))
