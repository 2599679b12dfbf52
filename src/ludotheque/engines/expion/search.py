"""Search inside the Ex*Pion kernel: the evaluator, alpha-beta and UCT, compiled, no Python per node.

The plain bots (``ludotheque.ai``) search through the contract; these search the kernel's position
arrays (``kernel.py``) and meet Python only at the root (once per iteration of deepening):
:func:`alphabeta` and :func:`uct` take a plain state or a kernel ``Position`` and answer a
:class:`~ludotheque.engines.compiled.SearchResult` (the kernel's move codes). Budgets are nodes and
iterations, never time, and every random choice comes from the ``seed``: a search is a pure
function of (seed, position).

**Sides.** Ex*Pion is always two teams (North+South against East+West), whatever the player
count: alpha-beta negates a value only when the turn passes to the other team (a camp that
passes may give one team two moves in a row), and the evaluator scores the team to move. UCT
keeps one value per player, a team's players winning together.

**Repetition draws depend on the path**, so the transposition table keys a position with whether
it occurred before, and an entry whose value a repetition draw inside its subtree decided is not
stored; near the 200-move limit the quiet-move count is part of the key too.

>>> from ludotheque.engines.expion.rules import ExpionGame
>>> rows = [" NNNNNNN ", "W.......E", "W.......E", "W.......E", "W.....SX.",
...         "W.......E", "W.......E", "W.......E", " SSSSS S "]
>>> state = ExpionGame(players=2).position(rows, camp="S")
>>> found = alphabeta(state, depth=3, seed=1)
>>> kernel.move_text(found.move), found.value   # g5-h5 pushes the EX*PION into the East camp
('g5-h5', 1.0)
>>> uct(state, iterations=50, seed=1).nodes
50
"""

from __future__ import annotations

import random
from collections.abc import Callable

import numpy as np

from ..compiled import (
    INFINITY,
    PROVEN,
    WIN,
    Array,
    SearchResult,
    compiled,
    deepen,
    from_table,
    pick,
    require,
    seen_pop,
    seen_push,
    shuffled,
    table_slot,
    to_table,
    tree_add_child,
    tree_answer,
    tree_fill,
    ucb1_child,
    weight_vector,
)
from . import evaluate as plain_evaluate
from . import kernel
from .board import SIZE
from .kernel import (
    CAMP_OF_CELL,
    CELL_BITS,
    DIRECTION_OF_OFFSET,
    EXPION,
    EXPION_IN_CAMP,
    KEY,
    MARBLES,
    MAX_MOVES,
    NEIGHBOUR_TABLE,
    NO_MARBLES,
    ONGOING,
    POSITION_SIZE,
    QUIET,
    REPETITION,
    SOURCE_SHIFT,
    TEAM_CAMP_TABLE,
    TURN,
    Position,
    generate,
    player_to_move,
    playout,
    position_array,
    step,
    team_to_move,
    winners,
)
from .rules import QUIET_LIMIT, REPETITION_LIMIT, ExpionState

# -- values: ``WIN - plies`` for the team to move winning ``plies`` from the root (a win sooner is
# better; ``compiled.WIN``); heuristic values are thousandths of the evaluator's [-1, 1], far below.
MILLI = 1000.0
MAX_PLY = 96
"""Plies below the root a search has room for (the deepest iteration is capped to fit)."""
_EXACT, _LOWER, _UPPER = 0, 1, 2
_SEEN_BEFORE = 0x2545_F491_4F6C_DD1D
"""XOR-ed into a table key when the position occurred before (on the path or in the game)."""
_QUIET_SALT = 0x1F83_D9AB_FB41_BD6B
"""Times the quiet-move count, XOR-ed into a table key near the 200-move draw."""
_QUIET_NEAR = QUIET_LIMIT - MAX_PLY
_HISTORY = 1 << 14
assert (POSITION_SIZE, _HISTORY) > (0, 81 << SOURCE_SHIFT)

# ``stats`` slots of an alpha-beta search.
_NODES, _BUDGET, _ABORTED, _REPETITIONS, _TABLE_SHIFT, _MARGIN = range(6)

