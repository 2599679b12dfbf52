"""Real parts of the several-workers tests: a Redis server on a free port, and N server workers
(separate ``python -m ludotheque.server`` processes on their own ports, one database, one Redis),
so that a test chooses which worker each client talks to.
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.support.server import ServerProcess, free_port


class RedisServer:
    """``redis-server --port <free> --daemonize yes --dir <folder>``, stopped by its pid."""

    def __init__(self, folder: Path, port: int | None = None) -> None:
        self.folder = folder
        self.port = port or free_port()
        self.pidfile = folder / "redis.pid"

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self, timeout: float = 10.0) -> RedisServer:
        subprocess.run(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--daemonize", "yes",
             "--dir", str(self.folder), "--pidfile", str(self.pidfile), "--save", "", "--appendonly", "no",
             "--logfile", str(self.folder / "redis.log")],
            check=True, timeout=timeout,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            ping = subprocess.run(["redis-cli", "-p", str(self.port), "ping"], capture_output=True, text=True)
            if ping.stdout.strip() == "PONG":
                return self
            time.sleep(0.05)
        raise RuntimeError(f"redis-server did not answer on port {self.port}")

    def pid(self) -> int | None:
        try:
            return int(self.pidfile.read_text().strip())
        except (OSError, ValueError):
            return None

    def stop(self, timeout: float = 10.0) -> None:
        """End the server (SIGKILL: nothing to save) and wait until its pid is gone."""
        pid = self.pid()
        if pid is None:
            return
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            return
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            try:
                os.kill(pid, 0)
            except ProcessLookupError:
                break
            time.sleep(0.05)
        self.pidfile.unlink(missing_ok=True)


def worker(db_url: str, redis_url: str, env: dict[str, str] | None = None) -> ServerProcess:
    """One server worker on its own port, sharing ``db_url`` and ``redis_url`` (not started)."""
    return ServerProcess(db_url, env={"LUDOTHEQUE_REDIS": redis_url, **(env or {})})


@contextmanager
def two_workers(db_url: str, redis_url: str, env: dict[str, str] | None = None
                ) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    """Two started workers of :func:`worker`, stopped on leaving."""
    first = worker(db_url, redis_url, env).start()
    try:
        second = worker(db_url, redis_url, env).start()
        try:
            yield first, second
        finally:
            second.stop()
    finally:
        first.stop()
