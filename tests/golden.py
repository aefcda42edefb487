"""Golden text: compare a render with a file; QUARKADE_UPDATE_GOLDEN=1 rewrites the file."""

from __future__ import annotations

import io
import os
from pathlib import Path

from rich.console import Console


def render_text(renderable, width: int = 80) -> str:
    out = io.StringIO()
    Console(width=width, file=out, color_system=None, highlight=False).print(renderable)
    return out.getvalue()


def assert_golden(text: str, path: Path) -> None:
    if os.environ.get("QUARKADE_UPDATE_GOLDEN"):
        path.write_text(text, encoding="utf-8")
    assert path.exists(), f"no golden file {path}; run with QUARKADE_UPDATE_GOLDEN=1 once"
    assert text == path.read_text(encoding="utf-8")
