"""Decoherence perft counts, kept as data in perft.json, freeze the move generator."""

from pathlib import Path

import pytest

from tests.perft import load_cases, perft, position

CASES = load_cases(Path(__file__).with_name("perft.json"))


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_perft_counts(case):
    state = position(case)
    for depth, count in case["counts"].items():
        assert perft(state, int(depth)) == count, f"depth {depth}"
