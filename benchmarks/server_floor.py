"""What a request and a move cost the server at the least, on this machine (issue 17).

Processor time of the server process per request, one request at a time on one keep-alive
connection (no concurrency, so no queueing): what the server stack costs before any game logic,
beside what a move costs through the whole server. These are the floors that bound
``load_server.py``'s figures.

- ``asgi``: a bare ASGI app under uvicorn (httptools, uvloop), answering ``{}``;
- ``fastapi``: one FastAPI route answering ``{}``;
- ``move_transport``: what a move's messages cost with no game, no database and no framework: a
  bare ASGI app under uvicorn that takes a POSTed move (a small JSON body), sends a document of
  a real move's size (1.5 kB, the mean over whole Pylos games) to each of the game's two
  WebSockets and answers it; the floor under a move on this stack;
- ``game_document``: ``GET /api/games/{id}`` on the real server (SQLite), a cached document;
- ``move``: whole Pylos games played move by move on the real server: each move a POST, then
  the documents on both players' sockets (game creation and socket handshakes included);
- ``worker_move`` (with ``--db postgresql://…``): the same games on ``ludotheque serve --workers 1
  --redis …`` (the shared mode: row lock, version, commit and publish per move; Redis and
  PostgreSQL's own processor time not counted, as SQLite's is inside the single process).

The ratios the issue sets targets for (issue 30): ``move_vs_asgi`` (a move's CPU over a bare
ASGI request's, target ≤ 5) and ``worker_vs_single`` (a worker's move over the single
process's, target ≤ 2); beside them ``transport_vs_asgi``, the share of that target that a
move's three messages take before any game logic.

Every server is started first; then each measure runs once per round (``--rounds``, 5), one
after the other, and the figures sum the rounds: a slower minute of a shared machine weighs on
every measure alike, so the ratios hold better than the figures themselves.

    python benchmarks/server_floor.py                 # 3,000 requests each, 20 games, 5 rounds
    python benchmarks/server_floor.py --requests 500 --games 5 --rounds 1 --json
    python benchmarks/server_floor.py --db postgresql://u:p@127.0.0.1/db   # and a worker's move
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from tests.support.server import ServerProcess, free_port  # noqa: E402

from load_server import UNLIMITED, HttpConnection, own_redis, tree_cpu_seconds, workers  # noqa: E402

BARE_APPS = {
    "asgi": '''
async def app(scope, receive, send):
    if scope["type"] != "http":
        return
    await send({"type": "http.response.start", "status": 200,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"2")]})
    await send({"type": "http.response.body", "body": b"{}"})
''',
    "fastapi": '''
from fastapi import FastAPI, Request, Response
app = FastAPI()

@app.get("/api/games/{game_id}")
async def read(request: Request, game_id: str) -> Response:
    return Response(b"{}", media_type="application/json")
''',
}

# A move's messages, bare: the POST, one text frame to each of two sockets, the answer.
BARE_MOVE_APP = '''
DOCUMENT = '{"pad": "' + "x" * 1440 + '"}'
BODY = DOCUMENT.encode()
HEADERS = [(b"content-type", b"application/json"), (b"content-length", str(len(BODY)).encode())]
SOCKETS = []

async def app(scope, receive, send):
    if scope["type"] == "websocket":
        await receive()  # websocket.connect
        await send({"type": "websocket.accept"})
        SOCKETS.append(send)
        try:
            while (await receive())["type"] != "websocket.disconnect":
                pass
        finally:
            SOCKETS.remove(send)
        return
    if scope["type"] != "http":
        return
    more = True
    while more:
        more = (await receive()).get("more_body", False)
    for socket in SOCKETS:
        await socket({"type": "websocket.send", "text": DOCUMENT})
    await send({"type": "http.response.start", "status": 200, "headers": HEADERS})
    await send({"type": "http.response.body", "body": BODY})
'''


async def get_many(port: int, path: str, count: int) -> None:
    """``count`` GETs of ``path``, one after the other on one keep-alive connection."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    request = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".encode()
    for _ in range(count):
        writer.write(request)
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(f"GET {path}: {status!r}")
        length = 0
        while (line := await reader.readline()) != b"\r\n":
            if line.lower().startswith(b"content-length"):
                length = int(line.split(b":")[1])
        await reader.readexactly(length)
    writer.close()


