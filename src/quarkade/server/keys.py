"""Secrets: how they are made, how they are kept, and the session cookies' signing key.

A secret (a seat's token, a host token, an invite code, a device link, a device's learner
id) is 144 random bits given to its holder once; the database keeps only its SHA-256
(``digest``), and the server compares digests. A token with that much entropy needs no
salt or slow hash: nobody can guess one, and a leaked database gives nobody a way in.

The session cookies' signing key never enters the database: it comes from the
``QUARKADE_SECRET`` environment variable, else from a key file (made once, readable by
its owner only; several processes on one machine share it). A key an earlier version
kept in the database is moved to that file, so the sessions signed with it stay valid.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import secrets
from collections.abc import Callable
from pathlib import Path

from sqlalchemy.engine import make_url

SECRET_ENV = "QUARKADE_SECRET"
SECRET_FILE_ENV = "QUARKADE_SECRET_FILE"


def new_secret() -> str:
    """A fresh secret: 144 random bits, URL-safe (24 characters)."""
    return secrets.token_urlsafe(18)


def digest(secret: str) -> str:
    """What the database keeps of ``secret``: its SHA-256, 64 hex digits."""
    return hashlib.sha256(secret.encode("utf-8", "surrogateescape")).hexdigest()


def same(secret: str, stored: str | None) -> bool:
    """Whether ``secret`` is the one whose digest is ``stored`` (in constant time)."""
    return stored is not None and hmac.compare_digest(digest(secret), stored)


def key_file(url: str) -> Path:
    """Where the session key is kept for the database at ``url`` unless
    ``QUARKADE_SECRET_FILE`` says: beside a SQLite file, else in the user's state folder
    (one per database)."""
    chosen = os.environ.get(SECRET_FILE_ENV)
    if chosen:
        return Path(chosen).expanduser()
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        return Path(str(parsed.database)).expanduser().resolve().with_suffix(".key")
    state = Path(os.environ.get("XDG_STATE_HOME") or Path.home() / ".local" / "state")
    shown = parsed.render_as_string(hide_password=True)
    return state / "quarkade" / f"session-{digest(shown)[:16]}.key"


def session_key(path: Path, old: Callable[[], str | None] = lambda: None) -> str:
    """The session cookies' signing key: ``QUARKADE_SECRET``, else the key in ``path``
    (made now if missing: ``old()``, a key kept elsewhere before, else a new one)."""
    chosen = os.environ.get(SECRET_ENV)
    if chosen:
        return chosen
    try:
        return _read(path)
    except FileNotFoundError:
        pass
    path.parent.mkdir(parents=True, exist_ok=True)
    key = old() or secrets.token_urlsafe(48)
    # Written whole beside it, then linked into place: of several processes starting at
    # once, the first link wins and every other reads that key, never half of one.
    draft = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
    handle = os.open(draft, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(handle, "w") as written:
        written.write(key + "\n")
    try:
        os.link(draft, path)
    except FileExistsError:
        return _read(path)
    finally:
        draft.unlink()
    return key


def _read(path: Path) -> str:
    key = path.read_text().strip()
    if len(key) < 32:
        raise ValueError(f"the session key in {path} is too short (at least 32 characters)")
    return key
