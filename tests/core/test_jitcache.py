"""The compiled code's disk cache is keyed on every module it is compiled from
(``quarkade.core.jitcache``): edit a constant that compiled code reads from another module
and the next run compiles new machine code instead of loading stale code."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import quarkade
from quarkade.core import jit, jitcache
from quarkade.games.card_commons.solve import jit as solve_jit

PACKAGE = Path(quarkade.__file__).resolve().parent

# A compiled function that reads a constant of another module: compiled greedy's score of a
# won game is ``lines.WIN`` (``games/decoherence/lines.py``), frozen into its machine code.
PROBE = """
import numba
import numpy as np
from quarkade.core import jit
from quarkade.games.decoherence.compiled import layout, lines
state = np.zeros(layout.SIZE, np.int64)
state[layout.PHASE] = 8  # over
state[layout.WINNERS] = 1  # seat 0 won
where = getattr(jit, "CACHE_DIR", None) or numba.config.CACHE_DIR
print(lines.score(state, 0, lines.GREEDY_WEIGHTS), where)
"""


def _scratch_package(tmp_path: Path) -> Path:
    root = tmp_path / "scratch"
    shutil.copytree(PACKAGE, root / "quarkade", ignore=shutil.ignore_patterns("__pycache__"))
    return root


def _probe(root: Path, cache: Path, pinned: Path | None = None) -> tuple[float, str]:
    env = {key: value for key, value in os.environ.items()
           if key not in ("QUARKADE_JIT_CACHE", "NUMBA_CACHE_DIR")}
    env.update(PYTHONPATH=str(root), XDG_CACHE_HOME=str(cache))
    if pinned is not None:
        env["QUARKADE_JIT_CACHE"] = str(pinned)
    done = subprocess.run([sys.executable, "-c", PROBE], env=env, capture_output=True,
                          text=True, check=True, cwd=root)
    value, where = done.stdout.split()
    return float(value), where


def _set_win(root: Path, value: str) -> None:
    lines = root / "quarkade" / "games" / "decoherence" / "lines.py"
    text = lines.read_text()
    assert text.count("WIN = 1000.0\n") == 1
    lines.write_text(text.replace("WIN = 1000.0\n", f"WIN = {value}\n"))


def test_a_changed_constant_in_a_scratch_copy_gets_new_machine_code(tmp_path):
    root = _scratch_package(tmp_path)
    cache = tmp_path / "cache"
    first, where = _probe(root, cache)
    assert first == 1000.0 and Path(where).is_relative_to(cache)
    assert any(Path(where).rglob("*.nbi"))  # kept on disk
    assert _probe(root, cache) == (first, where)  # loaded again from there
    _set_win(root, "2500.0")
    second, elsewhere = _probe(root, cache)
    assert second == 2500.0
    assert elsewhere != where


def test_a_cache_pinned_to_one_place_would_have_kept_the_stale_code(tmp_path):
    """Why the key matters: one directory whatever the sources (as ``$QUARKADE_JIT_CACHE``
    pins it, and as the old key, over the compiled modules only, left it) returns the old
    constant after the edit, since numba checks only the compiled function's own file."""
    root = _scratch_package(tmp_path)
    pinned = tmp_path / "pinned"
    assert _probe(root, tmp_path, pinned)[0] == 1000.0
    _set_win(root, "2500.0")
    assert _probe(root, tmp_path, pinned)[0] == 1000.0


def test_the_keys_cover_the_modules_compiled_code_reads():
    engines = {str(p.relative_to(PACKAGE)) for p in jitcache.closure(jit._roots())}
    for module in ("core/jit.py", "games/hadronize/policy.py", "games/hadronize/rules.py",
                   "games/decoherence/lines.py", "games/decoherence/table.py",
                   "games/decoherence/compiled/worlds.py", "games/dead_cat/rules.py",
                   "games/card_commons/policy.py", "agents/compiled_search.py"):
        assert module in engines, module
    solver = {str(p.relative_to(PACKAGE)) for p in jitcache.closure(solve_jit._roots())}
    for module in ("games/card_commons/solve/table.py", "games/card_commons/solve/tutorial.py",
                   "games/card_commons/solve/classic.py", "games/card_commons/solve/proof.py",
                   "games/card_commons/rules.py", "games/card_commons/notation.py"):
        assert module in solver, module
    assert "games/hadronize/rules.py" not in solver


def test_no_compiled_engine_reads_a_bot_module_or_an_agent():
    """Layers (core <- games <- agents): a game's compiled engine takes its weights from
    the game's policy modules (Decoherence: ``lines.py``), never from a bot module."""
    bots = {"bots.py", "lookahead.py", "rollout.py", "sleuth.py", "exact.py"}
    for game in quarkade.list_games():
        folder = PACKAGE / "games" / game.replace("-", "_")
        roots = [path for path in (folder / "compiled.py", *folder.glob("compiled/*.py"))
                 if path.is_file()]
        assert roots, f"{game} has no compiled engine"
        for path in jitcache.closure(roots):
            relative = path.relative_to(PACKAGE)
            assert relative.parts[0] != "agents" and relative.name not in bots, (game, relative)


def test_the_solver_s_key_changes_with_a_module_it_reads(tmp_path, monkeypatch):
    root = _scratch_package(tmp_path)
    monkeypatch.delenv("QUARKADE_JIT_CACHE", raising=False)
    monkeypatch.delenv("NUMBA_CACHE_DIR", raising=False)
    monkeypatch.setattr(jitcache, "PACKAGE", root / "quarkade")
    solve = root / "quarkade" / "games" / "card_commons" / "solve"
    roots = [solve / name for name in ("jit.py", "table.py", "tutorial.py", "classic.py")]
    before = jitcache.cache_dir("solve", roots)
    table = solve / "table.py"
    table.write_text(table.read_text().replace("EMPTY_KEY = -1", "EMPTY_KEY = -2"))
    middle = jitcache.cache_dir("solve", roots)
    rules = root / "quarkade" / "games" / "card_commons" / "rules.py"
    rules.write_text(rules.read_text() + "\n# an edit\n")
    assert len({before, middle, jitcache.cache_dir("solve", roots)}) == 3
