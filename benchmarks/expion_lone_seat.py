"""3-player Ex*Pion at equal strength: how often the lone North+South player wins.

With 3 players one player holds North and South and may move either colour on each of its two
turns, while East and West each move only their own. This plays ``--games`` games with the same
level in all three seats (the arena's game seeds: ``seed * 1_000_003 + index``, each bot seeded
``game_seed * 8 + seat``) and counts the lone player's wins, the pair's and the draws: the yardstick
for the ``hard``-against-``hard-plain`` figure of the README, where ``hard`` scores only as the pair.

    python benchmarks/expion_lone_seat.py --level hard --games 10
    python benchmarks/expion_lone_seat.py --level hard-plain --games 10 --json lone.json
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ludotheque import load
from ludotheque.ai import bot

LONE = 0  # the player who holds North and South


def play(level: str, seed: int, index: int) -> dict[str, Any]:
    """One game with ``level`` in every seat: who won, why, in how many plies."""
    game_seed = seed * 1_000_003 + index
    game = load("expion", players=3)
    bots = [bot(level, game, seed=game_seed * 8 + seat) for seat in range(game.players)]
    state = game.new_state(seed=game_seed)
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        state = state.play(bots[mover].choose(state))
    result = state.result()
    return {"index": index, "winners": list(result.winners), "reason": result.reason, "plies": state.ply}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="hard", help="the level in every seat (default: hard)")
    parser.add_argument("--games", type=int, default=10)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--json", dest="json_path", default=None, help="also write the figures here")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    games: list[dict[str, Any]] = []
    with ProcessPoolExecutor(args.jobs) as pool:
        futures = [pool.submit(play, args.level, args.seed, i) for i in range(args.games)]
        for future in futures:
            games.append(future.result())
            print(json.dumps(games[-1]), file=sys.stderr, flush=True)
    lone = sum(LONE in g["winners"] for g in games)
    drawn = sum(not g["winners"] for g in games)
    figures = {
        "level": args.level, "games": args.games, "seed": args.seed,
        "lone_won": lone, "pair_won": args.games - lone - drawn, "drawn": drawn,
        "plies": sorted(g["plies"] for g in games),
        "seconds": round(time.perf_counter() - started, 1), "records": games,
    }
    text = json.dumps(figures, indent=1, ensure_ascii=False)
    print(text)
    if args.json_path:
        with open(args.json_path, "w", encoding="utf-8") as out:
            out.write(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
