"""Ex*Pion (As d'Or 1990): two teams push the EX*PION and capture by flanking; rules in ``RULES.md``.

>>> GAME.id, GAME.player_counts, GAME.default_players
('expion', (2, 3, 4), 4)
"""

from .notation import Move
from .rules import GAME, ExpionGame, ExpionState

__all__ = ["GAME", "ExpionGame", "ExpionState", "Move"]
