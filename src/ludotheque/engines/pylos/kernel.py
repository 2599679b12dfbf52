"""Pylos compiled kernel: the rules of ``rules.py`` on plain integers, compiled with Numba.

The plain engine (``rules.py``) stays the readable reference; this module says the same rules again
for speed, and :func:`compare_with_plain` checks, ply by ply, that both agree. Where Numba cannot
be imported, this module still imports, :data:`AVAILABLE` is false and its public functions raise
``RuntimeError``: callers then use the plain engine. Each kernel compiles on its first call and is
cached on disk (``cache=True``), so importing this module compiles nothing.

**The position** is three integers: ``light`` and ``dark``, bit masks of the 30 cells in cell order
(bit ``c`` is ``board.NAMES[c]``), and ``mover``, the player to move (0 Light, 1 Dark). A player's
reserve is 15 minus the balls of their mask. The positions seen so far, for the draw on the third
occurrence, live in a hash table of position keys (``keys``, ``counts``: see :func:`seen_push`),
the key being the plain engine's: ``light | dark << 30 | mover << 60``.

**A move** is one integer: ``target | source << 5 | first << 10 | second << 15``, with ``31`` for
"from the reserve" (``source``) and "no removal" (``first``, ``second``). Removals are listed as
in the notation: a pair that works in both orders once, in cell order.

>>> move_text(move_code("1A1-2b2x1d1"))
'1a1-2b2x1d1'
>>> move_code("1b2") == 5 | NO_CELL << 5 | NO_CELL << 10 | NO_CELL << 15
True
>>> to_plain_move(move_code("2a1x1a1x1b1"))
Move.from_text('2a1x1a1x1b1')
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field

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
    seen_pop,
    seen_push,
    with_room,
)
from ..compiled import seen_table as compiled_seen_table
from .board import ABOVE, BALLS_PER_PLAYER, HIGHER, LEVEL_MASK, SUPPORTS, TOP
from .notation import RESERVE, Move
from .rules import VARIANTS, PylosGame, PylosState

# -- constants -------------------------------------------------------------------------------------
NO_CELL = 31
"""A move's source when the ball comes from the reserve, and a removal slot left empty."""
_NO_REMOVALS = NO_CELL << 10 | NO_CELL << 15
_SECOND_EMPTY = NO_CELL << 15

ONGOING, TOP_PLACED, EMPTY_RESERVE, REPETITION = 0, 1, 2, 3
"""Outcomes after a move, tested in the rules' order: the top, the opponent's empty reserve,
the third occurrence of the position."""
REASONS = {TOP_PLACED: "top", EMPTY_RESERVE: "empty_reserve", REPETITION: "repetition"}
_OUTCOMES = {reason: code for code, reason in REASONS.items()}

VARIANT_CODES: dict[str, int] = {variant: code for code, variant in enumerate(VARIANTS)}
"""Each rule set's number in the kernel (its index in ``rules.VARIANTS``)."""

MAX_MOVES = 4096
"""Room in a move buffer; generation raises ``IndexError`` rather than write past it. (The most
moves found, by a random search over 24 million arrangements of balls, reachable or not: 688
under standard rules, 1,241 under advanced ones.)"""
PLAYOUT_ROOM = 4096
"""Plies a random playout has room for at first (the longest of 1,000,000 random advanced games:
1,328); a longer one is played again with more room, the same way."""

_LEVEL1 = LEVEL_MASK[1]
_UPPER = LEVEL_MASK[2] | LEVEL_MASK[3] | LEVEL_MASK[4]
_KEY_SHIFT = 30

# Geometry tables, built from board.py and the rule sets of rules.py (one data source).
_SUPPORTS = np.array(SUPPORTS, dtype=np.int64)
_ABOVE = np.array(ABOVE, dtype=np.int64)
_HIGHER = np.array(HIGHER, dtype=np.int64)


def _figure_tables() -> tuple[Array, Array]:
    """``figures[v, :count[v]]``: every figure (square, or line) of rule set ``v``, each once;
    none under kids."""
    figures_at = {variant: PylosGame(variant).figures_at for variant in VARIANTS}
    listed = {
        variant: sorted({figure for found in at for figure in found}) if at is not None else []
        for variant, at in figures_at.items()
    }
    figures = np.zeros((len(VARIANTS), max(len(found) for found in listed.values())), dtype=np.int64)
    count = np.zeros(len(VARIANTS), dtype=np.int64)
    for variant, found in listed.items():
        count[VARIANT_CODES[variant]] = len(found)
        figures[VARIANT_CODES[variant], : len(found)] = found
    return figures, count


