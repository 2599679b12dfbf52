"""The Plimil evaluator for bots: a full state's worth for one player, in [-1, 1].

The rule of 7 counts blocks by the colour they show, so the difference between the blocks
showing the player's colour and those showing the opponent's dominates. Two lighter terms
anticipate the next colour changes: the captures the player to move has at hand (a capture may
turn a block over into another colour), and how far each side's blocks have come (a block that
reached the far side can no longer move forward, and blocked blocks end in passes). A finished
game is worth its result: 1, -1 or 0. During the setup every state is worth 0.

>>> import ludotheque
>>> game = ludotheque.load("plimil", variant="open")
>>> blue = "d1 e1 b2 c2 d2 e2 f2 g2 c3 d3 e3 f3".split()
>>> red = "c6 d6 e6 f6 b7 c7 d7 e7 f7 g7 d8 e8".split()
>>> spec = {s: f"{s} BBB" for s in blue} | {s: f"{s} RRR" for s in red}
>>> evaluate(game.from_position(spec), 0) == -evaluate(game.from_position(spec), 1)
True
>>> spec["c6"] = "c6 NNN"
>>> evaluate(game.from_position(spec), 0) > 0
True
"""

from __future__ import annotations

import math

from ...core.contract import LevelSpec, Player, State
from .board import NEUTRAL, rank_of
from .rules import PlimilState

COUNT_WEIGHT = 1.0
# A capture at hand for the player to move is worth a fraction of a colour change.
CAPTURE_WEIGHT = 0.15
# Average advance toward the far side, in ranks; a small tie-break between equal counts.
ADVANCE_WEIGHT = 0.05
# Squashes a difference in blocks into (-1, 1): a lead of 3 blocks is worth about 0.76.
SCALE = 3.0


def evaluate(state: State, player: Player) -> float:
    """How good ``state`` is for ``player``: 1 won, -1 lost, in between a heuristic."""
    if not isinstance(state, PlimilState):
        raise TypeError(f"plimil: not a Plimil state: {state!r}")
    if state.is_over:
        winners = state.result().winners
        return 0.0 if not winners else (1.0 if player in winners else -1.0)
    if state.in_setup:
        return 0.0
    counts = state.counts
    score = COUNT_WEIGHT * (counts[player] - counts[1 - player])
    captures = sum(1 for move in state.legal_moves() if move.captured >= 0)
    sign = 1 if state.to_move == player else -1
    score += sign * CAPTURE_WEIGHT * min(captures, 3)
    score += ADVANCE_WEIGHT * (_advance(state, player) - _advance(state, 1 - player))
    return math.tanh(score / SCALE)


def _advance(state: PlimilState, player: Player) -> float:
    """Mean ranks gained toward the far side by the blocks showing ``player``'s colour."""
    colours = state.colours
    ranks = [
        rank_of(square) if player == 0 else 7 - rank_of(square)
        for square, block in enumerate(state.cells)
        if block >= 0 and colours[block] == player and colours[block] != NEUTRAL
    ]
    return sum(ranks) / len(ranks) if ranks else 0.0


# The bot levels tuned for this game (``GameInfo.levels``: players -> level; 0: every count).
# Plimil's determinize rebuilds hidden stems and blocks: the plain levels draw a few samples and
# reuse them. Where the compiled kernel runs, each level searches inside it (``kernel``: the
# options of ``search.ismcts``, ``samples`` the worlds the bot draws): easy and medium with their
# plain budgets (the same search, faster), hard with 15 times more iterations over twice the
# worlds and random playouts at its leaves. Their plain options are the levels on the plain
# engine (``hard-plain``: the hard of before the kernel).
LEVELS: dict[int, dict[str, LevelSpec]] = {
    2: {
        "easy": LevelSpec(
            "ismcts",
            {"iterations": 100, "samples": 16,
             "kernel": {"iterations": 100, "samples": 16, "leaf": "heuristic"}},
            "heuristic", "information-set MCTS, 100 iterations over 16 determinizations",
        ),
        "medium": LevelSpec(
            "ismcts",
            {"iterations": 600, "samples": 64,
             "kernel": {"iterations": 600, "samples": 64, "leaf": "heuristic"}},
            "heuristic", "information-set MCTS, 600 iterations over 64 determinizations",
        ),
        "hard": LevelSpec(
            "ismcts",
            # Random playouts at the leaves: with the evaluator there (100,000 iterations) hard lost
            # 13 of 20 games to the uct10k baseline; with playouts it wins 16 (2026-11-24).
            {"iterations": 2000, "samples": 128,
             "kernel": {"iterations": 30_000, "samples": 256, "leaf": "playout"}},
            "heuristic",
            "information-set MCTS in the compiled kernel, 30,000 iterations over 256 "
            "determinizations, random playouts at the leaves; on the plain engine, 2,000 iterations "
            "over 128, evaluator at the leaves",
        ),
    },
}
