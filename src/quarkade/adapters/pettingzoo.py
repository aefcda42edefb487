"""Every Quarkade game as a PettingZoo AEC environment (``pip install quarkade[rl]``).

>>> from quarkade.adapters.pettingzoo import env
>>> aec = env("hadronize", players=3)
>>> aec.reset(seed=7)
>>> aec.agent_selection in aec.possible_agents
True

Agents are ``player_0`` ... ``player_{n-1}``, seat by seat. An agent observes a dict:
``observation``, the game's fixed-size encoding of its own view (float32 in [0, 1], see
docs/RESEARCH.md), and ``action_mask`` (int8, one per action id; all zero unless it is that
agent's turn). Actions are the game's action ids. Chance (deals, draws, coins) is resolved
inside the environment with an rng seeded by ``reset(seed=...)``, so ``agent_selection``
is always the seat to move. Rewards come at the end: the game's returns (zero-sum; with
two players +1 / -1 / 0).

``env`` adds PettingZoo's usual wrappers (an illegal action ends the game with -1 for the
agent that played it, actions are checked against the action space, the call order is
enforced); ``raw_env`` has none and refuses an illegal action with ``IllegalActionError``.
``render_mode="ansi"`` makes ``render()`` return the game's terminal rendering of the public
(spectator's) view as text.
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from quarkade.adapters.common import Observations, render_text
from quarkade.core.protocol import SPECTATOR, State
from quarkade.core.registry import load_game
from quarkade.core.rng import sample_chance

ILLEGAL_REWARD = -1.0


def env(game_name: str, render_mode: str | None = None, **options: Any) -> AECEnv:
    """``raw_env`` with PettingZoo's usual wrappers (see the module docstring)."""
    wrapped: AECEnv = raw_env(game_name, render_mode=render_mode, **options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=ILLEGAL_REWARD)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


class raw_env(AECEnv):  # PettingZoo's name for the unwrapped environment
    """One game of ``game_name`` with ``options`` (``players=`` among them) per episode."""

    # An instance's name says its game (quarkade_hadronize_v0); PettingZoo reads metadata.
    metadata: dict[str, Any] = {  # noqa: RUF012 - declared as PettingZoo declares it
        "render_modes": ["ansi"], "name": "quarkade_v0", "is_parallelizable": False,
        "render_fps": 1}

    def __init__(self, game_name: str, render_mode: str | None = None, **options: Any) -> None:
        super().__init__()
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not offered; "
                             f"use None or {', '.join(self.metadata['render_modes'])}")
        self.game = load_game(game_name, **options)
        self.render_mode = render_mode
        self.metadata = {**self.metadata, "name": f"quarkade_{self.game.name}_v0"}
        self._observations = Observations(self.game)
        actions = self.game.num_distinct_actions
        n = self.game.num_players
        self.possible_agents = [f"player_{seat}" for seat in range(n)]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        observation = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, (self._observations.coding.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (actions,), np.int8),
        })
        self.observation_spaces = {agent: observation for agent in self.possible_agents}
        self.action_spaces = {agent: spaces.Discrete(actions)
                              for agent in self.possible_agents}
        self._rng: random.Random | None = None
        self.game_state: State = self.game.new_initial_state()

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """A new game; ``seed`` fixes its chance (without it, chance goes on from the last
        seed, or from the system's entropy before any)."""
        if seed is not None or self._rng is None:
            self._rng = random.Random(seed)
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.game_state = self.game.new_initial_state()
        self._advance(0)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        state = self.game_state
        seat = self._seat[agent]
        observations = self._observations
        return {"observation": observations.observation(state, seat),
                "action_mask": observations.mask(state, seat)}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.game_state.apply_action(int(action))
        self._advance(self._seat[agent])

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        return render_text(self.game, self.game_state.view(SPECTATOR), self.possible_agents)

    def close(self) -> None:
        pass

    def _advance(self, last_seat: int) -> None:
        """Play chance to the next decision; at the end, hand out the returns."""
        state = self.game_state
        rng = self._rng
        while state.is_chance_node():
            state.apply_action(sample_chance(state, rng))  # type: ignore[arg-type]
        if not state.is_terminal():
            self.agent_selection = self.possible_agents[state.current_player()]
            return
        for agent, value in zip(self.possible_agents, state.returns(), strict=True):
            self.rewards[agent] = value
        self.terminations = dict.fromkeys(self.agents, True)
        self._accumulate_rewards()
        self.agent_selection = self.possible_agents[(last_seat + 1) % len(self.possible_agents)]
