"""Each level's time per move (95th percentile) per game, on this machine.

    python benchmarks/bot_times.py pylos --games 2 [--levels easy,medium,hard] [--json FILE]

For every level, a few games of that level against itself from seeded starts; every move is
timed (``perf_counter``, one process). Figures go to stdout as JSON. Levels are budgets of depth
or iterations, so these times are what a level costs here, not what it is.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path
from typing import Any

import ludotheque
from ludotheque import ai


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(fraction * len(ordered) + 0.5) - 1))]


def time_level(game: ludotheque.Game, level: str, games: int, seed: int,
               max_moves: int | None) -> dict[str, Any]:
    times: list[float] = []
    for index in range(games):
        bots = [ai.bot(level, game, seed=seed + 97 * index + p) for p in range(game.players)]
        state = game.new_state(seed=seed + index)
        while not state.is_over and (max_moves is None or len(times) < max_moves * (index + 1)):
            mover = state.to_move
            assert mover is not None
            started = time.perf_counter()
            move = bots[mover].choose(state)
            times.append(time.perf_counter() - started)
            state = state.play(move)
    return {
        "game": game.id, "variant": game.variant, "players": game.players, "level": level,
        "algorithm": ai.level_for(game, level).algorithm, "moves": len(times),
        "p95_s": round(percentile(times, 0.95), 4), "mean_s": round(statistics.fmean(times), 4),
        "max_s": round(max(times), 4),
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games", nargs="*", help="game ids (default: every registered game)")
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--games", dest="count", type=int, default=2, help="games per level")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--max-moves", type=int, default=None, help="stop each game after this many")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", dest="json_path", default=None)
    args = parser.parse_args(argv)
    figures = []
    for game_id in args.games or ludotheque.games():
        game = ludotheque.load(game_id, players=args.players)
        for level in args.levels.split(","):
            figures.append(time_level(game, level, args.count, args.seed, args.max_moves))
    text = json.dumps(figures, indent=2)
    print(text)
    if args.json_path:
        Path(args.json_path).write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
