"""Re-check every stored puzzle with a second, deeper and independent search.

For each game, each puzzle of its ``puzzles.json`` is searched again by :func:`ludotheque.puzzles.check`
with the file's budget made deeper (``Budget.deeper``: two plies more, four times the positions,
twice the worlds, one ply deeper per world) and another seed (other root orders, other
determinizations of the solver's view):

- ``win``: the line replays to a win of the solver's side, and after the solver's first move the
  other side is proven lost within the deeper horizon (every defence searched);
- ``save``: every other move is still lost by force, the solution is not;
- ``gap``: over fresh worlds of the solver's view, searched deeper, the solution is still the best
  move by half the generator's gap at least.

One line of JSON per game (puzzles, held, failed ids, themes, seconds) and ``--out FILE`` for the
whole document. Exit status 1 when a puzzle fails. Single thread::

    .venv/bin/python benchmarks/puzzle_check.py [--seed 1] [--start N] [--limit N] [GAME ...]
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import ludotheque
from ludotheque import puzzles

GAMES = ("pylos", "expion", "plimil", "imbrication")


def check_game(game_id: str, seed: int, limit: int | None, start: int = 0) -> dict[str, Any]:
    found = puzzles.load_puzzles(game_id)
    chosen = found.puzzles[start:start + limit] if limit else found.puzzles[start:]
    budget = found.budget.deeper()
    prover = puzzles.Prover(ludotheque.load(game_id))
    started = time.perf_counter()
    results = [puzzles.check(puzzle, budget, seed=seed, prover=prover) for puzzle in chosen]
    seconds = time.perf_counter() - started
    failed = [{"id": r.puzzle, "reason": r.reason} for r in results if not r.ok]
    return {
        "game": game_id, "first": chosen[0].id if chosen else None, "puzzles": len(chosen),
        "held": len(chosen) - len(failed), "failed": failed,
        "themes": dict(Counter(p.theme for p in chosen)), "budget": budget.__dict__,
        "seconds": round(seconds, 2), "problems": puzzles.validate(found),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", default=list(GAMES))
    parser.add_argument("--seed", type=int, default=1, help="the second search's seed (not the generator's)")
    parser.add_argument("--limit", type=int, default=None, help="check only the first N puzzles of each game")
    parser.add_argument("--start", type=int, default=0, help="skip the first N puzzles of each game")
    parser.add_argument("--out", type=Path, default=None)
    args = parser.parse_args()
    rows = []
    for game_id in args.games:
        if not puzzles.has_puzzles(game_id):
            continue
        row = check_game(game_id, args.seed, args.limit, args.start)
        print(json.dumps(row), flush=True)
        rows.append(row)
    if args.out is not None:
        args.out.write_text(json.dumps({"seed": args.seed, "games": rows}, indent=2) + "\n", "utf-8")
    return 0 if all(row["held"] == row["puzzles"] and not row["problems"] for row in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
