"""Engine speed, measured only through the contract loop of docs/design.md:
``s = s.play(rng.choice(s.legal_moves()))`` from ``new_state(seed)`` until ``is_over``, one thread;
the compiled kernel's random playouts (``kernel.playouts``, one thread, after its compilation,
timed apart); and the time each bot level takes per move (its 95th percentile), in games against
itself.

>>> import ludotheque
>>> figures = random_playouts(ludotheque.load("pylos"), playouts=3, seed=1)
>>> figures.playouts, figures.moves > 0
(3, True)
>>> fast = kernel_playouts(ludotheque.load("pylos"), seconds=0.05, seed=1)
>>> fast.engine, fast.playouts > 0, fast.compile_seconds >= 0
('fast', True, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from .core import Game


@dataclass(frozen=True)
class BenchFigures:
    """Random playouts played in ``seconds``: through the contract (``engine`` ``plain``) or by
    the compiled kernel (``fast``, whose first call, compiling or loading the kernel from
    Numba's cache, took ``compile_seconds`` apart)."""

    game: str
    variant: str
    players: int
    playouts: int
    moves: int
    seconds: float
    engine: str = "plain"
    compile_seconds: float | None = None
    compiled: bool | None = None  # whether that first call compiled (else: loaded from the cache)

    @property
    def playouts_per_second(self) -> float:
        return self.playouts / self.seconds if self.seconds else 0.0

    @property
    def moves_per_second(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    @property
    def mean_length(self) -> float:
        return self.moves / self.playouts if self.playouts else 0.0

    def to_json(self) -> dict[str, object]:
        return asdict(self) | {
            "playouts_per_second": round(self.playouts_per_second, 1),
            "moves_per_second": round(self.moves_per_second, 1),
            "mean_length": round(self.mean_length, 2),
        }


def random_playouts(
    game: Game,
    *,
    seconds: float | None = None,
    playouts: int | None = None,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> BenchFigures:
    """Play uniformly random games until ``seconds`` have passed or ``playouts`` are done.

    Each playout ``i`` starts from ``new_state(seed + i)``; one ``random.Random(seed)`` picks moves.
    """
    if seconds is None and playouts is None:
        raise ValueError("give seconds or playouts")
    rng = random.Random(seed)
    done = moves = 0
    start = time.perf_counter()
    elapsed = 0.0
    while (playouts is None or done < playouts) and (seconds is None or elapsed < seconds):
        state = game.new_state(seed=seed + done)
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            moves += 1
        done += 1
        elapsed = time.perf_counter() - start
        if progress is not None:
            progress(min(1.0, elapsed / seconds) if seconds else done / (playouts or 1))
    return BenchFigures(game.id, game.variant, game.players, done, moves, elapsed)


def kernel_playouts(
    game: Game,
    *,
    seconds: float,
    seed: int = 0,
    progress: Callable[[float], None] | None = None,
) -> BenchFigures:
    """The compiled kernel's uniformly random playouts from ``new_state(seed)`` for ``seconds``,
    one thread, through the interface every kernel offers (``playouts(state, n, seed)``), in
    batches large enough that the call from Python is negligible; the first call (compiling the
    kernel, or loading it from Numba's cache) is timed apart. Raises ``ValueError`` when the game
    has no kernel that runs here (none, or Numba missing)."""
    kernel = game.info.load_kernel()
    if kernel is None:
        raise ValueError(f"{game.id}: no compiled kernel here (the game has none, or Numba is missing)")
    state = game.new_state(seed=seed)
    misses = _cache_misses(kernel)
    started = time.perf_counter()
    kernel.playouts(state, 1, seed)
    compile_seconds = time.perf_counter() - started
    compiled = _cache_misses(kernel) > misses
    done = moves = 0
    batch = 16
    started = time.perf_counter()
    elapsed = 0.0
    while elapsed < seconds:
        began = time.perf_counter()
        _, _, lengths = kernel.playouts(state, batch, seed + done)
        done += batch
        moves += int(lengths.sum())
        now = time.perf_counter()
        elapsed = now - started
        if now - began < seconds / 50:
            batch *= 2
        if progress is not None:
            progress(min(1.0, elapsed / seconds))
    return BenchFigures(game.id, game.variant, game.players, done, moves, elapsed, "fast",
                        compile_seconds, compiled)


def _cache_misses(kernel: Any) -> int:
    """Compilations of the kernel's compiled functions so far (Numba's cache misses)."""
    total = 0
    for value in vars(kernel).values():
        stats = getattr(value, "stats", None)
        misses = getattr(stats, "cache_misses", None)
        if isinstance(misses, dict):
            total += sum(misses.values())
    return total


@dataclass(frozen=True)
class BotTimes:
    """How long one level takes per move on this machine (a measured figure, not its budget)."""

    game: str
    variant: str
    players: int
    level: str
    algorithm: str
    times: tuple[float, ...]
    engine: str = "plain"  # where the level searches: ``plain`` (the contract) or ``kernel``
    # The processor time of each move: about what ``times`` would be on a quiet machine, where
    # other work shares the processors (the wall time is what a player waits).
    cpu_times: tuple[float, ...] = ()

    @property
    def p95(self) -> float:
        return percentile(self.times, 0.95)

    @property
    def cpu_p95(self) -> float:
        return percentile(self.cpu_times, 0.95)

    @property
    def mean(self) -> float:
        return sum(self.times) / len(self.times) if self.times else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game, "variant": self.variant, "players": self.players, "level": self.level,
            "algorithm": self.algorithm, "engine": self.engine, "moves": len(self.times),
            "p95_s": round(self.p95, 4), "cpu_p95_s": round(self.cpu_p95, 4),
            "mean_s": round(self.mean, 4), "max_s": round(max(self.times, default=0.0), 4),
        }


def percentile(values: Sequence[float], fraction: float) -> float:
    """The nearest-rank percentile (0 for no values).

    >>> percentile([3.0, 1.0, 2.0, 4.0], 0.5), percentile(list(range(1, 101)), 0.95)
    (2.0, 95)
    """
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = math.ceil(fraction * len(ordered))
    return ordered[min(len(ordered), max(1, rank)) - 1]


def bot_move_times(
    game: Game,
    level: str,
    *,
    games: int = 2,
    seed: int = 0,
    max_moves: int | None = None,
    progress: Callable[[int], None] | None = None,
) -> BotTimes:
    """Time every move of ``games`` games of ``level`` (French names accepted) against itself,
    from ``new_state(seed + i)`` (each seat its own seeded bot); a game stops after ``max_moves``
    moves when given. ``progress(moves)`` hears of each move timed."""
    from . import ai

    level = ai.canonical_level(level)
    times: list[float] = []
    cpu_times: list[float] = []
    for index in range(games):
        bots = [ai.bot(level, game, seed=seed + 97 * index + p) for p in range(game.players)]
        state = game.new_state(seed=seed + index)
        played = 0
        while not state.is_over and (max_moves is None or played < max_moves):
            mover = state.to_move
            assert mover is not None
            started, cpu_started = time.perf_counter(), time.process_time()
            move = bots[mover].choose(state)
            times.append(time.perf_counter() - started)
            cpu_times.append(time.process_time() - cpu_started)
            state = state.play(move)
            played += 1
            if progress is not None:
                progress(len(times))
    probe = ai.bot(level, game, seed=seed)
    return BotTimes(game.id, game.variant, game.players, level, probe.algorithm, tuple(times), probe.engine,
                    tuple(cpu_times))
