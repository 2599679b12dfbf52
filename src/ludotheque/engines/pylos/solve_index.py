"""A perfect index of Pylos positions under the kids rule set, for the solver (``solver.py``).

Under the kids rules a position is a board and the player to move: no ball ever leaves the
board, so each reserve is ``balls - (the player's balls on the board)``. The rules treat both
players alike, so a position is written from the mover's side: ``own`` (the mover's balls) and
``opp`` (the other's), masks in the kernel's cell order (``kernel.py``), and Light to move on
``(light, dark)`` is the same position as Dark to move on ``(dark, light)``.

**The index.** The *shape* of a board is its occupied cells: a support-closed set of the 29 cells
below the top (the top ends the game). The 8 symmetries of the square act on every level at
once; each shape has a *canonical* one, the least mask among its images. A layer ``n`` holds the
canonical shapes of ``n`` balls, those with more balls in raised positions first (a raise keeps
``n`` and lifts the sum of levels, so its results come earlier in the layer), and for each shape
every colouring of its ``n`` cells with ``k`` own balls, ``max(0, n - balls) <= k <=
min(balls, n)``, by ``k`` then by the colex rank of the own cells among the shape's cells. An
entry's number is ``slot * colourings(n) + rank``: a perfect index, no key stored. Colourings of
a symmetric shape that are images of each other are both kept (few: simpler than a finer orbit
count).

>>> index = kids_index(4)
>>> index.layer_entries(0), index.layer_entries(1)  # the empty board; one ball on 3 shapes
(1, 6)
>>> n, entry = index.locate(0b1, 0)  # a Light ball on 1a1, Light to move again
>>> n, entry == index.locate(0b1000, 0)[1]  # 1d1 is its mirror image
(1, True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from ..compiled import Array, compiled, count, lowest
from .board import (
    BALLS_PER_PLAYER,
    CELL_COUNT,
    LEVEL,
    LEVEL_MASK,
    LEVEL_OFFSETS,
    LEVEL_SIZES,
    SUPPORTS,
    TOP,
)

SYMMETRIES = 8
_CHUNKS = 4  # a 30-bit mask is transformed 8 bits at a time by table look-ups
_BELOW_TOP = TOP  # cells 0..28: every cell a shape may hold


def _cell_image(symmetry: int, cell: int) -> int:
    """Where ``symmetry`` (0 identity; 1-3 mirrors and the half turn; 4-7 with a transposition)
    sends ``cell``, on its own level."""
    level = LEVEL[cell]
    size = LEVEL_SIZES[level - 1]
    rank, file = divmod(cell - LEVEL_OFFSETS[level - 1], size)
    if symmetry & 4:
        file, rank = rank, file
    if symmetry & 1:
        file = size - 1 - file
    if symmetry & 2:
        rank = size - 1 - rank
    return LEVEL_OFFSETS[level - 1] + rank * size + file


def symmetry_tables() -> Array:
    """``tables[s, chunk, byte]``: the image under symmetry ``s`` of the cells ``byte`` holds in
    ``chunk`` (bits ``8 * chunk`` to ``8 * chunk + 7``)."""
    tables = np.zeros((SYMMETRIES, _CHUNKS, 256), dtype=np.int64)
    for symmetry in range(SYMMETRIES):
        images = [_cell_image(symmetry, cell) for cell in range(CELL_COUNT)]
        for chunk in range(_CHUNKS):
            for byte in range(256):
                image = 0
                for bit in range(8):
                    cell = 8 * chunk + bit
                    if byte >> bit & 1 and cell < CELL_COUNT:
                        image |= 1 << images[cell]
                tables[symmetry, chunk, byte] = image
    return tables


@compiled
def transform(tables: Array, symmetry: int, mask: int) -> int:
    """The image of ``mask`` under ``symmetry``."""
    return int(tables[symmetry, 0, mask & 255] | tables[symmetry, 1, mask >> 8 & 255]
               | tables[symmetry, 2, mask >> 16 & 255] | tables[symmetry, 3, mask >> 24 & 255])


@compiled
def colour_rank(own: int, shape: int, n: int, binomial: Array, offsets: Array) -> int:
    """The rank of the colouring ``own`` of ``shape`` (``n`` cells) among the shape's colourings."""
    rank = offsets[n, count(own)]
    i = 0
    rest = own
    while rest:
        cell = lowest(rest)
        rest &= rest - 1
        i += 1
        rank += binomial[count(shape & ((1 << cell) - 1)), i]
    return int(rank)


