"""A proof search for standard and advanced Pylos: a position's exact value, by iterative
deepening over the retrograde analysis (``solve_cycles``) and a large transposition table.

**What it computes.** ``distance(P, k)``: the exact distance of ``P`` (the winner hastens, the
loser delays: the retrograde analysis's ``1 + d`` bytes) when the game from ``P`` is forced to end
within ``k`` plies, else "no end within ``k``". The recursion is the analysis's passes read the
other way round: the mover's reserve empty, lost in 0; the top, won in 1; a child lost in ``d - 1``,
won in ``d`` (the least such ``d``); every child won, lost in one more than the longest. It depends
on the position and ``k`` alone, not on the path: a position met again deeper in the search is
searched again with a smaller ``k`` and the search ends. A forced win never repeats a position (its
distance falls at every ply), so neither the rules' repetition draw nor a cycle can make a proof
false, and the values are exactly those the finished analysis will hold. Iterative deepening
(``k = 1, 2, …`` from the root) proves the root's value at the first ``k`` that reaches it.

**What it reads.** No game ends before a reserve is spent or the board is full
(``solve_cycles.lower_bound``: the start needs 30 plies at least), so a search of depth ``k``
stops at a position that cannot end within ``k``. Every entry the analysis proved (a win or a
loss in ``d`` is final whatever later passes find) answers at once; and an entry still ``0`` after
``p`` complete passes has distance at least ``p``, so a search of depth ``k < p`` stops there.
Once the analysis is finished, an entry ``0`` is a draw: no end within any depth. The
transposition table keeps, for the positions searched (numbered by the same perfect index,
symmetries included), their exact value or the deepest ``k`` with no end within it; a full table
replaces its shallowest entries.

**Resume.** Every ``checkpoint_s`` seconds the table's exact entries and its bounds of depth 2 or
more go to ``proof-<light>-<dark>-<mover>/entries.npz`` beside the analysis, with
``progress.json`` (the depth reached, nodes, time, the value once proven), each written whole then
renamed: a run stopped at any point starts again from there. A search is cut into calls of a
bounded number of nodes; a call that runs out stores nothing of its unfinished nodes, and the next
call walks the same tree again, answered by the table down to where the work stopped.

>>> import tempfile
>>> search = ProofSearch(tempfile.mkdtemp(), "standard", balls=2, table_entries=1 << 12)
>>> search.run().value  # nothing analysed: found by the search alone
Solved(wins=False, distance=4)
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

from ..compiled import Array, compiled, count, numba
from .board import BALLS_PER_PLAYER, TOP
from .kernel import MAX_MOVES, VARIANT_CODES, apply, generate
from .solve_cycles import MOST_PLIES, RUNTIME_BYTES, CyclesTable, lower_bound, read_cycles_progress
from .solve_index import KidsIndex, colour_rank, kids_index, transform
from .solver import CHECKPOINT_S, MEMORY_LIMIT, Solved

FORMAT = 1
ABORTED = -1
UNKNOWN = 0
NEVER = 255
"""A bound meaning "no end within any depth": a draw of a finished analysis."""
ENTRY_BYTES = 10
"""A table entry: its key (8 bytes), its exact byte and its depth bound."""
CHUNK_NODES = 200_000
"""Nodes a compiled call expands before it returns: about a second, so the time, the budget and
the checkpoints are looked at often."""
SAVED_DEPTH = 2
"""Bounds shallower than this are not saved: cheaper to find again than to write."""
_MULTIPLIER = 0x5851F42D4C957F2D
_WINDOW = 4
_NODES, _LIMIT = range(2)
F = TypeVar("F", bound=Callable[..., Any])
_FAR = 1 << 30


def _recursive(function: F) -> F:
    """Compile a recursive kernel without Numba's disk cache: a recursive function loaded from
    the cache crashes the process (Numba 0.6x); compiling it costs a few seconds a process."""
    if numba is None:  # pragma: no cover
        return function
    return cast(F, numba.njit(cache=False, nogil=True)(function))


@compiled
def _key(own: int, opp: int, base: Array, shapes: Array, slots: Array, images: Array,
         canon: Array, tables: Array, colourings: Array, binomial: Array, offsets: Array) -> int:
    """The position's number in the whole index (the analysis's entry): the table's key."""
    occupied = own | opp
    at = np.searchsorted(shapes, occupied)
    n = count(occupied)
    mine = transform(tables, images[at], own)
    return int(base[n] + slots[at] * colourings[n]
               + colour_rank(mine, canon[at], n, binomial, offsets))


