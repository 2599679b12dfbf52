"""The compiled part of the kids solver: one stretch of a layer's entries, solved from the tables.

An entry is one byte: ``0`` not solved yet, else ``1 + d`` where ``d`` is the number of plies to
the end under perfect play (the winner ends as fast as they can, the loser lasts as long as they
can). Under the kids rules nobody draws and the winner plays the last move, so ``d`` odd means the
mover wins and ``d`` even that the mover loses: the byte says both the value and the distance.

A position's moves lead to the next layer (a placement: one more ball) or to its own layer (a
raise: the same balls, one lifted), to shapes solved before it (``solve_index``: raised shapes
come first in a layer). So every entry is computed once, from its children, in index order: no
retrograde pass, no cycle.
"""

from __future__ import annotations

import numpy as np

from ..compiled import Array, compiled, count, lowest
from .board import ABOVE, HIGHER, TOP
from .kernel import available, covered
from .solve_index import colour_rank, transform

_ABOVE = np.array(ABOVE, dtype=np.int64)
_HIGHER = np.array(HIGHER, dtype=np.int64)
UNSOLVED = 0
NO_SLOT = -1


@compiled
def unrank(rank: int, n: int, balls: int, binomial: Array, offsets: Array) -> tuple[int, int]:
    """``(k, pattern)``: the colouring of rank ``rank`` as ``k`` own balls at the bits of
    ``pattern`` among the shape's ``n`` cells (colex order)."""
    k = max(0, n - balls)
    while k < min(balls, n) and offsets[n, k + 1] <= rank:
        k += 1
    rest = rank - offsets[n, k]
    pattern = 0
    for i in range(k, 0, -1):
        place = i - 1
        while binomial[place + 1, i] <= rest:
            place += 1
        pattern |= 1 << place
        rest -= binomial[place, i]
    return k, pattern


@compiled
def _child(occupied: int, shapes: Array, slots: Array, images: Array, canon: Array) -> tuple[int, int, int]:
    """``(slot, symmetry, canonical shape)`` of the shape ``occupied``."""
    at = np.searchsorted(shapes, occupied)
    if at >= shapes.shape[0] or shapes[at] != occupied:
        raise ValueError("pylos solver: a move led off the index")
    return slots[at], images[at], canon[at]


@compiled
def solve_stretch(
    shape: int, slot: int, first: int, last: int, balls: int, same: Array, following: Array,
    shapes: Array, slots: Array, images: Array, canon: Array, tables: Array,
    colourings: Array, binomial: Array, offsets: Array,
) -> tuple[int, int]:
    """Solve entries ``first`` to ``last - 1`` (colouring ranks) of canonical ``shape``, slot
    ``slot`` of its layer, into ``same`` (this layer's table), reading raises from ``same`` and
    placements from ``following`` (the next layer's, complete). Returns ``(wins, longest)``:
    how many of them the mover wins, and the longest distance among them."""
    n = count(shape)
    cells = np.zeros(n, dtype=np.int64)
    rest = shape
    for j in range(n):
        cells[j] = lowest(rest)
        rest &= rest - 1
    open_cells = available(shape)
    free = shape & ~covered(shape)
    # Each move's child shape depends on the shape alone: look it up once per stretch.
    place = np.full((TOP + 1, 3), NO_SLOT, dtype=np.int64)
    lift = np.full((TOP + 1, TOP + 1, 3), NO_SLOT, dtype=np.int64)
    base = slot * colourings[n]
    following_size = colourings[n + 1] if n + 1 < colourings.shape[0] else 0
    # In the fullest layer both reserves are empty: no placement is ever looked at.
    targets = open_cells if following_size else 0
    while targets:
        target = lowest(targets)
        targets &= targets - 1
        if target != TOP:
            place[target, 0], place[target, 1], place[target, 2] = _child(
                shape | 1 << target, shapes, slots, images, canon)
    sources = free
    while sources:
        source = lowest(sources)
        sources &= sources - 1
        targets = open_cells & _HIGHER[source] & ~_ABOVE[source]
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            lift[source, target, 0], lift[source, target, 1], lift[source, target, 2] = _child(
                shape & ~(1 << source) | 1 << target, shapes, slots, images, canon)
    k, pattern = unrank(first, n, balls, binomial, offsets)
    wins = 0
    longest = 0
    for rank in range(first, last):
        own = 0
        bits = pattern
        while bits:
            own |= 1 << cells[lowest(bits)]
            bits &= bits - 1
        opp = shape & ~own
        best = _solve_one(own, opp, k, n, balls, open_cells, free, place, lift, same, following,
                          following_size, tables, colourings, binomial, offsets)
        same[base + rank] = best + 1
        wins += best & 1
        longest = max(longest, best)
        # The next colouring: Gosper's next pattern of k bits, or the first one of k + 1 bits.
        if pattern:
            low = pattern & -pattern
            ripple = pattern + low
            pattern = (((ripple ^ pattern) >> 2) // low) | ripple
        if pattern == 0 or pattern >> n:
            k += 1
            pattern = (1 << k) - 1
    return wins, longest


@compiled
def _solve_one(
    own: int, opp: int, k: int, n: int, balls: int, open_cells: int, free: int, place: Array,
    lift: Array, same: Array, following: Array, following_size: int, tables: Array,
    colourings: Array, binomial: Array, offsets: Array,
) -> int:
    """The distance of one position (odd: the mover wins), from its children's entries."""
    if k == balls:
        return 0  # the mover's reserve is empty: they have lost
    win = 1 << 30
    loss = -1
    targets = open_cells
    while targets:
        target = lowest(targets)
        targets &= targets - 1
        if target == TOP:
            return 1  # the top wins at once: nothing is faster
        # The child is seen from the opponent: their balls ``opp`` are its mover's.
        mine = transform(tables, place[target, 1], opp)
        entry = following[place[target, 0] * following_size
                          + colour_rank(mine, place[target, 2], n + 1, binomial, offsets)]
        if entry == UNSOLVED:
            raise ValueError("pylos solver: a placement led to an unsolved entry")
        child = entry - 1
        if child & 1 == 0:
            win = min(win, child + 1)
            if win == 1:
                return 1
        else:
            loss = max(loss, child + 1)
    sources = own & free
    while sources:
        source = lowest(sources)
        sources &= sources - 1
        targets = open_cells & _HIGHER[source] & ~_ABOVE[source]
        while targets:
            target = lowest(targets)
            targets &= targets - 1
            mine = transform(tables, lift[source, target, 1], opp)
            entry = same[lift[source, target, 0] * colourings[n]
                         + colour_rank(mine, lift[source, target, 2], n, binomial, offsets)]
            if entry == UNSOLVED:
                raise ValueError("pylos solver: a raise led to an unsolved entry")
            child = entry - 1
            if child & 1 == 0:
                win = min(win, child + 1)
            else:
                loss = max(loss, child + 1)
    return win if win < 1 << 30 else loss
