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
random choice comes from the ``seed``: a search is a pure function of (seed, worlds). The loop
is the shared one (``engines/searches.py``'s ``ismcts``); this module gives it Plimil's step and
leaves.

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
from collections.abc import Callable, Mapping, Sequence

import numpy as np

from .. import searches
from ..compiled import Array, SearchResult, compiled, count, require, weight_vector
from . import kernel
from .board import BLUE, CELLS, RED, rank_of
from .evaluate import ADVANCE_WEIGHT, CAPTURE_WEIGHT, COUNT_WEIGHT, SCALE
from .kernel import (
    CAPTURE,
    MAX_MOVES,
    ONGOING,
    PLAYOUT_ROOM,
    apply,
    ending,
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


# -- information-set MCTS: the shared one (``engines/searches.py``) with Plimil's step and leaves ------
HEURISTIC, PLAYOUT = 0, 1
LEAVES = {"heuristic": HEURISTIC, "playout": PLAYOUT}
"""How a leaf is scored: the evaluator, or one uniformly random playout to the end."""


@compiled
def _winners(pos: Array, result: int) -> int:
    """An ending as the shared searches count it: -1 while the game goes on, else the winner's
    bit (0: a draw)."""
    if result == ONGOING:
        return -1
    won = winner(pos, result)
    return 0 if won < 0 else 1 << won


@compiled
def _apply(pos: Array, move: int, out: Array) -> None:
    out[:] = pos
    apply(out, move)


@compiled
def _outcome(pos: Array, occurrences: int) -> int:
    return -1 if in_setup(pos) else _winners(pos, ending(pos, occurrences))


@compiled
def _score(pos: Array, moves: Array, ply: int, n: int, weights: Array) -> int:
    value = leaf_value(pos, np.empty(MAX_MOVES, dtype=np.int32), weights)
    return round(1000.0 * (value if to_move(pos) == BLUE else -value))


@compiled
def _step(pos: Array, move: int, following: Array, keys: Array, counts: Array) -> tuple[int, int]:
    """``kernel.step`` (the setup's positions but its last are not counted as seen)."""
    result, slot = step(pos, move, keys, counts)
    return _winners(pos, result), slot


@compiled
def _leaf(pos: Array, following: Array, keys: Array, counts: Array, slots: Array, trail: Array,
          moves: Array, rng: Array, params: Array) -> tuple[int, float]:
    """A leaf's value: one random playout (``PLAYOUT_ROOM`` plies at most, else a draw), or
    :func:`leaf_value` for Blue, as ``params`` (leaf, setup leaf, weights) say."""
    if (params[1] if in_setup(pos) else params[0]) == PLAYOUT:
        ended, plies = playout(pos, keys, counts, slots, trail, moves, rng)
        return (_winners(pos, ended) if plies >= 0 else 0), 0.0
    return -1, leaf_value(pos, moves, params[2:])


def _root(world: PlimilState) -> tuple[Array, Mapping[int, int], bool]:
    seen = {kernel.hash_of_plain_key(key): n for key, n in kernel.from_state(world).seen.items()}
    return kernel.array_of(world), seen, world.is_over


SEARCHES = searches.build(
    {"generate": generate, "apply": _apply, "position_key": kernel.position_key, "outcome": _outcome,
     "mover_of": to_move, "score": _score, "advance": _step, "leaf": _leaf},
    max_moves=MAX_MOVES, root=_root, players=lambda world: 2,
    options=searches.Options(name="plimil kernel", playout_room=PLAYOUT_ROOM))


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
    says 0 there, while playouts tell the blocks and stems chosen apart): ``searches.ismcts``.
    The answer is the most visited root move, ties to the better mean, then to canonical order;
    ``scores`` are the root moves' visits, ``value`` the chosen move's mean for the player to
    move, ``line`` the most visited path below it. A forced move is answered at once. Raises
    ``ValueError`` for no worlds, worlds of different positions, a finished game or an unknown
    leaf, ``RuntimeError`` without Numba."""
    require()
    if iterations < 1:
        raise ValueError(f"ISMCTS needs at least one iteration, not {iterations!r}")
    setup_leaf = leaf if setup_leaf is None else setup_leaf
    for name in (leaf, setup_leaf):
        if name not in LEAVES:
            raise ValueError(f"plimil search: a leaf is one of {sorted(LEAVES)}, not {name!r}")
    if any(world.is_over for world in worlds):
        raise ValueError("plimil kernel: no move to search, the game is over")
    root_moves(worlds)
    params = np.concatenate([[LEAVES[leaf], LEAVES[setup_leaf]], weights_array(weights)])
    return SEARCHES.ismcts(worlds, iterations=iterations, exploration=exploration, seed=seed, params=params,
                           progress=progress)
