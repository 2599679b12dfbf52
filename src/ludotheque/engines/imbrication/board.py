"""Imbrication geometry: an 8×8 board as 64-bit masks, rays, the action tiles, the counts of a
game, territories.

Cells are numbered in *board order* (rank, then file): ``a1`` is 0, ``h1`` is 7, ``a2`` is 8,
``h8`` is 63, so sorting indexes sorts cells the way ``legal_moves()`` must.

>>> NAMES[0], NAMES[7], NAMES[8], NAMES[63], INDEX["d4"]
('a1', 'h1', 'a2', 'h8', 27)
>>> [NAMES[c] for c in RAYS[INDEX["g7"]][DIRECTIONS.index((1, 1))]]
['h8']
>>> TILES[4], TILE_TABLE["ljump"].motion, len(TILE_TABLE["ljump"].directions)
('jump', 'long_capture', 4)
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

Cell = int
Mask = int

SIZE = 8
CELL_COUNT = SIZE * SIZE
FILES = "abcdefgh"
FULL: Mask = (1 << CELL_COUNT) - 1

NAMES: list[str] = [f"{FILES[c % SIZE]}{c // SIZE + 1}" for c in range(CELL_COUNT)]
INDEX: dict[str, Cell] = {name: cell for cell, name in enumerate(NAMES)}
BIT: list[Mask] = [1 << c for c in range(CELL_COUNT)]

FILE_A: Mask = sum(BIT[c] for c in range(CELL_COUNT) if c % SIZE == 0)
FILE_H: Mask = sum(BIT[c] for c in range(CELL_COUNT) if c % SIZE == SIZE - 1)
RANK_1: Mask = (1 << SIZE) - 1
RANK_8: Mask = RANK_1 << (CELL_COUNT - SIZE)
EDGE: Mask = FILE_A | FILE_H | RANK_1 | RANK_8

# (file step, rank step): the four orthogonal directions, then the four diagonal ones.
ORTHOGONAL: tuple[tuple[int, int], ...] = ((1, 0), (-1, 0), (0, 1), (0, -1))
DIAGONAL: tuple[tuple[int, int], ...] = ((1, 1), (-1, 1), (1, -1), (-1, -1))
DIRECTIONS: tuple[tuple[int, int], ...] = ORTHOGONAL + DIAGONAL
ORTHOGONAL_DIRS: tuple[int, ...] = (0, 1, 2, 3)
DIAGONAL_DIRS: tuple[int, ...] = (4, 5, 6, 7)


def _ray(cell: Cell, direction: tuple[int, int]) -> tuple[Cell, ...]:
    file, rank = cell % SIZE, cell // SIZE
    cells: list[Cell] = []
    while True:
        file, rank = file + direction[0], rank + direction[1]
        if not (0 <= file < SIZE and 0 <= rank < SIZE):
            return tuple(cells)
        cells.append(rank * SIZE + file)


# RAYS[c][d]: the cells from c outwards in direction d, nearest first (up to the edge).
RAYS: list[tuple[tuple[Cell, ...], ...]] = [
    tuple(_ray(c, d) for d in DIRECTIONS) for c in range(CELL_COUNT)
]
# NEIGHBOURS[c]: orthogonal neighbours of c, as a mask (territories are orthogonal, rules §5).
NEIGHBOURS: list[Mask] = [
    sum(BIT[RAYS[c][d][0]] for d in ORTHOGONAL_DIRS if RAYS[c][d]) for c in range(CELL_COUNT)
]
# FLANKS[c]: for each line through c (left-right, below-above) with both neighbours on the
# board, the mask of those two neighbours: the placement ban of §4.1 looks at them.
FLANKS: list[tuple[Mask, ...]] = [
    tuple(
        BIT[RAYS[c][a][0]] | BIT[RAYS[c][b][0]]
        for a, b in ((0, 1), (2, 3))
        if RAYS[c][a] and RAYS[c][b]
    )
    for c in range(CELL_COUNT)
]


@dataclass(frozen=True, slots=True)
class Tile:
    """One action tile: which directions it uses and how the piece moves along them."""

    id: str
    directions: tuple[int, ...]
    # "step" (1 cell), "slide" (≥1 empty cells), "short_capture", "long_capture" or "none".
    motion: str
    fr: str
    en: str


# The nine tiles in the order of the rules file's table: that order feeds the seeded shuffles
# ("Chance, exactly") and the canonical order that determinize draws unknown tiles from. Every
# fact about a tile lives in this one table.
TILE_TABLE: dict[str, Tile] = {
    tile.id: tile
    for tile in (
        Tile("step", ORTHOGONAL_DIRS, "step", "pas orthogonal", "orthogonal step"),
        Tile("dstep", DIAGONAL_DIRS, "step", "pas diagonal", "diagonal step"),
        Tile("slide", ORTHOGONAL_DIRS, "slide", "glissade orthogonale", "orthogonal slide"),
        Tile("dslide", DIAGONAL_DIRS, "slide", "glissade diagonale", "diagonal slide"),
        Tile("jump", ORTHOGONAL_DIRS, "short_capture", "prise courte orthogonale",
             "short orthogonal capture"),
        Tile("djump", DIAGONAL_DIRS, "short_capture", "prise courte diagonale",
             "short diagonal capture"),
        Tile("ljump", ORTHOGONAL_DIRS, "long_capture", "prise longue orthogonale",
             "long orthogonal capture"),
        Tile("dljump", DIAGONAL_DIRS, "long_capture", "prise longue diagonale",
             "long diagonal capture"),
        Tile("blank", (), "none", "tuile vierge", "blank tile"),
    )
}
TILES: tuple[str, ...] = tuple(TILE_TABLE)
TILE_COUNT = len(TILES)
BLANK = TILES.index("blank")

# A game is five rounds, each of 4 opening placements then one action turn per tile (rules:
# "Turn structure").
ROUNDS = 5
OPENING_PLACEMENTS = 4
TURNS_PER_ROUND = TILE_COUNT


def bits(mask: Mask) -> Iterator[Cell]:
    """The cells of ``mask`` in board order.

    >>> [NAMES[c] for c in bits(BIT[9] | BIT[0])]
    ['a1', 'b2']
    """
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def spread(mask: Mask) -> Mask:
    """The cells orthogonally next to some cell of ``mask`` (``mask`` itself not included)."""
    return (
        ((mask << 1) & ~FILE_A)
        | ((mask >> 1) & ~FILE_H)
        | ((mask << SIZE) & FULL)
        | (mask >> SIZE)
    ) & ~mask


def banned(enemy: Mask) -> Mask:
    """Cells flanked on one line by two ``enemy`` pieces: no placement there (§4.1).

    >>> [NAMES[c] for c in bits(banned(BIT[INDEX["c3"]] | BIT[INDEX["e3"]]))]
    ['d3']
    """
    left = (enemy << 1) & ~FILE_A
    right = (enemy >> 1) & ~FILE_H
    below = (enemy << SIZE) & FULL
    above = enemy >> SIZE
    return (left & right) | (below & above)


def regions(empty: Mask) -> Iterator[Mask]:
    """The orthogonally connected regions of ``empty``, by their lowest cell."""
    while empty:
        region = empty & -empty
        while True:
            grown = region | (spread(region) & empty)
            if grown == region:
                break
            region = grown
        empty &= ~region
        yield region


def territories(own: Mask, other: Mask) -> list[Mask]:
    """The territories of the player owning ``own`` (rules §5): maximal empty regions off the
    edge whose every orthogonal neighbour holds one of that player's pieces.

    >>> ring = sum(BIT[INDEX[n]] for n in ("c2", "b3", "d3", "c4"))
    >>> [[NAMES[c] for c in bits(t)] for t in territories(ring, 0)]
    [['c3']]
    """
    empty = FULL & ~(own | other)
    found = []
    for region in regions(empty):
        if region & EDGE:
            continue
        if spread(region) & ~own == 0:
            found.append(region)
    return found


def _between(a: Cell, b: Cell) -> Mask:
    for ray in RAYS[a]:
        if b in ray:
            return sum(BIT[c] for c in ray[: ray.index(b)])
    return 0


# BETWEEN[a][b]: the cells strictly between two cells of one line (0 when not aligned): a hop
# from a to b captures the one enemy piece standing there.
BETWEEN: list[list[Mask]] = [[_between(a, b) for b in range(CELL_COUNT)] for a in range(CELL_COUNT)]
