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

    python benchmarks/server_floor.py                 # 3,000 requests each, 20 games
    python benchmarks/server_floor.py --requests 500 --games 5 --json
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
from collections.abc import Iterator
from contextlib import contextmanager
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


def per_request_ms(pid: int, port: int, path: str, count: int) -> dict[str, float]:
    asyncio.run(get_many(port, path, 50))  # warm: first calls import and compile
    cpu, wall = tree_cpu_seconds(pid), time.perf_counter()
    asyncio.run(get_many(port, path, count))
    return {"server_cpu_ms": round((tree_cpu_seconds(pid) - cpu) * 1000 / count, 3),
            "wall_ms": round((time.perf_counter() - wall) * 1000 / count, 3)}


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


def move_transport_ms(count: int) -> dict[str, float]:
    with bare_server(BARE_MOVE_APP) as (port, pid):
        asyncio.run(bare_moves(port, 50))  # warm
        cpu, wall = tree_cpu_seconds(pid), time.perf_counter()
        asyncio.run(bare_moves(port, count))
        return {"server_cpu_ms": round((tree_cpu_seconds(pid) - cpu) * 1000 / count, 3),
                "wall_ms": round((time.perf_counter() - wall) * 1000 / count, 3)}


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


def per_move_ms(games: int, seed: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder, \
            ServerProcess(f"sqlite:///{Path(folder) / 'floor.db'}", env=UNLIMITED) as server:
        assert server.process is not None
        return moves_of(server.url, server.process.pid, games, seed)


def moves_of(url: str, pid: int, games: int, seed: int) -> dict[str, float]:
    """Processor time of ``pid`` (and its children) per move over ``games`` whole games."""
    asyncio.run(play_games(url, 1, seed))  # warm
    cpu, wall = tree_cpu_seconds(pid), time.perf_counter()
    moves = asyncio.run(play_games(url, games, seed + 1))
    return {"moves": moves, "server_cpu_ms": round((tree_cpu_seconds(pid) - cpu) * 1000 / moves, 3),
            "wall_ms": round((time.perf_counter() - wall) * 1000 / moves, 3)}


def worker_move_ms(db: str, games: int, seed: int) -> dict[str, float]:
    """A move's cost on one worker of the shared mode (``serve --workers 1``, PostgreSQL, Redis)."""
    with own_redis(None) as redis_url, workers(db, redis_url, 1) as (url, pid):
        return moves_of(url, pid, games, seed)


def game_document_ms(count: int) -> dict[str, float]:
    with tempfile.TemporaryDirectory() as folder, \
            ServerProcess(f"sqlite:///{Path(folder) / 'floor.db'}", env=UNLIMITED) as server:
        assert server.process is not None
        with urllib.request.urlopen(urllib.request.Request(
                server.url + "/api/games", data=b'{"game": "pylos", "seats": ["human", "human"]}',
                headers={"Content-Type": "application/json"})) as answer:
            game_id = json.load(answer)["id"]
        return per_request_ms(server.process.pid, server.port, f"/api/games/{game_id}", count)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--requests", type=int, default=3000, help="requests per measure")
    parser.add_argument("--games", type=int, default=20, help="whole games for the per-move measure")
    parser.add_argument("--db", default=None, help="PostgreSQL URL: measure a worker's move too "
                        "(`serve --workers 1` with a Redis of its own)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args(argv)
    figures: dict[str, Any] = {}
    for name, source in BARE_APPS.items():
        with bare_server(source) as (port, pid):
            figures[name] = per_request_ms(pid, port, "/api/games/x", arguments.requests)
    figures["move_transport"] = move_transport_ms(arguments.requests)
    figures["transport_vs_asgi"] = round(
        figures["move_transport"]["server_cpu_ms"] / figures["asgi"]["server_cpu_ms"], 2)
    figures["game_document"] = game_document_ms(arguments.requests)
    figures["move"] = per_move_ms(arguments.games, arguments.seed)
    figures["move_vs_asgi"] = round(figures["move"]["server_cpu_ms"] / figures["asgi"]["server_cpu_ms"], 2)
    if arguments.db:
        figures["worker_move"] = worker_move_ms(arguments.db, arguments.games, arguments.seed)
        figures["worker_vs_single"] = round(
            figures["worker_move"]["server_cpu_ms"] / figures["move"]["server_cpu_ms"], 2)
    figures["load_average_1m"] = round(os.getloadavg()[0], 2)
    figures["cpus"] = os.cpu_count()
    if arguments.json:
        print(json.dumps(figures))
        return
    for name, value in figures.items():
        print(f"{name:>14}: {value}")


if __name__ == "__main__":
    main()
