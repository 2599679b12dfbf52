"""Imbrication compiled kernel: the rules of ``rules.py`` on plain integers, compiled with Numba.

The plain engine (``rules.py``) stays the readable reference; this module says the same rules again
for speed, and :func:`compare_with_plain` checks, ply by ply, that both agree. Where Numba cannot
be imported, this module still imports, :data:`AVAILABLE` is false and its public functions raise
``RuntimeError``: callers then use the plain engine. Each kernel compiles on its first call and is
cached on disk (``cache=True``), so importing this module compiles nothing.

**The position** is three integers and a line of tiles. ``light`` and ``dark`` are 64-bit masks of
the cells in board order (bit ``c`` is ``board.NAMES[c]``), held as *signed* int64 in compiled
code (``a1`` is bit 0, ``h8`` the sign bit); ``clock`` packs the counters of the turn:
``round | openings << 3 | drawn << 6 | placed << 10`` (``placed`` is :data:`NO_CELL` when no
action is pending). The player to move, the phase and the end follow from them, as in the plain
engine. ``line`` (int64, 45 entries) is the tile of every turn of the game, ``line[9 * (round - 1)
+ turn]``: the chance of a full state (a determinization), fixed for a whole game or search.

**A move** in compiled code is two int64 (a row of a move buffer): a *word*
``source | kind << 6 | hops << 8 | target << 14`` (``kind``: :data:`PLACE`, :data:`SHIFT`,
:data:`CAPTURE`; ``hops``: the landings of a capture chain; a placement is its cell) and the
mask of the pieces it captures. Outside, a move is an integer *code* naming its whole path (what
the notation writes): ``cells[0] | kind << 6 | hops << 8``, then each further cell on 6 bits from
bit 14; it equals the word for every move but a chain of two hops or more. Codes of long chains
exceed 64 bits: they are Python integers, never compiled values.

>>> move_text(move_code("D4 x F6 x d8"))
'd4xf6xd8'
>>> move_code("d4"), move_code("d4-d7") == 27 | SHIFT << 6 | 1 << 8 | 51 << 14
(27, True)
>>> to_plain_move(move_code("a3xa1"))
Move.from_text('a3xa1')
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ...core.contract import Game, Result
from ..compiled import AVAILABLE as AVAILABLE  # whether the kernel runs here (Numba imports)
from ..compiled import (
    Agreement,
    Array,
    KernelMismatchError,
    Playouts,
    compiled,
    count,
    finished_playouts,
    lowest,
    require,
    rng_below,
    with_room,
)
from .board import (
    BETWEEN,
    BLANK,
    CELL_COUNT,
    DIAGONAL_DIRS,
    DIRECTIONS,
    EDGE,
    FILE_A,
    FILE_H,
    FULL,
    NAMES,
    OPENING_PLACEMENTS,
    RANK_8,
    RAYS,
    ROUNDS,
    SIZE,
    TILE_COUNT,
    TILE_TABLE,
    TILES,
    TURNS_PER_ROUND,
)
from .notation import PLACEMENTS, SHIFTS, Move
from .rules import (
    ANY_PIECE_FROM_ROUND,
    RESHUFFLE_ROUND,
    ImbricationGame,
    ImbricationState,
    line_tile,
)

# -- constants -------------------------------------------------------------------------------------
NO_CELL = CELL_COUNT
"""``placed`` in a clock when no action is pending."""
PLACE, SHIFT, CAPTURE = 0, 1, 2
"""Kinds of move: a placement, a step or slide, a capture chain."""
NOTHING, PENDING, BLANK_TILE, REMOVED, ACTION = 0, 1, 2, 3, 4
"""What a move did to the outcomes of the tiles (``ImbricationState.outcomes``): an opening
placement touches none; a placement reveals a tile whose action is pending, blank, or impossible
(the piece is removed); an action completes the pending one."""
TERRITORY, PIECES, DRAW = 0, 1, 2
REASONS = ("territory", "pieces", "draw")
"""Why a finished game went as it did, as the plain engine says it (``Result.reason``)."""

MAX_PLIES = ROUNDS * (OPENING_PLACEMENTS + 2 * TURNS_PER_ROUND)
"""No game is longer (``GAME.max_plies``): 4 placements and 9 turns of at most 2 moves a round."""
MOVE_ROOM = 8192
"""Rows a move buffer has at first. :func:`generate` counts the moves past a full buffer without
writing them, so a caller sees how much room it needs and generates again (the most moves met in
2,000 random games: 3,411, long capture chains of rounds 4-5)."""
PATH_WIDTH = CELL_COUNT + 1
"""A row of a path buffer: the number of cells, then the cells (a chain hops at most once per
enemy piece, so it never has more than 64 cells)."""
LINE_LENGTH = ROUNDS * TURNS_PER_ROUND
"""Turns in a game: the entries of a line of tiles."""

_MOTIONS = ("none", "step", "slide", "short_capture", "long_capture")
_NONE, _STEP, _SLIDE, _SHORT, _LONG = range(len(_MOTIONS))
_ROUND_MASK, _OPENINGS_SHIFT, _DRAWN_SHIFT, PLACED_SHIFT = 7, 3, 6, 10
SOURCE_MASK, _KIND_SHIFT, _HOPS_SHIFT, _TARGET_SHIFT, _CELL_BITS = 63, 6, 8, 14, 6


def _signed(mask: int) -> int:
    """A 64-bit mask as the int64 that compiled code holds (``h8`` is the sign bit)."""
    mask &= FULL
    return mask - (1 << 64) if mask >> 63 else mask


# Geometry tables, built from board.py and the tile table (one data source).
_BIT = np.array([_signed(1 << c) for c in range(CELL_COUNT)], dtype=np.int64)
_BETWEEN = np.array([[_signed(m) for m in row] for row in BETWEEN], dtype=np.int64)
# _RAY_BIT[c, d, i]: the mask of the i-th cell from c in direction d, 0 past the edge (a ray has
# at most 7 cells, so every ray ends on a 0: walks along it stop there by themselves).
_RAY_BIT = np.zeros((CELL_COUNT, len(DIRECTIONS), SIZE), dtype=np.int64)
for _cell in range(CELL_COUNT):
    for _direction, _ray in enumerate(RAYS[_cell]):
        _RAY_BIT[_cell, _direction, : len(_ray)] = [_signed(1 << c) for c in _ray]
_TILE_MOTION = np.array([_MOTIONS.index(TILE_TABLE[t].motion) for t in TILES], dtype=np.int64)
_TILE_DIRECTIONS = np.zeros((TILE_COUNT, len(DIAGONAL_DIRS)), dtype=np.int64)
_TILE_DIRECTION_COUNT = np.zeros(TILE_COUNT, dtype=np.int64)
for _tile, _name in enumerate(TILES):
    _TILE_DIRECTION_COUNT[_tile] = len(TILE_TABLE[_name].directions)
    _TILE_DIRECTIONS[_tile, : len(TILE_TABLE[_name].directions)] = TILE_TABLE[_name].directions
# _NEXT_TO[t, c]: the cells one step from c in tile t's directions (steps; slides' first cells).
_NEXT_TO = np.array(
    [[_signed(sum(1 << RAYS[c][d][0] for d in TILE_TABLE[t].directions if RAYS[c][d]))
      for c in range(CELL_COUNT)] for t in TILES],
    dtype=np.int64,
)
FILE_A_BITS, FILE_H_BITS = _signed(FILE_A), _signed(FILE_H)
RANK_8_BITS, EDGE_BITS = _signed(RANK_8), _signed(EDGE)
# _LINE_SOURCE[k]: which tile of order1 + order4 (0-8: order1's, 9-17: order4's) turn k of the
# game plays (``rules.line_tile``); _ORDER_TURN[j]: a turn that plays tile j of them.
_LINE_SOURCE = np.array(
    [line_tile((tuple(range(TILE_COUNT)), tuple(range(TILE_COUNT, 2 * TILE_COUNT))), r, t)
     for r in range(1, ROUNDS + 1) for t in range(TURNS_PER_ROUND)],
    dtype=np.int64,
)
_ORDER_TURN = np.array([_LINE_SOURCE.tolist().index(j) for j in range(2 * TILE_COUNT)],
                       dtype=np.int64)
# splitmix64's finalizer (as in ``compiled.rng_next``), on int64 with logical shifts.
_MIX1, _MIX2 = _signed(0xBF58476D1CE4E5B9), _signed(0x94D049BB133111EB)
_KEY_SALT1, _KEY_SALT2 = _signed(0x9E3779B97F4A7C15), _signed(0xD1B54A32D192ED03)


# -- the clock -------------------------------------------------------------------------------------
@compiled
def make_clock(round_: int, openings: int, drawn: int, placed: int) -> int:
    """The clock of a turn (``placed`` is :data:`NO_CELL` when no action is pending)."""
    return (round_ | openings << _OPENINGS_SHIFT | drawn << _DRAWN_SHIFT
            | placed << PLACED_SHIFT)


@compiled
def mover_of(clock: int) -> int:
    """The player to move (``ImbricationState``: seats alternate across rounds and turns)."""
    round_ = clock & _ROUND_MASK
    openings = clock >> _OPENINGS_SHIFT & 7
    drawn = clock >> _DRAWN_SHIFT & 15
    if openings < OPENING_PLACEMENTS:
        return (round_ - 1 + openings) & 1
    if clock >> PLACED_SHIFT != NO_CELL:
        return (round_ + drawn) & 1  # the turn of the tile just drawn, drawn - 1
    return (round_ - 1 + drawn) & 1


# -- geometry --------------------------------------------------------------------------------------
@compiled
def neighbour_mask(mask: int) -> int:
    """The cells orthogonally next to some cell of ``mask`` (maybe some of ``mask`` too)."""
    return (((mask << 1) & ~FILE_A_BITS) | ((mask >> 1) & ~FILE_H_BITS) | (mask << SIZE)
            | ((mask >> SIZE) & ~RANK_8_BITS))


@compiled
def territory_mask(own: int, other: int) -> int:
    """The cells of ``own``'s territories (``board.territories``): the empty cells whose region
    touches neither the edge nor an ``other`` piece."""
    empty = ~(own | other)
    outside = empty & (EDGE_BITS | neighbour_mask(other))
    while True:
        grown = outside | (neighbour_mask(outside) & empty)
        if grown == outside:
            break
        outside = grown
    return empty & ~outside


@compiled
def placeable(light: int, dark: int, mover: int) -> int:
    """The empty cells where ``mover`` may place: not flanked on one line by two enemy pieces
    (§4.1, ``board.banned``)."""
    enemy = light if mover else dark
    left = (enemy << 1) & ~FILE_A_BITS
    right = (enemy >> 1) & ~FILE_H_BITS
    below = enemy << SIZE
    above = (enemy >> SIZE) & ~RANK_8_BITS
    return ~(light | dark) & ~((left & right) | (below & above))


@compiled
def score(light: int, dark: int) -> tuple[int, int, int, int]:
    """``(territory of seat 0, of seat 1, winner or -1, reason)``: more territory wins, then
    more pieces on the board, else a draw (``rules._score``)."""
    first = count(territory_mask(light, dark))
    second = count(territory_mask(dark, light))
    if first != second:
        return first, second, 0 if first > second else 1, TERRITORY
    light_count, dark_count = count(light), count(dark)
    if light_count != dark_count:
        return first, second, 0 if light_count > dark_count else 1, PIECES
    return first, second, -1, DRAW


@compiled
def finished(light: int, dark: int, clock: int) -> bool:
    """Whether the game is over: after round 5's ninth tile, or when the player who must place
    has no cell to place on (§3.2, §6, only that player is checked)."""
    if clock >> PLACED_SHIFT != NO_CELL:
        return False
    if clock & _ROUND_MASK == ROUNDS and clock >> _DRAWN_SHIFT & 15 == TURNS_PER_ROUND:
        return True
    return placeable(light, dark, mover_of(clock)) == 0


@compiled
def position_key(light: int, dark: int, clock: int) -> int:
    """A 64-bit hash of the position, for a search's transposition table (the line of tiles is
    the search's, fixed: it is not part of the key)."""
    key = light
    for word in (dark ^ _KEY_SALT1, clock ^ _KEY_SALT2):
        key = (key ^ ((key >> 30) & 0x3FFFFFFFF)) * _MIX1
        key = (key ^ ((key >> 27) & 0x1FFFFFFFFF)) * _MIX2
        key = key ^ ((key >> 31) & 0x1FFFFFFFF) ^ word
    key = (key ^ ((key >> 30) & 0x3FFFFFFFF)) * _MIX1
    key = (key ^ ((key >> 27) & 0x1FFFFFFFFF)) * _MIX2
    return key ^ ((key >> 31) & 0x1FFFFFFFF)


