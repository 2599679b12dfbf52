"""Server load: N live human-vs-human Pylos games over WebSockets, on loopback.

Each seat moves ``--think`` seconds after it receives the document that gives it the turn
(about N moves/s in all); a game that ends is replaced by a new one, so N games stay live. The
load client runs in its own process, the server (uvicorn, SQLite in WAL mode by default) in
another. Measured after ``--warmup`` seconds, for ``--duration`` seconds: moves/s and the
p50/p99 latency from a move's POST to the WebSocket document that shows it to the mover.

    python benchmarks/load_server.py                      # 200 games, 10 s warm-up, 60 s measured
    python benchmarks/load_server.py --games 50 --duration 10 --warmup 3 --json
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import random
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ludotheque.bench import percentile

ROOT = Path(__file__).resolve().parents[1]
# The load client creates every game from one address, far faster than a person: the server it
# starts lifts the per-client creation limits (a server given by --url needs the same settings).
UNLIMITED = {"LUDOTHEQUE_CREATE_LIMIT": "none", "LUDOTHEQUE_BOT_GAME_LIMIT": "none"}


@dataclass(frozen=True)
class LoadPlan:
    url: str
    games: int
    warmup: float
    duration: float
    think: float
    seed: int


@dataclass
class Tally:
    """Latencies (seconds) of the moves posted inside the measured window."""

    window_start: float
    window_end: float
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    finished_games: int = 0

    def record(self, posted: float, arrived: float) -> None:
        if self.window_start <= posted < self.window_end:
            self.latencies.append(arrived - posted)


class HttpConnection:
    """One keep-alive HTTP/1.1 connection: a lean client, so that the load client itself
    costs little CPU next to the server it measures."""

    def __init__(self, url: str) -> None:
        address = url.split("://", 1)[1]
        self.host, _, port = address.partition(":")
        self.port = int(port or 80)
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def post(self, path: str, body: dict[str, Any], token: str | None = None) -> tuple[int, bytes]:
        """POST ``body`` as JSON; reconnects once if the server closed the idle connection."""
        data = json.dumps(body).encode()
        head = f"POST {path} HTTP/1.1\r\nHost: {self.host}\r\nContent-Type: application/json\r\n"
        head += f"Content-Length: {len(data)}\r\n"
        if token:
            head += f"Authorization: Bearer {token}\r\n"
        request = head.encode() + b"\r\n" + data
        for attempt in (1, 2):
            if self._streams is None:
                self._streams = await asyncio.open_connection(self.host, self.port)
            reader, writer = self._streams
            try:
                writer.write(request)
                await writer.drain()
                status_line = await reader.readline()
            except ConnectionError:
                status_line = b""
            if status_line:
                break
            self.close()  # the server ended an idle keep-alive connection: open a new one
            if attempt == 2:
                raise ConnectionError(f"no answer to POST {path}")
        status = int(status_line.split()[1])
        length = 0
        while (line := await reader.readline()) not in (b"\r\n", b""):
            name, _, value = line.decode().partition(":")
            if name.lower() == "content-length":
                length = int(value)
        return status, await reader.readexactly(length)

    def close(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


async def play_seat(plan: LoadPlan, game_id: str, seat: int, token: str, tally: Tally) -> None:
    """One person: wait for the turn, think, POST a random legal move, time the echo."""
    import websockets

    rng = random.Random(f"{plan.seed}-{game_id}-{seat}")
    ws_url = plan.url.replace("http", "ws", 1) + f"/api/games/{game_id}/ws?token={token}"
    posted_at: dict[int, float] = {}
    http = HttpConnection(plan.url)
    try:
        async with websockets.connect(ws_url, max_size=2**22, compression=None) as socket:
            async for raw in socket:
                arrived = time.perf_counter()
                doc = json.loads(raw)
                if "id" not in doc:
                    tally.errors += 1
                    continue
                if doc["ply"] in posted_at:
                    tally.record(posted_at.pop(doc["ply"]), arrived)
                if doc["status"] == "over":
                    return
                if doc["to_move"] == seat and doc["legal_moves"]:
                    await asyncio.sleep(plan.think)
                    posted_at[doc["ply"] + 1] = time.perf_counter()
                    move = {"move": rng.choice(doc["legal_moves"]), "ply": doc["ply"]}
                    status, _ = await http.post(f"/api/games/{game_id}/moves", move, token)
                    if status != 200:
                        tally.errors += 1
    finally:
        http.close()


async def keep_a_game_live(plan: LoadPlan, tally: Tally, delay: float) -> None:
    await asyncio.sleep(delay)  # spread the starts so that turns do not all fall together
    http = HttpConnection(plan.url)
    while True:
        try:
            _, body = await http.post("/api/games", {"game": "pylos", "seats": ["human", "human"]})
            created = json.loads(body)
            seats = [(entry["seat"], entry["token"]) for entry in created["seats"]]
            await asyncio.gather(*(play_seat(plan, created["id"], s, t, tally) for s, t in seats))
            tally.finished_games += 1
        except Exception:  # a refused creation or a dropped socket
            tally.errors += 1  # counted, and the game slot goes on with a new game


async def load(plan: LoadPlan) -> dict[str, Any]:
    start = time.perf_counter()
    tally = Tally(start + plan.warmup, start + plan.warmup + plan.duration)
    tasks = [
        asyncio.create_task(keep_a_game_live(plan, tally, plan.think * i / plan.games))
        for i in range(plan.games)
    ]
    await asyncio.sleep(plan.warmup + plan.duration + plan.think + 1)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    latencies = tally.latencies
    return {
        "games": plan.games,
        "warmup_s": plan.warmup,
        "duration_s": plan.duration,
        "think_s": plan.think,
        "moves": len(latencies),
        "moves_per_s": round(len(latencies) / plan.duration, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "max_ms": round(max(latencies, default=0.0) * 1000, 2),
        "errors": tally.errors,
        "finished_games": tally.finished_games,
    }


def client_process(plan: LoadPlan, results: Any) -> None:
    """The load client's own process: one event loop driving every simulated person."""
    # The client is the stopwatch: its own garbage-collector pauses must not pass for latency.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    results.put(asyncio.run(load(plan)))


def run_load(plan: LoadPlan) -> dict[str, Any]:
    context = multiprocessing.get_context("spawn")
    results = context.Queue()
    client = context.Process(target=client_process, args=(plan, results))
    client.start()
    figures: dict[str, Any] = results.get(timeout=plan.warmup + plan.duration + 120)
    client.join()
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200, help="live games (two players each)")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a seat waits before moving")
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file, WAL)")
    parser.add_argument("--url", default=None, help="load a running server instead of starting one "
                        "(started with LUDOTHEQUE_CREATE_LIMIT=none)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from tests.support.server import ServerProcess

    def plan_for(url: str) -> LoadPlan:
        return LoadPlan(
            url, arguments.games, arguments.warmup, arguments.duration, arguments.think, arguments.seed
        )

    if arguments.url:
        figures = run_load(plan_for(arguments.url))
    else:
        with tempfile.TemporaryDirectory() as folder:
            db = arguments.db or f"sqlite:///{Path(folder) / 'load.db'}"
            with ServerProcess(db, env=UNLIMITED) as server:
                figures = run_load(plan_for(server.url))
            figures["database"] = db.split(":", 1)[0]
    if arguments.json:
        print(json.dumps(figures))
    else:
        for name, value in figures.items():
            print(f"{name:>15}: {value}")


if __name__ == "__main__":
    main()
