"""Search inside the Pylos kernel: the evaluator, alpha-beta and UCT, compiled, no Python per node.

The plain bots (``ludotheque.ai``) search through the contract; these search the kernel's integers
(``kernel.py``) and meet Python only at the root: :func:`alphabeta` and :func:`uct` take a plain
state or a kernel ``Position`` and answer a :class:`~ludotheque.engines.compiled.SearchResult`
(the kernel's move codes). Budgets are nodes and iterations, never time, and every random choice
comes from the ``seed``: a search is a pure function of (seed, position).

**Repetition draws depend on the path**, so the transposition table keys a position with whether
it occurred before (its key's bit 61), and an entry whose value a repetition draw inside its
subtree decided is not stored: only values that no path can change are shared.

>>> from ludotheque.engines.pylos.rules import PylosGame
>>> state = PylosGame().new_state()
>>> for text in ("1a1", "1c1", "1b1", "1c2", "1a2", "1d4"):
...     state = state.play(text)
>>> found = alphabeta(state, depth=3, seed=1)
>>> found.depth, "x" in kernel.move_text(found.move), found.value > 0
(3, True, True)
>>> uct(state, iterations=200, seed=1).nodes
200
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from ..compiled import (
    INFINITY,
    PROVEN,
    WIN,
    Array,
    SearchResult,
    compiled,
    count,
    deepen,
    from_table,
    lowest,
    pick,
    require,
    rng_below,
    seen_pop,
    seen_push,
    shuffled,
    table_slot,
    to_table,
    tree_add_child,
    tree_answer,
    tree_fill,
    weight_vector,
)
from . import kernel
from .board import ABOVE, HIGHER, LEVEL_MASK, SQUARES, TOP
from .evaluate import FIGURES, WEIGHTS
from .kernel import (
    MAX_MOVES,
    NO_CELL,
    ONGOING,
    REPETITION,
    VARIANT_CODES,
    Position,
    apply,
    available,
    covered,
    generate,
    outcome,
    playout,
)
from .rules import VARIANTS, PylosState

# -- values: ``WIN - plies`` for the player to move winning ``plies`` from the root (a win sooner is
# better; ``compiled.WIN``); heuristic values are thousandths of a ball, far below.
MILLI = 1000.0
MAX_PLY = 128
"""Plies below the root a search has room for (the deepest iteration is capped to fit)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
_SEEN_BEFORE = 1 << 61  # in a table key: the position occurred before on this path or in the game

# ``stats`` slots of an alpha-beta search.
_NODES, _BUDGET, _ABORTED, _REPETITIONS, _SHIFT, _ROOT_DONE = 0, 1, 2, 3, 4, 5

# The evaluator's weights, in balls, passed to the compiled code as an array (a global would be
# frozen into Numba's cache): the order of ``evaluate.WEIGHTS``.
WEIGHT_NAMES = tuple(WEIGHTS)
(_RESERVE, _READY_TO_MOVE, _READY_BLOCKABLE, _READY_DOUBLE, _LATENT, _RAISE, _TEMPO, _FREE, _UPPER,
 _OPEN_SQUARE, _LATE_RESERVE, _LATE_TEMPO) = range(12)
assert WEIGHT_NAMES == ("reserve", "ready_to_move", "ready_blockable", "ready_double", "latent_square",
                        "raise", "tempo", "free", "upper", "open_square", "late_reserve",
                        "late_tempo"), WEIGHT_NAMES

# Geometry and figures (rule set by rule set), from board.py and evaluate.py.
_HIGHER = np.array(HIGHER, dtype=np.int64)
_ABOVE = np.array(ABOVE, dtype=np.int64)
_SQUARES = np.array(SQUARES, dtype=np.int64)
_LEVEL1 = LEVEL_MASK[1]


