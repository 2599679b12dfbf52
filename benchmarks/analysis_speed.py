"""Time the analysis of long finished games with each game's default budget.

For each game, random games (fixed seeds) are played until one is at least ``--plies`` long
(Ex*Pion's reach 400 plies; Pylos, Imbrication and Plimil games are shorter: their longest
of ``--tries`` is taken), then analysed twice in this process: *cold* (the first analysis,
which compiles the kernel's searches: Numba cannot cache them on disk, so every new process
pays it once) and *warm*. Each line gives the plies, the seconds, the seconds per ply and the
projection to 400 plies (warm per ply × 400 + the compilation). Single thread; run it on a
quiet machine::

    .venv/bin/python benchmarks/analysis_speed.py [--plies 400] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import ludotheque
from ludotheque.analysis import analyse, budget_for
from ludotheque.core.records import Record

GAMES = ("pylos", "expion", "imbrication", "plimil")


def random_game(game_id: str, seed: int) -> Record:
    game = ludotheque.load(game_id, players=2)
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    moves: list[str] = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        moves.append(str(move))
        state = state.play(move)
    return Record.start(game, seed=seed).with_moves(moves).finished(state.result())


def long_game(game_id: str, plies: int, tries: int) -> Record:
    """The first random game at least ``plies`` long (closest above), else the longest."""
    best: Record | None = None
    for seed in range(tries):
        record = random_game(game_id, seed)
        if best is None:
            best = record
        elif len(record.moves) >= plies:
            if len(best.moves) < plies or len(record.moves) < len(best.moves):
                best = record
        elif len(best.moves) < len(record.moves) < plies:
            best = record
    assert best is not None
    return best


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), metavar="GAME")
    parser.add_argument("--plies", type=int, default=400)
    parser.add_argument("--tries", type=int, default=20)
    options = parser.parse_args()
    for game_id in options.games:
        record = long_game(game_id, options.plies, options.tries)
        started = time.perf_counter()
        cold = analyse(record)
        first = time.perf_counter() - started
        started = time.perf_counter()
        warm = analyse(record)
        second = time.perf_counter() - started
        assert warm == cold
        plies = len(record.moves)
        per_ply = second / plies
        print(json.dumps({
            "game": game_id, "plies": plies, "budget": budget_for(game_id).__dict__,
            "engine": warm.engine, "cold_s": round(first, 2), "warm_s": round(second, 2),
            "compile_s": round(max(0.0, first - second), 2), "per_ply_ms": round(1000 * per_ply, 1),
            "projected_400_plies_s": round(400 * per_ply + max(0.0, first - second), 1),
        }), flush=True)


if __name__ == "__main__":
    main()
