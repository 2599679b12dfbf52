"""Imbrication: place pieces, obey nine action tiles over five rounds, enclose territory;
rules in ``RULES.md``."""

from .notation import Move
from .rules import GAME, ImbricationGame, ImbricationState

__all__ = ["GAME", "ImbricationGame", "ImbricationState", "Move"]
