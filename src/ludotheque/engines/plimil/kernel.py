"""Plimil compiled kernel: the rules of ``rules.py`` on plain integers, compiled with Numba.

The plain engine (``rules.py``) stays the readable reference; this module says the same rules again
for speed, and :func:`compare_with_plain` checks, ply by ply, that both agree. Where Numba cannot
be imported, this module still imports, :data:`AVAILABLE` is false and its public functions raise
``RuntimeError``: callers then use the plain engine. Each kernel compiles on its first call and is
cached on disk (``cache=True``), so importing this module compiles nothing.

The kernel plays **full states**, secrets included (a search plays the determinizations that
``PlimilState.determinize`` draws); it computes no view.

**The position**, in compiled code, is one int64 array of :data:`SIZE` entries (see the ``_``
offsets below): the block on each of the 64 squares (``-1`` where none), each block's balls (packed
``bottom | middle << 2 | top << 4``, ``-1`` until built), times turned over, shown colour and shown
slots, the two players' hands, the squares showing blue, red and neutral as bit masks, the counts,
the tall and public stems as bit masks, then the scalars (rotation, mover, passes, quiet plies,
ply, setup stage, board key, variant). A move is made in place by :func:`apply`; a search copies
the array (``stack[d + 1] = stack[d]``) and plays on the copy (copy-make: no unmake) with
:func:`step`, which also counts the position seen and says whether the game ended; it takes the
move back by dropping the copy and popping the slot :func:`step` returned.

**A move** is one integer (see :func:`move_code`): a play move is ``origin | landing << 6 |
captured << 12`` plus the flag ``CAPTURE``, ``TURN_CW`` or ``TURN_CCW``; ``PASS``; ``STEMS |
letters | count << 12`` (bit ``i`` of ``letters``: the ``i``-th letter is ``T``); ``BLOCK | origin |
balls << 6`` (balls packed as above).

**The position key** for the draw by repetition and a transposition table is a 63-bit Zobrist
hash of what the rules compare (every block's square and turned-over parity, the net rotation,
the player to move: no secret, so every determinization of a state has the same positions seen).
Two positions share a key with probability 2⁻⁶³: a false repetition is astronomically rare. The
plain engine keys its table by the exact position code instead, and :class:`Position` keeps
those exact keys (:func:`plain_key`), so the two can be compared.

**The search** for the bots, :func:`ismcts` (information-set MCTS over the worlds a bot drew
with ``determinize``), lives in ``search.py``, which imports this module (never the reverse).

>>> move_text(move_code("D3-d4 xE4")), move_text(move_code("e5-d4@ccw"))
('d3-d4xe4', 'e5-d4@ccw')
>>> code = move_code("block d1 BNR")
>>> code == BLOCK | 3 | (0 | 2 << 2 | 1 << 4) << 6, move_text(code)
(True, 'block d1 BNR')
>>> move_text(move_code("stems STSTTSST")), move_code("pass") == PASS
('stems STSTTSST', True)
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.contract import JSON, Game, Result
from ..compiled import AVAILABLE as AVAILABLE  # whether the kernel runs here (Numba imports)
from ..compiled import (
    Agreement,
    Array,
    KernelMismatchError,
    Playouts,
    compiled,
    finished_playouts,
    lowest,
    require,
    rng_below,
    seen_pop,
    seen_push,
    with_room,
)
from ..compiled import seen_table as compiled_seen_table
from .board import (
    BACK_DIAGONALS,
    BALL_LETTERS,
    BLOCK_COUNT,
    BLOCK_OF_START,
    BLOCK_START,
    BLOCKS_PER_PLAYER,
    BLUE,
    CCW,
    CELLS,
    CW,
    FILE_FLANKS,
    INDEX,
    NAMES,
    NEUTRAL,
    NO_SQUARE,
    PLANTED,
    QUIET_LIMIT,
    RANK_FLANKS,
    RED,
    REPETITION_LIMIT,
    ROTATE,
    START_CELLS,
    STEPS,
    SUPPLY,
    VARIANTS,
    WINDOW,
)
from .notation import PASS as PLAIN_PASS
from .notation import Move
from .rules import SETUP_MOVES_PER_PLAYER, SETUP_PLIES, SEVEN, STEM_MOVES, TRIPLES, PlimilGame, PlimilState

# -- constants -------------------------------------------------------------------------------------
CAPTURE = 1 << 18
"""Flag of a play move that captures the block on its ``captured`` square (bits 12-17)."""
TURN_CW = 1 << 19
"""Flag of a play move that turns the board a quarter clockwise."""
TURN_CCW = 1 << 20
"""Flag of a play move that turns the board a quarter anticlockwise."""
PASS = 1 << 21
"""The move ``pass``."""
STEMS = 1 << 22
"""Kind bit of a ``stems`` move: ``STEMS | letters | count << 12``."""
BLOCK = 1 << 23
"""Kind bit of a ``block`` move: ``BLOCK | origin | balls << 6``."""

ONGOING, RULE_OF_7, TWO_PASSES, REPETITION, HUNDRED_PLIES = 0, 1, 2, 3, 4
"""Outcomes after a play move, tested in the rules' order."""
REASONS = {RULE_OF_7: "rule_of_7", TWO_PASSES: "two_passes", REPETITION: "repetition",
           HUNDRED_PLIES: "hundred_plies"}
_OUTCOMES = {reason: code for code, reason in REASONS.items()}

VARIANT_CODES: dict[str, int] = {variant: code for code, variant in enumerate(VARIANTS)}
"""Each variant's number in the kernel (its index in ``board.VARIANTS``)."""

