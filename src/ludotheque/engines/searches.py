"""One compiled search over any kernel that gives the compiled functions of the array-kernel
interface (:data:`KERNEL_FUNCTIONS`, below and in ``docs/kernels.md``): alpha-beta (iterative
deepening, principal variation search, transposition table, the game's move ordering: the
table's move, killers, history...), UCT (with MCTS-Solver and a budget in plies),
information-set MCTS (one tree over the worlds, availability counts), PIMC (alpha-beta in each
world, the root move best on average), random playouts and perft, written once here and
specialised per game by :func:`build` at the kernel's import: each template below is compiled
again with the game's functions as its globals (no call through a pointer, so nothing is slower
than a search written for the game; Numba cannot cache these, so a game's searches compile on
their first call in each process). Pylos, Ex*Pion, Plimil and the test game Nim search here.

The interface, for a position held in a one-dimensional ``int64`` array of the kernel's size:

- ``generate(pos, moves) -> n``: the legal moves' codes (``int32``, non-negative, below
  ``2**24`` for IS-MCTS) in the contract's canonical order in ``moves[:n]``;
- ``apply(pos, move, out)``: the position after ``move`` written into ``out`` (``pos`` untouched);
- ``position_key(pos) -> int``: a non-negative 63-bit hash of what repetition compares;
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

Budgets are nodes and iterations, never time; every random choice comes from the seed: each
search is a pure function of (seed, position), or of (seed, worlds).
"""

from __future__ import annotations

import math
import random
import types
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

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
_VALUE, _DEPTH, _BOUND, _MOVE = 0, 1, 2, 3  # the columns of alpha-beta's table beside its keys
_NODES, _BUDGET, _ABORTED, _SHIFT, _ROOT_DONE, _REPETITIONS, _MARGIN = 0, 1, 2, 3, 4, 5, 6


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


# -- per-game pieces of alpha-beta: these defaults, or the game's own given to :func:`build` ------
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


def table_key(pos: Array, key: int, seen_before: bool) -> int:
    """The transposition table's key of ``pos`` (``key``: its ``position_key``), which occurred
    before on the path or in the game when ``seen_before``."""
    return key


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
    slot = seen_push(keys, counts, position_key(pos))
    return outcome(pos, counts[slot]), slot


def leaf(pos: Array, following: Array, keys: Array, counts: Array, slots: Array, trail: Array,
         moves: Array, rng: Array, params: Array) -> tuple[int, float]:
    """IS-MCTS's value of a leaf that is not over: the winners' bits of a playout from it
    (``rollout``; 0: a draw), or :data:`ONGOING` and a heuristic value for player 0 (two
    players)."""
    ended, _ = rollout(pos, following, keys, counts, slots, trail, moves, rng, params)
    return max(0, ended), 0.0


HOOKS = ("play", "score", "same_side", "order_moves", "table_key", "rollout", "advance", "leaf")
"""The per-game pieces of the templates a game may give :func:`build` (else these defaults)."""


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


