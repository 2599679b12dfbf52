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
from collections.abc import Mapping

from ...core.contract import LevelSpec, Player, State
from .board import (
    BIT,
    CELL_COUNT,
    HIGHER,
    LEVEL_MASK,
    LINES,
    SQUARES,
    SUPPORTS,
    Mask,
    available,
    bits,
    covered,
)
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
WEIGHTS: dict[str, float] = {
    "reserve": RESERVE_WEIGHT, "ready_to_move": READY_TO_MOVE_WEIGHT,
    "ready_blockable": READY_BLOCKABLE_WEIGHT, "ready_double": READY_DOUBLE_WEIGHT,
    "latent_square": LATENT_SQUARE_WEIGHT, "raise": RAISE_WEIGHT, "tempo": TEMPO_WEIGHT,
    # Terms the evaluator of before had not (weight 0 here); tuned weights use them:
    "free": 0.0,  # each own ball on the board that nothing rests on (raises, removals to come)
    "upper": 0.0,  # each own ball above the first level
    "open_square": 0.0,  # each square holding own balls only, not yet full
    "late_reserve": 0.0,  # each ball in reserve, times the share of the board filled
    "late_tempo": 0.0,  # the player to move, times the share of the board filled
}
"""The evaluator's weights by name: those of :func:`evaluate` (the bots of the plain engine),
and the names the compiled search (``search.py``) reads in the same order."""
TUNED_WEIGHTS: dict[str, float] = {
    "reserve": 0.76, "ready_to_move": 1.45, "ready_blockable": 0.65, "ready_double": 1.03,
    "latent_square": 1.27, "raise": 0.68, "tempo": -0.06, "free": 0.40, "upper": 0.09,
    "open_square": 0.17, "late_reserve": 1.02, "late_tempo": -0.25,
}
"""The weights of the hard level's search in the kernel, fitted by self-play: a logistic
regression of the results of 726 games on these terms at their 30,838 positions, so that
``tanh(balls / SCALE)`` predicts the result (games of the compiled UCT with 1,000 playouts, and of
the compiled alpha-beta within 20,000 positions with :data:`WEIGHTS` then a first fit, each
against itself, four random moves first and one in thirty-three after). Where the
weights of before give the player to move a third of a ball, these take a little away: with equal
reserves and nobody saving a ball, the player to move runs out first (the cells left are the
balls left), which counts more as the board fills."""

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
    return math.tanh(balls(state, player) / SCALE)


def balls(state: PylosState, player: Player, weights: Mapping[str, float] = WEIGHTS) -> float:
    """What ``state`` is worth to ``player`` in balls, with ``weights`` (:data:`WEIGHTS` by
    default): :func:`evaluate` before its squashing into [-1, 1]. The game must not be over."""
    to_move = state.to_move
    filled = (state.balls(0) | state.balls(1)).bit_count() / CELL_COUNT
    tempo = weights["tempo"] + weights["late_tempo"] * filled
    return (_balance(state, player, to_move == player, weights, filled)
            - _balance(state, 1 - player, to_move != player, weights, filled)
            + (tempo if to_move == player else -tempo))


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


def _balance(state: PylosState, player: Player, is_to_move: bool, weights: Mapping[str, float],
             filled: float) -> float:
    """The balls ``player`` holds or is about to win back, in reserve units."""
    own = state.balls(player)
    occupied = state.balls(0) | state.balls(1)
    open_cells = available(occupied)
    free = own & ~covered(occupied)
    reserve = float(state.reserve(player))
    score = (weights["reserve"] + weights["late_reserve"] * filled) * reserve
    score += weights["free"] * free.bit_count() + weights["upper"] * (own & ~LEVEL_MASK[1]).bit_count()
    figures = FIGURES[state.game.variant]
    if figures:
        ready = 0
        for figure, short in figures:
            if (own & figure).bit_count() == short and (occupied & figure).bit_count() == short:
                empty = figure & ~occupied
                if empty & open_cells:
                    ready |= empty
                else:
                    score += weights["latent_square"]
        if ready and is_to_move:
            score += weights["ready_to_move"]
        elif ready.bit_count() == 1:
            score += weights["ready_blockable"]
        elif ready:
            score += weights["ready_double"]
        if weights["open_square"]:  # (skipped at weight 0: the plain bots' evaluator stays as fast)
            other = occupied & ~own
            for square in SQUARES:
                if square & own and not square & other and square & occupied != square:
                    score += weights["open_square"]
    if _can_raise(free, open_cells):
        score += weights["raise"]
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
        # Inside the compiled kernel where it runs (``kernel``), with the tuned weights and no
        # rule against conceding a square (deep enough, the search knows when a trade pays: UCT
        # with 300,000 playouts agrees with it where the rule would refuse); on the plain engine
        # (and as ``hard-plain``) the hard level of before the kernel.
        "hard": LevelSpec("alphabeta", {
            "kernel": {"nodes": 2_000_000, "weights": TUNED_WEIGHTS},
            "depth": 8, "nodes": 30_000, "deny_gains": True,
        }, description="alpha-beta in the compiled kernel within 2,000,000 positions, tuned "
                       "evaluator; on the plain engine, up to 8 plies within 30,000 positions, never "
                       "leaving a square to close when it can help it"),
    },
}
