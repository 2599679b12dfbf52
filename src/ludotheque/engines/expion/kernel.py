"""Ex*Pion compiled kernel: the rules of ``rules.py`` on a small integer array, compiled with Numba.

The plain engine (``rules.py``) stays the readable reference; this module says the same rules again
for speed, and :func:`compare_with_plain` checks, ply by ply, that both agree. Where Numba cannot
be imported, this module still imports, :data:`AVAILABLE` is false and its public functions raise
``RuntimeError``: callers then use the plain engine. Each kernel compiles on its first call and is
cached on disk (``cache=True``), so importing this module compiles nothing.

**The position** is one int64 array of :data:`POSITION_SIZE` (a "mailbox": 77 cells with five
kinds of contents do not fit a 64-bit mask): ``pos[0:81]`` the contents of each cell in
``board.py``'s order (``EMPTY``, a marble ``1 + camp``, ``XPION``, ``OFF`` for the corners), then
the EX*PION's cell (``pos[EXPION]``), the camp to move (``TURN``), whether a capture has happened
(``FREED``), the moves without capture or push (``QUIET``), the position's 64-bit key (``KEY``:
Zobrist hashing of the cells, the camp to move and ``FREED``, kept up to date move by move, never
negative), the marbles left of each colour (``MARBLES + camp``) and each colour's marbles as two
bit masks of cells (``MASKS + 2 * camp``: cells 0 to 62, then 63 to 80), so that move generation
visits the marbles held in the canonical order without scanning the board. A search copies a row of a
``(depth, POSITION_SIZE)`` stack into the next and plays there (:func:`step`), or plays in place
(a playout). The player count (2, 3 or 4) is passed beside the position.

The positions seen, for the draw on the third occurrence, live in a hash table of keys
(``compiled.seen_push``); the plain engine empties them at a capture, which the kernel need not do:
no position from before a capture can occur again. The key is a hash, so two positions could share
one (with a chance of about ``n**2 / 2**64`` for ``n`` positions): the repetition draw is then
the only rule that could differ from the plain engine.

**A move** is one integer, ``source << 7 | target`` (cells of ``board.py``): ascending codes are
the canonical order of the rules file (by source, then target, each by rank then file).

>>> move_text(move_code(" D5-e5 "))
'd5-e5'
>>> divmod(move_code("e9-e6"), 1 << 7), (NAMES[76], NAMES[49])
((76, 49), ('e9', 'e6'))
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np

from ...core.contract import Game, Result
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
    CAMP_AT,
    CAMP_COUNT,
    CAMP_LETTERS,
    CELLS,
    DIRECTION_OF_STEP,
    DIRECTIONS,
    FORWARD,
    MARBLES_PER_CAMP,
    NAMES,
    NEIGHBOUR,
    OPTIONS,
    PUSH_TO,
    SIZE,
    TEAM_CAMPS,
    team_of,
)
from .notation import Move
from .rules import HOLDERS, QUIET_LIMIT, REPETITION_LIMIT, ExpionGame, ExpionState

# -- constants -------------------------------------------------------------------------------------
SPAN = SIZE * SIZE
"""Cells in ``board.py``'s numbering (``rank * SIZE + file``), the four corners included."""
EMPTY, XPION, OFF = 0, 1 + CAMP_COUNT, 2 + CAMP_COUNT
"""A cell's contents besides the marbles ``1 + camp``: nothing, the EX*PION, off the board."""
_ASCII = b"." + CAMP_LETTERS.encode() + b"X "
"""The plain engine's byte for each of the kernel's contents."""
_TO_KERNEL = bytes.maketrans(_ASCII, bytes(range(len(_ASCII))))
_TO_ASCII = bytes.maketrans(bytes(range(len(_ASCII))), _ASCII)

# The position array's fields after the cells.
EXPION, TURN, FREED, QUIET, KEY, MARBLES = SPAN, SPAN + 1, SPAN + 2, SPAN + 3, SPAN + 4, SPAN + 5
MASKS = MARBLES + CAMP_COUNT
POSITION_SIZE = MASKS + 2 * CAMP_COUNT
_HALF = 63
"""A colour's marbles are two masks of cells: cells below ``_HALF``, then the others from it
(63 bits each at most, so that a mask is never negative)."""
assert SPAN <= 2 * _HALF

ONGOING, EXPION_IN_CAMP, NO_MARBLES, NO_PROGRESS, BLOCKED, REPETITION = range(6)
"""Outcomes after a move, tested in the rules' order: the EX*PION in an enemy camp, no marble
left to the other team, 200 quiet moves, no camp able to move, the third occurrence."""
REASONS = {
    EXPION_IN_CAMP: "expion_in_camp", NO_MARBLES: "no_marbles", NO_PROGRESS: "no_progress",
    BLOCKED: "blocked", REPETITION: "repetition",
}
_OUTCOMES = {reason: code for code, reason in REASONS.items()}
_WINS = (EXPION_IN_CAMP, NO_MARBLES)

SOURCE_SHIFT = 7  # a move's source is shifted by this many bits, above its target
CELL_BITS = (1 << SOURCE_SHIFT) - 1
assert SPAN <= CELL_BITS + 1

