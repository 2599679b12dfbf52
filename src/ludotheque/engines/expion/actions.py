"""Ex*Pion for the research interfaces: the fixed integer action encoding and the observation planes.

A move is a marble from one cell to another: ONE action. The table holds every move some marble
may ever make (``RULES.md``, "Action encoding"): from a camp cell 1 to 3 cells straight into the
play area, and from a play-area cell to each orthogonally adjacent play-area cell; a push is
such a move too. Ids follow the order of ``legal_moves()`` (by source cell, then target cell),
and the range is the same for 2, 3 and 4 players.

>>> import ludotheque
>>> state = ludotheque.load("expion").new_state()
>>> [action_text(a) for (a,) in map(encode, state.legal_moves())][:3]
['b9-b6', 'b9-b7', 'b9-b8']
>>> action_count("standard", 4), decode(state, encode(state.legal_moves()[0]))
(252, Move.from_text('b9-b6'))
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.contract import State
from ...core.errors import IllegalMoveError
from .board import (
    ADJACENT,
    CAMP_AT,
    CAMP_COUNT,
    CAMP_LETTERS,
    CELLS,
    INDEX,
    IS_PLAY,
    MARBLES_PER_CAMP,
    OPTIONS,
    SIZE,
)
from .notation import MOVES, Move

Action = int

# Every (source, target) some marble may play: a camp's marbles leave it straight forward (its
# own OPTIONS), any marble in the play area steps to an adjacent play-area cell.
_PAIRS: tuple[tuple[int, int], ...] = tuple(
    sorted(
        {(c, option.target) for c in CELLS if CAMP_AT[c] >= 0 for option in OPTIONS[CAMP_AT[c]][c]}
        | {(c, t) for c in CELLS if IS_PLAY[c] for t in ADJACENT[c] if IS_PLAY[t]}
    )
)
_IDS: dict[tuple[int, int], Action] = {pair: a for a, pair in enumerate(_PAIRS)}
_MOVES: list[Move] = [MOVES[pair] for pair in _PAIRS]


def action_count(variant: str, players: int) -> int:
    """The size of the action range (every variant and player count)."""
    return len(_PAIRS)


def encode(move: Move) -> tuple[Action, ...]:
    """The action of ``move``; raises ``ValueError`` for a move no marble can make."""
    try:
        return (_IDS[move.source, move.target],)
    except KeyError:
        raise ValueError(f"expion: no action for {str(move)!r}") from None


def decode(state: State, actions: Sequence[Action], legal: Container[Move] | None = None) -> Move:
    """The legal move of ``state`` that ``actions`` spell (``legal``: its legal moves, when the
    caller has them in a set); raises ``ValueError`` otherwise."""
    if len(actions) != 1 or not 0 <= actions[0] < len(_MOVES):
        raise ValueError(f"expion: {list(actions)!r} is not an action sequence")
    move = _MOVES[actions[0]]
    if move not in (state.legal_moves() if legal is None else legal):
        raise IllegalMoveError.here("expion", str(move), state.ply)
    return move


def action_text(action: Action) -> str:
    """The notation of one action; raises ``ValueError``."""
    if not 0 <= action < len(_MOVES):
        raise ValueError(f"expion: no action {action!r}")
    return str(_MOVES[action])


# Observation planes, from a view only, on the 9×9 grid (rank * 9 + file; the corners stay 0).
_GRID = SIZE * SIZE
_MARBLES = 0  # 4 planes: a marble of camp N, E, S, W
_EXPION = CAMP_COUNT * _GRID
_CAMP_TO_MOVE = _EXPION + _GRID
_TO_MOVE = _CAMP_TO_MOVE + CAMP_COUNT  # 4 seats at most
_VIEWER = _TO_MOVE + 4
_COUNTS = _VIEWER + 4  # marbles left per camp / 7
_FLAGS = _COUNTS + CAMP_COUNT  # first capture, quiet moves / limit, occurrences / 3
_SIZE = _FLAGS + 3


def observation_shape(variant: str, players: int) -> tuple[int, ...]:
    """The shape of :func:`observation`'s array."""
    return (_SIZE,)


def observation(view: Mapping[str, Any], pending: Sequence[Action] = ()) -> npt.NDArray[np.float32]:
    """The view as numbers: four 81-cell planes of marbles (camps N, E, S, W), one of the
    EX*PION, the camp to move (4), the seat to move (4), the viewer (4), the marbles left per
    camp / 7, whether a capture has happened, quiet moves / their limit, occurrences / 3.

    >>> import ludotheque
    >>> planes = observation(ludotheque.load("expion", players=2).new_state().view(0))
    >>> planes.shape, int(planes.sum()), float(planes[_EXPION + INDEX["e5"]])
    ((424,), 36, 1.0)
    """
    out = np.zeros(_SIZE, dtype=np.float32)
    for name, camp in view["cells"].items():
        out[_MARBLES + CAMP_LETTERS.index(camp) * _GRID + INDEX[name]] = 1.0
    if view["expion"] in INDEX:
        out[_EXPION + INDEX[view["expion"]]] = 1.0
    if view["camp_to_move"] is not None:
        out[_CAMP_TO_MOVE + CAMP_LETTERS.index(view["camp_to_move"])] = 1.0
    if view["to_move"] is not None:
        out[_TO_MOVE + view["to_move"]] = 1.0
    if view["viewer"] is not None:
        out[_VIEWER + view["viewer"]] = 1.0
    for camp, letter in enumerate(CAMP_LETTERS):
        out[_COUNTS + camp] = view["marbles"][letter] / MARBLES_PER_CAMP
    out[_FLAGS] = float(view["first_capture"])
    out[_FLAGS + 1] = view["quiet_moves"] / view["quiet_limit"]
    out[_FLAGS + 2] = view["repetitions"] / 3
    return out


def board_text(view: Mapping[str, Any]) -> str:
    """The board as text, rank 9 at the top: a marble's camp letter, ``X`` the EX*PION, ``+`` an
    empty special cell, ``.`` an empty cell.

    >>> import ludotheque
    >>> print(board_text(ludotheque.load("expion").new_state().view(None)))  # doctest: +ELLIPSIS
    9  NNNNNNN
    8 W+.....+E
    ...
    5 W...X...E
    ...
    1  SSSSSSS
      abcdefghi
    camp to move N, seat to move 0
    """
    cells, expion = view["cells"], view["expion"]
    rows = []
    for r, layout_row in enumerate(view["layout"]):
        rank = SIZE - r
        row = ""
        for f, mark in enumerate(layout_row):
            name = f"{'abcdefghi'[f]}{rank}"
            row += cells.get(name) or ("X" if name == expion else " " if mark == " " else
                                       "+" if mark == "+" else ".")
        rows.append(f"{rank} {row}".rstrip())
    rows.append("  abcdefghi")
    rows.append(f"camp to move {view['camp_to_move']}, seat to move {view['to_move']}")
    return "\n".join(rows)