_FIGURES, _FIGURE_COUNT = _figure_tables()

# -- geometry --------------------------------------------------------------------------------------
@compiled
def available(occupied: int) -> int:
    """Empty cells on level 1 or resting on four occupied cells (``board.available``)."""
    # Shifts on each level's grid (bit rank * size + file): by 1 the next file, by size the next
    # rank; the cells whose four supports are full are then packed into the next level's grid.
    # Equal to board.available on every pattern of every level (see the tests), and faster.
    level1 = occupied & 0xFFFF
    full = level1 & level1 >> 1 & level1 >> 4 & level1 >> 5
    on2 = (full & 0x7) << 16 | (full & 0x70) << 15 | (full & 0x700) << 14
    level2 = occupied >> 16 & 0x1FF
    full = level2 & level2 >> 1 & level2 >> 3 & level2 >> 4
    on3 = (full & 0x3) << 25 | (full & 0x18) << 24
    on4 = 1 << TOP if occupied >> 25 & 0xF == 0xF else 0
    return (_LEVEL1 | on2 | on3 | on4) & ~occupied


@compiled
def covered(occupied: int) -> int:
    """Cells that some occupied cell rests on: their balls are not free (``board.covered``)."""
    level2 = occupied >> 16 & 0x1FF
    spread = (level2 & 0x7) | (level2 & 0x38) << 1 | (level2 & 0x1C0) << 2
    under2 = spread | spread << 1 | spread << 4 | spread << 5
    level3 = occupied >> 25 & 0xF
    spread = (level3 & 0x3) | (level3 & 0xC) << 1
    under3 = (spread | spread << 1 | spread << 3 | spread << 4) << 16
    under4 = 0xF << 25 if occupied >> TOP & 1 else 0
    return under2 | under3 | under4


@compiled
def _completing(variant: int, own: int) -> int:
    """The cells whose ball would complete a figure of ``own``: those that figures of the rule
    set miss, and miss alone. (A raised ball never leaves a figure of its destination's level.)"""
    cells = 0
    for k in range(_FIGURE_COUNT[variant]):
        missing = _FIGURES[variant, k] & ~own
        if missing & (missing - 1) == 0:
            cells |= missing
    return cells


# -- moves -----------------------------------------------------------------------------------------
@compiled
def _emit(moves: Array, n: int, move: int) -> int:
    if n >= moves.shape[0]:
        raise IndexError("pylos kernel: move buffer full")
    moves[n] = move
    return n + 1


@compiled
def _with_removals(head: int, own: int, occupied: int, moves: Array, n: int) -> int:
    """The removal variants of a turn that completed a figure (``rules._with_removals``): one or
    two own free balls, the second possibly freed by the first; a pair that works in both orders
    once, in cell order."""
    free = own & ~covered(occupied)
    firsts = free
    while firsts:
        first = lowest(firsts)
        firsts &= firsts - 1
        n = _emit(moves, n, head | first << 10 | _SECOND_EMPTY)
        rest = occupied & ~(1 << first)
        free_after = free & ~(1 << first)
        # Only the balls ``first`` rested on can become free by its removal.
        under = _SUPPORTS[first] & own
        while under:
            cell = lowest(under)
            under &= under - 1
            if _ABOVE[cell] & rest == 0:
                free_after |= 1 << cell
        seconds = free_after
        while seconds:
            second = lowest(seconds)
            seconds &= seconds - 1
            if second > first or not free >> second & 1:
                n = _emit(moves, n, head | first << 10 | second << 15)
    return n