def _figure_table() -> tuple[Array, Array, Array]:
    width = max(len(f) for f in FIGURES.values())
    masks = np.zeros((len(VARIANTS), max(1, width)), dtype=np.int64)
    shorts = np.zeros((len(VARIANTS), max(1, width)), dtype=np.int64)
    numbers = np.zeros(len(VARIANTS), dtype=np.int64)
    for variant, figures in FIGURES.items():
        code = VARIANT_CODES[variant]
        numbers[code] = len(figures)
        for k, (mask, short) in enumerate(figures):
            masks[code, k], shorts[code, k] = mask, short
    return masks, shorts, numbers


_FIGURE_MASKS, _FIGURE_SHORTS, _FIGURE_NUMBERS = _figure_table()


def weights_array(weights: Mapping[str, float] | None = None) -> Array:
    """The evaluator's weights as the compiled code reads them (``evaluate.WEIGHTS`` by default)."""
    return weight_vector("pylos", WEIGHT_NAMES, WEIGHTS, weights)


# -- the evaluator ----------------------------------------------------------------------------------
@compiled
def _can_raise(own_free: int, open_cells: int) -> bool:
    sources = own_free
    while sources:
        source = lowest(sources)
        sources &= sources - 1
        if open_cells & _HIGHER[source] & ~_ABOVE[source]:
            return True
    return False


@compiled
def _balance(own: int, occupied: int, open_cells: int, is_to_move: bool, variant: int,
             weights: Array, filled: float) -> float:
    """``evaluate._balance``: the balls a player holds or is about to win back."""
    free = own & ~covered(occupied)
    score: float = (weights[_RESERVE] + weights[_LATE_RESERVE] * filled) * (15 - count(own))
    score += weights[_FREE] * count(free) + weights[_UPPER] * count(own & ~_LEVEL1)
    figures = _FIGURE_NUMBERS[variant]
    ready = 0
    for k in range(figures):
        figure = _FIGURE_MASKS[variant, k]
        short = _FIGURE_SHORTS[variant, k]
        if count(own & figure) == short and count(occupied & figure) == short:
            empty = figure & ~occupied
            if empty & open_cells:
                ready |= empty
            else:
                score += weights[_LATENT]
    if ready and is_to_move:
        score += weights[_READY_TO_MOVE]
    elif ready and count(ready) == 1:
        score += weights[_READY_BLOCKABLE]
    elif ready:
        score += weights[_READY_DOUBLE]
    if figures and weights[_OPEN_SQUARE] != 0.0:
        other = occupied & ~own
        for k in range(_SQUARES.shape[0]):
            square = _SQUARES[k]
            if square & own and not square & other and square & occupied != square:
                score += weights[_OPEN_SQUARE]
    if _can_raise(free, open_cells):
        score += weights[_RAISE]
    return score


@compiled
def evaluate_balls(light: int, dark: int, mover: int, variant: int, weights: Array) -> float:
    """The position's worth for the player to move, in balls (``evaluate.balls``, before the
    squashing into [-1, 1]); the game must not be over."""
    occupied = light | dark
    open_cells = available(occupied)
    filled = count(occupied) / 30.0
    own, other = (dark, light) if mover else (light, dark)
    balls: float = (_balance(own, occupied, open_cells, True, variant, weights, filled)
                    - _balance(other, occupied, open_cells, False, variant, weights, filled)
                    + weights[_TEMPO] + weights[_LATE_TEMPO] * filled)
    return balls


@compiled
def _evaluate(light: int, dark: int, mover: int, variant: int, weights: Array) -> int:
    return round(evaluate_balls(light, dark, mover, variant, weights) * MILLI)