MAX_MOVES = MARBLES_PER_CAMP * len(DIRECTIONS) * max(
    holders.count(player) for holders in HOLDERS.values() for player in holders
)
"""Room in a move buffer (56): a player holds at most two colours of seven marbles, a marble
has at most four moves."""
PLAYOUT_ROOM = 4096
"""Plies a random playout has room for at first (the longest of 3 × 150 random plain games:
1,684); a longer one is played again with more room, the same way."""


# -- geometry tables, built from board.py and rules.py (one data source) ------------------------------
def _tables() -> dict[str, Array]:
    """Every table the compiled code reads, as numpy arrays."""
    neighbour = np.array(NEIGHBOUR, dtype=np.int64)
    camp_at = np.array(CAMP_AT, dtype=np.int64)
    # Exits are 1 to 3 cells long (``OPTIONS``); a marble in the play area tries 4 directions.
    longest = max(len(o.path) for camp in range(CAMP_COUNT) for c in CELLS for o in OPTIONS[camp][c])
    exit_length = np.zeros(SPAN, dtype=np.int64)
    exit_path = np.full((SPAN, longest), -1, dtype=np.int64)
    exit_sorted = np.full((SPAN, longest, longest), -1, dtype=np.int64)
    step_count = np.zeros((CAMP_COUNT, SPAN), dtype=np.int64)
    step_target = np.full((CAMP_COUNT, SPAN, len(DIRECTIONS)), -1, dtype=np.int64)
    step_direction = np.zeros((CAMP_COUNT, SPAN, len(DIRECTIONS)), dtype=np.int64)
    step_backward = np.zeros((CAMP_COUNT, SPAN, len(DIRECTIONS)), dtype=np.int64)
    for camp in range(CAMP_COUNT):
        for cell in CELLS:
            options = OPTIONS[camp][cell]
            if CAMP_AT[cell] == camp and options:
                path = max((o.path for o in options), key=len)
                exit_length[cell] = len(path)
                exit_path[cell, : len(path)] = path
                for reach in range(1, len(path) + 1):
                    exit_sorted[cell, reach - 1, :reach] = sorted(path[:reach])
            elif CAMP_AT[cell] < 0:
                step_count[camp, cell] = len(options)
                for k, option in enumerate(options):
                    step_target[camp, cell, k] = option.target
                    step_direction[camp, cell, k] = option.direction
                    step_backward[camp, cell, k] = option.is_backward
    direction = np.full(2 * SIZE + 1, -1, dtype=np.int64)
    for offset, d in DIRECTION_OF_STEP.items():
        direction[offset + SIZE] = d
    players_span = max(HOLDERS) + 1
    holder = np.zeros((players_span, CAMP_COUNT), dtype=np.int64)
    mine = np.zeros((players_span, max(HOLDERS)), dtype=np.int64)
    team_of_player = np.zeros((players_span, max(HOLDERS)), dtype=np.int64)
    winners = np.zeros((players_span, 2), dtype=np.int64)
    for players, holders in HOLDERS.items():
        for camp, player in enumerate(holders):
            holder[players, camp] = player
            mine[players, player] |= 1 << (1 + camp)
            team_of_player[players, player] = team_of(camp)
            winners[players, team_of(camp)] |= 1 << player
    team_of_code = np.full(OFF + 1, -1, dtype=np.int64)
    for camp in range(CAMP_COUNT):
        team_of_code[1 + camp] = team_of(camp)
    return {
        "neighbour": neighbour, "camp_at": camp_at, "exit_length": exit_length,
        "exit_path": exit_path, "exit_sorted": exit_sorted, "step_count": step_count,
        "step_target": step_target, "step_direction": step_direction, "step_backward": step_backward,
        "push_to": np.array(PUSH_TO, dtype=np.int64), "forward": np.array(FORWARD, dtype=np.int64),
        "direction": direction, "holder": holder, "mine": mine, "team_of_player": team_of_player,
        "winners": winners, "team_of_code": team_of_code,
        "team_camps": np.array(TEAM_CAMPS, dtype=np.int64),
        "team_of_camp": np.array([team_of(camp) for camp in range(CAMP_COUNT)], dtype=np.int64),
    }


def _zobrist() -> tuple[Array, Array, int]:
    """Random 63-bit numbers (never negative, so that a key is never the hash table's ``-1``):
    one per contents and cell (none for empty cells and corners), one per camp to move, one for
    the first capture; from splitmix64 with a fixed seed, so that keys are the same everywhere."""
    state = 0x5EED_E4B1_0000_0015
    mask = (1 << 64) - 1

    def draw() -> int:
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return (z ^ (z >> 31)) >> 1

    cells = np.zeros((OFF + 1, SPAN), dtype=np.int64)
    for contents in range(1, XPION + 1):
        for cell in CELLS:
            cells[contents, cell] = draw()
    camps = np.array([draw() for _ in range(CAMP_COUNT)], dtype=np.int64)
    return cells, camps, draw()