class Tally:
    """One measure's processor time (of its server's process tree), wall time and count, summed
    over the rounds."""

    def __init__(self, pid: int) -> None:
        self.pid, self.cpu, self.wall, self.count = pid, 0.0, 0.0, 0

    def add(self, run: Callable[[], int]) -> None:
        cpu, wall = tree_cpu_seconds(self.pid), time.perf_counter()
        self.count += run()
        self.cpu += tree_cpu_seconds(self.pid) - cpu
        self.wall += time.perf_counter() - wall

    def figures(self) -> dict[str, float]:
        return {"server_cpu_ms": round(self.cpu * 1000 / self.count, 3),
                "wall_ms": round(self.wall * 1000 / self.count, 3), "count": self.count}


def requests_of(port: int, path: str, count: int) -> Callable[[], int]:
    def run() -> int:
        asyncio.run(get_many(port, path, count))
        return count
    return run


@contextmanager
def bare_server(source: str) -> Iterator[tuple[int, int]]:
    """uvicorn serving ``source``'s ``app`` on a free port; yields its port and pid."""
    with tempfile.TemporaryDirectory() as folder:
        (Path(folder) / "bare_app.py").write_text(source)
        port = free_port()
        process = subprocess.Popen(
            [sys.executable, "-m", "uvicorn", "bare_app:app", "--port", str(port), "--log-level", "warning"],
            cwd=folder, stdout=subprocess.DEVNULL)
        try:
            for _ in range(300):
                try:
                    with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/games/x", timeout=2):
                        break
                except OSError:
                    time.sleep(0.1)
            yield port, process.pid
        finally:
            process.terminate()
            process.wait(30)


async def bare_moves(port: int, count: int) -> None:
    """``count`` moves on the bare move app: each a POST, then a frame read on both sockets."""
    import websockets

    url = f"http://127.0.0.1:{port}"
    sockets = [await websockets.connect(f"ws://127.0.0.1:{port}/ws", compression=None) for _ in (0, 1)]
    http = HttpConnection(url)
    for ply in range(count):
        status, _ = await http.post("/api/games/x/moves", {"move": "1a1", "ply": ply}, "t" * 43)
        if status != 200:
            raise RuntimeError(f"the bare move app answered {status}")
        for socket in sockets:
            await socket.recv()
    http.close()
    for socket in sockets:
        await socket.close()


def transport_of(port: int, count: int) -> Callable[[], int]:
    def run() -> int:
        asyncio.run(bare_moves(port, count))
        return count
    return run


async def play_games(url: str, games: int, seed: int) -> int:
    """Whole random Pylos games, one move at a time; the number of moves played."""
    import websockets

    rng, moves = random.Random(seed), 0
    for _ in range(games):
        http = HttpConnection(url)
        _, body = await http.post("/api/games", {"game": "pylos", "seats": ["human", "human"]})
        created = json.loads(body)
        tokens = {entry["seat"]: entry["token"] for entry in created["seats"]}
        base = url.replace("http", "ws", 1) + f"/api/games/{created['id']}/ws?token="
        sockets = [await websockets.connect(base + tokens[seat], compression=None) for seat in (0, 1)]
        documents = [json.loads(await socket.recv()) for socket in sockets]
        while documents[0]["status"] != "over":
            mine = documents[documents[0]["to_move"]]
            move = {"move": rng.choice(mine["legal_moves"]), "ply": mine["ply"]}
            status, _ = await http.post(f"/api/games/{created['id']}/moves", move, tokens[mine["seat"]])
            if status != 200:
                raise RuntimeError(f"a move was refused: {status}")
            documents = [json.loads(await socket.recv()) for socket in sockets]
            moves += 1
        for socket in sockets:
            await socket.close()
        http.close()
    return moves


