"""The Pylos evaluator for bots: a position's worth for one player, in [-1, 1].

Balls in reserve decide Pylos (the player who runs out first loses, and the top goes to whoever
still holds a ball), so the reserve difference dominates. The other terms anticipate reserve
changes: squares one ball from completion (a completed square gives back one or two balls),
free balls that can be raised (a raise saves a ball), and the parity of the cells left. Only the
state's public read-only API is read (``balls``, ``reserve``, ``to_move``), with the geometry of
``board.py``.

>>> import ludotheque
>>> state = ludotheque.load("pylos").new_state()
>>> evaluate(state, 0) == -evaluate(state, 1)
True
>>> for text in "1a1 1c1 1b1 1c2 1a2 1d4 1b2x1a1x1b2".split():  # Light closes a square
...     state = state.play(text)
>>> state.reserve(0) - state.reserve(1), evaluate(state, 0) > 0 > evaluate(state, 1)
(1, True)
"""

from __future__ import annotations

import math

from ...core.contract import LevelSpec, Player, State
from .board import BIT, HIGHER, LINES, SQUARES, SUPPORTS, Mask, available, bits, covered
from .rules import PylosState

# Weights in balls: a threat is worth a fraction of the ball(s) it would give back.
RESERVE_WEIGHT = 1.0
# A figure (square, or line in ``advanced``) one own ball short, its last cell available: the
# player to move closes it now (a ball or two back); the other player's single threat can be
# blocked, two cannot both be.
READY_TO_MOVE_WEIGHT = 1.2
READY_BLOCKABLE_WEIGHT = 0.35
READY_DOUBLE_WEIGHT = 1.0
LATENT_SQUARE_WEIGHT = 0.2  # one own ball short, the last cell empty but not yet available
RAISE_WEIGHT = 0.25  # at least one raise available
TEMPO_WEIGHT = 0.3  # the player to move acts first on every threat
# Squashes a ball difference into (-1, 1): a lead of 3 balls is worth about 0.9.
SCALE = 2.0

# The figures that give balls back, by rule set (the kids' rules have none).
# Each figure with its size minus one: the own balls of a figure one ball short.
FIGURES: dict[str, list[tuple[Mask, int]]] = {
    variant: [(figure, figure.bit_count() - 1) for figure in figures]
    for variant, figures in (("kids", []), ("standard", SQUARES), ("advanced", SQUARES + LINES))
}


def evaluate(state: State, player: Player) -> float:
    """How good ``state`` is for ``player``: 1 won, -1 lost, 0 even; raises ``TypeError`` on a
    state of another game."""
    if state.is_over:
        winners = state.result().winners
        return 0.0 if not winners else 1.0 if player in winners else -1.0
    if not isinstance(state, PylosState):
        raise TypeError(f"pylos: not a Pylos state: {state!r}")
    to_move = state.to_move
    balls = _balance(state, player, to_move == player) - _balance(state, 1 - player, to_move != player)
    balls += TEMPO_WEIGHT if to_move == player else -TEMPO_WEIGHT
    return math.tanh(balls / SCALE)


def immediate_gain(state: State) -> bool:
    """Whether the player to move can close a figure now (a square, or a line under ``advanced``):
    every such move carries removals, written with ``x`` (the ball just played can always be
    taken back). Strong bots never leave one to the opponent when they can help it.

    >>> import ludotheque
    >>> state = ludotheque.load("pylos").new_state()
    >>> for text in "1a1 1c1 1b1 1c2 1a2 1d4".split():
    ...     state = state.play(text)
    >>> immediate_gain(state), immediate_gain(state.play("1b2x1b2"))
    (True, False)
    """
    return not state.is_over and any("x" in str(move) for move in state.legal_moves())


def _balance(state: PylosState, player: Player, is_to_move: bool) -> float:
    """The balls ``player`` holds or is about to win back, in reserve units."""
    own = state.balls(player)
    occupied = state.balls(0) | state.balls(1)
    open_cells = available(occupied)
    score = RESERVE_WEIGHT * float(state.reserve(player))
    figures = FIGURES[state.game.variant]
    if figures:
        ready = 0
        for figure, short in figures:
            if (own & figure).bit_count() == short and (occupied & figure).bit_count() == short:
                empty = figure & ~occupied
                if empty & open_cells:
                    ready |= empty
                else:
                    score += LATENT_SQUARE_WEIGHT
        if ready and is_to_move:
            score += READY_TO_MOVE_WEIGHT
        elif ready.bit_count() == 1:
            score += READY_BLOCKABLE_WEIGHT
        elif ready:
            score += READY_DOUBLE_WEIGHT
    if _can_raise(own & ~covered(occupied), open_cells):
        score += RAISE_WEIGHT
    return score


def _can_raise(own_free: Mask, open_cells: Mask) -> bool:
    """Whether one of these free balls may go up onto an available cell it does not support."""
    for source in bits(own_free):
        for target in bits(open_cells & HIGHER[source]):
            if not SUPPORTS[target] & BIT[source]:
                return True
    return False


# The bot levels tuned for this game (``GameInfo.levels``: players -> level; 0: every count).
LEVELS: dict[int, dict[str, LevelSpec]] = {
    2: {
        "easy": LevelSpec("alphabeta", {"depth": 1, "margin": 0.08},
                          description="one ply, a random move among those close to the best"),
        "medium": LevelSpec("alphabeta", {"depth": 2, "nodes": 20_000},
                            description="alpha-beta, 2 plies"),
        "hard": LevelSpec("alphabeta", {"depth": 8, "nodes": 30_000, "deny_gains": True},
                          description="alpha-beta, up to 8 plies within 30,000 positions, "
                                      "never leaving a square to close when it can help it"),
    },
}