_T = _tables()
NEIGHBOUR_TABLE = _T["neighbour"]
CAMP_OF_CELL = _T["camp_at"]
_EXIT_LENGTH = _T["exit_length"]
_EXIT_PATH = _T["exit_path"]
_EXIT_SORTED = _T["exit_sorted"]
_STEP_COUNT = _T["step_count"]
_STEP_TARGET = _T["step_target"]
_STEP_DIRECTION = _T["step_direction"]
_STEP_BACKWARD = _T["step_backward"]
_PUSH_TO = _T["push_to"]
_FORWARD = _T["forward"]
DIRECTION_OF_OFFSET = _T["direction"]
_HOLDER = _T["holder"]
_MINE = _T["mine"]
_TEAM_OF_PLAYER = _T["team_of_player"]
_WINNERS = _T["winners"]
_TEAM_OF_CODE = _T["team_of_code"]
TEAM_CAMP_TABLE = _T["team_camps"]
_TEAM_OF_CAMP = _T["team_of_camp"]
_ZOBRIST, _ZOBRIST_CAMP, _ZOBRIST_FREED = _zobrist()


# -- moves -----------------------------------------------------------------------------------------
@compiled
def _emit(moves: Array, n: int, move: int) -> int:
    if n >= moves.shape[0]:
        raise IndexError("expion kernel: move buffer full")
    moves[n] = move
    return n + 1


@compiled
def _flanked(pos: Array, mover: int, team: int, friend: int, found: int, packed: int) -> tuple[int, int]:
    """Add to ``packed`` (seven bits a cell, ``found`` of them) the enemy marbles between
    ``mover`` and a piece of ``team`` (or ``friend``, the EX*PION when it is a friend) on adjacent
    cells in a line (``rules._flanked``)."""
    for d in range(4):
        enemy = NEIGHBOUR_TABLE[mover, d]
        if enemy < 0 or _TEAM_OF_CODE[pos[enemy]] != 1 - team:
            continue
        partner = NEIGHBOUR_TABLE[enemy, d]
        if partner >= 0 and (_TEAM_OF_CODE[pos[partner]] == team or partner == friend):
            known = False
            for i in range(found):
                if packed >> (SOURCE_SHIFT * i) & CELL_BITS == enemy:
                    known = True
            if not known:
                packed |= enemy << (SOURCE_SHIFT * found)
                found += 1
    return found, packed


@compiled
def _captures(pos: Array, mine: int, team: int, target: int, pushed: bool) -> tuple[int, int]:
    """The marbles the move just made captures, the marble standing on ``target`` (captured
    marbles still on the board): how many, and their cells packed seven bits each. The
    EX*PION is a friend after a push or when a marble of the mover's own colours (``mine``,
    contents as bits) touches it (the chameleon), and a pushed EX*PION flanks too."""
    expion = pos[EXPION]
    friend = -1
    if pushed:
        friend = expion
    else:
        for d in range(4):
            near = NEIGHBOUR_TABLE[expion, d]
            if near >= 0 and mine >> pos[near] & 1:
                friend = expion
                break
    found, packed = _flanked(pos, target, team, friend, 0, 0)
    if pushed:
        found, packed = _flanked(pos, expion, team, -1, found, packed)
    return found, packed


@compiled
def _captures_anything(pos: Array, mine: int, team: int, source: int, target: int) -> bool:
    """Whether moving the marble on ``source`` to ``target`` (pushing the EX*PION standing
    there) would capture; the position is left as it was."""
    marble = pos[source]
    pushed = pos[target] == XPION
    beyond = -1
    pos[source] = EMPTY
    pos[target] = marble
    if pushed:
        beyond = NEIGHBOUR_TABLE[target, DIRECTION_OF_OFFSET[target - source + SIZE]]
        pos[beyond] = XPION
        pos[EXPION] = beyond
    found, _ = _captures(pos, mine, team, target, pushed)
    pos[source] = marble
    if pushed:
        pos[beyond] = EMPTY
        pos[target] = XPION
        pos[EXPION] = target
    else:
        pos[target] = EMPTY
    return found > 0


@compiled
def _moves_of(
    pos: Array, cell: int, team: int, mine: int, freed: int, moves: Array, n: int
) -> int:
    """Add the legal moves of the marble on ``cell`` to ``moves[:n]``; return the new count."""
    marble = pos[cell]
    length = _EXIT_LENGTH[cell]
    if length:
        # Leaving the camp: 1 to 3 empty cells straight ahead, or a push of the EX*PION
        # standing just in front.
        first = _EXIT_PATH[cell, 0]
        ahead = pos[first]
        if ahead == EMPTY:
            reach = 1
            while reach < length and pos[_EXIT_PATH[cell, reach]] == EMPTY:
                reach += 1
            for k in range(reach):
                n = _emit(moves, n, cell << SOURCE_SHIFT | _EXIT_SORTED[cell, reach - 1, k])
        elif ahead == XPION:
            beyond = _PUSH_TO[team, first, _FORWARD[marble - 1]]
            if beyond >= 0 and pos[beyond] == EMPTY:
                n = _emit(moves, n, cell << SOURCE_SHIFT | first)
        return n
    camp = marble - 1
    for k in range(_STEP_COUNT[camp, cell]):
        target = _STEP_TARGET[camp, cell, k]
        contents = pos[target]
        if contents == XPION:
            beyond = _PUSH_TO[team, target, _STEP_DIRECTION[camp, cell, k]]
            if beyond < 0 or pos[beyond] != EMPTY:
                continue
        elif contents != EMPTY:
            continue
        # Before the first capture, a backward move (or push) must capture at once.
        if _STEP_BACKWARD[camp, cell, k] and not freed and not _captures_anything(
            pos, mine, team, cell, target
        ):
            continue
        n = _emit(moves, n, cell << SOURCE_SHIFT | target)
    return n