MAX_MOVES = 512
"""Room in a move buffer; generation raises ``IndexError`` rather than write past it. A play
position has at most 360 moves (24 blocks, each with at most 3 two-stem moves and 3 one-stem
landings of 2 captures and 2 rotations), the setup at most 252 (``stems`` in ``setup10``)."""
PLAYOUT_ROOM = 1024
"""Plies a random playout has room for at first (the longest of 100,000 random games from the
start: 183 plies, setup included); a longer one is played again with more room, the same way."""

# Offsets in the position array.
_CELLS = 0  # 64: the block on each square, -1 where none
_BALLS = 64  # 24: balls as built, packed bottom | middle << 2 | top << 4; -1 until built
_FLIPS = 88  # 24: times turned over
_COLOUR = 112  # 24: colour shown (BLUE, RED, NEUTRAL), -1 until built
_KNOWN = 136  # 24: built slots seen by everyone (3-bit mask)
_HAND = 160  # 6: balls not yet built, 3 per player (blue, red, neutral)
_SHOWS = 166  # 3: squares whose block shows blue, red, neutral
_COUNTS = 169  # 3: blocks showing blue, red, neutral
_TALL = 172
_PUBLIC = 173
_ROTATION = 174
_MOVER = 175
_PASSES = 176
_QUIET = 177
_PLY = 178
_STAGE = 179  # setup plies done (0-25), SETUP_PLIES once play has begun
_BOARD_KEY = 180  # Zobrist hash of the blocks (square, block, parity), without rotation and mover
_VARIANT = 181
SIZE = 182
"""Entries of a position array."""

_SQUARE_MASK = 63

# -- geometry tables, built from board.py and rules.py (one data source) -----------------------------
_CELL_SQUARES = np.array(CELLS, dtype=np.int64)
_WINDOW = np.array(WINDOW, dtype=np.int64)
_START = np.array(START_CELLS, dtype=np.int64)
_BLOCK_OF = np.array([BLOCK_OF_START.get(s, -1) for s in range(64)], dtype=np.int64)
# _ROTATED[0][s]: where square s goes under a clockwise quarter turn; [1]: anticlockwise.
_ROTATED = np.array([ROTATE[CW], ROTATE[CCW]], dtype=np.int64)


def _pack_balls(triple: tuple[int, int, int]) -> int:
    return triple[0] | triple[1] << 2 | triple[2] << 4


def _unpack_balls(packed: int) -> tuple[int, int, int]:
    return packed & 3, packed >> 2 & 3, packed >> 4 & 3


_TRIPLES = np.array([_pack_balls(t) for t in TRIPLES], dtype=np.int64)  # ASCII order of the text
_TRIPLE_USES = np.array([[t.count(b) for b in (BLUE, RED, NEUTRAL)] for t in TRIPLES], dtype=np.int64)


def _steps_tables() -> tuple[Array, Array, Array]:
    """``land[p, s, :n[p, s]]``, ``jump[...]``: a block of player ``p``'s colour on ``s`` moves
    (``board.STEPS``, by landing); ``jump`` is the square jumped over, ``-1`` for one stem."""
    land = np.zeros((2, 64, 6), dtype=np.int64)
    jump = np.zeros((2, 64, 6), dtype=np.int64)
    n = np.zeros((2, 64), dtype=np.int64)
    for player in (BLUE, RED):
        for s in range(64):
            steps = STEPS[player][s]
            n[player, s] = len(steps)
            for k, (landing, jumped) in enumerate(steps):
                land[player, s, k] = landing
                jump[player, s, k] = jumped if jumped != NO_SQUARE else -1
    return land, jump, n


def _flank_tables(flanks: list[list[tuple[int, int]]]) -> tuple[Array, Array, Array]:
    """``captured[s, :n[s]]``, ``destination[...]``: the captures of a block landing on ``s``."""
    captured = np.zeros((64, 2), dtype=np.int64)
    destination = np.zeros((64, 2), dtype=np.int64)
    n = np.zeros(64, dtype=np.int64)
    for s in range(64):
        n[s] = len(flanks[s])
        for k, (c, d) in enumerate(flanks[s]):
            captured[s, k], destination[s, k] = c, d
    return captured, destination, n


def _back_tables() -> tuple[Array, Array]:
    """``land[p, s, :n[p, s]]``: where player ``p`` may move a neutral on ``s``."""
    land = np.zeros((2, 64, 2), dtype=np.int64)
    n = np.zeros((2, 64), dtype=np.int64)
    for player in (BLUE, RED):
        for s in range(64):
            n[player, s] = len(BACK_DIAGONALS[player][s])
            land[player, s, : n[player, s]] = BACK_DIAGONALS[player][s]
    return land, n


def _setup_tables() -> tuple[Array, Array, Array, Array]:
    """Per variant: the cells each player plants (in letter order) and the ``stems`` moves' codes
    in canonical order."""
    planted = np.zeros((len(VARIANTS), 2, 10), dtype=np.int64)
    planted_n = np.zeros((len(VARIANTS), 2), dtype=np.int64)
    stems = np.zeros((len(VARIANTS), 252), dtype=np.int64)
    stems_n = np.zeros(len(VARIANTS), dtype=np.int64)
    for variant, code in VARIANT_CODES.items():
        for player in (BLUE, RED):
            cells = PLANTED[variant][player]
            planted_n[code, player] = len(cells)
            planted[code, player, : len(cells)] = cells
        moves = [from_plain_move(move) for move in STEM_MOVES[variant]]
        stems_n[code] = len(moves)
        stems[code, : len(moves)] = moves
    return planted, planted_n, stems, stems_n


def _zobrist_tables() -> tuple[Array, Array, Array]:
    """63-bit random numbers (fixed): a block (and its parity) on a square, the rotation, the
    player to move. Non-negative, so that a key is never ``-1`` (an empty slot of the seen table)."""
    rng = random.Random(0x504C494D494C)
    pieces = np.array([[rng.getrandbits(63) for _ in range(2 * BLOCK_COUNT)] for _ in range(64)],
                      dtype=np.int64)
    rotations = np.array([0] + [rng.getrandbits(63) for _ in range(3)], dtype=np.int64)
    movers = np.array([0, rng.getrandbits(63)], dtype=np.int64)
    return pieces, rotations, movers


