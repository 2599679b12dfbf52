"""Pylos (Gigamic): four-level pyramid of balls; rules in ``RULES.md``."""

from .notation import Move
from .rules import GAME, PylosGame, PylosState

__all__ = ["GAME", "Move", "PylosGame", "PylosState"]