@compiled
def generate(light: int, dark: int, mover: int, variant: int, moves: Array) -> int:
    """Write the legal moves of the position into ``moves`` (int32, from index 0) in the rules'
    canonical order and return how many; the position must not be over."""
    own = dark if mover else light
    occupied = light | dark
    open_cells = available(occupied)
    completing = _completing(variant, own) & open_cells
    n = 0
    targets = open_cells
    while targets:
        target = lowest(targets)
        targets &= targets - 1
        head = target | NO_CELL << 5
        if completing >> target & 1:
            n = _with_removals(head, own | 1 << target, occupied | 1 << target, moves, n)
        else:
            n = _emit(moves, n, head | _NO_REMOVALS)
    sources = own & ~covered(occupied)
    while sources:
        source = lowest(sources)
        sources &= sources - 1
        # Not onto a cell it supports: the destination must stay available without it.
        targets = open_cells & _HIGHER[source] & ~_ABOVE[source]
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            head = target | source << 5
            if completing >> target & 1:
                after = own & ~(1 << source) | 1 << target
                n = _with_removals(head, after, occupied & ~(1 << source) | 1 << target, moves, n)
            else:
                n = _emit(moves, n, head | _NO_REMOVALS)
    return n


@compiled
def apply(light: int, dark: int, mover: int, move: int) -> tuple[int, int]:
    """The two masks after ``mover`` plays ``move`` (not checked: a move ``generate`` gave)."""
    own = dark if mover else light
    # An absent source or removal is cell 31, whose bit no mask holds.
    own = (own & ~(1 << (move >> 5 & 31)) | 1 << (move & 31)) & ~(
        1 << (move >> 10 & 31) | 1 << (move >> 15 & 31)
    )
    if mover:
        return light, own
    return own, dark


@compiled
def position_key(light: int, dark: int, mover: int) -> int:
    """The key of a position for the repetition count (the plain engine's ``_key``)."""
    return light | dark << _KEY_SHIFT | mover << (2 * _KEY_SHIFT)


@compiled
def outcome(light: int, dark: int, mover: int, move: int, occurrences: int) -> int:
    """How the game stands after ``mover`` played ``move``, reaching a position now seen
    ``occurrences`` times: ``ONGOING``, or why it ended, tested in the rules' order."""
    if move & 31 == TOP:
        return TOP_PLACED
    if count(light if mover else dark) == BALLS_PER_PLAYER:
        return EMPTY_RESERVE
    if occurrences >= 3:
        return REPETITION
    return ONGOING


# -- the array-kernel interface of the shared searches (``engines/searches.py``) ----------------------
# A position as one int64 array: the two masks, the player to move, the rule set's code and the move
# that led there (-1 at first), which ``outcome`` needs.
LIGHT, DARK, MOVER, VARIANT, LAST = range(5)
ARRAY_SIZE = 5
REPEATED = -2
"""``searches.REPEATED``: a repetition draw, which the path decided."""


@compiled
def array_generate(pos: Array, moves: Array) -> int:
    """:func:`generate` of an array position."""
    return generate(pos[LIGHT], pos[DARK], pos[MOVER], pos[VARIANT], moves)


@compiled
def array_apply(pos: Array, move: int, out: Array) -> None:
    """:func:`apply` of an array position, written into ``out``."""
    light, dark = apply(pos[LIGHT], pos[DARK], pos[MOVER], move)
    out[LIGHT] = light
    out[DARK] = dark
    out[MOVER] = pos[MOVER] ^ 1
    out[VARIANT] = pos[VARIANT]
    out[LAST] = move


@compiled
def array_key(pos: Array) -> int:
    """:func:`position_key` of an array position."""
    return position_key(pos[LIGHT], pos[DARK], pos[MOVER])


@compiled
def array_outcome(pos: Array, occurrences: int) -> int:
    """How the game stands at an array position: -1 (``searches.ONGOING``), :data:`REPEATED`, or
    the winner's bit (the player who just moved)."""
    ended = outcome(pos[LIGHT], pos[DARK], pos[MOVER] ^ 1, pos[LAST], occurrences)
    if ended == ONGOING:
        return -1
    if ended == REPETITION:
        return REPEATED
    return 1 << int(pos[MOVER] ^ 1)


@compiled
def array_mover(pos: Array) -> int:
    """The player to move at an array position."""
    return int(pos[MOVER])


def position_array(position: Position) -> Array:
    """A position as the shared searches hold it (the last move unknown: -1)."""
    return np.array([position.light, position.dark, position.mover, VARIANT_CODES[position.variant], -1],
                    dtype=np.int64)