# The evaluator's weights (``evaluate.py``'s by default), passed to the compiled code as an array
# (a global would be frozen into Numba's cache).
WEIGHT_NAMES = ("material", "expion", "threat")
(_MATERIAL, _EXPION, _THREAT) = range(len(WEIGHT_NAMES))
WEIGHTS: dict[str, float] = {
    "material": plain_evaluate.MATERIAL_WEIGHT, "expion": plain_evaluate.EXPION_WEIGHT,
    "threat": plain_evaluate.THREAT_VALUE,
}


def weights_array(weights: dict[str, float] | None = None) -> Array:
    """The evaluator's weights as the compiled code reads them (:data:`WEIGHTS` by default);
    raises ``ValueError`` on an unknown name."""
    return weight_vector("expion", WEIGHT_NAMES, WEIGHTS, weights)


# -- the evaluator ----------------------------------------------------------------------------------
@compiled
def _winning_push(expion: int, move: int) -> bool:
    """Whether ``move`` (legal) pushes the EX*PION on ``expion`` into a camp (always an enemy's)."""
    if move & CELL_BITS != expion:
        return False
    beyond = NEIGHBOUR_TABLE[expion, DIRECTION_OF_OFFSET[expion - (move >> SOURCE_SHIFT) + SIZE]]
    return bool(beyond >= 0 and CAMP_OF_CELL[beyond] >= 0)


@compiled
def _winning_pushes(pos: Array, moves: Array, n: int) -> int:
    expion = pos[EXPION]
    found = 0
    for i in range(n):
        if _winning_push(expion, int(moves[i])):
            found += 1
    return found


@compiled
def evaluate_value(pos: Array, moves: Array, n: int, weights: Array) -> float:
    """The position's value for the team to move in [-1, 1] (``evaluate.evaluate`` with the
    default weights), the game not over; ``moves[:n]`` are the legal moves of the player to move."""
    team = team_to_move(pos)
    if weights[_THREAT] != 0.0 and _winning_pushes(pos, moves, n):
        return float(weights[_THREAT])
    own = pos[MARBLES + TEAM_CAMP_TABLE[team, 0]] + pos[MARBLES + TEAM_CAMP_TABLE[team, 1]]
    enemy = pos[MARBLES + TEAM_CAMP_TABLE[1 - team, 0]] + pos[MARBLES + TEAM_CAMP_TABLE[1 - team, 1]]
    value = weights[_MATERIAL] * (own - enemy) / 14.0
    rank, file = divmod(pos[EXPION], SIZE)
    to_east_west = min(file, SIZE - 1 - file)
    to_north_south = min(rank, SIZE - 1 - rank)
    # North+South (team 0) push toward the East and West camps, East+West toward North and South.
    if team == 0:
        value += weights[_EXPION] * (to_north_south - to_east_west) / 3.0
    else:
        value += weights[_EXPION] * (to_east_west - to_north_south) / 3.0
    return float(max(-1.0, min(1.0, value)))


@compiled
def _evaluate(pos: Array, moves: Array, n: int, weights: Array) -> int:
    return round(evaluate_value(pos, moves, n, weights) * MILLI)


def evaluate(state: ExpionState | Position, weights: dict[str, float] | None = None) -> float:
    """The compiled evaluator's value of a position that is not over, for the team to move
    (``evaluate.evaluate(state, state.to_move)`` with the default weights)."""
    require()
    position = state if isinstance(state, Position) else kernel.from_state(state)
    if position.is_over:
        raise ValueError("expion kernel: a finished game has its result, not a value")
    pos = position_array(position)
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    n = generate(pos, position.players, moves)
    return float(evaluate_value(pos, moves, n, weights_array(weights)))


# -- alpha-beta -----------------------------------------------------------------------------------
@compiled
def _table_key(pos: Array, seen_before: bool) -> int:
    key = pos[KEY]
    if seen_before:
        key ^= _SEEN_BEFORE
    if pos[QUIET] >= _QUIET_NEAR:
        key ^= (pos[QUIET] * _QUIET_SALT) & 0x7FFF_FFFF_FFFF_FFFF
    return int(key)


