"""Start the real server (uvicorn in a subprocess, on a free loopback port) and wait until it answers.

Usage::

    with ServerProcess("sqlite:////tmp/x.db") as server:
        httpx.get(server.url + "/api/catalog")

``kill()`` ends it abruptly (SIGKILL, as a crash would); ``start()`` again reuses the same port
and database, so a test can check that a restarted server resumes its games.

By default the server runs as ``python -m ludotheque.server``; ``launcher="uvicorn"`` starts it
the third documented way, ``uvicorn --factory ludotheque.server.app:app_from_env`` (with its
access log on), on a listening socket this process makes: ``send_buffer`` then sets the
kernel's send buffer of every connection (inherited from the listening socket), so that a
client that stops reading fills it after a few kilobytes, as a slow link would.
``env`` adds ``LUDOTHEQUE_*`` settings. Per-client limits on game creation are off unless
``env`` sets them: every game of a test session comes from one address, much faster than a
person would create them.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from types import TracebackType
from typing import IO, Literal

READY_PATH = "/api/catalog"
Launcher = Literal["module", "uvicorn"]
TEST_SETTINGS = {"LUDOTHEQUE_CREATE_LIMIT": "none", "LUDOTHEQUE_BOT_GAME_LIMIT": "none"}
# uvicorn's options that ``python -m ludotheque.server`` sets itself (see server/run.py).
UVICORN_OPTIONS = ["--ws-max-size", str(1024 * 1024)]


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as probe:
        probe.bind((host, 0))
        port: int = probe.getsockname()[1]
        return port


def free_ports(count: int, host: str = "127.0.0.1") -> list[int]:
    """``count`` different TCP ports nobody listens on right now (:func:`free_port` twice may
    give the same one: each probe is closed before the next binds)."""
    with contextlib.ExitStack() as stack:
        probes = [stack.enter_context(socket.socket()) for _ in range(count)]
        for probe in probes:
            probe.bind((host, 0))
        return [int(probe.getsockname()[1]) for probe in probes]


class ServerProcess:
    """The server on ``db_url``, in its own process."""

    def __init__(
        self,
        db_url: str,
        *,
        host: str = "127.0.0.1",
        port: int | None = None,
        launcher: Launcher = "module",
        env: Mapping[str, str] | None = None,
        send_buffer: int | None = None,
    ) -> None:
        self.db_url = db_url
        self.host = host
        self.port = port or free_port(host)
        self.launcher = launcher
        self.env = {**TEST_SETTINGS, **(env or {})}
        self.send_buffer = send_buffer
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
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env}
        with self._log.open("ab") as log:
            if self.launcher == "module":
                command = [sys.executable, "-m", "ludotheque.server", "--host", self.host]
                command += ["--port", str(self.port), "--db", self.db_url]
                self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env)
            else:
                self.process = self._start_uvicorn(log, {**env, "LUDOTHEQUE_DB": self.db_url})
        self._wait_ready(timeout)
        return self

    def _start_uvicorn(self, log: IO[bytes], env: dict[str, str]) -> subprocess.Popen[bytes]:
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if self.send_buffer is not None:
            listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, self.send_buffer)
        listener.bind((self.host, self.port))
        listener.listen(128)
        command = [sys.executable, "-m", "uvicorn", "--factory", "ludotheque.server.app:app_from_env"]
        command += ["--fd", str(listener.fileno()), *UVICORN_OPTIONS]
        for option, variable in (("--ws-ping-interval", "LUDOTHEQUE_WS_PING_INTERVAL"),
                                 ("--ws-ping-timeout", "LUDOTHEQUE_WS_PING_TIMEOUT"),
                                 ("--timeout-keep-alive", "LUDOTHEQUE_KEEP_ALIVE")):
            if variable in env:
                command += [option, env[variable]]
        try:
            return subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env,
                                    pass_fds=(listener.fileno(),))
        finally:
            listener.close()  # the server holds its own copy

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

    def log(self, tail: int | None = 5000) -> str:
        """The server's output so far (the last ``tail`` characters; ``None``: all of it)."""
        text = self._log.read_text("utf-8", errors="replace")
        return text if tail is None else text[-tail:]

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