# -- moves as integers (Python: notation in and out) ---------------------------------------------------
def from_plain_move(move: Move) -> int:
    """The kernel's code of a plain engine ``Move``."""
    if move.kind == "pass":
        return PASS
    if move.kind == "stems":
        letters = sum(1 << i for i, letter in enumerate(move.letters) if letter == "T")
        return STEMS | letters | len(move.letters) << 12
    if move.kind == "block":
        return BLOCK | move.origin | _pack_balls(_triple_of(move.letters)) << 6
    code = move.origin | move.landing << 6
    if move.captured != NO_SQUARE:
        return code | move.captured << 12 | CAPTURE
    if move.turn:
        return code | (TURN_CW if move.turn == CW else TURN_CCW)
    return code


def to_plain_move(code: int) -> Move:
    """The plain engine's ``Move`` of a kernel code."""
    if code == PASS:
        return PLAIN_PASS
    if code & STEMS:
        count = code >> 12 & 15
        return Move("stems", letters="".join("T" if code >> i & 1 else "S" for i in range(count)))
    if code & BLOCK:
        balls = _unpack_balls(code >> 6 & 63)
        return Move("block", code & _SQUARE_MASK, letters="".join(BALL_LETTERS[b] for b in balls))
    origin, landing = code & _SQUARE_MASK, code >> 6 & _SQUARE_MASK
    if code & CAPTURE:
        return Move("play", origin, landing, code >> 12 & _SQUARE_MASK)
    turn = CW if code & TURN_CW else CCW if code & TURN_CCW else 0
    return Move("play", origin, landing, turn=turn)


def move_code(text: str) -> int:
    """The kernel's code of a move written in notation (syntax only, as ``Move.from_text``;
    raises ``InvalidMoveError``)."""
    return from_plain_move(Move.from_text(text))


def move_text(code: int) -> str:
    """A kernel move in the notation of the rules file."""
    return str(to_plain_move(code))


def _triple_of(letters: str) -> tuple[int, int, int]:
    a, b, c = (BALL_LETTERS.index(letter) for letter in letters)
    return a, b, c


_STEP_LAND, _STEP_JUMP, _STEP_N = _steps_tables()
_RANK_CAPTURED, _RANK_DESTINATION, _RANK_N = _flank_tables(RANK_FLANKS)
_FILE_CAPTURED, _FILE_DESTINATION, _FILE_N = _flank_tables(FILE_FLANKS)
_BACK_LAND, _BACK_N = _back_tables()
_PLANTED, _PLANTED_N, _STEM_CODES, _STEM_N = _setup_tables()
_ZOBRIST, _ZOBRIST_ROTATION, _ZOBRIST_MOVER = _zobrist_tables()
_ZOBRIST_VALUES: list[list[int]] = _ZOBRIST.tolist()


# -- the position ------------------------------------------------------------------------------------
@compiled
def position_key(pos: Array) -> int:
    """The position's 63-bit key: blocks, parities, rotation and player to move (the rules'
    "same position"); equal positions have equal keys, unequal ones almost surely not."""
    return int(pos[_BOARD_KEY] ^ _ZOBRIST_ROTATION[pos[_ROTATION]] ^ _ZOBRIST_MOVER[pos[_MOVER]])


@compiled
def _emit(moves: Array, n: int, move: int) -> int:
    if n >= moves.shape[0]:
        raise IndexError("plimil kernel: move buffer full")
    moves[n] = move
    return n + 1


@compiled
def _setup_moves(pos: Array, moves: Array) -> int:
    """The setup's moves (``rules._setup_moves``): the ``stems`` move, or the blocks the hand
    allows on the next start cell with the owner's colour in the window."""
    stage = pos[_STAGE]
    player = 0 if stage < SETUP_MOVES_PER_PLAYER else 1
    number = stage - player * SETUP_MOVES_PER_PLAYER  # 0: the stems, i: the i-th block
    n = 0
    if number == 0:
        variant = pos[_VARIANT]
        for i in range(_STEM_N[variant]):
            n = _emit(moves, n, _STEM_CODES[variant, i])
        return n
    cell = _START[player, number - 1]
    slot = _WINDOW[pos[_TALL] >> cell & 1, 0]
    hand = _HAND + 3 * player
    still_to_build = BLOCKS_PER_PLAYER - number
    for t in range(_TRIPLES.shape[0]):
        packed = _TRIPLES[t]
        if packed >> (2 * slot) & 3 != player:
            continue
        if (_TRIPLE_USES[t, 0] > pos[hand] or _TRIPLE_USES[t, 1] > pos[hand + 1]
                or _TRIPLE_USES[t, 2] > pos[hand + 2]):
            continue
        if pos[hand + player] - _TRIPLE_USES[t, player] >= still_to_build:
            n = _emit(moves, n, BLOCK | cell | packed << 6)
    return n


