"""One compiled search over any kernel that gives the compiled functions of the array-kernel
interface (:data:`KERNEL_FUNCTIONS`, below and in ``docs/kernels.md``): alpha-beta (iterative
deepening, principal variation search, transposition table, the game's move ordering: the
table's move, killers, history...), UCT (with MCTS-Solver and a budget in plies),
information-set MCTS (one tree over the worlds, availability counts), PIMC (alpha-beta in each
world, the root move best on average), random playouts and perft, written once here and
specialised per game by :func:`build` at the kernel's import: each template below is compiled
again with the game's functions as its globals (no call through a pointer, so nothing is slower
than a search written for the game; Numba cannot cache these, so a game's searches compile on
their first call in each process). Pylos, Ex*Pion, Imbrication, Plimil and the test game Nim
search here.

The interface, for a position held in a one-dimensional ``int64`` array of the kernel's size:

- ``generate(pos, moves) -> n``: the legal moves' codes (``int32``, non-negative, below
  ``2**24`` for IS-MCTS) in the contract's canonical order in ``moves[:n]``;
- ``apply(pos, move, out)``: the position after ``move`` written into ``out`` (``pos`` untouched);
- ``position_key(pos) -> int``: a non-negative 63-bit hash of what repetition compares (a game
  that counts nothing in the table of positions seen, below, may give its whole 64-bit key);
- ``outcome(pos, occurrences) -> int``: :data:`ONGOING` while the game goes on, :data:`REPEATED`
  for a draw by repetition, else the set of winners as a bit mask (``0``: a draw), for the
  position just reached, which has occurred ``occurrences`` times;
- ``mover_of(pos) -> int``: the player to move (asked only while the game goes on);
- ``evaluate(pos) -> int``: a heuristic value for the player to move, within ``±PROVEN`` (not
  needed where the game gives its own ``score``, below).

A game may give its own pieces of the searches too (:data:`HOOKS`, each with a default here):
``play`` (``apply`` that also writes the next moves, for a game whose step finds them anyway),
``score(pos, moves, ply, n, params)`` (its evaluation with the weights ``params``), ``same_side``
(where one side may move twice in a row), ``order_moves`` (its move ordering), ``table_key`` (a
table key that says whether the position occurred before, where repetition draws depend on the
path), ``rollout`` (UCT's playouts: its own, biased ones...), ``advance`` and ``leaf`` (IS-MCTS's
step and its leaves' values: a playout, or an evaluator). What differs at the root in Python is
an :class:`Options`.

**Wide moves.** A kernel whose move does not fit one ``int32`` code (Imbrication's: a word and
the 64-bit mask of the pieces it captures) is built with ``wide=True``: its move buffers are
``int64`` rows of two columns (the code, then an extra word), ``generate(pos, rows)`` fills them
and may count more moves than the rows hold (the search is then run again with four times the
room), and ``apply(pos, code, extra, out)`` and its hooks take the extra word after the code
(``order_moves(pos, rows, scores, n, first, first_extra, killers, ply, history)``,
``advance(pos, code, extra, following, keys, counts)``). The templates reach a move only
through the small functions of :data:`MOVE_HELPERS`, compiled for one form or the other, so a
narrow kernel's searches are the ones written for one code. Alpha-beta, PIMC, IS-MCTS, playouts
and perft take wide moves; UCT takes narrow ones.

A game without repetition draws may skip the table of positions seen (hooks ``enter``,
``occurrences``, ``leave``), and one whose search counts depth otherwise gives ``child_depth``
(Imbrication's whole turns: a placement whose action is pending costs nothing).

Budgets are nodes and iterations, never time; every random choice comes from the seed: each
search is a pure function of (seed, position), or of (seed, worlds).
"""

from __future__ import annotations

import math
import random
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple

import numpy as np

from .compiled import (
    GOLDEN,
    INFINITY,
    PROVEN,
    WIN,
    Array,
    Playouts,
    SearchResult,
    deepen,
    finished_playouts,
    from_table,
    numba,
    pick,
    require,
    rng_below,
    seen_pop,
    seen_push,
    seen_table,
    shuffled,
    table_slot,
    to_table,
    tree_add_child,
    tree_answer,
    tree_fill,
)

ONGOING = -1
"""``outcome`` while the game goes on (else a bit mask of the winners)."""
REPEATED = -2
"""``outcome`` of a draw by repetition: a draw that the path decided (alpha-beta stores no value
that one decided in its table)."""
OVERFLOWED = -3
"""A playout's (``leaf``'s) outcome when a position had more moves than the buffer's rows (wide
kernels): the iteration is undone and run again with more room."""
MAX_PLY = 128
"""Plies below the root alpha-beta has room for."""
MAX_TREE_DEPTH = 512
"""An MCTS iteration stops going down the tree this deep and plays out from there."""
POOL_PER_ITERATION = 24
"""Room for moves in UCT's tree at first, per iteration (it grows when a search needs more)."""
PLAYOUT_ROOM = 4096
"""Plies a playout may play; a longer one is scored a draw."""
HISTORY = 1 << 16
"""Entries of alpha-beta's history of cut-offs (a move's code modulo this)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
# The columns of alpha-beta's table, one row an entry (a cache line holds two of a narrow
# kernel's): the key, the value, ``depth << 2 | bound``, the move (``_EXTRA``: a wide move's
# extra word).
_KEY, _VALUE, _INFO, _MOVE, _EXTRA = 0, 1, 2, 3, 4
_NODES, _BUDGET, _ABORTED, _SHIFT, _ROOT_DONE, _REPETITIONS, _MARGIN, _OVERFLOW = range(8)
_STORE_NOT, _STORE_DEEPER, _STORE_ALWAYS = 0, 1, 2  # whether and when a root's value is stored


# -- the kernel's compiled functions: stand-ins, replaced by each game's in :func:`build` ---------
def generate(pos: Array, moves: Array) -> int:  # pragma: no cover - a stand-in
    raise NotImplementedError


def apply(pos: Array, move: int, out: Array) -> None:  # pragma: no cover - a stand-in
    raise NotImplementedError


def position_key(pos: Array) -> int:  # pragma: no cover - a stand-in
    raise NotImplementedError


def outcome(pos: Array, occurrences: int) -> int:  # pragma: no cover - a stand-in
    raise NotImplementedError


def mover_of(pos: Array) -> int:  # pragma: no cover - a stand-in
    raise NotImplementedError


def evaluate(pos: Array) -> int:  # pragma: no cover - a stand-in
    raise NotImplementedError


MAX_MOVES = 256
"""A stand-in: :func:`build` gives each game's templates its own bound on one position's moves."""

KERNEL_FUNCTIONS = ("generate", "apply", "position_key", "outcome", "mover_of", "evaluate")
"""The compiled functions a kernel gives :func:`build`."""


# -- per-game pieces of the searches: these defaults, or the game's own given to :func:`build` ----
def play(pos: Array, move: int, child: Array, child_moves: Array) -> int:
    """``apply``, for a game whose step finds the next moves anyway: then they are written into
    ``child_moves`` and counted (else -1: ``generate`` finds them when needed)."""
    apply(pos, move, child)
    return -1


def score(pos: Array, moves: Array, ply: int, n: int, params: Array) -> int:
    """The evaluation alpha-beta calls at its horizon (``params``: the game's weights;
    ``moves[ply, :n]``: the legal moves when ``play`` gave them, else ``n`` is -1)."""
    return evaluate(pos)


def same_side(pos: Array, child: Array) -> bool:
    """Whether the side to move at ``child`` is the one to move at ``pos`` (a team whose other
    camp moves next, a player who moves again): then alpha-beta does not negate."""
    return False


def order_moves(pos: Array, moves: Array, scores: Array, n: int, first: int, killers: Array, ply: int,
                history: Array) -> None:
    """Score ``moves[:n]`` for ordering: the table's move ``first``, then the history of cut-offs."""
    for i in range(n):
        move = int(moves[i])
        scores[i] = (1 << 40) if move == first else history[move % HISTORY]


def _wide_order_moves(pos: Array, moves: Array, scores: Array, n: int, first: int, first_extra: int,
                      killers: Array, ply: int, history: Array) -> None:
    """``order_moves`` of a wide kernel: the table's move, then the history of cut-offs."""
    for i in range(n):
        move, extra = int(moves[i, 0]), int(moves[i, 1])
        is_first = move == first and extra == first_extra
        scores[i] = (1 << 40) if is_first else history[history_slot(move, extra)]


def table_key(pos: Array, key: int, seen_before: bool) -> int:
    """The transposition table's key of ``pos`` (``key``: its ``position_key``), which occurred
    before on the path or in the game when ``seen_before``."""
    return key


