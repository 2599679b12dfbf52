"""Server load: N live human-vs-human Pylos games over WebSockets, on loopback.

Each seat moves ``--think`` seconds after it receives the document that gives it the turn
(about N moves/s in all); a game that ends is replaced by a new one, so N games stay live. The
load client runs in its own process, the server (uvicorn, SQLite in WAL mode by default) in
another. Measured after ``--warmup`` seconds, for ``--duration`` seconds: moves/s and the
p50/p99 move round trip, from a move's POST to the WebSocket document that shows it to the
opponent (the mover's own socket gets it too, not counted).

``--workers N`` starts ``ludotheque serve --workers N`` (uvicorn's worker processes on one port,
so that each connection lands on any of them) on ``--db`` (PostgreSQL) and ``--redis`` (default:
a redis-server of its own on a free port), and reports what the database and Redis did meanwhile:
game-table commits/s and publishes/s.

    python benchmarks/load_server.py                      # 200 games, 10 s warm-up, 60 s measured
    python benchmarks/load_server.py --games 50 --duration 10 --warmup 3 --json
    python benchmarks/load_server.py --games 600 --workers 2 --db postgresql://u:p@127.0.0.1/db
    python benchmarks/load_server.py --games 100,200,300,400   # moves/s at p99 < 100 ms

``--behind-nginx game`` (with ``--workers N``) starts instead N ``serve`` processes on their own
ports behind nginx, with deploy/nginx.conf's upstream (each game on one process); ``any``
removes its hash line (each request to any process), for comparison.

    python benchmarks/load_server.py --games 100 --workers 2 --behind-nginx game --db postgresql://…

``--src FOLDER`` runs the server from another source folder (a worktree of an earlier commit),
so that the same client measures two servers; ``--burners N`` runs N CPU-burning processes at
normal priority beside the server during the run (the "other work" of a shared machine), the
same for every server compared (docs/distributed.md, per-move latency).

    python benchmarks/load_server.py --games 100 --burners 2 --src /tmp/old-server/src --json

``--parts`` measures instead what the shared parts take alone, for the capacity plan: moves
stored per second in PostgreSQL through the workers' own locked change (``--threads`` at once,
as N workers' database threads would), and Redis publishes per second of the workers' messages
with ``--subscribers`` workers listening.

    python benchmarks/load_server.py --parts --db postgresql://u:p@127.0.0.1/db --threads 16
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import secrets
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from ludotheque.bench import percentile

ROOT = Path(__file__).resolve().parents[1]
# The load client creates every game from one address, far faster than a person: the server it
# starts lifts the per-client creation limits (a server given by --url needs the same settings).
# --parts: publishes in flight at once.
PUBLISHERS = 32
UNLIMITED = {"LUDOTHEQUE_CREATE_LIMIT": "none", "LUDOTHEQUE_BOT_GAME_LIMIT": "none"}
# --behind-nginx: nginx in front of the processes, over plain HTTP ({blocks}: deploy/nginx.conf's
# upstream and maps).
NGINX_FRONT = """{user}daemon off;
worker_processes 2;
pid {folder}/nginx.pid;
error_log {folder}/error.log;
events {{ worker_connections 20000; }}
http {{
    access_log off;
{temp}{blocks}
    server {{
        listen 127.0.0.1:{port};
        location / {{
            proxy_pass http://ludotheque;
            proxy_http_version 1.1;
            proxy_set_header Host $http_host;
            proxy_set_header Upgrade $http_upgrade;
            proxy_set_header Connection $ludotheque_connection;
            proxy_read_timeout 3600s;
            proxy_buffering off;
        }}
    }}
}}
"""


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


async def play_seat(plan: LoadPlan, game_id: str, seat: int, token: str, tally: Tally,
                    posted_at: dict[int, tuple[float, int]]) -> None:
    """One person: wait for the turn, think, POST a random legal move; time each of the
    opponent's moves from its POST (``posted_at``: ply -> time, seat, shared by the game's
    seats) to the document on this seat's socket."""
    import websockets

    rng = random.Random(f"{plan.seed}-{game_id}-{seat}")
    ws_url = plan.url.replace("http", "ws", 1) + f"/api/games/{game_id}/ws?token={token}"
    http = HttpConnection(plan.url)
    try:
        async with websockets.connect(ws_url, max_size=2**22, compression=None) as socket:
            async for raw in socket:
                arrived = time.perf_counter()
                doc = json.loads(raw)
                if "id" not in doc:
                    tally.errors += 1
                    continue
                posted = posted_at.get(doc["ply"])
                if posted is not None and posted[1] != seat:
                    tally.record(posted_at.pop(doc["ply"])[0], arrived)
                if doc["status"] == "over":
                    return
                if doc["to_move"] == seat and doc["legal_moves"]:
                    await asyncio.sleep(plan.think)
                    posted_at[doc["ply"] + 1] = (time.perf_counter(), seat)
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
            posted: dict[int, tuple[float, int]] = {}
            await asyncio.gather(*(play_seat(plan, created["id"], s, t, tally, posted) for s, t in seats))
            tally.finished_games += 1
        except Exception:  # a refused creation or a dropped socket
            tally.errors += 1  # counted, and the game slot goes on with a new game


