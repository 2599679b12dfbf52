"""One compiled search over any kernel that gives the compiled functions of the array-kernel
interface (:data:`KERNEL_FUNCTIONS`, below and in ``docs/kernels.md``): alpha-beta (iterative deepening,
transposition table, the table's move then the history of cut-offs first, principal variation
search), UCT and information-set MCTS (one tree over the worlds, availability counts), PIMC
(alpha-beta in each world, the root move best on average), random playouts and perft, written
once here and specialised per game by :func:`build` at the kernel's import: each template below
is compiled again with the game's functions as its globals (no call through a pointer, so
nothing is slower than a search written for the game; Numba cannot cache these, so a game's
searches compile on their first call in each process).

The interface, for a position held in a one-dimensional ``int64`` array of the kernel's size:

- ``generate(pos, moves) -> n``: the legal moves' codes (``int32``, non-negative) in the
  contract's canonical order in ``moves[:n]``;
- ``apply(pos, move, out)``: the position after ``move`` written into ``out`` (``pos`` untouched);
- ``position_key(pos) -> int``: a non-negative 63-bit hash of what repetition compares;
- ``outcome(pos, occurrences) -> int``: :data:`ONGOING` while the game goes on, else the set of
  winners as a bit mask (``0``: a draw), for the position just reached, which has occurred
  ``occurrences`` times;
- ``mover_of(pos) -> int``: the player to move (asked only while the game goes on);
- ``evaluate(pos) -> int``: a heuristic value for the player to move, within ``±PROVEN``.

Budgets are nodes and iterations, never time; every random choice comes from the seed: each
search is a pure function of (seed, position), or of (seed, worlds).
"""

from __future__ import annotations

import math
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .compiled import (
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
    tree_answer,
)

ONGOING = -1
"""``outcome`` while the game goes on (else a bit mask of the winners)."""
MAX_PLY = 128
"""Plies below the root alpha-beta has room for."""
MAX_TREE_DEPTH = 256
"""An MCTS iteration stops going down the tree this deep and plays out from there."""
PLAYOUT_ROOM = 4096
"""Plies a playout may play; a longer one is scored a draw."""
HISTORY = 1 << 16
"""Entries of alpha-beta's history of cut-offs (a move's code modulo this)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
_NODES, _BUDGET, _ABORTED, _SHIFT, _ROOT_DONE = 0, 1, 2, 3, 4


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


# -- templates, compiled once per game with its functions -------------------------------------------
def perft_count(stack: Array, ply: int, depth: int, keys: Array, counts: Array, moves: Array) -> int:
    """Positions after exactly ``depth`` ≥ 1 plies from ``stack[ply]`` (a game that ends sooner
    stops there); ``stack`` and ``moves`` have a row per ply."""
    pos = stack[ply]
    child = stack[ply + 1]
    row = moves[ply]
    n = generate(pos, row)
    total = 0
    for i in range(n):
        apply(pos, int(row[i]), child)
        slot = seen_push(keys, counts, position_key(child))
        if depth == 1:
            total += 1
        elif outcome(child, counts[slot]) == ONGOING:
            total += perft_count(stack, ply + 1, depth - 1, keys, counts, moves)
        seen_pop(keys, counts, slot)
    return total


def playout(current: Array, following: Array, keys: Array, counts: Array, slots: Array, moves: Array,
            rng: Array) -> tuple[int, int]:
    """Uniformly random moves from ``current`` (changed in place) to the end: the outcome, or
    :data:`ONGOING` when the game outlasts ``slots``, and the plies played."""
    plies = 0
    ended = ONGOING
    while plies < slots.shape[0]:
        n = generate(current, moves)
        apply(current, int(moves[rng_below(rng, n)]), following)
        current[:] = following
        slot = seen_push(keys, counts, position_key(current))
        slots[plies] = slot
        plies += 1
        ended = outcome(current, counts[slot])
        if ended != ONGOING:
            break
    for i in range(plies - 1, -1, -1):
        seen_pop(keys, counts, slots[i])
    return ended, plies


def run_playouts(root: Array, n: int, players: int, keys: Array, counts: Array, rng: Array,
                 room: int) -> tuple[Array, int, Array]:
    """``n`` playouts from ``root``: wins per player, draws (a game longer than ``room``
    included) and each one's length."""
    wins = np.zeros(players, dtype=np.int64)
    lengths = np.zeros(n, dtype=np.int64)
    draws = 0
    current = root.copy()
    following = root.copy()
    slots = np.empty(room, dtype=np.int64)
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    for k in range(n):
        current[:] = root
        ended, plies = playout(current, following, keys, counts, slots, moves, rng)
        lengths[k] = plies
        if ended <= 0:
            draws += 1
        else:
            for player in range(players):
                if ended >> player & 1:
                    wins[player] += 1
    return wins, draws, lengths


