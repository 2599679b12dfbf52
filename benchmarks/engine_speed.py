"""Engine speed of every game through the contract loop (docs/design.md "How figures are measured").

Usage: ``python benchmarks/engine_speed.py [--seconds S] [--seed N] [--game ID]``; prints one JSON
line per game, variant and player count: playouts/s, moves/s and mean game length.
"""

from __future__ import annotations

import argparse
import json

import ludotheque
from ludotheque.bench import random_playouts
from ludotheque.core import info


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--game", choices=ludotheque.games())
    arguments = parser.parse_args()
    for game_id in [arguments.game] if arguments.game else ludotheque.games():
        facts = info(game_id)
        for variant in facts.variants:
            for players in facts.player_counts:
                game = ludotheque.load(game_id, variant=variant, players=players)
                figures = random_playouts(game, seconds=arguments.seconds, seed=arguments.seed)
                print(json.dumps(figures.to_json()), flush=True)


if __name__ == "__main__":
    main()