@compiled
def _order(pos: Array, moves: Array, scores: Array, n: int, first: int, killers: Array, ply: int,
           history: Array) -> None:
    """Score the moves for ordering: the table's move, winning pushes, killers, other pushes,
    then the history of cut-offs."""
    expion = pos[EXPION]
    for i in range(n):
        move = int(moves[i])
        if move == first:
            score = 1 << 40
        elif _winning_push(expion, move):
            score = 1 << 39
        elif move == killers[ply, 0]:
            score = 1 << 38
        elif move == killers[ply, 1]:
            score = (1 << 38) - 1
        elif move & CELL_BITS == expion:
            score = 1 << 37
        else:
            score = history[move]
        scores[i] = score


@compiled
def _negamax(
    stack: Array, moves: Array, counts_of: Array, ply: int, depth: int, alpha: int, beta: int,
    players: int, seen_before: bool, keys: Array, counts: Array, table_keys: Array,
    table_values: Array, table_depths: Array, table_bounds: Array, table_moves: Array,
    scores: Array, killers: Array, history: Array, stats: Array, root_values: Array,
    weights: Array,
) -> int:
    """The value of ``stack[ply]`` (its legal moves in ``moves[ply, :counts_of[ply]]``) for the
    team to move, within (alpha, beta); 0 once the budget ran out (``stats[_ABORTED]``: the caller
    abandons the iteration). At the root (``ply`` 0) the moves are searched in the order given,
    each one's value written to ``root_values`` (exact for the best, else a bound; exact too for
    those within ``stats[_MARGIN]`` of the best so far). Called from Python only: with Numba
    0.68, compiled code calling a self-recursive compiled function breaks once loaded from the
    disk cache."""
    here = stack[ply]
    n = counts_of[ply]
    if depth <= 0:
        return _evaluate(here, moves[ply], n, weights)
    key = _table_key(here, seen_before)
    slot = table_slot(key, stats[_TABLE_SHIFT])
    first = -1
    if ply > 0 and table_keys[slot] == key:
        first = int(table_moves[slot])
        if table_depths[slot] >= depth:
            value = from_table(int(table_values[slot]), ply)
            bound = table_bounds[slot]
            if bound == _EXACT or (bound == _LOWER and value >= beta) or (bound == _UPPER and value <= alpha):
                return value
    row = moves[ply]
    order = scores[ply]
    if ply > 0:
        _order(here, row, order, n, first, killers, ply, history)
    team = team_to_move(here)
    original_alpha = alpha
    repetitions = stats[_REPETITIONS]
    best_value = -INFINITY
    best_move = -1
    child = stack[ply + 1]
    for i in range(n):
        move = int(row[i]) if ply == 0 else pick(row, order, i, n)
        stats[_NODES] += 1
        if stats[_NODES] > stats[_BUDGET]:
            stats[_ABORTED] = 1
            return 0
        child[:] = here
        ended, following = step(child, players, move, moves[ply + 1])
        counts_of[ply + 1] = following
        if ended in (EXPION_IN_CAMP, NO_MARBLES):
            value = WIN - ply - 1  # the mover's team wins
        elif ended != ONGOING:
            value = 0  # 200 quiet moves, or nobody can move
        else:
            seen = seen_push(keys, counts, child[KEY])
            if counts[seen] >= REPETITION_LIMIT:
                stats[_REPETITIONS] += 1
                value = 0
            else:
                same = team_to_move(child) == team
                # Principal variation search: a null window proves a later move no better (at
                # the root: no better than the best less the margin), else it is searched again.
                low = alpha
                if ply == 0 and i > 0:
                    low = alpha - stats[_MARGIN]
                high = beta if i == 0 else low + 1
                while True:
                    if same:
                        value = _negamax(stack, moves, counts_of, ply + 1, depth - 1, low, high,
                                         players, counts[seen] > 1, keys, counts, table_keys,
                                         table_values, table_depths, table_bounds, table_moves,
                                         scores, killers, history, stats, root_values, weights)
                    else:
                        value = -_negamax(stack, moves, counts_of, ply + 1, depth - 1, -high, -low,
                                          players, counts[seen] > 1, keys, counts, table_keys,
                                          table_values, table_depths, table_bounds, table_moves,
                                          scores, killers, history, stats, root_values, weights)
                    if high == beta or stats[_ABORTED] or value <= low or value >= beta:
                        break
                    high = beta
            seen_pop(keys, counts, seen)
        if stats[_ABORTED]:
            return 0
        if ply == 0:
            root_values[i] = value
        if value > best_value:
            best_value, best_move = value, move
        alpha = max(alpha, value)
        if alpha >= beta:
            if move != killers[ply, 0]:
                killers[ply, 1] = killers[ply, 0]
                killers[ply, 0] = move
            history[move] += depth * depth
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
def _table_move(pos: Array, seen_before: bool, table_keys: Array, table_moves: Array,
                shift: int) -> int:
    key = _table_key(pos, seen_before)
    slot = table_slot(key, shift)
    return int(table_moves[slot]) if table_keys[slot] == key else -1