# -- alpha-beta -----------------------------------------------------------------------------------
@compiled
def _order(moves: Array, scores: Array, n: int, first: int, killers: Array, ply: int,
           history: Array) -> None:
    """Score the moves for ordering: the table's move, the top, killers, then the balls a move
    saves (removals, a raise), then the history of cut-offs."""
    for i in range(n):
        move = int(moves[i])
        if move == first:
            score = 1 << 30
        elif move & 31 == TOP:
            score = (1 << 30) - 1
        elif move == killers[ply, 0]:
            score = 1 << 29
        elif move == killers[ply, 1]:
            score = (1 << 29) - 1
        else:
            saved = (int(move >> 5 & 31 != NO_CELL) + int(move >> 10 & 31 != NO_CELL)
                     + int(move >> 15 & 31 != NO_CELL))
            score = saved << 24 | min(history[move & 0x7FFF], (1 << 24) - 1)
        scores[i] = score


@compiled
def _negamax(
    light: int, dark: int, mover: int, variant: int, depth: int, alpha: int, beta: int, ply: int,
    seen_before: bool, keys: Array, counts: Array, table_keys: Array, table_values: Array,
    table_depths: Array, table_bounds: Array, table_moves: Array, moves: Array, scores: Array,
    killers: Array, history: Array, stats: Array, weights: Array,
) -> int:
    """The position's value for the player to move, within (alpha, beta); 0 once the budget ran
    out (``stats[_ABORTED]``: the caller abandons the iteration)."""
    if depth <= 0:
        return _evaluate(light, dark, mover, variant, weights)
    key = light | dark << 30 | mover << 60 | (_SEEN_BEFORE if seen_before else 0)
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
    n = generate(light, dark, mover, variant, row)
    _order(row, order, n, first, killers, ply, history)
    original_alpha = alpha
    repetitions = stats[_REPETITIONS]
    best_value = -INFINITY
    best_move = -1
    for i in range(n):
        move = pick(row, order, i, n)
        if stats[_NODES] >= stats[_BUDGET]:  # counted only once visited: the budget is a bound
            stats[_ABORTED] = 1
            return 0
        stats[_NODES] += 1
        after_light, after_dark = apply(light, dark, mover, move)
        seen = seen_push(keys, counts, after_light | after_dark << 30 | (mover ^ 1) << 60)
        ended = outcome(after_light, after_dark, mover, move, counts[seen])
        if ended == REPETITION:
            stats[_REPETITIONS] += 1
            value = 0
        elif ended != ONGOING:
            value = WIN - ply - 1  # the top, or the opponent's empty reserve: the mover wins
        elif i == 0:
            value = -_negamax(after_light, after_dark, mover ^ 1, variant, depth - 1, -beta, -alpha,
                              ply + 1, counts[seen] > 1, keys, counts, table_keys, table_values,
                              table_depths, table_bounds, table_moves, moves, scores, killers, history,
                              stats, weights)
        else:  # principal variation search: prove the move no better, else search it again
            value = -_negamax(after_light, after_dark, mover ^ 1, variant, depth - 1, -alpha - 1,
                              -alpha, ply + 1, counts[seen] > 1, keys, counts, table_keys, table_values,
                              table_depths, table_bounds, table_moves, moves, scores, killers, history,
                              stats, weights)
            if alpha < value < beta and not stats[_ABORTED]:
                value = -_negamax(after_light, after_dark, mover ^ 1, variant, depth - 1, -beta,
                                  -alpha, ply + 1, counts[seen] > 1, keys, counts, table_keys,
                                  table_values, table_depths, table_bounds, table_moves, moves, scores,
                                  killers, history, stats, weights)
        seen_pop(keys, counts, seen)
        if stats[_ABORTED]:
            return 0
        if value > best_value:
            best_value, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            if move != killers[ply, 0]:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = move
            history[move & 0x7FFF] += depth * depth
            break
    if stats[_REPETITIONS] == repetitions:  # no repetition draw decided it: no path can change it
        bound = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
        if table_keys[slot] != key or table_depths[slot] <= depth:
            table_keys[slot] = key
            table_values[slot] = to_table(best_value, ply)
            table_depths[slot] = depth
            table_bounds[slot] = bound
            table_moves[slot] = best_move
    return best_value


