"""Search inside the Imbrication kernel: the evaluator, determinized alpha-beta and
information-set MCTS, compiled, no Python per node or iteration.

The plain bot (``ludotheque.ai.pimc``) draws full states with ``state.determinize(player, rng)``
and searches each through the contract; :func:`pimc` searches the same *worlds* on the kernel's
integers (``kernel.py``) and meets Python only at the root and between worlds. A world is a full
state that the bot drew: the searches never see anything else, so they cannot read the real
hidden tiles. Every world holds the same position (only its line of tiles differs); each
distinct one is searched by iterative-deepening alpha-beta (principal variation search, a
transposition table, the table's move, captures, killers and history first) with
:func:`evaluate_tenths` at the leaves. With several distinct worlds every root move's value is
exact and the root move best on average over the worlds is chosen; with one (the tiles are all
known from round 2 on, but for the round-4 order until round 3 ends) it is plain alpha-beta,
and the whole budget goes deeper. :func:`ismcts` grows one tree over the worlds instead.
Budgets are nodes and iterations, never time, and every random choice (the root order that
breaks ties, the playouts) comes from the ``seed``: a search is a pure function of (seed, worlds).

**Values** are integers: the evaluator's balance in tenths of a cell (``evaluate.py``:
territory 10, pocket 5, piece 1), or ``±(WIN - plies)`` for a game won or lost ``plies`` moves
from the root. :func:`to_float` maps them on the plain search's scale (a heuristic ``b`` to
``0.9 · b / (|b| + 60)``, a result to ``±(1 - 0.0005 · plies)``), on which the worlds are
averaged, as the plain bot averages them.

**Depth** counts plies, as the plain search does (``depth_step`` plies an iteration); with
``whole_turns`` a placement whose action is pending costs nothing, so that depth counts turns
(a placement and its action, or a placement alone) and leaves always fall between turns.

>>> from ludotheque.engines.imbrication.rules import ImbricationGame
>>> state = ImbricationGame().new_state(seed=3)
>>> found = pimc([state], depth=1, nodes=10_000, seed=1)
>>> found.depth, found.nodes, kernel.move_text(found.move) in [str(m) for m in state.legal_moves()]
(1, 64, True)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import NamedTuple

import numpy as np

from ..compiled import (
    GOLDEN,
    INFINITY,
    PROVEN,
    WIN,
    Array,
    SearchResult,
    compiled,
    count,
    from_table,
    require,
    rng_below,
    shuffled,
    table_slot,
    to_table,
    weight_vector,
)
from . import kernel
from .evaluate import PIECE_WEIGHT, POCKET_WEIGHT, SCALE, TERRITORY_WEIGHT
from .kernel import (
    EDGE_BITS,
    FILE_A_BITS,
    FILE_H_BITS,
    MOVE_ROOM,
    NO_CELL,
    PATH_WIDTH,
    PLACED_SHIFT,
    RANK_8_BITS,
    SOURCE_MASK,
    Position,
    apply,
    finished,
    generate,
    mover_of,
    neighbour_mask,
    position_key,
    score,
    territory_mask,
)
from .rules import ImbricationState

# -- values: ``WIN - plies`` for the player to move winning ``plies`` from the root (a win sooner is
# better; ``compiled.WIN``); heuristic values are tenths of a cell, far below.
TENTHS = 10
"""The evaluator's unit: its weights are whole tenths (``evaluate.py``)."""
WEIGHTS: dict[str, int] = {
    "territory": round(TERRITORY_WEIGHT * TENTHS), "pocket": round(POCKET_WEIGHT * TENTHS),
    "piece": round(PIECE_WEIGHT * TENTHS),
}
"""The evaluator's weights in tenths, by name (``evaluate.py``'s, which are whole tenths)."""
_W_TERRITORY, _W_POCKET, _W_PIECE = range(len(WEIGHTS))
_SCALE = round(SCALE * TENTHS)
assert [w / TENTHS for w in WEIGHTS.values()] == [TERRITORY_WEIGHT, POCKET_WEIGHT, PIECE_WEIGHT]
assert _SCALE == SCALE * TENTHS
HEURISTIC_SCALE = 0.9
"""Evaluations sit below every proven result (the plain search's ``_HEURISTIC_SCALE``)."""
PER_PLY = 0.0005
"""A result found one ply further is worth this much less (the plain search's ``_PER_PLY``)."""
MAX_PLY = 64
"""Plies below the root a search has room for (the deepest iteration is capped to fit)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2

# ``stats`` slots of a search.
_NODES, _BUDGET, _ABORTED, _OVERFLOW, _SHIFT, _WHOLE_TURNS = range(6)
# Columns of the transposition table (one int64 row an entry).
_KEY, _VALUE, _INFO, _WORD, _CAPTURED = range(5)
# Rows of the history table: a move's kind, source and target (a placement: its cell).
_HISTORY = 3 * 64 * 64


# -- the evaluator ----------------------------------------------------------------------------------

@compiled
def material_tenths(own: int, other: int, weights: Array) -> int:
    """``evaluate._material`` in tenths with ``weights`` (:func:`weights_array`): territory
    cells, pockets (empty cells off the edge, not territory, with no ``other`` neighbour and
    three or four ``own`` ones), pieces."""
    claimed = territory_mask(own, other)
    west = (own << 1) & ~FILE_A_BITS  # bit c: an own piece on c's west
    east = (own >> 1) & ~FILE_H_BITS
    south = own << 8
    north = (own >> 8) & ~RANK_8_BITS
    three = (west & east & (south | north)) | (south & north & (west | east))
    pockets = ~(own | other | claimed) & ~EDGE_BITS & ~neighbour_mask(other) & three
    return int(weights[_W_TERRITORY] * count(claimed) + weights[_W_POCKET] * count(pockets)
               + weights[_W_PIECE] * count(own))


@compiled
def evaluate_tenths(light: int, dark: int, player: int, weights: Array) -> int:
    """``player``'s balance in tenths of a cell (``evaluate.evaluate`` before its squashing
    into [-1, 1], with the weights of :func:`weights_array`); the game must not be over."""
    own, other = (dark, light) if player else (light, dark)
    return material_tenths(own, other, weights) - material_tenths(other, own, weights)


def weights_array(weights: dict[str, int] | None = None) -> Array:
    """The evaluator's weights in tenths as the compiled code reads them: ``evaluate.py``'s
    (:data:`WEIGHTS`), any of them replaced by ``weights``.

    >>> weights_array({"pocket": 2}).tolist()
    [10, 2, 1]
    """
    return weight_vector("imbrication", tuple(WEIGHTS), WEIGHTS, weights, np.int64)


def to_float(value: int) -> float:
    """A search value on the plain search's scale: a game won ``p`` plies from the root
    ``1 - 0.0005 p`` (lost: its opposite), a balance ``b`` (tenths) ``0.9 b / (|b| + 60)``.

    >>> to_float(WIN - 3), to_float(0), to_float(60)
    (0.9985, 0.0, 0.45)
    """
    if value >= PROVEN:
        return 1.0 - PER_PLY * (WIN - value)
    if value <= -PROVEN:
        return -1.0 + PER_PLY * (WIN + value)
    return HEURISTIC_SCALE * value / (abs(value) + _SCALE)


def evaluate(state: ImbricationState | Position, player: int) -> float:
    """``evaluate.evaluate(state, player)`` computed by the compiled evaluator."""
    require()
    position = state if isinstance(state, Position) else kernel.from_state(state)
    if position.is_over:
        winners = position.result().winners
        return 0.0 if not winners else 1.0 if player in winners else -1.0
    light, dark, _ = position.words
    balance = int(evaluate_tenths(light, dark, player, weights_array()))
    return balance / (abs(balance) + _SCALE)


# -- alpha-beta -----------------------------------------------------------------------------------
@compiled
def _history_index(word: int) -> int:
    kind = word >> 6 & 3
    return (kind << 12) | ((word >> 14 & SOURCE_MASK) << 6) | (word & SOURCE_MASK)


@compiled
def _order(row: Array, scores: Array, n: int, first_word: int, first_captured: int,
           killers: Array, ply: int, history: Array) -> None:
    """Score the moves for ordering: the table's move, then the pieces a capture takes, the
    killers, the history of cut-offs."""
    for i in range(n):
        word, captured = row[i, 0], row[i, 1]
        if word == first_word and captured == first_captured:
            scores[i] = 1 << 50
            continue
        score_ = count(captured) << 40
        if word == killers[ply, 0, 0] and captured == killers[ply, 0, 1]:
            score_ += 1 << 38
        elif word == killers[ply, 1, 0] and captured == killers[ply, 1, 1]:
            score_ += 1 << 37
        scores[i] = score_ + min(history[_history_index(word)], (1 << 36) - 1)


@compiled
def _pick(row: Array, scores: Array, i: int, n: int) -> None:
    """Bring the best-scored move of ``i..n`` to ``i`` (a lazy selection sort)."""
    best = i
    for j in range(i + 1, n):
        if scores[j] > scores[best]:
            best = j
    if best != i:
        for column in range(2):
            row[i, column], row[best, column] = row[best, column], row[i, column]
        scores[i], scores[best] = scores[best], scores[i]


@compiled
def _terminal(light: int, dark: int, mover: int, ply: int) -> int:
    """The value of a finished game for ``mover``, ``ply`` plies from the root."""
    winner = score(light, dark)[2]
    if winner < 0:
        return 0
    return WIN - ply if winner == mover else ply - WIN


@compiled
def _child_depth(depth: int, clock: int, whole_turns: bool) -> int:
    """The depth left below a move that led to ``clock``: one ply less, or (whole turns) the
    same when the move was a placement whose action is now pending."""
    if whole_turns and clock >> PLACED_SHIFT != NO_CELL:
        return depth
    return depth - 1


@compiled
def _negamax(
    light: int, dark: int, clock: int, line: Array, depth: int, alpha: int, beta: int, ply: int,
    table: Array, moves: Array, scores: Array, killers: Array, history: Array, stats: Array,
    paths: Array, weights: Array,
) -> int:
    """The position's value for the player to move, within (alpha, beta); 0 once the budget ran
    out (``stats[_ABORTED]``: the caller abandons the iteration)."""
    mover = mover_of(clock)
    if depth <= 0:
        return evaluate_tenths(light, dark, mover, weights)
    key = position_key(light, dark, clock)
    slot = table_slot(key, stats[_SHIFT])
    first_word = first_captured = -1
    if table[slot, _KEY] == key:
        first_word, first_captured = table[slot, _WORD], table[slot, _CAPTURED]
        info = table[slot, _INFO]
        if info >> 2 >= depth:
            value = from_table(table[slot, _VALUE], ply)
            bound = info & 3
            if (bound == _EXACT or (bound == _LOWER and value >= beta)
                    or (bound == _UPPER and value <= alpha)):
                return value
    row = moves[ply]
    order = scores[ply]
    n = generate(light, dark, clock, line, row, paths)
    if n > row.shape[0]:
        stats[_OVERFLOW] = 1
        stats[_ABORTED] = 1
        return 0
    _order(row, order, n, first_word, first_captured, killers, ply, history)
    whole_turns = stats[_WHOLE_TURNS] != 0
    original_alpha = alpha
    best_value = -INFINITY
    best_word = best_captured = -1
    for i in range(n):
        _pick(row, order, i, n)
        word, captured = row[i, 0], row[i, 1]
        stats[_NODES] += 1
        if stats[_NODES] > stats[_BUDGET]:
            stats[_ABORTED] = 1
            return 0
        after_light, after_dark, after_clock, _ = apply(light, dark, clock, line, word, captured)
        if finished(after_light, after_dark, after_clock):
            value = _terminal(after_light, after_dark, mover, ply + 1)
        else:
            below = _child_depth(depth, after_clock, whole_turns)
            same = mover_of(after_clock) == mover
            if i == 0:
                if same:
                    value = _negamax(after_light, after_dark, after_clock, line, below, alpha, beta,
                                     ply + 1, table, moves, scores, killers, history, stats, paths,
                                     weights)
                else:
                    value = -_negamax(after_light, after_dark, after_clock, line, below, -beta,
                                      -alpha, ply + 1, table, moves, scores, killers, history, stats,
                                      paths, weights)
            else:  # principal variation search: prove the move no better, else search it again
                if same:
                    value = _negamax(after_light, after_dark, after_clock, line, below, alpha,
                                     alpha + 1, ply + 1, table, moves, scores, killers, history,
                                     stats, paths, weights)
                else:
                    value = -_negamax(after_light, after_dark, after_clock, line, below, -alpha - 1,
                                      -alpha, ply + 1, table, moves, scores, killers, history, stats,
                                      paths, weights)
                if alpha < value < beta and not stats[_ABORTED]:
                    if same:
                        value = _negamax(after_light, after_dark, after_clock, line, below, alpha,
                                         beta, ply + 1, table, moves, scores, killers, history,
                                         stats, paths, weights)
                    else:
                        value = -_negamax(after_light, after_dark, after_clock, line, below, -beta,
                                          -alpha, ply + 1, table, moves, scores, killers, history,
                                          stats, paths, weights)
        if stats[_ABORTED]:
            return 0
        if value > best_value:
            best_value, best_word, best_captured = value, word, captured
        alpha = max(alpha, value)
        if alpha >= beta:
            if word != killers[ply, 0, 0] or captured != killers[ply, 0, 1]:
                killers[ply, 1, 0], killers[ply, 1, 1] = killers[ply, 0, 0], killers[ply, 0, 1]
                killers[ply, 0, 0], killers[ply, 0, 1] = word, captured
            history[_history_index(word)] += depth * depth
            break
    bound = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
    if table[slot, _KEY] != key or table[slot, _INFO] >> 2 <= depth:
        table[slot, _KEY] = key
        table[slot, _VALUE] = to_table(best_value, ply)
        table[slot, _INFO] = depth << 2 | bound
        table[slot, _WORD] = best_word
        table[slot, _CAPTURED] = best_captured
    return best_value


@compiled
def root_iteration(
    light: int, dark: int, clock: int, line: Array, depth: int, root: Array, values: Array,
    is_exact: bool, table: Array, moves: Array, scores: Array, killers: Array, history: Array,
    stats: Array, paths: Array, weights: Array,
) -> bool:
    """One iteration of iterative deepening over the root moves ``root`` (rows of word and
    captured mask): each one's value in ``values``, exact for every move with ``is_exact`` (a
    full window for each), else exact for the best and an upper bound for the others (a null
    window first); false when the node budget ran out or a position needed more room, the
    iteration then abandoned."""
    # Typed int64, not as literals: a recursive function called with other argument types than
    # its own gets a second compilation, which Numba's cache cannot link (numba issue #6061).
    constants = np.array([INFINITY, 1], dtype=np.int64)
    infinity, first_ply = constants[0], constants[1]
    mover = mover_of(clock)
    whole_turns = stats[_WHOLE_TURNS] != 0
    best_value = -infinity
    best = 0
    for i in range(root.shape[0]):
        word, captured = root[i, 0], root[i, 1]
        stats[_NODES] += 1
        if stats[_NODES] > stats[_BUDGET]:
            stats[_ABORTED] = 1
            return False
        after_light, after_dark, after_clock, _ = apply(light, dark, clock, line, word, captured)
        if finished(after_light, after_dark, after_clock):
            value = _terminal(after_light, after_dark, mover, first_ply)
        else:
            below = _child_depth(depth, after_clock, whole_turns)
            same = mover_of(after_clock) == mover
            # A null window above the best so far, then (if it proves better) the full one.
            low = -infinity if is_exact or i == 0 else best_value
            high = infinity if is_exact or i == 0 else best_value + 1
            while True:
                if same:
                    value = _negamax(after_light, after_dark, after_clock, line, below, low, high,
                                     first_ply, table, moves, scores, killers, history, stats, paths,
                                     weights)
                else:
                    value = -_negamax(after_light, after_dark, after_clock, line, below, -high,
                                      -low, first_ply, table, moves, scores, killers, history,
                                      stats, paths, weights)
                if stats[_ABORTED] or value < high or high == infinity:
                    break
                low, high = best_value, infinity
        if stats[_ABORTED]:
            return False
        values[i] = value
        if value > best_value:
            best_value, best = value, i
    key = position_key(light, dark, clock)
    slot = table_slot(key, stats[_SHIFT])
    table[slot, _KEY] = key
    table[slot, _VALUE] = best_value
    table[slot, _INFO] = depth << 2 | _EXACT
    table[slot, _WORD] = root[best, 0]
    table[slot, _CAPTURED] = root[best, 1]
    return True


# -- Python side: the worlds, the root, the average ----------------------------------------------------
class _World:
    """One distinct world: its position and line of tiles, and its root moves (words, captured
    masks and codes, in canonical order)."""

    def __init__(self, position: Position) -> None:
        self.position = position
        self.words = position.words
        self.line = position.line
        moves, paths, n = kernel.generated(position)
        self.moves = np.ascontiguousarray(moves[:n])
        self.codes = kernel.codes_of(moves, paths, n)


def _worlds(worlds: Sequence[ImbricationState | Position]) -> list[_World]:
    """The distinct worlds (by their line of tiles), checked to hold one position."""
    if not worlds:
        raise ValueError("imbrication kernel: pimc needs at least one world")
    positions = [w if isinstance(w, Position) else kernel.from_state(w) for w in worlds]
    first = positions[0]
    if first.is_over:
        raise ValueError("imbrication kernel: no move to search, the game is over")
    distinct: dict[bytes, _World] = {}
    for position in positions:
        if position.words != first.words:
            raise ValueError("imbrication kernel: the worlds do not hold the same position")
        key = position.line.tobytes()
        if key not in distinct:
            distinct[key] = _World(position)
    found = list(distinct.values())
    for world in found[1:]:
        if world.codes != found[0].codes:
            raise ValueError("imbrication kernel: the worlds' legal moves differ at the root")
    return found



class _Buffers:
    """What the searches of one decision reuse from world to world."""

    def __init__(self, plies: int, nodes: int, room: int, table_bits: int | None) -> None:
        if table_bits is None:  # room for the positions a budget can store, within 2**20 entries
            table_bits = max(10, min(20, (2 * nodes).bit_length()))
        self.table = np.empty((1 << table_bits, 5), dtype=np.int64)
        self.shift = 64 - table_bits
        plies += 2
        self.moves = np.empty((plies, room, 2), dtype=np.int64)
        self.scores = np.empty((plies, room), dtype=np.int64)
        self.killers = np.full((plies, 2, 2), -1, dtype=np.int64)
        self.history = np.zeros(_HISTORY, dtype=np.int64)
        self.paths = np.empty((0, PATH_WIDTH), dtype=np.int8)

    def clear(self) -> None:
        self.table[:, _KEY] = -1
        self.killers[:] = -1
        self.history[:] = 0


class _Searched(NamedTuple):
    """One world's search: the value of every root move (canonical order; exact, or exact for
    the best and bounds for the others), the move it prefers (an index: the first of equals in
    the seeded root order), the deepest iteration completed, the nodes visited, and whether a
    position needed more room than the buffers have (the search is then to be run again)."""

    values: Array
    best: int
    depth: int
    nodes: int
    overflow: bool


def _search_world(world: _World, order: Array, depth: int, depth_step: int, nodes: int,
                  whole_turns: bool, is_exact: bool, weights: Array, buffers: _Buffers,
                  progress: Callable[[float], None] | None) -> _Searched:
    """Iterative deepening on one world, the root moves first in ``order`` (indexes into the
    canonical order), then best first from each iteration; ``progress`` hears after each
    iteration how much of the budget (or of the depth) is spent."""
    buffers.clear()
    light, dark, clock = world.words
    stats = np.array([0, nodes, 0, 0, buffers.shift, int(whole_turns)], dtype=np.int64)
    ranked = order.copy()
    values = np.zeros(len(ranked), dtype=np.int64)
    completed = 0
    for iteration in range(depth_step, depth + 1, depth_step):
        root = np.ascontiguousarray(world.moves[ranked])
        stats[_ABORTED] = 0
        done = root_iteration(light, dark, clock, world.line, iteration, root, values, is_exact,
                              buffers.table, buffers.moves, buffers.scores, buffers.killers,
                              buffers.history, stats, buffers.paths, weights)
        if stats[_OVERFLOW]:
            return _Searched(values, 0, completed, int(stats[_NODES]), True)
        if not done:
            stats[_NODES] -= 1  # the position that overran the budget was not visited
            break
        completed = iteration
        if progress is not None:
            progress(max(iteration / depth, int(stats[_NODES]) / nodes))
        resorted = np.argsort(-values, kind="stable")
        ranked, values = ranked[resorted], values[resorted]
        if abs(int(values[0] if not is_exact else np.abs(values).min())) >= PROVEN:
            break  # proven: deeper search cannot change the values it needs
    if not completed:  # not even one iteration within the budget: every root move, one ply deep
        stats[_BUDGET] = stats[_NODES] + len(ranked) + 1
        stats[_ABORTED] = 0
        root_iteration(light, dark, clock, world.line, 1, np.ascontiguousarray(world.moves[ranked]),
                       values, is_exact, buffers.table, buffers.moves, buffers.scores,
                       buffers.killers, buffers.history, stats, buffers.paths, weights)
        resorted = np.argsort(-values, kind="stable")
        ranked, values = ranked[resorted], values[resorted]
        completed = 1
    canonical = np.empty_like(values)
    canonical[ranked] = values
    return _Searched(canonical, int(ranked[0]), completed, int(stats[_NODES]), False)


def _part(progress: Callable[[float], None] | None, index: int,
          parts: int) -> Callable[[float], None] | None:
    """``progress`` for part ``index`` of ``parts`` equal parts of the work, never going back."""
    if progress is None:
        return None
    told = progress

    def part(fraction: float) -> None:
        told((index + min(1.0, fraction)) / parts)

    return part


def pimc(
    worlds: Sequence[ImbricationState | Position], *, depth: int = 4, nodes: int = 1_000_000,
    seed: int = 0, progress: Callable[[float], None] | None = None, depth_step: int = 1,
    whole_turns: bool = False, exact_root: bool | None = None, weights: dict[str, int] | None = None,
    samples: int | None = None, table_bits: int | None = None,
) -> SearchResult:
    """Determinized alpha-beta over ``worlds`` (full states the bot drew with
    ``state.determinize``, all of one position): each distinct world searched by iterative
    deepening, ``depth_step`` plies an iteration up to ``depth`` (``whole_turns``: turns, see
    the module's docstring), within an equal share of ``nodes`` positions (every position reached
    counts; the deepest iteration that overruns is abandoned; when not even the first fits, each
    root move is searched one ply deep all the same).

    With several distinct worlds (or ``exact_root``) every root move's value is exact in each,
    and the move chosen is the best on average over the worlds (each counted as many times as
    drawn), ties to the seeded root order; ``scores`` are the averages. With one (and
    ``exact_root`` not asked) it is plain alpha-beta: the best move's value is exact, the
    others' ``scores`` are bounds. ``depth`` is the depth every world reached. ``weights``
    replace some of the evaluator's (:func:`weights_array`, in tenths). ``samples`` is the
    bot's (how many worlds it draws): when given it must be ``len(worlds)``.

    Raises ``ValueError`` once the game is over, when the worlds hold different positions or
    legal moves, ``RuntimeError`` without Numba.
    """
    require()
    if samples is not None and samples != len(worlds):
        raise ValueError(f"imbrication kernel: {len(worlds)} worlds given for {samples} samples")
    if depth < 1 or depth_step < 1:
        raise ValueError(f"imbrication kernel: depth and depth_step must be at least 1, not "
                         f"{depth!r}, {depth_step!r}")
    depth = min(depth, (MAX_PLY - 2) // 2 if whole_turns else MAX_PLY - 2)
    plies = 2 * depth if whole_turns else depth  # a turn is two plies at most
    chosen = weights_array(weights)
    distinct = _worlds(worlds)
    is_exact = len(distinct) > 1 if exact_root is None else exact_root
    lines = [(w if isinstance(w, Position) else kernel.from_state(w)).line.tobytes() for w in worlds]
    codes = distinct[0].codes
    order = shuffled(range(len(codes)), seed, np.int64)
    share = max(1, nodes // len(distinct))
    room = MOVE_ROOM
    buffers = _Buffers(plies, share, room, table_bits)
    total = np.zeros(len(codes), dtype=np.float64)
    reached = depth
    visited = 0
    searched = None
    for done, world in enumerate(distinct, start=1):
        while True:
            searched = _search_world(world, order, depth, depth_step, share, whole_turns, is_exact,
                                     chosen, buffers, _part(progress, done - 1, len(distinct)))
            if not searched.overflow:
                break
            room *= 4
            buffers = _Buffers(plies, share, room, table_bits)
        visited += searched.nodes
        reached = min(reached, searched.depth)
        weight = lines.count(world.line.tobytes())
        total += weight * np.array([to_float(int(v)) for v in searched.values.tolist()])
        if progress is not None:
            progress(done / len(distinct))
    average = total / len(worlds)
    if len(distinct) == 1 and searched is not None:
        best = searched.best
    else:  # the first of equals in the root order
        best = max(order.tolist(), key=lambda k: average[k])
    line = _principal_line(distinct[-1], codes[best], plies, buffers)
    return SearchResult(codes[best], max(-1.0, min(1.0, float(average[best]))), reached, visited,
                        np.array(codes, dtype=object), average, line)


def _principal_line(world: _World, best: int, plies: int, buffers: _Buffers) -> tuple[int, ...]:
    """The move chosen, then the table's moves after it in ``world`` (the last searched, whose
    table ``buffers`` still hold), at most ``plies`` moves."""
    line = [best]
    position = kernel.play(world.position, best)
    while not position.is_over and len(line) < plies:
        key = int(position_key(*position.words))
        entry = buffers.table[table_slot(key, buffers.shift)]
        if entry[_KEY] != key:
            break
        moves, paths, n = kernel.generated(position)
        found = np.flatnonzero((moves[:n, 0] == entry[_WORD]) & (moves[:n, 1] == entry[_CAPTURED]))
        if not len(found):
            break
        line.append(kernel.codes_of(moves, paths, n)[int(found[0])])
        position = kernel.after_word(position, int(entry[_WORD]), int(entry[_CAPTURED]))
    return tuple(line)


# -- information-set MCTS ---------------------------------------------------------------------------
# A node of the tree (one tree for every world: single-observer ISMCTS, Cowling, Powley and
# Whitehouse 2012) is reached by a sequence of moves; its children are found by (node, move) in an
# open-addressing table, as a world's legal moves there may differ from another's (the tile
# revealed after a placement). A child keeps the move that leads to it, who played it, its visits,
# its availability (how often it was legal when its parent was visited) and the sum of the values
# backed up through it for that player.
_CHILD_PARENT, _CHILD_WORD, _CHILD_CAPTURED, _CHILD_NODE = range(4)


@compiled
def _child_slot(children: Array, parent: int, word: int, captured: int) -> int:
    """The slot of (parent, move) in ``children``: where it is, or the empty slot to put it in."""
    mask = int(children.shape[0]) - 1
    key = (np.uint64(parent) * GOLDEN) ^ np.uint64(word)
    key = (key * GOLDEN) ^ np.uint64(captured)
    slot = int((key * GOLDEN) >> np.uint64(32)) & mask
    while children[slot, _CHILD_NODE] >= 0:
        if (children[slot, _CHILD_PARENT] == parent and children[slot, _CHILD_WORD] == word
                and children[slot, _CHILD_CAPTURED] == captured):
            return slot
        slot = (slot + 1) & mask
    return slot



@compiled
def ismcts_iterations(
    light: int, dark: int, clock: int, lines: Array, first: int, iterations: int,
    exploration: float, use_evaluator: bool, keeps_territory: bool, weights: Array, rng: Array,
    children: Array, node_mover: Array,
    node_visits: Array, node_available: Array, node_totals: Array, sizes: Array, buffer: Array,
    paths: Array, path: Array, moves: Array, trail: Array,
) -> int:
    """Run iterations ``first .. first + iterations - 1``, iteration ``i`` in the world whose line
    is ``lines[i % len(lines)]``; return how many ran (fewer when a position needed more room than
    ``buffer`` or ``moves`` have: grow them and go on; the tree is then as before the iteration,
    but for the availability counts it raised). An iteration walks down by UCB1 on
    availability (``exploration`` for values in [-1, 1]) among the moves legal in its world,
    adds one child for an untried one drawn at random, plays a uniformly random game from there
    (or, with ``use_evaluator``, scores the position with :func:`evaluate_tenths`) and backs up
    +1 for the winner, -1 for the loser and 0 for a draw (or the evaluator's value)."""
    worlds = lines.shape[0]
    for done in range(iterations):
        line = lines[(first + done) % worlds]
        at_light, at_dark, at_clock = light, dark, clock
        node = 0
        depth = 0
        path[0] = 0
        expanded = False
        added = -1
        while not expanded and not finished(at_light, at_dark, at_clock):
            n = generate(at_light, at_dark, at_clock, line, buffer, paths)
            if n > buffer.shape[0]:
                return done
            untried = 0
            for j in range(n):
                slot = _child_slot(children, node, buffer[j, 0], buffer[j, 1])
                if children[slot, _CHILD_NODE] < 0:
                    untried += 1
                else:
                    node_available[children[slot, _CHILD_NODE]] += 1
            if untried > 0:
                pick = rng_below(rng, untried)
                chosen = -1
                for j in range(n):
                    slot = _child_slot(children, node, buffer[j, 0], buffer[j, 1])
                    if children[slot, _CHILD_NODE] < 0:
                        if pick == 0:
                            chosen = j
                            break
                        pick -= 1
                child = sizes[0]
                sizes[0] = child + 1
                children[slot, _CHILD_PARENT] = node
                children[slot, _CHILD_WORD] = buffer[chosen, 0]
                children[slot, _CHILD_CAPTURED] = buffer[chosen, 1]
                children[slot, _CHILD_NODE] = child
                added = slot
                node_mover[child] = mover_of(at_clock)
                node_visits[child] = 0
                node_available[child] = 1
                node_totals[child] = 0.0
                expanded = True
            else:
                best_score = -np.inf
                chosen = 0
                child = -1
                for j in range(n):
                    candidate = children[_child_slot(children, node, buffer[j, 0], buffer[j, 1]),
                                         _CHILD_NODE]
                    visits = node_visits[candidate]
                    score_ = (node_totals[candidate] / visits
                              + exploration * np.sqrt(np.log(node_available[candidate]) / visits))
                    if score_ > best_score:
                        best_score, chosen, child = score_, j, candidate
            at_light, at_dark, at_clock, _ = apply(at_light, at_dark, at_clock, line,
                                                   buffer[chosen, 0], buffer[chosen, 1])
            depth += 1
            path[depth] = child
            node = child
        # The value of the position reached for player 0 (seat 1's is its opposite).
        if finished(at_light, at_dark, at_clock):
            winner = score(at_light, at_dark)[2]
            value = 0.0 if winner < 0 else 1.0 if winner == 0 else -1.0
        elif use_evaluator:
            balance = evaluate_tenths(at_light, at_dark, 0, weights)
            value = balance / (abs(balance) + _SCALE)
        else:
            plies, end_light, end_dark, _ = kernel.playout(at_light, at_dark, at_clock, line, moves,
                                                           paths, trail, rng, keeps_territory)
            if plies < 0:  # the child just added goes (the last added: no probe passed it)
                if added >= 0:
                    children[added, :] = -1
                    sizes[0] -= 1
                return done
            winner = score(end_light, end_dark)[2]
            value = 0.0 if winner < 0 else 1.0 if winner == 0 else -1.0
        node_visits[0] += 1
        for k in range(1, depth + 1):
            visited = path[k]
            node_visits[visited] += 1
            node_totals[visited] += value if node_mover[visited] == 0 else -value
    return iterations


def ismcts(
    worlds: Sequence[ImbricationState | Position], *, iterations: int = 10_000,
    exploration: float = 1.0, seed: int = 0, progress: Callable[[float], None] | None = None,
    use_evaluator: bool = False, keeps_territory: bool = False, weights: dict[str, int] | None = None,
    samples: int | None = None,
) -> SearchResult:
    """Single-observer information-set MCTS over ``worlds`` (full states the bot drew with
    ``state.determinize``, all of one position): one tree, iteration ``i`` played in
    ``worlds[i % len(worlds)]``, uniformly random playouts to the end (``use_evaluator``: the
    evaluator's value of the position reached instead, with ``weights`` as :func:`pimc`'s;
    ``keeps_territory``: playouts that never fill their own territory, see ``kernel.playout``).
    The answer is the most visited root move,
    ties to the better mean, then to canonical order; ``scores`` are the root moves' visits,
    ``value`` the chosen move's mean result for the player to move, ``nodes`` the iterations run.
    ``samples`` is the bot's (how many worlds it draws): when given it must be ``len(worlds)``.

    Raises ``ValueError`` once the game is over, when the worlds hold different positions or
    legal moves, or for fewer than one iteration; ``RuntimeError`` without Numba."""
    require()
    if samples is not None and samples != len(worlds):
        raise ValueError(f"imbrication kernel: {len(worlds)} worlds given for {samples} samples")
    if iterations < 1:
        raise ValueError(f"imbrication kernel: MCTS needs at least one iteration, not {iterations!r}")
    chosen = weights_array(weights)
    distinct = _worlds(worlds)
    by_line = {world.line.tobytes(): world.line for world in distinct}
    lines = np.array([by_line[(w if isinstance(w, Position) else kernel.from_state(w)).line.tobytes()]
                      for w in worlds], dtype=np.int64)
    root = distinct[0]
    light, dark, clock = root.words
    capacity = iterations + 2
    children = np.full((1 << max(4, (2 * capacity).bit_length()), 4), -1, dtype=np.int64)
    node_mover = np.full(capacity, -1, dtype=np.int8)
    node_visits = np.zeros(capacity, dtype=np.int64)
    node_available = np.zeros(capacity, dtype=np.int64)
    node_totals = np.zeros(capacity, dtype=np.float64)
    sizes = np.array([1], dtype=np.int64)
    room = MOVE_ROOM
    buffer = np.empty((room, 2), dtype=np.int64)
    moves = np.empty((room, 2), dtype=np.int64)
    paths = np.empty((0, PATH_WIDTH), dtype=np.int8)
    path = np.empty(kernel.MAX_PLIES + 1, dtype=np.int64)
    trail = np.empty(kernel.MAX_PLIES, dtype=np.int64)
    rng = np.array([seed % 2**64], dtype=np.uint64)
    done = 0
    chunk = max(1, iterations // 20) if progress is not None else iterations
    while done < iterations:
        ran = int(ismcts_iterations(light, dark, clock, lines, done, min(chunk, iterations - done),
                                    exploration, use_evaluator, keeps_territory, chosen, rng,
                                    children, node_mover,
                                    node_visits, node_available, node_totals, sizes, buffer, paths,
                                    path, moves, trail))
        done += ran
        if ran < min(chunk, iterations - done + ran):  # a position needed more room
            room *= 4
            buffer = np.empty((room, 2), dtype=np.int64)
            moves = np.empty((room, 2), dtype=np.int64)
        if progress is not None:
            progress(done / iterations)
    codes = root.codes
    visits = np.zeros(len(codes), dtype=np.float64)
    means = np.zeros(len(codes), dtype=np.float64)
    counted = set()  # two chains with the same start, end and captures lead to one child
    for k in range(len(codes)):
        node = int(children[_child_slot(children, 0, root.moves[k, 0], root.moves[k, 1]), _CHILD_NODE])
        if node >= 0 and node not in counted:
            counted.add(node)
            visits[k] = node_visits[node]
            means[k] = node_totals[node] / max(1, int(node_visits[node]))
    best = min(range(len(codes)), key=lambda k: (-visits[k], -means[k], k))
    value = float(means[best]) if visits[best] else 0.0
    return SearchResult(codes[best], max(-1.0, min(1.0, value)), 0, done,
                        np.array(codes, dtype=object), visits, (codes[best],))
