"""Bot strength: each level against the one below, through the arena, against the targets.

    python benchmarks/arena_strength.py pylos --jobs 2 --out out/strength [--resume]
    python benchmarks/arena_strength.py pylos --pairs medium:hard:40 --json strength.json

Each pair plays its own arena (sides alternated, Wilson 95% intervals) in ``OUT/<game>/<a>-<b>``, so a
long run can be resumed pair by pair. Figures go to stdout as JSON (and to ``--json FILE``).
Targets (docs/design.md): easy beats random >= 90%, medium beats easy >= 70%, hard beats medium >= 65%;
(issue 15) hard scores >= 50% against the fixed baseline ``uct10k`` (then measured against
``uct100k``) and >= 75% against ``hard-plain``, the hard level as it plays on the plain engine:

    python benchmarks/arena_strength.py pylos --jobs 1 --pairs uct10k:hard:40,hard-plain:hard:40
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from ludotheque.ai.arena import run_arena

DEFAULT_PAIRS = "random:easy:100,easy:medium:100,medium:hard:40"
TARGETS = {("random", "easy"): 0.90, ("easy", "medium"): 0.70, ("medium", "hard"): 0.65,
           ("uct10k", "hard"): 0.50, ("hard-plain", "hard"): 0.75}


def measure(game: str, weaker: str, stronger: str, games: int, args: argparse.Namespace) -> dict[str, Any]:
    """One pair's score, from the stronger bot's side, with its interval and the target."""
    started = time.perf_counter()
    out = Path(args.out) / game / f"{weaker}-{stronger}"
    report = run_arena(game, [weaker, stronger], games=games, players=args.players,
                       variant=args.variant, jobs=args.jobs, out=out, resume=args.resume,
                       seed=args.seed)
    pair = report.pairs[0]
    target = TARGETS.get((weaker, stronger))
    score, low, high = 1 - pair.score, 1 - pair.high, 1 - pair.low
    return {
        "game": report.game, "variant": report.variant, "players": report.players,
        "stronger": stronger, "weaker": weaker, "games": pair.games,
        "stronger_wins": pair.losses, "draws": pair.draws, "stronger_losses": pair.wins,
        "score": round(score, 4), "low95": round(low, 4), "high95": round(high, 4),
        "target": target, "meets_target": None if target is None else score >= target,
        "mean_plies": round(sum(o.plies for o in report.outcomes) / len(report.outcomes), 1),
        "seconds": round(time.perf_counter() - started, 1),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="+", help="game ids, e.g. pylos expion")
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="weaker:stronger:games,...")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--variant", default=None)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--out", default="out/strength")
    parser.add_argument("--resume", action="store_true")
    parser.add_argument("--json", dest="json_path", default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    figures = []
    for game in args.games:
        for spec in args.pairs.split(","):
            weaker, stronger, count = spec.split(":")
            figure = measure(game, weaker, stronger, int(count), args)
            figures.append(figure)
            print(json.dumps(figure), file=sys.stderr, flush=True)
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json_path:
        Path(args.json_path).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