def negamax(stack: Array, ply: int, depth: int, alpha: int, beta: int, seen_before: bool, keys: Array,
            counts: Array, table_keys: Array, table: Array, moves: Array, counts_of: Array,
            scores: Array, killers: Array, history: Array, stats: Array, params: Array) -> int:
    """The value of ``stack[ply]`` for the side to move, within (alpha, beta); 0 once the
    budget ran out (``stats[_ABORTED]``). ``counts_of[ply]``: how many moves ``play`` wrote in
    ``moves[ply]``, -1 when it wrote none. A value a repetition draw decided below (``outcome``
    :data:`REPEATED`) is not stored: no other path can share it."""
    pos = stack[ply]
    n = counts_of[ply]
    if depth <= 0 or ply >= MAX_PLY - 1:
        return score(pos, moves, ply, n, params)
    key = table_key(pos, position_key(pos), seen_before)
    slot = table_slot(key, stats[_SHIFT])
    first = -1
    if table_keys[slot] == key:
        first = int(table[slot, _MOVE])
        if table[slot, _DEPTH] >= depth:
            value = from_table(int(table[slot, _VALUE]), ply)
            bound = table[slot, _BOUND]
            if bound == _EXACT or (bound == _LOWER and value >= beta) or (bound == _UPPER and value <= alpha):
                return value
    row = moves[ply]
    order = scores[ply]
    if n < 0:
        n = generate(pos, row)
    order_moves(pos, row, order, n, first, killers, ply, history)
    mover = mover_of(pos)
    child = stack[ply + 1]
    child_moves = moves[ply + 1]
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
        counts_of[ply + 1] = play(pos, move, child, child_moves)
        seen = seen_push(keys, counts, position_key(child))
        ended = outcome(child, counts[seen])
        if ended == 0:
            value = 0
        elif ended == REPEATED:
            stats[_REPETITIONS] += 1
            value = 0
        elif ended != ONGOING:
            value = WIN - ply - 1 if ended >> mover & 1 else ply + 1 - WIN
        else:
            same = same_side(pos, child)
            # Principal variation search: the first move with the whole window, a later one
            # with a null window that proves it no better, else searched again.
            low = alpha
            high = beta if i == 0 else alpha + 1
            while True:
                if same:
                    value = negamax(stack, ply + 1, depth - 1, low, high, counts[seen] > 1, keys, counts,
                                    table_keys, table, moves, counts_of, scores, killers, history, stats,
                                    params)
                else:
                    value = -negamax(stack, ply + 1, depth - 1, -high, -low, counts[seen] > 1, keys, counts,
                                     table_keys, table, moves, counts_of, scores, killers, history, stats,
                                     params)
                if high == beta or stats[_ABORTED] or value <= low or value >= beta:
                    break
                high = beta
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
            history[move % HISTORY] += depth * depth
            break
    if stats[_REPETITIONS] == repetitions:  # no repetition draw decided it: no path can change it
        bound = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
        if table_keys[slot] != key or table[slot, _DEPTH] <= depth:
            table_keys[slot] = key
            table[slot, _VALUE] = to_table(best_value, ply)
            table[slot, _DEPTH] = depth
            table[slot, _BOUND] = bound
            table[slot, _MOVE] = best_move
    return best_value


def root_iteration(stack: Array, depth: int, root: Array, values: Array, seen_before: bool, keys: Array,
                   counts: Array, table_keys: Array, table: Array, moves: Array, counts_of: Array,
                   scores: Array, killers: Array, history: Array, stats: Array, params: Array, exact: bool,
                   store: bool) -> bool:
    """One iteration of iterative deepening over the root moves ``root`` (best first): each
    one's value in ``values`` (exact for the best, a bound for the others; exact too for those
    within ``stats[_MARGIN]`` of the best so far; with ``exact``, every move searched with the
    whole window: exact values all); false when the budget ran out. With ``store``, the root's
    value goes into the table too (``seen_before``: the root occurred before)."""
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
    best_move = -1
    for i in range(root.shape[0]):
        move = int(root[i])
        if stats[_NODES] >= stats[_BUDGET]:
            stats[_ABORTED] = 1
            return False
        stats[_NODES] += 1
        counts_of[1] = play(pos, move, child, child_moves)
        seen = seen_push(keys, counts, position_key(child))
        ended = outcome(child, counts[seen])
        if ended == 0:
            value = 0
        elif ended == REPEATED:
            stats[_REPETITIONS] += 1
            value = 0
        elif ended != ONGOING:
            value = WIN - 1 if ended >> mover & 1 else 1 - WIN
        else:
            same = same_side(pos, child)
            low = alpha if i == 0 or exact else alpha - stats[_MARGIN]
            high = infinity if i == 0 or exact else low + 1
            if exact:
                low = -infinity
            while True:
                if same:
                    value = negamax(stack, first_ply, depth - 1, low, high, counts[seen] > 1, keys, counts,
                                    table_keys, table, moves, counts_of, scores, killers, history, stats,
                                    params)
                else:
                    value = -negamax(stack, first_ply, depth - 1, -high, -low, counts[seen] > 1, keys, counts,
                                     table_keys, table, moves, counts_of, scores, killers, history, stats,
                                     params)
                if high == infinity or stats[_ABORTED] or value <= low:
                    break
                high = infinity
        seen_pop(keys, counts, seen)
        if stats[_ABORTED]:
            return False
        values[i] = value
        stats[_ROOT_DONE] = i + 1
        if value > best_value:
            best_value, best_move = value, move
        alpha = max(alpha, value)
    if store and stats[_REPETITIONS] == repetitions:
        key = table_key(pos, position_key(pos), seen_before)
        slot = table_slot(key, stats[_SHIFT])
        if table_keys[slot] != key or table[slot, _DEPTH] <= depth:
            table_keys[slot] = key
            table[slot, _VALUE] = to_table(best_value, 0)
            table[slot, _DEPTH] = depth
            table[slot, _BOUND] = _EXACT
            table[slot, _MOVE] = best_move
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
                    counts: Array, params: Array, rng: Array, node_move: Array, node_mover: Array,
                    node_visits: Array, node_available: Array, node_totals: Array, node_first: Array,
                    node_next: Array, edge_keys: Array, edge_child: Array, sizes: Array, current: Array,
                    following: Array, path: Array, path_slots: Array, slots: Array, trail: Array,
                    moves: Array, found: Array, untried: Array) -> int:
    """``iterations`` iterations of information-set MCTS (Cowling, Powley and Whitehouse 2012;
    UCT when there is one world): iteration ``k`` plays in ``worlds[(start + k) %
    len(worlds)]`` and walks down: where some legal move has no child yet, it adds one for such
    a move drawn at random and stops; else it follows the child of best UCB1 (``exploration``
    for values in [-1, 1], the child's availability, how often its move was legal when its
    parent was visited, in place of the parent's visits; ties to canonical order). The leaf is
    scored by ``leaf`` (a playout to the end: +1 for the winners, -1 for the others, 0 for a
    draw; or a heuristic value for player 0) and backed up for whoever moved into each node.
    Returns how many ran (fewer when the node arrays are full)."""
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
            tried = fresh = 0
            for i in range(n):
                move = int(moves[i])
                slot = edge_slot(edge_keys, node, move)
                if edge_keys[slot] == -1:
                    untried[fresh] = move
                    fresh += 1
                else:
                    child = edge_child[slot]
                    node_available[child] += 1
                    found[tried] = child
                    tried += 1
            if fresh:
                move = int(untried[rng_below(rng, fresh)])
                child = sizes[0]
                sizes[0] = child + 1
                node_move[child] = move
                node_mover[child] = mover_of(current)
                node_visits[child] = 0
                node_available[child] = 1
                node_totals[child] = 0.0
                node_first[child] = -1
                node_next[child] = node_first[node]
                node_first[node] = child
                slot = edge_slot(edge_keys, node, move)
                edge_keys[slot] = node << 24 | move
                edge_child[slot] = child
            else:
                best_score = -math.inf
                child = found[0]
                for i in range(tried):
                    candidate = found[i]
                    visits = node_visits[candidate]
                    score = node_totals[candidate] / visits + exploration * math.sqrt(
                        math.log(node_available[candidate]) / visits)
                    if score > best_score:
                        best_score, child = score, candidate
                move = int(node_move[child])
            ended, seen = advance(current, move, following, keys, counts)
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
                seen_pop(keys, counts, path_slots[i])
        node_visits[0] += 1
        for i in range(1, depth + 1):
            visited = path[i]
            node_visits[visited] += 1
            if ended > 0:
                node_totals[visited] += 1.0 if ended >> node_mover[visited] & 1 else -1.0
            elif ended == ONGOING:  # no result: a heuristic value for player 0
                node_totals[visited] += value if node_mover[visited] == 0 else -value
    return iterations


