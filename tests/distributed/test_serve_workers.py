"""``ludotheque serve --workers N --redis … --db postgresql://…``: uvicorn's worker processes on one
port play games together and go on when one is killed (uvicorn starts another); several workers
without Redis, or on SQLite, are refused in one line (French or English), exit 1, no traceback."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import httpx
import pytest
import websockets
from typer.testing import CliRunner

from ludotheque.cli.main import app
from tests.distributed.parts import RedisServer
from tests.support import run_async
from tests.support.server import TEST_SETTINGS, free_port

REFUSED = {
    "no Redis": (["--workers", "2", "--db", "postgresql://u:p@127.0.0.1:1/db"],
                 "several workers (--workers 2) need --redis", "plusieurs processus (--workers 2)"),
    "SQLite": (["--workers", "2", "--redis", "redis://127.0.0.1:1/0", "--db", "sqlite:////tmp/x.db"],
               "several workers (--workers 2) need --redis", "plusieurs processus (--workers 2)"),
    "Redis on SQLite": (["--redis", "redis://127.0.0.1:1/0", "--db", "sqlite:////tmp/x.db"],
                        "not SQLite", "pas SQLite"),
}

# Starting the workers (each imports the whole server) takes over a minute on a loaded machine:
# no bound of this test is about speed.
STARTUP_S = 180.0


@pytest.mark.parametrize(("arguments", "english", "french"), list(REFUSED.values()), ids=list(REFUSED))
@pytest.mark.parametrize("lang", ["en", "fr"])
def test_several_workers_need_redis_and_postgresql(arguments: list[str], english: str, french: str,
                                                   lang: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()), *arguments],
                                env=language(lang))
    assert result.exit_code == 1, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("ludotheque serve: "), result.stderr
    assert (french if lang == "fr" else english) in lines[0], lines[0]
    assert "Traceback" not in result.output


def language(lang: str) -> dict[str, str | None]:
    locale = "fr_FR.UTF-8" if lang == "fr" else "en_GB.UTF-8"
    return {"LANGUAGE": None, "LC_ALL": None, "LANG": locale}


def test_unreachable_redis_is_one_line(postgres_db: str) -> None:
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()), "--db", postgres_db,
                                      "--redis", f"redis://127.0.0.1:{free_port()}/0", "--workers", "2"],
                                env=language("en"))
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith("ludotheque serve: cannot reach Redis at redis://127.0.0.1:")
    assert len(result.stderr.strip().splitlines()) == 1


def children(pid: int) -> list[int]:
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(child) for child in found]


def command_of(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def wait_ready(url: str, process: subprocess.Popen[bytes], timeout: float = STARTUP_S) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        assert process.poll() is None, "the server exited"
        try:
            with urllib.request.urlopen(url + "/api/catalog", timeout=2) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise AssertionError("the workers did not answer")


async def play_through(url: str, moves: int) -> list[str]:
    """Two players, each socket opened anew for every move (so both workers serve some)."""
    async with httpx.AsyncClient(base_url=url, timeout=10) as http:
        created = (await http.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]})).json()
        game, tokens = created["id"], [seat["token"] for seat in created["seats"]]
        for ply in range(moves):
            mover, other = tokens[ply % 2], tokens[(ply + 1) % 2]
            ws = url.replace("http", "ws", 1) + f"/api/games/{game}/ws?token="
            async with websockets.connect(ws + other) as watcher, websockets.connect(ws + mover) as socket:
                doc = json.loads(await socket.recv())
                assert json.loads(await watcher.recv())["ply"] == ply == doc["ply"]
                await socket.send(json.dumps({"type": "move", "move": doc["legal_moves"][0], "ply": ply}))
                async with asyncio.timeout(10):
                    while (seen := json.loads(await watcher.recv()))["ply"] != ply + 1:
                        pass
                assert seen["to_move"] == (ply + 1) % 2
        final: list[str] = (await http.get(f"/api/games/{game}")).json()["moves"]
        return final


def test_serve_workers_play_a_game(postgres_db: str, redis_server: RedisServer, tmp_path: Path) -> None:
    port = free_port()
    log = (tmp_path / "serve.log").open("wb")
    env = {**os.environ, **TEST_SETTINGS}
    process = subprocess.Popen(
        [sys.executable, "-m", "ludotheque", "serve", "--port", str(port), "--db", postgres_db,
         "--redis", redis_server.url, "--workers", "2"], stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_ready(url, process)
        workers = [pid for pid in children(process.pid) if "resource_tracker" not in command_of(pid)]
        assert len(workers) == 2, workers
        assert len(run_async(play_through(url, 8))) == 8
        # A worker killed: the other serves on; uvicorn starts a new one.
        os.kill(workers[0], signal.SIGKILL)
        assert len(run_async(play_through(url, 4))) == 4
        deadline = time.monotonic() + STARTUP_S
        while len([pid for pid in children(process.pid) if "resource_tracker" not in command_of(pid)
                   and pid not in workers]) < 1:
            assert time.monotonic() < deadline, "uvicorn did not start a new worker"
            time.sleep(0.2)
        assert len(run_async(play_through(url, 2))) == 2
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
    text = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in text, text