@compiled
def locate_entry(own: int, opp: int, shapes: Array, slots: Array, images: Array, canon: Array,
                 tables: Array, colourings: Array, binomial: Array, offsets: Array) -> int:
    """The entry number of position ``(own, opp)`` in its layer (``count(own | opp)``); -1 for a
    board that is no shape (unsupported ball, or the top)."""
    occupied = own | opp
    at = np.searchsorted(shapes, occupied)
    if at >= shapes.shape[0] or shapes[at] != occupied:
        return -1
    n = count(occupied)
    mine = transform(tables, images[at], own)
    return int(slots[at] * colourings[n] + colour_rank(mine, canon[at], n, binomial, offsets))


@lru_cache(maxsize=1)
def _shapes() -> tuple[int, ...]:
    """Every support-closed set of the cells below the top, in increasing order."""
    found: list[int] = []

    def extend(cell: int, occupied: int) -> None:
        if cell == _BELOW_TOP:
            found.append(occupied)
            return
        extend(cell + 1, occupied)
        if occupied & SUPPORTS[cell] == SUPPORTS[cell]:
            extend(cell + 1, occupied | 1 << cell)

    extend(0, 0)
    return tuple(sorted(found))


def _level_sum(mask: int) -> int:
    """The sum of the levels of the balls of ``mask`` (a raise increases it)."""
    return sum(level * (mask & LEVEL_MASK[level]).bit_count() for level in range(1, 5))