TEMPLATES = ("play", "score", "same_side", "order_moves", "table_key", "perft_count", "playout", "rollout",
             "run_playouts", "negamax", "root_iteration", "uct_iterations", "advance", "leaf", "edge_slot",
             "mcts_iterations")
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
    table, ``history`` the history of cut-offs (a move's slot: its code modulo that);
    ``store_root``: the root's value goes into the table too; ``partial``: a move that an
    abandoned iteration proved better than the last best comes first; ``count_overrun``: the
    position at which the budget ran out is counted as visited; ``playout_room``: the plies
    a playout of UCT or IS-MCTS may play (a longer one is scored a draw)."""

    name: str = "kernel"
    squash: Callable[[int], float] = _squash
    table_bits: Callable[[int], int] = _table_bits
    history: int = HISTORY
    store_root: bool = False
    partial: bool = True
    count_overrun: bool = False
    playout_room: int = PLAYOUT_ROOM


@dataclass(frozen=True)
class Searches:
    """A game's searches, built by :func:`build`: each takes a contract ``State`` or the
    kernel's position (``worlds``: a list of them) and answers a :class:`SearchResult` in the
    kernel's move codes."""

    compiled: Mapping[str, Any]
    root: Callable[[Any], tuple[Array, Mapping[int, int], bool]]
    players: Callable[[Any], int]
    max_moves: int
    options: Options

    def _start(self, state: Any) -> tuple[Array, Mapping[int, int]]:
        require()
        pos, seen, over = self.root(state)
        if over:
            raise ValueError(f"{self.options.name}: no move to search, the game is over")
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
                  table_bits: int | None = None, exact_root: bool = False, params: Array | None = None,
                  margin: int = 0, progress: Callable[[float], None] | None = None) -> SearchResult:
        """Iterative-deepening alpha-beta to ``depth`` plies within ``nodes`` positions visited,
        root moves first shuffled by ``seed``; the deepest iteration that overruns is abandoned
        (with the game's ``partial``, its root moves searched to the end of the budget still
        count when they beat the last best; ``compiled.deepen``). Two sides only; values in
        [-1, 1] for the side to move (±1: proven, else the game's ``squash``); the root moves'
        scores are bounds but for the best, or all exact with ``exact_root``; ``params`` go to
        the game's evaluation; ``margin`` > 0 (in search values) picks at random (from ``seed``)
        among the root moves within ``margin`` of the best. The line follows the table's moves."""
        pos, seen = self._start(state)
        if depth < 1 or nodes < 1:
            raise ValueError(f"alpha-beta needs a depth and nodes of at least 1, not {depth!r}, {nodes!r}")
        codes = self._codes(pos)
        root = shuffled(codes, seed)
        keys, counts = seen_table(seen, spare=MAX_PLY)
        bits = self.options.table_bits(nodes) if table_bits is None else table_bits
        size = 1 << bits
        table_keys = np.full(size, -1, dtype=np.int64)
        table = np.zeros((size, 4), dtype=np.int64)  # value, depth, bound, move
        stack = np.empty((MAX_PLY + 1, pos.shape[0]), dtype=np.int64)
        stack[0] = pos
        moves = np.empty((MAX_PLY + 1, self.max_moves), dtype=np.int32)
        counts_of = np.full(MAX_PLY + 1, -1, dtype=np.int64)
        scores = np.empty((MAX_PLY, self.max_moves), dtype=np.int64)
        killers = np.full((MAX_PLY, 2), -1, dtype=np.int32)
        history = np.zeros(self.options.history, dtype=np.int64)
        stats = np.array([0, nodes, 0, 64 - bits, 0, 0, margin], dtype=np.int64)
        weights = np.zeros(1) if params is None else params
        seen_before = seen.get(int(self.compiled["position_key"](pos)), 0) > 1
        overran = []

        def iterate(root: Array, iteration: int, values: Array) -> bool:
            stats[_ROOT_DONE] = 0
            done = bool(self.compiled["root_iteration"](stack, iteration, root, values, seen_before, keys,
                                                        counts, table_keys, table, moves, counts_of, scores,
                                                        killers, history, stats, weights, exact_root,
                                                        self.options.store_root))
            if not done:
                overran.append(iteration)
            return done

        def rescue(root: Array, values: Array) -> None:
            stats[_BUDGET] = stats[_NODES] + len(root)
            stats[_ABORTED] = 0
            iterate(root, 1, values)

        searched = (lambda: int(stats[_ROOT_DONE])) if self.options.partial else None
        root, best_values, reached = deepen(root, min(depth, MAX_PLY - 1), iterate, rescue=rescue,
                                            searched=searched, progress=progress)
        chosen = 0
        if margin > 0 and abs(int(best_values[0])) < PROVEN:
            close = [i for i, v in enumerate(best_values) if v >= best_values[0] - margin]
            chosen = close[random.Random(seed).randrange(len(close))]
        best = int(root[chosen])
        by_code = {int(m): self.options.squash(int(v)) for m, v in zip(root, best_values, strict=True)}
        visited = int(stats[_NODES]) + (1 if overran and self.options.count_overrun else 0)
        line = self._line(pos, seen, best, reached, table_keys, table, 64 - bits) if chosen == 0 else (best,)
        return SearchResult(best, by_code[best], reached, visited, np.array(codes, dtype=np.int32),
                            np.array([by_code[c] for c in codes], dtype=np.float64), line)

    def _line(self, pos: Array, seen: Mapping[int, int], best: int, depth: int, table_keys: Array,
              table: Array, shift: int) -> tuple[int, ...]:
        """The best move, then the table's moves after it, as far as the search went."""
        find = self.compiled
        counted = dict(seen)
        line = [best]
        current = pos.copy()
        following = pos.copy()
        move = best
        while True:
            find["apply"](current, move, following)
            current[:] = following
            key = int(find["position_key"](current))
            counted[key] = counted.get(key, 0) + 1
            if find["outcome"](current, counted[key]) != ONGOING or len(line) >= depth:
                return tuple(line)
            wanted = int(find["table_key"](current, key, counted[key] > 1))
            slot = int(table_slot(wanted, shift))
            move = int(table[slot, _MOVE]) if table_keys[slot] == wanted else -1
            if move < 0 or move not in self._codes(current):
                return tuple(line)
            line.append(move)

    def uct(self, state: Any, *, iterations: int = 10_000, exploration: float = 1.0, seed: int = 0,
            plies: int | None = None, solver: bool = False, params: Array | None = None,
            progress: Callable[[float], None] | None = None) -> SearchResult:
        """UCT with ``iterations`` playouts to the end of the game (``rollout``'s, given
        ``params``), no evaluator, a value per player. ``plies``, when given, ends the search
        sooner, once that many moves were played in all (in the tree and in playouts);
        ``solver`` proves wins and losses in the tree (see ``uct_iterations``). The answer is
        a proven win if there is one, else the most visited root move that is not a proven loss,
        ties to the better mean, then to canonical order; ``scores`` are the root moves' visits,
        ``value`` the chosen move's mean result for the player to move."""
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
               progress: Callable[[float], None] | None = None) -> SearchResult:
        """Information-set MCTS over ``worlds`` (full states a bot drew with ``determinize``; the
        player to move must have the same legal moves in each): one tree, iteration ``k`` played
        in world ``k % len(worlds)``, leaves scored by the game's ``leaf`` (given ``params``).
        The answer is the most visited root move, ties to the better mean, then to canonical
        order; ``scores`` are the root moves' visits, ``line`` the most visited path, ``depth``
        its length."""
        if not worlds:
            raise ValueError(f"{self.options.name}: information-set MCTS needs at least one world")
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
        room = self.options.playout_room
        keys, counts = seen_table(seen, spare=room + MAX_TREE_DEPTH)
        capacity = iterations + 2
        node_move = np.full(capacity, -1, dtype=np.int32)
        node_mover = np.full(capacity, -1, dtype=np.int8)
        node_visits = np.zeros(capacity, dtype=np.int64)
        node_available = np.zeros(capacity, dtype=np.int64)
        node_totals = np.zeros(capacity, dtype=np.float64)
        node_first = np.full(capacity, -1, dtype=np.int32)
        node_next = np.full(capacity, -1, dtype=np.int32)
        edges = 1 << max(4, (2 * capacity - 1).bit_length())
        edge_keys = np.full(edges, -1, dtype=np.int64)
        edge_child = np.full(edges, -1, dtype=np.int32)
        sizes = np.array([1], dtype=np.int64)
        current = stacked[0].copy()
        following = stacked[0].copy()
        path = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
        path_slots = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
        slots = np.empty(room, dtype=np.int64)
        trail = np.empty(room, dtype=np.int32)
        moves = np.empty(self.max_moves, dtype=np.int32)
        found = np.empty(self.max_moves, dtype=np.int32)
        untried = np.empty(self.max_moves, dtype=np.int32)
        weights = np.zeros(1) if params is None else params
        rng = np.array([seed % 2**64], dtype=np.uint64)
        done = 0
        chunk = max(1, iterations // 20) if progress is not None else iterations
        while done < iterations:
            ran = self.compiled["mcts_iterations"](
                stacked, done, min(chunk, iterations - done), exploration, keys, counts, weights, rng,
                node_move, node_mover, node_visits, node_available, node_totals, node_first, node_next,
                edge_keys, edge_child, sizes, current, following, path, path_slots, slots, trail, moves,
                found, untried)
            done += ran
            if ran == 0:
                break
            if progress is not None:
                progress(done / iterations)
        return tree_answer(codes, lambda node: _children(node, node_first, node_next), node_move,
                           node_visits, node_totals, done, depth_is_line=True)

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
          options: Options | None = None) -> Searches:
    """The searches over one kernel: ``kernel`` maps each name of :data:`KERNEL_FUNCTIONS` to the
    game's compiled function, and may map those of :data:`HOOKS` to the game's own pieces
    (else this module's defaults); ``root(state or position)`` gives the position's array, the
    positions seen (key: occurrences) and whether the game is over; ``players`` its player
    count; ``max_moves`` bounds one position's moves; ``options`` what the game sets at the
    root (:class:`Options`). Each template is compiled again with the game's functions as its
    globals (on its first call)."""
    chosen = options or Options()
    needed = [name for name in KERNEL_FUNCTIONS if name != "evaluate" or "score" not in kernel]
    missing = [name for name in needed if name not in kernel]
    if missing:
        raise ValueError(f"a kernel for the shared searches needs {missing}")
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
        function = types.FunctionType(template.__code__, namespace, template_name, template.__defaults__)
        namespace[template_name] = numba.njit(nogil=True)(function) if numba is not None else function
    return Searches(namespace, root, players, max_moves, chosen)
