"""Saved decks, for every game with a deck builder (``decks.games``).

A deck is saved *to its player* under a name (1-40 characters, shown as text), at most
``Limits.saved_decks`` per player; the game's own rules check it (``parse_deck``), and a
refusal names the broken rule. A player's decks follow them to every device they log in
on. A saved deck is picked on the new-game form for the creator's seats and on the form
for taking a seat: the seat's deck option then holds the deck's text, which the other
seats never see unless decklists are open (the game's ``options_for``).
"""

from __future__ import annotations

import secrets
from typing import Any

from quarkade.server.context import Context
from quarkade.server.decks.games import deck_games, deck_rules
from quarkade.server.errors import ApiError
from quarkade.server.inputs import fold_text
from quarkade.server.storage import StoredDeck, Unavailable, ValueTooLong

NAME_LENGTH = 40


def deck_game(name: str) -> str:
    """``name`` if it has a deck builder, else ``ApiError(404)`` naming those that do."""
    if name not in deck_games():
        shown = name if len(name) <= 40 else name[:37] + "..."
        raise ApiError(404, f"no deck builder for {shown!r}; decks are built for: "
                       f"{', '.join(deck_games())}")
    return name


def check_deck(game: str, deck: Any) -> str:
    """The deck's canonical text, or ``ApiError(400)`` naming the rule it breaks."""
    rules = deck_rules(game)
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
    rules = deck_rules(game)
    return {"id": deck.id, "name": deck.name, "deck": deck.deck,
            "counts": rules.counts_of(deck.deck), "updated": deck.updated}


async def saved(ctx: Context, owner: str | None, game: str) -> list[dict[str, Any]]:
    """``owner``'s saved decks of ``game`` (none for nobody, or if the database does not
    answer)."""
    if owner is None or game not in deck_games():
        return []
    store = ctx.store
    try:
        decks = await store.run(store.decks.of, owner, game)
    except Unavailable:
        return []
    return [deck_json(game, deck) for deck in decks]


async def save(ctx: Context, owner: str, game: str, name: Any, deck: Any
               ) -> tuple[dict[str, Any], bool]:
    """Check and save a deck for ``owner``: the deck, and whether it is new."""
    name = check_name(name)
    deck = check_deck(game, deck)
    store = ctx.store
    try:
        found, made = await store.run(store.decks.save, owner, game,
                                      secrets.token_urlsafe(12), name, deck,
                                      ctx.clock.time(), ctx.limits.saved_decks)
    except ValueTooLong as problem:  # cannot happen (checked above), but never a 500
        raise ApiError(400, str(problem)) from None
    except ValueError as problem:  # too many decks
        raise ApiError(409, str(problem)) from None
    except Unavailable:
        raise ApiError(503, "the database is not answering; nothing was saved: try again "
                       "in a moment") from None
    return deck_json(game, found), made
