"""Perft for Quarkade games: count action sequences to a fixed depth, chance included.

A sequence ends early, and counts once, if it reaches the end of the game. Counts are kept
as data beside each game's tests (``perft.json``) and freeze its move generator.
"""

from __future__ import annotations

import json
from pathlib import Path

from quarkade import load_game


def perft(state, depth: int) -> int:
    if depth == 0 or state.is_terminal():
        return 1
    total = 0
    for action in state.legal_actions():
        child = state.clone()
        child.apply_action(action)
        total += perft(child, depth - 1)
    return total


def load_cases(path: Path) -> list[dict]:
    return json.loads(path.read_text())["positions"]


def position(case: dict):
    state = load_game(case["game"], **case["options"]).new_initial_state()
    for action in case["history"]:
        state.apply_action(action)
    return state


def assert_counts(case: dict) -> None:
    """Every depth's count of ``case`` (a perft.json position) matches the engine's."""
    state = position(case)
    for depth, count in case["counts"].items():
        assert perft(state, int(depth)) == count, f"{case['name']} depth {depth}"