async def load(plan: LoadPlan) -> dict[str, Any]:
    """What one client saw: the round trips timed in the window, errors, finished games."""
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
    return {"latencies": tally.latencies, "errors": tally.errors, "finished_games": tally.finished_games}


def summary(plan: LoadPlan, seen: list[dict[str, Any]]) -> dict[str, Any]:
    """The figures of a run from what each of its clients saw."""
    latencies = sorted(latency for one in seen for latency in one["latencies"])
    return {
        "games": plan.games,
        "clients": len(seen),
        "warmup_s": plan.warmup,
        "duration_s": plan.duration,
        "think_s": plan.think,
        "moves": len(latencies),
        "moves_per_s": round(len(latencies) / plan.duration, 1),
        "p50_ms": round(percentile(latencies, 0.50) * 1000, 2),
        "p99_ms": round(percentile(latencies, 0.99) * 1000, 2),
        "max_ms": round(max(latencies, default=0.0) * 1000, 2),
        "errors": sum(one["errors"] for one in seen),
        "finished_games": sum(one["finished_games"] for one in seen),
    }


def client_process(plan: LoadPlan, results: Any) -> None:
    """A load client's own process: one event loop driving its share of the simulated people."""
    # The client is the stopwatch: its own garbage-collector pauses must not pass for latency.
    gc.freeze()
    gc.set_threshold(50_000, 20, 100)
    results.put("started")
    results.put(asyncio.run(load(plan)))