@compiled
def generate_for(pos: Array, players: int, player: int, moves: Array) -> int:
    """Write the legal moves of ``player`` (any colour they hold) into ``moves`` (int32, from
    index 0) in canonical order and return how many (``rules._generate``)."""
    mine = _MINE[players, player]
    team = _TEAM_OF_PLAYER[players, player]
    freed = pos[FREED]
    # The marbles held, as bits of cells in order: sources come out in canonical order.
    low = high = 0
    for camp in range(CAMP_COUNT):
        if mine >> (1 + camp) & 1:
            low |= pos[MASKS + 2 * camp]
            high |= pos[MASKS + 2 * camp + 1]
    n = 0
    while low:
        cell = lowest(low)
        low &= low - 1
        n = _moves_of(pos, cell, team, mine, freed, moves, n)
    while high:
        cell = _HALF + lowest(high)
        high &= high - 1
        n = _moves_of(pos, cell, team, mine, freed, moves, n)
    return n


@compiled
def generate(pos: Array, players: int, moves: Array) -> int:
    """The legal moves of the camp to move (of its holder), as :func:`generate_for`; the game
    must not be over."""
    return generate_for(pos, players, _HOLDER[players, pos[TURN]], moves)


# -- play --------------------------------------------------------------------------------------------
@compiled
def _flip(pos: Array, marble: int, cell: int) -> None:
    """Put or take the bit of ``cell`` in the mask of ``marble``'s colour."""
    if cell < _HALF:
        pos[MASKS + 2 * marble - 2] ^= 1 << cell
    else:
        pos[MASKS + 2 * marble - 1] ^= 1 << (cell - _HALF)


@compiled
def make(pos: Array, players: int, move: int) -> tuple[int, bool]:
    """Play ``move`` (legal) for the camp to move, in place: the marble moves and pushes, its
    captures leave the board, the key, first capture, quiet moves and marble counts follow. The
    turn does not pass (:func:`step` does). Returns how many marbles were captured and whether
    the EX*PION was pushed."""
    source = move >> SOURCE_SHIFT
    target = move & CELL_BITS
    player = _HOLDER[players, pos[TURN]]
    team = _TEAM_OF_PLAYER[players, player]
    marble = pos[source]
    key = pos[KEY] ^ _ZOBRIST[marble, source] ^ _ZOBRIST[marble, target]
    pushed = pos[target] == XPION
    pos[source] = EMPTY
    pos[target] = marble
    _flip(pos, marble, source)
    _flip(pos, marble, target)
    if pushed:
        beyond = NEIGHBOUR_TABLE[target, DIRECTION_OF_OFFSET[target - source + SIZE]]
        pos[beyond] = XPION
        pos[EXPION] = beyond
        key ^= _ZOBRIST[XPION, target] ^ _ZOBRIST[XPION, beyond]
    found, packed = _captures(pos, _MINE[players, player], team, target, pushed)
    for i in range(found):
        cell = packed >> (SOURCE_SHIFT * i) & CELL_BITS
        victim = pos[cell]
        pos[cell] = EMPTY
        pos[MARBLES + victim - 1] -= 1
        _flip(pos, victim, cell)
        key ^= _ZOBRIST[victim, cell]
    if found and not pos[FREED]:
        pos[FREED] = 1
        key ^= _ZOBRIST_FREED
    pos[QUIET] = 0 if found or pushed else pos[QUIET] + 1
    pos[KEY] = key
    return found, pushed


@compiled
def step(pos: Array, players: int, move: int, moves: Array) -> tuple[int, int]:
    """Play ``move`` (legal) in place, test the endings in the rules' order and pass the turn
    (``ExpionState._apply``). Returns the outcome and, while the game goes on, how many legal
    moves the new camp to move has, written into ``moves``. The third occurrence is the caller's
    to test (it needs the positions seen): look up ``pos[KEY]`` after an ``ONGOING`` step.

    After a win, a draw by quiet moves or a blocked board, ``pos[TURN]`` is still the mover's
    camp (as in the plain engine)."""
    camp = pos[TURN]
    team = _TEAM_OF_CAMP[camp]
    found, _ = make(pos, players, move)
    if CAMP_OF_CELL[pos[EXPION]] >= 0:
        return EXPION_IN_CAMP, 0
    if found:
        other = TEAM_CAMP_TABLE[1 - team]
        if pos[MARBLES + other[0]] + pos[MARBLES + other[1]] == 0:
            return NO_MARBLES, 0
    if pos[QUIET] >= QUIET_LIMIT:
        return NO_PROGRESS, 0
    # The next camp whose holder can move; eliminated or stuck holders pass.
    tried = 0
    for offset in range(1, CAMP_COUNT + 1):
        after = (camp + offset) % CAMP_COUNT
        player = _HOLDER[players, after]
        if tried >> player & 1:
            continue
        n = generate_for(pos, players, player, moves)
        if n:
            pos[KEY] ^= _ZOBRIST_CAMP[camp] ^ _ZOBRIST_CAMP[after]
            pos[TURN] = after
            return ONGOING, n
        tried |= 1 << player
    return BLOCKED, 0