def negamax(stack: Array, ply: int, depth: int, alpha: int, beta: int, keys: Array, counts: Array,
            table_keys: Array, table_values: Array, table_depths: Array, table_bounds: Array,
            table_moves: Array, moves: Array, scores: Array, history: Array, stats: Array) -> int:
    """The value of ``stack[ply]`` for the player to move, within (alpha, beta); 0 once the
    budget ran out (``stats[_ABORTED]``)."""
    pos = stack[ply]
    if depth <= 0 or ply >= MAX_PLY - 1:
        return evaluate(pos)
    key = position_key(pos)
    slot = table_slot(key, stats[_SHIFT])
    first = -1
    if table_keys[slot] == key:
        first = int(table_moves[slot])
        if table_depths[slot] >= depth:
            value = from_table(int(table_values[slot]), ply)
            bound = table_bounds[slot]
            if bound == _EXACT or (bound == _LOWER and value >= beta) or (bound == _UPPER and value <= alpha):
                return value
    row = moves[ply]
    order = scores[ply]
    n = generate(pos, row)
    for i in range(n):
        move = int(row[i])
        order[i] = (1 << 40) if move == first else history[move % HISTORY]
    mover = mover_of(pos)
    child = stack[ply + 1]
    original_alpha = alpha
    best_value = -INFINITY
    best_move = -1
    for i in range(n):
        move = pick(row, order, i, n)
        if stats[_NODES] >= stats[_BUDGET]:
            stats[_ABORTED] = 1
            return 0
        stats[_NODES] += 1
        apply(pos, move, child)
        seen = seen_push(keys, counts, position_key(child))
        ended = outcome(child, counts[seen])
        if ended == 0:
            value = 0
        elif ended != ONGOING:
            value = WIN - ply - 1 if ended >> mover & 1 else ply + 1 - WIN
        elif i == 0:
            value = -negamax(stack, ply + 1, depth - 1, -beta, -alpha, keys, counts, table_keys,
                             table_values, table_depths, table_bounds, table_moves, moves, scores,
                             history, stats)
        else:  # principal variation search: prove the move no better, else search it again
            value = -negamax(stack, ply + 1, depth - 1, -alpha - 1, -alpha, keys, counts, table_keys,
                             table_values, table_depths, table_bounds, table_moves, moves, scores,
                             history, stats)
            if alpha < value < beta and not stats[_ABORTED]:
                value = -negamax(stack, ply + 1, depth - 1, -beta, -alpha, keys, counts, table_keys,
                                 table_values, table_depths, table_bounds, table_moves, moves, scores,
                                 history, stats)
        seen_pop(keys, counts, seen)
        if stats[_ABORTED]:
            return 0
        if value > best_value:
            best_value, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            history[move % HISTORY] += depth * depth
            break
    bound = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
    if table_keys[slot] != key or table_depths[slot] <= depth:
        table_keys[slot] = key
        table_values[slot] = to_table(best_value, ply)
        table_depths[slot] = depth
        table_bounds[slot] = bound
        table_moves[slot] = best_move
    return best_value


