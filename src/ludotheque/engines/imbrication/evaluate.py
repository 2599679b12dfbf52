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

from ...core.contract import LevelSpec, Player, State
from .board import EDGE, FULL, NEIGHBOURS, Mask, bits, territories
from .rules import ImbricationState

TERRITORY_WEIGHT = 1.0
POCKET_WEIGHT = 0.5
PIECE_WEIGHT = 0.1
SCALE = 6.0


def evaluate(state: State, player: Player) -> float:
    """``player``'s prospects in ``state``, in [-1, 1] (1: won)."""
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


# The bot levels tuned for this game (``GameInfo.levels``: players -> level; 0: every count).
# Imbrication hides only tile orders, from both players (round 1's, then round 4's until
# round 3 ends), and offers up to 60 placements a turn: information-set MCTS with its
# evaluator barely improves with iterations there, so the levels search determinizations
# with alpha-beta (one search per distinct determinization, sharing the node budget). A
# turn is two moves of one player, a placement then its action, so searches deepen a whole
# turn at a time. Measured: 4 plies (the opponent's reply turn included) beat 1 ply 85% in
# 10 games, and 2 plies barely beat 1 (62%); medium at 4,000 positions beat easy only 61%
# over 37 games (4 plies overran it in most of rounds 4-5), at 15,000 78% over 99. Four
# plies fit in 15,000 positions almost everywhere, so more positions change little (one
# sample with 45,000 won 4 of 6 probe games against medium; six plies 2 of 6, over 5 s).
# What medium lacks is round 1's unknown tiles: one determinization believes one tile order
# and places pieces that the real tile cannot move (they are removed: 35 of medium's 90
# round-1 turns in 20 games against hard). Hard averages each placement's exact value over
# 8 orders (17 of 90 removed; a vote among 3 orders won 3 of 6): 13 of 14 probe games
# against medium, with more pieces at the end in nearly all; 81% over 40 arena games.
LEVELS: dict[int, dict[str, LevelSpec]] = {
    2: {
        "easy": LevelSpec("pimc", {"samples": 1, "depth": 1, "margin": 0.05},
                          description="the placement the evaluator likes, or one close to it"),
        "medium": LevelSpec("pimc", {"samples": 1, "depth": 4, "nodes": 15_000, "depth_step": 2},
                            description="alpha-beta over two whole turns within 15,000 positions "
                                        "(one turn when that overruns), one determinization"),
        # Inside the compiled kernel where it runs (``kernel``, ``search.ismcts``): one tree over
        # 100 tile orders, 30,000 random playouts to the end. In probe games it beat the kernel's
        # determinized alpha-beta (16 orders, 3,000,000 positions; 12.5 of 18 against hard-plain)
        # 5 of 6: averaging exact values over orders overrates moves that only one order allows.
        # Against hard-plain: 32.5 of 40 arena games (81%), 1.7 s a move (p95).
        # On the plain engine (and as ``hard-plain``) the hard level of before the kernel.
        "hard": LevelSpec("pimc", {
            "kernel": {"algorithm": "ismcts", "iterations": 30_000, "samples": 100},
            "samples": 8, "depth": 4, "nodes": 45_000, "depth_step": 2,
        }, description="information-set MCTS in the compiled kernel, 30,000 random playouts over "
                       "100 tile orders it cannot know; on the plain engine, alpha-beta over two "
                       "whole turns on 8 tile orders sharing 45,000 positions"),
    },
}