@compiled
def winners(players: int, camp: int, outcome: int) -> int:
    """The winning players as bits (player ``p``: bit ``p``) of a game that ended with
    ``outcome`` on ``camp``'s move (``pos[TURN]``); 0 for a draw."""
    if outcome in (EXPION_IN_CAMP, NO_MARBLES):
        return int(_WINNERS[players, _TEAM_OF_CAMP[camp]])
    return 0


@compiled
def player_to_move(pos: Array, players: int) -> int:
    """The player holding the camp to move (who may move any colour they hold)."""
    return int(_HOLDER[players, pos[TURN]])


@compiled
def team_to_move(pos: Array) -> int:
    """The team of the camp to move: 0 North and South, 1 East and West. Teams alternate from
    one move to the next, except where a camp passes (its holder eliminated or stuck): then the
    same team may move twice in a row."""
    return int(_TEAM_OF_CAMP[pos[TURN]])


@compiled
def refresh(pos: Array) -> None:
    """Compute the key, the marble counts and the masks of the position from its cells, the
    EX*PION's cell, the camp to move and ``FREED`` (:func:`make` keeps them up to date)."""
    key = _ZOBRIST_CAMP[pos[TURN]]
    if pos[FREED]:
        key ^= _ZOBRIST_FREED
    pos[MARBLES : MARBLES + CAMP_COUNT] = 0
    pos[MASKS : MASKS + 2 * CAMP_COUNT] = 0
    for cell in range(SPAN):
        contents = pos[cell]
        key ^= _ZOBRIST[contents, cell]
        if EMPTY < contents < XPION:
            pos[MARBLES + contents - 1] += 1
            _flip(pos, contents, cell)
    pos[KEY] = key


# -- the array-kernel interface of the shared searches (``engines/searches.py``) ----------------------
# A position as :func:`position_array`'s words, then the player count and how the move that led
# there ended the game (``ONGOING`` while it goes on).
PLAYERS_WORD, ENDED_WORD = POSITION_SIZE, POSITION_SIZE + 1
ARRAY_SIZE = POSITION_SIZE + 2
REPEATED = -2
"""``searches.REPEATED``: a repetition draw, which the path decided."""


@compiled
def array_generate(pos: Array, moves: Array) -> int:
    """:func:`generate` of a search's array position."""
    return generate(pos, pos[PLAYERS_WORD], moves)


@compiled
def array_apply(pos: Array, move: int, out: Array) -> None:
    """:func:`step` on a copy of ``pos`` written into ``out``, its outcome kept in ``out``."""
    out[:] = pos
    ended, _ = step(out, pos[PLAYERS_WORD], move, np.empty(MAX_MOVES, dtype=np.int32))
    out[ENDED_WORD] = ended


@compiled
def array_key(pos: Array) -> int:
    """The key of a search's array position (what repetition compares)."""
    return int(pos[KEY])


@compiled
def array_outcome(pos: Array, occurrences: int) -> int:
    """How the game stands at a search's array position seen ``occurrences`` times: -1
    (``searches.ONGOING``), :data:`REPEATED`, or the winners' bits (0: a draw)."""
    ended = pos[ENDED_WORD]
    if ended != ONGOING:
        return winners(pos[PLAYERS_WORD], pos[TURN], ended)
    if occurrences >= REPETITION_LIMIT:
        return REPEATED
    return -1


@compiled
def array_mover(pos: Array) -> int:
    """The player to move at a search's array position."""
    return player_to_move(pos, pos[PLAYERS_WORD])


def search_array(position: Position) -> Array:
    """A position as the shared searches hold it (:data:`ARRAY_SIZE` words)."""
    pos = np.zeros(ARRAY_SIZE, dtype=np.int64)
    pos[:POSITION_SIZE] = position_array(position)
    pos[PLAYERS_WORD] = position.players
    pos[ENDED_WORD] = position.outcome if position.outcome != REPETITION else ONGOING
    return pos


# -- playouts and perft --------------------------------------------------------------------------------
@compiled
def playout(
    pos: Array, players: int, keys: Array, counts: Array, slots: Array, trail: Array,
    moves: Array, rng: Array,
) -> tuple[int, int]:
    """Play uniformly random moves, in place, from a position that is not over until the game
    ends; return ``(outcome, plies)``, the moves played left in ``trail``. The table of positions
    seen is left as it was. A game longer than ``trail`` stops there and returns
    ``(ONGOING, -1)``: the caller may play it again with more room, from the same ``rng``."""
    n = generate(pos, players, moves)
    if n == 0:
        raise ValueError("expion kernel: no legal move in a position that is not over")
    plies = pushes = 0
    outcome = ONGOING
    while plies < trail.shape[0]:
        move = int(moves[rng_below(rng, n)])
        trail[plies] = move
        plies += 1
        outcome, n = step(pos, players, move, moves)
        if outcome != ONGOING:
            break
        slot = seen_push(keys, counts, pos[KEY])
        slots[pushes] = slot
        pushes += 1
        if counts[slot] >= REPETITION_LIMIT:
            outcome = REPETITION
            break
    for i in range(pushes - 1, -1, -1):
        seen_pop(keys, counts, slots[i])
    if outcome == ONGOING:
        return ONGOING, -1
    return outcome, plies