@compiled
def _shuffle(values: Array, start: int, stop: int, rng: Array) -> None:
    """Shuffle ``values[start:stop]`` in place (Fisher-Yates, drawing from ``rng``)."""
    for i in range(stop - 1, start, -1):
        j = start + rng_below(rng, i - start + 1)
        values[i], values[j] = values[j], values[i]


@compiled
def redraw_line(line: Array, clock: int, rng: Array) -> Array:
    """A line of tiles for a determinization: the tiles every player has seen kept, the others
    drawn as ``ImbricationState.determinize`` draws them (round 1's unrevealed tiles from the
    unseen ones in table order; before round 4, the round-4 order from table order), with
    ``rng``. It depends on the true line only through what has been seen."""
    orders = np.empty(2 * TILE_COUNT, dtype=np.int64)
    for j in range(2 * TILE_COUNT):
        orders[j] = line[_ORDER_TURN[j]]
    round_ = clock & _ROUND_MASK
    seen = clock >> _DRAWN_SHIFT & 15 if round_ == 1 else TILE_COUNT  # the pending tile is seen
    if seen < TILE_COUNT:
        unseen = seen
        for tile in range(TILE_COUNT):
            is_seen = False
            for i in range(seen):
                is_seen = is_seen or orders[i] == tile
            if not is_seen:
                orders[unseen] = tile
                unseen += 1
        _shuffle(orders, seen, TILE_COUNT, rng)
    if round_ < RESHUFFLE_ROUND:
        for tile in range(TILE_COUNT):
            orders[TILE_COUNT + tile] = tile
        _shuffle(orders, TILE_COUNT, 2 * TILE_COUNT, rng)
    redrawn = np.empty(LINE_LENGTH, dtype=np.int64)
    for k in range(LINE_LENGTH):
        redrawn[k] = orders[_LINE_SOURCE[k]]
    return redrawn