def history_slot(move: int, extra: int) -> int:
    """The entry of the history of cut-offs that counts a move (``extra``: 0 for a narrow kernel)."""
    return move % HISTORY


def child_depth(pos: Array, child: Array, depth: int, params: Array) -> int:
    """The depth left below the move from ``pos`` to ``child`` when ``depth`` was left at ``pos``."""
    return depth - 1


def enter(keys: Array, counts: Array, pos: Array) -> int:
    """Count the position reached in the table of positions seen; the slot that :func:`leave`
    takes back (a game without repetition draws may count nothing)."""
    return seen_push(keys, counts, position_key(pos))


def occurrences(counts: Array, slot: int) -> int:
    """How often the position :func:`enter` counted at ``slot`` occurred."""
    return int(counts[slot])


def leave(keys: Array, counts: Array, slot: int) -> None:
    """Take back what :func:`enter` counted."""
    seen_pop(keys, counts, slot)


def rollout(pos: Array, following: Array, keys: Array, counts: Array, slots: Array, trail: Array,
            moves: Array, rng: Array, params: Array) -> tuple[int, int]:
    """UCT's playout from ``pos`` (changed in place) to the end: the outcome (the winners' bits;
    a game longer than ``slots``: :data:`ONGOING`, scored a draw) and the plies played
    (``params``: the game's options of its playouts)."""
    return playout(pos, following, keys, counts, slots, moves, rng)


def advance(pos: Array, move: int, following: Array, keys: Array, counts: Array) -> tuple[int, int]:
    """Play ``move`` on ``pos`` in place (``following``: room for the copy), count the position
    reached in the table of positions seen: its ``outcome`` and the slot to pop (-1: none)."""
    apply(pos, move, following)
    pos[:] = following
    slot = enter(keys, counts, pos)
    return outcome(pos, occurrences(counts, slot)), slot


def _wide_advance(pos: Array, move: int, extra: int, following: Array, keys: Array,
                  counts: Array) -> tuple[int, int]:
    """``advance`` of a wide kernel."""
    apply(pos, move, extra, following)  # type: ignore[call-arg, arg-type]  # wide: the extra word
    pos[:] = following
    slot = enter(keys, counts, pos)
    return outcome(pos, occurrences(counts, slot)), slot


def leaf(pos: Array, following: Array, keys: Array, counts: Array, slots: Array, trail: Array,
         moves: Array, rng: Array, params: Array) -> tuple[int, float]:
    """IS-MCTS's value of a leaf that is not over: the winners' bits of a playout from it
    (``rollout``; 0: a draw; :data:`OVERFLOWED`: more room needed), or :data:`ONGOING` and a
    heuristic value for player 0 (two players)."""
    ended, _ = rollout(pos, following, keys, counts, slots, trail, moves, rng, params)
    if ended == OVERFLOWED:
        return ended, 0.0
    return max(0, ended), 0.0


HOOKS = ("play", "score", "same_side", "order_moves", "table_key", "history_slot", "child_depth", "enter",
         "occurrences", "leave", "rollout", "advance", "leaf")
"""The per-game pieces of the templates a game may give :func:`build` (else these defaults)."""
WIDE_DEFAULTS = {"order_moves": _wide_order_moves, "advance": _wide_advance}
"""The defaults of a wide kernel's hooks that take the extra word (the others are the same)."""


# -- how the templates hold a move: one code (narrow), or a row of a code and an extra word (wide) --
def move_at(rows: Array, i: int) -> tuple[int, int]:
    """Move ``i`` of a buffer: its code and extra word (0 for a narrow kernel)."""
    return int(rows[i]), 0


def _wide_move_at(rows: Array, i: int) -> tuple[int, int]:
    return int(rows[i, 0]), int(rows[i, 1])


def pick_move(rows: Array, scores: Array, i: int, n: int) -> tuple[int, int]:
    """Bring the best-scored move of ``i..n`` to ``i`` (a lazy selection sort) and return it."""
    return pick(rows, scores, i, n), 0


def _wide_pick_move(rows: Array, scores: Array, i: int, n: int) -> tuple[int, int]:
    best = i
    for j in range(i + 1, n):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        for column in range(2):
            rows[i, column], rows[best, column] = rows[best, column], rows[i, column]
        scores[i], scores[best] = scores[best], scores[i]
    return int(rows[i, 0]), int(rows[i, 1])


def apply_move(pos: Array, move: int, extra: int, out: Array) -> None:
    """The kernel's ``apply`` of a move held as code and extra word."""
    apply(pos, move, out)


def _wide_apply_move(pos: Array, move: int, extra: int, out: Array) -> None:
    apply(pos, move, extra, out)  # type: ignore[call-arg, arg-type]  # wide: the extra word


def play_move(pos: Array, move: int, extra: int, child: Array, child_moves: Array) -> int:
    """The game's ``play`` of a move held as code and extra word (a wide kernel: ``apply``)."""
    return play(pos, move, child, child_moves)


def _wide_play_move(pos: Array, move: int, extra: int, child: Array, child_moves: Array) -> int:
    apply(pos, move, extra, child)  # type: ignore[call-arg, arg-type]  # wide: the extra word
    return -1


def order_row(pos: Array, rows: Array, scores: Array, n: int, first: int, first_extra: int, killers: Array,
              ply: int, history: Array) -> None:
    """The game's ``order_moves`` (a wide kernel's takes the table move's extra word too)."""
    order_moves(pos, rows, scores, n, first, killers, ply, history)


def _wide_order_row(pos: Array, rows: Array, scores: Array, n: int, first: int, first_extra: int,
                    killers: Array, ply: int, history: Array) -> None:
    order_moves(pos, rows, scores, n, first, first_extra, killers, ply, history)  # type: ignore[call-arg, arg-type]  # wide


def remember_killer(killers: Array, ply: int, move: int, extra: int) -> None:
    """A move that cut off at ``ply`` becomes its first killer (the first becomes the second)."""
    if move != killers[ply, 0]:
        killers[ply, 1] = killers[ply, 0]
        killers[ply, 0] = move


def _wide_remember_killer(killers: Array, ply: int, move: int, extra: int) -> None:
    if move != killers[ply, 0, 0] or extra != killers[ply, 0, 1]:
        killers[ply, 1, 0], killers[ply, 1, 1] = killers[ply, 0, 0], killers[ply, 0, 1]
        killers[ply, 0, 0], killers[ply, 0, 1] = move, extra


def table_move(table: Array, slot: int) -> tuple[int, int]:
    """The move an entry of alpha-beta's table keeps."""
    return int(table[slot, _MOVE]), 0


def _wide_table_move(table: Array, slot: int) -> tuple[int, int]:
    return int(table[slot, _MOVE]), int(table[slot, _EXTRA])


def store_move(table: Array, slot: int, move: int, extra: int) -> None:
    """Keep ``move`` in an entry of alpha-beta's table."""
    table[slot, _MOVE] = move


def _wide_store_move(table: Array, slot: int, move: int, extra: int) -> None:
    table[slot, _MOVE] = move
    table[slot, _EXTRA] = extra


def advance_move(pos: Array, move: int, extra: int, following: Array, keys: Array,
                 counts: Array) -> tuple[int, int]:
    """The game's ``advance`` of a move held as code and extra word."""
    return advance(pos, move, following, keys, counts)


def _wide_advance_move(pos: Array, move: int, extra: int, following: Array, keys: Array,
                       counts: Array) -> tuple[int, int]:
    return advance(pos, move, extra, following, keys, counts)  # type: ignore[call-arg, arg-type]  # wide


def edge_find(edge_keys: Array, edge_extra: Array, parent: int, move: int, extra: int) -> int:
    """The slot of the edge (``parent``, move) in IS-MCTS's table of edges: where it is, or the
    empty slot (key -1) where it would go."""
    return edge_slot(edge_keys, parent, move)


def _wide_edge_find(edge_keys: Array, edge_extra: Array, parent: int, move: int, extra: int) -> int:
    key = parent << 24 | move
    mask: int = edge_keys.shape[0] - 1
    mixed = (np.uint64(key) * GOLDEN) ^ np.uint64(extra)
    slot = int((mixed * GOLDEN) >> np.uint64(32)) & mask
    while edge_keys[slot] != -1 and (edge_keys[slot] != key or edge_extra[slot] != extra):
        slot = (slot + 1) & mask
    return slot


def edge_store(edge_keys: Array, edge_extra: Array, slot: int, parent: int, move: int, extra: int) -> None:
    """Write the edge (``parent``, move) at ``slot`` of the table of edges."""
    edge_keys[slot] = parent << 24 | move


