"""PettingZoo: every game, variant and player count as an AEC environment.

>>> from ludotheque.research.pettingzoo import env
>>> zoo = env("pylos", variant="kids", render_mode="ansi")
>>> zoo.reset(seed=0)
>>> observation, reward, termination, truncation, info = zoo.last()
>>> zoo.agent_selection, observation["observation"].shape, int(observation["action_mask"].sum())
('player_0', (67,), 16)
>>> zoo.step(5)
>>> print(zoo.render().splitlines()[3])
2 .L..   1 ...

Agents are ``player_0`` … ``player_<n-1>`` (the seats). Each observation is a dict: ``observation``,
the agent's planes built from ``view(seat)`` only, and ``action_mask``, 1 for each legal action of
the agent to move (zeros for the others). Rewards come at the end: +1 for the winners, -1 for the
others, 0 in a draw. An Imbrication capture chain is one step per hop, the same agent acting
until the chain ends. ``reset(seed)`` seeds the game (Imbrication's shuffles). As in PettingZoo's
classic environments, an illegal action ends the game with -1 for the agent that made it.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import numpy.typing as npt
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .encoding import Encoding, Node

Observation = dict[str, npt.NDArray[Any]]
SEED_BOUND = 2**53


def env(
    game_id: str, variant: str | None = None, players: int | None = None, render_mode: str | None = None
) -> AECEnv:
    """The AEC environment of ``game_id`` (defaults: the game's variant and player count), with
    PettingZoo's usual wrappers: an illegal action ends the game, actions out of range and calls
    out of order raise."""
    raw: AECEnv = raw_env(game_id, variant, players, render_mode)
    wrapped: AECEnv = wrappers.TerminateIllegalWrapper(raw, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    wrapped = wrappers.OrderEnforcingWrapper(wrapped)
    return wrapped


class raw_env(AECEnv):  # type: ignore[misc]
    """The unwrapped AEC environment (see :func:`env`); PettingZoo's name for it."""

    def __init__(
        self, game_id: str, variant: str | None = None, players: int | None = None,
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        self.encoding = Encoding.of(game_id, variant, players)
        game = self.encoding.game
        self.metadata = {"render_modes": ["ansi"], "name": f"ludotheque_{game.id}_v0",
                         "is_parallelizable": False, "render_fps": 1}
        self.render_mode = render_mode
        self.possible_agents = [f"player_{p}" for p in range(game.players)]
        self.agents = list(self.possible_agents)
        observation = spaces.Box(0.0, 1.0, self.encoding.observation_shape, np.float32)
        mask = spaces.Box(0, 1, (self.encoding.num_actions,), np.int8)
        self.observation_spaces = {
            agent: spaces.Dict({"observation": observation, "action_mask": mask})
            for agent in self.possible_agents
        }
        self.action_spaces = {
            agent: spaces.Discrete(self.encoding.num_actions) for agent in self.possible_agents
        }
        self._np_random, _ = seeding.np_random(None)
        self.node = Node.start(self.encoding, 0)
        self._reset_bookkeeping()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def _reset_bookkeeping(self) -> None:
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {agent: {} for agent in self.agents}
        self.agent_selection = self._agent_to_move()

    def _agent_to_move(self) -> str:
        to_move = self.node.to_move
        return self.possible_agents[0 if to_move is None else to_move]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._np_random, _ = seeding.np_random(seed)
        game_seed = int(self._np_random.integers(SEED_BOUND))
        self.node = Node.start(self.encoding, game_seed)
        self._reset_bookkeeping()

    def observe(self, agent: str) -> Observation:
        seat = self.possible_agents.index(agent)
        mask = (
            self.node.legal_mask()
            if agent == self.agent_selection and not self.node.is_over
            else np.zeros(self.encoding.num_actions, dtype=np.int8)
        )
        return {"observation": self.node.observation(seat), "action_mask": mask}

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        self._cumulative_rewards[agent] = 0.0
        self.node = self.node.apply(int(action))
        if self.node.is_over:
            returns = self.node.returns()
            self.rewards = {a: returns[p] for p, a in enumerate(self.possible_agents)}
            self.terminations = dict.fromkeys(self.agents, True)
            # Every agent is then stepped once more (``None``), the next seat first.
            self.agent_selection = self.possible_agents[
                (self.possible_agents.index(agent) + 1) % len(self.possible_agents)
            ]
        else:
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.agent_selection = self._agent_to_move()
        self._accumulate_rewards()

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return self.node.board_text()

    def close(self) -> None:
        pass
