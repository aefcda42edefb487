"""Holding a compiled engine (``games/<game>/compiled.py``) to its reference engine.

``compiled_games`` plays seeded games with the compiled engine, one ``apply_action`` at a
time, and keeps their actions; ``check_game`` replays one on the reference engine and,
at every position on the way, compares what both engines say: whose move, the legal
actions, the chance outcomes and their probabilities, the next state after the action
played and after a few other legal ones (in the compiled layout, through the bridge),
and the returns. ``check_position`` does that for one position.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from quarkade.core import jit
from quarkade.core.protocol import CHANCE, Game, State
from quarkade.core.rng import sample_chance


@dataclass
class Checked:
    """What a differential run compared (so a test can say it compared enough)."""

    positions: int = 0
    children: int = 0
    terminals: int = 0
    decisions: int = 0
    chance: int = 0
    phases: set[int] = field(default_factory=set)  # the phases (compiled ids) seen


def compiled_games(compiled: Any, game: Game, policies: list[int], count: int, seed: int
                   ) -> list[list[int]]:
    """The actions of ``count`` compiled games, seat ``s`` playing ``policies[s % len]``."""
    players = game.num_players
    template = compiled.new_state(game)
    streams = np.zeros(players + 1, np.uint64)
    seats = np.array([policies[s % len(policies)] for s in range(players)], np.int64)
    record = np.zeros(100_000, np.int64)
    histories = []
    for index in range(count):
        jit.seed_streams(streams, jit.game_seed(seed, index))
        state = template.copy()
        _, _, actions, _ = compiled.play_stepwise(state, streams, seats, record)
        assert actions <= record.shape[0]
        histories.append(record[:actions].tolist())
    return histories


def reference_games(game: Game, policy: Any, count: int, seed: int) -> list[list[int]]:
    """The actions of ``count`` reference games, each seat playing ``policy(state, rng)``
    (for positions the compiled agents seldom reach)."""
    rng = random.Random(seed)
    histories = []
    for _ in range(count):
        state = game.new_initial_state()
        while not state.is_terminal():
            state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                               else policy(state, rng))
        histories.append(state.history())
    return histories


def check_game(compiled: Any, game: Game, history: list[int], rng: random.Random,
               checked: Checked, others: int = 3) -> State:
    """Replay ``history`` on the reference engine, checking every position on the way."""
    state = game.new_initial_state()
    for action in history:
        check_position(compiled, state, rng, checked, action, others)
        state.apply_action(action)
    check_position(compiled, state, rng, checked, None, others)
    assert state.is_terminal(), "the compiled game ended where the reference goes on"
    return state


def check_position(compiled: Any, state: State, rng: random.Random, checked: Checked,
                   played: int | None = None, others: int = 3) -> None:
    """Both engines agree at ``state``: whose move, legal actions, chance outcomes, the
    next state after ``played`` and ``others`` more legal actions, and returns."""
    array = compiled.to_compiled(state)
    before = array.tobytes()
    player = state.current_player()
    assert compiled.current_player(array) == player, _where(state, "current player")
    buffer = np.zeros(compiled.MAX_ACTIONS, np.int64)
    count = compiled.legal_actions(array, buffer)
    legal = state.legal_actions()
    assert buffer[:count].tolist() == legal, _where(state, "legal actions")
    weights = np.zeros(compiled.MAX_ACTIONS, np.int64)
    count = compiled.chance_outcomes(array, buffer, weights)
    outcomes = state.chance_outcomes()
    assert buffer[:count].tolist() == [a for a, _ in outcomes], _where(state, "chance")
    total = weights[:count].sum()
    for (_, probability), weight in zip(outcomes, weights[:count], strict=True):
        assert abs(weight / total - probability) < 1e-12, _where(state, "probabilities")
    values = np.zeros(state.game.num_players, np.float64)
    compiled.returns(array, values)
    assert values.tolist() == state.returns(), _where(state, "returns")
    assert array.tobytes() == before, _where(state, "a query changed the compiled state")
    checked.positions += 1
    checked.phases.add(int(array[compiled.PHASE]))
    if state.is_terminal():
        checked.terminals += 1
        return
    if player == CHANCE:
        checked.chance += 1
    else:
        checked.decisions += 1
    tried = [played] if played is not None else []
    tried += [legal[int(rng.random() * len(legal))] for _ in range(others)]
    for action in dict.fromkeys(tried):
        child = state.clone()
        child.apply_action(action)
        step = array.copy()
        compiled.apply_action(step, action)
        expected = compiled.to_compiled(child)
        assert step.tobytes() == expected.tobytes(), _where(
            state, f"state after action {action}: compiled {step.tolist()} "
            f"reference {expected.tolist()}")
        checked.children += 1


def _where(state: State, what: str) -> str:
    return f"{what} differ after {state.history()} ({state.game!r})"


def assert_play_one_is_stepwise(compiled: Any, state: State, policies: list[int],
                                seeds: range) -> None:
    """From ``state``, the fast ``play_one`` and ``play_stepwise`` play the same games:
    the same draws in the same order, the same results and the same final state."""
    players = state.game.num_players
    seats = np.array([policies[s % len(policies)] for s in range(players)], np.int64)
    template = compiled.to_compiled(state)
    streams = np.zeros(players + 1, np.uint64)
    for seed in seeds:
        jit.seed_streams(streams, seed)
        fast, slow = template.copy(), template.copy()
        one = compiled.play_one(fast, streams.copy(), seats)
        stepwise = compiled.play_stepwise(slow, streams.copy(), seats, np.zeros(0, np.int64))
        assert one == stepwise, (state.game, state.history(), policies, seed)
        assert fast.tobytes() == slow.tobytes(), (state.game, state.history(), policies, seed)


def midgame_states(game: Game, count: int, seed: int) -> list[State]:
    """States part way through random games, at any kind of node (mid-turn included)."""
    rng = random.Random(seed)
    states = []
    for _ in range(count):
        state = game.new_initial_state()
        for _ in range(rng.randrange(80)):
            if state.is_terminal():
                break
            state.apply_action(sample_chance(state, rng) if state.is_chance_node()
                               else rng.choice(state.legal_actions()))
        states.append(state)
    return states


def agree_at_positions(compiled: Any, name: str, variants: list[dict[str, Any]],
                       policies: list[list[int]], positions: int, others: int,
                       reference_policy: Any = None, games: int = 20) -> tuple[Checked, list]:
    """``check_game`` on batches of compiled games of each variant (the seats' policies
    taking turns from ``policies``), and of reference games whose seats play
    ``reference_policy(state, rng)`` if given, until ``positions`` positions have been
    compared, spread evenly over the variants. Returns what was compared and the final
    reference states."""
    from quarkade import load_game

    checked = Checked()
    finals = []
    rng = random.Random(17)
    for number, options in enumerate(variants):
        game = load_game(name, **options)
        reached = checked.positions
        batch = 0
        while checked.positions - reached < positions // len(variants):
            seed = 1000 * number + batch
            histories = compiled_games(compiled, game, policies[batch % len(policies)], games,
                                       seed)
            if reference_policy is not None:
                histories += reference_games(game, reference_policy, games // 2, seed)
            for history in histories:
                finals.append(check_game(compiled, game, history, rng, checked, others))
            batch += 1
    return checked, finals


def assert_compiled_perft(compiled: Any, perft_file: Any) -> None:
    """The compiled engine's perft counts from every position of a game's perft.json."""
    from tests.perft import load_cases, position

    for case in load_cases(perft_file):
        array = compiled.to_compiled(position(case))
        for depth, count in case["counts"].items():
            assert compiled_perft(compiled, array, int(depth)) == count, case["name"]


def compiled_perft(compiled: Any, array: np.ndarray, depth: int) -> int:
    if depth == 0 or array[compiled.PHASE] == compiled.OVER:
        return 1
    buffer = np.zeros(compiled.MAX_ACTIONS, np.int64)
    total = 0
    for action in buffer[:compiled.legal_actions(array, buffer)]:
        if depth == 1:
            total += 1
            continue
        child = array.copy()
        compiled.apply_action(child, int(action))
        total += compiled_perft(compiled, child, depth - 1)
    return total


def assert_bridge_round_trips(compiled: Any, game: Game, policies: list[int],
                              other_game: Game) -> None:
    """Along a few compiled games: a reference state taken to the compiled layout and back
    has the same layout, legal actions and chance outcomes, and agrees with the compiled
    engine; a layout is refused for a game of other options."""
    rng = random.Random(1)
    checked = Checked()
    state = game.new_initial_state()
    for history in compiled_games(compiled, game, policies, 5, 2):
        state = game.new_initial_state()
        for action in history:
            back = compiled.from_compiled(game, compiled.to_compiled(state))
            assert compiled.to_compiled(back).tobytes() == compiled.to_compiled(state).tobytes()
            assert back.legal_actions() == state.legal_actions()
            assert back.chance_outcomes() == state.chance_outcomes()
            check_position(compiled, back, rng, checked)
            state.apply_action(action)
    try:
        compiled.from_compiled(other_game, compiled.to_compiled(state))
    except ValueError as refused:
        assert "another game" in str(refused)
    else:
        raise AssertionError("a layout of other options was taken")
