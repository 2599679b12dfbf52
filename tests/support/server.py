"""Start the real server (uvicorn in a subprocess, on a free loopback port) and wait until it answers.

Usage::

    with ServerProcess("sqlite:////tmp/x.db") as server:
        httpx.get(server.url + "/api/catalog")

``kill()`` ends it abruptly (SIGKILL, as a crash would); ``start()`` again reuses the same port
and database, so a test can check that a restarted server resumes its games.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from types import TracebackType

READY_PATH = "/api/catalog"


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


class ServerProcess:
    """``python -m ludotheque.server`` on ``db_url``, in its own process."""

    def __init__(self, db_url: str, *, host: str = "127.0.0.1", port: int | None = None) -> None:
        self.db_url = db_url
        self.host = host
        self.port = port or free_port(host)
        self.process: subprocess.Popen[bytes] | None = None
        self._log = Path(tempfile.mkstemp(prefix="ludotheque-server-", suffix=".log")[1])

    @property
    def url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def ws_url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def start(self, timeout: float = 60.0) -> ServerProcess:
        """Start the server and return once it answers ``GET /api/catalog``."""
        command = [sys.executable, "-m", "ludotheque.server", "--host", self.host]
        command += ["--port", str(self.port), "--db", self.db_url]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        with self._log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
        self._wait_ready(timeout)
        return self

    def _wait_ready(self, timeout: float) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            assert self.process is not None
            if self.process.poll() is not None:
                raise RuntimeError(f"the server exited with {self.process.returncode}:\n{self.log()}")
            try:
                with urllib.request.urlopen(self.url + READY_PATH, timeout=2) as answer:
                    if answer.status == 200:
                        return
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        self.kill()
        raise RuntimeError(f"the server did not answer within {timeout} s:\n{self.log()}")

    def log(self) -> str:
        """The server's output so far (for failure messages)."""
        return self._log.read_text("utf-8", errors="replace")[-5000:]

    def kill(self) -> None:
        """End the server at once, as a crash would (no shutdown handlers run)."""
        if self.process and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(10)

    def stop(self) -> None:
        """End the server cleanly (SIGTERM), or kill it if it does not stop."""
        if self.process and self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(15)
            except subprocess.TimeoutExpired:
                self.kill()

    def __enter__(self) -> ServerProcess:
        return self.start()

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()
        if kind is None:  # keep the log only when something went wrong
            self._log.unlink(missing_ok=True)
