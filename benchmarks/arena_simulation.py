"""An arena of 30 entrants (scripted people and random bots) for 10 minutes against a real server
(``python -m ludotheque.server`` in its own process, SQLite by default), through the HTTP API
only: each person plays every game they are given for ``--game-s`` seconds (a few random legal
moves), then resigns or agrees a draw, and is paired again by the server. Reports each person's
wait for a partner as they saw it (from their game's end to the reading that shows their next
game: the 0.1 s polling included) and the server's own waits of every board (bots too): max and
p95; the games played, and how many were against the previous opponent of both (two who just met
and wait alone meet again after ``arena.REMATCH_AFTER_S``).

    python benchmarks/arena_simulation.py                                # 26 people, 4 bots, 10 min
    python benchmarks/arena_simulation.py --people 10 --bots 2 --minutes 1 --json
    python benchmarks/arena_simulation.py --db postgresql://u:p@127.0.0.1/db

The test at a small scale is ``tests/tournaments/test_arena_simulation.py``.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.support.server import ServerProcess  # noqa: E402
from tests.tournaments.arena_players import ArenaPlayers  # noqa: E402

# Guests made by the scripted people, and the server's own limits on game creation, unbounded.
SETTINGS = {"LUDOTHEQUE_ACCOUNT_LIMIT": "none"}


def simulate(url: str, people: int, bots: int, minutes: int, game_s: tuple[float, float], seed: int
             ) -> dict[str, Any]:
    with httpx.Client(base_url=url, timeout=30.0) as client:
        players = ArenaPlayers(client, people, bots, minutes, game_s=game_s, seed=seed)
        report = players.run(limit_s=60.0 * minutes + 300.0)
    winner = report.final["winner"]
    return {**report.summary(), "people": people, "bots": bots, "minutes": minutes,
            "game_s": list(game_s), "winner": winner["name"] if winner else None,
            "winner_points": winner["score"] if winner else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--people", type=int, default=26)
    parser.add_argument("--bots", type=int, default=4)
    parser.add_argument("--minutes", type=int, default=10)
    parser.add_argument("--game-s", type=float, nargs=2, default=(20.0, 60.0), metavar=("LEAST", "MOST"),
                        help="how long the people play each game (seconds)")
    parser.add_argument("--db", help="the server's database (default: a new SQLite file)")
    parser.add_argument("--seed", type=int, default=30)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        db = options.db or f"sqlite:///{Path(folder) / 'arena.db'}"
        server = ServerProcess(db, env=SETTINGS).start()
        try:
            figures = simulate(server.url, options.people, options.bots, options.minutes,
                               tuple(options.game_s), options.seed)
        finally:
            server.stop()
    if options.json:
        print(json.dumps(figures, indent=2))
        return
    print(f"arena of {figures['people']} people and {figures['bots']} bots, {figures['minutes']} min: "
          f"{figures['games']} games ({figures['rematches']} against the previous opponent); "
          f"winner {figures['winner']} ({figures['winner_points']} points)")
    print(f"people's waits for a partner (as they saw them, {figures['people_waits']}): "
          f"max {figures['wait_max_s']} s, p95 {figures['wait_p95_s']} s")
    print(f"server's waits (every board): max {figures['server_wait_max_s']} s, "
          f"p95 {figures['server_wait_p95_s']} s")
    print(f"left waiting when the time was up: {figures['cut_by_the_end_max_s']} s at most")


if __name__ == "__main__":
    main()
