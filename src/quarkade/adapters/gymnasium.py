"""Every Quarkade game as a single-agent Gymnasium environment: one seat against bots
(``pip install quarkade[rl]``).

>>> import gymnasium
>>> import quarkade.adapters.gymnasium
>>> env = gymnasium.make("quarkade/hadronize-v0", opponent="greedy", players=3)
>>> observation, info = env.reset(seed=1)
>>> observation.shape, int(info["action_mask"].sum())
((59,), 3)

Importing this module registers ``quarkade/<game>-v0`` for every game (``QuarkadeEnv``
with ``game_name`` set). The learner plays ``seat`` (0 by default; None draws a seat per
episode); every other seat is played by ``opponent``, an agent spec as the simulator takes
them (``"greedy"``, ``"random"``, ``"mcts:iterations=200"``, see ``quarkade agents``), an
``Agent``, or a list of either, one per other seat in seat order. Chance and the
opponents play between the learner's decisions, with rngs drawn from the episode's seed.

Observation: the game's fixed-size encoding of the learner's view (float32 in [0, 1], see
docs/RESEARCH.md). ``info["action_mask"]`` (int8, one per action id) marks the legal
actions. Reward: the learner's return when the game ends (zero-sum; with two players
+1 / -1 / 0), else 0.

An illegal action is not played: the episode ends (``terminated``) with reward
``illegal_reward`` (default -1.0, a loss) and ``info["illegal_action"]`` set to the action.
"""

from __future__ import annotations

import copy
import random
from collections.abc import Sequence
from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from quarkade.adapters.common import Observations, render_text
from quarkade.agents.registry import make_agent
from quarkade.core.agent import Agent, turn_for
from quarkade.core.errors import AgentSpecError, IllegalActionError
from quarkade.core.protocol import State
from quarkade.core.registry import list_games, load_game
from quarkade.core.rng import derived_rng, sample_chance

ILLEGAL_REWARD = -1.0


class QuarkadeEnv(gymnasium.Env):
    """One seat of ``game_name`` (with ``options``) against ``opponent``."""

    metadata: dict[str, Any] = {  # noqa: RUF012 - declared as Gymnasium declares it
        "render_modes": ["ansi"], "render_fps": 1}

    def __init__(self, game_name: str, opponent: str | Agent | Sequence[str | Agent] = "greedy",
                 seat: int | None = 0, illegal_reward: float = ILLEGAL_REWARD,
                 render_mode: str | None = None, **options: Any) -> None:
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode {render_mode!r} is not offered; use None or ansi")
        self.game = load_game(game_name, **options)
        n = self.game.num_players
        if seat is not None and not (type(seat) is int and 0 <= seat < n):
            raise ValueError(f"seat {seat!r}: {game_name} with {n} players has seats "
                             f"0-{n - 1} (or None for a seat drawn per episode)")
        self.seat_option = seat
        others = [opponent] * (n - 1) if isinstance(opponent, str | Agent) else list(opponent)
        if len(others) != n - 1:
            raise AgentSpecError(f"opponent: {n - 1} agents are needed for the other seats "
                                 f"of {game_name} with {n} players, got {len(others)}")
        self.opponents = others
        # A spec is read once, here, which also refuses a bad one now rather than at reset;
        # every episode then plays fresh copies of the never-used agent it made (as the
        # simulator does), so no bot carries memory from one episode into the next.
        self._prototypes = {spec: make_agent(spec, game_name)
                            for spec in others if isinstance(spec, str)}
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self._observations = Observations(self.game)
        size = self._observations.coding.size
        self.observation_space = spaces.Box(0.0, 1.0, (size,), np.float32)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions)
        self.game_state: State = self.game.new_initial_state()
        self.seat = 0 if seat is None else seat
        self._agents: dict[int, Agent] = {}
        self._rngs: dict[int, random.Random] = {}
        self._chance = random.Random(0)
        self._over = True

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        episode = int(self.np_random.integers(2**62))
        self._chance = derived_rng(episode, "chance")
        n = self.game.num_players
        if self.seat_option is None:
            self.seat = derived_rng(episode, "learner").randrange(n)
        others = [s for s in range(n) if s != self.seat]
        self._agents = {s: copy.deepcopy(self._prototypes[spec]) if isinstance(spec, str)
                        else spec for s, spec in zip(others, self.opponents, strict=True)}
        self._rngs = {s: derived_rng(episode, f"seat{s}") for s in others}
        self.game_state = self.game.new_initial_state()
        self._over = False
        self._advance()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._over:
            raise IllegalActionError("the episode is over; call reset() to start another")
        state = self.game_state
        chosen = int(action)
        if chosen not in state.legal_actions():
            self._over = True
            info = {**self._info(), "illegal_action": chosen}
            return self._observation(), self.illegal_reward, True, False, info
        state.apply_action(chosen)
        self._advance()
        reward = 0.0
        if state.is_terminal():
            self._over = True
            reward = float(state.returns()[self.seat])
        return self._observation(), reward, self._over, False, self._info()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        names = [("you" if s == self.seat else f"seat {s}")
                 for s in range(self.game.num_players)]
        return render_text(self.game, self.game_state.view(self.seat), names, self.seat)

    def _advance(self) -> None:
        """Chance and the opponents play until the learner must act or the game ends."""
        state = self.game_state
        while not state.is_terminal():
            if state.is_chance_node():
                state.apply_action(sample_chance(state, self._chance))
                continue
            player = state.current_player()
            if player == self.seat:
                return
            turn = turn_for(state)
            state.apply_action(self._agents[player].act(turn, self._rngs[player]))

    def _observation(self) -> np.ndarray:
        return self._observations.observation(self.game_state, self.seat)

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self._observations.mask(self.game_state, self.seat),
                "seat": self.seat}


def env_id(game_name: str) -> str:
    """The Gymnasium id under which ``game_name`` is registered."""
    return f"quarkade/{game_name}-v0"


for _name in list_games():
    if env_id(_name) not in gymnasium.registry:
        gymnasium.register(id=env_id(_name), entry_point="quarkade.adapters.gymnasium:QuarkadeEnv",
                           kwargs={"game_name": _name})
