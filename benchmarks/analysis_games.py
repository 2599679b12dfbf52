"""Time the analysis of stored self-played games: 20 games per game, each with its time.

For each game, ``--games`` games are played by two bots (``--level``; seeds 0, 1, ... so the same
games every run) and stored as records in ``--store`` (a later run reads them back instead of
playing them again), then each is analysed with the game's default budget (× ``--budget``) in
this process, as ``ludotheque analyse`` and the server do. The first analysis of a game pays the
compilation of its kernel's searches (Numba cannot cache them on disk), which is reported apart.
One line of JSON per game analysed, then one summary per game (count, plies, mean, median and
slowest seconds, milliseconds per ply); ``--out FILE`` keeps everything as one JSON document.
Single thread; run it on a quiet machine::

    .venv/bin/python benchmarks/analysis_games.py [--games 20] [--budget 1] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

import ludotheque
from ludotheque import ai
from ludotheque.analysis import analyse, budget_for
from ludotheque.core.contract import Result
from ludotheque.core.records import Record

GAMES = ("pylos", "expion", "imbrication", "plimil")
# Quick bots whose games are real games (Plimil's easy level thinks for seconds a move).
LEVELS = {"pylos": "easy", "expion": "easy", "imbrication": "easy", "plimil": "random"}
STORE = Path(tempfile.gettempdir()) / "ludotheque-analysis-games"
MAX_PLIES = 600


def self_played(game_id: str, seed: int, level: str) -> Record:
    """A game of ``game_id`` between two ``level`` bots seeded from ``seed`` (at most 600 plies:
    a longer one is recorded as drawn there)."""
    game = ludotheque.load(game_id, players=2)
    bots = [ai.bot(level, game, seed=seed * 10 + seat) for seat in range(2)]
    state = game.new_state(seed=seed)
    moves: list[str] = []
    while not state.is_over and len(moves) < MAX_PLIES:
        assert state.to_move is not None
        move = bots[state.to_move].choose(state)
        moves.append(str(move))
        state = state.play(move)
    record = Record.start(game, seed=seed).with_moves(moves)
    if state.is_over:
        return record.finished(state.result())
    return record.finished(Result((), (0.5, 0.5), "ply limit"))


def stored_game(store: Path, game_id: str, seed: int, level: str) -> Record:
    """The stored record of that game, played and stored first if missing."""
    path = store / game_id / f"{level}-{seed}.json"
    if path.exists():
        return Record.read(path)
    record = self_played(game_id, seed, level)
    path.parent.mkdir(parents=True, exist_ok=True)
    record.save(path)
    return record


def summary(game_id: str, rows: list[dict[str, Any]], compile_s: float) -> dict[str, Any]:
    seconds = [row["seconds"] for row in rows]
    plies = [row["plies"] for row in rows]
    return {
        "game": game_id, "summary": True, "games": len(rows), "plies_total": sum(plies),
        "plies_max": max(plies), "mean_s": round(statistics.mean(seconds), 2),
        "median_s": round(statistics.median(seconds), 2), "max_s": round(max(seconds), 2),
        "total_s": round(sum(seconds), 1), "compile_s": round(compile_s, 2),
        "per_ply_ms": round(1000 * sum(seconds) / max(1, sum(plies)), 1),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES), metavar="GAME")
    parser.add_argument("--games", dest="count", type=int, default=20, help="games per game (20)")
    parser.add_argument("--budget", type=float, default=1.0, help="factor on the default budget (1)")
    parser.add_argument("--level", default=None, help="the bots that play them (default: per game)")
    parser.add_argument("--store", type=Path, default=STORE, help=f"where the records are kept ({STORE})")
    parser.add_argument("--out", type=Path, default=None, help="also write every line as one JSON file")
    options = parser.parse_args()
    everything: list[dict[str, Any]] = []
    for game_id in options.games:
        level = options.level or LEVELS[game_id]
        budget = budget_for(game_id).scaled(options.budget)
        records = [stored_game(options.store, game_id, seed, level) for seed in range(options.count)]
        rows: list[dict[str, Any]] = []
        compile_s = 0.0
        for seed, record in enumerate(records):
            started = time.perf_counter()
            analysis = analyse(record, budget=budget)
            seconds = time.perf_counter() - started
            if seed == 0:  # the first one compiles the searches: time it again, warm
                started = time.perf_counter()
                analyse(record, budget=budget)
                warm = time.perf_counter() - started
                compile_s, seconds = max(0.0, seconds - warm), warm
            marks = sum(1 for entry in analysis.plies if entry.mark)
            row = {"game": game_id, "seed": seed, "level": level, "plies": len(record.moves),
                   "seconds": round(seconds, 3), "marks": marks, "engine": analysis.engine,
                   "budget_factor": options.budget}
            rows.append(row)
            print(json.dumps(row), flush=True)
        line = summary(game_id, rows, compile_s)
        print(json.dumps(line), flush=True)
        everything += [*rows, line]
    if options.out is not None:
        options.out.parent.mkdir(parents=True, exist_ok=True)
        options.out.write_text(json.dumps(everything, indent=1) + "\n", "utf-8")


if __name__ == "__main__":
    main()
