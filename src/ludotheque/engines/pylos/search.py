"""Search inside the Pylos kernel: the evaluator, alpha-beta and UCT, compiled, no Python per node.

The plain bots (``ludotheque.ai``) search through the contract; these search the kernel's integers
(``kernel.py``) and meet Python only at the root: :func:`alphabeta` and :func:`uct` take a plain
state or a kernel ``Position`` and answer a :class:`~ludotheque.engines.compiled.SearchResult`
(the kernel's move codes). Budgets are nodes and iterations, never time, and every random choice
comes from the ``seed``: a search is a pure function of (seed, position). The loops are the
shared ones (``engines/searches.py``, built here with ``searches.build``); this module gives them
Pylos's pieces: the evaluator, the move ordering, the table key and the greedy playouts.

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

from .. import searches
from ..compiled import (
    PROVEN,
    Array,
    SearchResult,
    compiled,
    count,
    lowest,
    rng_below,
    seen_pop,
    seen_push,
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
MAX_PLY = searches.MAX_PLY
"""Plies below the root a search has room for (the deepest iteration is capped to fit)."""
_SEEN_BEFORE = 1 << 61  # in a table key: the position occurred before on this path or in the game


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


# -- alpha-beta: the shared one (``engines/searches.py``) with Pylos's evaluation, ordering and keys --
@compiled
def _score(pos: Array, moves: Array, ply: int, n: int, weights: Array) -> int:
    return _evaluate(pos[0], pos[1], pos[2], pos[3], weights)


@compiled
def _order(pos: Array, moves: Array, scores: Array, n: int, first: int, killers: Array, ply: int,
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
def _table_key(pos: Array, key: int, seen_before: bool) -> int:
    return key | _SEEN_BEFORE if seen_before else key


def squash(value: int) -> float:
    """A search value as a bot's value in [-1, 1]: a proven result ±1, else the evaluator's
    squashing of a ball difference (``evaluate.SCALE``), kept below every proven result."""
    from .evaluate import SCALE

    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return -1.0
    return 0.9 * math.tanh(value / MILLI / SCALE)


def _root(state: PylosState | Position) -> tuple[Array, Mapping[int, int], bool]:
    position = state if isinstance(state, Position) else kernel.from_state(state)
    return kernel.position_array(position), position.seen, position.is_over


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
    return SEARCHES.alphabeta(state, depth=max(1, depth), nodes=nodes, seed=seed, table_bits=table_bits,
                              params=weights_array(weights), progress=progress)


# -- UCT: the shared one (``engines/searches.py``) with Pylos's playouts, uniform or greedy ----------
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
def _rollout(pos: Array, following: Array, keys: Array, counts: Array, slots: Array, trail: Array,
             moves: Array, rng: Array, params: Array) -> tuple[int, int]:
    """UCT's playout: uniformly random (``kernel.playout``), or :func:`_biased_playout`'s when
    ``params[0]`` (``greedy``) > 0; the winner's bit (0: a draw, or a game too long) and the plies."""
    light, dark, mover, variant = pos[0], pos[1], pos[2], pos[3]
    greedy = params[0]
    if greedy > 0.0:
        winner, plies = _biased_playout(light, dark, mover, variant, keys, counts, slots, moves, greedy, rng)
    else:
        _, winner, plies = playout(light, dark, mover, variant, keys, counts, slots, trail, moves, rng)
        if plies < 0:  # longer than the room for a playout: scored a draw
            winner, plies = -1, slots.shape[0]
    return (1 << winner if winner >= 0 else 0), plies


SEARCHES = searches.build(
    {"generate": kernel.array_generate, "apply": kernel.array_apply, "position_key": kernel.array_key,
     "outcome": kernel.array_outcome, "mover_of": kernel.array_mover, "score": _score,
     "order_moves": _order, "table_key": _table_key, "rollout": _rollout},
    max_moves=MAX_MOVES, root=_root, players=lambda state: 2,
    options=searches.Options(name="pylos kernel", squash=squash, history=1 << 15,
                             table_bits=lambda nodes: max(10, min(21, (2 * nodes).bit_length())),
                             playout_room=kernel.PLAYOUT_ROOM))


def uct(
    state: PylosState | Position, *, iterations: int = 10_000, exploration: float = 1.0,
    plies: int | None = None, greedy: float = 0.0, solver: bool = False, seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> SearchResult:
    """UCT with ``iterations`` playouts to the end of the game, no evaluator (``searches.uct``):
    with the defaults, the project's ``MCTSBot`` with uniformly random playouts, in the kernel.
    ``plies``, when given, ends the search sooner, once that many moves were played in all (in
    the tree and in playouts): a budget in the work done, which gives a position near the end,
    where playouts are short, more of them. ``greedy`` > 0 makes playouts take back balls when
    they can with that probability (and always place the top), ``solver`` proves wins and losses
    in the tree (MCTS-Solver). The answer is a proven win if there is one, else the most visited
    root move that is not a proven loss, ties to the better mean, then to canonical order;
    ``scores`` are the root moves' visits, ``value`` the chosen move's mean result for the player
    to move. Raises ``ValueError`` once the game is over, ``RuntimeError`` without Numba."""
    return SEARCHES.uct(state, iterations=iterations, exploration=exploration, seed=seed, plies=plies,
                        solver=solver, params=np.array([greedy], dtype=np.float64), progress=progress)


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