@compiled
def run_playouts(
    root: Array, players: int, keys: Array, counts: Array, n: int, seed: np.uint64, room: int,
) -> tuple[Array, int, Array, bool]:
    """``n`` random playouts from a position that is not over: wins per player, draws, lengths,
    and whether all fitted in ``room`` plies (if not, the batch stops: play it again with more)."""
    wins = np.zeros(players, dtype=np.int64)
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
        outcome, plies = playout(pos, players, keys, counts, slots, trail, moves, rng)
        if plies < 0:
            return wins, draws, lengths, False
        lengths[i] = plies
        won = winners(players, pos[TURN], outcome)
        if won == 0:
            draws += 1
        for player in range(players):
            wins[player] += won >> player & 1
    return wins, draws, lengths, True


@compiled
def perft_count(
    stack: Array, ply: int, depth: int, players: int, keys: Array, counts: Array, moves: Array
) -> int:
    """Move sequences of exactly ``depth`` ≥ 1 moves from ``stack[ply]`` (a game that ends
    sooner stops there). ``stack`` is a ``(plies, POSITION_SIZE)`` int64 array (each ply plays on
    a copy of the row above), ``moves`` a ``(plies, MAX_MOVES)`` int32 buffer, one row a ply.

    Called from Python only: with Numba 0.68.1, compiled code that calls a self-recursive
    compiled function (with array arguments) crashes once loaded from the disk cache."""
    here = stack[ply]
    n = generate(here, players, moves[ply])
    if depth == 1:
        return n
    total = 0
    child = stack[ply + 1]
    for i in range(n):
        child[:] = here
        outcome, _ = step(child, players, int(moves[ply, i]), moves[ply + 1])
        if outcome != ONGOING:
            continue
        slot = seen_push(keys, counts, child[KEY])
        if counts[slot] < REPETITION_LIMIT:
            total += perft_count(stack, ply + 1, depth - 1, players, keys, counts, moves)
        seen_pop(keys, counts, slot)
    return total


# -- Python side: moves as text, positions from and to the plain engine ---------------------------------
def move_code(text: str) -> int:
    """The kernel's code of a move written in notation (syntax only, as ``Move.from_text``;
    raises ``InvalidMoveError``)."""
    return from_plain_move(Move.from_text(text))


def move_text(code: int) -> str:
    """A kernel move in the notation of the rules file."""
    return f"{NAMES[code >> SOURCE_SHIFT]}-{NAMES[code & CELL_BITS]}"


def from_plain_move(move: Move) -> int:
    """The kernel's code of a plain engine ``Move``."""
    return move.source << SOURCE_SHIFT | move.target


def to_plain_move(code: int) -> Move:
    """The plain engine's ``Move`` of a kernel code."""
    return Move.from_text(move_text(code))


@dataclass(frozen=True)
class Position:
    """An Ex*Pion position as the kernel holds it, with the positions seen so far (the plain
    engine's keys: board bytes, camp letter, ``0``/``1`` for the first capture; key: count).

    ``board`` is the contents of the 81 cells (``EMPTY``, ``1 + camp``, ``XPION``, ``OFF``) as
    bytes. ``outcome`` is ``ONGOING`` or why the game ended; ``camp`` is then the camp that made
    the last move, except after a repetition draw (the next camp, as in the plain engine)."""

    players: int
    board: bytes
    expion: int
    camp: int
    freed: bool
    quiet: int
    ply: int
    seen: Mapping[bytes, int] = field(hash=False)
    outcome: int = ONGOING

    @property
    def is_over(self) -> bool:
        return self.outcome != ONGOING

    @property
    def to_move(self) -> int | None:
        """The player holding the camp to move, ``None`` once over."""
        return None if self.is_over else HOLDERS[self.players][self.camp]

    def result(self) -> Result:
        """The plain engine's ``Result``; raises ``ValueError`` while the game goes on."""
        if self.outcome == ONGOING:
            raise ValueError("expion kernel: the game is not over")
        if self.outcome not in _WINS:
            return Result((), (0,) * self.players, REASONS[self.outcome])
        team = team_of(self.camp)
        won = tuple(sorted({HOLDERS[self.players][c] for c in TEAM_CAMPS[team]}))
        return Result(won, tuple(1 if p in won else -1 for p in range(self.players)),
                      REASONS[self.outcome])

    def key(self) -> bytes:
        """The plain engine's key of this position (for the draw on the third occurrence)."""
        return self.board.translate(_TO_ASCII) + CAMP_LETTERS[self.camp].encode() + (
            b"1" if self.freed else b"0"
        )


def from_state(state: ExpionState) -> Position:
    """The kernel's position of a plain engine state (through its ``to_json``)."""
    data = state.to_json()
    board = "".join(reversed(data["board"])).encode("ascii").translate(_TO_KERNEL)
    result = data["result"]
    return Position(
        players=data["players"], board=board, expion=board.index(XPION),
        camp=CAMP_LETTERS.index(data["camp"]), freed=data["first_capture"],
        quiet=data["quiet_moves"], ply=data["ply"],
        seen={key.encode("ascii"): count for key, count in data["seen"]},
        outcome=ONGOING if result is None else _OUTCOMES[result["reason"]],
    )