@compiled
def root_iteration(
    light: int, dark: int, mover: int, variant: int, depth: int, root: Array, values: Array,
    keys: Array, counts: Array, table_keys: Array, table_values: Array, table_depths: Array,
    table_bounds: Array, table_moves: Array, moves: Array, scores: Array, killers: Array,
    history: Array, stats: Array, weights: Array,
) -> bool:
    """One iteration of iterative deepening over the root moves ``root`` (best first from the
    last iteration): each one's value in ``values`` (exact for the best, an upper bound for the
    others); false when the node budget ran out, the iteration then abandoned."""
    # Typed int64, not as literals: a recursive function called with other argument types than
    # its own gets a second compilation, which Numba's cache cannot link (numba issue #6061).
    infinity: int = np.int64(INFINITY)  # type: ignore[assignment]
    first_ply: int = np.int64(1)  # type: ignore[assignment]
    alpha = -infinity
    for i in range(root.shape[0]):
        move = int(root[i])
        if stats[_NODES] >= stats[_BUDGET]:
            stats[_ABORTED] = 1
            return False
        stats[_NODES] += 1
        after_light, after_dark = apply(light, dark, mover, move)
        seen = seen_push(keys, counts, after_light | after_dark << 30 | (mover ^ 1) << 60)
        ended = outcome(after_light, after_dark, mover, move, counts[seen])
        if ended == REPETITION:
            value = 0
        elif ended != ONGOING:
            value = WIN - 1
        elif i == 0:
            value = -_negamax(after_light, after_dark, mover ^ 1, variant, depth - 1, -infinity,
                              infinity, first_ply, counts[seen] > 1, keys, counts, table_keys, table_values,
                              table_depths, table_bounds, table_moves, moves, scores, killers, history,
                              stats, weights)
        else:
            value = -_negamax(after_light, after_dark, mover ^ 1, variant, depth - 1, -alpha - 1,
                              -alpha, first_ply, counts[seen] > 1, keys, counts, table_keys, table_values,
                              table_depths, table_bounds, table_moves, moves, scores, killers, history,
                              stats, weights)
            if value > alpha and not stats[_ABORTED]:
                value = -_negamax(after_light, after_dark, mover ^ 1, variant, depth - 1, -infinity,
                                  -alpha, first_ply, counts[seen] > 1, keys, counts, table_keys, table_values,
                                  table_depths, table_bounds, table_moves, moves, scores, killers,
                                  history, stats, weights)
        seen_pop(keys, counts, seen)
        if stats[_ABORTED]:
            return False
        values[i] = value
        stats[_ROOT_DONE] = i + 1
        alpha = max(alpha, value)
    return True


@compiled
def _table_move(light: int, dark: int, mover: int, seen_before: bool, table_keys: Array,
                table_moves: Array, shift: int) -> int:
    key = light | dark << 30 | mover << 60 | (_SEEN_BEFORE if seen_before else 0)
    slot = table_slot(key, shift)
    return int(table_moves[slot]) if table_keys[slot] == key else -1



def squash(value: int) -> float:
    """A search value as a bot's value in [-1, 1]: a proven result ±1, else the evaluator's
    squashing of a ball difference (``evaluate.SCALE``), kept below every proven result."""
    from .evaluate import SCALE

    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return -1.0
    return 0.9 * math.tanh(value / MILLI / SCALE)