def _wide_edge_store(edge_keys: Array, edge_extra: Array, slot: int, parent: int, move: int,
                     extra: int) -> None:
    edge_keys[slot] = parent << 24 | move
    edge_extra[slot] = extra


MOVE_HELPERS = {"move_at": _wide_move_at, "pick_move": _wide_pick_move, "apply_move": _wide_apply_move,
                "play_move": _wide_play_move, "order_row": _wide_order_row,
                "remember_killer": _wide_remember_killer, "table_move": _wide_table_move,
                "store_move": _wide_store_move, "advance_move": _wide_advance_move,
                "edge_find": _wide_edge_find, "edge_store": _wide_edge_store}
"""The functions through which the templates reach a move: each name's narrow form is the
function of that name, its wide form this mapping's."""


# -- templates, compiled once per game with its functions -------------------------------------------
def perft_count(stack: Array, ply: int, depth: int, keys: Array, counts: Array, moves: Array) -> int:
    """Positions after exactly ``depth`` ≥ 1 plies from ``stack[ply]`` (a game that ends sooner
    stops there); ``stack`` and ``moves`` have a row per ply; -1 when a position had more moves
    than the rows of ``moves`` (wide kernels)."""
    pos = stack[ply]
    child = stack[ply + 1]
    row = moves[ply]
    n = generate(pos, row)
    if n > row.shape[0]:
        return -1
    total = 0
    for i in range(n):
        move, extra = move_at(row, i)
        apply_move(pos, move, extra, child)
        slot = enter(keys, counts, child)
        if depth == 1:
            total += 1
        elif outcome(child, occurrences(counts, slot)) == ONGOING:
            below = perft_count(stack, ply + 1, depth - 1, keys, counts, moves)
            if below < 0:
                leave(keys, counts, slot)
                return -1
            total += below
        leave(keys, counts, slot)
    return total


def playout(current: Array, following: Array, keys: Array, counts: Array, slots: Array, moves: Array,
            rng: Array) -> tuple[int, int]:
    """Uniformly random moves from ``current`` (changed in place) to the end: the outcome, or
    :data:`ONGOING` when the game outlasts ``slots`` (:data:`OVERFLOWED` when a position had
    more moves than ``moves`` has rows), and the plies played."""
    plies = 0
    ended = ONGOING
    while plies < slots.shape[0]:
        n = generate(current, moves)
        if n > moves.shape[0]:
            ended = OVERFLOWED
            break
        move, extra = move_at(moves, rng_below(rng, n))
        apply_move(current, move, extra, following)
        current[:] = following
        slot = enter(keys, counts, current)
        slots[plies] = slot
        plies += 1
        ended = outcome(current, occurrences(counts, slot))
        if ended != ONGOING:
            break
    for i in range(plies - 1, -1, -1):
        leave(keys, counts, slots[i])
    return ended, plies


