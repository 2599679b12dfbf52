"""Engine speed, measured only through the contract loop of DESIGN.md:
``s = s.play(rng.choice(s.legal_moves()))`` from ``new_state(seed)`` until ``is_over``, one thread.

>>> import ludotheque
>>> figures = random_playouts(ludotheque.load("pylos"), playouts=3, seed=1)
>>> figures.playouts, figures.moves > 0
(3, True)
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
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