# -- playouts and perft --------------------------------------------------------------------------------
@compiled
def playout(
    light: int, dark: int, mover: int, variant: int, keys: Array, counts: Array,
    slots: Array, trail: Array, moves: Array, rng: Array,
) -> tuple[int, int, int]:
    """Play uniformly random moves from a position that is not over until the game ends; return
    ``(outcome, winner or -1, plies)``, the moves played left in ``trail``. The table of positions
    seen is left as it was. A game longer than ``slots`` and ``trail`` stops there and returns
    ``(ONGOING, -1, -1)``: the caller may play it again with more room, from the same ``rng``."""
    plies = 0
    result = ONGOING
    while result == ONGOING and plies < slots.shape[0]:
        n = generate(light, dark, mover, variant, moves)
        if n == 0:
            raise ValueError("pylos kernel: no legal move in a position that is not over")
        move = int(moves[rng_below(rng, n)])
        light, dark = apply(light, dark, mover, move)
        mover ^= 1
        slot = seen_push(keys, counts, light | dark << _KEY_SHIFT | mover << (2 * _KEY_SHIFT))
        slots[plies] = slot
        trail[plies] = move
        plies += 1
        result = outcome(light, dark, mover ^ 1, move, counts[slot])
    for i in range(plies - 1, -1, -1):
        seen_pop(keys, counts, slots[i])
    if result == ONGOING:
        return ONGOING, -1, -1
    return result, -1 if result == REPETITION else mover ^ 1, plies


