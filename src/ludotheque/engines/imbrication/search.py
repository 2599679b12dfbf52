"""Search inside the Imbrication kernel: the evaluator, and the pieces with which the shared
searches (``engines/searches.py``) run determinized alpha-beta and information-set MCTS on
Imbrication's kernel, compiled, no Python per node or iteration.

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

**The shared searches' view.** A position is one ``int64`` array: ``light, dark, clock``, then
the line of tiles (:func:`position_array`); a move is *wide* (``searches.build(wide=True)``): its
word and the mask of the pieces it captures. :func:`_apply` writes only the three words a move
changes (the searches keep the line in every row of a world). Nothing repeats in Imbrication,
so no table of positions seen is kept (``enter``, ``leave``).

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

from collections.abc import Callable, Mapping, Sequence

import numpy as np

from .. import searches
from ..compiled import (
    PROVEN,
    WIN,
    Array,
    SearchResult,
    compiled,
    count,
    require,
    weight_vector,
)
from . import kernel
from .evaluate import PIECE_WEIGHT, POCKET_WEIGHT, SCALE, TERRITORY_WEIGHT
from .kernel import (
    EDGE_BITS,
    FILE_A_BITS,
    FILE_H_BITS,
    MAX_PLIES,
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
    playout,
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
# Rows of the history table: a move's kind, source and target (a placement: its cell).
_HISTORY = 3 * 64 * 64
# ``params`` of alpha-beta: the weights (tenths), then whether depth counts whole turns; of
# IS-MCTS: whether leaves are the evaluator's, whether playouts keep territory, then the weights.
_WHOLE_TURNS = len(WEIGHTS)
_USE_EVALUATOR, _KEEPS_TERRITORY, _LEAF_WEIGHTS = 0, 1, 2
_LINE_AT = 3  # where a position array's line of tiles begins


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


# -- the shared searches' view of the kernel (``engines/searches.py``, wide moves) -----------------
def position_array(position: Position) -> Array:
    """A position as the shared searches hold it: ``light, dark, clock``, then the line of tiles."""
    return np.concatenate([np.array(position.words, dtype=np.int64), position.line])


@compiled
def _generate(pos: Array, moves: Array) -> int:
    # ``moves[:0]``: a buffer of no rows for the paths, which ``generate`` then skips (nothing
    # to allocate per call; a global array would be read-only, which its writes may not be).
    return generate(pos[0], pos[1], pos[2], pos, moves, moves[:0], _LINE_AT)


@compiled
def _apply(pos: Array, word: int, captured: int, out: Array) -> None:
    """The position after a move, its three words written into ``out`` (whose line is ``pos``'s)."""
    light, dark, clock, _ = apply(pos[0], pos[1], pos[2], pos, word, captured, _LINE_AT)
    out[0], out[1], out[2] = light, dark, clock


@compiled
def _winners(light: int, dark: int) -> int:
    """The winner's bit of a finished game (0: a draw)."""
    winner = score(light, dark)[2]
    return 0 if winner < 0 else 1 << winner


@compiled
def _outcome(pos: Array, occurrences: int) -> int:
    if not finished(pos[0], pos[1], pos[2]):
        return searches.ONGOING
    return _winners(pos[0], pos[1])


@compiled
def _key(pos: Array) -> int:
    return position_key(pos[0], pos[1], pos[2])


@compiled
def _table_key(pos: Array, key: int, seen_before: bool) -> int:
    return key  # nothing repeats: the position's key, whole (its 64 bits place it in the table)


@compiled
def _mover(pos: Array) -> int:
    return mover_of(pos[2])


@compiled
def _score(pos: Array, moves: Array, ply: int, n: int, params: Array) -> int:
    return evaluate_tenths(pos[0], pos[1], mover_of(pos[2]), params)


@compiled
def _same_side(pos: Array, child: Array) -> bool:
    return mover_of(child[2]) == mover_of(pos[2])


@compiled
def _child_depth(pos: Array, child: Array, depth: int, params: Array) -> int:
    """One ply less, or (whole turns) the same when the move was a placement whose action is
    now pending."""
    if params[_WHOLE_TURNS] != 0 and child[2] >> PLACED_SHIFT != NO_CELL:
        return depth
    return depth - 1


@compiled
def _history_slot(word: int, captured: int) -> int:
    """A move's kind, source and target (a placement: its cell)."""
    kind = word >> 6 & 3
    return (kind << 12) | ((word >> 14 & SOURCE_MASK) << 6) | (word & SOURCE_MASK)


@compiled
def _order(pos: Array, rows: Array, scores: Array, n: int, first_word: int, first_captured: int,
           killers: Array, ply: int, history: Array) -> None:
    """Score the moves for ordering: the table's move, then the pieces a capture takes, the
    killers, the history of cut-offs."""
    for i in range(n):
        word, captured = rows[i, 0], rows[i, 1]
        if word == first_word and captured == first_captured:
            scores[i] = 1 << 50
            continue
        value = count(captured) << 40
        if word == killers[ply, 0, 0] and captured == killers[ply, 0, 1]:
            value += 1 << 38
        elif word == killers[ply, 1, 0] and captured == killers[ply, 1, 1]:
            value += 1 << 37
        scores[i] = value + min(history[_history_slot(word, captured)], (1 << 36) - 1)


@compiled
def _enter(keys: Array, counts: Array, pos: Array) -> int:
    return -1  # nothing repeats: no table of positions seen


@compiled
def _occurrences(counts: Array, slot: int) -> int:
    return 1


@compiled
def _leave(keys: Array, counts: Array, slot: int) -> None:
    return None


@compiled
def _advance(pos: Array, word: int, captured: int, following: Array, keys: Array,
             counts: Array) -> tuple[int, int]:
    """IS-MCTS's step: the move played on ``pos`` in place (its line stays)."""
    light, dark, clock, _ = apply(pos[0], pos[1], pos[2], pos, word, captured, _LINE_AT)
    pos[0], pos[1], pos[2] = light, dark, clock
    return _outcome(pos, 1), -1


@compiled
def _leaf(pos: Array, following: Array, keys: Array, counts: Array, slots: Array, trail: Array,
          moves: Array, rng: Array, params: Array) -> tuple[int, float]:
    """IS-MCTS's leaf: a uniformly random playout to the end (``kernel.playout``, keeping its own
    territory as ``params`` say), or the evaluator's value for player 0."""
    if params[_USE_EVALUATOR] != 0:
        balance = evaluate_tenths(pos[0], pos[1], 0, params[_LEAF_WEIGHTS:])
        return searches.ONGOING, balance / (abs(balance) + _SCALE)
    plies, light, dark, _ = playout(pos[0], pos[1], pos[2], pos, moves, moves[:0], trail, rng,
                                    params[_KEEPS_TERRITORY] != 0, _LINE_AT)
    if plies < 0:
        return searches.OVERFLOWED, 0.0
    return _winners(light, dark), 0.0


def _root(world: ImbricationState | Position) -> tuple[Array, Mapping[int, int], bool]:
    position = world if isinstance(world, Position) else kernel.from_state(world)
    return position_array(position), {}, position.is_over


def _listing(pos: Array, room: int) -> tuple[Array, list[int]]:
    """The legal moves of an array position (words and captured masks) and their path codes."""
    while True:
        moves = np.empty((room, 2), dtype=np.int64)
        paths = np.empty((room, PATH_WIDTH), dtype=np.int8)
        n = int(generate(pos[0], pos[1], pos[2], pos[3:], moves, paths))
        if n <= room:
            return moves[:n], kernel.codes_of(moves, paths, n)
        room = n


SEARCHES = searches.build(
    {"generate": _generate, "apply": _apply, "position_key": _key, "outcome": _outcome, "mover_of": _mover,
     "score": _score, "same_side": _same_side, "order_moves": _order, "table_key": _table_key,
     "history_slot": _history_slot, "child_depth": _child_depth, "enter": _enter,
     "occurrences": _occurrences, "leave": _leave, "advance": _advance, "leaf": _leaf},
    max_moves=MOVE_ROOM, root=_root, players=lambda world: 2, wide=True, listing=_listing,
    options=searches.Options(name="imbrication kernel", squash=to_float, history=_HISTORY,
                             table_bits=lambda nodes: max(10, min(20, (2 * nodes).bit_length())),
                             store_root=True, store_root_always=True, partial=False, keep_abandoned=True,
                             exact_settles_all=True, playout_room=MAX_PLIES))


# -- the searches -----------------------------------------------------------------------------------
def _positions(worlds: Sequence[ImbricationState | Position], samples: int | None) -> list[Position]:
    """The worlds' positions, checked: as many as ``samples`` (when given), one position (only
    the lines of tiles may differ), not over."""
    if samples is not None and samples != len(worlds):
        raise ValueError(f"imbrication kernel: {len(worlds)} worlds given for {samples} samples")
    if not worlds:
        raise ValueError("imbrication kernel: a search needs at least one world")
    positions = [w if isinstance(w, Position) else kernel.from_state(w) for w in worlds]
    if positions[0].is_over:
        raise ValueError("imbrication kernel: no move to search, the game is over")
    if any(position.words != positions[0].words for position in positions[1:]):
        raise ValueError("imbrication kernel: the worlds do not hold the same position")
    return positions


def pimc(
    worlds: Sequence[ImbricationState | Position], *, depth: int = 4, nodes: int = 1_000_000,
    seed: int = 0, progress: Callable[[float], None] | None = None, depth_step: int = 1,
    whole_turns: bool = False, exact_root: bool | None = None, weights: dict[str, int] | None = None,
    samples: int | None = None, table_bits: int | None = None,
) -> SearchResult:
    """Determinized alpha-beta over ``worlds`` (full states the bot drew with
    ``state.determinize``, all of one position), the shared ``searches.pimc``: each distinct
    world searched by iterative deepening, ``depth_step`` plies an iteration up to ``depth``
    (``whole_turns``: turns, see the module's docstring), within an equal share of ``nodes``
    positions (every position reached counts; the deepest iteration that overruns is abandoned;
    when not even the first fits, each root move is searched one ply deep all the same).

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
    if depth < 1 or depth_step < 1:
        raise ValueError(f"imbrication kernel: depth and depth_step must be at least 1, not "
                         f"{depth!r}, {depth_step!r}")
    positions = _positions(worlds, samples)
    depth = min(depth, (MAX_PLY - 2) // 2 if whole_turns else MAX_PLY - 2)
    params = np.append(weights_array(weights), np.int64(whole_turns))
    return SEARCHES.pimc(positions, depth=depth, nodes=nodes, seed=seed, progress=progress,
                         depth_step=depth_step, exact_root=exact_root, params=params, table_bits=table_bits,
                         line_plies=2 * depth if whole_turns else depth, room=MOVE_ROOM)


def ismcts(
    worlds: Sequence[ImbricationState | Position], *, iterations: int = 10_000,
    exploration: float = 1.0, seed: int = 0, progress: Callable[[float], None] | None = None,
    use_evaluator: bool = False, keeps_territory: bool = False, weights: dict[str, int] | None = None,
    samples: int | None = None,
) -> SearchResult:
    """Single-observer information-set MCTS over ``worlds`` (full states the bot drew with
    ``state.determinize``, all of one position), the shared ``searches.ismcts``: one tree,
    iteration ``i`` played in ``worlds[i % len(worlds)]``, uniformly random playouts to the end
    (``use_evaluator``: the evaluator's value of the position reached instead, with ``weights``
    as :func:`pimc`'s; ``keeps_territory``: playouts that never fill their own territory, see
    ``kernel.playout``). The answer is the most visited root move, ties to the better mean, then
    to canonical order; ``scores`` are the root moves' visits, ``value`` the chosen move's mean
    result for the player to move, ``nodes`` the iterations run. ``samples`` is the bot's (how
    many worlds it draws): when given it must be ``len(worlds)``.

    Raises ``ValueError`` once the game is over, when the worlds hold different positions or
    legal moves, or for fewer than one iteration; ``RuntimeError`` without Numba."""
    require()
    if iterations < 1:
        raise ValueError(f"imbrication kernel: MCTS needs at least one iteration, not {iterations!r}")
    positions = _positions(worlds, samples)
    params = np.concatenate([np.array([use_evaluator, keeps_territory], dtype=np.int64),
                             weights_array(weights)])
    return SEARCHES.ismcts(positions, iterations=iterations, exploration=exploration, seed=seed,
                           params=params, progress=progress, room=MOVE_ROOM)
