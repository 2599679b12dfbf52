"""Plimil geometry: the reconstructed board as ONE data table, the block mechanism and the
material (what rules and views both read).

The printed figures are lost; ``LAYOUT`` below is the reconstruction of ``RULES.md`` beside this
module (44 cells, zones, fixed stems). Every other table of this module is computed from it once, so
a later correction of the board is a change to ``LAYOUT`` alone. Squares are ``file + 8 * rank``
(``a1`` = 0, ``h8`` = 63): sorting squares sorts cells in board order (rank, then file).

>>> len(CELLS), NAMES[CELLS[0]], NAMES[CELLS[-1]]
(44, 'd1', 'e8')
>>> [NAMES[s] for s in START_CELLS[BLUE]][:4]
['d1', 'e1', 'b2', 'c2']
>>> NAMES[ROTATE[CW][INDEX["a4"]]], NAMES[ROTATE[CCW][INDEX["a4"]]]
('d8', 'e1')
>>> window_slot(is_tall=False, flips=0), window_slot(is_tall=True, flips=0), window_slot(True, 1)
(1, 0, 2)
"""

from __future__ import annotations

from collections.abc import Iterator

Square = int
Mask = int
Ball = int
# A block's balls as built, ``(bottom, middle, top)``.
Triple = tuple[Ball, Ball, Ball]

BLUE, RED, NEUTRAL = 0, 1, 2
BALL_LETTERS = "BRN"
NO_SQUARE = -1
FILES = "abcdefgh"
CW, CCW = 1, -1
VARIANTS = ("standard", "setup10", "open")
BLOCKS_PER_PLAYER = 12
BLOCK_COUNT = 24
# SUPPLY[player][ball]: the 36 balls a player builds with: 18 of their colour, 6 of the
# other's, 12 neutral.
SUPPLY: tuple[tuple[int, int, int], tuple[int, int, int]] = ((18, 6, 12), (6, 18, 12))
# The draw rules: the third occurrence of a position, the 100th ply without a colour change.
REPETITION_LIMIT = 3
QUIET_LIMIT = 100

# The reconstructed board (RULES.md, "Board (Decision)"), seen from above, rank 1 (Blue)
# at the bottom. Each cell reads zone + stem (+ a mark):
#   zone  B / R  Blue's / Red's wedge (start cells, stems planted by that player)
#         b / r  Blue's / Red's diagonal cells (start cells)
#         W E C  West wedge, East wedge, centre (free at the start)
#   stem  S / T  fixed short / tall stem; ? planted by the zone's player
#   +     also planted by the zone's player in the variant ``setup10``
#   .     not a cell of the board
LAYOUT = (
    "8   .   .   .  R?  R?   .   .   .",
    "7   .  rS  R?  R?  R?  R?  rT+  .",
    "6   .  WT  rS+ R?  R?  rT  ES   .",
    "5  WT  WS  WT  CS  CT  ES  ET  ES",
    "4  WS  WT  WS  CT  CS  ET  ES  ET",
    "3   .  WS  bT  B?  B?  bS+ ET   .",
    "2   .  bT+ B?  B?  B?  B?  bS   .",
    "1   .   .   .  B?  B?   .   .   .",
)


def square(file: int, rank: int) -> Square:
    """The square of 0-based ``file`` and ``rank``."""
    return file + 8 * rank


def file_of(sq: Square) -> int:
    return sq & 7


def rank_of(sq: Square) -> int:
    return sq >> 3


NAMES: list[str] = [f"{FILES[s & 7]}{(s >> 3) + 1}" for s in range(64)]
INDEX: dict[str, Square] = {name: s for s, name in enumerate(NAMES)}


def _parse_layout() -> dict[Square, str]:
    tokens: dict[Square, str] = {}
    for line in LAYOUT:
        rank_text, *cells = line.split()
        for file, token in enumerate(cells):
            if token != ".":
                tokens[square(file, int(rank_text) - 1)] = token
    return tokens