def alphabeta(
    state: PylosState | Position, *, depth: int = 64, nodes: int = 1_000_000, seed: int = 0,
    weights: Mapping[str, float] | None = None, table_bits: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> SearchResult:
    """Iterative-deepening alpha-beta (principal variation search, transposition table, the
    table's move, killers and history first) from ``state``, to ``depth`` plies within ``nodes``
    positions visited (every position reached counts, those that end the game included): the
    deepest iteration that overruns is abandoned and the previous one answers; when not even one
    ply fits, each root move is searched one ply deep all the same. Root moves are first shuffled
    by ``seed``. Raises ``ValueError`` once the game is over, ``RuntimeError`` without Numba."""
    require()
    position = state if isinstance(state, Position) else kernel.from_state(state)
    if position.is_over:
        raise ValueError("pylos kernel: no move to search, the game is over")
    variant = VARIANT_CODES[position.variant]
    codes = kernel.legal_moves(position)
    root = shuffled(codes, seed)
    depth = max(1, min(depth, MAX_PLY - 1))
    if table_bits is None:  # room for the positions a budget can store, within 2**21 entries
        table_bits = max(10, min(21, (2 * nodes).bit_length()))
    size = 1 << table_bits
    table_keys = np.full(size, -1, dtype=np.int64)
    table_values = np.zeros(size, dtype=np.int64)
    table_depths = np.zeros(size, dtype=np.int16)
    table_bounds = np.zeros(size, dtype=np.int8)
    table_moves = np.full(size, -1, dtype=np.int32)
    keys, counts = kernel.seen_table(position.seen, spare=MAX_PLY)
    moves = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int32)
    scores = np.empty((MAX_PLY, MAX_MOVES), dtype=np.int64)
    killers = np.full((MAX_PLY, 2), -1, dtype=np.int32)
    history = np.zeros(1 << 15, dtype=np.int64)
    stats = np.array([0, nodes, 0, 0, 64 - table_bits, 0], dtype=np.int64)
    chosen = weights_array(weights)

    def iterate(root: Array, iteration: int, values: Array) -> bool:
        stats[_ROOT_DONE] = 0
        return bool(root_iteration(position.light, position.dark, position.mover, variant, iteration, root,
                                   values, keys, counts, table_keys, table_values, table_depths,
                                   table_bounds, table_moves, moves, scores, killers, history, stats,
                                   chosen))

    def rescue(root: Array, values: Array) -> None:
        stats[_BUDGET] = stats[_NODES] + len(root)
        stats[_ABORTED] = 0
        iterate(root, 1, values)

    root, best_values, completed = deepen(root, depth, iterate, rescue=rescue, progress=progress,
                                          searched=lambda: int(stats[_ROOT_DONE]))
    best = int(root[0])
    line = _principal_line(position, best, completed, table_keys, table_moves, 64 - table_bits)
    by_move = {int(m): squash(int(v)) for m, v in zip(root, best_values, strict=True)}
    return SearchResult(best, squash(int(best_values[0])), completed, int(stats[_NODES]),
                        np.array(codes, dtype=np.int32), np.array([by_move[c] for c in codes]), line)


def _principal_line(position: Position, best: int, depth: int, table_keys: Array,
                    table_moves: Array, shift: int) -> tuple[int, ...]:
    """The best move, then the table's moves after it, as far as the search went."""
    line = [best]
    current = kernel.play(position, best)
    while not current.is_over and len(line) < depth:
        seen_before = current.seen[kernel.position_key(current.light, current.dark, current.mover)] > 1
        move = _table_move(current.light, current.dark, current.mover, seen_before, table_keys,
                           table_moves, shift)
        if move < 0 or move not in kernel.legal_moves(current):
            break
        line.append(move)
        current = kernel.play(current, move)
    return tuple(line)


# -- UCT ----------------------------------------------------------------------------------------------
# A node of the tree: the move that leads to it, who played it, its visits and the sum of the
# values backed up through it for that player; its moves lie in the pool at ``first`` once an
# iteration went through it (``-1`` before), the first ``expanded`` of them with a child. With the
# solver, ``proven`` is +1 (-1) when the node is a proven win (loss) for the player who moved there.
MAX_TREE_DEPTH = 512
"""An iteration stops going down the tree this deep and plays out from there."""
POOL_PER_ITERATION = 16
"""Room for moves in the tree at first, per iteration (it grows when a search needs more)."""


@compiled
def _removals(move: int) -> int:
    return int(move >> 10 & 31 != NO_CELL) + int(move >> 15 & 31 != NO_CELL)