@compiled
def generate(pos: Array, moves: Array) -> int:
    """Write the legal moves of the position into ``moves`` (int32, from index 0) in the rules'
    canonical order and return how many; the game must not be over."""
    if pos[_STAGE] < SETUP_PLIES:
        return _setup_moves(pos, moves)
    mover = pos[_MOVER]
    own = pos[_SHOWS + mover]
    opponent = pos[_SHOWS + 1 - mover]
    neutral = pos[_SHOWS + NEUTRAL]
    occupied = own | opponent | neutral
    may_turn = neutral != 0
    n = 0
    origins = own | neutral
    while origins:
        origin = lowest(origins)
        origins &= origins - 1
        if own >> origin & 1:
            for k in range(_STEP_N[mover, origin]):
                landing = _STEP_LAND[mover, origin, k]
                if occupied >> landing & 1:
                    continue
                head = origin | landing << 6
                jumped = _STEP_JUMP[mover, origin, k]
                if jumped >= 0:
                    if not occupied >> jumped & 1:
                        n = _emit(moves, n, head)
                    continue
                for j in range(_RANK_N[landing]):
                    captured = _RANK_CAPTURED[landing, j]
                    if opponent >> captured & 1 and not occupied >> _RANK_DESTINATION[landing, j] & 1:
                        n = _emit(moves, n, head | captured << 12 | CAPTURE)
                if may_turn:
                    n = _emit(moves, n, head | TURN_CCW)
                    n = _emit(moves, n, head | TURN_CW)
        else:
            for k in range(_BACK_N[mover, origin]):
                landing = _BACK_LAND[mover, origin, k]
                if occupied >> landing & 1:
                    continue
                for j in range(_FILE_N[landing]):
                    captured = _FILE_CAPTURED[landing, j]
                    if opponent >> captured & 1 and not occupied >> _FILE_DESTINATION[landing, j] & 1:
                        n = _emit(moves, n, origin | landing << 6 | captured << 12 | CAPTURE)
    if n == 0:
        n = _emit(moves, n, PASS)
    return n


@compiled
def _recolour(pos: Array, block: int, square: int, before: int, after: int) -> None:
    """Block ``block`` now on ``square`` shows ``after`` (it showed ``before``, ``-1`` if new)."""
    pos[_COLOUR + block] = after
    if before >= 0:
        pos[_COUNTS + before] -= 1
    pos[_COUNTS + after] += 1
    pos[_SHOWS + after] |= 1 << square


@compiled
def _lift(pos: Array, block: int, square: int) -> None:
    """Take block ``block`` off ``square`` (its colour leaves that square's mask)."""
    pos[_CELLS + square] = -1
    pos[_SHOWS + pos[_COLOUR + block]] &= ~(1 << square)


@compiled
def _reveal_stem(pos: Array, square: int, block: int, parity: int) -> None:
    """A block leaves ``square``: a hidden stem's height becomes public, and the ball shown."""
    if not pos[_PUBLIC] >> square & 1:
        pos[_PUBLIC] |= 1 << square
        pos[_KNOWN + block] |= 1 << _WINDOW[pos[_TALL] >> square & 1, parity]


@compiled
def _land(pos: Array, block: int, square: int, parity: int) -> bool:
    """Put ``block`` (lifted) on ``square`` with turned-over ``parity``: the window shows a
    ball, which everyone sees; return whether the block changed colour."""
    pos[_CELLS + square] = block
    slot = _WINDOW[pos[_TALL] >> square & 1, parity]
    pos[_KNOWN + block] |= 1 << slot
    before = pos[_COLOUR + block]
    after = pos[_BALLS + block] >> (2 * slot) & 3
    _recolour(pos, block, square, before, after)
    return bool(after != before)


@compiled
def _turn_board(pos: Array, direction: int) -> None:
    """Turn the board a quarter (``direction`` 0: clockwise, 1: anticlockwise): blocks, stems
    and masks move to other squares; the board key is computed again."""
    old = pos[_CELLS:_CELLS + 64].copy()
    tall = public = blue = red = neutral = 0
    key = 0
    for i in range(_CELL_SQUARES.shape[0]):
        square = _CELL_SQUARES[i]
        to = _ROTATED[direction, square]
        block = old[square]
        pos[_CELLS + to] = block
        tall |= (pos[_TALL] >> square & 1) << to
        public |= (pos[_PUBLIC] >> square & 1) << to
        if block >= 0:
            colour = pos[_COLOUR + block]
            if colour == BLUE:
                blue |= 1 << to
            elif colour == RED:
                red |= 1 << to
            else:
                neutral |= 1 << to
            key ^= _ZOBRIST[to, 2 * block + (pos[_FLIPS + block] & 1)]
    pos[_TALL], pos[_PUBLIC], pos[_BOARD_KEY] = tall, public, key
    pos[_SHOWS + BLUE], pos[_SHOWS + RED], pos[_SHOWS + NEUTRAL] = blue, red, neutral
    pos[_ROTATION] = (pos[_ROTATION] + (1 if direction == 0 else 3)) & 3


@compiled
def _apply_setup(pos: Array, move: int) -> None:
    """Plant the mover's stems, or build a block on its start cell (``rules._after_setup``)."""
    stage = pos[_STAGE]
    player = 0 if stage < SETUP_MOVES_PER_PLAYER else 1
    if move & STEMS:
        variant = pos[_VARIANT]
        tall = pos[_TALL]
        for i in range(_PLANTED_N[variant, player]):
            bit = 1 << _PLANTED[variant, player, i]
            tall = tall | bit if move >> i & 1 else tall & ~bit
        pos[_TALL] = tall
    else:
        cell = move & _SQUARE_MASK
        packed = move >> 6 & 63
        block = _BLOCK_OF[cell]
        pos[_CELLS + cell] = block
        pos[_BALLS + block] = packed
        for slot in range(3):
            pos[_HAND + 3 * player + (packed >> (2 * slot) & 3)] -= 1
        slot = _WINDOW[pos[_TALL] >> cell & 1, 0]
        if pos[_PUBLIC] >> cell & 1:
            pos[_KNOWN + block] = 1 << slot
        _recolour(pos, block, cell, -1, packed >> (2 * slot) & 3)
        pos[_BOARD_KEY] ^= _ZOBRIST[cell, 2 * block]
    stage += 1
    pos[_STAGE] = stage
    pos[_PLY] += 1
    if stage < SETUP_MOVES_PER_PLAYER:
        pos[_MOVER] = BLUE
    else:
        pos[_MOVER] = RED if stage < SETUP_PLIES else BLUE