_TOKENS = _parse_layout()
CELLS: tuple[Square, ...] = tuple(sorted(_TOKENS))
ON_BOARD: list[bool] = [s in _TOKENS for s in range(64)]
ZONE: dict[Square, str] = {s: token[0] for s, token in _TOKENS.items()}
ZONE_NAMES = {
    "B": "blue wedge", "R": "red wedge", "b": "blue diagonal", "r": "red diagonal",
    "W": "west wedge", "E": "east wedge", "C": "centre",
}
# ZONE_IDS[s]: the zone of the board's own cell ``s`` as views name it (``blue_wedge``, ...).
ZONE_IDS: dict[Square, str] = {s: ZONE_NAMES[zone].replace(" ", "_") for s, zone in ZONE.items()}
_WEDGE = {BLUE: "B", RED: "R"}
_DIAGONAL = {BLUE: "b", RED: "r"}

# START_CELLS[player]: where that player's 12 blocks stand at the start, in board order; a block
# is named by its start cell, and numbered: Blue's 0-11, then Red's 12-23, in board order.
def _start_cells(player: int) -> tuple[Square, ...]:
    return tuple(s for s in CELLS if ZONE[s] in (_WEDGE[player], _DIAGONAL[player]))


START_CELLS: tuple[tuple[Square, ...], tuple[Square, ...]] = (_start_cells(BLUE), _start_cells(RED))
BLOCK_START: tuple[Square, ...] = START_CELLS[BLUE] + START_CELLS[RED]
BLOCK_OF_START: dict[Square, int] = {s: b for b, s in enumerate(BLOCK_START)}


def owner(block: int) -> int:
    """The player who built ``block`` (blocks 0-11 are Blue's, 12-23 Red's)."""
    return BLUE if block < BLOCKS_PER_PLAYER else RED


def _planted(variant: str, player: int) -> tuple[Square, ...]:
    def is_planted(token: str) -> bool:
        if token[0] == _WEDGE[player]:
            return True
        return variant == "setup10" and token[0] == _DIAGONAL[player] and token.endswith("+")

    return tuple(s for s in CELLS if is_planted(_TOKENS[s]))


# PLANTED[variant][player]: the cells whose stems that player plants in secret, in board order
# (the order of the letters of a ``stems`` move). Every other cell holds a fixed stem.
PLANTED: dict[str, tuple[tuple[Square, ...], tuple[Square, ...]]] = {
    variant: (_planted(variant, BLUE), _planted(variant, RED)) for variant in VARIANTS
}
# FIXED_TALL[variant]: the fixed stems that are tall; FIXED[variant]: every fixed stem.
FIXED: dict[str, Mask] = {
    variant: sum(1 << s for s in CELLS if s not in PLANTED[variant][0] + PLANTED[variant][1])
    for variant in VARIANTS
}
FIXED_TALL: dict[str, Mask] = {
    variant: sum(1 << s for s in CELLS if FIXED[variant] >> s & 1 and _TOKENS[s][1] == "T")
    for variant in VARIANTS
}


def window_slot(is_tall: bool, flips: int) -> int:
    """THE block mechanism: which ball of a block's built triple shows in its window.

    A block holds ``(bottom, middle, top)`` as built. On a short stem the window shows the
    middle ball; a tall stem pushes the column up by one, so the window shows the bottom ball.
    Turning a block over (every capture does) reverses the triple, so after an odd number of
    turns the built top stands at the bottom.
    """
    slot_now = 0 if is_tall else 1
    return 2 - slot_now if flips & 1 else slot_now


# WINDOW[is_tall][flips parity]: window_slot as a table for the move generator.
WINDOW: tuple[tuple[int, int], tuple[int, int]] = (
    (window_slot(False, 0), window_slot(False, 1)),
    (window_slot(True, 0), window_slot(True, 1)),
)


def current_slot(built_slot: int, flips: int) -> int:
    """Where a built slot stands now (0 bottom, 2 top) after ``flips`` turns."""
    return 2 - built_slot if flips & 1 else built_slot


def _rotated(sq: Square, direction: int) -> Square:
    # Clockwise seen from above (rank 1 at the bottom): the west side goes to the top.
    file, rank = file_of(sq), rank_of(sq)
    return square(rank, 7 - file) if direction == CW else square(7 - rank, file)


# ROTATE[direction][s]: where the stem or block on ``s`` stands after a quarter turn.
ROTATE: dict[int, list[Square]] = {
    d: [_rotated(s, d) if ON_BOARD[s] else s for s in range(64)] for d in (CW, CCW)
}
# SOURCE[direction][s]: what stood on ``s`` before the turn (the inverse permutation).
SOURCE: dict[int, list[Square]] = {d: ROTATE[-d] for d in (CW, CCW)}
# TURNED[r][s]: where the board's own cell ``s`` (its place at the start) stands after ``r``
# net clockwise quarter turns.
TURNED: list[list[Square]] = [list(range(64))]
for _ in range(3):
    TURNED.append([ROTATE[CW][TURNED[-1][s]] for s in range(64)])