# -- moves -----------------------------------------------------------------------------------------
@compiled
def _hop_landings(motion: int, tile: int, cell: int, enemy: int, empty: int) -> int:
    """The cells a hop of ``tile`` from ``cell`` may land on: beyond exactly one enemy piece,
    just beyond it (short) or on any empty cell before the next piece (long)."""
    found = 0
    for k in range(_TILE_DIRECTION_COUNT[tile]):
        direction = _TILE_DIRECTIONS[tile, k]
        if motion == _SHORT:
            if (enemy & _RAY_BIT[cell, direction, 0] != 0
                    and empty & _RAY_BIT[cell, direction, 1] != 0):
                found |= _RAY_BIT[cell, direction, 1]
            continue
        i = 0
        while empty & _RAY_BIT[cell, direction, i] != 0:
            i += 1
        if enemy & _RAY_BIT[cell, direction, i] == 0:
            continue  # the edge, or an own piece in the way
        i += 1
        while empty & _RAY_BIT[cell, direction, i] != 0:
            found |= _RAY_BIT[cell, direction, i]
            i += 1
    return found


@compiled
def _slide_targets(tile: int, cell: int, empty: int) -> int:
    found = 0
    for k in range(_TILE_DIRECTION_COUNT[tile]):
        direction = _TILE_DIRECTIONS[tile, k]
        i = 0
        while empty & _RAY_BIT[cell, direction, i] != 0:
            found |= _RAY_BIT[cell, direction, i]
            i += 1
    return found


