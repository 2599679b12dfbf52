"""The random bot: a uniformly random legal move, the baseline every level must beat.

>>> import ludotheque, random
>>> game = ludotheque.load("pylos")
>>> move = RandomBot(game, rng=random.Random(1)).choose(game.new_state())
>>> move in game.new_state().legal_moves()
True
"""

from __future__ import annotations

import random

from ..core.contract import Game, State
from .base import Analysis, Bot, Progress, report


class RandomBot(Bot):
    """Plays any legal move with equal probability; sees only ``legal_moves()``."""

    algorithm = "random"

    def __init__(self, game: Game, *, rng: random.Random | None = None) -> None:
        super().__init__(game, rng=rng)

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        self._check_playable(state)
        move = self.rng_for(state).choice(state.legal_moves())
        report(progress, 1.0)
        return Analysis(0.0, move, (str(move),), iterations=1, algorithm=self.algorithm)
