"""The docs hold to the code: every test they cite exists, and the version is one."""

import ast
import re
import tomllib
from pathlib import Path

import quarkade

ROOT = Path(__file__).resolve().parents[1]
# A test's name as docs cite it: ``test_...``, or a prefix of one written ``test_..._...``.
CITED = re.compile(r"\b(test_[A-Za-z0-9_]*[A-Za-z0-9])(_\.\.\.)?(?!\w|\.py)")


def defined_tests():
    """Every test function and method defined under tests/."""
    names = set()
    for path in (ROOT / "tests").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and \
                    node.name.startswith("test_"):
                names.add(node.name)
    return names


def cited_tests():
    """(doc, name, whether a prefix) for every test name the docs cite (docs/, the README
    and the changelog)."""
    docs = [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md", ROOT / "CHANGELOG.md"]
    for doc in docs:
        for found in CITED.finditer(doc.read_text(encoding="utf-8")):
            yield doc.relative_to(ROOT), found.group(1), bool(found.group(2))


def test_every_test_the_docs_cite_exists():
    names = defined_tests()
    cited = list(cited_tests())
    assert len(cited) > 50  # the docs do cite tests: an empty list would prove nothing
    missing = [f"{doc}: {name}{'_...' if prefix else ''}" for doc, name, prefix in cited
               if not (any(n.startswith(name + "_") for n in names) if prefix
                       else name in names)]
    assert not missing, "docs cite tests that do not exist:\n" + "\n".join(missing)


def test_the_version_is_the_same_in_the_package_the_build_and_the_changelog():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    released = re.findall(r"^## \[(\d+\.\d+\.\d+)\] - \d{4}-\d{2}-\d{2}$", changelog, re.M)
    assert project["project"]["version"] == quarkade.__version__ == released[0]
    assert "## [Unreleased]" in changelog.split(f"## [{released[0]}]")[0]


def test_the_reference_pages_stay_short_enough_to_read():
    """PERFORMANCE and AGENTS are references (current figures and their commands), kept to
    300 lines each; what they used to say goes to CHANGELOG.md."""
    for name in ("PERFORMANCE.md", "AGENTS.md"):
        lines = len((ROOT / "docs" / name).read_text(encoding="utf-8").splitlines())
        assert lines <= 300, f"docs/{name} has {lines} lines; keep it to 300"