@compiled
def _playout_move(moves: Array, n: int, greedy: float, rng: Array) -> int:
    """A playout's move: with probability ``greedy``, one of those that take back the most balls
    (when some take back any) and always the top when it can be placed; else any."""
    if greedy > 0.0:
        last = int(moves[n - 1])
        for i in range(n):  # the top is a placement, the last cell: the last placement listed
            move = int(moves[i])
            if move >> 5 & 31 != NO_CELL:
                break
            last = move
        if last & 31 == TOP and last >> 5 & 31 == NO_CELL:
            return last
        if rng_below(rng, 1 << 20) < greedy * (1 << 20):
            most = 0
            tied = 0
            for i in range(n):
                taken = _removals(int(moves[i]))
                if taken > most:
                    most, tied = taken, 1
                elif taken == most:
                    tied += 1
            if most > 0:
                pick = rng_below(rng, tied)
                for i in range(n):
                    if _removals(int(moves[i])) == most:
                        if pick == 0:
                            return int(moves[i])
                        pick -= 1
    return int(moves[rng_below(rng, n)])


@compiled
def _biased_playout(
    light: int, dark: int, mover: int, variant: int, keys: Array, counts: Array, slots: Array,
    moves: Array, greedy: float, rng: Array,
) -> tuple[int, int]:
    """``kernel.playout`` with :func:`_playout_move`'s choices: the winner, or -1 for a draw (or a
    game longer than ``slots``), and the plies played."""
    plies = 0
    result = ONGOING
    while result == ONGOING and plies < slots.shape[0]:
        n = generate(light, dark, mover, variant, moves)
        move = _playout_move(moves, n, greedy, rng)
        light, dark = apply(light, dark, mover, move)
        mover ^= 1
        slot = seen_push(keys, counts, light | dark << 30 | mover << 60)
        slots[plies] = slot
        plies += 1
        result = outcome(light, dark, mover ^ 1, move, counts[slot])
    for i in range(plies - 1, -1, -1):
        seen_pop(keys, counts, slots[i])
    if result == ONGOING or result == REPETITION:  # noqa: SIM109 - Numba compiles no tuple test
        return -1, plies
    return mover ^ 1, plies


