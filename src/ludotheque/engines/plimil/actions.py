"""Plimil for the research interfaces: the fixed integer action encoding and the observation planes.

Every move is ONE action: a capture or a rotation goes with the step that announces it. The table
holds every move that some position allows (``RULES.md``, "Action encoding"), from the board's
tables: play moves in the order of ``legal_moves()`` (by origin, landing, captures by captured cell,
then ``@ccw``, ``@cw``), ``pass``, each block a start cell may be built as (its builder's colour in
the window of a stem that cell can hold), then the ``stems`` moves of 8 letters and those of 10
(``setup10``), so that ``standard`` and ``open`` use a prefix of the range.

>>> import ludotheque
>>> state = ludotheque.load("plimil").new_state()
>>> action_text(encode(state.legal_moves()[0])[0]), action_count("standard", 2), action_count("setup10", 2)
('stems SSSSTTTT', 1471, 1723)
>>> action_text(encode(Move.from_text("d3-d4@cw"))[0]), action_text(0)
('d3-d4@cw', 'd1-c2xb2')
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from itertools import combinations, product
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.contract import State
from ...core.errors import IllegalMoveError
from .board import (
    BACK_DIAGONALS,
    BALL_LETTERS,
    BLOCK_START,
    BLOCKS_PER_PLAYER,
    BLUE,
    CCW,
    CELLS,
    CW,
    FILE_FLANKS,
    FIXED,
    FIXED_TALL,
    NAMES,
    NO_SQUARE,
    PLANTED,
    RANK_FLANKS,
    RED,
    STEPS,
    VARIANTS,
    owner,
    window_slot,
)
from .notation import PASS, Move
from .rules import PlimilState

Action = int


def _play_moves() -> list[Move]:
    """Every play move of either colour, in the order of ``legal_moves()``."""
    found: set[tuple[int, int, int, int]] = set()
    for player in (BLUE, RED):
        for origin in CELLS:
            for landing, jumped in STEPS[player][origin]:
                if jumped != NO_SQUARE:
                    found.add((origin, landing, NO_SQUARE, 0))  # two stems
                    continue
                found.update((origin, landing, captured, 0) for captured, _ in RANK_FLANKS[landing])
                found.update((origin, landing, NO_SQUARE, turn) for turn in (CCW, CW))
            for landing in BACK_DIAGONALS[player][origin]:  # a neutral, toward the player
                found.update((origin, landing, captured, 0) for captured, _ in FILE_FLANKS[landing])
    # Captures (by captured cell) before rotations (ccw before cw), as legal_moves() lists them.
    order = sorted(found, key=lambda m: (m[0], m[1], m[2] == NO_SQUARE, m[2], m[3]))
    return [Move("play", o, la, c, t) for o, la, c, t in order]


def _window_slots(cell: int) -> set[int]:
    """The slots a block built for ``cell`` may show there: planted stems take either height."""
    if any(cell in PLANTED[variant][p] for variant in VARIANTS for p in (BLUE, RED)):
        return {window_slot(is_tall, 0) for is_tall in (False, True)}
    tall = bool(FIXED_TALL["standard"] >> cell & 1)
    assert all(FIXED[v] >> cell & 1 for v in VARIANTS), "a start cell not planted is fixed"
    return {window_slot(tall, 0)}


def _block_moves() -> list[Move]:
    """Every block each start cell may hold at the start: its builder's colour in a window slot."""
    moves = []
    for block, cell in enumerate(BLOCK_START):
        colour = owner(block)
        slots = _window_slots(cell)
        for triple in product(range(3), repeat=3):
            if any(triple[slot] == colour for slot in slots):
                letters = "".join(BALL_LETTERS[ball] for ball in triple)
                moves.append(Move("block", cell, letters=letters))
    return sorted(moves, key=lambda m: (m.origin, m.letters))


