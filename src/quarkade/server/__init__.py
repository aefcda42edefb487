"""The web app: an authoritative server for every registered game, live over WebSocket.

Needs the ``web`` extra (``pip install 'quarkade[web]'``). ``create_app`` builds the ASGI
app; ``quarkade serve`` runs it with uvicorn (see ``quarkade.server.run``).

``create_app`` is imported when first asked for, so a bot worker process (which imports
``quarkade.server.work``) starts without the web stack.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from quarkade.server.app import create_app

__all__ = ["create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from quarkade.server.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
