"""Hadronize perft counts, kept as data in perft.json, freeze the move generator."""

from pathlib import Path

import pytest

from tests.perft import assert_counts, load_cases

CASES = load_cases(Path(__file__).with_name("perft.json"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft_counts(case):
    assert_counts(case)
