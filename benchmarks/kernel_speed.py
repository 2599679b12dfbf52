"""Every game's compiled kernel against its plain engine: speed, perft and agreement (issue 15).

Usage: ``python benchmarks/kernel_speed.py [GAME ...] [--seconds S] [--seed N] [--perft D]
[--plain-perft D] [--agreement N] [--cold] [--out FILE]``. With no GAME, every registered game
whose kernel runs here. Prints one JSON line per figure and writes them all to ``--out``
(default ``benchmarks/results/kernel_speed-<date>.json``):

- ``compile``: the first calls' time for each game (Numba compiles the kernel, or loads it from its
  cache; ``--cold`` uses an empty cache, so that this is the real compile time);
- ``speed``: random playouts/s from the start of each variant and player count, single thread,
  kernel (``kernel.playouts``, after compilation) and plain contract loop
  (``ludotheque.bench.random_playouts``) measured side by side in alternating slices of one run,
  with their ratio and mean game lengths;
- ``perft`` (``--perft D``): the kernel's counts from each configuration's start, depths 1 to D,
  beside the plain engine's (counted through the contract up to ``--plain-perft``) and, for Pylos
  standard, the rules file's;
- ``shared``: perft and random playouts as the one shared module writes them for every kernel
  (``engines/searches.py``, the game's ``SEARCHES``) against the kernel's own: the same counts
  and playouts (checked), and the speed ratio shared/kernel (playouts/s in alternating slices,
  perft at depth D);
- ``agreement`` (``--agreement N``): N random games per configuration played by the kernel and the
  plain engine side by side, ordered legal moves, positions and results compared at every ply
  (each kernel's ``compare_with_plain``), then N/10 games that prefer taking back what was just
  played, where the kernel can (repetition draws).
"""

from __future__ import annotations

import argparse
import datetime
import inspect
import json
import os
import platform
import tempfile
import time
from pathlib import Path
from typing import Any

RULES_PERFT = {("pylos", "standard"): [16, 240, 3_360, 43_680, 524_376, 5_786_496]}
"""Counts the rules files publish (depth 1 first)."""
ROUNDS = 5
RESULTS = Path(__file__).resolve().parent / "results"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    parser.add_argument("games", nargs="*", help="game ids (default: every game whose kernel runs here)")
    parser.add_argument("--seconds", type=float, default=10.0, help="per configuration, kernel and plain")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--perft", type=int, default=4, metavar="D")
    parser.add_argument("--plain-perft", type=int, default=3, metavar="D",
                        help="depths the plain engine counts too")
    parser.add_argument("--agreement", type=int, default=0, metavar="N")
    parser.add_argument("--cold", action="store_true", help="compile from an empty Numba cache")
    parser.add_argument("--out", type=Path, default=None, help="the JSON file of all figures")
    arguments = parser.parse_args()
    if arguments.cold:
        os.environ["NUMBA_CACHE_DIR"] = tempfile.mkdtemp(prefix="ludotheque-numba-")

    # Imported here: NUMBA_CACHE_DIR must be set before Numba is.
    import ludotheque
    from ludotheque.core import info

    chosen = arguments.games or [g for g in ludotheque.games() if info(g).load_kernel() is not None]
    figures: list[dict[str, Any]] = []

    def emit(figure: dict[str, Any]) -> None:
        figures.append(figure)
        print(json.dumps(figure), flush=True)

    for game_id in chosen:
        facts = info(game_id)
        kernel = facts.load_kernel()
        if kernel is None:
            raise SystemExit(f"{game_id}: no compiled kernel runs here (none, or numba is not installed)")
        configurations = [(v, p) for v in facts.variants for p in facts.player_counts]
        emit(compile_figures(game_id, kernel, ludotheque.load(game_id)))
        shared = getattr(facts.load_searches(), "SEARCHES", None)
        for variant, players in configurations:
            game = ludotheque.load(game_id, variant=variant, players=players)
            emit(speed_figures(kernel, game, arguments.seconds, arguments.seed))
            if shared is not None:
                emit(shared_figures(kernel, shared, game, arguments.seconds / 2, arguments.seed,
                                    arguments.perft))
            for depth in range(1, arguments.perft + 1):
                emit(perft_figures(kernel, game, depth, arguments.plain_perft, arguments.seed))
            if arguments.agreement:
                emit(agreement_figures(kernel, game, arguments.agreement, arguments.seed))
                if "takebacks" in inspect.signature(kernel.compare_with_plain).parameters:
                    emit(agreement_figures(kernel, game, max(1, arguments.agreement // 10), arguments.seed,
                                           takebacks=0.95))
    out = arguments.out or RESULTS / f"kernel_speed-{datetime.date.today().isoformat()}.json"
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps({
        "date": datetime.date.today().isoformat(),
        "machine": f"{os.cpu_count()} cores, {platform.machine()}, load {os.getloadavg()[0]:.1f} at the end",
        "command": "python benchmarks/kernel_speed.py " + " ".join(arguments.games),
        "figures": figures,
    }, indent=1) + "\n", encoding="utf-8")


