"""Nim's compiled kernel, the whole of it in one file: the compiled functions of the array-kernel
interface (``ludotheque.engines.searches``), the Python side of ``ludotheque.engines.kernels.Kernel``,
and its searches, built by the shared ``searches.build`` (alpha-beta, UCT, IS-MCTS, PIMC,
playouts, perft) with nothing written for Nim.

A position is seven ``int64`` words: the three heaps, the player to move, the player count,
1 for misère (0 standard) and the player who moved last (-1 before the first move). A move's
code is ``heap * 8 + count``.

>>> from tests.extension.nim.rules import NimGame
>>> state = NimGame("standard", 2).new_state(seed=3)
>>> [move_text(code) for code in legal_moves(from_state(state))][:3]
['a1', 'a2', 'b1']
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from ludotheque.core.contract import Result
from ludotheque.engines import kernels, searches
from ludotheque.engines.compiled import AVAILABLE as AVAILABLE
from ludotheque.engines.compiled import Agreement, Array, Playouts, compiled, require, rng_below

from .rules import LARGEST_HEAP, Move, NimGame, NimState

HEAPS, MOVER, PLAYERS, MISERE, LAST = 0, 3, 4, 5, 6
SIZE = 7
MAX_MOVES = 3 * LARGEST_HEAP
ONGOING = searches.ONGOING


# -- compiled: the array-kernel interface ----------------------------------------------------------
@compiled
def generate(pos: Array, moves: Array) -> int:
    """The legal moves in canonical order: heap a's counts from 1 up, then b's, then c's."""
    n = 0
    for heap in range(3):
        for taken in range(1, pos[HEAPS + heap] + 1):
            moves[n] = heap * 8 + taken
            n += 1
    return n


@compiled
def apply(pos: Array, move: int, out: Array) -> None:
    out[:] = pos
    out[HEAPS + move // 8] -= move % 8
    out[LAST] = pos[MOVER]
    out[MOVER] = (pos[MOVER] + 1) % pos[PLAYERS]


@compiled
def position_key(pos: Array) -> int:
    return int(pos[0] | pos[1] << 3 | pos[2] << 6 | pos[MOVER] << 9 | (pos[LAST] + 1) << 11)


@compiled
def outcome(pos: Array, occurrences: int) -> int:
    """The winners once the heaps are empty: who took the last match (misère: everyone else)."""
    if pos[0] | pos[1] | pos[2]:
        return ONGOING
    last = 1 << pos[LAST]
    return int(((1 << pos[PLAYERS]) - 1) & ~last) if pos[MISERE] else int(last)


@compiled
def mover_of(pos: Array) -> int:
    return int(pos[MOVER])


@compiled
def evaluate(pos: Array) -> int:
    """``rules.evaluate`` in thousandths: two players, ±900 by the nim-sum; else 0."""
    if pos[PLAYERS] != 2:
        return 0
    winning = (pos[0] ^ pos[1] ^ pos[2]) != 0
    if pos[MISERE] and max(pos[0], max(pos[1], pos[2])) <= 1:
        winning = not winning
    return 900 if winning else -900


# -- Python: positions from and to the contract ------------------------------------------------------
@dataclass(frozen=True)
class Position:
    variant: str
    words: tuple[int, ...]
    ply: int

    @property
    def is_over(self) -> bool:
        return not any(self.words[HEAPS:HEAPS + 3]) and self.words[LAST] >= 0

    def result(self) -> Result:
        if not self.is_over:
            raise ValueError("nim kernel: the game is not over")
        return to_state(self).result()


def from_state(state: NimState) -> Position:
    data = state.to_json()
    last = -1 if data["last"] is None else int(data["last"])
    words = (*data["heaps"], data["to_move"], data["players"], int(data["variant"] == "misere"), last)
    return Position(data["variant"], tuple(int(w) for w in words), int(data["ply"]))


def to_state(position: Position, game: NimGame | None = None) -> NimState:
    game = game or NimGame(position.variant, position.words[PLAYERS])
    header = {key: value for key, value in game.new_state().to_json().items()
              if key not in ("heaps", "to_move", "ply", "last")}
    last = position.words[LAST]
    return game.state_from_json({**header, "heaps": list(position.words[HEAPS:HEAPS + 3]),
                                 "to_move": position.words[MOVER], "ply": position.ply,
                                 "last": None if last < 0 else last})


def _array(position: Position) -> Array:
    return np.array(position.words, dtype=np.int64)


def legal_moves(position: Position) -> list[int]:
    require()
    if position.is_over:
        return []
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    n = generate(_array(position), moves)
    return [int(m) for m in moves[:n]]


def play(position: Position, move: int) -> Position:
    if move not in legal_moves(position):
        raise ValueError(f"nim kernel: move {move} is not legal at ply {position.ply}")
    out = np.empty(SIZE, dtype=np.int64)
    apply(_array(position), move, out)
    return Position(position.variant, tuple(int(w) for w in out), position.ply + 1)


def move_code(text: str) -> int:
    move = Move.from_text(text)
    return move.heap * 8 + move.count


def move_text(code: int) -> str:
    return str(Move(code // 8, code % 8))


def _root(state: NimState | Position) -> tuple[Array, Mapping[int, int], bool]:
    position = state if isinstance(state, Position) else from_state(state)
    return _array(position), {}, position.is_over


def _players(state: NimState | Position) -> int:
    position = state if isinstance(state, Position) else from_state(state)
    return position.words[PLAYERS]


SEARCHES = searches.build(
    {"generate": generate, "apply": apply, "position_key": position_key, "outcome": outcome,
     "mover_of": mover_of, "evaluate": evaluate},
    max_moves=MAX_MOVES, root=_root, players=_players,
)
alphabeta = SEARCHES.alphabeta
uct = SEARCHES.uct
pimc = SEARCHES.pimc
ismcts = SEARCHES.ismcts


def playouts(state: NimState | Position, n: int, seed: int = 0) -> Playouts:
    return SEARCHES.playouts(state, n, seed)


def trace_playout(state: NimState | Position, seed: int = 0) -> tuple[list[int], Position]:
    """The first of ``playouts(state, 1, seed)`` move by move (the same draws of the same
    generator), and where it ended."""
    require()
    position = state if isinstance(state, Position) else from_state(state)
    rng = np.array([seed % 2**64], dtype=np.uint64)
    trail = []
    while not position.is_over:
        codes = legal_moves(position)
        trail.append(codes[rng_below(rng, len(codes))])
        position = play(position, trail[-1])
    return trail, position


def perft(depth: int, state: NimState | Position | None = None) -> int:
    return SEARCHES.perft(depth, state if state is not None else NimGame("standard", 2).new_state())


def compare_with_plain(game: Any, games: int, seed: int = 0) -> Agreement:
    return kernels.compare_through_interface(sys.modules[__name__], game, games, seed)