@compiled
def _can_act(tile: int, actors: int, enemy: int, empty: int) -> bool:
    """Whether one of ``actors`` can perform ``tile``'s action (``rules._can_act``)."""
    motion = _TILE_MOTION[tile]
    while actors:
        start = lowest(actors)
        actors &= actors - 1
        if _STEP <= motion <= _SLIDE:
            if _NEXT_TO[tile, start] & empty != 0:
                return True
        elif motion != _NONE and _hop_landings(motion, tile, start, enemy, empty) != 0:
            return True
    return False


@compiled
def _emit(moves: Array, paths: Array, n: int, word: int, captured: int, first: int,
          second: int) -> int:
    """Write a placement or a shift at row ``n`` (when there is room) and count it."""
    if n < moves.shape[0]:
        moves[n, 0] = word
        moves[n, 1] = captured
        if paths.shape[0] != 0:
            paths[n, 0] = 1 if second < 0 else 2
            paths[n, 1] = first
            paths[n, 2] = second
    return n + 1


@compiled
def _chains(motion: int, tile: int, start: int, enemy: int, empty: int, moves: Array,
            paths: Array, n: int, stack: Array) -> int:
    """Write every capture chain of ``start`` from row ``n`` in canonical order and return the
    new count (``rules._short_hops``, ``rules._long_hops``).

    A depth-first walk whose landings are taken in board order, each chain before its
    extensions, lists the chains sorted as the rules want. The moving piece has left every cell
    it stood on, and captured pieces leave at once: those cells count as empty for later hops.
    ``stack`` (int64, ``(66, 5)``) holds per depth: the cell, the enemy pieces, the empty cells,
    the pieces captured so far, the landings not yet tried."""
    empty |= _BIT[start]
    stack[0, 0], stack[0, 1], stack[0, 2], stack[0, 3] = start, enemy, empty, 0
    stack[0, 4] = _hop_landings(motion, tile, start, enemy, empty)
    is_writing = paths.shape[0] != 0
    depth = 0
    while depth >= 0:
        landings = stack[depth, 4]
        if landings == 0:
            depth -= 1
            continue
        landing = lowest(landings)
        stack[depth, 4] = landings & (landings - 1)
        cell, enemy, empty = stack[depth, 0], stack[depth, 1], stack[depth, 2]
        victim = _BETWEEN[cell, landing] & enemy
        captured = stack[depth, 3] | victim
        if n < moves.shape[0]:
            moves[n, 0] = (start | CAPTURE << _KIND_SHIFT | (depth + 1) << _HOPS_SHIFT
                           | landing << _TARGET_SHIFT)
            moves[n, 1] = captured
            if is_writing:
                paths[n, 0] = depth + 2
                for i in range(depth + 1):
                    paths[n, i + 1] = stack[i, 0]
                paths[n, depth + 2] = landing
        n += 1
        enemy &= ~victim
        empty |= victim
        depth += 1
        stack[depth, 0], stack[depth, 1], stack[depth, 2], stack[depth, 3] = (
            landing, enemy, empty, captured)
        stack[depth, 4] = _hop_landings(motion, tile, landing, enemy, empty)
    return n


@compiled
def generate(light: int, dark: int, clock: int, line: Array, moves: Array, paths: Array,
             at: int = 0) -> int:
    """Write the legal moves of a position that is not over into ``moves`` (int64, rows of word
    and captured mask) in the rules' canonical order, their cells into ``paths`` (int8, rows of
    :data:`PATH_WIDTH`; give it no rows to skip them), and return how many there are. Moves past
    the end of ``moves`` are counted, not written: a count above its rows asks for more room.
    The line of tiles begins at ``line[at]`` (the shared searches' arrays hold it after the
    position's three words)."""
    mover = mover_of(clock)
    own, enemy = (dark, light) if mover else (light, dark)
    placed = clock >> PLACED_SHIFT
    n = 0
    if placed == NO_CELL:
        targets = placeable(light, dark, mover)
        while targets:
            cell = lowest(targets)
            targets &= targets - 1
            n = _emit(moves, paths, n, cell, 0, cell, -1)
        return n
    round_ = clock & _ROUND_MASK
    tile = line[at + TURNS_PER_ROUND * (round_ - 1) + (clock >> _DRAWN_SHIFT & 15) - 1]
    motion = _TILE_MOTION[tile]
    empty = ~(light | dark)
    actors = own if round_ >= ANY_PIECE_FROM_ROUND else _BIT[placed]
    stack = np.empty((CELL_COUNT + 2 if motion >= _SHORT else 0, 5), dtype=np.int64)
    while actors:
        start = lowest(actors)
        actors &= actors - 1
        if _STEP <= motion <= _SLIDE:
            targets = (_NEXT_TO[tile, start] & empty if motion == _STEP
                       else _slide_targets(tile, start, empty))
            while targets:
                target = lowest(targets)
                targets &= targets - 1
                word = start | SHIFT << _KIND_SHIFT | 1 << _HOPS_SHIFT | target << _TARGET_SHIFT
                n = _emit(moves, paths, n, word, 0, start, target)
        elif motion != _NONE:
            n = _chains(motion, tile, start, enemy, empty, moves, paths, n, stack)
    return n