@compiled
def _home(keys: Array, key: int) -> int:
    """The first slot of ``key``'s window (keys are stored plus one: ``0`` is an empty slot)."""
    mixed = (key + 1) * _MULTIPLIER
    mixed ^= mixed >> 29
    return int(mixed & (keys.shape[0] - 1))


@compiled
def _find(keys: Array, key: int) -> int:
    """``key``'s slot, or -1."""
    home = _home(keys, key)
    for i in range(_WINDOW):
        slot = (home + i) & (keys.shape[0] - 1)
        if keys[slot] == key + 1:
            return int(slot)
    return -1


@compiled
def _store(keys: Array, exact: Array, depth: Array, key: int, byte: int, bound: int) -> None:
    """Keep ``key``'s exact ``byte`` (or, with ``byte == 0``, no end within ``bound``), in its own
    slot, an empty one, or over the least worth of its window (an exact value is worth most)."""
    home = _home(keys, key)
    victim, worth = -1, 1 << 20
    for i in range(_WINDOW):
        slot = (home + i) & (keys.shape[0] - 1)
        if keys[slot] == key + 1:
            victim = slot
            break
        value = -1 if keys[slot] == 0 else (NEVER + 1 if exact[slot] else int(depth[slot]))
        if value < worth:
            victim, worth = slot, value
    if keys[victim] == key + 1 and byte == 0 and (exact[victim] or depth[victim] >= bound):
        return
    keys[victim] = key + 1
    exact[victim] = byte
    depth[victim] = 0 if byte else bound


@_recursive
def _search(own: int, opp: int, k: int, ply: int, balls: int, variant: int, table: Array,
            analysed: bool, passes: int, keys: Array, exact: Array, depth: Array, moves: Array,
            quick: Array, stats: Array, base: Array, shapes: Array, slots: Array, images: Array,
            canon: Array, tables: Array, colourings: Array, binomial: Array, offsets: Array) -> int:
    """``1 + d`` where position ``(own, opp)`` ends in exactly ``d`` plies (``d`` odd: the mover
    wins) and that is proven, at least whenever ``d <= k``; ``UNKNOWN``: no end within ``k``;
    ``ABORTED``: the node budget ran out (nothing of this node stored)."""
    if count(own) == balls:
        return 1  # the mover's reserve is empty: lost
    key = _key(own, opp, base, shapes, slots, images, canon, tables, colourings, binomial, offsets)
    if analysed and table[key]:
        return int(table[key])  # proven by the analysis: final
    # An entry still 0 after ``passes`` complete passes ends in ``passes`` plies or more; and no
    # game ends before a reserve is spent or the board is full (``lower_bound``).
    lower = max(passes, lower_bound(count(own | opp), count(own), balls))
    if k < lower:
        return UNKNOWN
    slot = _find(keys, key)
    if slot >= 0:
        if exact[slot]:
            return int(exact[slot])
        if depth[slot] >= k:
            return UNKNOWN
        lower = max(lower, int(depth[slot]) + 1)
    if k == 0:
        return UNKNOWN
    stats[_NODES] += 1
    if stats[_NODES] > stats[_LIMIT]:
        return ABORTED
    row = moves[ply]
    total = generate(own, opp, 0, variant, row)
    fastest = lower | 1  # no win can be faster than the least odd distance left
    win = _FAR
    # First the children the analysis or the table answers at once: a fast win ends the node.
    for i in range(total):
        move = row[i]
        if move & 31 == TOP:
            _store(keys, exact, depth, key, 2, 0)
            return 2  # the top wins at once
        mine, other = apply(own, opp, 0, move)
        quick[ply, i] = _quick(other, mine, balls, table, analysed, keys, exact, base, shapes,
                               slots, images, canon, tables, colourings, binomial, offsets)
        if quick[ply, i] and (quick[ply, i] - 1) & 1 == 0:
            win = min(win, int(quick[ply, i]))
    if win <= fastest:
        _store(keys, exact, depth, key, win + 1, 0)
        return win + 1
    longest = -1
    least = _FAR  # the least depth a child was left unknown at
    for i in range(total):
        byte = int(quick[ply, i])
        if byte == 0:
            # A win in ``win`` is known: only a child lost in ``win - 3`` or less would beat it.
            bound = min(k - 1, win - 3)
            mine, other = apply(own, opp, 0, row[i])
            byte = _search(other, mine, bound, ply + 1, balls, variant, table, analysed, passes,
                           keys, exact, depth, moves, quick, stats, base, shapes, slots, images,
                           canon, tables, colourings, binomial, offsets)
            if byte == ABORTED:
                return ABORTED
            if byte == UNKNOWN:
                least = min(least, bound)
                continue
        child = byte - 1
        if child & 1 == 0:
            win = min(win, child + 1)
            if win <= fastest:
                break
        else:
            longest = max(longest, child + 1)
    # A child unknown at depth b ends in b + 1 or more: a win through it takes at least the
    # least odd number beyond b + 1.
    through = (least + 2) | 1 if least < _FAR else _FAR
    if win < _FAR and win <= through:
        _store(keys, exact, depth, key, win + 1, 0)
        return win + 1
    if win == _FAR and least == _FAR:
        _store(keys, exact, depth, key, longest + 1, 0)
        return longest + 1  # every child won: lost, as late as possible
    bound = min(through - 1, least + 1)
    _store(keys, exact, depth, key, 0, min(bound, NEVER - 1))
    return UNKNOWN