def to_state(position: Position, game: ExpionGame | None = None) -> ExpionState:
    """The plain engine's state of a kernel position (through ``state_from_json``)."""
    game = game or ExpionGame(players=position.players)
    text = position.board.translate(_TO_ASCII).decode("ascii")
    return game.state_from_json({
        "game": "expion", "variant": game.variant, "players": position.players,
        "board": [text[rank * SIZE : rank * SIZE + SIZE] for rank in reversed(range(SIZE))],
        "camp": CAMP_LETTERS[position.camp], "first_capture": position.freed,
        "quiet_moves": position.quiet, "ply": position.ply,
        "seen": [[key.decode("ascii"), count] for key, count in position.seen.items()],
        "result": position.result().to_json() if position.is_over else None,
    })


def position_array(position: Position) -> Array:
    """The compiled code's array of ``position`` (:data:`POSITION_SIZE` int64, key included)."""
    require()
    pos = np.zeros(POSITION_SIZE, dtype=np.int64)
    pos[:SPAN] = np.frombuffer(position.board, dtype=np.uint8)
    pos[EXPION] = position.expion
    pos[TURN] = position.camp
    pos[FREED] = position.freed
    pos[QUIET] = position.quiet
    refresh(pos)
    return pos


def plain_key_hash(key: bytes) -> int:
    """The kernel's 64-bit key of a position given by the plain engine's key."""
    board = key[:SPAN].translate(_TO_KERNEL)
    value = int(np.bitwise_xor.reduce(_ZOBRIST[np.frombuffer(board, dtype=np.uint8), np.arange(SPAN)]))
    value ^= int(_ZOBRIST_CAMP[CAMP_LETTERS.index(chr(key[SPAN]))])
    return value ^ (int(_ZOBRIST_FREED) if key[SPAN + 1 :] == b"1" else 0)


def legal_moves(position: Position) -> list[int]:
    """The legal moves' codes in canonical order; empty once the game is over."""
    require()
    if position.is_over:
        return []
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    n = generate(position_array(position), position.players, moves)
    return [int(m) for m in moves[:n]]


def play(position: Position, move: int) -> Position:
    """The position after ``move``; raises ``ValueError`` if it is not legal."""
    return _play(position, move)[0]


def _play(position: Position, move: int, pos: Array | None = None) -> tuple[Position, Array]:
    """The position after ``move`` and the compiled code's array after it (played move by
    move: its key, counts and masks are the incremental ones). Given ``pos``, the array of
    ``position``, the move is known to be legal there (and ``pos`` is played on)."""
    if pos is None:
        if move not in legal_moves(position):
            raise ValueError(f"expion kernel: move {move} is not legal at ply {position.ply}")
        pos = position_array(position)
    before = int(pos[MARBLES:MASKS].sum())
    outcome, _ = step(pos, position.players, move, np.empty(MAX_MOVES, dtype=np.int32))
    # Positions before a capture can never recur: the plain engine forgets them.
    seen = {} if pos[MARBLES:MASKS].sum() < before else dict(position.seen)
    after = Position(
        position.players, pos[:SPAN].astype(np.uint8).tobytes(), int(pos[EXPION]), int(pos[TURN]),
        bool(pos[FREED]), int(pos[QUIET]), position.ply + 1, seen, int(outcome),
    )
    if outcome == ONGOING:
        key = after.key()
        seen[key] = seen.get(key, 0) + 1
        if seen[key] >= REPETITION_LIMIT:
            after = replace(after, outcome=REPETITION)
    return after, pos


def seen_table(seen: Mapping[bytes, int], spare: int = PLAYOUT_ROOM) -> tuple[Array, Array]:
    """A hash table (``keys``, ``counts``) holding ``seen`` (plain keys), with room for ``spare``
    more keys."""
    return compiled_seen_table({plain_key_hash(key): count for key, count in seen.items()}, spare)


def playouts(state: ExpionState | Position, n: int, seed: int = 0) -> Playouts:
    """``n`` uniformly random playouts from ``state``, all in compiled code; the same seed gives
    the same playouts. A player wins a playout when their team wins it. Of a finished game: its
    result ``n`` times, length 0."""
    require()
    position = state if isinstance(state, Position) else from_state(state)
    if position.is_over:
        return finished_playouts(position.result().winners, position.players, n)
    root = position_array(position)
    return with_room(lambda room: run_playouts(root, position.players, *seen_table(position.seen, spare=room),
                                               n, np.uint64(seed % 2**64), room), PLAYOUT_ROOM)


def trace_playout(state: ExpionState | Position, seed: int = 0) -> tuple[list[int], Position]:
    """The moves of one random playout as the compiled loop plays it (the first of
    ``playouts(state, 1, seed)``), and the final position (replayed with :func:`play`)."""
    require()
    position = state if isinstance(state, Position) else from_state(state)
    trail, _, _ = _trace(position, seed)
    for move in trail:
        position = play(position, move)
    return trail, position