def games_of(url: str, games: int, seed: int) -> Callable[[], int]:
    """Whole games on ``url``, a new seed each round; the number of moves played."""
    rounds = iter(range(seed, seed + 1_000_000))

    def run() -> int:
        return asyncio.run(play_games(url, games, next(rounds)))
    return run


def new_game_id(url: str) -> str:
    with urllib.request.urlopen(urllib.request.Request(
            url + "/api/games", data=b'{"game": "pylos", "seats": ["human", "human"]}',
            headers={"Content-Type": "application/json"})) as answer:
        return str(json.load(answer)["id"])


def start_servers(stack: ExitStack, db: str | None) -> dict[str, tuple[str, int]]:
    """Every server the measures need, started at once: name -> (URL, pid)."""
    servers: dict[str, tuple[str, int]] = {}
    for name, source in {**BARE_APPS, "move_transport": BARE_MOVE_APP}.items():
        port, pid = stack.enter_context(bare_server(source))
        servers[name] = (f"http://127.0.0.1:{port}", pid)
    folder = stack.enter_context(tempfile.TemporaryDirectory())
    single = stack.enter_context(ServerProcess(f"sqlite:///{Path(folder) / 'floor.db'}", env=UNLIMITED))
    assert single.process is not None
    servers["single"] = (single.url, single.process.pid)
    if db:
        redis_url = stack.enter_context(own_redis(None))
        servers["worker"] = stack.enter_context(workers(db, redis_url, 1))
    return servers


def measure(arguments: argparse.Namespace) -> dict[str, Any]:
    """Every measure in rounds, one after the other within each round: a slower minute of a
    shared machine weighs on every figure alike, so the ratios hold better than the figures."""
    rounds = max(1, arguments.rounds)
    requests, games = max(1, arguments.requests // rounds), max(1, arguments.games // rounds)
    with ExitStack() as stack:
        servers = start_servers(stack, arguments.db)
        port_of = {name: int(url.rsplit(":", 1)[1]) for name, (url, _) in servers.items()}
        document = f"/api/games/{new_game_id(servers['single'][0])}"
        runs: dict[str, Callable[[], int]] = {
            "asgi": requests_of(port_of["asgi"], "/api/games/x", requests),
            "fastapi": requests_of(port_of["fastapi"], "/api/games/x", requests),
            "move_transport": transport_of(port_of["move_transport"], requests),
            "game_document": requests_of(port_of["single"], document, requests),
            "move": games_of(servers["single"][0], games, arguments.seed),
        }
        if "worker" in servers:
            runs["worker_move"] = games_of(servers["worker"][0], games, arguments.seed)
        pid_of = {"game_document": servers["single"][1], "move": servers["single"][1],
                  "worker_move": servers.get("worker", ("", 0))[1]}
        tallies = {name: Tally(pid_of.get(name) or servers[name][1]) for name in runs}
        for run in runs.values():  # warm: the first calls import and compile
            run()
        for _ in range(rounds):
            for name, run in runs.items():
                tallies[name].add(run)
    return {name: tally.figures() for name, tally in tallies.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--requests", type=int, default=3000, help="requests per measure, over the rounds")
    parser.add_argument("--games", type=int, default=20, help="whole games per move measure, over the rounds")
    parser.add_argument("--rounds", type=int, default=5, help="every measure once per round, interleaved")
    parser.add_argument("--db", default=None, help="PostgreSQL URL: measure a worker's move too "
                        "(`serve --workers 1` with a Redis of its own)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args(argv)
    figures = measure(arguments)

    def ratio(top: str, bottom: str) -> float:
        return round(float(figures[top]["server_cpu_ms"]) / float(figures[bottom]["server_cpu_ms"]), 2)

    figures["transport_vs_asgi"] = ratio("move_transport", "asgi")
    figures["move_vs_asgi"] = ratio("move", "asgi")
    if "worker_move" in figures:
        figures["worker_vs_single"] = ratio("worker_move", "move")
    figures["load_average_1m"] = round(os.getloadavg()[0], 2)
    figures["cpus"] = os.cpu_count()
    if arguments.json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(f"{name:>14}: {value}")


if __name__ == "__main__":
    main()
