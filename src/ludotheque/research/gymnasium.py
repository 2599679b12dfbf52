"""Gymnasium: one seat of a game against our bots, as a single-agent environment.

>>> from ludotheque.research.gymnasium import make
>>> env = make("pylos", opponent="random", variant="kids")
>>> observation, info = env.reset(seed=0)
>>> observation["observation"].shape, int(observation["action_mask"].sum()), info["to_move"]
((67,), 16, 0)
>>> observation, reward, terminated, truncated, info = env.step(5)
>>> reward, terminated, info["moves"]
(0.0, False, ['1b2', '1d1'])

The agent plays ``seat`` (0 by default); every other seat is ``ai.bot(opponent, game, seed=...)``,
seeded from ``reset(seed)``, which also seeds the game (Imbrication's shuffles). Observations are
a dict: ``observation`` (the seat's planes, from ``view(seat)`` only) and ``action_mask``; the
mask is also in ``info``. The reward comes at the end: +1 for a win, -1 for a loss, 0 for a draw.
An Imbrication capture chain is one step per hop. An action outside the mask ends the episode with
-1 and ``info["illegal_action"]`` set (``action_space.sample(mask=...)`` draws legal ones).

Each game is also registered with Gymnasium as ``ludotheque/<id>-v0``:

>>> import gymnasium
>>> wrapped = gymnasium.make("ludotheque/expion-v0", opponent="random", players=2)
>>> wrapped.unwrapped.encoding.game
ludotheque.load('expion', variant='standard', players=2)
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
import numpy.typing as npt
from gymnasium import spaces

from .. import ai
from ..ai.base import Bot
from ..core.registry import games, info
from .encoding import Encoding, Node

Observation = dict[str, Any]
SEED_BOUND = 2**53


def make(
    game_id: str,
    opponent: str = "easy",
    *,
    variant: str | None = None,
    players: int | None = None,
    seat: int = 0,
    render_mode: str | None = None,
) -> LudothequeEnv:
    """The environment of ``game_id`` (defaults: its variant and player count) where the agent
    holds ``seat`` against ``opponent`` bots (``ai.bot`` names: ``random``, ``easy``, ...).
    Raises ``ValueError`` for an unknown game, variant, player count, seat or bot."""
    return LudothequeEnv(game_id, opponent, variant=variant, players=players, seat=seat,
                         render_mode=render_mode)


class LudothequeEnv(gymnasium.Env[Observation, np.int64]):
    """One seat of a game against bots (see :func:`make`)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012

    def __init__(
        self,
        game_id: str,
        opponent: str = "easy",
        *,
        variant: str | None = None,
        players: int | None = None,
        seat: int = 0,
        render_mode: str | None = None,
    ) -> None:
        self.encoding = Encoding.of(game_id, variant, players)
        game = self.encoding.game
        if isinstance(seat, bool) or seat not in range(game.players):
            raise ValueError(f"{game.id}: no seat {seat!r} for {game.players} players")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r} is not supported; use 'ansi' or None")
        ai.bot(opponent, game, seed=0)  # an unknown name raises ValueError now, not at reset
        self.opponent, self.seat, self.render_mode = opponent, seat, render_mode
        self.action_space = spaces.Discrete(self.encoding.num_actions)
        self.observation_space = spaces.Dict({
            "observation": spaces.Box(0.0, 1.0, self.encoding.observation_shape, np.float32),
            "action_mask": spaces.Box(0, 1, (self.encoding.num_actions,), np.int8),
        })
        self.node = Node.start(self.encoding, 0)
        self._bots: dict[int, Bot] = {}

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Observation, dict[str, Any]]:
        super().reset(seed=seed)
        game = self.encoding.game
        self.node = Node.start(self.encoding, int(self.np_random.integers(SEED_BOUND)))
        self._bots = {
            p: ai.bot(self.opponent, game, seed=int(self.np_random.integers(SEED_BOUND)))
            for p in range(game.players) if p != self.seat
        }
        self._let_bots_play()
        return self._observation(), self._info()

    def step(self, action: Any) -> tuple[Observation, float, bool, bool, dict[str, Any]]:
        if self.node.is_over:
            raise RuntimeError("the episode is over: call reset()")
        try:
            self.node = self.node.apply(int(action))
        except ValueError:
            return self._observation(), -1.0, True, False, self._info() | {"illegal_action": True}
        self._let_bots_play()
        terminated = self.node.is_over
        reward = self.node.returns()[self.seat] if terminated else 0.0
        return self._observation(), reward, terminated, False, self._info()

    def _let_bots_play(self) -> None:
        while not self.node.is_over and self.node.to_move != self.seat:
            state = self.node.state
            assert state is not None and state.to_move is not None
            self.node = self.node.play(self._bots[state.to_move].choose(state))

    def _mask(self) -> npt.NDArray[np.int8]:
        if self.node.is_over:
            return np.zeros(self.encoding.num_actions, dtype=np.int8)
        return self.node.legal_mask()

    def _observation(self) -> Observation:
        return {"observation": self.node.observation(self.seat), "action_mask": self._mask()}

    def _info(self) -> dict[str, Any]:
        return {
            "action_mask": self._mask(),
            "to_move": self.node.to_move,
            "moves": [text for _, text in self.node.history_texts(self.seat)],
        }

    def render(self) -> str | None:
        """The board as text (``render_mode="ansi"``)."""
        if self.render_mode is None:
            return None
        return self.node.board_text()


def register() -> list[str]:
    """Register ``ludotheque/<id>-v0`` with Gymnasium for every game that declares an action
    encoding; returns the ids."""
    ids = []
    for game_id in games():
        if info(game_id).actions is None:
            continue
        env_id = f"ludotheque/{game_id}-v0"
        if env_id not in gymnasium.registry:
            gymnasium.register(
                id=env_id, entry_point=f"{__name__}:LudothequeEnv", kwargs={"game_id": game_id}
            )
        ids.append(env_id)
    return ids


ENVIRONMENTS = register()
