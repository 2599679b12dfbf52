"""Engine speed, measured only through the contract loop of DESIGN.md:
``s = s.play(rng.choice(s.legal_moves()))`` from ``new_state(seed)`` until ``is_over``, one thread;
and the time each bot level takes per move (its 95th percentile), in games against itself.

>>> import ludotheque
>>> figures = random_playouts(ludotheque.load("pylos"), playouts=3, seed=1)
>>> figures.playouts, figures.moves > 0
(3, True)
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass

from .core import Game


@dataclass(frozen=True)
class BenchFigures:
    game: str
    variant: str
    players: int
    playouts: int
    moves: int
    seconds: float

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


@dataclass(frozen=True)
class BotTimes:
    """How long one level takes per move on this machine (a measured figure, not its budget)."""

    game: str
    variant: str
    players: int
    level: str
    algorithm: str
    times: tuple[float, ...]

    @property
    def p95(self) -> float:
        return percentile(self.times, 0.95)

    @property
    def mean(self) -> float:
        return sum(self.times) / len(self.times) if self.times else 0.0

    def to_json(self) -> dict[str, object]:
        return {
            "game": self.game, "variant": self.variant, "players": self.players, "level": self.level,
            "algorithm": self.algorithm, "moves": len(self.times), "p95_s": round(self.p95, 4),
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
    for index in range(games):
        bots = [ai.bot(level, game, seed=seed + 97 * index + p) for p in range(game.players)]
        state = game.new_state(seed=seed + index)
        played = 0
        while not state.is_over and (max_moves is None or played < max_moves):
            mover = state.to_move
            assert mover is not None
            started = time.perf_counter()
            move = bots[mover].choose(state)
            times.append(time.perf_counter() - started)
            state = state.play(move)
            played += 1
            if progress is not None:
                progress(len(times))
    algorithm = "random" if level == "random" else ai.level_for(game, level).algorithm
    return BotTimes(game.id, game.variant, game.players, level, algorithm, tuple(times))
