"""Pylos under the kids rules, solved: every position's value and distance to the end, on disk.

``KidsSolver(folder).run()`` fills one table per layer (``layer-NN.u8``: the entries of the boards
of ``NN`` balls, ``solve_index``), from the fullest layer down to the empty board, each entry from
its children (``solve_kernel``). It writes ``progress.json`` after each stretch of entries that
took about ``checkpoint_s`` seconds (tables flushed first), so a run stopped at any point starts
again from its last checkpoint. ``KidsTable(folder)`` reads the tables: :meth:`KidsTable.probe`
gives a position's value and distance, or ``None`` where its layer is not solved yet.

>>> import tempfile
>>> folder = tempfile.mkdtemp()
>>> solver = KidsSolver(folder, balls=2)
>>> solver.plan().entries
2065
>>> solver.run().finished
True
>>> KidsTable(folder).probe(0, 0, 0)  # two balls each: the first player loses, in 4 plies
Solved(wins=False, distance=4)
"""

from __future__ import annotations

import json
import os
import shutil
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

import numpy as np

from .board import BALLS_PER_PLAYER
from .solve_index import KidsIndex, kids_index
from .solve_kernel import solve_stretch

FORMAT = 1
PROGRESS = "progress.json"
STRETCH = 1 << 22
"""Entries a thread solves in one call: a few seconds' work, so a checkpoint is never far."""
CHECKPOINT_S = 120.0
MEMORY_LIMIT = 16 << 30
DISK_LIMIT = 40 * 10**9
INDEX_BYTES = 64 << 20
"""Room for the index arrays and the compiled code, counted in the memory the solver announces."""


def tables_dir(variant: str = "kids", environ: dict[str, str] | None = None) -> Path:
    """Where the solved tables of a rule set live: ``pylos-<variant>`` in ``$LUDOTHEQUE_TABLES``
    when set, else in ``solved`` in the user's data folder (``$XDG_DATA_HOME/ludotheque``, as
    ``server.config.data_dir``)."""
    env = os.environ if environ is None else environ
    if env.get("LUDOTHEQUE_TABLES"):
        return Path(env["LUDOTHEQUE_TABLES"]) / f"pylos-{variant}"
    base = env.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ludotheque" / "solved" / f"pylos-{variant}"


@dataclass(frozen=True)
class Solved:
    """A solved position, from the mover's side: whether they win, and the plies to the end
    under perfect play (the winner hastens, the loser delays)."""

    wins: bool
    distance: int


@dataclass(frozen=True)
class Plan:
    """What a full solve needs: entries (one byte each), disk, and memory at the worst layer."""

    entries: int
    disk_bytes: int
    memory_bytes: int
    layers: dict[int, int]


