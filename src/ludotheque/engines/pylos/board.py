"""Pylos geometry: 30 cells on four levels, as integer bit masks computed once.

Cells are numbered in *cell order* (level, then rank, then file), so sorting indexes sorts cells.

>>> NAMES[0], NAMES[15], NAMES[16], NAMES[TOP]
('1a1', '1d4', '2a1', '4a1')
>>> [NAMES[c] for c in bits(SUPPORTS[INDEX["2b2"]])]
['1b2', '1c2', '1b3', '1c3']
"""

from __future__ import annotations

from collections.abc import Iterator

Cell = int
Mask = int

LEVEL_SIZES = (4, 3, 2, 1)
LEVEL_OFFSETS = (0, 16, 25, 29)
CELL_COUNT = 30
TOP: Cell = 29
BALLS_PER_PLAYER = 15
FILES = "abcd"


def _index(level: int, file: int, rank: int) -> Cell:
    return LEVEL_OFFSETS[level - 1] + rank * LEVEL_SIZES[level - 1] + file


def _cells_of(level: int) -> list[tuple[int, int]]:
    size = LEVEL_SIZES[level - 1]
    return [(file, rank) for rank in range(size) for file in range(size)]


LEVEL: list[int] = []
NAMES: list[str] = []
for _level in range(1, 5):
    for _file, _rank in _cells_of(_level):
        LEVEL.append(_level)
        NAMES.append(f"{_level}{FILES[_file]}{_rank + 1}")
INDEX: dict[str, Cell] = {name: cell for cell, name in enumerate(NAMES)}
BIT: list[Mask] = [1 << cell for cell in range(CELL_COUNT)]
ALL: Mask = (1 << CELL_COUNT) - 1
LEVEL_MASK: list[Mask] = [
    sum(BIT[c] for c in range(CELL_COUNT) if LEVEL[c] == level) for level in range(5)
]

# SUPPORTS[c]: the four cells that cell c rests on (0 on level 1).
SUPPORTS: list[Mask] = [0] * CELL_COUNT
for _level in range(2, 5):
    for _file, _rank in _cells_of(_level):
        SUPPORTS[_index(_level, _file, _rank)] = sum(
            BIT[_index(_level - 1, _file + df, _rank + dr)] for df in (0, 1) for dr in (0, 1)
        )
# ABOVE[c]: the cells that rest on c.
ABOVE: list[Mask] = [
    sum(BIT[up] for up in range(CELL_COUNT) if SUPPORTS[up] & BIT[c]) for c in range(CELL_COUNT)
]
# HIGHER[c]: every cell on a strictly higher level than c.
HIGHER: list[Mask] = [sum(LEVEL_MASK[lv] for lv in range(LEVEL[c] + 1, 5)) for c in range(CELL_COUNT)]
UPPER_CELLS: tuple[Cell, ...] = tuple(c for c in range(CELL_COUNT) if LEVEL[c] > 1)


def _squares() -> list[Mask]:
    found = []
    for level in (1, 2, 3):
        size = LEVEL_SIZES[level - 1]
        for rank in range(size - 1):
            for file in range(size - 1):
                found.append(
                    sum(BIT[_index(level, file + df, rank + dr)] for df in (0, 1) for dr in (0, 1))
                )
    return found


def _lines() -> list[Mask]:
    """Rows and columns of level 1 (4 cells) and level 2 (3 cells); level 3 has none."""
    found = []
    for level in (1, 2):
        size = LEVEL_SIZES[level - 1]
        for k in range(size):
            found.append(sum(BIT[_index(level, f, k)] for f in range(size)))
            found.append(sum(BIT[_index(level, k, r)] for r in range(size)))
    return found


SQUARES: list[Mask] = _squares()
LINES: list[Mask] = _lines()
SQUARES_AT: list[tuple[Mask, ...]] = [
    tuple(sq for sq in SQUARES if sq & BIT[c]) for c in range(CELL_COUNT)
]
SQUARES_AND_LINES_AT: list[tuple[Mask, ...]] = [
    SQUARES_AT[c] + tuple(line for line in LINES if line & BIT[c]) for c in range(CELL_COUNT)
]


def bits(mask: Mask) -> Iterator[Cell]:
    """The cells of ``mask`` in cell order."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def available(occupied: Mask) -> Mask:
    """Empty cells on level 1 or resting on four occupied cells."""
    free = ~occupied & LEVEL_MASK[1]
    for cell in UPPER_CELLS:
        support = SUPPORTS[cell]
        if occupied & support == support and not occupied & BIT[cell]:
            free |= BIT[cell]
    return free


def covered(occupied: Mask) -> Mask:
    """Cells that some occupied cell rests on: their balls are not free."""
    mask = 0
    upper = occupied & ~LEVEL_MASK[1]
    while upper:
        low = upper & -upper
        mask |= SUPPORTS[low.bit_length() - 1]
        upper ^= low
    return mask
