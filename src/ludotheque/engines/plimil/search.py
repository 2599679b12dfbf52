"""Search inside the Plimil kernel: the evaluator and information-set MCTS, compiled, no Python
per iteration.

Plimil hides stems and balls, so the search never sees a real state: it receives the
**worlds** a bot drew at the root with the plain engine's ``state.determinize(player, rng)``
(``determinize`` stays the only place that knows what is hidden) and plays them in the kernel.
:func:`ismcts` is single-observer information-set MCTS (Cowling, Powley and Whitehouse 2012), the
plain ``MCTSBot(determinize=True)`` in compiled code: iteration ``i`` is played in world
``i % len(worlds)``, one tree is shared by all worlds, a node's children are keyed by their move
code, and a child's exploration term counts the iterations in which its move was legal (its
*availability*). Leaves are scored by the evaluator of ``evaluate.py`` (:func:`leaf_value`, the
same arithmetic) or by a random playout to the end. Budgets are iterations, never time, and every
random choice comes from the ``seed``: a search is a pure function of (seed, worlds).

>>> import random
>>> from ludotheque.engines.plimil.rules import PlimilGame
>>> state, rng = PlimilGame().new_state(), random.Random(1)
>>> while state.ply < 40:
...     state = state.play(rng.choice(state.legal_moves()))
>>> worlds = [state.determinize(state.to_move, rng) for _ in range(8)]
>>> found = ismcts(worlds, iterations=400, seed=1, leaf="heuristic")
>>> found.nodes, int(found.scores.sum()), found.move in found.moves
(400, 400, True)
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np

from .. import compiled as shared
from ..compiled import Array, SearchResult, compiled, count, require, rng_below, seen_pop, weight_vector
from . import kernel
from .board import BLUE, CELLS, RED, rank_of
from .evaluate import ADVANCE_WEIGHT, CAPTURE_WEIGHT, COUNT_WEIGHT, SCALE
from .kernel import (
    CAPTURE,
    MAX_MOVES,
    ONGOING,
    PLAYOUT_ROOM,
    generate,
    in_setup,
    playout,
    shown,
    shown_count,
    step,
    to_move,
    winner,
)
from .rules import PlimilState

# -- the evaluator ----------------------------------------------------------------------------------
# Its weights (``evaluate.py``), passed to the compiled code as an array: a global would be frozen
# into Numba's cache, which a change to ``evaluate.py`` does not invalidate.
WEIGHT_NAMES = ("count", "capture", "advance", "scale")
_COUNT, _CAPTURE, _ADVANCE, _SCALE = range(4)
WEIGHTS: dict[str, float] = {
    "count": COUNT_WEIGHT, "capture": CAPTURE_WEIGHT, "advance": ADVANCE_WEIGHT, "scale": SCALE,
}
"""The evaluator's weights by name (``evaluate.py``'s), as :func:`weights_array` passes them."""
_MAX_CAPTURES = 3  # evaluate.evaluate: min(captures, 3)
_RANKS = np.array([sum(1 << s for s in CELLS if rank_of(s) == r) for r in range(8)], dtype=np.int64)


def weights_array(weights: dict[str, float] | None = None) -> Array:
    """The evaluator's weights as the compiled code reads them (``evaluate.py``'s by default);
    raises ``ValueError`` for a name that is not a weight."""
    return weight_vector("plimil", WEIGHT_NAMES, WEIGHTS, weights)


@compiled
def _advance(mask: int, player: int) -> float:
    """``evaluate._advance``: the mean ranks gained toward the far side by the blocks on ``mask``."""
    blocks = count(mask)
    if blocks == 0:
        return 0.0
    total = 0
    for r in range(8):
        total += (r if player == BLUE else 7 - r) * count(mask & _RANKS[r])
    return total / blocks


@compiled
def leaf_value(pos: Array, moves: Array, weights: Array) -> float:
    """``evaluate.evaluate(state, BLUE)`` of a position that is not over, the same arithmetic
    (Red's value is its opposite): the difference in blocks shown, the captures at hand for the
    player to move, the advance; 0 during the setup. ``moves`` is a buffer for the legal moves."""
    if in_setup(pos):
        return 0.0
    score = weights[_COUNT] * (shown_count(pos, BLUE) - shown_count(pos, RED))
    n = generate(pos, moves)
    captures = 0
    for i in range(n):
        if moves[i] & CAPTURE:
            captures += 1
    sign = 1 if to_move(pos) == BLUE else -1
    score += sign * weights[_CAPTURE] * min(captures, _MAX_CAPTURES)
    score += weights[_ADVANCE] * (_advance(shown(pos, BLUE), BLUE) - _advance(shown(pos, RED), RED))
    return math.tanh(score / weights[_SCALE])


# -- information-set MCTS -------------------------------------------------------------------------------
HEURISTIC, PLAYOUT = 0, 1
LEAVES = {"heuristic": HEURISTIC, "playout": PLAYOUT}
"""How a leaf is scored: the evaluator, or one uniformly random playout to the end."""
MAX_TREE_DEPTH = 512
"""An iteration stops going down the tree this deep and scores the leaf there."""
_NODES, _ITERATION = 0, 1  # ``sizes``: nodes in the tree, iterations done
_MOVE_BITS = 24  # every move code is below 2**24 (``kernel.BLOCK`` is the highest kind bit)


@compiled
def _edge_slot(keys: Array, parent: int, move: int) -> int:
    """The slot of edge (``parent``, ``move``) in the table of edges: where its key is, or the
    empty slot (key ``-1``) where it would go."""
    key = parent << _MOVE_BITS | move
    mask: int = keys.shape[0] - 1
    slot = int((np.uint64(key) * shared.GOLDEN) >> np.uint64(32)) & mask
    while keys[slot] != -1 and keys[slot] != key:
        slot = (slot + 1) & mask
    return slot


@compiled
def ismcts_iterations(
    roots: Array, keys: Array, counts: Array, iterations: int, exploration: float, leaf: int,
    setup_leaf: int, weights: Array, rng: Array, node_move: Array, node_mover: Array, node_visits: Array,
    node_available: Array, node_totals: Array, node_first: Array, node_next: Array,
    edge_keys: Array, edge_child: Array, sizes: Array, work: Array, path: Array,
    path_slots: Array, slots: Array, trail: Array, moves: Array, found: Array, untried: Array,
) -> None:
    """Run ``iterations`` more iterations on the tree held in the arrays (``sizes``: nodes,
    iterations done so far). Iteration ``i`` copies world ``i % len(roots)`` and walks down:
    where some legal move has no child yet, it adds one for such a move drawn at random and
    stops; else it follows the child of best UCB1 (``exploration`` for values in [-1, 1], the
    child's availability in place of its parent's visits; ties to canonical order). The leaf is
    scored for Blue (the end of the game: +1, -1 or 0; else :func:`leaf_value`, or one random
    playout with ``leaf`` ``PLAYOUT``; ``setup_leaf`` for a leaf still in the setup) and backed
    up for whoever moved into each node."""
    worlds = roots.shape[0]
    for _ in range(iterations):
        work[:] = roots[sizes[_ITERATION] % worlds]
        sizes[_ITERATION] += 1
        node = 0
        depth = 0
        path[0] = 0
        result = ONGOING
        while True:
            n = generate(work, moves)
            tried = fresh = 0
            for i in range(n):
                move = int(moves[i])
                slot = _edge_slot(edge_keys, node, move)
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
                child = sizes[_NODES]
                sizes[_NODES] = child + 1
                node_move[child] = move
                node_mover[child] = to_move(work)
                node_visits[child] = 0
                node_available[child] = 1
                node_totals[child] = 0.0
                node_first[child] = -1
                node_next[child] = node_first[node]
                node_first[node] = child
                slot = _edge_slot(edge_keys, node, move)
                edge_keys[slot] = node << _MOVE_BITS | move
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
            result, seen = step(work, move, keys, counts)
            depth += 1
            path[depth] = child
            path_slots[depth] = seen
            if result != ONGOING or fresh or depth >= MAX_TREE_DEPTH:
                break
            node = child
        if result != ONGOING:
            won = winner(work, result)
            value = 0.0 if won < 0 else (1.0 if won == BLUE else -1.0)
        elif (setup_leaf if in_setup(work) else leaf) == PLAYOUT:
            ended, plies = playout(work, keys, counts, slots, trail, moves, rng)
            won = winner(work, ended) if plies >= 0 else -1  # longer than the room: a draw
            value = 0.0 if won < 0 else (1.0 if won == BLUE else -1.0)
        else:
            value = leaf_value(work, moves, weights)
        for i in range(depth, 0, -1):
            if path_slots[i] >= 0:
                seen_pop(keys, counts, path_slots[i])
        node_visits[0] += 1
        for i in range(1, depth + 1):
            visited = path[i]
            node_visits[visited] += 1
            node_totals[visited] += value if node_mover[visited] == BLUE else -value


def root_moves(worlds: Sequence[PlimilState]) -> tuple[list[int], Array]:
    """The legal moves at the root (kernel codes, canonical order) and the worlds' position
    arrays; raises ``ValueError`` when the worlds are not all at one decision of one player
    with the same legal moves (they are the determinizations of one state), or the game is over."""
    if not worlds:
        raise ValueError("plimil search: no world to search")
    arrays = np.stack([kernel.array_of(world) for world in worlds])
    buffer = np.empty(MAX_MOVES, dtype=np.int32)
    codes = buffer[: generate(arrays[0], buffer)].tolist()
    first = worlds[0]
    for world, array in zip(worlds, arrays, strict=True):
        if world.ply != first.ply or world.to_move != first.to_move:
            raise ValueError("plimil search: the worlds are not one position's determinizations")
        if buffer[: generate(array, buffer)].tolist() != codes:
            raise ValueError("plimil search: the worlds do not have the same legal moves at the root")
    return [int(c) for c in codes], arrays


def ismcts(
    worlds: Sequence[PlimilState], *, iterations: int = 10_000, exploration: float = 1.0,
    leaf: str = "playout", setup_leaf: str | None = None, weights: dict[str, float] | None = None,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> SearchResult:
    """Information-set MCTS over ``worlds`` (full states the bot drew for the player to move,
    never the real one), ``iterations`` in all, leaves scored by ``leaf`` (``"playout"``:
    uniformly random playouts to the end, the default; ``"heuristic"``: :func:`leaf_value` with
    ``weights``), those still in the setup by ``setup_leaf`` (default: ``leaf``; the evaluator
    says 0 there, while playouts tell the blocks and stems chosen apart). The answer is the most
    visited root move, ties to the better mean, then to canonical order; ``scores`` are the root
    moves' visits, ``value`` the chosen move's mean for the player to move, ``line`` the most
    visited path below it. A forced move is answered at once. Raises ``ValueError`` for no
    worlds, worlds of different positions, a finished game or an unknown leaf, ``RuntimeError``
    without Numba."""
    require()
    if iterations < 1:
        raise ValueError(f"ISMCTS needs at least one iteration, not {iterations!r}")
    setup_leaf = leaf if setup_leaf is None else setup_leaf
    for name in (leaf, setup_leaf):
        if name not in LEAVES:
            raise ValueError(f"plimil search: a leaf is one of {sorted(LEAVES)}, not {name!r}")
    if any(world.is_over for world in worlds):
        raise ValueError("plimil kernel: no move to search, the game is over")
    codes, roots = root_moves(worlds)
    if len(codes) == 1:
        return SearchResult(codes[0], 0.0, 0, 0, np.array(codes, dtype=np.int32), np.zeros(1), (codes[0],))
    chosen = weights_array(weights)
    capacity = iterations + 1
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
    sizes = np.array([1, 0], dtype=np.int64)
    # Every world has the same positions seen (their keys hold no secret): one table for all.
    keys, counts = kernel.seen_table(kernel.from_state(worlds[0]).seen,
                                     spare=PLAYOUT_ROOM + MAX_TREE_DEPTH)
    work = np.empty(roots.shape[1], dtype=np.int64)
    path = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
    path_slots = np.empty(MAX_TREE_DEPTH + 1, dtype=np.int64)
    slots = np.empty(PLAYOUT_ROOM, dtype=np.int64)
    trail = np.empty(PLAYOUT_ROOM, dtype=np.int32)
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    found = np.empty(MAX_MOVES, dtype=np.int32)
    untried = np.empty(MAX_MOVES, dtype=np.int32)
    rng = np.array([seed % 2**64], dtype=np.uint64)
    chunk = max(1, iterations // 20) if progress is not None else iterations
    done = 0
    while done < iterations:
        batch = min(chunk, iterations - done)
        ismcts_iterations(roots, keys, counts, batch, exploration, LEAVES[leaf], LEAVES[setup_leaf],
                          chosen, rng, node_move, node_mover, node_visits, node_available, node_totals,
                          node_first, node_next, edge_keys, edge_child, sizes, work, path, path_slots,
                          slots, trail, moves, found, untried)
        done += batch
        if progress is not None:
            progress(done / iterations)
    return shared.tree_answer(codes, lambda node: _children(node, node_first, node_next), node_move,
                              node_visits, node_totals, done, depth_is_line=True)


def _children(node: int, node_first: Array, node_next: Array) -> list[int]:
    """A node's children, in the order they were added."""
    children = []
    child = int(node_first[node])
    while child >= 0:
        children.append(child)
        child = int(node_next[child])
    return children[::-1]

