"""Search inside the Ex*Pion kernel: the evaluator, alpha-beta and UCT, compiled, no Python per node.

The plain bots (``ludotheque.ai``) search through the contract; these search the kernel's position
arrays (``kernel.py``) and meet Python only at the root (once per iteration of deepening):
:func:`alphabeta` and :func:`uct` take a plain state or a kernel ``Position`` and answer a
:class:`~ludotheque.engines.compiled.SearchResult` (the kernel's move codes). Budgets are nodes and
iterations, never time, and every random choice comes from the ``seed``: a search is a pure
function of (seed, position). The loops are the shared ones (``engines/searches.py``, built here
with ``searches.build``); this module gives them Ex*Pion's pieces: the step that finds the next
moves, the teams, the evaluator, the move ordering and the table key.

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

from collections.abc import Callable, Mapping

import numpy as np

from .. import searches
from ..compiled import (
    PROVEN,
    Array,
    SearchResult,
    compiled,
    require,
    weight_vector,
)
from . import evaluate as plain_evaluate
from . import kernel
from .board import SIZE
from .kernel import (
    CAMP_OF_CELL,
    CELL_BITS,
    DIRECTION_OF_OFFSET,
    ENDED_WORD,
    EXPION,
    MARBLES,
    MAX_MOVES,
    NEIGHBOUR_TABLE,
    PLAYERS_WORD,
    POSITION_SIZE,
    QUIET,
    SOURCE_SHIFT,
    TEAM_CAMP_TABLE,
    TURN,
    Position,
    generate,
    playout,
    position_array,
    step,
    team_to_move,
    winners,
)
from .rules import QUIET_LIMIT, ExpionState

# -- values: ``WIN - plies`` for the team to move winning ``plies`` from the root (a win sooner is
# better; ``compiled.WIN``); heuristic values are thousandths of the evaluator's [-1, 1], far below.
MILLI = 1000.0
MAX_PLY = 96
"""Plies below the root a search has room for (the deepest iteration is capped to fit)."""
_SEEN_BEFORE = 0x2545_F491_4F6C_DD1D
"""XOR-ed into a table key when the position occurred before (on the path or in the game)."""
_QUIET_SALT = 0x1F83_D9AB_FB41_BD6B
"""Times the quiet-move count, XOR-ed into a table key near the 200-move draw."""
_QUIET_NEAR = QUIET_LIMIT - MAX_PLY
_HISTORY = 1 << 14
assert (POSITION_SIZE, _HISTORY) > (0, 81 << SOURCE_SHIFT)


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


# -- alpha-beta: the shared one (``engines/searches.py``) with Ex*Pion's step, teams, ordering, keys -
@compiled
def _table_key(pos: Array, key: int, seen_before: bool) -> int:
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
def _play(pos: Array, move: int, child: Array, child_moves: Array) -> int:
    """``step`` on a copy: the next camp's moves written into ``child_moves``, the outcome kept."""
    child[:] = pos
    ended, following = step(child, pos[PLAYERS_WORD], move, child_moves)
    child[ENDED_WORD] = ended
    return following


@compiled
def _same_side(pos: Array, child: Array) -> bool:
    return team_to_move(child) == team_to_move(pos)


@compiled
def _score(pos: Array, moves: Array, ply: int, n: int, weights: Array) -> int:
    return _evaluate(pos, moves[ply], n, weights)


def squash(value: int) -> float:
    """A search value as a bot's value in [-1, 1]: a proven result ±1, else 0.9 × the evaluator's
    (as the plain alpha-beta scales it), kept below every proven result."""
    if value >= PROVEN:
        return 1.0
    if value <= -PROVEN:
        return -1.0
    return 0.9 * max(-1.0, min(1.0, value / MILLI))


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
    return SEARCHES.alphabeta(state, depth=max(1, min(depth, MAX_PLY - 1)), nodes=nodes, seed=seed,
                              table_bits=table_bits, params=weights_array(weights),
                              margin=round(margin / 0.9 * MILLI), progress=progress)


# -- UCT: the shared one (``engines/searches.py``) with the kernel's playouts -------------------------
@compiled
def _rollout(pos: Array, following: Array, keys: Array, counts: Array, slots: Array, trail: Array,
             moves: Array, rng: Array, params: Array) -> tuple[int, int]:
    """UCT's playout (``kernel.playout``): the winners' bits (0: a draw, or a game too long) and
    the plies."""
    players = pos[PLAYERS_WORD]
    ended, plies = playout(pos, players, keys, counts, slots, trail, moves, rng)
    if plies < 0:  # longer than the room for a playout: scored a draw
        return 0, trail.shape[0]
    return winners(players, pos[TURN], ended), plies


def _root(state: ExpionState | Position) -> tuple[Array, Mapping[int, int], bool]:
    position = state if isinstance(state, Position) else kernel.from_state(state)
    seen = {kernel.plain_key_hash(key): times for key, times in position.seen.items()}
    return kernel.search_array(position), seen, position.is_over


def _players(state: ExpionState | Position) -> int:
    return (state if isinstance(state, Position) else kernel.from_state(state)).players


SEARCHES = searches.build(
    {"generate": kernel.array_generate, "apply": kernel.array_apply, "position_key": kernel.array_key,
     "outcome": kernel.array_outcome, "mover_of": kernel.array_mover, "play": _play, "score": _score,
     "same_side": _same_side, "order_moves": _order, "table_key": _table_key, "rollout": _rollout},
    max_moves=MAX_MOVES, root=_root, players=_players,
    options=searches.Options(name="expion kernel", squash=squash, history=_HISTORY,
                             table_bits=lambda nodes: max(10, min(22, (2 * nodes).bit_length())),
                             store_root=True, partial=False, count_overrun=True,
                             playout_room=kernel.PLAYOUT_ROOM))


def uct(
    state: ExpionState | Position, *, iterations: int = 10_000, exploration: float = 1.0,
    seed: int = 0, progress: Callable[[float], None] | None = None,
) -> SearchResult:
    """UCT with ``iterations`` uniformly random playouts to the end of the game, no evaluator,
    any player count (each player's value, a team's players winning together): the project's
    ``MCTSBot`` with random playouts, in the kernel (``searches.uct``). The answer is the most
    visited root move, ties to the better mean, then to canonical order; ``scores`` are the root
    moves' visits, ``value`` the chosen move's mean result for the player to move. Raises
    ``ValueError`` once the game is over or with fewer than one iteration, ``RuntimeError``
    without Numba."""
    return SEARCHES.uct(state, iterations=iterations, exploration=exploration, seed=seed, progress=progress)