def _trace(position: Position, seed: int) -> tuple[list[int], int, Array]:
    """One compiled random playout: its moves, its outcome and the array where it ended."""
    pos = position_array(position)
    if position.is_over:
        return [], position.outcome, pos
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    room, plies, outcome = PLAYOUT_ROOM, -1, ONGOING
    while plies < 0:
        keys, counts = seen_table(position.seen, spare=room)
        slots = np.empty(room, dtype=np.int64)
        trail = np.empty(room, dtype=np.int32)
        rng = np.array([seed % 2**64], dtype=np.uint64)
        pos = position_array(position)
        outcome, plies = playout(pos, position.players, keys, counts, slots, trail, moves, rng)
        room *= 4
    return [int(m) for m in trail[:plies]], int(outcome), pos


def perft(depth: int, state: ExpionState | Position | None = None, players: int = 4) -> int:
    """Move sequences of exactly ``depth`` moves from ``state`` (default: the start for
    ``players``), a game that ends sooner counted nowhere deeper."""
    require()
    if state is None:
        state = ExpionGame(players=players).new_state()
    position = state if isinstance(state, Position) else from_state(state)
    if depth == 0:
        return 1
    if position.is_over:
        return 0
    keys, counts = seen_table(position.seen, spare=depth)
    stack = np.empty((depth, POSITION_SIZE), dtype=np.int64)
    stack[0] = position_array(position)
    buffers = np.empty((depth, MAX_MOVES), dtype=np.int32)
    return int(perft_count(stack, 0, depth, position.players, keys, counts, buffers))


# -- agreement with the plain engine --------------------------------------------------------------------
def compare_with_plain(
    game: Game | int, games: int, seed: int = 0, *, takebacks: float = 0.0
) -> Agreement:
    """Play ``games`` random games with the kernel and the plain engine side by side (``game``:
    an Ex*Pion game, or its player count); at every ply compare the ordered legal moves (as
    text), the position (with the positions seen) and the end of the game and its result; raise
    :class:`KernelMismatchError` at the first difference.

    With ``takebacks == 0`` game ``i`` follows the kernel's own random playout of seed
    ``seed + i`` (so its compiled loop and hash table are checked too). Otherwise a Python
    generator picks the moves, and with that probability a move that takes back the last move of
    the same camp when there is one: such games end in repetition draws often.
    """
    require()
    if isinstance(game, int):
        game = ExpionGame(players=game)
    if not isinstance(game, ExpionGame):
        raise TypeError(f"expion kernel: not an Ex*Pion game: {game!r}")
    configuration = f"expion/{game.variant}/{game.players}"
    plies = compared = 0
    endings: dict[str, int] = {}
    rng = random.Random(seed)
    for number in range(games):
        state = game.new_state(seed=seed + number)
        position = from_state(state)
        trail: list[int] | None = None
        traced, ended = ONGOING, np.empty(0, dtype=np.int64)
        if takebacks == 0.0:
            trail, traced, ended = _trace(position, seed + number)
            trail.reverse()
        last: dict[int, int] = {}
        where = f"{configuration} game {number} (seed {seed + number})"
        pos = position_array(position)
        moves = np.empty(MAX_MOVES, dtype=np.int32)
        while True:
            plain = [str(m) for m in state.legal_moves()]
            codes = [] if position.is_over else [int(m) for m in moves[: generate(pos, game.players, moves)]]
            texts = [move_text(c) for c in codes]
            if plain != texts:
                raise KernelMismatchError(f"{where} ply {state.ply}: plain {plain} kernel {texts}")
            if from_state(state) != position:
                raise KernelMismatchError(f"{where} ply {state.ply}: {from_state(state)} {position}")
            compared += len(codes)
            if state.is_over:
                break
            if trail is not None:
                if not trail or trail[-1] not in codes:
                    raise KernelMismatchError(f"{where} ply {state.ply}: playout move not legal")
                index = codes.index(trail.pop())
            else:
                index = _pick(rng, codes, last.get(position.camp), takebacks)
                last[position.camp] = codes[index]
            state = state.play(plain[index])
            position, played = _play(position, codes[index], pos)
            plies += 1
            pos = position_array(position)
            if not np.array_equal(played, pos):
                raise KernelMismatchError(f"{where} ply {state.ply}: the key, counts or masks "
                                          "kept move by move differ from those of the cells")
            if state.is_over != position.is_over or (
                state.is_over and state.result() != position.result()
            ):
                raise KernelMismatchError(f"{where} ply {state.ply}: results differ: "
                                          f"{state.result() if state.is_over else None} vs "
                                          f"{position.result() if position.is_over else None}")
        if trail is not None and (
            trail or traced != position.outcome or not np.array_equal(ended, pos)
        ):
            raise KernelMismatchError(f"{where}: the compiled playout ended elsewhere")
        if to_state(position, game).to_json() != state.to_json():
            raise KernelMismatchError(f"{where}: to_state differs from the plain state")
        reason = state.result().reason
        endings[reason] = endings.get(reason, 0) + 1
    return Agreement(configuration, games, plies, compared, endings)


def _pick(rng: random.Random, codes: list[int], last: int | None, takebacks: float) -> int:
    """A random move's index, preferring with probability ``takebacks`` the move that takes back
    ``last`` (the same camp's previous move)."""
    if last is not None and rng.random() < takebacks:
        back = (last & CELL_BITS) << SOURCE_SHIFT | last >> SOURCE_SHIFT
        if back in codes:
            return codes.index(back)
    return rng.randrange(len(codes))