@compiled
def _end_turn(light: int, dark: int, round_: int, drawn: int) -> tuple[int, int, int]:
    """Close an action turn: the next turn, or the next round once 9 tiles are out."""
    if drawn == TURNS_PER_ROUND and round_ < ROUNDS:
        return light, dark, make_clock(round_ + 1, 0, 0, NO_CELL)
    return light, dark, make_clock(round_, OPENING_PLACEMENTS, drawn, NO_CELL)


@compiled
def apply(light: int, dark: int, clock: int, line: Array, word: int,
          captured: int, at: int = 0) -> tuple[int, int, int, int]:
    """Play a legal move (its ``word`` and ``captured`` mask) and return ``(light, dark, clock,
    event)``, ``event`` saying what became of the tiles' outcomes (:data:`PENDING`...); the
    line of tiles begins at ``line[at]``."""
    mover = mover_of(clock)
    round_ = clock & _ROUND_MASK
    openings = clock >> _OPENINGS_SHIFT & 7
    drawn = clock >> _DRAWN_SHIFT & 15
    source = word & SOURCE_MASK
    if openings < OPENING_PLACEMENTS:
        if mover:
            return light, dark | _BIT[source], make_clock(round_, openings + 1, 0, NO_CELL), NOTHING
        return light | _BIT[source], dark, make_clock(round_, openings + 1, 0, NO_CELL), NOTHING
    if clock >> PLACED_SHIFT == NO_CELL:
        # Place, reveal the next tile, then apply what needs no choice (§3.3).
        own, enemy = (dark, light) if mover else (light, dark)
        with_piece = own | _BIT[source]
        tile = line[at + TURNS_PER_ROUND * (round_ - 1) + drawn]
        drawn += 1
        if tile == BLANK:
            event = BLANK_TILE
            own = with_piece
        else:
            actors = with_piece if round_ >= ANY_PIECE_FROM_ROUND else _BIT[source]
            if not _can_act(tile, actors, enemy, ~(with_piece | enemy)):
                event = REMOVED  # compulsory, impossible: the piece just placed goes
            else:
                pending = make_clock(round_, OPENING_PLACEMENTS, drawn, source)
                if mover:
                    return light, with_piece, pending, PENDING
                return with_piece, dark, pending, PENDING
        if mover:
            light, dark, clock = _end_turn(enemy, own, round_, drawn)
        else:
            light, dark, clock = _end_turn(own, enemy, round_, drawn)
        return light, dark, clock, event
    target = word >> _TARGET_SHIFT & SOURCE_MASK
    if mover:
        light, dark, clock = _end_turn(light & ~captured, (dark & ~_BIT[source]) | _BIT[target],
                                       round_, drawn)
    else:
        light, dark, clock = _end_turn((light & ~_BIT[source]) | _BIT[target], dark & ~captured,
                                       round_, drawn)
    return light, dark, clock, ACTION


# -- playouts and perft ----------------------------------------------------------------------------
@compiled
def playout(light: int, dark: int, clock: int, line: Array, moves: Array, paths: Array,
            trail: Array, rng: Array, keeps_territory: bool = False,
            at: int = 0) -> tuple[int, int, int, int]:
    """Play uniformly random moves until the game ends; return ``(plies, light, dark, clock)``,
    the index of each move played (in its position's legal moves) left in ``trail``. A position
    with more moves than ``moves`` has rows stops the game: ``plies`` is then ``-1`` (play it
    again with more room, from the same ``rng``). ``paths`` may have no rows.

    With ``keeps_territory`` a placement never fills the mover's own territory while it has
    another cell to place on, as a Go playout never fills its own eyes: random placements would
    otherwise make territory, which decides the game first, a matter of chance (``trail`` then
    holds indexes among the cells left). The line of tiles begins at ``line[at]``."""
    plies = 0
    while True:
        if clock >> PLACED_SHIFT == NO_CELL:
            if clock & _ROUND_MASK == ROUNDS and clock >> _DRAWN_SHIFT & 15 == TURNS_PER_ROUND:
                break
            mover = mover_of(clock)
            targets = placeable(light, dark, mover)
            if targets == 0:
                break
            if keeps_territory:
                own, other = (dark, light) if mover else (light, dark)
                elsewhere = targets & ~territory_mask(own, other)
                if elsewhere != 0:
                    targets = elsewhere
            # The placements are the cells of ``targets`` in board order: draw one directly.
            index = rng_below(rng, count(targets))
            for _ in range(index):
                targets &= targets - 1
            word = lowest(targets)
            captured = 0
        else:
            n = generate(light, dark, clock, line, moves, paths, at)
            if n > moves.shape[0]:
                return -1, light, dark, clock
            if n == 0:
                raise ValueError("imbrication kernel: no action in a position that awaits one")
            index = rng_below(rng, n)
            word = moves[index, 0]
            captured = moves[index, 1]
        if plies >= trail.shape[0]:
            raise IndexError("imbrication kernel: playout trail full")
        trail[plies] = index
        light, dark, clock, _ = apply(light, dark, clock, line, word, captured, at)
        plies += 1
    return plies, light, dark, clock