def squash(value: int) -> float:
    """A search value as a bot's value in [-1, 1]: a proven result ±1, else 0.9 × the evaluator's
    (as the plain alpha-beta scales it), kept below every proven result."""
    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return -1.0
    return 0.9 * max(-1.0, min(1.0, value / MILLI))


class _Search:
    """The arrays of one alpha-beta decision (its table lives and dies with it)."""

    def __init__(self, position: Position, nodes: int, table_bits: int, margin: int,
                 weights: Array) -> None:
        self.position = position
        self.players = position.players
        size = 1 << table_bits
        self.shift = 64 - table_bits
        self.table = (
            np.full(size, -1, dtype=np.int64), np.zeros(size, dtype=np.int64),
            np.zeros(size, dtype=np.int16), np.zeros(size, dtype=np.int8),
            np.full(size, -1, dtype=np.int32),
        )
        self.keys, self.counts = kernel.seen_table(position.seen, spare=MAX_PLY + 1)
        self.stack = np.empty((MAX_PLY + 2, POSITION_SIZE), dtype=np.int64)
        self.stack[0] = position_array(position)
        self.moves = np.empty((MAX_PLY + 2, MAX_MOVES), dtype=np.int32)
        self.counts_of = np.zeros(MAX_PLY + 2, dtype=np.int64)
        self.scores = np.empty((MAX_PLY + 2, MAX_MOVES), dtype=np.int64)
        self.killers = np.full((MAX_PLY + 2, 2), -1, dtype=np.int32)
        self.history = np.zeros(_HISTORY, dtype=np.int64)
        self.stats = np.array([0, nodes, 0, 0, self.shift, margin], dtype=np.int64)
        self.weights = weights
        self.seen_before = position.seen.get(position.key(), 0) > 1

    def iteration(self, root: Array, depth: int, values: Array) -> bool:
        """One iteration over the root moves ``root`` in that order; false when abandoned."""
        n = len(root)
        self.moves[0, :n] = root
        self.counts_of[0] = n
        _negamax(self.stack, self.moves, self.counts_of, 0, depth, -INFINITY, INFINITY,
                 self.players, self.seen_before, self.keys, self.counts, *self.table, self.scores,
                 self.killers, self.history, self.stats, values, self.weights)
        return not self.stats[_ABORTED]

    def line(self, best: int, depth: int) -> tuple[int, ...]:
        """The best move, then the table's moves after it, as far as the search went."""
        line = [best]
        current = kernel.play(self.position, best)
        while not current.is_over and len(line) < depth:
            pos = position_array(current)
            move = _table_move(pos, current.seen.get(current.key(), 0) > 1, self.table[0],
                               self.table[4], self.shift)
            if move < 0 or move not in kernel.legal_moves(current):
                break
            line.append(move)
            current = kernel.play(current, move)
        return tuple(line)


