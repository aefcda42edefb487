"""Holding the JAX rules (``quarkade.jax``) to the reference engines, position by position.

``reference_positions`` plays seeded reference games (random legal moves, chance drawn
with its probabilities) and keeps every position on the way, chance nodes and the end
included. ``check_positions`` lays them out as boards (the bridge) and asks the JAX rules,
in one vmapped and jitted call, what the reference engine says at each: whose move, the
legal actions (or chance outcomes) as a mask, the chance probabilities, the returns, every
seat's observation (the research encoding, ``encode_state``), and the board after the
action played there and after another legal one. The reference's answers are gathered
into arrays and compared in one go; a difference names the first position it is found at.

Compiling the rules is most of a run's time, so a checker is compiled once per test
process for each *compiled shape* (``shape_of``): option sets that differ only in what the
board holds (Hadronize's goal and turn cap, Dead Cat's peek_first) share it, and every
batch has the same size.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

import jax
import jax.numpy as jnp
import numpy as np

from quarkade.core.protocol import CHANCE, TERMINAL, Game, State
from quarkade.core.registry import game_part
from quarkade.core.rng import sample_chance
from quarkade.jax import rules_of


@dataclass
class Compared:
    """What a differential run compared (so a test can say it compared enough)."""

    positions: int = 0
    children: int = 0
    decisions: int = 0
    chance: int = 0
    terminals: int = 0
    phases: set[int] = field(default_factory=set)


def reference_positions(game: Game, count: int, seed: int) -> list[tuple[State, int]]:
    """``count`` positions of seeded random reference games, each with the action played
    there (-1 at the end of a game)."""
    rng = random.Random(seed)
    found: list[tuple[State, int]] = []
    while len(found) < count:
        state = game.new_initial_state()
        while not state.is_terminal() and len(found) < count:
            action = sample_chance(state, rng) if state.is_chance_node() \
                else rng.choice(state.legal_actions())
            found.append((state.clone(), action))
            state.apply_action(action)
        if state.is_terminal() and len(found) < count:
            found.append((state, -1))
    return found


def shape_of(rules: Any) -> tuple[Any, ...]:
    """What a game's JAX rules compile differently for: the game and its seats, and Card
    Commons' variant and field; every other option (Hadronize's goal and turn cap, Dead
    Cat's peek_first) is a slot of the board the rules read."""
    options = rules.game.options
    return (rules.name, rules.num_players, options.get("variant"), options.get("torus"))


_CHECKERS: dict[tuple[Any, ...], Any] = {}


def checker(rules: Any) -> Any:
    """One jitted, vmapped call: every answer of the JAX rules at a batch of boards, and
    the boards after a batch of actions (compiled once per ``shape_of``)."""
    shape = shape_of(rules)
    if shape not in _CHECKERS:

        def answers(board: jax.Array) -> tuple[Any, ...]:
            seats = jnp.arange(rules.num_players)
            observations = jax.vmap(lambda seat: rules.observe(board, seat))(seats)
            return (rules.current_player(board), rules.legal_mask(board),
                    rules.chance_weights(board), rules.returns(board), observations)

        def both(boards: jax.Array, parents: jax.Array, actions: jax.Array
                 ) -> tuple[Any, ...]:
            return jax.vmap(answers)(boards), jax.vmap(rules.apply)(parents, actions)

        _CHECKERS[shape] = jax.jit(both)
    return _CHECKERS[shape]


def first_difference(found: np.ndarray, expected: np.ndarray, atol: float = 0) -> int | None:
    """The first position (leading index) where two arrays differ, or None."""
    differs = ~np.isclose(found, expected, atol=atol, rtol=0) if atol else found != expected
    rows = np.flatnonzero(differs.reshape(len(found), -1).any(axis=1))
    return int(rows[0]) if len(rows) else None


def check_positions(game: Game, positions: list[tuple[State, int]], seed: int,
                    compared: Compared) -> None:
    """Both engines agree at every position (see the module docstring)."""
    rules = rules_of(game)
    encode_state = game_part(game.name, "encode").encode_state
    rng = random.Random(seed)
    count, players = len(positions), game.num_players
    movers = np.zeros(count, np.int32)
    masks = np.zeros((count, rules.num_actions), np.bool_)
    chance = np.zeros((count, rules.num_actions), np.float64)
    returns = np.zeros((count, players), np.float64)
    observations = np.zeros((count, players, rules.observation_size), np.float32)
    parents, actions, children = [], [], []
    for index, (state, action) in enumerate(positions):
        movers[index] = mover = state.current_player()
        legal = state.legal_actions()
        masks[index, legal] = True
        if mover == CHANCE:
            for outcome, probability in state.chance_outcomes():
                chance[index, outcome] = probability
            compared.chance += 1
        elif mover == TERMINAL:
            compared.terminals += 1
        else:
            compared.decisions += 1
        returns[index] = state.returns()
        for seat in range(players):
            encode_state(state, seat, memoryview(observations[index, seat]))
        for chosen in (action, rng.choice(legal) if legal else -1):
            if chosen >= 0:
                child = state.clone()
                child.apply_action(chosen)
                parents.append(index)
                actions.append(chosen)
                children.append(rules.to_board(child))
    boards = np.stack([rules.to_board(state) for state, _ in positions])
    pad = 2 * count - len(actions)  # every batch of children one size: no recompiling
    found = jax.device_get(checker(rules)(
        jnp.asarray(boards), jnp.asarray(boards[parents + parents[:1] * pad]),
        jnp.asarray(np.array(actions + actions[:1] * pad, np.int32))))
    (player, mask, weights, jax_returns, jax_observations), after = found
    after = after[:len(actions)]

    def where(index: int) -> str:
        return f"{game!r} after {positions[index][0].history()}"

    for name, ours, theirs, atol in (("current player", player, movers, 0),
                                     ("legal actions", mask, masks, 0),
                                     ("returns", jax_returns, returns, 1e-6)):
        index = first_difference(ours, theirs, atol)
        assert index is None, f"{name} differ {where(index)}: {ours[index]} != {theirs[index]}"
    at_chance = movers == CHANCE
    totals = weights[at_chance].sum(axis=1, keepdims=True)
    index = first_difference(weights[at_chance] / totals, chance[at_chance], 1e-6)
    assert index is None, f"chance probabilities differ {where(np.flatnonzero(at_chance)[index])}"
    index = first_difference(jax_observations, observations, 1e-6)
    if index is not None:
        seat = int(np.flatnonzero(~np.isclose(jax_observations[index], observations[index],
                                              atol=1e-6).all(axis=1))[0])
        places = np.flatnonzero(~np.isclose(jax_observations[index][seat],
                                            observations[index][seat], atol=1e-6))
        raise AssertionError(f"seat {seat}'s observation differs {where(index)}: places "
                             f"{places.tolist()}")
    expected_after = np.stack(children)
    index = first_difference(after, expected_after)
    if index is not None:
        slots = np.flatnonzero(after[index] != expected_after[index]).tolist()
        raise AssertionError(f"board after {actions[index]} differs {where(parents[index])}: "
                             f"slots {slots}")
    compared.positions += count
    compared.children += len(children)
    compared.phases |= {int(phase) for phase in boards[:, rules.compiled.PHASE]}
