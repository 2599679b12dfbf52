"""Time a long game's analysis through the server, and the bots' moves played meanwhile.

A server (``create_app`` on SQLite in a temporary folder, ``--workers`` bot workers, the default
analysis settings: each game's budget, its kernel) gets a finished random game of ``GAME`` at
least ``--plies`` long (Ex*Pion's reach 400 plies), played through the API; then
``GET /api/games/{id}/analysis`` is asked every 0.2 s until done: the time from the first request
to the result (the workers' compilation included), with the progress seen. Meanwhile a person
plays a casual game against the ``--bot`` level: each bot reply's time (from the person's move to
the bot's), compared with the same replies with no analysis running. Prints one JSON document::

    .venv/bin/python benchmarks/analysis_server.py [--game expion] [--plies 400] [--workers 1]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import tempfile
import threading
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from ludotheque.server import create_app
from ludotheque.server.config import ServerSettings


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def new_game(client: TestClient, game: str, seats: list[str]) -> dict[str, Any]:
    answer = client.post("/api/games", json={"game": game, "players": 2, "seats": seats})
    created: dict[str, Any] = answer.json()
    return created


def long_game(client: TestClient, game: str, plies: int, seed: int = 0) -> tuple[str, int]:
    """A game between two people played with random moves until over, the first at least
    ``plies`` long of a few tries (else the longest); its id and length."""
    best: tuple[str, int] | None = None
    for attempt in range(20):
        rng = random.Random(seed + attempt)
        created = new_game(client, game, ["human", "human"])
        tokens = [seat["token"] for seat in created["seats"]]
        doc = client.get(f"/api/games/{created['id']}", headers=bearer(tokens[0])).json()
        while doc["status"] == "playing":
            seat = doc["to_move"]
            mine = client.get(f"/api/games/{created['id']}", headers=bearer(tokens[seat])).json()
            move = rng.choice(mine["legal_moves"])
            doc = client.post(f"/api/games/{created['id']}/moves", json={"move": move},
                              headers=bearer(tokens[seat])).json()
        length = len(doc["moves"])
        if best is None or (best[1] < plies and length > best[1]):
            best = (created["id"], length)
        if length >= plies:
            return created["id"], length
    assert best is not None
    return best


def bot_replies(client: TestClient, game: str, bot: str, count: int, stop: threading.Event | None = None
                ) -> list[float]:
    """Seconds from each of a person's moves to the bot's reply, ``count`` replies (a new game when
    one ends), or until ``stop`` is set."""
    rng = random.Random(7)
    times: list[float] = []
    created = new_game(client, game, ["human", f"bot:{bot}"])
    token = created["seats"][0]["token"]
    while len(times) < count and not (stop is not None and stop.is_set()):
        doc = client.get(f"/api/games/{created['id']}", headers=bearer(token)).json()
        if doc["status"] != "playing":
            created = new_game(client, game, ["human", f"bot:{bot}"])
            token = created["seats"][0]["token"]
            continue
        if doc["to_move"] != 0:
            time.sleep(0.01)
            continue
        ply = doc["ply"]
        started = time.perf_counter()
        client.post(f"/api/games/{created['id']}/moves", json={"move": rng.choice(doc["legal_moves"])},
                    headers=bearer(token))
        while True:
            doc = client.get(f"/api/games/{created['id']}", headers=bearer(token)).json()
            if doc["ply"] >= ply + 2 or doc["status"] != "playing":
                break
            time.sleep(0.01)
        times.append(time.perf_counter() - started)
    return times


def summary(times: list[float]) -> dict[str, Any]:
    if not times:
        return {"replies": 0}
    ordered = sorted(times)
    return {"replies": len(times), "median_s": round(statistics.median(times), 3),
            "p90_s": round(ordered[int(0.9 * (len(ordered) - 1))], 3), "max_s": round(max(times), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="expion")
    parser.add_argument("--plies", type=int, default=400)
    parser.add_argument("--workers", type=int, default=1, help="bot workers (the server's default here: 1)")
    parser.add_argument("--bot", default="easy", help="the level of the bot game played meanwhile")
    parser.add_argument("--replies", type=int, default=20, help="bot replies timed with no analysis")
    options = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="ludotheque-analysis-server-"))
    # One client creates every game here: no creation limits.
    settings = replace(ServerSettings.from_env(), create_limit=None, bot_game_limit=None)
    app = create_app(f"sqlite:///{folder / 'games.db'}", bot_workers=options.workers, settings=settings)
    with TestClient(app) as client:
        game_id, plies = long_game(client, options.game, options.plies)
        quiet = bot_replies(client, "pylos", options.bot, options.replies)
        stop = threading.Event()
        during: list[float] = []
        player = threading.Thread(
            target=lambda: during.extend(bot_replies(client, "pylos", options.bot, 10_000, stop)))
        started = time.perf_counter()
        first = client.get(f"/api/games/{game_id}/analysis").json()
        player.start()
        seen: list[tuple[float, int, int]] = []
        while True:
            answer = client.get(f"/api/games/{game_id}/analysis").json()
            if answer["status"] in ("done", "failed"):
                break
            seen.append((round(time.perf_counter() - started, 1), answer["done"], answer["total"]))
            time.sleep(0.2)
        seconds = time.perf_counter() - started
        stop.set()
        player.join()
        print(json.dumps({
            "game": options.game, "plies": plies, "workers": options.workers, "status": answer["status"],
            "first_answer": first["status"], "seconds": round(seconds, 1),
            "kept_seconds": answer.get("seconds"), "engine": answer.get("analysis", {}).get("engine"),
            "progress_seen": seen[:: max(1, len(seen) // 10)],
            "bot_replies_quiet": summary(quiet), "bot_replies_during_analysis": summary(during),
        }), flush=True)


if __name__ == "__main__":
    main()
