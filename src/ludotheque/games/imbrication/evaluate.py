"""A quick heuristic value of an Imbrication position for the computer opponents.

The value, in [-1, 1] and from ``player``'s side, is the exact result once the game is over;
before that it squashes a material balance built from public facts only:

- territory cells, weighted 1 (what decides the game);
- *pockets*: empty cells off the edge, not yet territory, with no enemy neighbour and at least
  three of ``player``'s pieces among their four neighbours, weighted 0.5 (territory is gained by
  closing such cells);
- pieces on the board, weighted 0.1 (the first tie-break, and the material that builds walls).

The balance goes through ``x / (|x| + 6)``, so a 6-cell lead is worth 0.5.

>>> import ludotheque
>>> state = ludotheque.load("imbrication").new_state(seed=0)
>>> evaluate(state, 0)
0.0
>>> ring = ["........", "........", "........", "........",
...         "........", "..L.....", ".L.L....", "..L....."]
>>> evaluate(ludotheque.load("imbrication").position(ring, round=2, openings=0), 0) > 0.1
True
"""

from __future__ import annotations

from ...core.contract import Player, State
from .board import EDGE, FULL, NEIGHBOURS, Mask, bits, territories

TERRITORY_WEIGHT = 1.0
POCKET_WEIGHT = 0.5
PIECE_WEIGHT = 0.1
SCALE = 6.0


def evaluate(state: State, player: Player) -> float:
    """``player``'s prospects in ``state``, in [-1, 1] (1: won)."""
    from .rules import ImbricationState

    assert isinstance(state, ImbricationState)
    if state.is_over:
        winners = state.result().winners
        return 0.0 if not winners else 1.0 if player in winners else -1.0
    own, other = state.pieces(player), state.pieces(1 - player)
    balance = _material(own, other) - _material(other, own)
    return balance / (abs(balance) + SCALE)


def _material(own: Mask, other: Mask) -> float:
    claimed = 0
    for territory in territories(own, other):
        claimed |= territory
    value = PIECE_WEIGHT * own.bit_count() + TERRITORY_WEIGHT * claimed.bit_count()
    candidates = FULL & ~(own | other | claimed) & ~EDGE
    for cell in bits(candidates):
        around = NEIGHBOURS[cell]
        if not around & other and (around & own).bit_count() >= 3:
            value += POCKET_WEIGHT
    return value