@compiled
def apply(pos: Array, move: int) -> bool:
    """Play the legal ``move`` in place (a play move: the block moves, then captures or turns the
    board unless it changed colour; ``rules._after_play``); return whether a block changed colour.
    The endings are :func:`ending`'s."""
    if pos[_STAGE] < SETUP_PLIES:
        _apply_setup(pos, move)
        return False
    changed = False
    if move == PASS:
        pos[_PASSES] += 1
    else:
        pos[_PASSES] = 0
        origin = move & _SQUARE_MASK
        landing = move >> 6 & _SQUARE_MASK
        block = pos[_CELLS + origin]
        parity = pos[_FLIPS + block] & 1
        _reveal_stem(pos, origin, block, parity)
        _lift(pos, block, origin)
        changed = _land(pos, block, landing, parity)
        pos[_BOARD_KEY] ^= _ZOBRIST[origin, 2 * block + parity] ^ _ZOBRIST[landing, 2 * block + parity]
        # A block that changes colour on landing stops the move (rules: Colour change).
        if not changed and move & CAPTURE:
            captured = move >> 12 & _SQUARE_MASK
            destination = 2 * landing - captured
            victim = pos[_CELLS + captured]
            old = pos[_FLIPS + victim] & 1
            _reveal_stem(pos, captured, victim, old)
            pos[_FLIPS + victim] += 1
            _lift(pos, victim, captured)
            changed = _land(pos, victim, destination, old ^ 1)
            pos[_BOARD_KEY] ^= _ZOBRIST[captured, 2 * victim + old] ^ _ZOBRIST[
                destination, 2 * victim + (old ^ 1)]
        elif not changed and move & (TURN_CW | TURN_CCW):
            _turn_board(pos, 0 if move & TURN_CW else 1)
    pos[_QUIET] = 0 if changed else pos[_QUIET] + 1
    pos[_MOVER] ^= 1
    pos[_PLY] += 1
    return changed


@compiled
def ending(pos: Array, occurrences: int) -> int:
    """After a play move, the first ending that holds, in the rules' order (``rules._ending``),
    given how many times the position has now occurred; ``ONGOING`` if none."""
    if pos[_COUNTS + BLUE] <= SEVEN or pos[_COUNTS + RED] <= SEVEN or pos[_COUNTS + NEUTRAL] >= SEVEN:
        return RULE_OF_7
    if pos[_PASSES] >= 2:
        return TWO_PASSES
    if occurrences >= REPETITION_LIMIT:
        return REPETITION
    if pos[_QUIET] >= QUIET_LIMIT:
        return HUNDRED_PLIES
    return ONGOING


@compiled
def winner(pos: Array, outcome: int) -> int:
    """The winner of a finished game (``-1`` for a draw): more blocks of one's colour wins after
    the rule of 7 or two passes; the other endings are draws."""
    if outcome in (REPETITION, HUNDRED_PLIES):
        return -1
    blue, red = pos[_COUNTS + BLUE], pos[_COUNTS + RED]
    return BLUE if blue > red else RED if red > blue else -1


@compiled
def to_move(pos: Array) -> int:
    """The player to move (during the setup too)."""
    return int(pos[_MOVER])


@compiled
def in_setup(pos: Array) -> bool:
    """Whether the setup goes on (play begins after its 26 moves)."""
    return bool(pos[_STAGE] < SETUP_PLIES)


@compiled
def shown(pos: Array, colour: int) -> int:
    """The squares whose block shows ``colour`` (``BLUE``, ``RED``, ``NEUTRAL``), as a mask."""
    return int(pos[_SHOWS + colour])


@compiled
def shown_count(pos: Array, colour: int) -> int:
    """How many blocks show ``colour``."""
    return int(pos[_COUNTS + colour])


@compiled
def step(pos: Array, move: int, keys: Array, counts: Array) -> tuple[int, int]:
    """Play the legal ``move`` in place, count the position in the table of positions seen
    (``keys``, ``counts``) and return ``(outcome, slot)``: the ending after it (``ONGOING`` during
    the setup) and the slot to give :func:`seen_pop` when taking it back, ``-1`` when nothing was
    counted (the setup's moves but its last: the position when play begins is its first
    occurrence). What a search calls at each ply, on a copy of its parent's array."""
    was_setup = pos[_STAGE] < SETUP_PLIES
    apply(pos, move)
    if was_setup and pos[_STAGE] < SETUP_PLIES:
        return ONGOING, -1
    slot = seen_push(keys, counts, position_key(pos))
    if was_setup:
        return ONGOING, slot
    return ending(pos, counts[slot]), slot


# -- playouts and perft --------------------------------------------------------------------------------
@compiled
def playout(
    pos: Array, keys: Array, counts: Array, slots: Array, trail: Array, moves: Array, rng: Array,
) -> tuple[int, int]:
    """Play uniformly random moves in place from a position that is not over until the game
    ends; return ``(outcome, plies)``, the moves played left in ``trail``. The table of positions
    seen is left as it was. A game longer than ``slots`` and ``trail`` stops there and returns
    ``(ONGOING, -1)``: the caller may play it again with more room, from the same ``rng``."""
    plies = pushed = 0
    result = ONGOING
    while result == ONGOING and plies < trail.shape[0]:
        n = generate(pos, moves)
        move = int(moves[rng_below(rng, n)])
        result, slot = step(pos, move, keys, counts)
        trail[plies] = move
        plies += 1
        if slot >= 0:
            slots[pushed] = slot
            pushed += 1
    for i in range(pushed - 1, -1, -1):
        seen_pop(keys, counts, slots[i])
    if result == ONGOING:
        return ONGOING, -1
    return result, plies