@compiled
def _quick(own: int, opp: int, balls: int, table: Array, analysed: bool, keys: Array,
           exact: Array, base: Array, shapes: Array, slots: Array, images: Array, canon: Array,
           tables: Array, colourings: Array, binomial: Array, offsets: Array) -> int:
    """A child's exact byte where the analysis or the table already has it, else ``0``."""
    if count(own) == balls:
        return 1
    key = _key(own, opp, base, shapes, slots, images, canon, tables, colourings, binomial, offsets)
    if analysed and table[key]:
        return int(table[key])
    slot = _find(keys, key)
    return int(exact[slot]) if slot >= 0 else 0


@_recursive
def search_root(own: int, opp: int, k: int, balls: int, variant: int, table: Array,
                analysed: bool, passes: int, keys: Array, exact: Array, depth: Array,
                stats: Array, base: Array, shapes: Array, slots: Array, images: Array,
                canon: Array, tables: Array, colourings: Array, binomial: Array,
                offsets: Array) -> int:
    """:func:`_search` of a root, with its move buffers (one row a ply)."""
    plies = min(k, MOST_PLIES) + 2
    moves = np.empty((plies, MAX_MOVES), dtype=np.int32)
    quick = np.zeros((plies, MAX_MOVES), dtype=np.uint8)
    return _search(own, opp, k, 0, balls, variant, table, analysed, passes, keys, exact, depth,
                   moves, quick, stats, base, shapes, slots, images, canon, tables, colourings,
                   binomial, offsets)


@compiled
def _load(keys: Array, exact: Array, depth: Array, saved_keys: Array, saved_exact: Array,
          saved_depth: Array) -> None:
    for i in range(saved_keys.shape[0]):
        _store(keys, exact, depth, int(saved_keys[i]), int(saved_exact[i]), int(saved_depth[i]))


@dataclass
class ProofProgress:
    """How far the proof of one position got: the deepest ``depth`` searched in full without an
    end, the nodes expanded and seconds spent in all, and the value once proven."""

    variant: str
    balls: int
    light: int
    dark: int
    mover: int
    depth: int = -1
    nodes: int = 0
    seconds: float = 0.0
    value: Solved | None = None
    draw: bool = False

    @property
    def proven(self) -> bool:
        return self.value is not None or self.draw

    def to_json(self) -> dict[str, Any]:
        data = {key: getattr(self, key) for key in self.__dataclass_fields__}
        data["value"] = None if self.value is None else {"wins": self.value.wins,
                                                         "distance": self.value.distance}
        return {"format": FORMAT, **data}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ProofProgress:
        if data.get("format") != FORMAT:
            raise ValueError("pylos proof: progress.json of another format")
        fields = {key: data[key] for key in cls.__dataclass_fields__}
        value = fields["value"]
        fields["value"] = None if value is None else Solved(bool(value["wins"]), int(value["distance"]))
        return cls(**fields)


