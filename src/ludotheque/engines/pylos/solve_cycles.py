"""Pylos under the standard and advanced rules: retrograde analysis with cycles, resumable.

A square (or, under the advanced rules, a line) sends one or two balls back to the reserve, so
ball counts go down as well as up and a position may come back: the game has cycles. Each reserve
is still 15 minus the player's balls on the board, so a position is still the board and the player
to move, and the kids index (``solve_index``) numbers them all; one file holds every layer
(``entries.u8``, layer ``n`` from ``base[n]``).

**Passes by distance.** An entry is ``0`` (not proven yet) or ``1 + d``. Pass ``d`` proves the
positions of distance exactly ``d``, reading only entries proven by earlier passes (so the pass
may write in place, and a stretch solved twice gives the same bytes):

- ``d = 0``: the mover has no ball left in the reserve: lost;
- ``d`` odd: a move reaches a position lost in ``d - 1`` (the top: won in 1);
- ``d`` even: every move reaches a position won in at most ``d - 1`` plies, one in ``d - 1``.

A pass looks only at the positions that may end within ``d`` plies (:func:`lower_bound`: each
ply adds a ball at most, so a reserve of ``r`` balls lasts ``r`` of its player's turns at least,
and the top needs the 29 cells below it full): the others cannot be of distance ``d``, and whole
runs of colourings (those with the same count of the mover's balls) are skipped at once. And from
pass 2 on, a position is proven only by a child the pass before proved, whose mover is the other
player with the same balls as before the move: so the colourings of a shape with ``k`` own balls
are looked at only where a board its moves may lead to, whatever the colours
(:func:`child_shapes`), holds an entry with ``n - k`` own balls proven by the pass before
(:meth:`CyclesSolver.wanted`, taken from the table at the start of each pass, or of a resumed
one). Both skips are exact: they leave out only positions the pass cannot prove.

The first pass that proves nothing ends the analysis (a loss in ``d + 1`` needs a win in ``d``;
a win in ``d + 2`` needs a loss in ``d + 1``): every position still ``0`` is then a **draw**.
This is the rules page's repetition rule: from those positions neither player can force an end,
so the losing side can always keep the game going until a position occurs a third time; the
winner of a proven position reaches the end without repeating (a forced win is unaffected).

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> done = CyclesSolver(folder, "standard", balls=2).run()
>>> done.finished, CyclesTable(folder, "standard").probe(0, 0, 0)  # no square with 2 balls each
(True, Solved(wins=False, distance=4))
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from ..compiled import Array, compiled, count, lowest
from .board import ABOVE, BALLS_PER_PLAYER, CELL_COUNT, HIGHER, TOP, available, bits, covered
from .kernel import MAX_MOVES, VARIANT_CODES, apply, generate
from .rules import PylosGame
from .solve_index import KidsIndex, colour_rank, kids_index, transform
from .solve_kernel import unrank
from .solver import CHECKPOINT_S, DISK_LIMIT, MEMORY_LIMIT, STRETCH, Plan, Solved

FORMAT = 1
DRAW = None
MOST_PLIES = 253
"""The longest distance a byte holds (``1 + d`` up to 254); a longer one stops the analysis."""


@compiled
def _entry(own: int, opp: int, table: Array, base: Array, shapes: Array, slots: Array,
           images: Array, canon: Array, tables: Array, colourings: Array, binomial: Array,
           offsets: Array) -> int:
    """The byte of position ``(own, opp)`` (mover's side)."""
    occupied = own | opp
    at = np.searchsorted(shapes, occupied)
    n = count(occupied)
    mine = transform(tables, images[at], own)
    return int(table[base[n] + slots[at] * colourings[n]
                     + colour_rank(mine, canon[at], n, binomial, offsets)])


@compiled
def lower_bound(n: int, k: int, balls: int) -> int:
    """The fewest plies to the end of a position of ``n`` balls, ``k`` of them the mover's: each
    ply adds one ball to the board at most, so the mover's reserve empties after ``balls - k`` of
    their turns at best (lost in ``2 (balls - k)``), the other's after ``balls - (n - k)`` of
    theirs (won in one more ply), and the top needs the 29 cells below it full first."""
    return min(2 * (balls - k), 2 * (balls - (n - k)) + 1, TOP + 1 - n)


@compiled
def _prove(own: int, opp: int, d: int, balls: int, variant: int, moves: Array, table: Array,
           base: Array, shapes: Array, slots: Array, images: Array, canon: Array, tables: Array,
           colourings: Array, binomial: Array, offsets: Array) -> bool:
    """Whether position ``(own, opp)``, not proven yet, is proven by pass ``d``."""
    if count(own) == balls:
        return d == 0
    if d == 0:
        return False
    total = generate(own, opp, 0, variant, moves)
    longest = -1
    for i in range(total):
        move = moves[i]
        if move & 31 == TOP:
            return d == 1  # the top wins at once
        mine, other = apply(own, opp, 0, move)
        byte = _entry(other, mine, table, base, shapes, slots, images, canon, tables, colourings,
                      binomial, offsets)
        if d & 1:
            if byte == d:  # a child lost in d - 1
                return True
        else:
            child = byte - 1
            if byte == 0 or child & 1 == 0 or child > d - 1:
                return False  # a child not won, or not yet, or won only later
            longest = max(longest, child)
    return d & 1 == 0 and longest == d - 1


@compiled
def prove_stretch(
    shape: int, slot: int, first: int, last: int, d: int, balls: int, variant: int, wanted: int,
    table: Array, base: Array, shapes: Array, slots: Array, images: Array, canon: Array,
    tables: Array, colourings: Array, binomial: Array, offsets: Array,
) -> int:
    """Pass ``d`` over colourings ``first`` to ``last - 1`` of canonical ``shape``, those with
    ``k`` own balls only where bit ``k`` of ``wanted`` is set: how many positions it proved."""
    n = count(shape)
    cells = np.zeros(n, dtype=np.int64)
    rest = shape
    for j in range(n):
        cells[j] = lowest(rest)
        rest &= rest - 1
    moves = np.empty(MAX_MOVES, dtype=np.int32)
    start = base[n] + slot * colourings[n]
    # The colouring of rank ``first``: k own balls at the bits of a colex-ranked pattern.
    k, pattern = unrank(first, n, balls, binomial, offsets)
    proved = 0
    rank = first
    while rank < last:
        if lower_bound(n, k, balls) > d or not wanted >> k & 1:
            # No colouring with k own balls ends within d plies, or none has a child proven by
            # the pass before: on to the first with k + 1.
            rank = offsets[n, k + 1]
            k += 1
            pattern = (1 << k) - 1
            continue
        if table[start + rank] == 0:
            own = 0
            bits = pattern
            while bits:
                own |= 1 << cells[lowest(bits)]
                bits &= bits - 1
            if _prove(own, shape & ~own, d, balls, variant, moves, table, base, shapes, slots,
                      images, canon, tables, colourings, binomial, offsets):
                table[start + rank] = d + 1
                proved += 1
        if pattern:
            low = pattern & -pattern
            ripple = pattern + low
            pattern = (((ripple ^ pattern) >> 2) // low) | ripple
        if pattern == 0 or pattern >> n:
            k += 1
            pattern = (1 << k) - 1
        rank += 1
    return proved


RUNTIME_BYTES = 384 << 20
"""Memory beside the table: the interpreter and Numba's compiled code, the index, the links
between shapes (``child_groups``: 20 MB for 15 balls) and the blocks of the table read at the
start of a pass (the whole 15-ball run measured 2.34 GiB resident with its 2.1 GiB table)."""
ALL_COLOURINGS = (1 << 62) - 1
"""The ``wanted`` mask of a shape whose every colouring a pass looks at."""


def _removals(after: int, target: int, figures: tuple[int, ...]) -> list[int]:
    """The boards a turn that put a ball on ``target`` (board ``after``) may leave, whatever the
    colours: itself, and where the board holds a whole figure through ``target``, each removal of
    one or two free balls (the second freed by the first, perhaps)."""
    boards = [after]
    if not any(after & figure == figure for figure in figures):
        return boards
    for first in bits(after & ~covered(after)):
        rest = after & ~(1 << first)
        boards.append(rest)
        boards.extend(rest & ~(1 << second) for second in bits(rest & ~covered(rest)))
    return boards


def child_shapes(occupied: int, variant: str) -> set[int]:
    """Every board a move may lead to from the board ``occupied`` (below the top), whatever the
    colours (more than the moves of any one colouring: a pass only skips on it); the top, which
    ends the game, leads to none."""
    figures_at = PylosGame(variant).figures_at or [()] * CELL_COUNT
    open_cells = available(occupied) & ~(1 << TOP)
    found: set[int] = set()
    for target in bits(open_cells):
        found.update(_removals(occupied | 1 << target, target, figures_at[target]))
    for source in bits(occupied & ~covered(occupied)):
        for target in bits(open_cells & HIGHER[source] & ~ABOVE[source]):
            found.update(_removals(occupied & ~(1 << source) | 1 << target, target, figures_at[target]))
    return found


@lru_cache(maxsize=4)
def child_groups(balls: int, variant: str) -> tuple[Array, Array]:
    """``(starts, groups)``: the canonical shapes (numbered through the layers, ``slot`` plus the
    shapes of the layers below) that the moves of canonical shape ``g`` may lead to are
    ``groups[starts[g]:starts[g + 1]]``. Built once (a few seconds for 15 balls)."""
    index = kids_index(balls)
    firsts = np.cumsum([0, *(len(layer) for layer in index.layers)])
    starts, groups = [0], []
    last = len(index.shapes) - 1
    for layer in index.layers:
        for shape in layer.tolist():
            boards = np.array(sorted(child_shapes(shape, variant)), dtype=np.int64)
            at = np.searchsorted(index.shapes, boards)
            inside = (at <= last) & (index.shapes[np.minimum(at, last)] == boards)  # in this game
            canon = index.canon[at[inside]]
            counts = np.array([int(c).bit_count() for c in canon], dtype=np.int64)
            numbers = firsts[counts] + index.slots[at[inside]]
            groups.extend(sorted(set(numbers.tolist())))
            starts.append(len(groups))
    return np.array(starts, dtype=np.int64), np.array(groups, dtype=np.int64)


@dataclass
class CyclesProgress:
    """How far the analysis got: the pass under way, and in it the layer, shape and entry
    reached; the positions proved in this pass and in all; ``finished`` after an empty pass."""

    variant: str
    balls: int
    passes: int = 0
    layer: int = 0
    slot: int = 0
    rank: int = 0
    proved_in_pass: int = 0
    proved: int = 0
    by_pass: list[int] = field(default_factory=list)
    seconds: float = 0.0
    finished: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"format": FORMAT, **{key: getattr(self, key) for key in self.__dataclass_fields__}}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> CyclesProgress:
        if data.get("format") != FORMAT:
            raise ValueError("pylos solver: progress.json of another format")
        return cls(**{key: data[key] for key in cls.__dataclass_fields__})


def read_cycles_progress(folder: Path | str) -> CyclesProgress | None:
    """The progress kept in ``folder``, or ``None``."""
    path = Path(folder) / "progress.json"
    return CyclesProgress.from_json(json.loads(path.read_text())) if path.exists() else None


CyclesReport = Callable[[CyclesProgress, int], None]


class CyclesSolver:
    """The retrograde analysis of the ``standard`` or ``advanced`` rules into ``folder``."""

    def __init__(self, folder: Path | str, variant: str, *, balls: int = BALLS_PER_PLAYER,
                 threads: int = 1, checkpoint_s: float = CHECKPOINT_S, stretch: int = STRETCH) -> None:
        if variant not in ("standard", "advanced"):
            raise ValueError(f"pylos solver: no cycles to resolve under the {variant} rules")
        self.folder, self.variant = Path(folder), variant
        self.index: KidsIndex = kids_index(balls)
        self.threads, self.checkpoint_s, self.stretch = max(1, threads), checkpoint_s, stretch
        sizes = [self.index.layer_entries(n) for n in range(self.index.top_layer + 1)]
        self.base = np.array([0, *np.cumsum(sizes)[:-1]], dtype=np.int64)
        self.entries = int(sum(sizes))
        # Canonical shapes numbered through the layers: layer n's slot s is firsts[n] + s.
        self.firsts = np.cumsum([0, *(len(layer) for layer in self.index.layers)]).astype(np.int64)

    def plan(self) -> Plan:
        """One byte an entry, every layer mapped at once (a move may add or take balls), and the
        rest of the process (:data:`RUNTIME_BYTES`)."""
        sizes = {n: self.index.layer_entries(n) for n in range(self.index.top_layer + 1)}
        return Plan(self.entries, self.entries, self.entries + RUNTIME_BYTES, sizes)

    def progress(self) -> CyclesProgress:
        found = read_cycles_progress(self.folder)
        if found is None:
            return CyclesProgress(self.variant, self.index.balls)
        if (found.variant, found.balls) != (self.variant, self.index.balls):
            raise ValueError(f"pylos solver: {self.folder} holds the {found.variant} rules with "
                             f"{found.balls} balls a player")
        return found

    def run(self, report: CyclesReport | None = None, *, max_stretches: int | None = None) -> CyclesProgress:
        """Run passes until one proves nothing (or ``max_stretches`` stretches: a test's stop)."""
        plan = self.plan()
        if plan.memory_bytes > MEMORY_LIMIT or plan.disk_bytes > DISK_LIMIT:
            raise RuntimeError("pylos solver: the tables would exceed 16 GiB of memory or 40 GB of disk")
        self.folder.mkdir(parents=True, exist_ok=True)
        path = self.folder / "entries.u8"
        if not path.exists():
            with path.open("wb") as handle:
                handle.truncate(self.entries)
        table = np.memmap(path, dtype=np.uint8, mode="r+", shape=(self.entries,))
        progress = self.progress()
        budget, last_save = max_stretches, time.monotonic()
        code = VARIANT_CODES[self.variant]
        wanted, wanted_pass = np.zeros(0, dtype=np.int64), -1
        with ThreadPoolExecutor(self.threads) as pool:
            while not progress.finished:
                if wanted_pass != progress.passes:
                    wanted, wanted_pass = self.wanted(progress.passes, table), progress.passes
                pieces = self._batch(progress)
                began = time.monotonic()
                jobs = [pool.submit(self._prove_pieces, pieces[i::self.threads], progress.passes,
                                    code, table, wanted[self.firsts[progress.layer]:])
                        for i in range(min(self.threads, len(pieces)))]
                proved = sum(job.result() for job in jobs)
                progress.proved_in_pass += proved
                progress.proved += proved
                progress.seconds += time.monotonic() - began
                self._advance(progress, pieces[-1], table)
                if budget is not None:
                    budget -= 1
                if budget == 0 or progress.finished or time.monotonic() - last_save >= self.checkpoint_s:
                    table.flush()
                    self._save(progress)
                    last_save = time.monotonic()
                    if report is not None:
                        report(progress, self.entries)
                    if budget == 0:
                        break
        table.flush()
        self._save(progress)
        return progress

    def _batch(self, progress: CyclesProgress) -> list[tuple[int, int, int, int]]:
        """The next ``threads * stretch`` entries at most, within one layer, as pieces of shapes
        (any split works: a pass reads only what earlier passes proved)."""
        n, slot, rank = progress.layer, progress.slot, progress.rank
        shapes, size = self.index.layers[n], int(self.index.colourings[n])
        pieces: list[tuple[int, int, int, int]] = []
        room = self.threads * self.stretch
        while room > 0 and slot < len(shapes):
            last = min(size, rank + self.stretch, rank + room)
            pieces.append((int(shapes[slot]), slot, rank, last))
            room -= last - rank
            slot, rank = (slot + 1, 0) if last >= size else (slot, last)
        return pieces

    def _advance(self, progress: CyclesProgress, piece: tuple[int, int, int, int],
                 table: np.ndarray) -> None:
        """Move the progress past ``piece``: the next shape, layer, or pass; an empty pass ends."""
        _, slot, _, last = piece
        n = progress.layer
        progress.slot, progress.rank = (slot + 1, 0) if last >= self.index.colourings[n] else (slot, last)
        if progress.slot < len(self.index.layers[n]):
            return
        progress.layer, progress.slot, progress.rank = n + 1, 0, 0
        if progress.layer <= self.index.top_layer:
            return
        # Counted again from the table: a run stopped in this pass after a checkpoint wrote
        # entries that the resumed pass skips (already proven) and would not count.
        progress.proved_in_pass = _count(table, progress.passes + 1)
        progress.by_pass.append(progress.proved_in_pass)
        progress.proved = sum(progress.by_pass)
        if progress.proved_in_pass == 0 and progress.passes > 0:
            progress.finished = True
            return
        if progress.passes >= MOST_PLIES:
            raise RuntimeError("pylos solver: distances beyond 253 plies do not fit a byte")
        progress.passes += 1
        progress.layer, progress.proved_in_pass = 0, 0

    def _prove_pieces(self, pieces: list[tuple[int, int, int, int]], d: int, code: int,
                      table: np.ndarray, wanted: Array) -> int:
        """Pass ``d`` over ``pieces`` of one layer, ``wanted`` the masks of its shapes by slot."""
        index = self.index
        return sum(prove_stretch(shape, slot, first, last, d, index.balls, code, int(wanted[slot]),
                                 table, self.base, index.shapes, index.slots, index.images,
                                 index.canon, index.tables, index.colourings, index.binomial,
                                 index.offsets)
                   for shape, slot, first, last in pieces)

    def wanted(self, d: int, table: np.ndarray) -> Array:
        """For each canonical shape (numbered through the layers), the mask of the counts ``k``
        of own balls whose colourings pass ``d`` must look at. A position proven by pass ``d >= 2``
        has a child proven by pass ``d - 1`` (lost in ``d - 1`` for a win in ``d``; won in
        ``d - 1`` for a loss in ``d``), and that child's mover is the other player, whose balls
        the move left alone: so the colourings with ``k`` own balls of a shape are looked at only
        where a shape its moves may lead to (:func:`child_groups`) holds a position with
        ``n - k`` own balls proven by pass ``d - 1`` (entry ``d``). Pass 0 and 1 look at all."""
        index, total = self.index, int(self.firsts[-1])
        if d < 2:
            return np.full(total, ALL_COLOURINGS, dtype=np.int64)
        proven = self._proven_by_group(d, table)
        starts, groups = child_groups(index.balls, self.variant)
        near = np.zeros_like(proven)
        some = starts[1:] > starts[:-1]
        near[some] = np.logical_or.reduceat(proven[groups], starts[:-1][some], axis=0)
        wanted = np.zeros(total, dtype=np.int64)
        for n in range(index.top_layer + 1):
            rows = slice(int(self.firsts[n]), int(self.firsts[n + 1]))
            for k in range(max(0, n - index.balls), min(index.balls, n) + 1):
                wanted[rows] |= near[rows, n - k].astype(np.int64) << k
        return wanted

    def _proven_by_group(self, byte: int, table: np.ndarray) -> Array:
        """``proven[g, k]``: whether an entry of canonical shape ``g`` with ``k`` own balls is
        ``byte``; the table read a few megabytes at a time."""
        index = self.index
        proven = np.zeros((int(self.firsts[-1]), index.balls + 1), dtype=bool)
        for n in range(index.top_layer + 1):
            size, rows = int(index.colourings[n]), len(index.layers[n])
            step = max(1, (1 << 24) // size)
            for row in range(0, rows, step):
                end = min(rows, row + step)
                block = np.asarray(table[self.base[n] + row * size:self.base[n] + end * size])
                hits = block.reshape(end - row, size) == byte
                for k in range(max(0, n - index.balls), min(index.balls, n) + 1):
                    first, last = int(index.offsets[n, k]), int(index.offsets[n, k + 1])
                    at = int(self.firsts[n]) + row
                    proven[at:at + end - row, k] = hits[:, first:last].any(axis=1)
        return proven

    def _save(self, progress: CyclesProgress) -> None:
        path = self.folder / "progress.json"
        fresh = path.with_suffix(".tmp")
        fresh.write_text(json.dumps(progress.to_json(), indent=1))
        os.replace(fresh, path)


def _count(table: np.ndarray, byte: int) -> int:
    """Entries of ``table`` equal to ``byte``, a slice at a time (little memory)."""
    step = 1 << 26
    return sum(int(np.count_nonzero(table[i:i + step] == byte)) for i in range(0, len(table), step))


class CyclesTable:
    """The analysis of ``folder``, read-only: proven values, draws once it is finished."""

    def __init__(self, folder: Path | str, variant: str) -> None:
        self.folder = Path(folder)
        found = read_cycles_progress(self.folder)
        if found is None or found.variant != variant:
            raise ValueError(f"pylos solver: no {variant} analysis in {self.folder}")
        self.progress = found
        self.balls = found.balls
        self.index = kids_index(found.balls)
        sizes = [self.index.layer_entries(n) for n in range(self.index.top_layer + 1)]
        self.base = [0, *np.cumsum(sizes).tolist()]
        self.table = np.memmap(self.folder / "entries.u8", dtype=np.uint8, mode="r", shape=(self.base[-1],))

    @property
    def available(self) -> bool:
        """Whether anything is proven yet."""
        return self.progress.proved > 0

    def probe(self, light: int, dark: int, mover: int) -> Solved | None:
        """A proven value for ``mover``; ``None`` for a draw (once finished) or not proven yet
        (see :meth:`is_draw`)."""
        own, opp = (dark, light) if mover else (light, dark)
        n, entry = self.index.locate(own, opp)
        byte = int(self.table[self.base[n] + entry])
        return None if byte == 0 else Solved(bool((byte - 1) & 1), byte - 1)

    def is_draw(self, light: int, dark: int, mover: int) -> bool:
        """Whether the analysis is finished and this position is a draw."""
        return self.progress.finished and self.probe(light, dark, mover) is None