@compiled
def run_playouts(
    light: int, dark: int, mover: int, variant: int, keys: Array, counts: Array, n: int,
    seed: np.uint64, room: int,
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
    for i in range(n):
        _, winner, plies = playout(light, dark, mover, variant, keys, counts, slots, trail, moves, rng)
        if plies < 0:
            return wins, draws, lengths, False
        lengths[i] = plies
        if winner < 0:
            draws += 1
        else:
            wins[winner] += 1
    return wins, draws, lengths, True


@compiled
def perft_count(
    light: int, dark: int, mover: int, variant: int, keys: Array, counts: Array, depth: int,
    moves: Array,
) -> int:
    """Positions reached after exactly ``depth`` ≥ 1 plies (games that end sooner stop there);
    ``moves`` is a ``(depth, MAX_MOVES)`` int32 buffer."""
    row = moves[depth - 1]
    n = generate(light, dark, mover, variant, row)
    if depth == 1:
        return n
    total = 0
    for i in range(n):
        move = int(row[i])
        after_light, after_dark = apply(light, dark, mover, move)
        slot = seen_push(keys, counts, position_key(after_light, after_dark, mover ^ 1))
        if outcome(after_light, after_dark, mover, move, counts[slot]) == ONGOING:
            total += perft_count(after_light, after_dark, mover ^ 1, variant, keys, counts,
                                 depth - 1, moves)
        seen_pop(keys, counts, slot)
    return total


# -- Python side: moves as text, positions from and to the plain engine ---------------------------------
def from_plain_move(move: Move) -> int:
    """The kernel's code of a plain engine ``Move``."""
    removals = (*move.removals, NO_CELL, NO_CELL)
    source = NO_CELL if move.source == RESERVE else move.source
    return move.target | source << 5 | removals[0] << 10 | removals[1] << 15


def to_plain_move(code: int) -> Move:
    """The plain engine's ``Move`` of a kernel code."""
    source = code >> 5 & 31
    removals = tuple(r for r in (code >> 10 & 31, code >> 15 & 31) if r != NO_CELL)
    return Move(code & 31, RESERVE if source == NO_CELL else source, removals)


def move_code(text: str) -> int:
    """The kernel's code of a move written in notation (syntax only, as ``Move.from_text``;
    raises ``InvalidMoveError``)."""
    return from_plain_move(Move.from_text(text))


def move_text(code: int) -> str:
    """A kernel move in the notation of the rules file."""
    return str(to_plain_move(code))


@dataclass(frozen=True)
class Position:
    """A Pylos position as the kernel holds it, with the positions seen so far (key: count).

    ``outcome`` is ``ONGOING`` or why the game ended; ``mover`` is then the loser, or the player
    who would have moved after a draw (as in the plain engine)."""

    variant: str
    light: int
    dark: int
    mover: int
    ply: int
    seen: Mapping[int, int] = field(hash=False)
    outcome: int = ONGOING

    @property
    def is_over(self) -> bool:
        return self.outcome != ONGOING

    @property
    def winner(self) -> int | None:
        """The winner, ``None`` while the game goes on or after a draw."""
        return None if self.outcome in (ONGOING, REPETITION) else 1 - self.mover

    def result(self) -> Result:
        """The plain engine's ``Result``; raises ``ValueError`` while the game goes on."""
        if self.outcome == ONGOING:
            raise ValueError("pylos kernel: the game is not over")
        winner = self.winner
        if winner is None:
            return Result((), (0, 0), REASONS[self.outcome])
        return Result((winner,), (1, -1) if winner == 0 else (-1, 1), REASONS[self.outcome])


def from_state(state: PylosState) -> Position:
    """The kernel's position of a plain engine state (through its ``to_json``)."""
    data = state.to_json()
    result = data["result"]
    return Position(
        variant=data["variant"], light=data["light"], dark=data["dark"], mover=data["mover"],
        ply=data["ply"], seen={key: count for key, count in data["seen"]},
        outcome=ONGOING if result is None else _OUTCOMES[result["reason"]],
    )


def to_state(position: Position, game: PylosGame | None = None) -> PylosState:
    """The plain engine's state of a kernel position (through ``state_from_json``)."""
    game = game or PylosGame(position.variant)
    return game.state_from_json({
        "game": "pylos", "variant": position.variant, "players": 2, "light": position.light,
        "dark": position.dark, "mover": position.mover, "ply": position.ply,
        "seen": [[key, count] for key, count in position.seen.items()],
        "result": position.result().to_json() if position.is_over else None,
    })


def legal_moves(position: Position) -> list[int]:
    """The legal moves' codes in canonical order; empty once the game is over."""
    require()
    if position.is_over:
        return []
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    n = generate(position.light, position.dark, position.mover, VARIANT_CODES[position.variant], moves)
    return [int(m) for m in moves[:n]]


def play(position: Position, move: int) -> Position:
    """The position after ``move``; raises ``ValueError`` if it is not legal."""
    if move not in legal_moves(position):
        raise ValueError(f"pylos kernel: move {move} is not legal at ply {position.ply}")
    light, dark = apply(position.light, position.dark, position.mover, move)
    mover = position.mover ^ 1
    seen = dict(position.seen)
    key = position_key(light, dark, mover)
    seen[key] = seen.get(key, 0) + 1
    ended = outcome(light, dark, position.mover, move, seen[key])
    return Position(position.variant, light, dark, mover, position.ply + 1, seen, ended)


def seen_table(seen: Mapping[int, int], spare: int = PLAYOUT_ROOM) -> tuple[Array, Array]:
    """A hash table (``keys``, ``counts``) holding ``seen``, with room for ``spare`` more keys."""
    return compiled_seen_table(seen, spare)


def playouts(state: PylosState | Position, n: int, seed: int = 0) -> Playouts:
    """``n`` uniformly random playouts from ``state``, all in compiled code; the same seed gives
    the same playouts. Of a finished game: its result ``n`` times, length 0."""
    require()
    position = state if isinstance(state, Position) else from_state(state)
    if position.is_over:
        return finished_playouts(() if position.winner is None else (position.winner,), 2, n)
    variant = VARIANT_CODES[position.variant]
    return with_room(lambda room: run_playouts(position.light, position.dark, position.mover, variant,
                                               *seen_table(position.seen, spare=room), n,
                                               np.uint64(seed % 2**64), room), PLAYOUT_ROOM)


def trace_playout(state: PylosState | Position, seed: int = 0) -> tuple[list[int], Position]:
    """The moves of one random playout as the compiled loop plays it (the first of
    ``playouts(state, 1, seed)``), and the final position as the kernel reached it."""
    require()
    position = state if isinstance(state, Position) else from_state(state)
    if position.is_over:
        return [], position
    variant = VARIANT_CODES[position.variant]
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    room, plies = PLAYOUT_ROOM, -1
    while plies < 0:
        keys, counts = seen_table(position.seen, spare=room)
        slots = np.empty(room, dtype=np.int64)
        trail = np.empty(room, dtype=np.int32)
        rng = np.array([seed % 2**64], dtype=np.uint64)
        ended, _, plies = playout(position.light, position.dark, position.mover, variant, keys,
                                  counts, slots, trail, moves, rng)
        room *= 4
    light, dark, mover, seen = position.light, position.dark, position.mover, dict(position.seen)
    for move in trail[:plies]:
        light, dark = apply(light, dark, mover, int(move))
        mover ^= 1
        key = position_key(light, dark, mover)
        seen[key] = seen.get(key, 0) + 1
    final = Position(position.variant, light, dark, mover, position.ply + plies, seen, int(ended))
    return [int(m) for m in trail[:plies]], final


def perft(depth: int, state: PylosState | Position | None = None, variant: str = "standard") -> int:
    """Positions reached after exactly ``depth`` plies from ``state`` (default: the start of
    ``variant``), games that end sooner not counted beyond their end."""
    require()
    if state is None:
        state = PylosGame(variant).new_state()
    position = state if isinstance(state, Position) else from_state(state)
    if depth == 0:
        return 1
    if position.is_over:
        return 0
    keys, counts = seen_table(position.seen, spare=depth)
    buffers = np.empty((depth, MAX_MOVES), dtype=np.int32)
    return int(perft_count(position.light, position.dark, position.mover,
                           VARIANT_CODES[position.variant], keys, counts, depth, buffers))


# -- agreement with the plain engine --------------------------------------------------------------------
def compare_with_plain(
    game: Game | str, games: int, seed: int = 0, *, takebacks: float = 0.0
) -> Agreement:
    """Play ``games`` random games with the kernel and the plain engine side by side; at every
    ply compare the ordered legal moves (as text), the position (with the positions seen) and the
    end of the game and its result; raise :class:`KernelMismatchError` at the first difference.

    With ``takebacks == 0`` game ``i`` follows the kernel's own random playout of seed
    ``seed + i`` (so its compiled loop and hash table are checked too). Otherwise a Python
    generator picks the moves, and with that probability a move that takes back the ball just
    played when there is one: such games end in repetition draws often.
    """
    require()
    if isinstance(game, str):
        game = PylosGame(game)
    assert isinstance(game, PylosGame)
    variant = game.variant
    plies = compared = 0
    endings: dict[str, int] = {}
    rng = random.Random(seed)
    for number in range(games):
        state = game.new_state(seed=seed + number)
        position = from_state(state)
        trail: list[int] | None = None
        final = position
        if takebacks == 0.0:
            trail, final = trace_playout(position, seed + number)
        where = f"pylos/{variant} game {number} (seed {seed + number})"
        while True:
            plain = [str(m) for m in state.legal_moves()]
            codes = legal_moves(position)
            texts = [move_text(c) for c in codes]
            if plain != texts:
                raise KernelMismatchError(f"{where} ply {state.ply}: plain {plain} kernel {texts}")
            if from_state(state) != position:
                raise KernelMismatchError(f"{where} ply {state.ply}: {from_state(state)} {position}")
            compared += len(codes)
            if state.is_over:
                break
            if trail is not None:
                if not trail or trail[0] not in codes:
                    raise KernelMismatchError(f"{where} ply {state.ply}: playout move not legal")
                index = codes.index(trail.pop(0))
            else:
                index = _pick(rng, codes, takebacks)
            state = state.play(plain[index])
            position = play(position, codes[index])
            plies += 1
            if state.is_over != position.is_over or (
                state.is_over and state.result() != position.result()
            ):
                raise KernelMismatchError(f"{where} ply {state.ply}: results differ: "
                                          f"{state.result() if state.is_over else None} vs "
                                          f"{position.result() if position.is_over else None}")
        if trail is not None and (trail or final != position):
            raise KernelMismatchError(f"{where}: the compiled playout ended elsewhere")
        if to_state(position, game).to_json() != state.to_json():
            raise KernelMismatchError(f"{where}: to_state differs from the plain state")
        reason = state.result().reason
        endings[reason] = endings.get(reason, 0) + 1
    return Agreement(f"pylos/{variant}", games, plies, compared, endings)


def _pick(rng: random.Random, codes: list[int], takebacks: float) -> int:
    """A random move's index, preferring with probability ``takebacks`` one that takes back
    the ball just played."""
    if rng.random() < takebacks:
        back = [i for i, c in enumerate(codes) if c & 31 in (c >> 10 & 31, c >> 15 & 31)]
        if back:
            return rng.choice(back)
    return rng.randrange(len(codes))