@compiled
def run_playouts(
    root: Array, keys: Array, counts: Array, n: int, seed: np.uint64, room: int,
) -> tuple[Array, int, Array, bool]:
    """``n`` random playouts from a position that is not over: wins per player, draws, lengths,
    and whether all fitted in ``room`` plies (if not, the batch stops: play it again with more)."""
    wins = np.zeros(2, dtype=np.int64)
    lengths = np.empty(n, dtype=np.int64)
    draws = 0
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = seed
    slots = np.empty(room, dtype=np.int64)
    trail = np.empty(room, dtype=np.int32)
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    pos = np.empty_like(root)
    for i in range(n):
        pos[:] = root
        result, plies = playout(pos, keys, counts, slots, trail, moves, rng)
        if plies < 0:
            return wins, draws, lengths, False
        lengths[i] = plies
        won = winner(pos, result)
        if won < 0:
            draws += 1
        else:
            wins[won] += 1
    return wins, draws, lengths, True


@compiled
def perft_count(stack: Array, level: int, depth: int, keys: Array, counts: Array, moves: Array) -> int:
    """Positions reached after exactly ``depth`` ≥ 1 plies from ``stack[level]`` (games that end
    sooner stop there); ``stack`` holds a position per ply, ``moves`` a move buffer per ply."""
    pos = stack[level]
    row = moves[level]
    n = generate(pos, row)
    if depth == 1:
        return n
    child = stack[level + 1]
    total = 0
    for i in range(n):
        child[:] = pos
        result, slot = step(child, int(row[i]), keys, counts)
        if result == ONGOING:
            total += perft_count(stack, level + 1, depth - 1, keys, counts, moves)
        if slot >= 0:
            seen_pop(keys, counts, slot)
    return total


# -- Python side: positions from and to the plain engine ------------------------------------------------
@dataclass(frozen=True)
class Position:
    """A Plimil position as the kernel holds it, secrets included, with the positions seen so far
    (the plain engine's exact keys: count), the moves since the start (codes) and the start
    position of ``from_position`` (``None`` after a setup).

    Squares are in the table's frame (``board``); ``balls[b]`` is block ``b``'s triple as built,
    packed ``bottom | middle << 2 | top << 4`` (``-1`` until built); ``outcome`` is ``ONGOING``
    or why the game ended."""

    variant: str
    ply: int
    mover: int
    cells: tuple[int, ...]
    balls: tuple[int, ...]
    flips: tuple[int, ...]
    known: tuple[int, ...]
    tall: int
    public: int
    rotation: int
    passes: int
    quiet: int
    seen: Mapping[int, int] = field(hash=False)
    history: tuple[int, ...] = ()
    start: Mapping[str, Any] | None = field(default=None, hash=False)
    outcome: int = ONGOING

    @property
    def is_over(self) -> bool:
        return self.outcome != ONGOING

    @property
    def in_setup(self) -> bool:
        return self.ply < SETUP_PLIES and self.start is None

    @property
    def colours(self) -> tuple[int, ...]:
        """The colour each block shows (``-1`` until built)."""
        where = {block: s for s, block in enumerate(self.cells) if block >= 0}
        return tuple(
            -1 if packed < 0 else packed >> 2 * WINDOW[self.tall >> where[b] & 1][self.flips[b] & 1] & 3
            for b, packed in enumerate(self.balls)
        )

    @property
    def counts(self) -> tuple[int, int, int]:
        """Blocks showing blue, red and neutral."""
        colours = self.colours
        return colours.count(BLUE), colours.count(RED), colours.count(NEUTRAL)

    def result(self) -> Result:
        """The plain engine's ``Result``; raises ``ValueError`` while the game goes on."""
        if self.outcome == ONGOING:
            raise ValueError("plimil kernel: the game is not over")
        blue, red, _ = self.counts
        winners: tuple[int, ...] = ()
        if self.outcome in (RULE_OF_7, TWO_PASSES) and blue != red:
            winners = (BLUE,) if blue > red else (RED,)
        return Result(winners, (blue, red), REASONS[self.outcome])

    def array(self) -> Array:
        """The position array the compiled functions play on (a new one)."""
        return _array(self.variant, self.ply, self.mover, self.cells, self.balls, self.flips,
                      self.known, self.tall, self.public, self.rotation, self.passes, self.quiet,
                      in_setup=self.in_setup, colours=self.colours)


def array_of(state: PlimilState) -> Array:
    """The position array of a plain state that is not over, read from its properties (no JSON,
    no history): the root of a search, or one of its determinizations. The positions seen, for
    :func:`seen_table`, are the same in every determinization (their keys hold no secret): take
    them once from :func:`from_state`. Raises ``ValueError`` once the game is over."""
    mover = state.to_move
    if mover is None:
        raise ValueError("plimil kernel: the game is over")
    balls = tuple(-1 if triple is None else _pack_balls(triple) for triple in state.balls)
    return _array(state.game.variant, state.ply, mover, state.cells, balls, state.flips,
                  state.shown_slots, state.tall_stems, state.public_stems, state.rotation,
                  state.passes, state.quiet_plies, in_setup=state.in_setup, colours=state.colours)