def shares(games: int, clients: int) -> list[int]:
    """``games`` split as evenly as can be among ``clients`` (none left empty)."""
    clients = max(1, min(clients, games))
    return [games // clients + (1 if index < games % clients else 0) for index in range(clients)]


def run_load(plan: LoadPlan, server_pid: int | list[int] | None = None, clients: int = 1) -> dict[str, Any]:
    """The figures of one load run, driven by ``clients`` client processes (one event loop
    each: one alone cannot load many cores of server); with ``server_pid``, the processor time
    per move that the server (and its children) and the load clients used inside the window."""
    context = multiprocessing.get_context("spawn")
    results = [context.Queue() for _ in shares(plan.games, clients)]
    processes = [
        context.Process(target=client_process, args=(replace(plan, games=share), queue))
        for share, queue in zip(shares(plan.games, clients), results, strict=True)
    ]
    for process in processes:
        process.start()
    for queue in results:
        assert queue.get(timeout=120) == "started"
    time.sleep(plan.warmup)
    client_pids = [process.pid or 0 for process in processes]
    before_clients = sum(tree_cpu_seconds(pid) for pid in client_pids)
    server_pids = [server_pid] if isinstance(server_pid, int) else list(server_pid or [])
    before_server = sum(tree_cpu_seconds(pid) for pid in server_pids)
    time.sleep(plan.duration)
    client_seconds = sum(tree_cpu_seconds(pid) for pid in client_pids) - before_clients
    server_seconds = sum(tree_cpu_seconds(pid) for pid in server_pids) - before_server
    seen = [queue.get(timeout=plan.duration + plan.think + 120) for queue in results]
    for process in processes:
        process.join()
    figures = summary(plan, seen)
    # Moves played in the window, about as many as those timed (each seat moves once per think).
    played = max(1, figures["moves"])
    figures["client_cpu_ms_per_move"] = round(client_seconds * 1000 / played, 3)
    if server_pid:
        figures["server_cpu_ms_per_move"] = round(server_seconds * 1000 / played, 3)
    return figures


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", default="200", help="live games (two players each); several, "
                        "comma-separated (200,400,600): one run each on a fresh server, then the most "
                        "moves/s whose p99 stays under --target-p99")
    parser.add_argument("--target-p99", type=float, default=100.0, help="ms, for several --games")
    parser.add_argument("--duration", type=float, default=60.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=10.0, help="seconds before measuring")
    parser.add_argument("--think", type=float, default=1.0, help="seconds a seat waits before moving")
    parser.add_argument("--db", default=None, help="database URL (default: a new SQLite file, WAL)")
    parser.add_argument("--url", default=None, help="load a running server instead of starting one "
                        "(started with LUDOTHEQUE_CREATE_LIMIT=none)")
    parser.add_argument("--workers", type=int, default=0, help="start `ludotheque serve --workers N` "
                        "(PostgreSQL --db and Redis) instead of the single process")
    parser.add_argument("--behind-nginx", choices=("game", "any"), default=None,
                        help="with --workers N: N `serve` processes on their own ports behind nginx "
                        "(deploy/nginx.conf's upstream), each game on one process (game) or each "
                        "request on any (any: the upstream's hash line removed)")
    parser.add_argument("--redis", default=None, help="Redis of the workers (default: a redis-server "
                        "of its own on a free port)")
    parser.add_argument("--parts", action="store_true", help="measure PostgreSQL and Redis alone "
                        "(stored moves/s, publishes/s) instead of a server")
    parser.add_argument("--threads", type=int, default=8, help="--parts: changes stored at once")
    parser.add_argument("--subscribers", type=int, default=4, help="--parts: workers listening on Redis")
    parser.add_argument("--src", default=None, help="start the server from this source folder (its "
                        "PYTHONPATH), e.g. a worktree of an earlier commit, to compare servers")
    parser.add_argument("--burners", type=int, default=0, help="contention: this many CPU-burning "
                        "processes (normal priority) run beside the server while it is loaded")
    parser.add_argument("--clients", type=int, default=1, help="load client processes sharing the "
                        "games (one drives some 1,000 moves/s; more for many workers)")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    arguments = parser.parse_args(argv)
    sys.path.insert(0, str(ROOT))

    def plan_for(games: int) -> LoadPlan:
        return LoadPlan(
            arguments.url or "", games, arguments.warmup, arguments.duration, arguments.think, arguments.seed
        )

    if arguments.parts:
        if not arguments.db or not arguments.db.startswith("postgres"):
            parser.error("--parts needs --db postgresql://...")
        with own_redis(arguments.redis) as redis_url:
            figures = {
                **stored_moves(arguments.db, arguments.threads, arguments.duration),
                **asyncio.run(publishes(redis_url, arguments.subscribers, arguments.duration)),
            }
        show(figures, arguments.json)
        return
    if arguments.workers and (not arguments.db or not arguments.db.startswith("postgres")):
        parser.error("--workers needs --db postgresql://...")
    runs = []
    for games in game_counts(parser, arguments.games):
        figures = one_run(arguments, plan_for(games))
        figures["load_average_1m"] = round(os.getloadavg()[0], 2)
        if arguments.burners:
            figures["burners"] = arguments.burners
        if arguments.src:
            figures["src"] = arguments.src
        figures["cpus"] = os.cpu_count()
        runs.append(figures)
        show(figures, arguments.json)
    if len(runs) > 1:
        show(capacity(runs, arguments.target_p99), arguments.json)


