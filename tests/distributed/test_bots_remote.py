"""``--bots ray``: the server's bot moves are Ray tasks (a local Ray the server starts), played
like the process pool's; a ``--bots`` value that names no Ray is refused in one line."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from ludotheque.cli.main import app
from tests.support.server import ServerProcess, free_port

pytest.importorskip("ray")


def descendants(pid: int) -> list[str]:
    """The command names of every process under ``pid``."""
    names, todo = [], [pid]
    while todo:
        pgrep = subprocess.run(["pgrep", "-P", str(todo.pop())], capture_output=True, text=True)
        for child in pgrep.stdout.split():
            todo.append(int(child))
            names.append(Path(f"/proc/{child}/comm").read_text().strip() if Path(f"/proc/{child}").exists()
                         else "")
    return names


def test_bot_moves_run_on_ray(tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'bots.db'}", env={"LUDOTHEQUE_BOTS": "ray"}) as server, \
            httpx.Client(base_url=server.url, timeout=30) as http:
        created = http.post("/api/games", json={"game": "pylos", "seats": ["human", "bot:random"]}).json()
        token = created["seats"][0]["token"]
        moved = http.post(f"/api/games/{created['id']}/moves", json={"move": "1a1"},
                          headers={"Authorization": f"Bearer {token}"})
        assert moved.status_code == 200, moved.text
        # Ray starts with the server, then a fresh Ray worker imports the project: minutes when busy.
        deadline = time.monotonic() + 240
        while (doc := http.get(f"/api/games/{created['id']}").json())["ply"] < 2:
            assert time.monotonic() < deadline, "the bot never moved"
            time.sleep(0.2)
        assert doc["moves"][0] == "1a1" and doc["to_move"] == 0 and doc["legal_moves"] == []
        assert server.process is not None
        assert any("raylet" in name or "gcs_server" in name for name in descendants(server.process.pid))


def test_bots_option_names_ray() -> None:
    result = CliRunner().invoke(app, ["serve", "--port", str(free_port()), "--bots", "spark://x"],
                                env={"LANGUAGE": None, "LC_ALL": None, "LANG": "en_GB.UTF-8"})
    assert result.exit_code == 1
    assert result.stderr.strip() == ("ludotheque serve: --bots takes ray (a local Ray) or ray://HOST:PORT "
                                     "(a cluster), not spark://x")