@dataclass(frozen=True)
class KidsIndex:
    """The index for ``balls`` balls a player (15 by the rules; fewer for small sub-problems).

    ``shapes`` (sorted) with, for each, ``images`` (the symmetry that makes it canonical),
    ``canon`` (that canonical shape) and ``slots`` (the canonical shape's place in its layer);
    ``layers[n]``: the canonical shapes of layer ``n`` in slot order, ``level_sums[n]`` the sum of
    the levels of their balls (decreasing); ``colourings[n]``,
    ``offsets[n, k]`` (where the colourings with ``k`` own balls start) and ``binomial``.
    """

    balls: int
    tables: Array
    shapes: Array
    images: Array
    canon: Array
    slots: Array
    layers: tuple[Array, ...]
    level_sums: tuple[Array, ...]
    colourings: Array
    offsets: Array
    binomial: Array

    @property
    def top_layer(self) -> int:
        """The most balls a board below the top holds in this game."""
        return len(self.layers) - 1

    def layer_entries(self, n: int) -> int:
        """Entries of layer ``n``: its canonical shapes times their colourings."""
        return int(len(self.layers[n]) * self.colourings[n])

    def locate(self, own: int, opp: int) -> tuple[int, int]:
        """``(layer, entry)`` of a position seen from the mover; ``ValueError`` for a board no
        position of this game has."""
        if own & opp or max(own.bit_count(), opp.bit_count()) > self.balls:
            raise ValueError(f"pylos solver: no such position ({own:#x}, {opp:#x})")
        entry = locate_entry(own, opp, self.shapes, self.slots, self.images, self.canon,
                             self.tables, self.colourings, self.binomial, self.offsets)
        if entry < 0:
            raise ValueError(f"pylos solver: not a board below the top ({own:#x}, {opp:#x})")
        return (own | opp).bit_count(), int(entry)

    def position(self, n: int, entry: int) -> tuple[int, int]:
        """``(own, opp)`` of entry ``entry`` of layer ``n``: a colouring of a canonical shape,
        the inverse of :meth:`locate` (up to a symmetry); for tests and samples."""
        size = int(self.colourings[n])
        shape, rank = int(self.layers[n][entry // size]), entry % size
        k = max(0, n - self.balls)
        while k < min(self.balls, n) and self.offsets[n, k + 1] <= rank:
            k += 1
        rest, pattern = rank - int(self.offsets[n, k]), 0
        for i in range(k, 0, -1):  # the colex unranking of the own cells among the shape's
            place = i - 1
            while self.binomial[place + 1, i] <= rest:
                place += 1
            pattern |= 1 << place
            rest -= int(self.binomial[place, i])
        cells = [cell for cell in range(CELL_COUNT) if shape >> cell & 1]
        own = sum(1 << cells[place] for place in range(n) if pattern >> place & 1)
        return own, shape & ~own

    def arrays(self) -> tuple[Array, ...]:
        """The arrays the compiled solver reads, in its argument order."""
        return (self.shapes, self.slots, self.images, self.canon, self.tables, self.colourings,
                self.binomial, self.offsets)


@lru_cache(maxsize=4)
def kids_index(balls: int = BALLS_PER_PLAYER) -> KidsIndex:
    """The index of every board of at most ``balls`` balls a player (built in a second or two)."""
    if not 1 <= balls <= BALLS_PER_PLAYER:
        raise ValueError(f"pylos solver: balls must be between 1 and {BALLS_PER_PLAYER}")
    top_layer = min(2 * balls, _BELOW_TOP)
    tables = symmetry_tables()
    shapes = np.array([s for s in _shapes() if s.bit_count() <= top_layer], dtype=np.int64)
    images_of = np.stack([_transform_all(tables, s, shapes) for s in range(SYMMETRIES)])
    images = np.argmin(images_of, axis=0).astype(np.int64)
    canon = images_of[images, np.arange(len(shapes))]
    by_layer: list[list[int]] = [[] for _ in range(top_layer + 1)]
    for mask in np.unique(canon).tolist():
        by_layer[mask.bit_count()].append(mask)
    layers = tuple(np.array(sorted(masks, key=lambda m: (-_level_sum(m), m)), dtype=np.int64)
                   for masks in by_layer)
    slot_of = {int(mask): slot for layer in layers for slot, mask in enumerate(layer.tolist())}
    slots = np.array([slot_of[int(mask)] for mask in canon], dtype=np.int64)
    binomial = np.zeros((CELL_COUNT + 1, CELL_COUNT + 1), dtype=np.int64)
    for row in range(CELL_COUNT + 1):
        binomial[row, 0] = 1
        for col in range(1, row + 1):
            binomial[row, col] = binomial[row - 1, col - 1] + binomial[row - 1, col]
    offsets = np.zeros((top_layer + 1, balls + 2), dtype=np.int64)
    colourings = np.zeros(top_layer + 1, dtype=np.int64)
    for n in range(top_layer + 1):
        total = 0
        for k in range(balls + 2):
            offsets[n, k] = total
            if max(0, n - balls) <= k <= min(balls, n):
                total += binomial[n, k]
        colourings[n] = total
    level_sums = tuple(np.array([_level_sum(m) for m in layer.tolist()], dtype=np.int64)
                       for layer in layers)
    return KidsIndex(balls, tables, shapes, images, canon, slots, layers, level_sums, colourings,
                     offsets, binomial)


def _transform_all(tables: Array, symmetry: int, masks: Array) -> Array:
    """The images of many masks under ``symmetry`` (numpy, for building the index)."""
    out = np.zeros_like(masks)
    for chunk in range(_CHUNKS):
        out |= tables[symmetry, chunk][(masks >> (8 * chunk)) & 255]
    return out