@compiled
def uct_iterations(
    light: int, dark: int, mover: int, variant: int, keys: Array, counts: Array, iterations: int,
    exploration: float, greedy: float, solver: bool, rng: Array, node_move: Array, node_mover: Array,
    node_visits: Array, node_totals: Array, node_first: Array, node_moves: Array, node_expanded: Array,
    node_proven: Array, pool_moves: Array, pool_child: Array, sizes: Array, plies_budget: int,
    path: Array, path_slots: Array, slots: Array, trail: Array, buffer: Array,
) -> int:
    """Run up to ``iterations`` UCT iterations on the tree held in the arrays (``sizes``: nodes,
    pool entries used and plies played, in the tree and in playouts); return how many ran (fewer
    when the pool is full: grow it and call again; when the solver proved the root's value, or
    when ``plies_budget`` plies were played). An iteration walks down by UCB1
    (``exploration`` for values in [-1, 1]), adds one child for an untried move drawn at random,
    plays a game from there (uniformly random when ``greedy`` is 0, else
    :func:`_playout_move`'s) and backs up +1 for the winner, -1 for the loser and 0 for a draw.
    With ``solver`` (MCTS-Solver, Winands, Björnsson and Saito 2008), wins and losses proven by
    the ends of games in the tree go up it: a proven win is always chosen, a proven loss never
    while another move remains."""
    for done in range(iterations):
        if (sizes[1] + MAX_MOVES > pool_moves.shape[0] or (solver and node_proven[0] != 0)
                or sizes[2] >= plies_budget):
            return done
        node = 0
        at_light, at_dark, at_mover = light, dark, mover
        depth = 0
        path[0] = 0
        result = ONGOING
        winner = -1
        while True:
            if node_first[node] < 0:
                n = generate(at_light, at_dark, at_mover, variant, buffer)
                tree_fill(node, buffer, n, sizes, node_first, node_moves, pool_moves, pool_child)
            start = node_first[node]
            n = node_moves[node]
            k = node_expanded[node]
            if k < n:
                child = tree_add_child(node, at_mover, rng, sizes, node_first, node_expanded, node_move,
                                       node_mover, node_visits, node_totals, node_moves, pool_moves,
                                       pool_child)
                node_proven[child] = 0
                move = int(node_move[child])
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
                move = int(node_move[child])
            next_light, next_dark = apply(at_light, at_dark, at_mover, move)
            seen = seen_push(keys, counts, next_light | next_dark << 30 | (at_mover ^ 1) << 60)
            depth += 1
            path[depth] = child
            path_slots[depth] = seen
            result = outcome(next_light, next_dark, at_mover, move, counts[seen])
            at_light, at_dark = next_light, next_dark
            at_mover ^= 1
            if result != ONGOING:
                winner = -1 if result == REPETITION else at_mover ^ 1
                if solver and winner >= 0:
                    node_proven[child] = 1
                break
            if k < n or depth >= MAX_TREE_DEPTH:
                break
            node = child
        sizes[2] += depth
        if result == ONGOING:
            if greedy > 0.0:
                winner, plies = _biased_playout(at_light, at_dark, at_mover, variant, keys, counts,
                                                slots, buffer, greedy, rng)
            else:
                result, winner, plies = playout(at_light, at_dark, at_mover, variant, keys, counts,
                                                slots, trail, buffer, rng)
                if plies < 0:  # longer than the room for a playout: scored a draw
                    winner, plies = -1, slots.shape[0]
            sizes[2] += plies
        for i in range(depth, 0, -1):
            seen_pop(keys, counts, path_slots[i])
        for i in range(depth + 1):
            visited = path[i]
            node_visits[visited] += 1
            if winner >= 0 and i > 0:
                node_totals[visited] += 1.0 if node_mover[visited] == winner else -1.0
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