def root_iteration(stack: Array, depth: int, root: Array, values: Array, keys: Array, counts: Array,
                   table_keys: Array, table_values: Array, table_depths: Array, table_bounds: Array,
                   table_moves: Array, moves: Array, scores: Array, history: Array, stats: Array,
                   exact: bool) -> bool:
    """One iteration of iterative deepening over the root moves ``root`` (best first): each
    one's value in ``values`` (exact for the best, a bound for the others; with ``exact``, every
    move searched with the full window: exact values all); false when the budget ran out."""
    infinity: int = np.int64(INFINITY)  # type: ignore[assignment]
    first_ply: int = np.int64(1)  # type: ignore[assignment]
    pos = stack[0]
    child = stack[1]
    mover = mover_of(pos)
    alpha = -infinity
    for i in range(root.shape[0]):
        move = int(root[i])
        if stats[_NODES] >= stats[_BUDGET]:
            stats[_ABORTED] = 1
            return False
        stats[_NODES] += 1
        apply(pos, move, child)
        seen = seen_push(keys, counts, position_key(child))
        ended = outcome(child, counts[seen])
        if ended == 0:
            value = 0
        elif ended != ONGOING:
            value = WIN - 1 if ended >> mover & 1 else 1 - WIN
        elif i == 0 or exact:
            value = -negamax(stack, first_ply, depth - 1, -infinity, infinity, keys, counts, table_keys,
                             table_values, table_depths, table_bounds, table_moves, moves, scores,
                             history, stats)
        else:
            value = -negamax(stack, first_ply, depth - 1, -alpha - 1, -alpha, keys, counts, table_keys,
                             table_values, table_depths, table_bounds, table_moves, moves, scores,
                             history, stats)
            if value > alpha and not stats[_ABORTED]:
                value = -negamax(stack, first_ply, depth - 1, -infinity, -alpha, keys, counts,
                                 table_keys, table_values, table_depths, table_bounds, table_moves,
                                 moves, scores, history, stats)
        seen_pop(keys, counts, seen)
        if stats[_ABORTED]:
            return False
        values[i] = value
        stats[_ROOT_DONE] = i + 1
        alpha = max(alpha, value)
    return True


def child_of(node: int, move: int, node_child: Array, node_sibling: Array, node_move: Array) -> int:
    """The child of ``node`` reached by ``move``, ``-1`` when there is none yet."""
    child = node_child[node]
    while child >= 0:
        if node_move[child] == move:
            return int(child)
        child = node_sibling[child]
    return -1


def mcts_iterations(worlds: Array, start: int, iterations: int, exploration: float, keys: Array,
                    counts: Array, rng: Array, node_move: Array, node_mover: Array, node_visits: Array,
                    node_available: Array, node_totals: Array, node_child: Array, node_sibling: Array,
                    sizes: Array, current: Array, following: Array, path: Array, path_slots: Array,
                    slots: Array, moves: Array, untried: Array) -> int:
    """Up to ``iterations`` iterations of information-set MCTS (Cowling, Powley and Whitehouse
    2012; UCT when there is one world): iteration ``k`` plays in ``worlds[(start + k) %
    len(worlds)]``, walks down by UCB1 among the children legal there (``log`` of their
    availability), adds one child for a legal move without one (drawn at random), plays at random
    to the end and backs up +1 for the winners, -1 for the others, 0 for a draw. Returns how
    many ran (fewer when the node arrays are full)."""
    capacity = node_move.shape[0]
    for done in range(iterations):
        if sizes[0] + 1 >= capacity:
            return done
        current[:] = worlds[(start + done) % worlds.shape[0]]
        node = 0
        depth = 0
        path[0] = 0
        ended = ONGOING
        while True:
            n = generate(current, moves)
            waiting = 0
            for i in range(n):
                if child_of(node, int(moves[i]), node_child, node_sibling, node_move) < 0:
                    untried[waiting] = moves[i]
                    waiting += 1
            expanded = waiting > 0
            if expanded:
                move = int(untried[rng_below(rng, waiting)])
                child = sizes[0]
                sizes[0] = child + 1
                node_move[child] = move
                node_mover[child] = mover_of(current)
                node_visits[child] = 0
                node_available[child] = 1
                node_totals[child] = 0.0
                node_child[child] = -1
                node_sibling[child] = node_child[node]
                node_child[node] = child
            else:
                best_score = -math.inf
                child = -1
                for i in range(n):
                    candidate = child_of(node, int(moves[i]), node_child, node_sibling, node_move)
                    node_available[candidate] += 1
                    visits = node_visits[candidate]
                    score = (node_totals[candidate] / visits
                             + exploration * math.sqrt(math.log(node_available[candidate]) / visits))
                    if score > best_score:
                        best_score, child = score, candidate
                move = int(node_move[child])
            apply(current, move, following)
            current[:] = following
            seen = seen_push(keys, counts, position_key(current))
            depth += 1
            path[depth] = child
            path_slots[depth] = seen
            ended = outcome(current, counts[seen])
            if ended != ONGOING or expanded or depth >= MAX_TREE_DEPTH:
                break
            node = child
        if ended == ONGOING:
            ended, _ = playout(current, following, keys, counts, slots, moves, rng)
        for i in range(depth, 0, -1):
            seen_pop(keys, counts, path_slots[i])
        for i in range(depth + 1):
            visited = path[i]
            node_visits[visited] += 1
            if ended > 0 and i > 0:
                node_totals[visited] += 1.0 if ended >> node_mover[visited] & 1 else -1.0
    return iterations


