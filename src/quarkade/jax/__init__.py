"""Quarkade's games in JAX, on pgx's model (the ``quarkade[jax]`` extra).

    >>> from quarkade.jax import make                                   # doctest: +SKIP
    >>> env = make("dead-cat", players=3, peek_first=True)              # doctest: +SKIP
    >>> state = jax.jit(jax.vmap(env.init))(jax.random.split(key, 1024))  # doctest: +SKIP

``make(name, **options)`` takes a game's name and options as ``quarkade.load_game`` does
and returns a ``pgx.Env`` (``JaxEnv``): ``init(key)``, ``step(state, action, key)``, and a
state with ``current_player``, ``observation``, ``legal_action_mask``, ``rewards``,
``terminated`` and ``truncated``, every function pure and jittable, so thousands of games
step at once under ``jax.vmap``. Action ids are the reference engine's; chance is played
inside ``init`` and ``step`` with their key and kept in the state, so a game converts to
and from a reference history (``quarkade.jax.records``). docs/RESEARCH.md is the guide.

Hadronize, Dead Cat and Card Commons have JAX rules; Decoherence has none (docs/RESEARCH.md
says what it would take).
"""

from __future__ import annotations

from typing import Any

from quarkade.core.errors import GameOptionError

JAX_GAMES = ("card-commons", "dead-cat", "hadronize")
INSTALL = "pip install 'quarkade[jax]'"


def make(name: str, **options: Any) -> Any:
    """The JAX environment of game ``name`` with ``options`` (a ``pgx.Env``)."""
    from quarkade import load_game

    game = load_game(name, **options)  # unknown names and bad options are refused here
    if name not in JAX_GAMES:
        raise GameOptionError(f"{game.title} has no JAX environment; the games that have "
                              f"one are: {', '.join(JAX_GAMES)}")
    return _env(game)


def rules_of(game: Any) -> Any:
    """The JAX rules of a reference ``Game`` (its options fix the shapes)."""
    if game.name == "hadronize":
        from quarkade.jax import hadronize as module
    elif game.name == "dead-cat":
        from quarkade.jax import dead_cat as module  # type: ignore[no-redef]
    elif game.name == "card-commons":
        from quarkade.jax import card_commons as module  # type: ignore[no-redef]
    else:
        raise GameOptionError(f"{game.title} has no JAX environment; the games that have "
                              f"one are: {', '.join(JAX_GAMES)}")
    return module.rules(game)


def _env(game: Any) -> Any:
    from quarkade.jax.env import JaxEnv

    return JaxEnv(rules_of(game))


__all__ = ["INSTALL", "JAX_GAMES", "make", "rules_of"]
