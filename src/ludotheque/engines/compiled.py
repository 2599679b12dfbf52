"""What every compiled kernel shares (``engines/<id>/kernel.py``): Numba, found or not, the
compile decorator, the processor's bit instructions, a random generator that is a pure function of
its seed, and the table of positions seen that repetition draws count.

Where Numba cannot be imported this module still imports and :data:`AVAILABLE` is false: the
kernels then say they are unavailable and everything runs on the plain engines.

>>> import numpy as np
>>> keys, counts = seen_table({7: 2}, spare=4)
>>> int(counts[seen_push(keys, counts, 7)]), seen_count(keys, counts, 8)
(3, 0)
"""

from __future__ import annotations

import importlib
import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, NamedTuple, TypeVar, cast

import numpy as np
import numpy.typing as npt

try:  # Numba is optional (and has no type information): imported by name.
    numba: Any = importlib.import_module("numba")
except ImportError:  # pragma: no cover - numba is installed wherever the tests run
    numba = None

AVAILABLE: bool = numba is not None
"""Whether the kernel can run here (Numba imports); when false, use the plain engine."""

Array = npt.NDArray[Any]
F = TypeVar("F", bound=Callable[..., Any])

# splitmix64 (Steele, Lea, Flood 2014): the kernel's random numbers, a pure function of the seed.
GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_S27, _S30, _S31, _S32 = np.uint64(27), np.uint64(30), np.uint64(31), np.uint64(32)


def compiled(function: F) -> F:
    """Compile ``function`` with Numba on its first call (cached on disk; the compiled code
    releases the GIL, so threads may run kernels side by side); unchanged without Numba."""
    if numba is None:  # pragma: no cover
        return function
    return cast(F, numba.njit(cache=True, nogil=True)(function))


