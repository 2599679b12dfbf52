"""Pylos compiled kernel against the plain engine: speed, perft and agreement (issue 15).

Usage: ``python benchmarks/kernel_speed.py [--seconds S] [--variant V] [--seed N] [--perft D]
[--agreement N] [--cold]``. Prints one JSON line per figure:

- ``compile``: the first calls' time (Numba compiles the kernel, or loads it from its cache;
  ``--cold`` uses an empty cache, so that this is the real compile time);
- ``speed``: random playouts/s from the start, single thread, kernel (after compilation) and
  plain contract loop (``ludotheque.bench.random_playouts``) measured side by side in alternating
  slices of one run, with their ratio and mean game lengths;
- ``perft`` (``--perft D``): the kernel's counts from the standard start, depths 1 to D, beside
  the rules file's;
- ``agreement`` (``--agreement N``): N random games per rule set played by the kernel and the
  plain engine side by side, ordered legal moves, positions and results compared at every ply
  (``kernel.compare_with_plain``), then N/10 games that prefer taking back the ball just played,
  which often end in repetition draws.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
from typing import Any

PERFT = [1, 16, 240, 3_360, 43_680, 524_376, 5_786_496]
ROUNDS = 5


def emit(figures: dict[str, Any]) -> None:
    print(json.dumps(figures), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("--seconds", type=float, default=10.0, help="per rule set, kernel and plain")
    parser.add_argument("--variant", choices=["kids", "standard", "advanced"], action="append")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--perft", type=int, default=6, metavar="D")
    parser.add_argument("--agreement", type=int, default=0, metavar="N")
    parser.add_argument("--cold", action="store_true", help="compile from an empty Numba cache")
    arguments = parser.parse_args()
    if arguments.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="ludotheque-numba-")

    # Imported here: NUMBA_CACHE_DIR must be set before Numba is.
    from ludotheque.engines.pylos import kernel
    from ludotheque.engines.pylos.rules import PylosGame

    if not kernel.AVAILABLE:
        raise SystemExit("the Pylos kernel is unavailable here (numba is not installed)")
    variants = arguments.variant or ["kids", "standard", "advanced"]
    emit(compile_figures(kernel, PylosGame))
    for variant in variants:
        emit(speed_figures(kernel, PylosGame(variant), arguments.seconds, arguments.seed))
    for depth in range(1, arguments.perft + 1):
        start = time.perf_counter()
        nodes = kernel.perft(depth)
        emit({"measure": "perft", "variant": "standard", "depth": depth, "nodes": nodes,
              "expected": PERFT[depth] if depth < len(PERFT) else None,
              "seconds": round(time.perf_counter() - start, 3)})
    if arguments.agreement:
        for variant in variants:
            for games, takebacks in ((arguments.agreement, 0.0), (max(1, arguments.agreement // 10), 0.95)):
                start = time.perf_counter()
                agreement = kernel.compare_with_plain(variant, games, arguments.seed, takebacks=takebacks)
                emit({"measure": "agreement", "variant": variant, "games": agreement.games,
                      "takebacks": takebacks, "plies": agreement.plies, "moves": agreement.moves,
                      "endings": dict(agreement.endings), "agree": True,
                      "seconds": round(time.perf_counter() - start, 1)})


def compile_figures(kernel: Any, game_class: Any) -> dict[str, Any]:
    """Time the first call of each entry point (compile, or load from Numba's cache)."""
    start = time.perf_counter()
    state = game_class("standard").new_state()
    kernel.playouts(state, 1)
    kernel.legal_moves(kernel.from_state(state))
    kernel.perft(2)
    seconds = time.perf_counter() - start
    hits = sum(sum(f.stats.cache_hits.values()) for f in (kernel.run_playouts, kernel.perft_count))
    misses = sum(sum(f.stats.cache_misses.values()) for f in (kernel.run_playouts, kernel.perft_count))
    return {"measure": "compile", "seconds": round(seconds, 2),
            "from_cache": bool(hits and not misses), "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR")}


def speed_figures(kernel: Any, game: Any, seconds: float, seed: int) -> dict[str, Any]:
    """Random playouts/s from the start, kernel and plain, in alternating slices."""
    from ludotheque.bench import random_playouts

    state = game.new_state(seed=seed)
    kernel.playouts(state, 10, seed)  # compiled already; warms the caches
    slice_seconds = seconds / ROUNDS
    kernel_done = kernel_plies = plain_done = plain_plies = 0
    kernel_time = plain_time = 0.0
    batch = 100
    for round_number in range(ROUNDS):
        start = time.perf_counter()
        while time.perf_counter() - start < slice_seconds:
            began = time.perf_counter()
            _, _, lengths = kernel.playouts(state, batch, seed + kernel_done)
            kernel_done += batch
            kernel_plies += int(lengths.sum())
            # Batches of at least a fiftieth of a slice: the call from Python is then negligible.
            if time.perf_counter() - began < slice_seconds / 50:
                batch *= 2
        kernel_time += time.perf_counter() - start
        plain = random_playouts(game, seconds=slice_seconds, seed=seed + 1_000_000 * round_number)
        plain_done += plain.playouts
        plain_plies += plain.moves
        plain_time += plain.seconds
    kernel_rate = kernel_done / kernel_time
    plain_rate = plain_done / plain_time
    return {
        "measure": "speed", "variant": game.variant,
        "kernel_playouts_per_second": round(kernel_rate), "plain_playouts_per_second": round(plain_rate, 1),
        "ratio": round(kernel_rate / plain_rate, 1),
        "kernel_moves_per_second": round(kernel_plies / kernel_time),
        "plain_moves_per_second": round(plain_plies / plain_time),
        "kernel_mean_length": round(kernel_plies / kernel_done, 2),
        "plain_mean_length": round(plain_plies / plain_done, 2),
        "kernel_playouts": kernel_done, "plain_playouts": plain_done,
    }


if __name__ == "__main__":
    main()