def game_counts(parser: argparse.ArgumentParser, text: str) -> list[int]:
    try:
        counts = [int(part) for part in text.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1:
        parser.error(f"--games: whole numbers of games, comma-separated (not {text!r})")
    return counts


def one_run(arguments: argparse.Namespace, plan: LoadPlan) -> dict[str, Any]:
    """One load run on a server of its own (or on ``--url``)."""
    from tests.support.server import ServerProcess

    if arguments.url:
        return run_load(plan, clients=arguments.clients)
    if arguments.workers:
        serving = behind_nginx(arguments.behind_nginx) if arguments.behind_nginx else workers
        with own_redis(arguments.redis) as redis_url, \
                serving(arguments.db, redis_url, arguments.workers) as (url, pid):
            before = shared_counters(arguments.db, redis_url)
            figures = run_load(replace(plan, url=url), pid, arguments.clients)
            after = shared_counters(arguments.db, redis_url)
        seconds = plan.warmup + plan.duration + plan.think + 1
        figures.update(workers=arguments.workers, database="postgresql")
        if arguments.behind_nginx:
            figures["behind_nginx"] = arguments.behind_nginx
        figures.update({name: round((after[name] - before[name]) / seconds, 1) for name in before})
        return figures
    with tempfile.TemporaryDirectory() as folder:
        db = arguments.db or f"sqlite:///{Path(folder) / 'load.db'}"
        env = {**UNLIMITED, "PYTHONPATH": arguments.src} if arguments.src else UNLIMITED
        with ServerProcess(db, env=env) as server, burning(arguments.burners):
            assert server.process is not None
            figures = run_load(replace(plan, url=server.url), server.process.pid, arguments.clients)
        figures["database"] = db.split(":", 1)[0]
        return figures


def capacity(runs: list[dict[str, Any]], target_p99_ms: float) -> dict[str, Any]:
    """The most moves/s among the runs whose p99 round trip stayed under the target."""
    within = [run for run in runs if run["p99_ms"] < target_p99_ms and not run["errors"]]
    best = max(within, key=lambda run: run["moves_per_s"], default=None)
    return {"target_p99_ms": target_p99_ms,
            "moves_per_s_within_target": best["moves_per_s"] if best else None,
            "games_within_target": best["games"] if best else None,
            "runs": [(run["games"], run["moves_per_s"], run["p99_ms"]) for run in runs]}


def show(figures: dict[str, Any], as_json: bool) -> None:
    if as_json:
        print(json.dumps(figures), flush=True)
        return
    for name, value in figures.items():
        print(f"{name:>24}: {value}")
    print(flush=True)


@contextmanager
def burning(count: int) -> Iterator[None]:
    """``count`` processes that burn CPU at normal priority meanwhile: the "other work" that
    loads a shared machine, the same for every server compared (each stopped by its pid)."""
    burners = [subprocess.Popen([sys.executable, "-c", "while True: pass"]) for _ in range(count)]
    try:
        yield
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()


@contextmanager
def own_redis(url: str | None) -> Iterator[str]:
    """``url``, or a redis-server of this run on a free port (stopped by its pid at the end)."""
    if url:
        yield url
        return
    from tests.support.server import free_port

    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        pidfile = Path(folder) / "redis.pid"
        subprocess.run(["redis-server", "--port", str(port), "--bind", "127.0.0.1", "--daemonize", "yes",
                        "--dir", folder, "--pidfile", str(pidfile), "--save", "", "--appendonly", "no"],
                       check=True)
        try:
            for _ in range(100):
                if pidfile.exists():
                    break
                time.sleep(0.05)
            yield f"redis://127.0.0.1:{port}/0"
        finally:
            if pidfile.exists():
                os.kill(int(pidfile.read_text().strip()), signal.SIGKILL)


@contextmanager
def workers(db: str, redis_url: str, count: int) -> Iterator[tuple[str, int]]:
    """``ludotheque serve --workers count`` on a free port; yields its URL and pid once it answers."""
    from tests.support.server import free_port

    port = free_port()
    command = [sys.executable, "-m", "ludotheque", "serve", "--port", str(port), "--db", db,
               "--redis", redis_url, "--workers", str(count)]
    # A session of its own: workers still busy after the timeout are killed with their parent.
    process = subprocess.Popen(command, env={**os.environ, **UNLIMITED}, stdout=subprocess.DEVNULL,
                               start_new_session=True)
    url = f"http://127.0.0.1:{port}"
    try:
        answering(url, process)
        time.sleep(2.0)  # every worker has started (the first to answer may be alone)
        yield url, process.pid
    finally:
        stop_servers([process])


def behind_nginx(balance: str) -> Callable[[str, str, int], Any]:
    """:func:`workers`' stand-in for ``--behind-nginx``: ``count`` ``serve`` processes on their
    own ports (same database and Redis) behind nginx over plain HTTP, with deploy/nginx.conf's
    own upstream and maps (``balance`` "any": without its hash line); yields nginx's URL and the
    processes' pids (nginx's own processor time is not counted)."""

    @contextmanager
    def serving(db: str, redis_url: str, count: int) -> Iterator[tuple[str, list[int]]]:
        from tests.support.server import free_ports

        front, *ports = free_ports(count + 1)
        processes = [
            subprocess.Popen([sys.executable, "-m", "ludotheque", "serve", "--port", str(port), "--db", db,
                              "--redis", redis_url], env={**os.environ, **UNLIMITED},
                             stdout=subprocess.DEVNULL, start_new_session=True)
            for port in ports
        ]
        try:
            for port, process in zip(ports, processes, strict=True):
                answering(f"http://127.0.0.1:{port}", process)
            with nginx_front(front, ports, balance):
                yield f"http://127.0.0.1:{front}", [process.pid for process in processes]
        finally:
            stop_servers(processes)

    return serving


def stop_servers(processes: list[subprocess.Popen[bytes]]) -> None:
    """SIGTERM to every server at once (a graceful stop), then SIGKILL to the session of any
    still running after 30 s (its workers with it: each server is started in a session of its own)."""
    for process in processes:
        process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


def answering(url: str, process: subprocess.Popen[bytes]) -> None:
    """Wait until the server of ``process`` answers at ``url`` (a minute at most)."""
    for _ in range(600):
        if process.poll() is not None:
            raise SystemExit(f"the server at {url} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url + "/api/catalog", timeout=2):
                return
        except OSError:
            time.sleep(0.1)
    raise SystemExit(f"{url} did not answer")


@contextmanager
def nginx_front(port: int, ports: list[int], balance: str) -> Iterator[None]:
    """nginx on ``port`` (plain HTTP) in front of ``ports``, with deploy/nginx.conf's upstream and
    maps as they are written there."""
    import re
    import shutil

    text = (ROOT / "deploy" / "nginx.conf").read_text("utf-8")
    blocks = [re.search(pattern, text, re.S).group(0)  # type: ignore[union-attr]
              for pattern in (r"upstream ludotheque \{.*?\n\}", r"map \$http_upgrade .*?\n\}",
                              r"map \$uri \$ludotheque_game .*?\n\}")]
    servers = "\n    ".join(f"server 127.0.0.1:{backend};" for backend in ports)
    blocks[0] = blocks[0].replace("server 127.0.0.1:8000;", servers)
    if balance == "any":
        blocks[0] = re.sub(r"\n *hash [^;]*;", "", blocks[0])
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    with tempfile.TemporaryDirectory() as folder:
        temp = "".join(f"    {kind}_temp_path {folder}/{kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        user = "user root;\n" if os.geteuid() == 0 else ""
        config = Path(folder) / "nginx.conf"
        config.write_text(NGINX_FRONT.format(user=user, folder=folder, temp=temp, blocks="\n".join(blocks),
                                             port=port), "utf-8")
        process = subprocess.Popen([binary, "-p", folder, "-e", f"{folder}/error.log", "-c", str(config)],
                                   stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        try:
            answering(f"http://127.0.0.1:{port}", process)
            yield
        finally:
            process.send_signal(signal.SIGQUIT)
            process.wait(30)


def stored_moves(db: str, threads: int, seconds: float) -> dict[str, Any]:
    """Moves stored per second by ``threads`` threads, each playing its own Pylos games move by
    move through ``Storage.change_locked`` (row lock, version check, one commit per move)."""
    import threading

    from ludotheque.core.registry import load as load_game
    from ludotheque.server.clocks import Instant
    from ludotheque.server.snapshots import GameMeta, Seat, begin, new_snapshot, play
    from ludotheque.server.storage import Storage

    storage = Storage(db)
    storage.migrate()
    game = load_game("pylos")
    counts = [0] * threads
    stop = time.monotonic() + seconds

    def player(number: int) -> None:
        rng = random.Random(number)
        while time.monotonic() < stop:
            seats = (Seat("human", "a", token_hash="x"), Seat("human", "b", token_hash="y"))
            game_id = f"parts-{number}-{secrets.token_hex(6)}"
            meta = GameMeta(game_id, game, number, "2026-11-24T00:00:00+00:00")
            snap = begin(new_snapshot(game, number, seats, None), Instant.now())
            storage.insert(meta, snap)
            version = 0
            while snap.status == "playing" and time.monotonic() < stop:
                move = str(rng.choice(snap.state.legal_moves()))
                seat = snap.seat_to_move()
                assert seat is not None

                def operation(current: Any, now: Any, seat: int = seat, move: str = move) -> Any:
                    return play(current, seat, move, current.ply, now)

                _, snap, version = storage.change_locked(meta.id, version, snap, operation)
                counts[number] += 1

    workers = [threading.Thread(target=player, args=(n,)) for n in range(threads)]
    for thread in workers:
        thread.start()
    for thread in workers:
        thread.join()
    storage.close()
    return {"threads": threads, "stored_moves_per_s": round(sum(counts) / seconds, 1)}


async def publishes(url: str, subscribers: int, seconds: float) -> dict[str, Any]:
    """Publishes per second of the workers' game messages (``PUBLISHERS`` at once, as many
    changes of one worker would), and the messages delivered to ``subscribers`` listeners (in
    this process too: a worker's own cost of reading them is counted)."""
    from redis.asyncio import Redis

    from ludotheque.server.bus import CHANNEL, encode_message

    received = [0] * subscribers

    async def listen(number: int, ready: asyncio.Event) -> None:
        client = Redis.from_url(url)
        pubsub = client.pubsub(ignore_subscribe_messages=True)
        await pubsub.subscribe(CHANNEL)
        ready.set()
        async for message in pubsub.listen():
            if message.get("type") == "message":
                received[number] += 1

    readies = [asyncio.Event() for _ in range(subscribers)]
    listeners = [asyncio.create_task(listen(n, readies[n])) for n in range(subscribers)]
    for ready in readies:
        await ready.wait()
    publisher = Redis.from_url(url, max_connections=PUBLISHERS)
    counts, stop = [0] * PUBLISHERS, time.monotonic() + seconds

    async def publish(number: int) -> None:
        while time.monotonic() < stop:
            message = {"kind": "game", "game": f"g{number}", "v": counts[number]}
            await publisher.publish(CHANNEL, encode_message(message, "bench"))
            counts[number] += 1

    await asyncio.gather(*(publish(n) for n in range(PUBLISHERS)))
    published = sum(counts)
    await asyncio.sleep(0.5)
    for task in listeners:
        task.cancel()
    await publisher.aclose()
    return {"subscribers": subscribers, "redis_publishes_per_s": round(published / seconds, 1),
            "redis_deliveries_per_s": round(sum(received) / seconds, 1)}


def tree_cpu_seconds(pid: int) -> float:
    """CPU seconds (user and system) used so far by ``pid`` and every process under it."""
    total, todo = 0.0, [pid]
    while todo:
        current = todo.pop()
        try:
            fields = Path(f"/proc/{current}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
            children = Path(f"/proc/{current}/task/{current}/children").read_text().split()
        except OSError:
            continue
        todo.extend(int(child) for child in children)
    return total


def shared_counters(db: str, redis_url: str) -> dict[str, float]:
    """What PostgreSQL and Redis did so far: commits of the database and publishes. PostgreSQL
    (15 and later) flushes a backend's counters lazily, skipping a shared entry that other
    backends hold and trying again within a minute: with each worker's move connection held
    and busy, the games table's update count read 0 over a measured window while moves were
    stored, so it is not reported; the commits are counted late the same way (a lower bound)."""
    import redis
    from sqlalchemy import create_engine, text

    from ludotheque.server.config import database_url

    engine = create_engine(database_url(db))
    with engine.connect() as connection:
        commits = connection.execute(text(
            "SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")).scalar()
    engine.dispose()
    client = redis.Redis.from_url(redis_url)
    stats = client.info("commandstats").get("cmdstat_publish", {})
    client.close()
    return {"db_commits_per_s": float(commits or 0), "redis_publishes_per_s": float(stats.get("calls", 0))}


if __name__ == "__main__":
    main()