@compiled
def run_playouts(light: int, dark: int, clock: int, line: Array, n: int, seed: np.uint64,
                 room: int) -> tuple[Array, int, Array, bool]:
    """``n`` random playouts from a position that is not over: wins per player, draws, lengths,
    and whether every position fitted in ``room`` moves (if not, the batch stops: play it again
    with more)."""
    wins = np.zeros(2, dtype=np.int64)
    lengths = np.empty(n, dtype=np.int64)
    draws = 0
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    moves = np.empty((room, 2), dtype=np.int64)
    paths = np.empty((0, PATH_WIDTH), dtype=np.int8)
    trail = np.empty(MAX_PLIES, dtype=np.int64)
    for i in range(n):
        plies, end_light, end_dark, _ = playout(light, dark, clock, line, moves, paths, trail, rng)
        if plies < 0:
            return wins, draws, lengths, False
        lengths[i] = plies
        winner = score(end_light, end_dark)[2]
        if winner < 0:
            draws += 1
        else:
            wins[winner] += 1
    return wins, draws, lengths, True


@compiled
def _trace(light: int, dark: int, clock: int, line: Array, seed: np.uint64,
           room: int) -> tuple[Array, int, int, int, int]:
    """The first playout of ``run_playouts`` with ``seed``: its trail, plies (``-1``: more room),
    and end."""
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    moves = np.empty((room, 2), dtype=np.int64)
    paths = np.empty((0, PATH_WIDTH), dtype=np.int8)
    trail = np.empty(MAX_PLIES, dtype=np.int64)
    plies, light, dark, clock = playout(light, dark, clock, line, moves, paths, trail, rng)
    return trail, plies, light, dark, clock


@compiled
def perft_count(light: int, dark: int, clock: int, line: Array, depth: int, moves: Array,
                paths: Array) -> int:
    """Positions reached after exactly ``depth`` ≥ 1 plies (games that end sooner stop there);
    ``moves`` is a ``(depth, room, 2)`` int64 buffer; ``-1`` when some position needs more room."""
    row = moves[depth - 1]
    n = generate(light, dark, clock, line, row, paths)
    if n > row.shape[0]:
        return -1
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        after_light, after_dark, after_clock, _ = apply(light, dark, clock, line, row[i, 0],
                                                        row[i, 1])
        if not finished(after_light, after_dark, after_clock):
            below = perft_count(after_light, after_dark, after_clock, line, depth - 1, moves,
                                paths)
            if below < 0:
                return -1
            total += below
    return total


# -- Python side: moves as codes and text ----------------------------------------------------------
def _path_code(kind: int, cells: list[int] | tuple[int, ...]) -> int:
    code = cells[0] | kind << _KIND_SHIFT | (len(cells) - 1) << _HOPS_SHIFT
    for i, cell in enumerate(cells[1:]):
        code |= cell << (_TARGET_SHIFT + _CELL_BITS * i)
    return code


def from_plain_move(move: Move) -> int:
    """The kernel's code of a plain engine ``Move``."""
    kind = CAPTURE if move.is_capture else PLACE if move.is_placement else SHIFT
    return _path_code(kind, move.cells)


def to_plain_move(code: int) -> Move:
    """The plain engine's ``Move`` of a kernel code."""
    kind = code >> _KIND_SHIFT & 3
    hops = code >> _HOPS_SHIFT & 63
    cells = (code & SOURCE_MASK,
             *(code >> (_TARGET_SHIFT + _CELL_BITS * i) & SOURCE_MASK for i in range(hops)))
    if kind == PLACE:
        return PLACEMENTS[cells[0]]
    if kind == SHIFT:
        return SHIFTS[cells[0], cells[1]]
    return Move(cells, True)


def move_code(text: str) -> int:
    """The kernel's code of a move written in notation (syntax only, as ``Move.from_text``;
    raises ``InvalidMoveError``)."""
    return from_plain_move(Move.from_text(text))


def move_text(code: int) -> str:
    """A kernel move in the notation of the rules file."""
    return str(to_plain_move(code))


# -- Python side: positions ------------------------------------------------------------------------
@lru_cache(maxsize=1024)
def _line(orders: tuple[tuple[int, ...], tuple[int, ...]]) -> Array:
    """The tile of every turn of a game with these orders (``rules.line_tile``)."""
    return np.array(
        [line_tile(orders, round_, turn) for round_ in range(1, ROUNDS + 1)
         for turn in range(TURNS_PER_ROUND)],
        dtype=np.int64,
    )


