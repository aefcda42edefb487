"""The examples in docs/RESEARCH.md run as written (one per adapter)."""

import contextlib
import io
import re
import subprocess
import sys
from pathlib import Path

import pytest

RESEARCH = Path(__file__).parents[2] / "docs" / "RESEARCH.md"
EXAMPLES = re.findall(r"^```python\n(.*?)^```", RESEARCH.read_text(encoding="utf-8"),
                      re.S | re.M)


def test_the_guide_has_an_example_for_each_adapter():
    text = "\n".join(EXAMPLES)
    for module in ("pettingzoo", "openspiel", "gymnasium"):
        assert f"quarkade.adapters.{module}" in text


@pytest.mark.parametrize("code", EXAMPLES, ids=[f"example{i}" for i in range(len(EXAMPLES))])
def test_the_example_runs_and_reports(code):
    if "quarkade.jax" in code:  # in a process of its own: JAX's threads and a later fork
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              timeout=500, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip()
        return
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, str(RESEARCH), "exec"), {"__name__": "example"})
    assert printed.getvalue().strip()
