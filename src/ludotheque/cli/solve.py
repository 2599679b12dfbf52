"""``ludotheque solve pylos --variant V``: perfect play tables (being built)."""

from __future__ import annotations

from .common import GameArgument


def solve(game_id: GameArgument) -> None:
    """Solve GAME's positions for perfect play."""
    raise NotImplementedError("the solver is being built")