@dataclass
class Progress:
    """The state of a solve, as ``progress.json`` keeps it: the layers done, and in the layer
    under way the canonical shapes done and the entries done in the next one."""

    balls: int
    done: list[int] = field(default_factory=list)
    layer: int | None = None
    slot: int = 0
    rank: int = 0
    solved: int = 0
    wins: int = 0
    seconds: float = 0.0
    longest: dict[int, int] = field(default_factory=dict)
    start: Solved | None = None

    @property
    def finished(self) -> bool:
        return 0 in self.done

    def to_json(self) -> dict[str, Any]:
        return {
            "format": FORMAT, "variant": "kids", "balls": self.balls, "done": self.done,
            "layer": self.layer, "slot": self.slot, "rank": self.rank, "solved": self.solved,
            "wins": self.wins, "seconds": round(self.seconds, 1),
            "longest": {str(n): d for n, d in self.longest.items()},
            "start": None if self.start is None else {"wins": self.start.wins,
                                                      "distance": self.start.distance},
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Progress:
        if data.get("format") != FORMAT or data.get("variant") != "kids":
            raise ValueError("pylos solver: progress.json of another format or rule set")
        start = data.get("start")
        return cls(int(data["balls"]), [int(n) for n in data["done"]], data["layer"],
                   int(data["slot"]), int(data["rank"]), int(data["solved"]), int(data["wins"]),
                   float(data["seconds"]), {int(n): int(d) for n, d in data["longest"].items()},
                   None if start is None else Solved(bool(start["wins"]), int(start["distance"])))


Report = Callable[[Progress, int, int], None]
"""Called after each checkpoint with the progress, the entries solved and the entries in all."""


def _layer_path(folder: Path, n: int) -> Path:
    return folder / f"layer-{n:02d}.u8"


def read_progress(folder: Path | str) -> Progress | None:
    """The progress kept in ``folder``, or ``None`` where no solve started there."""
    path = Path(folder) / PROGRESS
    if not path.exists():
        return None
    return Progress.from_json(json.loads(path.read_text()))


class KidsSolver:
    """The solve of the kids rule set into ``folder`` (``balls`` a player: 15 by the rules; fewer
    make a small game of the same rules, for tests)."""

    def __init__(self, folder: Path | str, *, balls: int = BALLS_PER_PLAYER, threads: int = 1,
                 checkpoint_s: float = CHECKPOINT_S, stretch: int = STRETCH) -> None:
        self.folder = Path(folder)
        self.index: KidsIndex = kids_index(balls)
        self.threads = max(1, threads)
        self.checkpoint_s = checkpoint_s
        self.stretch = stretch

    def plan(self) -> Plan:
        """Entries, disk and memory of the whole solve, before it starts. Two layers are mapped
        at a time (the one being solved and the next); the rest is the index."""
        layers = {n: self.index.layer_entries(n) for n in range(self.index.top_layer + 1)}
        worst = max(layers[n] + layers.get(n + 1, 0) for n in layers)
        total = sum(layers.values())
        return Plan(total, total, worst + INDEX_BYTES, layers)

    def check_room(self, plan: Plan) -> None:
        """Refuse to start when the solve would break the limits or the disk lacks room."""
        if plan.memory_bytes > MEMORY_LIMIT or plan.disk_bytes > DISK_LIMIT:
            raise RuntimeError("pylos solver: the tables would exceed 16 GiB of memory or 40 GB of disk")
        self.folder.mkdir(parents=True, exist_ok=True)
        written = sum(p.stat().st_blocks * 512 for p in self.folder.glob("layer-*.u8"))  # sparse files
        if shutil.disk_usage(self.folder).free < plan.disk_bytes - written:
            lacking = plan.disk_bytes - written
            raise RuntimeError(f"pylos solver: {self.folder} lacks {lacking:,} bytes of room")

    def progress(self) -> Progress:
        """The progress so far (a fresh one where the folder holds none)."""
        found = read_progress(self.folder)
        if found is None:
            return Progress(self.index.balls)
        if found.balls != self.index.balls:
            raise ValueError(f"pylos solver: {self.folder} holds tables for {found.balls} balls a player")
        return found

    def run(self, report: Report | None = None, *, max_stretches: int | None = None) -> Progress:
        """Solve what is left (everything, or ``max_stretches`` stretches and stop: a test's
        interruption); returns the progress, saved."""
        self.check_room(self.plan())
        progress = self.progress()
        total = self.plan().entries
        budget = [max_stretches if max_stretches is not None else -1]
        with ThreadPoolExecutor(self.threads) as pool:
            for n in range(self.index.top_layer, -1, -1):
                if n in progress.done:
                    continue
                if not self._solve_layer(n, progress, pool, report, total, budget):
                    return progress
        progress.start = KidsTable(self.folder).probe(0, 0, 0)
        self._save(progress)
        return progress

    def _open(self, n: int, mode: Literal["r", "r+"]) -> np.memmap[Any, Any]:
        size = self.index.layer_entries(n)
        path = _layer_path(self.folder, n)
        if mode == "r+" and not path.exists():
            with path.open("wb") as handle:
                handle.truncate(size)  # sparse: zeros, "not solved"
        return np.memmap(path, dtype=np.uint8, mode=mode, shape=(size,))

    def _solve_layer(self, n: int, progress: Progress, pool: ThreadPoolExecutor,
                     report: Report | None, total: int, budget: list[int]) -> bool:
        """Solve layer ``n`` from the checkpoint on; ``False`` when the stretch budget ran out."""
        if progress.layer != n:
            progress.layer, progress.slot, progress.rank = n, 0, 0
        same = self._open(n, "r+")
        following: np.ndarray = (self._open(n + 1, "r") if n < self.index.top_layer
                                 else np.zeros(1, dtype=np.uint8))
        last_save = time.monotonic()
        while progress.slot < len(self.index.layers[n]):
            pieces = self._batch(n, progress.slot, progress.rank)
            began = time.monotonic()
            # One job a thread, each its pieces in order; the pieces of a batch are independent.
            jobs = [pool.submit(self._solve_pieces, pieces[i::self.threads], same, following)
                    for i in range(min(self.threads, len(pieces)))]
            for job in jobs:
                wins, longest = job.result()
                progress.wins += wins
                progress.longest[n] = max(progress.longest.get(n, 0), longest)
            progress.solved += sum(last - first for _, _, first, last in pieces)
            progress.seconds += time.monotonic() - began
            _, slot, _, last = pieces[-1]
            size = int(self.index.colourings[n])
            progress.slot, progress.rank = (slot + 1, 0) if last >= size else (slot, last)
            budget[0] -= 1
            if budget[0] == 0 or time.monotonic() - last_save >= self.checkpoint_s:
                same.flush()
                self._save(progress)
                last_save = time.monotonic()
                if report is not None:
                    report(progress, progress.solved, total)
                if budget[0] == 0:
                    return False
        same.flush()
        progress.done.append(n)
        progress.layer, progress.slot, progress.rank = None, 0, 0
        self._save(progress)
        if report is not None:
            report(progress, progress.solved, total)
        return True

    def _batch(self, n: int, slot: int, rank: int) -> list[tuple[int, int, int, int]]:
        """The next pieces ``(shape, slot, first, last)`` of layer ``n`` from ``(slot, rank)``: about
        ``threads * stretch`` entries, each piece within one shape and at most ``stretch`` long,
        all of shapes with the same sum of levels, so that none is a raise away from another."""
        shapes, sums = self.index.layers[n], self.index.level_sums[n]
        size = int(self.index.colourings[n])
        pieces: list[tuple[int, int, int, int]] = []
        room = self.threads * self.stretch
        group = sums[slot]
        while room > 0 and slot < len(shapes) and sums[slot] == group:
            last = min(size, rank + self.stretch, rank + room)
            pieces.append((int(shapes[slot]), slot, rank, last))
            room -= last - rank
            slot, rank = (slot + 1, 0) if last >= size else (slot, last)
        return pieces

    def _solve_pieces(self, pieces: list[tuple[int, int, int, int]], same: np.ndarray,
                      following: np.ndarray) -> tuple[int, int]:
        """Solve ``pieces`` one after the other: ``(wins, longest)`` among them."""
        wins = longest = 0
        for shape, slot, first, last in pieces:
            won, far = solve_stretch(shape, slot, first, last, self.index.balls, same, following,
                                     *self.index.arrays())
            wins, longest = wins + won, max(longest, far)
        return wins, longest

    def _save(self, progress: Progress) -> None:
        """Write ``progress.json`` whole or not at all (a new file renamed over the old)."""
        path = self.folder / PROGRESS
        fresh = path.with_suffix(".tmp")
        fresh.write_text(json.dumps(progress.to_json(), indent=1))
        os.replace(fresh, path)


class KidsTable:
    """The solved tables of ``folder``, read-only, memory-mapped layer by layer as needed."""

    def __init__(self, folder: Path | str | None = None) -> None:
        self.folder = Path(folder) if folder is not None else tables_dir()
        progress = read_progress(self.folder)
        self.balls = progress.balls if progress is not None else BALLS_PER_PLAYER
        self.done = frozenset(progress.done if progress is not None else ())
        self._layers: dict[int, np.memmap[Any, Any]] = {}

    @property
    def available(self) -> bool:
        """Whether any layer is solved here."""
        return bool(self.done)

    def probe(self, light: int, dark: int, mover: int) -> Solved | None:
        """The value of a position that is not over, for ``mover``; ``None`` where its layer is
        not solved yet."""
        own, opp = (dark, light) if mover else (light, dark)
        return self.probe_own(own, opp)

    def is_draw(self, light: int, dark: int, mover: int) -> bool:
        """Never: nobody draws under the kids rules."""
        return False

    def probe_own(self, own: int, opp: int) -> Solved | None:
        """The value of position ``(own, opp)`` seen from the mover, or ``None`` if unsolved."""
        if max(own.bit_count(), opp.bit_count()) > self.balls:
            return None
        n = (own | opp).bit_count()
        if n not in self.done:
            return None
        index = kids_index(self.balls)
        _, entry = index.locate(own, opp)
        table = self._layers.get(n)
        if table is None:
            table = np.memmap(_layer_path(self.folder, n), dtype=np.uint8, mode="r",
                              shape=(index.layer_entries(n),))
            self._layers[n] = table
        byte = int(table[entry])
        if byte == 0:
            return None
        return Solved(wins=bool((byte - 1) & 1), distance=byte - 1)