TEMPLATES = ("perft_count", "playout", "run_playouts", "negamax", "root_iteration", "child_of",
             "mcts_iterations")
"""The functions :func:`build` compiles again for each kernel."""


# -- Python: the searches at the root ---------------------------------------------------------------
@dataclass(frozen=True)
class Searches:
    """A game's searches, built by :func:`build`: each takes a contract ``State`` or the
    kernel's position (``worlds``: a list of them) and answers a :class:`SearchResult` in the
    kernel's move codes."""

    compiled: Mapping[str, Any]
    root: Callable[[Any], tuple[Array, Mapping[int, int], bool]]
    players: Callable[[Any], int]
    max_moves: int

    def _start(self, state: Any) -> tuple[Array, Mapping[int, int]]:
        require()
        pos, seen, over = self.root(state)
        if over:
            raise ValueError("no move to search, the game is over")
        return pos, seen

    def _codes(self, pos: Array) -> list[int]:
        moves = np.empty(self.max_moves, dtype=np.int32)
        n = self.compiled["generate"](pos, moves)
        return [int(m) for m in moves[:n]]

    def perft(self, depth: int, state: Any) -> int:
        """Positions after exactly ``depth`` plies from ``state`` (an ended game: 0 beyond it)."""
        require()
        pos, seen, over = self.root(state)
        if depth == 0:
            return 1
        if over:
            return 0
        keys, counts = seen_table(seen, spare=depth)
        stack = np.empty((depth + 1, pos.shape[0]), dtype=np.int64)
        stack[0] = pos
        buffers = np.empty((depth, self.max_moves), dtype=np.int32)
        return int(self.compiled["perft_count"](stack, 0, depth, keys, counts, buffers))

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
        rng = np.array([seed % 2**64], dtype=np.uint64)
        wins, draws, lengths = self.compiled["run_playouts"](pos, n, players, keys, counts, rng, PLAYOUT_ROOM)
        return Playouts(wins, int(draws), lengths)

    def alphabeta(self, state: Any, *, depth: int = 64, nodes: int = 1_000_000, seed: int = 0,
                  table_bits: int = 16, exact_root: bool = False,
                  progress: Callable[[float], None] | None = None) -> SearchResult:
        """Iterative-deepening alpha-beta to ``depth`` plies within ``nodes`` positions visited,
        root moves first shuffled by ``seed``; the deepest iteration that overruns is abandoned
        (its root moves searched to the end of the budget still count when they beat the last
        best; ``compiled.deepen``). Two sides only; values in [-1, 1] for the player to move
        (±1: proven); the root moves' scores are bounds but for the best, or all exact with
        ``exact_root``."""
        pos, seen = self._start(state)
        if depth < 1 or nodes < 1:
            raise ValueError(f"alpha-beta needs a depth and nodes of at least 1, not {depth!r}, {nodes!r}")
        codes = self._codes(pos)
        root = shuffled(codes, seed)
        keys, counts = seen_table(seen, spare=MAX_PLY)
        size = 1 << table_bits
        table_keys = np.full(size, -1, dtype=np.int64)
        table_values = np.zeros(size, dtype=np.int64)
        table_depths = np.zeros(size, dtype=np.int64)
        table_bounds = np.zeros(size, dtype=np.int8)
        table_moves = np.full(size, -1, dtype=np.int64)
        stack = np.empty((MAX_PLY + 1, pos.shape[0]), dtype=np.int64)
        stack[0] = pos
        moves = np.empty((MAX_PLY, self.max_moves), dtype=np.int32)
        scores = np.empty((MAX_PLY, self.max_moves), dtype=np.int64)
        history = np.zeros(HISTORY, dtype=np.int64)
        stats = np.array([0, nodes, 0, 64 - table_bits, 0], dtype=np.int64)

        def iterate(root: Array, iteration: int, values: Array) -> bool:
            stats[_ROOT_DONE] = 0
            return bool(self.compiled["root_iteration"](stack, iteration, root, values, keys, counts,
                                                        table_keys, table_values, table_depths,
                                                        table_bounds, table_moves, moves, scores, history,
                                                        stats, exact_root))

        def rescue(root: Array, values: Array) -> None:
            stats[_BUDGET] = stats[_NODES] + len(root)
            stats[_ABORTED] = 0
            iterate(root, 1, values)

        root, best_values, reached = deepen(root, min(depth, MAX_PLY - 1), iterate, rescue=rescue,
                                            searched=lambda: int(stats[_ROOT_DONE]), progress=progress)
        best = int(root[0])
        value = _squash(int(best_values[0]))
        by_code = {int(m): float(_squash(int(v))) for m, v in zip(root, best_values, strict=True)}
        return SearchResult(best, value, reached, int(stats[_NODES]), np.array(codes, dtype=np.int32),
                            np.array([by_code[c] for c in codes], dtype=np.float64), (best,))

    def uct(self, state: Any, *, iterations: int = 10_000, exploration: float = 1.0, seed: int = 0,
            progress: Callable[[float], None] | None = None) -> SearchResult:
        """UCT with uniformly random playouts to the end: information-set MCTS in one world."""
        return self.ismcts([state], iterations=iterations, exploration=exploration, seed=seed,
                           progress=progress)

    def ismcts(self, worlds: Sequence[Any], *, iterations: int = 10_000, exploration: float = 1.0,
               seed: int = 0, progress: Callable[[float], None] | None = None) -> SearchResult:
        """Information-set MCTS over ``worlds`` (full states a bot drew with ``determinize``; the
        player to move must have the same legal moves in each): one tree, iteration ``k`` played
        in world ``k % len(worlds)``. The answer is the most visited root move, ties to the
        better mean, then to canonical order; ``scores`` are the root moves' visits."""
        if not worlds:
            raise ValueError("information-set MCTS needs at least one world")
        if iterations < 1:
            raise ValueError(f"MCTS needs at least one iteration, not {iterations!r}")
        starts = [self._start(world) for world in worlds]
        codes = self._codes(starts[0][0])
        if any(self._codes(pos) != codes for pos, _ in starts[1:]):
            raise ValueError("the worlds differ in the legal moves of the player to move")
        stacked = np.stack([pos for pos, _ in starts])
        seen: dict[int, int] = {}
        for _, counted in starts:
            for key, times in counted.items():
                seen[key] = max(seen.get(key, 0), times)
        if len(codes) == 1:
            only = np.array(codes, dtype=np.int32)
            return SearchResult(codes[0], 0.0, 0, 0, only, np.zeros(1), (codes[0],))
        keys, counts = seen_table(seen, spare=PLAYOUT_ROOM + MAX_TREE_DEPTH)
        capacity = iterations + 2
        node_move = np.full(capacity, -1, dtype=np.int64)
        node_mover = np.full(capacity, -1, dtype=np.int64)
        node_visits = np.zeros(capacity, dtype=np.int64)
        node_available = np.zeros(capacity, dtype=np.int64)
        node_totals = np.zeros(capacity, dtype=np.float64)
        node_child = np.full(capacity, -1, dtype=np.int64)
        node_sibling = np.full(capacity, -1, dtype=np.int64)
        sizes = np.array([1], dtype=np.int64)
        current = stacked[0].copy()
        following = stacked[0].copy()
        path = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
        path_slots = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
        slots = np.empty(PLAYOUT_ROOM, dtype=np.int64)
        moves = np.empty(self.max_moves, dtype=np.int32)
        untried = np.empty(self.max_moves, dtype=np.int32)
        rng = np.array([seed % 2**64], dtype=np.uint64)
        done = 0
        chunk = max(1, iterations // 20) if progress is not None else iterations
        while done < iterations:
            ran = self.compiled["mcts_iterations"](
                stacked, done, min(chunk, iterations - done), exploration, keys, counts, rng, node_move,
                node_mover, node_visits, node_available, node_totals, node_child, node_sibling, sizes,
                current, following, path, path_slots, slots, moves, untried)
            done += ran
            if ran == 0:
                break
            if progress is not None:
                progress(done / iterations)
        return tree_answer(codes, lambda node: _children(node, node_child, node_sibling), node_move,
                           node_visits, node_totals, done)

    def pimc(self, worlds: Sequence[Any], *, depth: int = 64, nodes: int = 1_000_000, seed: int = 0,
             progress: Callable[[float], None] | None = None) -> SearchResult:
        """Alpha-beta in each world (its share of ``nodes``, every root move's value exact),
        the root move with the best mean value over the worlds, ties to canonical order."""
        if not worlds:
            raise ValueError("PIMC needs at least one world")
        found = [self.alphabeta(world, depth=depth, nodes=max(1, nodes // len(worlds)), seed=seed,
                                exact_root=True) for world in worlds]
        codes = [int(c) for c in found[0].moves]
        if any([int(c) for c in f.moves] != codes for f in found[1:]):
            raise ValueError("the worlds differ in the legal moves of the player to move")
        means = np.mean([f.scores for f in found], axis=0)
        best = int(np.argmax(means))
        if progress is not None:
            progress(1.0)
        return SearchResult(codes[best], float(means[best]), min(f.depth for f in found),
                            sum(f.nodes for f in found), np.array(codes, dtype=np.int32), means,
                            (codes[best],))


def _children(node: int, node_child: Array, node_sibling: Array) -> list[int]:
    found = []
    child = int(node_child[node])
    while child >= 0:
        found.append(child)
        child = int(node_sibling[child])
    return found


def _squash(value: int) -> float:
    """A search value as [-1, 1] for the player to move: ±1 for proven results, heuristic
    values (thousandths) squashed by ``tanh``."""
    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return -1.0
    return math.tanh(value / 1000.0)


Root = Callable[[Any], tuple[Array, Mapping[int, int], bool]]
"""A state or position -> its array, the positions seen (key: occurrences), whether it is over."""


def build(kernel: Mapping[str, Any], *, max_moves: int, root: Root,
          players: Callable[[Any], int]) -> Searches:
    """The searches over one kernel: ``kernel`` maps each name of :data:`KERNEL_FUNCTIONS` to the
    game's compiled function; ``root(state or position)`` gives the position's array, the
    positions seen (key: occurrences) and whether the game is over; ``players`` its player
    count; ``max_moves`` bounds one position's moves. Each template is compiled again with the
    game's functions as its globals (on its first call)."""
    missing = [name for name in KERNEL_FUNCTIONS if name not in kernel]
    if missing:
        raise ValueError(f"a kernel for the shared searches needs {missing}")
    namespace = dict(globals())
    namespace.update({name: kernel[name] for name in KERNEL_FUNCTIONS})
    namespace["MAX_MOVES"] = max_moves
    for name in TEMPLATES:
        template = globals()[name]
        function = types.FunctionType(template.__code__, namespace, name, template.__defaults__)
        namespace[name] = numba.njit(nogil=True)(function) if numba is not None else function
    return Searches(namespace, root, players, max_moves)
