"""The Pylos evaluator for bots: a position's worth for one player, in [-1, 1].

Balls in reserve decide Pylos (the player who runs out first loses, and the top goes to whoever
still holds a ball), so the reserve difference dominates. The other terms anticipate reserve
changes: squares one ball from completion (a completed square gives back one or two balls),
free balls that can be raised (a raise saves a ball), and the parity of the cells left. Only the
public State API is read (``view``, ``reserve``).

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
from typing import Any

from ...core.contract import LevelSpec, Player, State

FILES = "abcd"
_LEVEL_SIZES = (4, 3, 2)
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


def _cell_names() -> list[str]:
    names = []
    for level, size in enumerate((4, 3, 2, 1), start=1):
        names += [f"{level}{FILES[file]}{rank}" for rank in range(1, size + 1) for file in range(size)]
    return names


CELLS = _cell_names()
BIT = {name: 1 << index for index, name in enumerate(CELLS)}


def _supports(cell: str) -> int:
    level, file, rank = int(cell[0]), FILES.index(cell[1]), int(cell[2])
    if level == 1:
        return 0
    return sum(BIT[f"{level - 1}{FILES[file + df]}{rank + dr}"] for dr in (0, 1) for df in (0, 1))


def _squares() -> list[int]:
    found = []
    for level, size in enumerate(_LEVEL_SIZES, start=1):
        for rank in range(1, size):
            for file in range(size - 1):
                found.append(
                    sum(BIT[f"{level}{FILES[file + df]}{rank + dr}"] for dr in (0, 1) for df in (0, 1))
                )
    return found


def _lines() -> list[int]:
    """Rows and columns of level 1 (4 cells) and level 2 (3 cells): figures of ``advanced``."""
    found = []
    for level, size in ((1, 4), (2, 3)):
        for k in range(size):
            found.append(sum(BIT[f"{level}{FILES[f]}{k + 1}"] for f in range(size)))
            found.append(sum(BIT[f"{level}{FILES[k]}{r + 1}"] for r in range(size)))
    return found


SQUARES = _squares()
# The figures that give balls back, by rule set (the kids' rules have none).
# Each figure with its size minus one: the own balls of a figure one ball short.
FIGURES: dict[str, list[tuple[int, int]]] = {
    variant: [(figure, figure.bit_count() - 1) for figure in figures]
    for variant, figures in (("kids", []), ("standard", SQUARES), ("advanced", SQUARES + _lines()))
}
SUPPORTS = {name: _supports(name) for name in CELLS}
# HIGHER[cell]: the cells on a strictly higher level (where a ball from ``cell`` may be raised).
HIGHER = {name: sum(BIT[c] for c in CELLS if c[0] > name[0]) for name in CELLS}


def evaluate(state: State, player: Player) -> float:
    """How good ``state`` is for ``player``: 1 won, -1 lost, 0 even."""
    if state.is_over:
        winners = state.result().winners
        return 0.0 if not winners else 1.0 if player in winners else -1.0
    view = state.view(None)
    to_move = view["to_move"]
    balls = _balance(view, player, to_move == player) - _balance(view, 1 - player, to_move != player)
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


def _balance(view: dict[str, Any], player: Player, is_to_move: bool) -> float:
    """The balls ``player`` holds or is about to win back, in reserve units."""
    cells: dict[str, int] = view["cells"]
    own = occupied = 0
    for name, owner in cells.items():
        occupied |= BIT[name]
        if owner == player:
            own |= BIT[name]
    available = 0
    for name in view["available"]:
        available |= BIT[name]
    score = RESERVE_WEIGHT * float(view["reserves"][player])
    figures = FIGURES[view["variant"]]
    if figures:
        ready = 0
        for figure, short in figures:
            if (own & figure).bit_count() == short and (occupied & figure).bit_count() == short:
                empty = figure & ~occupied
                if empty & available:
                    ready |= empty
                else:
                    score += LATENT_SQUARE_WEIGHT
        if ready and is_to_move:
            score += READY_TO_MOVE_WEIGHT
        elif ready.bit_count() == 1:
            score += READY_BLOCKABLE_WEIGHT
        elif ready:
            score += READY_DOUBLE_WEIGHT
    if _can_raise(cells, view["free"], available, player):
        score += RAISE_WEIGHT
    return score


def _can_raise(cells: dict[str, int], free: list[str], available: int, player: Player) -> bool:
    """Whether one of ``player``'s free balls may go up onto an available cell it does not support."""
    for source in free:
        if cells[source] != player:
            continue
        bit = BIT[source]
        targets = available & HIGHER[source]
        while targets:
            target = targets & -targets
            if not SUPPORTS[CELLS[target.bit_length() - 1]] & bit:
                return True
            targets ^= target
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
