"""Several workers (``ludotheque serve --workers 2``, PostgreSQL and Redis): whichever worker
answers ``/metrics`` reports every worker's figures, told apart by the ``worker`` label
(prometheus-client's multiprocess mode, ``PROMETHEUS_MULTIPROC_DIR``); a worker that died
leaves the gauges, and its counters stay counted."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import httpx
import pytest
import uvicorn

from ludotheque.server import metrics
from tests.distributed.parts import RedisServer
from tests.distributed.test_serve_workers import STARTUP_S, children, command_of, wait_ready
from tests.support.server import TEST_SETTINGS, free_port

from .helpers import Samples, label_values, parse, total, wait_for


def scrape(url: str) -> Samples:
    answer = httpx.get(url + "/metrics", timeout=15)
    assert answer.status_code == 200, answer.text
    return parse(answer.text)


def workers_of(pid: int) -> set[int]:
    return {child for child in children(pid) if "resource_tracker" not in command_of(child)}


def test_every_worker_is_reported_by_whichever_answers(postgres_db: str, redis_server: RedisServer,
                                                       tmp_path: Path) -> None:
    port, folder = free_port(), tmp_path / "metrics"
    folder.mkdir()
    log = (tmp_path / "serve.log").open("wb")
    env = {**os.environ, **TEST_SETTINGS, metrics.MULTIPROC_ENV: str(folder)}
    process = subprocess.Popen(
        [sys.executable, "-m", "ludotheque", "serve", "--port", str(port), "--db", postgres_db,
         "--redis", redis_server.url, "--workers", "2"], stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        url = f"http://127.0.0.1:{port}"
        wait_ready(url, process)
        pids = workers_of(process.pid)
        assert len(pids) == 2, pids
        # Each worker writes its figures once started: a single scrape then names both.
        assert wait_for(lambda: label_values(scrape(url), "ludotheque_worker_start_time_seconds", "worker")
                        == {str(pid) for pid in pids}, timeout=30)
        before = scrape(url)
        for _ in range(20):  # a new connection each: both workers answer some
            assert httpx.get(url + "/api/catalog", timeout=15).status_code == 200
        after = scrape(url)
        route = {"route": "/api/catalog", "status": "200"}
        assert total(after, "ludotheque_http_requests_total", **route) - total(
            before, "ludotheque_http_requests_total", **route) == 20
        assert label_values(after, "ludotheque_http_requests_total", "worker") <= {str(pid) for pid in pids}
        assert label_values(after, "ludotheque_games_loaded", "worker") <= {str(pid) for pid in pids}
        assert label_values(after, "ludotheque_redis_subscribed", "worker") == {str(pid) for pid in pids}
        assert total(after, "ludotheque_redis_subscribed") == 2
        assert httpx.get(url + "/ready", timeout=15).json()["checks"]["redis"] == "ok"
        # A worker killed: uvicorn starts another; the dead one leaves the gauges, its requests
        # stay in the sums.
        dead = min(pids)
        os.kill(dead, signal.SIGKILL)
        deadline = time.monotonic() + STARTUP_S
        while not (workers_of(process.pid) - pids):
            assert time.monotonic() < deadline, "uvicorn did not start a new worker"
            time.sleep(0.2)
        new = workers_of(process.pid)
        assert wait_for(lambda: label_values(scrape(url), "ludotheque_worker_start_time_seconds", "worker")
                        == {str(pid) for pid in new}, timeout=STARTUP_S)
        final = scrape(url)
        assert total(final, "ludotheque_http_requests_total", **route) >= total(
            after, "ludotheque_http_requests_total", **route)
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()
    text = (tmp_path / "serve.log").read_text()
    assert "Traceback" not in text, text


def test_several_workers_share_their_figures_without_being_told(monkeypatch: pytest.MonkeyPatch) -> None:
    from ludotheque.server import run
    from ludotheque.server.config import ServerSettings

    for variable in (metrics.MULTIPROC_ENV, "LUDOTHEQUE_DB", "LUDOTHEQUE_REDIS", "LUDOTHEQUE_BOTS"):
        monkeypatch.setenv(variable, "")  # so that what serve_checked sets is undone after the test
        monkeypatch.delenv(variable)
    seen: dict[str, str | None] = {}

    def fake_run(*_: object, **__: object) -> None:
        seen["folder"] = os.environ.get(metrics.MULTIPROC_ENV)

    monkeypatch.setattr(uvicorn, "run", fake_run)
    settings = ServerSettings(redis="redis://127.0.0.1:1/0")
    url = "postgresql+psycopg://u:p@127.0.0.1:1/db"
    run.serve_checked("127.0.0.1", free_port(), url, settings, workers=2)
    assert seen["folder"] and Path(seen["folder"]).is_dir()
    shutil.rmtree(seen["folder"])