def alphabeta(
    state: ExpionState | Position, *, depth: int = 64, nodes: int = 1_000_000, seed: int = 0,
    margin: float = 0.0, weights: dict[str, float] | None = None, table_bits: int | None = None,
    progress: Callable[[float], None] | None = None,
) -> SearchResult:
    """Iterative-deepening alpha-beta (principal variation search, transposition table, the
    table's move, winning pushes, killers and history first) from ``state``, two teams, to
    ``depth`` plies within ``nodes`` positions visited (every position reached counts, those that
    end the game included): the deepest iteration that overruns is abandoned and the previous
    one answers; when not even one ply fits, each root move is searched one ply deep all the
    same. Root moves are first shuffled by ``seed``. ``margin`` > 0 picks at random (from
    ``seed``) among the root moves within ``margin`` of the best, a weaker and more varied play
    (the plain ``AlphaBetaBot``'s ``margin``); ``weights`` change the evaluator's
    (:data:`WEIGHTS`). Raises ``ValueError`` once the game is over, ``RuntimeError`` without
    Numba."""
    require()
    position = state if isinstance(state, Position) else kernel.from_state(state)
    if position.is_over:
        raise ValueError("expion kernel: no move to search, the game is over")
    codes = kernel.legal_moves(position)
    root = shuffled(codes, seed)
    depth = max(1, min(depth, MAX_PLY - 1))
    if table_bits is None:  # room for the positions a budget can store, within 2**22 entries
        table_bits = max(10, min(22, (2 * nodes).bit_length()))
    margin_milli = round(margin / 0.9 * MILLI)
    search = _Search(position, nodes, table_bits, margin_milli, weights_array(weights))

    def rescue(root: Array, values: Array) -> None:
        search.stats[_BUDGET] = search.stats[_NODES] + len(root) + 1
        search.stats[_ABORTED] = 0
        search.iteration(root, 1, values)

    root, best_values, completed = deepen(root, depth, search.iteration, rescue=rescue, progress=progress)
    chosen = 0
    if margin_milli > 0 and abs(int(best_values[0])) < PROVEN:
        close = [i for i, v in enumerate(best_values) if v >= best_values[0] - margin_milli]
        chosen = close[random.Random(seed).randrange(len(close))]
    best = int(root[chosen])
    by_move = {int(m): squash(int(v)) for m, v in zip(root, best_values, strict=True)}
    return SearchResult(best, by_move[best], completed, int(search.stats[_NODES]),
                        np.array(codes, dtype=np.int32), np.array([by_move[c] for c in codes]),
                        search.line(best, completed) if chosen == 0 else (best,))


# -- UCT ----------------------------------------------------------------------------------------------
# A node of the tree: the move that leads to it, the player who played it, its visits and the sum
# of the values backed up through it for that player; its moves lie in the pool at ``first`` once
# an iteration went through it (``-1`` before), the first ``expanded`` of them with a child.
MAX_TREE_DEPTH = 512
"""An iteration stops going down the tree this deep and plays out from there."""
POOL_PER_ITERATION = 24
"""Room for moves in the tree at first, per iteration (it grows when a search needs more)."""


@compiled
def uct_iterations(
    root: Array, players: int, keys: Array, counts: Array, iterations: int, exploration: float,
    rng: Array, node_move: Array, node_mover: Array, node_visits: Array, node_totals: Array,
    node_first: Array, node_moves: Array, node_expanded: Array, pool_moves: Array,
    pool_child: Array, sizes: Array, pos: Array, path: Array, path_slots: Array, slots: Array,
    trail: Array, buffer: Array, root_moves: Array, root_count: int,
) -> int:
    """Run up to ``iterations`` UCT iterations on the tree held in the arrays (``sizes``: nodes
    and pool entries used); return how many ran (fewer when the pool is full: grow it and call
    again). An iteration walks down by UCB1 (``exploration`` for values in [-1, 1]), adds one
    child for an untried move drawn at random, plays a uniformly random game from there
    (``kernel.playout``) and backs up +1 to the winners (a whole team), -1 to the losers and 0
    to all on a draw (a playout longer than ``trail`` counts as a draw)."""
    for done in range(iterations):
        if sizes[1] + MAX_MOVES > pool_moves.shape[0]:
            return done
        pos[:] = root
        node = 0
        depth = 0
        path[0] = 0
        ended = ONGOING
        n_here = root_count
        for i in range(root_count):
            buffer[i] = root_moves[i]
        while True:
            if node_first[node] < 0:
                tree_fill(node, buffer, n_here, sizes, node_first, node_moves, pool_moves, pool_child)
            added = node_expanded[node] < node_moves[node]
            if added:
                child = tree_add_child(node, player_to_move(pos, players), rng, sizes, node_first,
                                       node_expanded, node_move, node_mover, node_visits, node_totals,
                                       node_moves, pool_moves, pool_child)
            else:
                child = ucb1_child(node, exploration, node_first, node_moves, pool_child, node_visits,
                                   node_totals)
            move = int(node_move[child])
            ended, n_here = step(pos, players, move, buffer)
            depth += 1
            path[depth] = child
            path_slots[depth] = -1
            if ended == ONGOING:
                seen = seen_push(keys, counts, pos[KEY])
                path_slots[depth] = seen
                if counts[seen] >= REPETITION_LIMIT:
                    ended = REPETITION
            if ended != ONGOING or added or depth >= MAX_TREE_DEPTH:
                break
            node = child
        if ended == ONGOING:
            ended, plies = playout(pos, players, keys, counts, slots, trail, buffer, rng)
            won = winners(players, pos[TURN], ended) if plies >= 0 else 0
        else:
            won = winners(players, pos[TURN], ended)
        for i in range(depth, 0, -1):
            if path_slots[i] >= 0:
                seen_pop(keys, counts, path_slots[i])
        for i in range(depth + 1):
            visited = path[i]
            node_visits[visited] += 1
            if won and i > 0:
                node_totals[visited] += 1.0 if won >> node_mover[visited] & 1 else -1.0
    return iterations