def _stems_moves(cells: int) -> list[Move]:
    """Every ``stems`` move planting ``cells`` stems, half of them tall, in ASCII order."""
    return [
        Move("stems", letters="".join("T" if i in tall else "S" for i in range(cells)))
        for tall in combinations(range(cells), cells // 2)
    ][::-1]


_MOVES: list[Move] = [*_play_moves(), PASS, *_block_moves(), *_stems_moves(8), *_stems_moves(10)]
_IDS: dict[Move, Action] = {move: a for a, move in enumerate(_MOVES)}
assert len(_IDS) == len(_MOVES)
assert all(len(PLANTED[v][p]) in (8, 10) for v in VARIANTS for p in (BLUE, RED))
_COUNTS = {"standard": len(_MOVES) - len(_stems_moves(10)), "open": len(_MOVES) - len(_stems_moves(10)),
           "setup10": len(_MOVES)}


def action_count(variant: str, players: int) -> int:
    """The size of the action range for ``variant``: every move it allows has an id below it."""
    return _COUNTS[variant]


def encode(move: Move) -> tuple[Action, ...]:
    """The action of ``move``; raises ``ValueError`` for a move no position allows."""
    try:
        return (_IDS[move],)
    except KeyError:
        raise ValueError(f"plimil: no action for {str(move)!r}") from None


def decode(state: State, actions: Sequence[Action], legal: Container[Move] | None = None) -> Move:
    """The legal move of ``state`` that ``actions`` spell (``legal``: its legal moves, when the
    caller has them in a set); raises ``ValueError`` otherwise."""
    if len(actions) != 1 or not 0 <= actions[0] < len(_MOVES):
        raise ValueError(f"plimil: {list(actions)!r} is not an action sequence")
    move = _MOVES[actions[0]]
    if move not in (state.legal_moves() if legal is None else legal):
        raise IllegalMoveError.here("plimil", str(move), state.ply)
    return move


def action_text(action: Action) -> str:
    """The notation of one action; raises ``ValueError``."""
    if not 0 <= action < len(_MOVES):
        raise ValueError(f"plimil: no action {action!r}")
    return str(_MOVES[action])


def history(state: State) -> list[Move]:
    """The moves that lead from ``new_state`` to ``state``, secrets included: after
    ``determinize`` they hold the re-chosen setup moves."""
    if not isinstance(state, PlimilState):
        raise TypeError(f"plimil: not a Plimil state: {state!r}")
    return list(state.history)


# Observation planes, from a view only. Per cell (the 44 cells in board order, as the table names
# them): stem S, T or unknown; planted by seat 0 / seat 1; a block of seat 0 / seat 1; the colour
# it shows B, R, N; turned over an odd number of times; its three balls as they stand now (bottom
# first), each B, R or N when known. Then the board's quarter turns (4), the seat to move (2),
# the viewer (2), the phase (setup, play, over), the blocks showing B, R, N / 24, quiet plies /
# limit, occurrences / 3, passes / 2, each seat's balls left to build with / 18 and whether known
# (2 × 4), and the setup's progress.
_CELL_PLANES = 20
_CELL_INDEX = {NAMES[cell]: i for i, cell in enumerate(CELLS)}
_GLOBAL = len(CELLS) * _CELL_PLANES
_SIZE = _GLOBAL + 4 + 2 + 2 + 3 + 3 + 3 + 8 + 1
_PHASES = ("setup", "play", "over")
_SETUP_MOVES = 2 * (1 + BLOCKS_PER_PLAYER)


def observation_shape(variant: str, players: int) -> tuple[int, ...]:
    """The shape of :func:`observation`'s array."""
    return (_SIZE,)


def observation(view: Mapping[str, Any], pending: Sequence[Action] = ()) -> npt.NDArray[np.float32]:
    """The view as numbers (see the planes above); built from ``view`` alone, so a secret the
    view keeps from its reader never reaches the array.

    >>> import ludotheque
    >>> state = ludotheque.load("plimil").new_state().play("stems STSTSTST").play("block d1 BBN")
    >>> mine, theirs = observation(state.view(0)), observation(state.view(1))
    >>> mine.shape, int(mine[:_CELL_PLANES].sum()), int(theirs[:_CELL_PLANES].sum())
    ((906,), 7, 4)
    """
    out = np.zeros(_SIZE, dtype=np.float32)
    for entry in view["board"]:
        base = _CELL_INDEX[entry["cell"]] * _CELL_PLANES
        out[base + {"S": 0, "T": 1, None: 2}[entry["stem"]]] = 1.0
        if entry["planted_by"] is not None:
            out[base + 3 + entry["planted_by"]] = 1.0
        block = entry["block"]
        if block is not None:
            out[base + 5 + block["owner"]] = 1.0
            out[base + 7 + BALL_LETTERS.index(block["colour"])] = 1.0
            out[base + 10] = block["flips"] & 1
            for slot, ball in enumerate(block["balls"]):
                if ball is not None:
                    out[base + 11 + 3 * slot + BALL_LETTERS.index(ball)] = 1.0
    at = _GLOBAL
    out[at + view["rotation"] % 4] = 1.0
    at += 4
    if view["to_move"] is not None:
        out[at + view["to_move"]] = 1.0
    if view["viewer"] is not None:
        out[at + 2 + view["viewer"]] = 1.0
    out[at + 4 + _PHASES.index(view["phase"])] = 1.0
    at += 7
    counts = view["counts"]
    out[at : at + 3] = [counts["blue"] / 24, counts["red"] / 24, counts["neutral"] / 24]
    draw = view["draw"]
    out[at + 3 : at + 6] = [draw["quiet_plies"] / view["quiet_limit"], draw["repetitions"] / 3,
                            draw["passes"] / 2]
    at += 6
    for seat, hand in enumerate(view["hands"]):
        if hand is not None:
            out[at + 4 * seat : at + 4 * seat + 3] = np.asarray(hand, dtype=np.float32) / 18
            out[at + 4 * seat + 3] = 1.0
    out[at + 8] = min(view["ply"], _SETUP_MOVES) / _SETUP_MOVES
    return out



def board_text(view: Mapping[str, Any]) -> str:
    """The board as text, rank 8 at the top: a block shows its colour (``B``, ``R``, ``N``), a
    free stem its height (``s``, ``t``, ``?`` unknown); then the counts and the seat to move.

    >>> import ludotheque
    >>> print(board_text(ludotheque.load("plimil", variant="open").new_state().view(None)))
    8    ??
    7  s????t
    6  ts??ts
    5 tstststs
    4 stststst
    3  st??st
    2  t????s
    1    ??
      abcdefgh
    blue 0, red 0, neutral 0, phase setup, to move 0
    """
    grid = [[" "] * 8 for _ in range(8)]
    for entry in view["board"]:
        file, rank = "abcdefgh".index(entry["cell"][0]), int(entry["cell"][1:]) - 1
        block = entry["block"]
        stem = (entry["stem"] or "?").lower()
        grid[rank][file] = block["colour"] if block is not None else stem
    rows = [f"{rank + 1} {''.join(grid[rank])}".rstrip() for rank in range(7, -1, -1)]
    rows.append("  abcdefgh")
    counts = view["counts"]
    rows.append(f"blue {counts['blue']}, red {counts['red']}, neutral {counts['neutral']}, "
                f"phase {view['phase']}, to move {view['to_move']}")
    return "\n".join(rows)