def run_playouts(root: Array, n: int, players: int, keys: Array, counts: Array, rng: Array,
                 room: int, moves: Array) -> tuple[Array, int, Array, bool]:
    """``n`` playouts from ``root``: wins per player, draws (a game longer than ``room``
    included), each one's length, and whether every position fitted in ``moves`` (if not, the
    batch stops: play it again with more rows)."""
    wins = np.zeros(players, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    draws = 0
    current = root.copy()
    following = root.copy()
    slots = np.empty(room, dtype=np.int64)
    for k in range(n):
        current[:] = root
        ended, plies = playout(current, following, keys, counts, slots, moves, rng)
        if ended == OVERFLOWED:
            return wins, draws, lengths, False
        lengths[k] = plies
        if ended <= 0:
            draws += 1
        else:
            for player in range(players):
                if ended >> player & 1:
                    wins[player] += 1
    return wins, draws, lengths, True


def negamax(stack: Array, ply: int, depth: int, alpha: int, beta: int, seen_before: bool, keys: Array,
            counts: Array, table: Array, moves: Array, counts_of: Array, scores: Array, killers: Array,
            history: Array, stats: Array, params: Array) -> int:
    """The value of ``stack[ply]`` for the side to move, within (alpha, beta); 0 once the
    budget ran out (``stats[_ABORTED]``), or a position had more moves than the buffers' rows
    (``stats[_OVERFLOW]`` too). ``counts_of[ply]``: how many moves ``play`` wrote in
    ``moves[ply]``, -1 when it wrote none. A value a repetition draw decided below (``outcome``
    :data:`REPEATED`) is not stored: no other path can share it."""
    if depth <= 0 or ply >= moves.shape[0] - 2:  # the buffers' last rows: MAX_PLY - 1 at most
        return score(stack[ply], moves, ply, counts_of[ply], params)
    pos = stack[ply]
    n = counts_of[ply]
    key = table_key(pos, position_key(pos), seen_before)
    slot = table_slot(key, stats[_SHIFT])
    first = first_extra = -1
    if table[slot, _KEY] == key:
        first, first_extra = table_move(table, slot)
        if table[slot, _INFO] >> 2 >= depth:
            value = from_table(int(table[slot, _VALUE]), ply)
            bound = table[slot, _INFO] & 3
            if bound == _EXACT or (bound == _LOWER and value >= beta) or (bound == _UPPER and value <= alpha):
                return value
    row = moves[ply]
    order = scores[ply]
    if n < 0:
        n = generate(pos, row)
        if n > row.shape[0]:
            stats[_OVERFLOW] = 1
            stats[_ABORTED] = 1
            return 0
    order_row(pos, row, order, n, first, first_extra, killers, ply, history)
    mover = mover_of(pos)
    child = stack[ply + 1]
    child_moves = moves[ply + 1]
    original_alpha = alpha
    repetitions = stats[_REPETITIONS]
    best_value = -INFINITY
    best_move = best_extra = -1
    for i in range(n):
        move, extra = pick_move(row, order, i, n)
        if stats[_NODES] >= stats[_BUDGET]:  # counted only once visited: the budget is a bound
            stats[_ABORTED] = 1
            return 0
        stats[_NODES] += 1
        counts_of[ply + 1] = play_move(pos, move, extra, child, child_moves)
        seen = enter(keys, counts, child)
        times = occurrences(counts, seen)
        ended = outcome(child, times)
        if ended == 0:
            value = 0
        elif ended == REPEATED:
            stats[_REPETITIONS] += 1
            value = 0
        elif ended != ONGOING:
            value = WIN - ply - 1 if ended >> mover & 1 else ply + 1 - WIN
        else:
            same = same_side(pos, child)
            below = child_depth(pos, child, depth, params)
            if below <= 0 or ply + 1 >= moves.shape[0] - 2:  # a leaf: what negamax would answer there
                value = score(child, moves, ply + 1, counts_of[ply + 1], params)
                if not same:
                    value = -value
            else:
                # Principal variation search: the first move with the whole window, a later one
                # with a null window that proves it no better, else searched again.
                low = alpha
                high = beta if i == 0 else alpha + 1
                while True:
                    if same:
                        value = negamax(stack, ply + 1, below, low, high, times > 1, keys, counts, table,
                                        moves, counts_of, scores, killers, history, stats, params)
                    else:
                        value = -negamax(stack, ply + 1, below, -high, -low, times > 1, keys, counts, table,
                                         moves, counts_of, scores, killers, history, stats, params)
                    if high == beta or stats[_ABORTED] or value <= low or value >= beta:
                        break
                    high = beta
        leave(keys, counts, seen)
        if stats[_ABORTED]:
            return 0
        if value > best_value:
            best_value, best_move, best_extra = value, move, extra
        alpha = max(alpha, value)
        if alpha >= beta:
            remember_killer(killers, ply, move, extra)
            history[history_slot(move, extra)] += depth * depth
            break
    if stats[_REPETITIONS] == repetitions:  # no repetition draw decided it: no path can change it
        bound = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
        if table[slot, _KEY] != key or table[slot, _INFO] >> 2 <= depth:
            table[slot, _KEY] = key
            table[slot, _VALUE] = to_table(best_value, ply)
            table[slot, _INFO] = depth << 2 | bound
            store_move(table, slot, best_move, best_extra)
    return best_value


def root_iteration(stack: Array, depth: int, root: Array, values: Array, seen_before: bool, keys: Array,
                   counts: Array, table: Array, moves: Array, counts_of: Array, scores: Array, killers: Array,
                   history: Array, stats: Array, params: Array, exact: bool, store: int) -> bool:
    """One iteration of iterative deepening over the root moves ``root`` (best first): each
    one's value in ``values`` (exact for the best, a bound for the others; exact too for those
    within ``stats[_MARGIN]`` of the best so far; with ``exact``, every move searched with the
    whole window: exact values all); false when the budget ran out. ``store`` says whether the
    root's value goes into the table too: never, when the entry there is not deeper, or always
    (``seen_before``: the root occurred before)."""
    # Typed int64, not as literals: a recursive function called with other argument types than
    # its own gets a second compilation.
    infinity: int = np.int64(INFINITY)  # type: ignore[assignment]
    first_ply: int = np.int64(1)  # type: ignore[assignment]
    pos = stack[0]
    child = stack[1]
    child_moves = moves[1]
    mover = mover_of(pos)
    alpha = -infinity
    repetitions = stats[_REPETITIONS]
    best_value = -infinity
    best_move = best_extra = -1
    for i in range(root.shape[0]):
        move, extra = move_at(root, i)
        if stats[_NODES] >= stats[_BUDGET]:
            stats[_ABORTED] = 1
            return False
        stats[_NODES] += 1
        counts_of[1] = play_move(pos, move, extra, child, child_moves)
        seen = enter(keys, counts, child)
        times = occurrences(counts, seen)
        ended = outcome(child, times)
        if ended == 0:
            value = 0
        elif ended == REPEATED:
            stats[_REPETITIONS] += 1
            value = 0
        elif ended != ONGOING:
            value = WIN - 1 if ended >> mover & 1 else 1 - WIN
        else:
            same = same_side(pos, child)
            below = child_depth(pos, child, depth, params)
            low = alpha if i == 0 or exact else alpha - stats[_MARGIN]
            high = infinity if i == 0 or exact else low + 1
            if exact:
                low = -infinity
            while True:
                if same:
                    value = negamax(stack, first_ply, below, low, high, times > 1, keys, counts, table, moves,
                                    counts_of, scores, killers, history, stats, params)
                else:
                    value = -negamax(stack, first_ply, below, -high, -low, times > 1, keys, counts, table,
                                     moves, counts_of, scores, killers, history, stats, params)
                if high == infinity or stats[_ABORTED] or value <= low:
                    break
                high = infinity
        leave(keys, counts, seen)
        if stats[_ABORTED]:
            return False
        values[i] = value
        stats[_ROOT_DONE] = i + 1
        if value > best_value:
            best_value, best_move, best_extra = value, move, extra
        alpha = max(alpha, value)
    if store != _STORE_NOT and stats[_REPETITIONS] == repetitions:
        key = table_key(pos, position_key(pos), seen_before)
        slot = table_slot(key, stats[_SHIFT])
        if store == _STORE_ALWAYS or table[slot, _KEY] != key or table[slot, _INFO] >> 2 <= depth:
            table[slot, _KEY] = key
            table[slot, _VALUE] = to_table(best_value, 0)
            table[slot, _INFO] = depth << 2 | _EXACT
            store_move(table, slot, best_move, best_extra)
    return True


def uct_iterations(root: Array, keys: Array, counts: Array, iterations: int, exploration: float,
                   solver: bool, params: Array, rng: Array, node_move: Array, node_mover: Array,
                   node_visits: Array, node_totals: Array, node_first: Array, node_moves: Array,
                   node_expanded: Array, node_proven: Array, pool_moves: Array, pool_child: Array,
                   sizes: Array, plies_budget: int, pos: Array, following: Array, path: Array,
                   path_slots: Array, slots: Array, trail: Array, buffer: Array) -> int:
    """Up to ``iterations`` UCT iterations from ``root`` on the tree held in the arrays
    (``sizes``: nodes, pool entries used and plies played, in the tree and in playouts; a
    node's moves lie in the pool from ``node_first``, -1 until an iteration reaches it, the
    first ``node_expanded`` of them with a child); returns how many ran (fewer when the pool is
    full: grow it and call again; when the solver proved the root's value, or when
    ``plies_budget`` plies were played). An iteration walks down by UCB1 (``exploration`` for
    values in [-1, 1]), adds one child for an untried move drawn at random, plays out from there
    (``rollout``) and backs up +1 for the winners, -1 for the others, 0 for a draw. With
    ``solver`` (MCTS-Solver, Winands, Björnsson and Saito 2008), wins and losses proven by the
    ends of games in the tree go up it: a proven win is always chosen, a proven loss never while
    another move remains (``node_proven``: +1 won, -1 lost for whoever moved there)."""
    for done in range(iterations):
        if (sizes[1] + MAX_MOVES > pool_moves.shape[0] or (solver and node_proven[0] != 0)
                or sizes[2] >= plies_budget):
            return done
        pos[:] = root
        node = 0
        depth = 0
        path[0] = 0
        ended = ONGOING
        given = -1  # the moves ``play`` wrote in ``buffer``, -1: none
        while True:
            if node_first[node] < 0:
                n = given if given >= 0 else generate(pos, buffer)
                tree_fill(node, buffer, n, sizes, node_first, node_moves, pool_moves, pool_child)
            start = node_first[node]
            n = node_moves[node]
            k = node_expanded[node]
            if k < n:
                child = tree_add_child(node, mover_of(pos), rng, sizes, node_first, node_expanded, node_move,
                                       node_mover, node_visits, node_totals, node_moves, pool_moves,
                                       pool_child)
                node_proven[child] = 0
            else:
                parent_log = math.log(node_visits[node])
                best_score = -math.inf
                child = -1
                for i in range(n):
                    candidate = pool_child[start + i]
                    if solver and node_proven[candidate] != 0:
                        if node_proven[candidate] > 0:
                            child = candidate
                            break
                        continue  # a proven loss: never while another move remains
                    visits = node_visits[candidate]
                    score = node_totals[candidate] / visits + exploration * math.sqrt(parent_log / visits)
                    if score > best_score:
                        best_score, child = score, candidate
                if child < 0:
                    child = pool_child[start]
            given = play(pos, int(node_move[child]), following, buffer)
            pos[:] = following
            seen = seen_push(keys, counts, position_key(pos))
            depth += 1
            path[depth] = child
            path_slots[depth] = seen
            ended = outcome(pos, counts[seen])
            if ended != ONGOING:
                if solver and ended > 0 and ended >> node_mover[child] & 1:
                    node_proven[child] = 1
                break
            if k < n or depth >= MAX_TREE_DEPTH:
                break
            node = child
        sizes[2] += depth
        if ended == ONGOING:
            ended, plies = rollout(pos, following, keys, counts, slots, trail, buffer, rng, params)
            sizes[2] += plies
        for i in range(depth, 0, -1):
            seen_pop(keys, counts, path_slots[i])
        for i in range(depth + 1):
            visited = path[i]
            node_visits[visited] += 1
            if ended > 0 and i > 0:
                node_totals[visited] += 1.0 if ended >> node_mover[visited] & 1 else -1.0
        if solver:
            for i in range(depth, 0, -1):
                proven = node_proven[path[i]]
                parent = path[i - 1]
                if proven > 0:  # the player to move at the parent wins by this move
                    node_proven[parent] = -1
                elif proven < 0 and node_expanded[parent] == node_moves[parent]:
                    first = node_first[parent]
                    every_move_loses = True
                    for j in range(node_moves[parent]):
                        if node_proven[pool_child[first + j]] >= 0:
                            every_move_loses = False
                            break
                    if not every_move_loses:
                        break
                    node_proven[parent] = 1  # won for whoever moved there
                else:
                    break
    return iterations


def edge_slot(edge_keys: Array, parent: int, move: int) -> int:
    """The slot of the edge (``parent``, ``move``) in the table of edges: where its key is, or
    the empty slot (key -1) where it would go (move codes below ``2**24``)."""
    key = parent << 24 | move
    mask: int = edge_keys.shape[0] - 1
    slot = int((np.uint64(key) * GOLDEN) >> np.uint64(32)) & mask
    while edge_keys[slot] != -1 and edge_keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


def mcts_iterations(worlds: Array, start: int, iterations: int, exploration: float, keys: Array,
                    counts: Array, params: Array, rng: Array, node_move: Array, node_extra: Array,
                    node_mover: Array, node_visits: Array, node_available: Array, node_totals: Array,
                    node_first: Array, node_next: Array, edge_keys: Array, edge_extra: Array,
                    edge_child: Array, sizes: Array, current: Array, following: Array, path: Array,
                    path_slots: Array, slots: Array, trail: Array, moves: Array, found: Array,
                    found_at: Array, untried: Array) -> int:
    """``iterations`` iterations of information-set MCTS (Cowling, Powley and Whitehouse 2012;
    UCT when there is one world): iteration ``k`` plays in ``worlds[(start + k) %
    len(worlds)]`` and walks down: where some legal move has no child yet, it adds one for such
    a move drawn at random and stops; else it follows the child of best UCB1 (``exploration``
    for values in [-1, 1], the child's availability, how often its move was legal when its
    parent was visited, in place of the parent's visits; ties to canonical order). The leaf is
    scored by ``leaf`` (a playout to the end: +1 for the winners, -1 for the others, 0 for a
    draw; or a heuristic value for player 0) and backed up for whoever moved into each node.
    Returns how many ran: fewer when the node arrays are full, or when a position had more
    moves than the rows of ``moves`` (``sizes[1]`` is then 1; the iteration is undone but for
    the availability counts it raised: give more rows and go on)."""
    capacity = node_move.shape[0]
    for done in range(iterations):
        if sizes[0] + 1 >= capacity:
            return done
        current[:] = worlds[(start + done) % worlds.shape[0]]
        node = 0
        depth = 0
        path[0] = 0
        ended = ONGOING
        added = -1
        while True:
            n = generate(current, moves)
            if n > moves.shape[0]:
                for i in range(depth, 0, -1):
                    if path_slots[i] >= 0:
                        leave(keys, counts, path_slots[i])
                sizes[1] = 1
                return done
            tried = fresh = 0
            for i in range(n):
                move, extra = move_at(moves, i)
                slot = edge_find(edge_keys, edge_extra, node, move, extra)
                if edge_keys[slot] == -1:
                    untried[fresh] = i
                    fresh += 1
                else:
                    child = edge_child[slot]
                    node_available[child] += 1
                    found[tried] = child
                    found_at[tried] = i
                    tried += 1
            if fresh:
                move, extra = move_at(moves, untried[rng_below(rng, fresh)])
                child = sizes[0]
                sizes[0] = child + 1
                node_move[child] = move
                node_extra[child] = extra
                node_mover[child] = mover_of(current)
                node_visits[child] = 0
                node_available[child] = 1
                node_totals[child] = 0.0
                node_first[child] = -1
                node_next[child] = node_first[node]
                node_first[node] = child
                added = edge_find(edge_keys, edge_extra, node, move, extra)
                edge_store(edge_keys, edge_extra, added, node, move, extra)
                edge_child[added] = child
            else:
                best_score = -math.inf
                best = 0
                for i in range(tried):
                    candidate = found[i]
                    visits = node_visits[candidate]
                    score = node_totals[candidate] / visits + exploration * math.sqrt(
                        math.log(node_available[candidate]) / visits)
                    if score > best_score:
                        best_score, best = score, i
                child = found[best]
                move, extra = move_at(moves, found_at[best])
            ended, seen = advance_move(current, move, extra, following, keys, counts)
            depth += 1
            path[depth] = child
            path_slots[depth] = seen
            if ended != ONGOING or fresh or depth >= MAX_TREE_DEPTH:
                break
            node = child
        value = 0.0
        if ended == ONGOING:
            ended, value = leaf(current, following, keys, counts, slots, trail, moves, rng, params)
        for i in range(depth, 0, -1):
            if path_slots[i] >= 0:
                leave(keys, counts, path_slots[i])
        if ended == OVERFLOWED:  # the child just added goes (the last added: no probe passed it)
            if added >= 0:
                edge_keys[added] = -1
                node_first[node] = node_next[path[depth]]
                sizes[0] -= 1
            sizes[1] = 1
            return done
        node_visits[0] += 1
        for i in range(1, depth + 1):
            visited = path[i]
            node_visits[visited] += 1
            if ended > 0:
                node_totals[visited] += 1.0 if ended >> node_mover[visited] & 1 else -1.0
            elif ended == ONGOING:  # no result: a heuristic value for player 0
                node_totals[visited] += value if node_mover[visited] == 0 else -value
    return iterations


TEMPLATES = ("play", "score", "same_side", "order_moves", "table_key", "history_slot", "child_depth",
             "enter", "occurrences", "leave", "perft_count", "playout", "rollout", "run_playouts", "negamax",
             "root_iteration", "uct_iterations", "advance", "leaf", "edge_slot", "mcts_iterations",
             *MOVE_HELPERS)
"""The functions :func:`build` compiles again for each kernel."""


# -- Python: the searches at the root ---------------------------------------------------------------
def _squash(value: int) -> float:
    """A search value as [-1, 1] for the player to move: ±1 for proven results, heuristic
    values (thousandths) squashed by ``tanh``."""
    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return -1.0
    return math.tanh(value / 1000.0)


def _table_bits(nodes: int) -> int:
    return 16


@dataclass(frozen=True)
class Options:
    """What a game sets at the root of its searches: ``name`` begins error messages, ``squash``
    turns an alpha-beta value into [-1, 1], ``table_bits(nodes)`` sizes the transposition
    table, ``history`` the history of cut-offs (a move's slot: its code modulo that, or the
    game's ``history_slot``); ``store_root``: the root's value goes into the table too
    (``store_root_always``: even over a deeper entry); ``partial``: a move that an abandoned
    iteration proved better than the last best comes first (else, with ``keep_abandoned``,
    the values that iteration wrote stand); ``count_overrun``: the position at which the budget
    ran out is counted as visited; ``exact_settles_all``: with exact root values, deepening
    stops only once every root move is proven; ``playout_room``: the plies a playout of UCT or
    IS-MCTS may play (a longer one is scored a draw)."""

    name: str = "kernel"
    squash: Callable[[int], float] = _squash
    table_bits: Callable[[int], int] = _table_bits
    history: int = HISTORY
    store_root: bool = False
    store_root_always: bool = False
    partial: bool = True
    keep_abandoned: bool = False
    count_overrun: bool = False
    exact_settles_all: bool = False
    playout_room: int = PLAYOUT_ROOM


Listing = Callable[[Array, int], tuple[Array, list[int]]]
"""An array position and a number of rows -> its legal moves as the templates hold them (a
wide kernel's rows; fewer rows than moves: more room is taken) and their codes outside."""


class _Plan(NamedTuple):
    """What one alpha-beta search is asked: its depth (``step`` more an iteration), its node
    budget, whether every root value is exact, the game's ``params``, the margin of a random
    choice, the table's size (bits) and the rows of a wide kernel's buffers."""

    depth: int
    nodes: int
    step: int
    exact: bool
    params: Array | None
    margin: int
    bits: int
    room: int


class _Buffers(NamedTuple):
    """What an alpha-beta search works in (a PIMC search's worlds reuse them, cleared): its
    transposition table, positions, moves and their counts, ordering scores, killers, history."""

    table: Array
    stack: Array
    moves: Array
    counts_of: Array
    scores: Array
    killers: Array
    history: Array


class _Deepened(NamedTuple):
    """One position searched by iterative deepening: the root moves (indexes into the legal
    moves) best first with their values, the depth completed, the positions visited, whether an
    iteration overran, and the transposition table it leaves (and its shift)."""

    ranked: Array
    values: Array
    depth: int
    nodes: int
    overran: bool
    table: Array
    shift: int


@dataclass(frozen=True)
class Searches:
    """A game's searches, built by :func:`build`: each takes a contract ``State`` or the
    kernel's position (``worlds``: a list of them) and answers a :class:`SearchResult` in the
    kernel's move codes (a wide kernel's: the codes its ``listing`` gives)."""

    compiled: Mapping[str, Any]
    root: Callable[[Any], tuple[Array, Mapping[int, int], bool]]
    players: Callable[[Any], int]
    max_moves: int
    options: Options
    wide: bool = False
    listing: Listing | None = None

    def _start(self, state: Any) -> tuple[Array, Mapping[int, int]]:
        require()
        pos, seen, over = self.root(state)
        if over:
            raise ValueError(f"{self.options.name}: no move to search, the game is over")
        return pos, seen

    def _legal(self, pos: Array, room: int | None = None) -> tuple[Array, list[int]]:
        """The legal moves of ``pos`` as the templates hold them, and their codes outside."""
        if self.listing is not None:
            return self.listing(pos, room or self.max_moves)
        moves = np.empty(self.max_moves, dtype=np.int32)
        n = self.compiled["generate"](pos, moves)
        return moves[:n], [int(m) for m in moves[:n]]

    def _codes(self, pos: Array) -> list[int]:
        return self._legal(pos)[1]

    def _pairs(self, rows: Array) -> list[tuple[int, int]]:
        """Each move of ``rows`` as (code, extra word)."""
        if self.wide:
            return [(int(code), int(extra)) for code, extra in rows.tolist()]
        return [(int(code), 0) for code in rows.tolist()]

    def _buffer(self, rows: int, room: int) -> Array:
        """Move buffers: ``rows`` of ``room`` moves (a wide kernel's: two words a move)."""
        if self.wide:
            return np.empty((rows, room, 2), dtype=np.int64)
        return np.empty((rows, self.max_moves), dtype=np.int32)

    def _stack(self, pos: Array, rows: int) -> Array:
        """Positions below the root, every row first the root (a wide kernel's ``apply`` may
        write only what a move changes)."""
        stack = np.empty((rows, pos.shape[0]), dtype=np.int64)
        stack[:] = pos
        return stack

    def perft(self, depth: int, state: Any) -> int:
        """Positions after exactly ``depth`` plies from ``state`` (an ended game: 0 beyond it)."""
        require()
        pos, seen, over = self.root(state)
        if depth == 0:
            return 1
        if over:
            return 0
        keys, counts = seen_table(seen, spare=depth)
        room = self.max_moves
        while True:
            found = int(self.compiled["perft_count"](self._stack(pos, depth + 1), 0, depth, keys, counts,
                                                     self._buffer(depth, room)))
            if found >= 0:
                return found
            room *= 4

    def playouts(self, state: Any, n: int, seed: int = 0) -> Playouts:
        """``n`` uniformly random playouts from ``state``, a pure function of ``seed``; of a
        finished game, its result ``n`` times (length 0)."""
        require()
        pos, seen, over = self.root(state)
        players = self.players(state)
        if over:
            ended = self.compiled["outcome"](pos, seen.get(self.compiled["position_key"](pos), 1))
            return finished_playouts([p for p in range(players) if ended >> p & 1], players, n)
        keys, counts = seen_table(seen, spare=PLAYOUT_ROOM)
        room = self.max_moves
        while True:
            rng = np.array([seed % 2**64], dtype=np.uint64)
            wins, draws, lengths, done = self.compiled["run_playouts"](pos, n, players, keys, counts, rng,
                                                                       PLAYOUT_ROOM, self._buffer(1, room)[0])
            if done:
                return Playouts(wins, int(draws), lengths)
            room *= 4

    def _buffers(self, pos: Array, plan: _Plan, reuse: list[_Buffers]) -> _Buffers:
        """Buffers for a search of ``pos`` as ``plan`` asks: those of ``reuse`` cleared when they
        fit (the table's keys, the killers and the history: the rest is written before it is
        read), else new ones (kept in ``reuse``)."""
        cols = 5 if self.wide else 4
        # Rows for the plies below the root: a wide kernel's buffers are large, so as many as
        # the depth needs if a move may cost no depth in two (the deepest then scores its leaf).
        rows = min(MAX_PLY, 2 * plan.depth + 2) + 1 if self.wide else MAX_PLY + 1
        if (reuse and reuse[0].table.shape == (1 << plan.bits, cols)
                and reuse[0].moves.shape[:2] == (rows, plan.room)):
            found = reuse[0]
            found.table[:, _KEY] = -1
            found.stack[:] = pos
            found.counts_of[:] = -1
            found.killers[:] = -1
            found.history[:] = 0
            return found
        moves = self._buffer(rows, plan.room)
        table = np.empty((1 << plan.bits, cols), dtype=np.int64)
        table[:, _KEY] = -1  # an empty entry (the others are read only under their key)
        made = _Buffers(table, self._stack(pos, rows), moves, np.full(rows, -1, dtype=np.int64),
                        np.empty((rows - 1, moves.shape[1]), dtype=np.int64),
                        np.full((MAX_PLY, 2, 2) if self.wide else (MAX_PLY, 2), -1,
                                dtype=np.int64 if self.wide else np.int32),
                        np.zeros(self.options.history, dtype=np.int64))
        reuse[:] = [made]
        return made

    def _deepen(self, pos: Array, seen: Mapping[int, int], rows: Array, order: Array, plan: _Plan,
                progress: Callable[[float], None] | None, reuse: list[_Buffers] | None = None) -> _Deepened:
        """Iterative-deepening alpha-beta on one position (``compiled.deepen``), the root moves
        ``rows`` tried first in ``order`` (indexes), then best first from each iteration; run
        again with four times the room while a position has more moves than the buffers."""
        while True:
            found = self._deepen_once(pos, seen, rows, order, plan, progress, [] if reuse is None else reuse)
            if found is not None:
                return found
            plan = plan._replace(room=4 * plan.room)

    def _deepen_once(self, pos: Array, seen: Mapping[int, int], rows: Array, order: Array, plan: _Plan,
                     progress: Callable[[float], None] | None, reuse: list[_Buffers]) -> _Deepened | None:
        bits, exact = plan.bits, plan.exact
        keys, counts = seen_table(seen, spare=MAX_PLY)
        table, stack, moves, counts_of, scores, killers, history = self._buffers(pos, plan, reuse)
        stats = np.array([0, plan.nodes, 0, 64 - bits, 0, 0, plan.margin, 0], dtype=np.int64)
        weights = np.zeros(1) if plan.params is None else plan.params
        seen_before = seen.get(int(self.compiled["position_key"](pos)), 0) > 1
        store = (_STORE_ALWAYS if self.options.store_root_always else
                 _STORE_DEEPER if self.options.store_root else _STORE_NOT)
        overran = []

        def iterate(ranked: Array, iteration: int, values: Array) -> bool:
            stats[_ROOT_DONE] = 0
            done = bool(self.compiled["root_iteration"](stack, iteration, np.ascontiguousarray(rows[ranked]),
                                                        values, seen_before, keys, counts, table, moves,
                                                        counts_of, scores, killers, history, stats, weights,
                                                        exact, store))
            if not done:
                overran.append(iteration)
            return done

        def rescue(ranked: Array, values: Array) -> None:
            # One more than the root moves: a kernel's child_depth may search below one of them.
            stats[_BUDGET] = stats[_NODES] + len(ranked) + 1
            stats[_ABORTED] = 0
            iterate(ranked, 1, values)

        searched = (lambda: int(stats[_ROOT_DONE])) if self.options.partial else None
        settled = (lambda values: bool(np.abs(values).min() >= PROVEN)) \
            if exact and self.options.exact_settles_all else None
        ranked, values, reached = deepen(order, min(plan.depth, MAX_PLY - 1), iterate, rescue=rescue,
                                         searched=searched, progress=progress, step=plan.step,
                                         settled=settled, keep_abandoned=self.options.keep_abandoned)
        if stats[_OVERFLOW]:
            return None
        visited = int(stats[_NODES]) + (1 if overran and self.options.count_overrun else 0)
        return _Deepened(ranked, values, reached, visited, bool(overran), table, 64 - bits)

    def alphabeta(self, state: Any, *, depth: int = 64, nodes: int = 1_000_000, seed: int = 0,
                  table_bits: int | None = None, exact_root: bool = False, params: Array | None = None,
                  margin: int = 0, progress: Callable[[float], None] | None = None, depth_step: int = 1,
                  room: int | None = None) -> SearchResult:
        """Iterative-deepening alpha-beta to ``depth`` plies (``depth_step`` more an iteration)
        within ``nodes`` positions visited, root moves first shuffled by ``seed``; the deepest
        iteration that overruns is abandoned (with the game's ``partial``, its root moves
        searched to the end of the budget still count when they beat the last best;
        ``compiled.deepen``). Two sides only; values in [-1, 1] for the side to move (±1:
        proven, else the game's ``squash``); the root moves' scores are bounds but for the best,
        or all exact with ``exact_root``; ``params`` go to the game's evaluation; ``margin`` > 0
        (in search values) picks at random (from ``seed``) among the root moves within
        ``margin`` of the best. The line follows the table's moves. ``room``: the moves a wide
        kernel's buffers hold at first."""
        pos, seen = self._start(state)
        if depth < 1 or nodes < 1 or depth_step < 1:
            raise ValueError(f"alpha-beta needs a depth, nodes and depth step of at least 1, not {depth!r}, "
                             f"{nodes!r}, {depth_step!r}")
        rows, codes = self._legal(pos, room)
        order = shuffled(range(len(codes)), seed, np.int64)
        bits = self.options.table_bits(nodes) if table_bits is None else table_bits
        plan = _Plan(depth, nodes, depth_step, exact_root, params, margin, bits, room or self.max_moves)
        found = self._deepen(pos, seen, rows, order, plan, progress)
        best_values = found.values
        chosen = 0
        if margin > 0 and abs(int(best_values[0])) < PROVEN:
            close = [i for i, v in enumerate(best_values) if v >= best_values[0] - margin]
            chosen = close[random.Random(seed).randrange(len(close))]
        best = int(found.ranked[chosen])
        by_index = {int(k): self.options.squash(int(v))
                    for k, v in zip(found.ranked, best_values, strict=True)}
        line = self._line(pos, seen, self._pairs(rows)[best], codes[best], found.depth, found) \
            if chosen == 0 else (codes[best],)
        return SearchResult(codes[best], by_index[best], found.depth, found.nodes, self._code_array(codes),
                            np.array([by_index[k] for k in range(len(codes))], dtype=np.float64), line)

    def _code_array(self, codes: Sequence[int]) -> Array:
        """The root moves' codes as a result holds them (a wide kernel's may exceed 64 bits)."""
        return np.array(codes, dtype=object if self.wide else np.int32)

    def _line(self, pos: Array, seen: Mapping[int, int], best: tuple[int, int], code: int, depth: int,
              found: _Deepened) -> tuple[int, ...]:
        """The best move, then the table's moves after it, at most ``depth`` moves."""
        find = self.compiled
        counted = dict(seen)
        line = [code]
        current = pos.copy()
        following = pos.copy()
        move = best
        while True:
            find["apply_move"](current, move[0], move[1], following)
            current[:] = following
            key = int(find["position_key"](current))
            counted[key] = counted.get(key, 0) + 1
            if find["outcome"](current, counted[key]) != ONGOING or len(line) >= depth:
                return tuple(line)
            wanted = int(find["table_key"](current, key, counted[key] > 1))
            slot = int(table_slot(wanted, found.shift))
            if found.table[slot, _KEY] != wanted:
                return tuple(line)
            move = (int(found.table[slot, _MOVE]), int(found.table[slot, _EXTRA]) if self.wide else 0)
            rows, codes = self._legal(current)
            pairs = self._pairs(rows)
            if move not in pairs:
                return tuple(line)
            line.append(codes[pairs.index(move)])

    def uct(self, state: Any, *, iterations: int = 10_000, exploration: float = 1.0, seed: int = 0,
            plies: int | None = None, solver: bool = False, params: Array | None = None,
            progress: Callable[[float], None] | None = None) -> SearchResult:
        """UCT with ``iterations`` playouts to the end of the game (``rollout``'s, given
        ``params``), no evaluator, a value per player. ``plies``, when given, ends the search
        sooner, once that many moves were played in all (in the tree and in playouts);
        ``solver`` proves wins and losses in the tree (see ``uct_iterations``). The answer is
        a proven win if there is one, else the most visited root move that is not a proven loss,
        ties to the better mean, then to canonical order; ``scores`` are the root moves' visits,
        ``value`` the chosen move's mean result for the player to move. Narrow kernels only."""
        if self.wide:
            raise ValueError(f"{self.options.name}: UCT takes one-word moves (use ismcts)")
        if iterations < 1:
            raise ValueError(f"UCT needs at least one iteration, not {iterations!r}")
        root, seen = self._start(state)
        codes = self._codes(root)
        if len(codes) == 1:
            only = np.array(codes, dtype=np.int32)
            return SearchResult(codes[0], 0.0, 0, 0, only, np.zeros(1), (codes[0],))
        capacity = iterations + 2
        node_move = np.full(capacity, -1, dtype=np.int32)
        node_mover = np.full(capacity, -1, dtype=np.int64)
        node_visits = np.zeros(capacity, dtype=np.int64)
        node_totals = np.zeros(capacity, dtype=np.float64)
        node_first = np.full(capacity, -1, dtype=np.int64)
        node_moves = np.zeros(capacity, dtype=np.int64)
        node_expanded = np.zeros(capacity, dtype=np.int64)
        node_proven = np.zeros(capacity, dtype=np.int8)
        pool = max(4 * self.max_moves, POOL_PER_ITERATION * iterations)
        pool_moves = np.empty(pool, dtype=np.int32)
        pool_child = np.empty(pool, dtype=np.int32)
        sizes = np.array([1, 0, 0], dtype=np.int64)
        plies_budget = plies if plies is not None else 2**62
        room = self.options.playout_room
        keys, counts = seen_table(seen, spare=room + MAX_TREE_DEPTH)
        pos, following = root.copy(), root.copy()
        path = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
        path_slots = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
        slots = np.empty(room, dtype=np.int64)
        trail = np.empty(room, dtype=np.int32)
        buffer = np.empty(self.max_moves, dtype=np.int32)
        weights = np.zeros(1) if params is None else params
        rng = np.array([seed % 2**64], dtype=np.uint64)
        done = 0
        chunk = max(1, iterations // 20) if progress is not None else iterations
        while done < iterations and not (solver and node_proven[0]) and sizes[2] < plies_budget:
            done += self.compiled["uct_iterations"](
                root, keys, counts, min(chunk, iterations - done), exploration, solver, weights, rng,
                node_move, node_mover, node_visits, node_totals, node_first, node_moves, node_expanded,
                node_proven, pool_moves, pool_child, sizes, plies_budget, pos, following, path,
                path_slots, slots, trail, buffer)
            if sizes[1] + self.max_moves > pool_moves.shape[0]:
                pool_moves = np.concatenate([pool_moves, np.empty_like(pool_moves)])
                pool_child = np.concatenate([pool_child, np.empty_like(pool_child)])
            if progress is not None:
                progress(max(done / iterations, sizes[2] / plies_budget))

        def children(node: int) -> list[int]:
            first = int(node_first[node])
            return [int(c) for c in pool_child[first:first + int(node_expanded[node])]]

        return tree_answer(codes, children, node_move, node_visits, node_totals, done, proven=node_proven)

    def ismcts(self, worlds: Sequence[Any], *, iterations: int = 10_000, exploration: float = 1.0,
               seed: int = 0, params: Array | None = None,
               progress: Callable[[float], None] | None = None, room: int | None = None) -> SearchResult:
        """Information-set MCTS over ``worlds`` (full states a bot drew with ``determinize``; the
        player to move must have the same legal moves in each): one tree, iteration ``k`` played
        in world ``k % len(worlds)``, leaves scored by the game's ``leaf`` (given ``params``).
        The answer is the most visited root move, ties to the better mean, then to canonical
        order; ``scores`` are the root moves' visits, ``line`` the most visited path, ``depth``
        its length (a wide kernel: the line is the root move and ``depth`` 0, as the moves below
        depend on the world). ``room``: the moves a wide kernel's buffers hold at first."""
        if not worlds:
            raise ValueError(f"{self.options.name}: information-set MCTS needs at least one world")
        if iterations < 1:
            raise ValueError(f"MCTS needs at least one iteration, not {iterations!r}")
        starts = [self._start(world) for world in worlds]
        rows, codes = self._legal(starts[0][0], room)
        if any(self._codes(pos) != codes for pos, _ in starts[1:]):
            raise ValueError("the worlds differ in the legal moves of the player to move")
        stacked = np.stack([pos for pos, _ in starts])
        seen: dict[int, int] = {}
        for _, counted in starts:
            for key, times in counted.items():
                seen[key] = max(seen.get(key, 0), times)
        if len(codes) == 1:
            only = self._code_array(codes)
            return SearchResult(codes[0], 0.0, 0, 0, only, np.zeros(1), (codes[0],))
        playout_room = self.options.playout_room
        keys, counts = seen_table(seen, spare=playout_room + MAX_TREE_DEPTH)
        capacity = iterations + 2
        node_move = np.full(capacity, -1, dtype=np.int32 if not self.wide else np.int64)
        node_extra = np.zeros(capacity, dtype=np.int64)
        node_mover = np.full(capacity, -1, dtype=np.int8)
        node_visits = np.zeros(capacity, dtype=np.int64)
        node_available = np.zeros(capacity, dtype=np.int64)
        node_totals = np.zeros(capacity, dtype=np.float64)
        node_first = np.full(capacity, -1, dtype=np.int32)
        node_next = np.full(capacity, -1, dtype=np.int32)
        edges = 1 << max(4, (2 * capacity - 1).bit_length())
        edge_keys = np.full(edges, -1, dtype=np.int64)
        edge_extra = np.zeros(edges if self.wide else 1, dtype=np.int64)
        edge_child = np.full(edges, -1, dtype=np.int32)
        sizes = np.array([1, 0], dtype=np.int64)
        current = stacked[0].copy()
        following = stacked[0].copy()
        path = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
        path_slots = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
        slots = np.empty(playout_room, dtype=np.int64)
        trail = np.empty(playout_room, dtype=np.int32)
        weights = np.zeros(1) if params is None else params
        rng = np.array([seed % 2**64], dtype=np.uint64)
        room = room or self.max_moves
        done = 0
        chunk = max(1, iterations // 20) if progress is not None else iterations
        while done < iterations:
            moves = self._buffer(1, room)[0]
            found = np.empty(moves.shape[0], dtype=np.int32)
            found_at = np.empty(moves.shape[0], dtype=np.int32)
            untried = np.empty(moves.shape[0], dtype=np.int32)
            while done < iterations:
                ran = self.compiled["mcts_iterations"](
                    stacked, done, min(chunk, iterations - done), exploration, keys, counts, weights, rng,
                    node_move, node_extra, node_mover, node_visits, node_available, node_totals, node_first,
                    node_next, edge_keys, edge_extra, edge_child, sizes, current, following, path, path_slots,
                    slots, trail, moves, found, found_at, untried)
                done += ran
                if progress is not None:
                    progress(done / iterations)
                if sizes[1]:  # a position had more moves than the buffer: four times the room
                    sizes[1] = 0
                    room *= 4
                    break
                if ran == 0:
                    return self._tree_answer(codes, rows, done, node_move, node_extra, node_visits,
                                             node_totals, node_first, node_next)
        return self._tree_answer(codes, rows, done, node_move, node_extra, node_visits, node_totals,
                                 node_first, node_next)

    def _tree_answer(self, codes: list[int], rows: Array, done: int, node_move: Array, node_extra: Array,
                     node_visits: Array, node_totals: Array, node_first: Array,
                     node_next: Array) -> SearchResult:
        """IS-MCTS's answer (``compiled.tree_answer``; a wide kernel's: the root move alone in the
        line, two moves that do the same (one code and extra word) one child counted once)."""
        if not self.wide:
            return tree_answer(codes, lambda node: _children(node, node_first, node_next), node_move,
                               node_visits, node_totals, done, depth_is_line=True)
        by_pair = {(int(node_move[c]), int(node_extra[c])): c for c in _children(0, node_first, node_next)}
        visits = np.zeros(len(codes), dtype=np.float64)
        means = np.zeros(len(codes), dtype=np.float64)
        counted = set()
        for k, pair in enumerate(self._pairs(rows)):
            node = by_pair.get(pair)
            if node is not None and node not in counted:
                counted.add(node)
                visits[k] = node_visits[node]
                means[k] = node_totals[node] / max(1, int(node_visits[node]))
        best = min(range(len(codes)), key=lambda k: (-visits[k], -means[k], k))
        value = float(means[best]) if visits[best] else 0.0
        return SearchResult(codes[best], max(-1.0, min(1.0, value)), 0, done, self._code_array(codes), visits,
                            (codes[best],))

    def pimc(self, worlds: Sequence[Any], *, depth: int = 64, nodes: int = 1_000_000, seed: int = 0,
             progress: Callable[[float], None] | None = None, depth_step: int = 1,
             exact_root: bool | None = None, params: Array | None = None, table_bits: int | None = None,
             line_plies: int | None = None, room: int | None = None) -> SearchResult:
        """Determinized alpha-beta (PIMC): each distinct world (alike worlds are one, weighing as
        many) searched by iterative-deepening alpha-beta within an equal share of ``nodes``, the
        root moves first in one seeded order. With several distinct worlds (or ``exact_root``)
        every root move's value is exact in each, and the move chosen is the best on average
        over the worlds (values on the game's ``squash`` scale), ties to the seeded order; with
        one, it is plain alpha-beta (the others' ``scores`` are bounds). ``depth`` is the depth
        every world reached, ``nodes`` the positions visited in all, the line the table's moves
        in the last world searched (at most ``line_plies``, default the depth reached)."""
        if not worlds:
            raise ValueError(f"{self.options.name}: PIMC needs at least one world")
        if depth < 1 or nodes < 1 or depth_step < 1:
            raise ValueError(f"alpha-beta needs a depth, nodes and depth step of at least 1, not {depth!r}, "
                             f"{nodes!r}, {depth_step!r}")
        starts = [self._start(world) for world in worlds]
        distinct: dict[bytes, tuple[Array, Mapping[int, int], int]] = {}
        for pos, seen in starts:
            weight = distinct[pos.tobytes()][2] + 1 if pos.tobytes() in distinct else 1
            distinct[pos.tobytes()] = (pos, seen, weight)
        rows, codes = self._legal(starts[0][0], room)
        if any(self._codes(pos) != codes for pos, _, _ in list(distinct.values())[1:]):
            raise ValueError(f"{self.options.name}: the worlds differ in the legal moves of the player "
                             f"to move")
        exact = len(distinct) > 1 if exact_root is None else exact_root
        order = shuffled(range(len(codes)), seed, np.int64)
        share = max(1, nodes // len(distinct))
        bits = self.options.table_bits(share) if table_bits is None else table_bits
        total = np.zeros(len(codes), dtype=np.float64)
        reached, visited = depth, 0
        found = None
        plan = _Plan(depth, share, depth_step, exact, params, 0, bits, room or self.max_moves)
        reuse: list[_Buffers] = []
        for done, (pos, seen, weight) in enumerate(distinct.values()):
            found = self._deepen(pos, seen, rows, order, plan, _part(progress, done, len(distinct)), reuse)
            canonical = np.empty_like(found.values)
            canonical[found.ranked] = found.values
            total += weight * np.array([self.options.squash(int(v)) for v in canonical.tolist()])
            reached, visited = min(reached, found.depth), visited + found.nodes
        assert found is not None
        average = total / len(worlds)
        best = int(found.ranked[0]) if len(distinct) == 1 else max(order.tolist(), key=lambda k: average[k])
        if progress is not None:
            progress(1.0)
        line = self._line(pos, seen, self._pairs(rows)[best], codes[best], line_plies or reached, found)
        return SearchResult(codes[best], max(-1.0, min(1.0, float(average[best]))), reached, visited,
                            self._code_array(codes), average, line)


def _part(progress: Callable[[float], None] | None, index: int,
          parts: int) -> Callable[[float], None] | None:
    """``progress`` for part ``index`` of ``parts`` equal parts of the work, never going back."""
    if progress is None:
        return None
    told = progress

    def part(fraction: float) -> None:
        told((index + min(1.0, fraction)) / parts)

    return part


def _children(node: int, node_first: Array, node_next: Array) -> list[int]:
    """A node's children, in the order they were added."""
    found = []
    child = int(node_first[node])
    while child >= 0:
        found.append(child)
        child = int(node_next[child])
    return found[::-1]


Root = Callable[[Any], tuple[Array, Mapping[int, int], bool]]
"""A state or position -> its array, the positions seen (key: occurrences), whether it is over."""


def build(kernel: Mapping[str, Any], *, max_moves: int, root: Root, players: Callable[[Any], int],
          options: Options | None = None, wide: bool = False, listing: Listing | None = None) -> Searches:
    """The searches over one kernel: ``kernel`` maps each name of :data:`KERNEL_FUNCTIONS` to the
    game's compiled function, and may map those of :data:`HOOKS` to the game's own pieces
    (else this module's defaults); ``root(state or position)`` gives the position's array, the
    positions seen (key: occurrences) and whether the game is over; ``players`` its player
    count; ``max_moves`` bounds one position's moves (a wide kernel's: the rows its buffers
    have at first); ``options`` what the game sets at the root (:class:`Options`). ``wide``:
    a move is a code and an extra word (see the module's docstring), and ``listing`` names a
    position's moves outside. Each template is compiled again with the game's functions as its
    globals (on its first call)."""
    chosen = options or Options()
    needed = [name for name in KERNEL_FUNCTIONS if name != "evaluate" or "score" not in kernel]
    missing = [name for name in needed if name not in kernel]
    if missing:
        raise ValueError(f"a kernel for the shared searches needs {missing}")
    if wide and listing is None:
        raise ValueError("a wide kernel for the shared searches needs a listing of its moves")
    namespace = dict(globals())
    namespace.update({name: kernel[name] for name in needed})
    namespace["MAX_MOVES"] = max_moves
    namespace["HISTORY"] = chosen.history
    given = {hook for hook in HOOKS if hook in kernel}
    namespace.update({hook: kernel[hook] for hook in given})
    for template_name in TEMPLATES:
        if template_name in given:
            continue
        template = globals()[template_name]
        if wide:
            template = MOVE_HELPERS.get(template_name, WIDE_DEFAULTS.get(template_name, template))
        function = types.FunctionType(template.__code__, namespace, template_name, template.__defaults__)
        namespace[template_name] = numba.njit(nogil=True)(function) if numba is not None else function
    return Searches(namespace, root, players, max_moves, chosen, wide, listing)
