"""Where compiled code is kept on disk: one directory per body of compiled code, named after
a hash of every module that code is compiled from.

numba keeps a compiled function on disk and checks it against its own source file only.
But numba freezes into the machine code every module global a compiled function reads,
and inlines the compiled functions it calls, from whichever module they come: a weight in
``hadronize/bots.py``, a constant of ``rules.py``, a kernel of ``core/jit.py``. Edit one of
those and the cached code of the function that read it is stale, though its own file did
not change. So the directory is keyed on the hash of the sources it is compiled from: the
compiled modules themselves and every Quarkade module they import, transitively (found by
reading their import statements, so without importing anything). Edit any of them and
the code is compiled again, into a directory of its own.

``$QUARKADE_JIT_CACHE``, if set, is the directory (whatever the sources: for a cold start
in a benchmark, or a test); ``NUMBA_CACHE_DIR``, if set, wins over both (numba's own).
Nothing here imports numba.
"""

from __future__ import annotations

import ast
import hashlib
import os
from collections.abc import Iterable
from contextlib import contextmanager
from pathlib import Path
from typing import Any

PACKAGE = Path(__file__).resolve().parent.parent  # the quarkade package directory
NAME = PACKAGE.name


def module_file(module: str) -> Path | None:
    """The source file of Quarkade module ``module`` (dotted), if it is one."""
    parts = module.split(".")
    if parts[0] != NAME:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE).with_suffix("")
    parts = [NAME, *relative.parts]
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def imports(path: Path) -> set[Path]:
    """The Quarkade modules ``path`` takes names from: ``from quarkade.x import y`` counts
    ``x.y`` if that is a module, else ``x`` (a package's ``__init__`` for a package);
    ``import quarkade.x`` counts ``x``."""
    tree = ast.parse(path.read_text(), str(path))
    package = _module_name(path) if path.name == "__init__.py" else \
        _module_name(path).rpartition(".")[0]
    found: set[Path] = set()

    def add(module: str) -> bool:
        file = module_file(module)
        if file is not None:
            found.add(file)
        return file is not None

    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                add(alias.name)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the module's own package
                base = package.split(".")[:len(package.split(".")) - node.level + 1]
                module = ".".join(base + ([node.module] if node.module else []))
            else:
                module = node.module or ""
            for alias in node.names:
                if not add(f"{module}.{alias.name}"):
                    add(module)  # a name defined in the module (or package) itself
    return found


def closure(roots: Iterable[Path]) -> list[Path]:
    """``roots`` and every Quarkade module they import, transitively, sorted."""
    seen: set[Path] = set()
    waiting = [Path(root).resolve() for root in roots]
    while waiting:
        path = waiting.pop()
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        waiting.extend(imports(path) - seen)
    return sorted(seen)


def digest(paths: Iterable[Path]) -> str:
    """A hash of these files' names (within the package) and contents."""
    hashed = hashlib.sha256()
    for path in sorted(paths):
        hashed.update(str(path.relative_to(PACKAGE)).encode())
        hashed.update(b"\0")
        hashed.update(path.read_bytes())
        hashed.update(b"\0")
    return hashed.hexdigest()[:16]


def cache_dir(kind: str, roots: Iterable[Path]) -> Path:
    """The directory for the compiled code of ``roots`` (``kind`` names it for people):
    ``$NUMBA_CACHE_DIR`` or ``$QUARKADE_JIT_CACHE`` if set, else
    ``$XDG_CACHE_HOME/quarkade/jit/<kind>-<hash>`` (by default under ``~/.cache``), the
    hash over ``closure(roots)``."""
    chosen = os.environ.get("NUMBA_CACHE_DIR") or os.environ.get("QUARKADE_JIT_CACHE")
    if chosen:
        return Path(chosen)
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    return base / "quarkade" / "jit" / f"{kind}-{digest(closure(roots))}"


@contextmanager
def caching_into(config: Any, directory: Path) -> Any:
    """Within the block, functions numba is asked to cache (``cache=True``) are kept in
    ``directory``: numba picks a function's cache directory when it is decorated. Left to
    numba's own ``NUMBA_CACHE_DIR`` when that is set."""
    if os.environ.get("NUMBA_CACHE_DIR"):
        yield
        return
    before = config.CACHE_DIR
    config.CACHE_DIR = str(directory)
    try:
        yield
    finally:
        config.CACHE_DIR = before