def uct(
    state: ExpionState | Position, *, iterations: int = 10_000, exploration: float = 1.0,
    seed: int = 0, progress: Callable[[float], None] | None = None,
) -> SearchResult:
    """UCT with ``iterations`` uniformly random playouts to the end of the game, no evaluator,
    any player count (each player's value, a team's players winning together): the project's
    ``MCTSBot`` with random playouts, in the kernel. The answer is the most visited root move,
    ties to the better mean, then to canonical order; ``scores`` are the root moves' visits,
    ``value`` the chosen move's mean result for the player to move. Raises ``ValueError`` once
    the game is over or with fewer than one iteration, ``RuntimeError`` without Numba."""
    require()
    if iterations < 1:
        raise ValueError(f"UCT needs at least one iteration, not {iterations!r}")
    position = state if isinstance(state, Position) else kernel.from_state(state)
    if position.is_over:
        raise ValueError("expion kernel: no move to search, the game is over")
    codes = kernel.legal_moves(position)
    if len(codes) == 1:
        return SearchResult(codes[0], 0.0, 0, 0, np.array(codes, dtype=np.int32), np.zeros(1), (codes[0],))
    room = kernel.PLAYOUT_ROOM
    capacity = iterations + 2
    node_move = np.full(capacity, -1, dtype=np.int32)
    node_mover = np.full(capacity, -1, dtype=np.int64)
    node_visits = np.zeros(capacity, dtype=np.int64)
    node_totals = np.zeros(capacity, dtype=np.float64)
    node_first = np.full(capacity, -1, dtype=np.int64)
    node_moves = np.zeros(capacity, dtype=np.int64)
    node_expanded = np.zeros(capacity, dtype=np.int64)
    pool = max(4 * MAX_MOVES, POOL_PER_ITERATION * iterations)
    pool_moves = np.empty(pool, dtype=np.int32)
    pool_child = np.empty(pool, dtype=np.int32)
    sizes = np.array([1, 0], dtype=np.int64)
    keys, counts = kernel.seen_table(position.seen, spare=room + MAX_TREE_DEPTH)
    root = position_array(position)
    root_moves = np.array(codes, dtype=np.int32)
    pos = np.empty_like(root)
    path = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
    path_slots = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
    slots = np.empty(room, dtype=np.int64)
    trail = np.empty(room, dtype=np.int32)
    buffer = np.empty(MAX_MOVES, dtype=np.int32)
    rng = np.array([seed % 2**64], dtype=np.uint64)
    done = 0
    chunk = max(1, iterations // 20) if progress is not None else iterations
    while done < iterations:
        done += uct_iterations(root, position.players, keys, counts, min(chunk, iterations - done),
                               exploration, rng, node_move, node_mover, node_visits, node_totals,
                               node_first, node_moves, node_expanded, pool_moves, pool_child, sizes,
                               pos, path, path_slots, slots, trail, buffer, root_moves, len(codes))
        if sizes[1] + MAX_MOVES > pool_moves.shape[0]:
            pool_moves = np.concatenate([pool_moves, np.empty_like(pool_moves)])
            pool_child = np.concatenate([pool_child, np.empty_like(pool_child)])
        if progress is not None:
            progress(done / iterations)

    def children(node: int) -> list[int]:
        first = int(node_first[node])
        return [int(c) for c in pool_child[first:first + int(node_expanded[node])]]

    return tree_answer(codes, children, node_move, node_visits, node_totals, done)