def compile_figures(game_id: str, kernel: Any, game: Any) -> dict[str, Any]:
    """Time the first calls of the kernel's entry points (compile, or load from Numba's cache)."""
    start = time.perf_counter()
    state = game.new_state(seed=0)
    kernel.playouts(state, 1, 0)
    kernel.legal_moves(kernel.from_state(state))
    kernel.perft(2, state)
    seconds = time.perf_counter() - start
    hits = misses = 0
    for value in vars(kernel).values():
        stats = getattr(value, "stats", None)
        if stats is not None and isinstance(getattr(stats, "cache_hits", None), dict):
            hits += sum(stats.cache_hits.values())
            misses += sum(stats.cache_misses.values())
    return {"measure": "compile", "game": game_id, "seconds": round(seconds, 2),
            "from_cache": bool(hits and not misses), "numba_cache_dir": os.environ.get("NUMBA_CACHE_DIR")}


def speed_figures(kernel: Any, game: Any, seconds: float, seed: int) -> dict[str, Any]:
    """Random playouts/s from the start, kernel and plain, in alternating slices."""
    from ludotheque.bench import random_playouts

    state = game.new_state(seed=seed)
    kernel.playouts(state, 2, seed)  # compiled already; warms the caches
    slice_seconds = seconds / ROUNDS
    kernel_done = kernel_plies = plain_done = plain_plies = 0
    kernel_time = plain_time = 0.0
    batch = 4
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
        "measure": "speed", "game": game.id, "variant": game.variant, "players": game.players,
        "kernel_playouts_per_second": round(kernel_rate, 1),
        "plain_playouts_per_second": round(plain_rate, 1),
        "ratio": round(kernel_rate / plain_rate, 1),
        "kernel_moves_per_second": round(kernel_plies / kernel_time),
        "plain_moves_per_second": round(plain_plies / plain_time),
        "kernel_mean_length": round(kernel_plies / kernel_done, 2),
        "plain_mean_length": round(plain_plies / plain_done, 2),
        "kernel_playouts": kernel_done, "plain_playouts": plain_done,
    }


def shared_figures(kernel: Any, shared: Any, game: Any, seconds: float, seed: int,
                   depth: int) -> dict[str, Any]:
    """The shared module's playouts and perft over the kernel against the kernel's own: alike
    (raises otherwise), and their speed ratio (shared / kernel; above 1: the shared are faster)."""
    state = game.new_state(seed=seed)
    ours, theirs = shared.playouts(state, 8, seed), kernel.playouts(state, 8, seed)
    if (ours.wins.tolist(), ours.draws, ours.lengths.tolist()) != (theirs.wins.tolist(), theirs.draws,
                                                                   theirs.lengths.tolist()):
        raise SystemExit(f"{game.id}: the shared playouts differ from the kernel's")
    rates = {}
    for label, run in (("kernel", kernel.playouts), ("shared", shared.playouts)):
        done = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            run(state, 16, seed + done)
            done += 16
        rates[label] = done / (time.perf_counter() - start)
    timed = {}
    for label, count in (("kernel", kernel.perft), ("shared", shared.perft)):
        count(1, state)  # compiled before it is timed
        start = time.perf_counter()
        timed[label] = (int(count(depth, state)), time.perf_counter() - start)
    if timed["kernel"][0] != timed["shared"][0]:
        raise SystemExit(f"{game.id}: the shared perft differs from the kernel's")
    return {"measure": "shared", "game": game.id, "variant": game.variant, "players": game.players,
            "playouts_per_second": {k: round(v, 1) for k, v in rates.items()},
            "playouts_ratio": round(rates["shared"] / rates["kernel"], 3), "perft_depth": depth,
            "perft_nodes": timed["kernel"][0],
            "perft_seconds": {k: round(v[1], 3) for k, v in timed.items()},
            "perft_ratio": round(timed["kernel"][1] / max(timed["shared"][1], 1e-9), 3), "agree": True}


def perft_figures(kernel: Any, game: Any, depth: int, plain_depth: int, seed: int) -> dict[str, Any]:
    """The kernel's perft from the start at ``depth``, beside the plain engine's and the rules
    file's where there are."""
    state = game.new_state(seed=seed)
    start = time.perf_counter()
    nodes = int(kernel.perft(depth, state))
    seconds = time.perf_counter() - start
    plain = plain_perft(state, depth) if depth <= plain_depth else None
    published = RULES_PERFT.get((game.id, game.variant))
    expected = published[depth - 1] if published and depth <= len(published) else None
    return {"measure": "perft", "game": game.id, "variant": game.variant, "players": game.players,
            "seed": seed, "depth": depth, "nodes": nodes, "plain": plain, "rules_file": expected,
            "agree": all(n in (None, nodes) for n in (plain, expected)), "seconds": round(seconds, 3)}


def plain_perft(state: Any, depth: int) -> int:
    """Sequences of exactly ``depth`` legal moves through the contract (the readable reference)."""
    if depth == 0:
        return 1
    if state.is_over:
        return 0
    return sum(plain_perft(state.play(move), depth - 1) for move in state.legal_moves())


def agreement_figures(kernel: Any, game: Any, games: int, seed: int, **options: float) -> dict[str, Any]:
    """``games`` random games compared ply by ply (raises at the first difference); with
    ``takebacks``, games that prefer taking back what was just played (repetition draws)."""
    start = time.perf_counter()
    agreement = kernel.compare_with_plain(game, games, seed, **options)
    return {"measure": "agreement", "game": game.id, "variant": game.variant, "players": game.players,
            **options, "games": agreement.games, "plies": agreement.plies, "moves": agreement.moves,
            "endings": dict(agreement.endings), "agree": True,
            "seconds": round(time.perf_counter() - start, 1)}


if __name__ == "__main__":
    main()
