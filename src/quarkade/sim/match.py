"""Play one game between agents, chance drawn from a seed, and keep its record.

The same game, agents and seed always give the same game: chance and each seat's agent
get their own rng derived from the seed, so one agent's choices never shift another's
randomness.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from quarkade.agents.contained import faults_of
from quarkade.core.agent import Agent, turn_for
from quarkade.core.errors import IllegalActionError
from quarkade.core.protocol import CHANCE, Game, State
from quarkade.core.records import GameRecord, Seat
from quarkade.core.rng import derived_rng, sample_chance


@dataclass(frozen=True)
class MatchEvent:
    """One action as it happens: who took it (-1 for chance), its id, and the state before."""

    player: int
    action: int
    before: State
    after: State


def play_game(
    game: Game,
    agents: Sequence[Agent],
    seed: int | str,
    on_event: Callable[[MatchEvent], None] | None = None,
    max_actions: int = 1_000_000,
) -> State:
    """Play to the end and return the final state (no record: the simulator's fast path).

    ``on_event`` sees every action (for live display). An agent that returns an illegal
    action raises ``IllegalActionError`` naming the seat and agent.
    """
    if len(agents) != game.num_players:
        raise ValueError(f"{game.name} with {game.num_players} players needs "
                         f"{game.num_players} agents, got {len(agents)}")
    chance_rng = derived_rng(seed, "chance")
    seat_rngs = [derived_rng(seed, f"seat{seat}") for seat in range(game.num_players)]
    state = game.new_initial_state()
    for _ in range(max_actions):
        if state.is_terminal():
            return state
        player = state.current_player()
        if player == CHANCE:
            action = sample_chance(state, chance_rng)
        else:
            turn = turn_for(state)
            action = agents[player].act(turn, seat_rngs[player])
            if action not in turn.legal_actions:
                raise IllegalActionError(
                    f"seat {player} ({agents[player].spec}) chose {action!r}, which is not legal")
        before = state.clone() if on_event is not None else state
        state.apply_action(action)
        if on_event is not None:
            on_event(MatchEvent(player, action, before, state))
    if state.is_terminal():
        return state
    raise RuntimeError(f"{game.name} did not end within {max_actions} actions")


def play_match(
    game: Game,
    agents: Sequence[Agent],
    seed: int | str,
    names: Sequence[str] | None = None,
    on_event: Callable[[MatchEvent], None] | None = None,
    max_actions: int = 1_000_000,
) -> tuple[State, GameRecord]:
    """Play to the end (as ``play_game``); returns the final state and its record (which
    lists the faults of any plug-in bot that was stopped)."""
    state = play_game(game, agents, seed, on_event, max_actions)
    if names is None:
        names = [f"seat {seat}" for seat in range(game.num_players)]
    seats = [Seat(name, agent.spec) for name, agent in zip(names, agents, strict=True)]
    return state, GameRecord.from_state(state, seats, seed=seed, faults=faults_of(agents))
