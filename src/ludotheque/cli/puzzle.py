"""``ludotheque puzzle GAME``: solve the game's puzzles in the terminal (being built)."""

from __future__ import annotations

from .common import GameArgument


def puzzle(game_id: GameArgument) -> None:
    """Solve GAME's puzzles in the terminal."""
    raise NotImplementedError("puzzles are being built")