def _array(
    variant: str, ply: int, mover: int, cells: tuple[int, ...], balls: tuple[int, ...],
    flips: tuple[int, ...], known: tuple[int, ...], tall: int, public: int, rotation: int,
    passes: int, quiet: int, *, in_setup: bool, colours: tuple[int, ...],
) -> Array:
    """A position array (see the module's docstring for its layout)."""
    require()
    hand = [supply for player in (BLUE, RED) for supply in SUPPLY[player]]
    for block, packed in enumerate(balls):
        if packed >= 0:
            for ball in _unpack_balls(packed):
                hand[3 * (block // BLOCKS_PER_PLAYER) + ball] -= 1
    shows, counts, key = [0, 0, 0], [0, 0, 0], 0
    for square in CELLS:
        block = cells[square]
        if block >= 0:
            shows[colours[block]] |= 1 << square
            counts[colours[block]] += 1
            key ^= _ZOBRIST_VALUES[square][2 * block + (flips[block] & 1)]
    stage = ply if in_setup else SETUP_PLIES
    return np.array([
        *cells, *balls, *flips, *colours, *known, *hand, *shows, *counts, tall, public, rotation,
        mover, passes, quiet, ply, stage, key, VARIANT_CODES[variant],
    ], dtype=np.int64)


def plain_key(cells: tuple[int, ...], flips: tuple[int, ...], rotation: int, mover: int) -> int:
    """The plain engine's exact key of a position: 6 bits a square (block and parity), then the
    rotation and the player to move (``rules.PlimilState._key``)."""
    code = 0
    for s in CELLS:
        block = cells[s]
        if block >= 0:
            code |= (1 + 2 * block + (flips[block] & 1)) << (6 * s)
    return code << 3 | rotation << 1 | mover


def hash_of_plain_key(key: int) -> int:
    """The kernel's 63-bit key (:func:`position_key`) of the position of a plain engine's key."""
    code, rotation, mover = key >> 3, key >> 1 & 3, key & 1
    hashed = int(_ZOBRIST_ROTATION[rotation]) ^ int(_ZOBRIST_MOVER[mover])
    for s in CELLS:
        value = code >> (6 * s) & 63
        if value:
            hashed ^= int(_ZOBRIST[s, value - 1])
    return hashed


def _square(name: str) -> int:
    return INDEX[name]


def from_state(state: PlimilState) -> Position:
    """The kernel's position of a plain engine state (through its ``to_json``)."""
    data = state.to_json()
    cells = [-1] * 64
    balls = [-1] * BLOCK_COUNT
    for block, entry in enumerate(data["blocks"]):
        if entry["cell"] is not None:
            cells[_square(entry["cell"])] = block
            balls[block] = _pack_balls(_triple_of(entry["balls"]))
    result = data["result"]
    return Position(
        variant=data["variant"], ply=data["ply"], mover=data["mover"], cells=tuple(cells),
        balls=tuple(balls), flips=tuple(int(e["flips"]) for e in data["blocks"]),
        known=tuple(int(e["known"]) for e in data["blocks"]),
        tall=sum(1 << _square(name) for name in data["tall"]),
        public=sum(1 << _square(name) for name in data["public_stems"]),
        rotation=data["rotation"], passes=data["passes"], quiet=data["quiet"],
        seen={int(key, 16): count for key, count in data["seen"]},
        history=tuple(move_code(text) for text in data["moves"]), start=data["start"],
        outcome=ONGOING if result is None else _OUTCOMES[result["reason"]],
    )


def to_state(position: Position, game: PlimilGame | None = None) -> PlimilState:
    """The plain engine's state of a kernel position (through ``state_from_json``)."""
    game = game or PlimilGame(position.variant)
    where = {block: s for s, block in enumerate(position.cells) if block >= 0}
    data: JSON = {
        "game": "plimil", "variant": position.variant, "players": 2,
        "ply": position.ply, "mover": position.mover, "rotation": position.rotation,
        "tall": [NAMES[s] for s in CELLS if position.tall >> s & 1],
        "public_stems": [NAMES[s] for s in CELLS if position.public >> s & 1],
        "blocks": [
            {
                "start": NAMES[BLOCK_START[block]],
                "cell": NAMES[where[block]] if block in where else None,
                "balls": None if packed < 0
                else "".join(BALL_LETTERS[b] for b in _unpack_balls(packed)),
                "flips": position.flips[block],
                "known": position.known[block],
            }
            for block, packed in enumerate(position.balls)
        ],
        "passes": position.passes, "quiet": position.quiet,
        "seen": [[format(key, "x"), count] for key, count in position.seen.items()],
        "result": position.result().to_json() if position.is_over else None,
        "moves": [move_text(code) for code in position.history],
        "start": position.start,
    }
    return game.state_from_json(data)


def _generate(position: Position) -> list[int]:
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    n = generate(position.array(), moves)
    return [int(m) for m in moves[:n]]


def legal_moves(position: Position) -> list[int]:
    """The legal moves' codes in canonical order; empty once the game is over."""
    require()
    return [] if position.is_over else _generate(position)


def play(position: Position, move: int) -> Position:
    """The position after ``move``; raises ``ValueError`` if it is not legal."""
    if move not in legal_moves(position):
        raise ValueError(f"plimil kernel: move {move_text(move)!r} is not legal at ply {position.ply}")
    return _played(position, move)


def _played(position: Position, move: int) -> Position:
    """The position after the legal ``move``, the positions seen counted as the plain engine."""
    pos = position.array()
    apply(pos, move)
    cells = tuple(int(b) for b in pos[_CELLS:_CELLS + 64])
    flips = tuple(int(f) for f in pos[_FLIPS:_FLIPS + BLOCK_COUNT])
    rotation, mover = int(pos[_ROTATION]), int(pos[_MOVER])
    seen = dict(position.seen)
    outcome = ONGOING
    if not position.in_setup or pos[_STAGE] == SETUP_PLIES:
        key = plain_key(cells, flips, rotation, mover)
        seen[key] = seen.get(key, 0) + 1
        if not position.in_setup:
            outcome = ending(pos, seen[key])
    return Position(
        variant=position.variant, ply=int(pos[_PLY]), mover=mover, cells=cells,
        balls=tuple(int(b) for b in pos[_BALLS:_BALLS + BLOCK_COUNT]), flips=flips,
        known=tuple(int(k) for k in pos[_KNOWN:_KNOWN + BLOCK_COUNT]),
        tall=int(pos[_TALL]), public=int(pos[_PUBLIC]), rotation=rotation,
        passes=int(pos[_PASSES]), quiet=int(pos[_QUIET]), seen=seen,
        history=(*position.history, move), start=position.start, outcome=outcome,
    )


def seen_table(seen: Mapping[int, int], spare: int = PLAYOUT_ROOM) -> tuple[Array, Array]:
    """A hash table (``keys``, ``counts``) of the kernel's keys of ``seen`` (the plain engine's
    keys), with room for ``spare`` more keys."""
    return compiled_seen_table({hash_of_plain_key(key): n for key, n in seen.items()}, spare)


def _position(state: PlimilState | Position) -> Position:
    return state if isinstance(state, Position) else from_state(state)


def playouts(state: PlimilState | Position, n: int, seed: int = 0) -> Playouts:
    """``n`` uniformly random playouts from ``state`` (its full state, secrets included), all in
    compiled code; the same seed gives the same playouts. Of a finished game: its result ``n``
    times, length 0."""
    require()
    position = _position(state)
    if position.is_over:
        return finished_playouts(position.result().winners, 2, n)
    root = position.array()
    return with_room(lambda room: run_playouts(root, *seen_table(position.seen, spare=room), n,
                                               np.uint64(seed % 2**64), room), PLAYOUT_ROOM)


def trace_playout(state: PlimilState | Position, seed: int = 0) -> tuple[list[int], Position]:
    """The moves of one random playout as the compiled loop plays it (the first of
    ``playouts(state, 1, seed)``), and the final position as the kernel reached it."""
    require()
    position = _position(state)
    if position.is_over:
        return [], position
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    room, plies, ended = PLAYOUT_ROOM, -1, ONGOING
    while plies < 0:
        keys, counts = seen_table(position.seen, spare=room)
        slots = np.empty(room, dtype=np.int64)
        trail = np.empty(room, dtype=np.int32)
        rng = np.array([seed % 2**64], dtype=np.uint64)
        ended, plies = playout(position.array(), keys, counts, slots, trail, moves, rng)
        room *= 4
    final = position
    for move in trail[:plies]:
        final = _played(final, int(move))
    if final.outcome != ended:
        raise KernelMismatchError(f"plimil kernel: the playout ended by {ended}, "
                                  f"its replay by {final.outcome}")
    return [int(m) for m in trail[:plies]], final


def perft(depth: int, state: PlimilState | Position | None = None, variant: str = "standard") -> int:
    """Positions reached after exactly ``depth`` plies from ``state`` (default: the start of
    ``variant``), games that end sooner not counted beyond their end."""
    require()
    position = _position(state if state is not None else PlimilGame(variant).new_state())
    if depth == 0:
        return 1
    if position.is_over:
        return 0
    keys, counts = seen_table(position.seen, spare=depth)
    stack = np.empty((depth + 1, SIZE), dtype=np.int64)
    stack[0] = position.array()
    buffers = np.empty((depth, MAX_MOVES), dtype=np.int32)
    return int(perft_count(stack, 0, depth, keys, counts, buffers))


# -- agreement with the plain engine --------------------------------------------------------------------
def compare_with_plain(
    game: Game | str, games: int, seed: int = 0, *, start: PlimilState | None = None
) -> Agreement:
    """Play ``games`` random games with the kernel and the plain engine side by side, from
    ``start`` (default: ``new_state``, through the setup) to the end; at every ply compare the
    ordered legal moves (as text), the position (secrets, what is public, the positions seen, the
    history), the array played on in place since the start with the one built afresh from the
    position, and the end of the game and its result; raise :class:`KernelMismatchError` at the
    first difference.

    Game ``i`` follows the kernel's own random playout of seed ``seed + i`` (so its compiled
    loop and hash table are checked too); at its end, ``to_state`` must give the plain state.
    """
    require()
    if isinstance(game, str):
        game = PlimilGame(game)
    assert isinstance(game, PlimilGame)
    variant = game.variant
    plies = compared = 0
    endings: dict[str, int] = {}
    for number in range(games):
        state = start if start is not None else game.new_state(seed=seed + number)
        position = from_state(state)
        running = position.array()
        trail, final = trace_playout(position, seed + number)
        where = f"plimil/{variant} game {number} (seed {seed + number})"
        while True:
            plain = [str(m) for m in state.legal_moves()]
            codes = legal_moves(position)
            texts = [move_text(c) for c in codes]
            if plain != texts:
                raise KernelMismatchError(f"{where} ply {state.ply}: plain {plain} kernel {texts}")
            if from_state(state) != position:
                raise KernelMismatchError(f"{where} ply {state.ply}: {from_state(state)} {position}")
            if not np.array_equal(running, position.array()):
                raise KernelMismatchError(f"{where} ply {state.ply}: the array played in place "
                                          f"{running.tolist()} differs from {position.array().tolist()}")
            compared += len(codes)
            if state.is_over:
                break
            if not trail or trail[0] not in codes:
                raise KernelMismatchError(f"{where} ply {state.ply}: playout move not legal")
            index = codes.index(trail.pop(0))
            state = state.play(plain[index])
            position = play(position, codes[index])
            apply(running, codes[index])
            plies += 1
            if state.is_over != position.is_over or (
                state.is_over and state.result() != position.result()
            ):
                raise KernelMismatchError(f"{where} ply {state.ply}: results differ: "
                                          f"{state.result() if state.is_over else None} vs "
                                          f"{position.result() if position.is_over else None}")
        if trail or final != position:
            raise KernelMismatchError(f"{where}: the compiled playout ended elsewhere")
        if to_state(position, game).to_json() != state.to_json():
            raise KernelMismatchError(f"{where}: to_state differs from the plain state")
        reason = state.result().reason
        endings[reason] = endings.get(reason, 0) + 1
    return Agreement(f"plimil/{variant}/2", games, plies, compared, endings)