def uct(
    state: PylosState | Position, *, iterations: int = 10_000, exploration: float = 1.0,
    plies: int | None = None, greedy: float = 0.0, solver: bool = False, seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> SearchResult:
    """UCT with ``iterations`` playouts to the end of the game, no evaluator: with the defaults,
    the project's ``MCTSBot`` with uniformly random playouts, in the kernel. ``plies``, when
    given, ends the search sooner, once that many moves were played in all (in the tree and in
    playouts): a budget in the work done, which gives a position near the end, where playouts are
    short, more of them. ``greedy`` > 0 makes
    playouts take back balls when they can with that probability (and always place the top),
    ``solver`` proves wins and losses in the tree (see :func:`uct_iterations`). The answer is
    a proven win if there is one, else the most visited root move that is not a proven loss,
    ties to the better mean, then to canonical order; ``scores`` are the root moves' visits,
    ``value`` the chosen move's mean result for the player to move. Raises ``ValueError`` once
    the game is over, ``RuntimeError`` without Numba."""
    require()
    if iterations < 1:
        raise ValueError(f"UCT needs at least one iteration, not {iterations!r}")
    position = state if isinstance(state, Position) else kernel.from_state(state)
    if position.is_over:
        raise ValueError("pylos kernel: no move to search, the game is over")
    variant = VARIANT_CODES[position.variant]
    codes = kernel.legal_moves(position)
    if len(codes) == 1:
        return SearchResult(codes[0], 0.0, 0, 0, np.array(codes, dtype=np.int32), np.zeros(1), (codes[0],))
    room = kernel.PLAYOUT_ROOM
    capacity = iterations + 2
    node_move = np.full(capacity, -1, dtype=np.int32)
    node_mover = np.full(capacity, -1, dtype=np.int8)
    node_visits = np.zeros(capacity, dtype=np.int64)
    node_totals = np.zeros(capacity, dtype=np.float64)
    node_first = np.full(capacity, -1, dtype=np.int64)
    node_moves = np.zeros(capacity, dtype=np.int64)
    node_expanded = np.zeros(capacity, dtype=np.int64)
    node_proven = np.zeros(capacity, dtype=np.int8)
    pool = max(4 * MAX_MOVES, POOL_PER_ITERATION * iterations)
    pool_moves = np.empty(pool, dtype=np.int32)
    pool_child = np.empty(pool, dtype=np.int32)
    sizes = np.array([1, 0, 0], dtype=np.int64)
    plies_budget = plies if plies is not None else 2**62
    keys, counts = kernel.seen_table(position.seen, spare=room + MAX_TREE_DEPTH)
    path = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
    path_slots = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
    slots = np.empty(room, dtype=np.int64)
    trail = np.empty(room, dtype=np.int32)
    buffer = np.empty(MAX_MOVES, dtype=np.int32)
    rng = np.array([seed % 2**64], dtype=np.uint64)
    done = 0
    chunk = max(1, iterations // 20) if progress is not None else iterations
    while done < iterations and not (solver and node_proven[0]) and sizes[2] < plies_budget:
        done += uct_iterations(position.light, position.dark, position.mover, variant, keys, counts,
                               min(chunk, iterations - done), exploration, greedy, solver, rng,
                               node_move, node_mover, node_visits, node_totals, node_first, node_moves,
                               node_expanded, node_proven, pool_moves, pool_child, sizes, plies_budget,
                               path, path_slots, slots, trail, buffer)
        if sizes[1] + MAX_MOVES > pool_moves.shape[0]:
            pool_moves = np.concatenate([pool_moves, np.empty_like(pool_moves)])
            pool_child = np.concatenate([pool_child, np.empty_like(pool_child)])
        if progress is not None:
            progress(max(done / iterations, sizes[2] / plies_budget))

    def children(node: int) -> list[int]:
        first = int(node_first[node])
        return [int(c) for c in pool_child[first:first + int(node_expanded[node])]]

    return tree_answer(codes, children, node_move, node_visits, node_totals, done, proven=node_proven)


# -- the interface of hidden-information kernels, for a game that hides nothing --------------------
def pimc(worlds: Sequence[PylosState | Position], *, depth: int = 64, nodes: int = 1_000_000,
         seed: int = 0, progress: Callable[[float], None] | None = None,
         weights: Mapping[str, float] | None = None) -> SearchResult:
    """Alpha-beta over determinizations (the interface of hidden-information kernels): Pylos
    hides nothing, so every world is the position itself and one alpha-beta search answers.
    Raises ``ValueError`` for worlds that differ."""
    return alphabeta(_the_world(worlds), depth=depth, nodes=nodes, seed=seed, progress=progress,
                     weights=weights)


def ismcts(worlds: Sequence[PylosState | Position], *, iterations: int = 10_000,
           exploration: float = 1.0, seed: int = 0, progress: Callable[[float], None] | None = None,
           greedy: float = 0.0) -> SearchResult:
    """Information-set MCTS over determinizations (the interface of hidden-information
    kernels): Pylos hides nothing, so every world is the position itself and UCT answers.
    Raises ``ValueError`` for worlds that differ."""
    return uct(_the_world(worlds), iterations=iterations, exploration=exploration, seed=seed,
               progress=progress, greedy=greedy)


def _the_world(worlds: Sequence[PylosState | Position]) -> Position:
    """The one position all ``worlds`` are (a determinization of a Pylos state is the state)."""
    positions = {world if isinstance(world, Position) else kernel.from_state(world) for world in worlds}
    if len(positions) != 1:
        raise ValueError(f"pylos hides nothing: its worlds are one position, not {len(positions)}")
    return positions.pop()
