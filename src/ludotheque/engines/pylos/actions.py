"""Pylos for the research interfaces: the fixed integer action encoding and the observation planes.

Every turn (a placement or a raise, with its removals) is ONE action. The table below holds every
turn that some position allows, computed once from the board's geometry (``RULES.md``, "Action
encoding", gives the derivation): first the 186 turns without removals, in the order of
``legal_moves()`` (placements by destination, then raises by source and destination), then each of
them followed by every set of one or two removals it may carry. A pair of removals is one action
whichever order it is played in: the parser returns the listed order (rules: Notation).

>>> import ludotheque
>>> state = ludotheque.load("pylos").new_state()
>>> [encode(m) for m in state.legal_moves()][:3], action_text(0), action_text(29)
([(0,), (1,), (2,)], '1a1', '4a1')
>>> action_count("kids", 2), action_count("standard", 2), action_count("advanced", 2)
(186, 23801, 23801)
>>> action_text(*encode(Move.from_text("1a1-2b2x2b2x1b2")))
'1a1-2b2x1b2x2b2'
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.contract import State
from ...core.errors import IllegalMoveError
from .board import (
    ABOVE,
    BALLS_PER_PLAYER,
    CELL_COUNT,
    LEVEL,
    NAMES,
    SQUARES_AND_LINES_AT,
    SUPPORTS,
    TOP,
    bits,
)
from .notation import RESERVE, Move

Action = int


def _closure(cell: int, step: list[int]) -> frozenset[int]:
    """Every cell reached from ``cell`` through ``step`` (a table of masks), transitively."""
    found: set[int] = set()
    todo = [cell]
    while todo:
        for other in bits(step[todo.pop()]):
            if other not in found:
                found.add(other)
                todo.append(other)
    return frozenset(found)


# CONE[c]: the cells c rests on, transitively; UP[c]: the cells resting on c, transitively.
CONE: list[frozenset[int]] = [_closure(c, SUPPORTS) for c in range(CELL_COUNT)]
UP: list[frozenset[int]] = [_closure(c, ABOVE) for c in range(CELL_COUNT)]
_LEVEL3 = tuple(c for c in range(CELL_COUNT) if LEVEL[c] == 3)
# The level-2 corner under each level-3 cell: the only ball it frees when taken back.
_CORNER_UNDER = {
    upper: next(c for c in bits(SUPPORTS[upper]) if ABOVE[c] == 1 << upper) for upper in _LEVEL3
}

# The turns without removals: placements by destination, then raises by source and destination.
# A raise never reaches the top, and its ball may not lie under the destination: a ball in the
# destination's cone is covered while the destination is available.
BASES: tuple[tuple[int, int], ...] = (
    *((RESERVE, target) for target in range(CELL_COUNT)),
    *(
        (source, target)
        for source in range(CELL_COUNT)
        for target in range(CELL_COUNT)
        if LEVEL[source] < LEVEL[target] != 4 and source not in CONE[target]
    ),
)


def _buried(upper: int, lower: int) -> bool:
    """Whether ``lower`` lies under ``upper`` with a ball between them (covered while ``upper``
    stands, and still covered once ``upper`` goes)."""
    return lower in CONE[upper] and not SUPPORTS[upper] >> lower & 1


def _removal_sets(source: int, target: int) -> list[tuple[int, ...]]:
    """Every set of one or two cells the turn ``source``-``target`` may take back, in cell order:
    each single removal followed by the pairs it starts.

    The turn completes a figure (a square, or a line under the advanced rules) holding the
    target, whose other balls stood before the turn: the raised ball lay under none of them, and
    every ball under the figure is covered. A free ball may go, and a second one free then: any
    other free ball not buried under the first (nor the first under it), or a support of a figure
    ball just taken back that no other figure ball covers. Empty after the turn: the source, the
    top, and every cell resting on the source or on the target.
    """
    if LEVEL[target] == 4:
        return []  # the top ends the game
    empty = {TOP} | UP[target] | ({source} | UP[source] if source != RESERVE else set())
    found: set[tuple[int, ...]] = set()
    for figure in SQUARES_AND_LINES_AT[target]:
        cells = set(bits(figure))
        covered = set().union(*(CONE[c] for c in cells))
        if source in covered:
            continue  # the raised ball was not free
        free = [c for c in range(CELL_COUNT) if c not in empty and c not in covered]
        for first in free:
            found.add((first,))
            # Two free balls: neither lies deeper under the other (a ball between would cover it).
            found.update(
                tuple(sorted((first, second)))
                for second in free
                if second != first and not _buried(first, second) and not _buried(second, first)
            )
            if first in cells:
                others = set().union(*(CONE[c] for c in cells - {first}))
                found.update(
                    tuple(sorted((first, support)))
                    for support in bits(SUPPORTS[first])
                    if support not in others and support not in empty
                )
    return sorted(found, key=lambda removals: (removals[0], len(removals), removals))


_TABLE: list[tuple[int, int, tuple[int, ...]]] = [(s, t, ()) for s, t in BASES] + [
    (s, t, removals) for s, t in BASES for removals in _removal_sets(s, t)
]
_IDS: dict[tuple[int, int, tuple[int, ...]], Action] = {key: a for a, key in enumerate(_TABLE)}
_TEXTS: list[str] = [str(Move(t, s, removals)) for s, t, removals in _TABLE]
# The kids' rule set has no squares and no lines: its turns are the first ``len(BASES)``.
_COUNTS = {"kids": len(BASES), "standard": len(_TABLE), "advanced": len(_TABLE)}


def action_count(variant: str, players: int) -> int:
    """The size of the action range for ``variant``: every turn it allows has an id below it."""
    return _COUNTS[variant]


def encode(move: Move) -> tuple[Action, ...]:
    """The action of ``move`` (one action: a turn is never split). Raises ``ValueError`` for a
    move no position allows."""
    key = (move.source, move.target, tuple(sorted(move.removals)))
    try:
        return (_IDS[key],)
    except KeyError:
        raise ValueError(f"pylos: no action for {str(move)!r}") from None


def decode(state: State, actions: Sequence[Action], legal: Container[Move] | None = None) -> Move:
    """The legal move of ``state`` that ``actions`` spell: a pair of removals in the order that
    works there (``legal``: its legal moves, when the caller has them in a set). Raises
    ``ValueError`` when they spell no legal move of ``state``."""
    if len(actions) != 1 or not 0 <= actions[0] < len(_TABLE):
        raise ValueError(f"pylos: {list(actions)!r} is not an action sequence")
    source, target, removals = _TABLE[actions[0]]
    if legal is None:
        legal = state.legal_moves()
    for order in (removals, removals[::-1]) if len(removals) == 2 else (removals,):
        move = Move(target, source, order)
        if move in legal:
            return move
    raise IllegalMoveError.here("pylos", _TEXTS[actions[0]], state.ply)


def action_text(action: Action) -> str:
    """The notation of one action (a pair of removals in cell order). Raises ``ValueError``."""
    if not 0 <= action < len(_TEXTS):
        raise ValueError(f"pylos: no action {action!r}")
    return _TEXTS[action]


# Observation planes, from a view only: each cell's ball for seat 0 and seat 1, the reserves,
# the seat to move, the viewer and how often the position has occurred.
_CELL_INDEX = {name: c for c, name in enumerate(NAMES)}
_RESERVES = 2 * CELL_COUNT
_TO_MOVE, _VIEWER, _REPEATS = _RESERVES + 2, _RESERVES + 4, _RESERVES + 6
_SIZE = _REPEATS + 1


def observation_shape(variant: str, players: int) -> tuple[int, ...]:
    """The shape of :func:`observation`'s array."""
    return (_SIZE,)