def _bit_intrinsics() -> tuple[Callable[[int], int], Callable[[int], int]]:
    """The processor's count-trailing-zeros and population-count, for compiled code."""
    ir = importlib.import_module("llvmlite.ir")
    types = importlib.import_module("numba.core.types")
    intrinsic = importlib.import_module("numba.extending").intrinsic

    def lowest(typingctx: Any, mask: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.cttz(args[0], ir.Constant(ir.IntType(1), 1))

        return types.int64(types.int64), codegen

    def count(typingctx: Any, mask: Any) -> Any:
        def codegen(context: Any, builder: Any, signature: Any, args: Any) -> Any:
            return builder.ctpop(args[0])

        return types.int64(types.int64), codegen

    return cast(Callable[[int], int], intrinsic(lowest)), cast(Callable[[int], int], intrinsic(count))


def _lowest_python(mask: int) -> int:  # pragma: no cover - used only without Numba
    return (mask & -mask).bit_length() - 1


def _count_python(mask: int) -> int:  # pragma: no cover - used only without Numba
    return mask.bit_count()


lowest: Callable[[int], int]
"""The index of a mask's lowest set bit (compiled: the processor's count-trailing-zeros)."""
count: Callable[[int], int]
"""How many bits of a mask are set (compiled: the processor's population count)."""
if numba is not None:
    lowest, count = _bit_intrinsics()
else:  # pragma: no cover
    lowest, count = _lowest_python, _count_python


# -- positions seen: an open-addressing hash table of keys, pushed and popped in stack order --------
@compiled
def _slot_of(key: int, mask: int) -> int:
    return int((np.uint64(key) * GOLDEN) >> _S32) & mask


@compiled
def seen_push(keys: Array, counts: Array, key: int) -> int:
    """Count one more occurrence of ``key``; return its slot (``counts[slot]``: occurrences).

    ``keys`` (int64, ``-1`` when empty) and ``counts`` (int64) have a power-of-two length and must
    stay at most half full. Pops must undo pushes in reverse order (a playout, a search):
    then removing keys never breaks a probe sequence."""
    mask = keys.shape[0] - 1
    slot = _slot_of(key, mask)
    while True:
        found = keys[slot]
        if found == key:
            counts[slot] += 1
            return slot
        if found == -1:
            keys[slot] = key
            counts[slot] = 1
            return slot
        slot = (slot + 1) & mask


@compiled
def seen_pop(keys: Array, counts: Array, slot: int) -> None:
    """Undo the last :func:`seen_push` still standing, which returned ``slot``."""
    counts[slot] -= 1
    if counts[slot] == 0:
        keys[slot] = -1


@compiled
def seen_count(keys: Array, counts: Array, key: int) -> int:
    """How many times ``key`` has occurred."""
    mask = keys.shape[0] - 1
    slot = _slot_of(key, mask)
    while keys[slot] != -1:
        if keys[slot] == key:
            return int(counts[slot])
        slot = (slot + 1) & mask
    return 0


# -- an evaluator's weights, passed to compiled code as an array (a global would be frozen into
# Numba's cache, which a change to ``evaluate.py`` does not invalidate) -----------------------------
def weight_vector(game: str, names: Sequence[str], defaults: Mapping[str, float],
                  given: Mapping[str, float] | None, dtype: type = np.float64) -> Array:
    """``defaults`` with any of them replaced by ``given``, in the order of ``names``; raises
    ``ValueError`` naming ``game`` on a name that is not a weight.

    >>> weight_vector("nim", ("a", "b"), {"a": 1.0, "b": 2.0}, {"b": 5}).tolist()
    [1.0, 5.0]
    """
    chosen = dict(defaults) | dict(given or {})
    unknown = set(chosen) - set(names)
    if unknown:
        raise ValueError(f"{game}: unknown evaluator weights {sorted(unknown)}")
    return np.array([chosen[name] for name in names], dtype=dtype)


# -- alpha-beta: the transposition table's values and slots, the move picked next ------------------
WIN = 1_000_000
"""A won position's value ``WIN - plies`` (lost: ``plies - WIN``), ``plies`` from the root to the end."""
PROVEN = WIN - 10_000
"""Values beyond ``±PROVEN`` are proven results; heuristic values stay well inside."""
INFINITY = 2 * WIN


@compiled
def table_slot(key: int, shift: int) -> int:
    """The slot of ``key`` in a table of ``2 ** (64 - shift)`` entries (Fibonacci hashing)."""
    return int((np.uint64(key) * GOLDEN) >> np.uint64(shift))


@compiled
def to_table(value: int, ply: int) -> int:
    """A value as the table keeps it: a proven result counted from this node, not the root."""
    if value >= PROVEN:
        return value + ply
    if value <= -PROVEN:
        return value - ply
    return value


@compiled
def from_table(value: int, ply: int) -> int:
    """The table's ``value`` seen from a node ``ply`` plies below the root (undoes :func:`to_table`)."""
    if value >= PROVEN:
        return value - ply
    if value <= -PROVEN:
        return value + ply
    return value


@compiled
def pick(moves: Array, scores: Array, i: int, n: int) -> int:
    """Bring the best-scored move of ``i..n`` to ``i`` and return it (a lazy selection sort)."""
    best = i
    for j in range(i + 1, n):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        moves[i], moves[best] = moves[best], moves[i]
        scores[i], scores[best] = scores[best], scores[i]
    return int(moves[i])


# -- random numbers ----------------------------------------------------------------------------------
@compiled
def rng_next(rng: Array) -> np.uint64:
    """The next 64 random bits of the splitmix64 generator whose state is ``rng[0]`` (uint64)."""
    z = rng[0] + GOLDEN
    rng[0] = z
    z = (z ^ (z >> _S30)) * _MIX1
    z = (z ^ (z >> _S27)) * _MIX2
    return np.uint64(z ^ (z >> _S31))


@compiled
def rng_below(rng: Array, bound: int) -> int:
    """A random integer in ``[0, bound)`` (multiply-shift: bias under ``bound / 2**32``)."""
    return int(((rng_next(rng) >> _S32) * np.uint64(bound)) >> _S32)


# -- UCT trees held in arrays: a node's moves lie in the pool from ``node_first`` (``-1`` until an
# iteration reaches it), the first ``node_expanded`` of them with a child in ``pool_child`` ---------
@compiled
def tree_fill(node: int, buffer: Array, n: int, sizes: Array, node_first: Array, node_moves: Array,
              pool_moves: Array, pool_child: Array) -> None:
    """Give ``node`` the ``n`` moves of ``buffer``, none tried yet (``sizes[1]``: pool entries used)."""
    start = sizes[1]
    for i in range(n):
        pool_moves[start + i] = buffer[i]
        pool_child[start + i] = -1
    node_first[node] = start
    node_moves[node] = n
    sizes[1] = start + n


@compiled
def tree_add_child(node: int, mover: int, rng: Array, sizes: Array, node_first: Array,
                   node_expanded: Array, node_move: Array, node_mover: Array, node_visits: Array,
                   node_totals: Array, node_moves: Array, pool_moves: Array, pool_child: Array) -> int:
    """A new child of ``node`` (``sizes[0]``: nodes used) for one of its untried moves, drawn at
    random and swapped in after the tried ones; ``mover`` plays it. Returns the child."""
    start, k = node_first[node], node_expanded[node]
    j = k + rng_below(rng, node_moves[node] - k)
    pool_moves[start + k], pool_moves[start + j] = pool_moves[start + j], pool_moves[start + k]
    child = sizes[0]
    sizes[0] = child + 1
    node_move[child] = pool_moves[start + k]
    node_mover[child] = mover
    node_visits[child] = 0
    node_totals[child] = 0.0
    node_first[child] = -1
    node_expanded[child] = 0
    pool_child[start + k] = child
    node_expanded[node] = k + 1
    return int(child)


@compiled
def ucb1_child(node: int, exploration: float, node_first: Array, node_moves: Array, pool_child: Array,
               node_visits: Array, node_totals: Array) -> int:
    """The child of a fully expanded ``node`` with the highest UCB1 score (mean value for the
    child's mover plus ``exploration`` times the square root of log(parent visits) / visits)."""
    parent_log = math.log(node_visits[node])
    best_score = -math.inf
    best = -1
    start = node_first[node]
    for i in range(node_moves[node]):
        candidate = pool_child[start + i]
        visits = node_visits[candidate]
        score = node_totals[candidate] / visits + exploration * math.sqrt(parent_log / visits)
        if score > best_score:
            best_score, best = score, candidate
    return int(best)


def shuffled(items: Sequence[int], seed: int, dtype: type = np.int32) -> Array:
    """``items`` in a seeded random order (Fisher-Yates on :func:`rng_below`): a search's root
    moves, so that ties fall differently for each seed."""
    order: Array = np.array(items, dtype=dtype)
    rng = np.array([seed % 2**64], dtype=np.uint64)
    for i in range(len(order) - 1, 0, -1):
        j = rng_below(rng, i + 1)
        order[i], order[j] = order[j], order[i]
    return order


def require() -> None:
    """Raise ``RuntimeError`` where Numba is missing (callers then use the plain engine)."""
    if not AVAILABLE:
        raise RuntimeError("the compiled kernels need Numba, which cannot be imported here")


def seen_table(seen: Mapping[int, int], spare: int) -> tuple[Array, Array]:
    """A hash table (``keys``, ``counts``) holding ``seen``, with room for ``spare`` more keys."""
    require()
    size = 1 << max(4, (2 * (len(seen) + spare) - 1).bit_length())
    keys = np.full(size, -1, dtype=np.int64)
    counts = np.zeros(size, dtype=np.int64)
    for key, occurrences in seen.items():
        slot = seen_push(keys, counts, key)
        counts[slot] = occurrences
    return keys, counts


class Playouts(NamedTuple):
    """What a batch of random playouts gives: wins per player, draws, each playout's length."""

    wins: Array
    draws: int
    lengths: Array


def finished_playouts(winners: Sequence[int], players: int, n: int) -> Playouts:
    """The playouts of a finished game: its result (``winners``, none for a draw) ``n`` times,
    length 0."""
    wins = np.zeros(players, dtype=np.int64)
    for player in winners:
        wins[player] = n
    return Playouts(wins, 0 if winners else n, np.zeros(n, dtype=np.int64))


def with_room(run: Callable[[int], tuple[Array, int, Array, bool]], room: int) -> Playouts:
    """The playouts ``run(room)`` plays (wins, draws, lengths, and whether all fitted in
    ``room``), given four times more room until they fit."""
    while True:
        wins, draws, lengths, done = run(room)
        if done:
            return Playouts(wins, int(draws), lengths)
        room *= 4


class KernelMismatchError(AssertionError):
    """The kernel and the plain engine disagree; the message says where."""


@dataclass(frozen=True)
class Agreement:
    """What a kernel's ``compare_with_plain`` checked: games, plies, legal moves compared, endings."""

    configuration: str  # game/variant[/players]
    games: int
    plies: int
    moves: int
    endings: Mapping[str, int]


class SearchResult(NamedTuple):
    """What a search over a kernel answers (``engines/<id>/search.py``'s ``alphabeta``, ``uct``,
    ``pimc``, ``ismcts``, or ``engines/searches.py``'s): the move chosen (the kernel's code)
    and its value for the player to move in [-1, 1], the depth of the deepest iteration
    completed (alpha-beta; 0 for UCT), the positions visited (alpha-beta) or iterations run
    (UCT), the root moves in canonical order with a score each (alpha-beta: its value, exact
    for the best and a bound for the others; UCT: its visits), and the line the search
    expects, the chosen move first."""

    move: int
    value: float
    depth: int
    nodes: int
    moves: Array
    scores: Array
    line: tuple[int, ...]


# -- what every search does at its root, in Python -------------------------------------------------
def deepen(root: Array, depth: int, iterate: Callable[[Array, int, Array], bool], *,
           rescue: Callable[[Array, Array], object], searched: Callable[[], int] | None = None,
           progress: Callable[[float], None] | None = None, step: int = 1,
           settled: Callable[[Array], bool] | None = None,
           keep_abandoned: bool = False) -> tuple[Array, Array, int]:
    """Iterative deepening over the root moves ``root``: ``iterate(root, depth, values)`` searches
    them in that order to ``depth`` plies (``step``, ``2 * step``, ... up to ``depth``), writing
    each one's value in ``values``, and answers false when the budget ran out; after each whole
    iteration the moves are sorted best first (stably). The deepest iteration that overruns is
    abandoned (with ``searched``, the number of root moves it finished, a move it proved better
    than the last best comes first: see :func:`partial_best`; with ``keep_abandoned``, the values
    it wrote before it ran out replace the last iteration's, in the same order); a settled
    result ends the deepening (``settled(values)``, by default a proven best move). When not
    even the first iteration fits, ``rescue(root, values)`` searches every root move one ply
    deep all the same. Returns the root moves best first, their values and the depth completed.

    >>> import numpy as np
    >>> def iterate(root, depth, values):
    ...     values[:] = root * (-1) ** depth
    ...     return depth < 3
    >>> moves, values, reached = deepen(np.array([1, 2, 3]), 5, iterate, rescue=print)
    >>> moves.tolist(), values.tolist(), reached
    ([3, 2, 1], [3, 2, 1], 2)
    """
    values = np.zeros(len(root), dtype=np.int64)
    best_values = values.copy()
    completed = 0
    for iteration in range(step, depth + 1, step):
        if not iterate(root, iteration, values):
            if completed and searched is not None:
                root, best_values = partial_best(root, values, best_values, searched())
            elif completed and keep_abandoned:
                best_values = values.copy()
            break
        completed = iteration
        order = np.argsort(-values, kind="stable")
        root, values = root[order], values[order]
        best_values = values.copy()
        if progress is not None:
            progress(iteration / depth)
        if settled(values) if settled is not None else abs(int(values[0])) >= PROVEN:
            break  # a proven result: deeper search cannot change it
    if not completed:  # not even one iteration within the budget: every root move, one ply deep
        rescue(root, values)
        order = np.argsort(-values, kind="stable")
        root, best_values = root[order], values[order]
        completed = 1
    return root, best_values, completed


def partial_best(root: Array, values: Array, best_values: Array, searched: int) -> tuple[Array, Array]:
    """The root moves after an abandoned iteration that searched its first ``searched`` moves:
    one of them that the deeper search proved better than the last iteration's best comes
    first, with its deeper value (a move is only re-searched to an exact value when it beats
    the best so far, so a value above the first's is exact)."""
    if searched < 2:
        return root, best_values
    best = int(np.argmax(values[:searched]))
    if values[best] <= values[0]:
        return root, best_values
    order = np.array([best, *(i for i in range(len(root)) if i != best)])
    improved = best_values.copy()
    improved[best] = values[best]
    return root[order], improved[order]


def tree_answer(codes: Sequence[int], children: Callable[[int], Sequence[int]], node_move: Array,
                node_visits: Array, node_totals: Array, iterations: int, *,
                proven: Array | None = None, depth_is_line: bool = False) -> SearchResult:
    """What an MCTS tree held in arrays answers (root: node 0; ``children(node)``, in the order
    the search keeps them): the most visited root move, ties to the better mean, then to
    canonical order (``codes``); with ``proven`` (MCTS-Solver: +1 a proven win for whoever moved
    there, -1 a loss), a proven win first and a proven loss last. ``value`` is the chosen move's
    mean (±1 when proven), ``scores`` the root moves' visits, the line follows the most visited
    children; ``depth`` is 0, or the line's length with ``depth_is_line``."""
    first = list(children(0))
    visits = {int(node_move[c]): int(node_visits[c]) for c in first}
    means = {int(node_move[c]): float(node_totals[c]) / max(1, int(node_visits[c])) for c in first}
    proved = {int(node_move[c]): 0 if proven is None else int(proven[c]) for c in first}
    order = {code: i for i, code in enumerate(codes)}
    best = min(visits, key=lambda m: (-proved[m], -visits[m], -means[m], order[m]))
    value = 1.0 if proved[best] > 0 else -1.0 if proved[best] < 0 else max(-1.0, min(1.0, means[best]))
    line = [best]
    node = next(c for c in first if int(node_move[c]) == best)
    while kids := list(children(node)):
        if proven is None:
            node = max(kids, key=lambda c: int(node_visits[c]))
        else:
            node = max(kids, key=lambda c: (int(proven[c]), int(node_visits[c])))
        line.append(int(node_move[node]))
    return SearchResult(best, value, len(line) if depth_is_line else 0, iterations,
                        np.array(codes, dtype=np.int32),
                        np.array([visits.get(c, 0) for c in codes], dtype=np.float64), tuple(line))