@dataclass(frozen=True)
class Position:
    """An Imbrication position as the kernel holds it: the pieces (unsigned masks, as
    ``ImbricationState.pieces``), the turn's counters, both tile orders (tile indexes) and the
    outcome of every tile drawn (``ImbricationState.outcomes``)."""

    light: int
    dark: int
    round: int
    openings: int
    drawn: int
    placed: int | None
    orders: tuple[tuple[int, ...], tuple[int, ...]]
    outcomes: tuple[str, ...]
    ply: int

    @property
    def words(self) -> tuple[int, int, int]:
        """``(light, dark, clock)`` as compiled code takes them."""
        placed = NO_CELL if self.placed is None else self.placed
        clock = self.round | self.openings << _OPENINGS_SHIFT | self.drawn << _DRAWN_SHIFT
        return _signed(self.light), _signed(self.dark), clock | placed << PLACED_SHIFT

    @property
    def line(self) -> Array:
        """The tile of every turn (int64, :data:`LINE_LENGTH`); do not write to it."""
        return _line(self.orders)

    @property
    def is_over(self) -> bool:
        require()
        return bool(finished(*self.words))

    @property
    def to_move(self) -> int | None:
        """The player to move, ``None`` once the game is over."""
        return None if self.is_over else int(mover_of(self.words[2]))

    def result(self) -> Result:
        """The plain engine's ``Result``; raises ``ValueError`` while the game goes on."""
        if not self.is_over:
            raise ValueError("imbrication kernel: the game is not over")
        first, second, winner, reason = score(*self.words[:2])
        return Result(() if winner < 0 else (int(winner),), (int(first), int(second)),
                      REASONS[reason])


def from_state(state: ImbricationState) -> Position:
    """The kernel's position of a plain engine state (a full state: a determinization, or the
    server's)."""
    orders = (
        tuple(TILES.index(state.tile_at(1, turn)) for turn in range(TURNS_PER_ROUND)),
        tuple(TILES.index(state.tile_at(ANY_PIECE_FROM_ROUND, turn))
              for turn in range(TURNS_PER_ROUND)),
    )
    return Position(state.pieces(0), state.pieces(1), state.round, state.opening_placements,
                    state.tiles_drawn, state.placed, orders, state.outcomes, state.ply)


def _diagram(light: int, dark: int) -> list[str]:
    return [
        "".join("L" if light >> c & 1 else "D" if dark >> c & 1 else "." for c in
                range(rank * SIZE, rank * SIZE + SIZE))
        for rank in range(SIZE - 1, -1, -1)
    ]


def to_state(position: Position, game: ImbricationGame | None = None) -> ImbricationState:
    """The plain engine's state of a kernel position (through ``state_from_json``)."""
    game = game or ImbricationGame()
    return game.state_from_json({
        "game": "imbrication", "variant": game.variant, "players": 2,
        "board": _diagram(position.light, position.dark), "round": position.round,
        "openings": position.openings, "drawn": position.drawn,
        "placed": None if position.placed is None else NAMES[position.placed],
        "order1": [TILES[t] for t in position.orders[0]],
        "order4": [TILES[t] for t in position.orders[1]],
        "outcomes": list(position.outcomes), "ply": position.ply,
        "result": position.result().to_json() if position.is_over else None,
    })


def generated(position: Position) -> tuple[Array, Array, int]:
    """The position's moves (words and captured masks), their paths and their number."""
    light, dark, clock = position.words
    room = MOVE_ROOM
    while True:
        moves = np.empty((room, 2), dtype=np.int64)
        paths = np.empty((room, PATH_WIDTH), dtype=np.int8)
        n = int(generate(light, dark, clock, position.line, moves, paths))
        if n <= room:
            return moves, paths, n
        room = n


def codes_of(moves: Array, paths: Array, n: int) -> list[int]:
    codes = []
    for row, path in zip(moves[:n, 0].tolist(), paths[:n].tolist(), strict=True):
        codes.append(row if path[0] <= 2 else _path_code(CAPTURE, path[1 : path[0] + 1]))
    return codes


_NO_MOVES = (np.empty((0, 2), dtype=np.int64), np.empty((0, PATH_WIDTH), dtype=np.int8), 0)


def legal_moves(position: Position) -> list[int]:
    """The legal moves' codes in canonical order; empty once the game is over."""
    require()
    if position.is_over:
        return []
    moves, paths, n = generated(position)
    return codes_of(moves, paths, n)


def after_word(position: Position, word: int, captured: int) -> Position:
    light, dark, clock, event = apply(*position.words, position.line, word, captured)
    placed = clock >> PLACED_SHIFT
    outcomes = position.outcomes
    if event == ACTION:
        outcomes = (*outcomes[:-1], "action")
    elif event != NOTHING:
        outcomes = (*outcomes, ("", "pending", "blank", "removed")[event])
    return Position(
        light & FULL, dark & FULL, clock & _ROUND_MASK, clock >> _OPENINGS_SHIFT & 7,
        clock >> _DRAWN_SHIFT & 15, None if placed == NO_CELL else int(placed), position.orders,
        outcomes, position.ply + 1,
    )


def play(position: Position, move: int) -> Position:
    """The position after the move of code ``move``; raises ``ValueError`` if it is not legal."""
    require()
    if not position.is_over:
        moves, paths, n = generated(position)
        codes = codes_of(moves, paths, n)
        if move in codes:
            index = codes.index(move)
            return after_word(position, int(moves[index, 0]), int(moves[index, 1]))
    raise ValueError(f"imbrication kernel: move {move_text(move)!r} is not legal at ply "
                     f"{position.ply}")


def _position(state: ImbricationState | Position) -> Position:
    require()
    return state if isinstance(state, Position) else from_state(state)


