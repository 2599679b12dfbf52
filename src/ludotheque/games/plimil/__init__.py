"""Plimil (2006): secret stems and blocks, captures that transform; rules in ``RULES.md``."""

from .notation import Move
from .rules import GAME, PlimilGame, PlimilState

__all__ = ["GAME", "Move", "PlimilGame", "PlimilState"]