def observation(view: Mapping[str, Any], pending: Sequence[Action] = ()) -> npt.NDArray[np.float32]:
    """The view as numbers: ``[0, 60)`` a ball of seat 0 / seat 1 on each cell (cell order, two
    per cell), ``60, 61`` the reserves / 15, ``62, 63`` the seat to move, ``64, 65`` the viewer,
    ``66`` the position's occurrences / 3. Built from ``view`` alone, so it shows what it shows.

    >>> import ludotheque
    >>> planes = observation(ludotheque.load("pylos").new_state().play("1b1").view(1))
    >>> planes.shape, float(planes[2 * 1]), planes[60:66].tolist()
    ((67,), 1.0, [0.9333333373069763, 1.0, 0.0, 1.0, 0.0, 1.0])
    """
    out = np.zeros(_SIZE, dtype=np.float32)
    for name, seat in view["cells"].items():
        out[2 * _CELL_INDEX[name] + seat] = 1.0
    out[_RESERVES : _RESERVES + 2] = np.asarray(view["reserves"], dtype=np.float32) / BALLS_PER_PLAYER
    if view["to_move"] is not None:
        out[_TO_MOVE + view["to_move"]] = 1.0
    if view["viewer"] is not None:
        out[_VIEWER + view["viewer"]] = 1.0
    out[_REPEATS] = view["repetitions"] / 3
    return out


def board_text(view: Mapping[str, Any]) -> str:
    """The pyramid as text, level by level (rank 4 at the top; ``L`` seat 0, ``D`` seat 1).

    >>> import ludotheque
    >>> print(board_text(ludotheque.load("pylos").new_state().play("1a1").play("1d4").view(None)))
    level 1  level 2  level 3  level 4
    4 ...D   3 ...    2 ..     1 .
    3 ....   2 ...    1 ..
    2 ....   1 ...
    1 L...
    reserves 14 14, to move 0
    """
    cells = view["cells"]
    columns = []
    for level, size in zip(range(1, 5), (4, 3, 2, 1), strict=True):
        rows = [f"level {level}"]
        for rank in range(size, 0, -1):
            row = "".join(
                ".LD"[cells[name] + 1] if (name := f"{level}{'abcd'[f]}{rank}") in cells else "."
                for f in range(size)
            )
            rows.append(f"{rank} {row}")
        columns.append(rows)
    lines = [
        "  ".join(col[i].ljust(7) if i < len(col) else " " * 7 for col in columns).rstrip()
        for i in range(5)
    ]
    reserves = view["reserves"]
    lines.append(f"reserves {reserves[0]} {reserves[1]}, to move {view['to_move']}")
    return "\n".join(lines)