def playouts(state: ImbricationState | Position, n: int, seed: int = 0) -> Playouts:
    """``n`` uniformly random playouts from ``state`` (a full state: its tiles are the ones
    played), all in compiled code; the same seed gives the same playouts. Of a finished game:
    its result ``n`` times, length 0."""
    position = _position(state)
    if position.is_over:
        return finished_playouts(position.result().winners, 2, n)
    return with_room(lambda room: run_playouts(*position.words, position.line, n, np.uint64(seed % 2**64),
                                               room), MOVE_ROOM)


def _traced(position: Position, seed: int) -> tuple[list[int], tuple[int, int, int]]:
    """The move indexes of :func:`trace_playout` and the end as compiled code reached it."""
    room = MOVE_ROOM
    while True:
        trail, plies, light, dark, clock = _trace(*position.words, position.line,
                                                  np.uint64(seed % 2**64), room)
        if plies >= 0:
            return [int(i) for i in trail[:plies]], (int(light), int(dark), int(clock))
        room *= 4


def trace_playout(state: ImbricationState | Position,
                  seed: int = 0) -> tuple[list[int], Position]:
    """The moves of one random playout as the compiled loop plays it (the first of
    ``playouts(state, 1, seed)``), and the final position."""
    position = _position(state)
    if position.is_over:
        return [], position
    indexes, _ = _traced(position, seed)
    codes: list[int] = []
    for index in indexes:
        moves, paths, n = generated(position)
        codes.append(codes_of(moves, paths, n)[index])
        position = after_word(position, int(moves[index, 0]), int(moves[index, 1]))
    return codes, position


def perft(depth: int, state: ImbricationState | Position | None = None, seed: int = 0) -> int:
    """Positions reached after exactly ``depth`` plies from ``state`` (default: the start of the
    game of ``seed``), games that end sooner not counted beyond their end."""
    if state is None:
        state = ImbricationGame().new_state(seed=seed)
    position = _position(state)
    if depth == 0:
        return 1
    if position.is_over:
        return 0
    room = 1024
    paths = np.empty((0, PATH_WIDTH), dtype=np.int8)
    while True:
        moves = np.empty((depth, room, 2), dtype=np.int64)
        nodes = int(perft_count(*position.words, position.line, depth, moves, paths))
        if nodes >= 0:
            return nodes
        room *= 4


# -- agreement with the plain engine ---------------------------------------------------------------
def compare_with_plain(game: Game | str, games: int, seed: int = 0) -> Agreement:
    """Play ``games`` random games with the kernel and the plain engine side by side; at every
    ply compare the ordered legal moves (as text), the position (counters, tile orders and
    outcomes) and the end of the game and its result; raise :class:`KernelMismatchError` at the
    first difference.

    Game ``i`` starts from ``new_state(seed + i)`` (its own tile orders) and follows the kernel's
    own random playout of seed ``seed + i``, so its compiled loop is checked too."""
    require()
    if isinstance(game, str):
        game = ImbricationGame(game)
    assert isinstance(game, ImbricationGame)
    plies = compared = 0
    endings: dict[str, int] = {}
    for number in range(games):
        state = game.new_state(seed=seed + number)
        position = from_state(state)
        trail, end = _traced(position, seed + number)
        where = f"imbrication/{game.variant} game {number} (seed {seed + number})"
        while True:
            legal = state.legal_moves()
            plain = [str(m) for m in legal]
            moves, paths, n = generated(position) if not position.is_over else _NO_MOVES
            codes = codes_of(moves, paths, n)
            texts = [move_text(c) for c in codes]
            if plain != texts:
                raise KernelMismatchError(f"{where} ply {state.ply}: plain {plain} kernel {texts}")
            if from_state(state) != position:
                raise KernelMismatchError(f"{where} ply {state.ply}: {from_state(state)} {position}")
            compared += n
            if state.is_over:
                break
            if not trail or not 0 <= trail[0] < n:
                raise KernelMismatchError(f"{where} ply {state.ply}: playout move not legal")
            index = trail.pop(0)
            state = state.play(legal[index])
            position = after_word(position, int(moves[index, 0]), int(moves[index, 1]))
            plies += 1
            if state.is_over != position.is_over or (
                state.is_over and state.result() != position.result()
            ):
                raise KernelMismatchError(f"{where} ply {state.ply}: results differ: "
                                          f"{state.result() if state.is_over else None} vs "
                                          f"{position.result() if position.is_over else None}")
        light, dark, clock = position.words
        if trail or end != (light, dark, clock):
            raise KernelMismatchError(f"{where}: the compiled playout ended elsewhere")
        if to_state(position, game).to_json() != state.to_json():
            raise KernelMismatchError(f"{where}: to_state differs from the plain state")
        reason = state.result().reason
        endings[reason] = endings.get(reason, 0) + 1
    return Agreement(f"imbrication/{game.variant}/{game.players}", games, plies, compared, endings)


def random_position(seed: int, plies: int) -> ImbricationState:
    """The plain state after ``plies`` uniformly random moves (or the end, if sooner) of the
    game of ``seed``: positions for tests and benchmarks."""
    rng = random.Random(seed)
    state = ImbricationGame().new_state(seed=seed)
    while not state.is_over and state.ply < plies:
        state = state.play(rng.choice(state.legal_moves()))
    return state