# _MASK_BYTES[direction][i][byte]: the image under a turn of the bits of byte ``i`` of a mask,
# so that turning a 64-bit mask costs 8 look-ups.
_MASK_BYTES: dict[int, list[list[Mask]]] = {
    d: [
        [
            sum(1 << ROTATE[d][8 * i + bit] for bit in range(8) if value >> bit & 1)
            for value in range(256)
        ]
        for i in range(8)
    ]
    for d in (CW, CCW)
}


def rotate_mask(mask: Mask, direction: int) -> Mask:
    """The squares of ``mask`` after a quarter turn in ``direction``."""
    tables = _MASK_BYTES[direction]
    return (
        tables[0][mask & 255] | tables[1][mask >> 8 & 255] | tables[2][mask >> 16 & 255]
        | tables[3][mask >> 24 & 255] | tables[4][mask >> 32 & 255]
        | tables[5][mask >> 40 & 255] | tables[6][mask >> 48 & 255] | tables[7][mask >> 56]
    )


def forward(player: int) -> int:
    """The rank step that is "forward" (en montant) for ``player``: Blue up, Red down."""
    return 1 if player == BLUE else -1


def _cell_at(file: int, rank: int) -> Square:
    if 0 <= file < 8 and 0 <= rank < 8 and ON_BOARD[square(file, rank)]:
        return square(file, rank)
    return NO_SQUARE


# STEPS[player][s]: the (landing, jumped) pairs of a block of that player's colour on ``s``,
# forward or diagonally forward, sorted by landing; ``jumped`` is NO_SQUARE for a one-stem move.
STEPS: list[list[list[tuple[Square, Square]]]] = []
# BACK_DIAGONALS[player][s]: landings of a neutral moved by that player (diagonally toward them).
BACK_DIAGONALS: list[list[list[Square]]] = []
for _player in (BLUE, RED):
    _f = forward(_player)
    _steps: list[list[tuple[Square, Square]]] = []
    _backs: list[list[Square]] = []
    for _s in range(64):
        _x, _y = file_of(_s), rank_of(_s)
        _found: list[tuple[Square, Square]] = []
        _back: list[Square] = []
        if ON_BOARD[_s]:
            for _dx in (-1, 0, 1):
                _one = _cell_at(_x + _dx, _y + _f)
                if _one != NO_SQUARE:
                    _found.append((_one, NO_SQUARE))
                    _two = _cell_at(_x + 2 * _dx, _y + 2 * _f)
                    if _two != NO_SQUARE:
                        _found.append((_two, _one))
                if _dx:
                    _down = _cell_at(_x + _dx, _y - _f)
                    if _down != NO_SQUARE:
                        _back.append(_down)
        _steps.append(sorted(_found))
        _backs.append(sorted(_back))
    STEPS.append(_steps)
    BACK_DIAGONALS.append(_backs)


def _flanks(landing: Square, along_rank: bool) -> list[tuple[Square, Square]]:
    """(captured, destination) pairs on both sides of ``landing``, sorted by captured cell."""
    x, y = file_of(landing), rank_of(landing)
    pairs = []
    for d in (-1, 1):
        near = _cell_at(x + d, y) if along_rank else _cell_at(x, y + d)
        far = _cell_at(x - d, y) if along_rank else _cell_at(x, y - d)
        if near != NO_SQUARE and far != NO_SQUARE:
            pairs.append((near, far))
    return sorted(pairs)


# RANK_FLANKS[s]: captures of a coloured block landing on ``s`` (the captured block on the same
# rank is planted on the other side); FILE_FLANKS[s]: the same along the file, for neutrals.
RANK_FLANKS: list[list[tuple[Square, Square]]] = [
    _flanks(s, True) if ON_BOARD[s] else [] for s in range(64)
]
FILE_FLANKS: list[list[tuple[Square, Square]]] = [
    _flanks(s, False) if ON_BOARD[s] else [] for s in range(64)
]


def bits(mask: Mask) -> Iterator[Square]:
    """The squares of ``mask`` in board order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low