ProofReport = Callable[[ProofProgress, int], None]
"""Called after each call of the compiled search with the progress and the depth under way."""


def table_bytes(entries: int) -> int:
    """The transposition table's memory for ``entries`` slots."""
    return entries * ENTRY_BYTES


def entries_for(memory_bytes: int) -> int:
    """The most slots (a power of two) whose table fits ``memory_bytes``."""
    slots = 1 << 10
    while table_bytes(slots * 2) <= memory_bytes:
        slots *= 2
    return slots


class ProofSearch:
    """The proof of one position (default: the start) under ``variant``'s rules, with the
    analysis of ``folder`` when there is one (``CyclesTable``), its own files in
    ``folder/proof-<light>-<dark>-<mover>``."""

    def __init__(self, folder: Path | str, variant: str, *, balls: int = BALLS_PER_PLAYER,
                 light: int = 0, dark: int = 0, mover: int = 0, table_entries: int = 1 << 24,
                 checkpoint_s: float = CHECKPOINT_S, max_depth: int = MOST_PLIES - 1) -> None:
        if variant not in ("standard", "advanced"):
            raise ValueError(f"pylos proof: the {variant} rules are solved without a proof search")
        if table_entries & (table_entries - 1) or table_bytes(table_entries) > MEMORY_LIMIT:
            raise ValueError("pylos proof: the table's slots must be a power of two within 16 GiB")
        self.folder, self.variant = Path(folder), variant
        self.index: KidsIndex = kids_index(balls)
        self.index.locate(*((dark, light) if mover else (light, dark)))  # a position of the game
        self.light, self.dark, self.mover = light, dark, mover
        self.entries, self.checkpoint_s, self.max_depth = table_entries, checkpoint_s, max_depth
        sizes = [self.index.layer_entries(n) for n in range(self.index.top_layer + 1)]
        self.base = np.array([0, *np.cumsum(sizes)[:-1]], dtype=np.int64)
        self.analysis = self._analysis()
        self.home = self.folder / f"proof-{light:x}-{dark:x}-{mover}"
        self._memory: tuple[Array, Array, Array] | None = None

    def _analysis(self) -> CyclesTable | None:
        """The retrograde analysis of the folder, if it is of this game."""
        found = read_cycles_progress(self.folder)
        if found is None:
            return None
        if (found.variant, found.balls) != (self.variant, self.index.balls):
            raise ValueError(f"pylos proof: {self.folder} holds the {found.variant} rules with "
                             f"{found.balls} balls a player")
        return CyclesTable(self.folder, self.variant)

    def memory_bytes(self) -> int:
        """The table, its copy for a checkpoint at worst, the rest of the process, and the
        analysis (mapped from disk, read-only: its pages count where the search reads them)."""
        analysis = 0 if self.analysis is None else int(self.base[-1]) + self.index.layer_entries(
            self.index.top_layer)
        return 2 * table_bytes(self.entries) + RUNTIME_BYTES + analysis

    def disk_bytes(self) -> int:
        """The checkpoint at worst: every slot saved."""
        return table_bytes(self.entries)

    def progress(self) -> ProofProgress:
        path = self.home / "progress.json"
        if not path.exists():
            return ProofProgress(self.variant, self.index.balls, self.light, self.dark, self.mover)
        found = ProofProgress.from_json(json.loads(path.read_text()))
        if (found.variant, found.balls) != (self.variant, self.index.balls):
            raise ValueError(f"pylos proof: {self.home} holds the {found.variant} rules with "
                             f"{found.balls} balls a player")
        return found

    def run(self, report: ProofReport | None = None, *, seconds: float | None = None,
            nodes: int | None = None, chunk: int = CHUNK_NODES) -> ProofProgress:
        """Search until the value is proven, ``max_depth`` is searched, or ``seconds`` or
        ``nodes`` (this run's) are spent; returns the progress, saved."""
        progress = self.progress()
        if progress.proven:
            return progress
        keys, exact, depth = self._arrays()
        self._restore(keys, exact, depth)
        table, analysed, passes = self._table()
        own, opp = (self.dark, self.light) if self.mover else (self.light, self.dark)
        stats = np.zeros(2, dtype=np.int64)
        # Compiled on the first call (a few seconds): not counted in the time of the search.
        search_root(own, opp, 0, self.index.balls, VARIANT_CODES[self.variant], table, analysed,
                    passes, keys, exact, depth, stats, self.base, *self.index.arrays())
        began = last_save = time.monotonic()
        spent = progress.seconds
        k = progress.depth + 1
        while not progress.proven and k <= self.max_depth:
            if (seconds is not None and time.monotonic() - began >= seconds) or (
                    nodes is not None and stats[_NODES] >= nodes):
                break
            stats[_LIMIT] = stats[_NODES] + (chunk if nodes is None else min(chunk, nodes - stats[_NODES]))
            before = stats[_NODES]
            byte = search_root(own, opp, k, self.index.balls, VARIANT_CODES[self.variant], table,
                               analysed, passes, keys, exact, depth, stats, self.base,
                               *self.index.arrays())
            progress.nodes += int(stats[_NODES] - before)
            progress.seconds = spent + time.monotonic() - began
            if byte > 0:
                progress.value = Solved(bool((byte - 1) & 1), byte - 1)
            elif byte == UNKNOWN:
                progress.depth = k
                progress.draw = passes == NEVER
                k += 1
            if report is not None:
                report(progress, k)
            if progress.proven or time.monotonic() - last_save >= self.checkpoint_s:
                self._save(progress, keys, exact, depth)
                last_save = time.monotonic()
        self._save(progress, keys, exact, depth)
        return progress

    def value(self, light: int, dark: int, mover: int, max_depth: int) -> Solved | None:
        """The value of any position of this game (not over) for ``mover``, searched in memory
        up to ``max_depth`` plies with this search's table (kept between calls; nothing saved);
        ``None``: no end within ``max_depth`` (or a draw of a finished analysis)."""
        keys, exact, depth = self._arrays()
        table, analysed, passes = self._table()
        own, opp = (dark, light) if mover else (light, dark)
        stats = np.array([0, 1 << 62], dtype=np.int64)
        for k in range(max_depth + 1):
            byte = search_root(own, opp, k, self.index.balls, VARIANT_CODES[self.variant], table,
                               analysed, passes, keys, exact, depth, stats, self.base,
                               *self.index.arrays())
            if byte > 0:
                return Solved(bool((byte - 1) & 1), byte - 1)
        return None

    def _arrays(self) -> tuple[Array, Array, Array]:
        """The transposition table (keys, exact bytes, depth bounds), made on first use."""
        if self._memory is None:
            self._memory = (np.zeros(self.entries, dtype=np.int64),
                            np.zeros(self.entries, dtype=np.uint8),
                            np.zeros(self.entries, dtype=np.uint8))
        return self._memory

    def _table(self) -> tuple[Array, bool, int]:
        """The analysis's entries (or a stand-in), whether they count, and the complete passes
        (``NEVER`` once finished: every entry still 0 is a draw)."""
        analysis = self.analysis
        if analysis is None or not analysis.available:
            # Read-only like the analysis's map: one compiled version of the search serves both.
            stand_in = np.zeros(1, dtype=np.uint8)
            stand_in.setflags(write=False)
            return stand_in, False, 0
        done = analysis.progress
        return analysis.table, True, NEVER if done.finished else done.passes

    def _restore(self, keys: Array, exact: Array, depth: Array) -> None:
        path = self.home / "entries.npz"
        if path.exists():
            with np.load(path) as saved:
                _load(keys, exact, depth, saved["keys"], saved["exact"], saved["depth"])

    def _save(self, progress: ProofProgress, keys: Array, exact: Array, depth: Array) -> None:
        """The table's worth keeping, then the progress, each written whole then renamed."""
        self.home.mkdir(parents=True, exist_ok=True)
        kept = np.flatnonzero((keys != 0) & ((exact != 0) | (depth >= SAVED_DEPTH)))
        fresh = self.home / "entries.tmp.npz"
        np.savez(fresh, keys=keys[kept] - 1, exact=exact[kept], depth=depth[kept])
        os.replace(fresh, self.home / "entries.npz")
        path = self.home / "progress.json"
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(progress.to_json(), indent=1))
        os.replace(temporary, path)
