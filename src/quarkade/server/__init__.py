"""The web app: an authoritative server for every registered game, live over WebSocket.

Needs the ``web`` extra (``pip install 'quarkade[web]'``). ``create_app`` builds the ASGI
app; ``quarkade serve`` runs it with uvicorn (see ``quarkade.server.run``).
"""

from quarkade.server.app import create_app

__all__ = ["create_app"]
