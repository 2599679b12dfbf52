"""Real parts of a production setup, started by the deploy tests and stopped by their pids:
``ludotheque serve --config FILE`` in its own process, Debian's nginx running deploy/nginx.conf
(its ports, certificate and addresses replaced) as a foreground process, and a self-signed
certificate made by Debian's openssl.

Loopback addresses tell the parts apart: the server and nginx listen on 127.0.0.1; nginx talks
to the server from 127.0.0.2 (``proxy_bind``), the only address the server believes
``X-Forwarded-*`` from; test clients connect from 127.0.0.1 (straight to the server: an untrusted
client) or from addresses of their own (127.0.0.3, …) through nginx, so that the server's idea of
the client's address can be told from the proxy's.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import ssl
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

import pytest

from tests.support.server import free_port, free_ports

ROOT = Path(__file__).resolve().parents[2]
NGINX_CONF = ROOT / "deploy" / "nginx.conf"
PROXY_ADDRESS = "127.0.0.2"  # nginx -> server
START_S = 60.0


def nginx_binary() -> str:
    """Debian's nginx (``/usr/sbin`` is not on every user's PATH); skips the test without it."""
    found = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if found is None:
        pytest.skip("nginx is not installed (Debian: apt-get install nginx; scripts/test.sh does)")
    return found


def check_loopback_addresses(*addresses: str) -> None:
    """Skip where the loopback network is only 127.0.0.1 (Linux routes all of 127.0.0.0/8 to it)."""
    for address in addresses:
        with socket.socket() as probe:
            try:
                probe.bind((address, 0))
            except OSError as error:
                pytest.skip(f"cannot use the loopback address {address}: {error}")


def self_signed_certificate(folder: Path) -> tuple[Path, Path]:
    """A certificate for 127.0.0.1 (and localhost), valid a day, and its key: Debian's openssl."""
    openssl = shutil.which("openssl")
    if openssl is None:
        pytest.skip("openssl is not installed (Debian: apt-get install openssl)")
    certificate, key = folder / "cert.pem", folder / "key.pem"
    subprocess.run(
        [openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
         "-keyout", str(key), "-out", str(certificate), "-days", "1", "-subj", "/CN=127.0.0.1",
         "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"],
        check=True, capture_output=True, timeout=30,
    )
    return certificate, key


def client_tls(certificate: Path) -> ssl.SSLContext:
    """A client's TLS context that trusts the self-signed certificate only, and checks the name."""
    context = ssl.create_default_context(cafile=str(certificate))
    assert context.check_hostname and context.verify_mode == ssl.CERT_REQUIRED
    return context


def websocket_tls(certificate: Path) -> ssl.SSLContext:
    """:func:`client_tls` for the tests' WebSocket client, at most TLS 1.2. The client
    (``websockets.sync``) reads its socket in a thread from the moment it is connected, while
    the handshake request is written from the caller's: in TLS 1.3 the server's session tickets
    arrive right after the TLS handshake, so one ``SSL`` object was read and written at once
    from two threads, and about one handshake request in a hundred never left (nginx: "client
    timed out while waiting for request"; 4 in 510 tries, none in 300 at TLS 1.2). In TLS 1.2
    nothing comes before the answer to the request. Browsers (the server's real clients) are
    not concerned."""
    context = client_tls(certificate)
    context.maximum_version = ssl.TLSVersion.TLSv1_2
    return context


def wait_listening(port: int, process: subprocess.Popen[bytes], what: str, log: Path) -> None:
    deadline = time.monotonic() + START_S
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{what} exited with {process.returncode}:\n{log.read_text(errors='replace')}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{what} does not listen on {port}:\n{log.read_text(errors='replace')}")


def stop(process: subprocess.Popen[bytes] | None, sig: int = signal.SIGTERM, timeout: float = 15.0) -> None:
    """Stop ``process`` by its pid (``sig``, then SIGKILL if it does not end)."""
    if process is None or process.poll() is not None:
        return
    os.kill(process.pid, sig)
    try:
        process.wait(timeout)
    except subprocess.TimeoutExpired:
        os.kill(process.pid, signal.SIGKILL)
        process.wait(10)


def clean_environment(**extra: str) -> dict[str, str]:
    """This process's environment without LUDOTHEQUE_* settings (a developer's shell may hold
    some), plus ``extra``."""
    env = {name: value for name, value in os.environ.items() if not name.startswith("LUDOTHEQUE_")}
    return {**env, "PYTHONUNBUFFERED": "1", **extra}


class Serve:
    """``ludotheque serve --config FILE`` in its own process, on ``port`` (the file's)."""

    def __init__(self, config: Path, port: int, log: Path, env: dict[str, str] | None = None) -> None:
        self.config, self.port, self.log = config, port, log
        self.env = clean_environment(**(env or {}))
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Serve:
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "ludotheque", "serve", "--config", str(self.config)],
                stdout=log, stderr=subprocess.STDOUT, env=self.env)
        deadline = time.monotonic() + START_S
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"serve exited with {self.process.returncode}:\n{self.output()}")
            try:
                with urllib.request.urlopen(self.url + "/api/catalog", timeout=2) as answer:
                    if answer.status == 200:
                        return self
            except (urllib.error.URLError, ConnectionError, TimeoutError):
                time.sleep(0.1)
        stop(self.process, signal.SIGKILL)
        raise RuntimeError(f"serve did not answer within {START_S} s:\n{self.output()}")

    def output(self) -> str:
        return self.log.read_text("utf-8", errors="replace")[-5000:]

    def stop(self) -> None:
        stop(self.process)

    def __enter__(self) -> Serve:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()


def nginx_site(app_ports: int | Sequence[int], https_port: int, http_port: int, certificate: Path,
               key: Path) -> str:
    """deploy/nginx.conf as the tests run it: the server's port (several: one process each), the
    certificate, only 127.0.0.1, and nginx reaching the server from :data:`PROXY_ADDRESS`. Each
    replacement must apply once, so that a change of the deploy file that the test would miss
    fails here instead."""
    text = NGINX_CONF.read_text("utf-8")
    ports = [app_ports] if isinstance(app_ports, int) else list(app_ports)
    replacements = [
        (r"server 127\.0\.0\.1:8000;", "\n    ".join(f"server 127.0.0.1:{port};" for port in ports)),
        (r"listen 80;", f"listen 127.0.0.1:{http_port};"),
        (r"listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;"),
        (r"ssl_certificate +/etc/letsencrypt/live/games\.example\.org/fullchain\.pem;",
         f"ssl_certificate {certificate};"),
        (r"ssl_certificate_key +/etc/letsencrypt/live/games\.example\.org/privkey\.pem;",
         f"ssl_certificate_key {key};"),
        (r"proxy_http_version 1\.1;", f"proxy_http_version 1.1;\n    proxy_bind {PROXY_ADDRESS};"),
    ]
    for pattern, replacement in replacements:
        text, count = re.subn(pattern, replacement, text)
        assert count == 1, f"deploy/nginx.conf: {pattern!r} matched {count} times"
    text, count = re.subn(r"\n *listen \[::\]:\d+[^;]*;", "", text)  # no IPv6 in a test
    assert count == 2
    return text


class Nginx:
    """nginx in the foreground (``daemon off``), everything of its own in ``folder``."""

    def __init__(self, folder: Path, site: str, https_port: int, http_port: int) -> None:
        self.folder, self.https_port, self.http_port = folder, https_port, http_port
        self.binary = nginx_binary()
        self.log = folder / "error.log"
        user = "user root;\n" if os.geteuid() == 0 else ""  # its workers may read the test's folder
        temp = "".join(f"    {kind}_temp_path {folder / kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        (folder / "ludotheque.conf").write_text(site, "utf-8")
        self.config = folder / "nginx.conf"
        self.config.write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {folder / 'nginx.pid'};\n"
            f"error_log {self.log} info;\nevents {{ worker_connections 256; }}\n"
            f"http {{\n    access_log {folder / 'access.log'};\n{temp}"
            # Which process served each path (:meth:`upstreams`).
            f"    log_format upstreams '$uri $upstream_addr';\n"
            f"    access_log {folder / 'upstreams.log'} upstreams;\n"
            f"    include {folder / 'ludotheque.conf'};\n}}\n", "utf-8")
        self.process: subprocess.Popen[bytes] | None = None

    def command(self, *extra: str) -> list[str]:
        return [self.binary, "-p", str(self.folder), "-e", str(self.log), "-c", str(self.config), *extra]

    def start(self) -> Nginx:
        tested = subprocess.run(self.command("-t"), capture_output=True, text=True, timeout=30)
        assert tested.returncode == 0, tested.stderr
        with (self.folder / "stderr.log").open("ab") as out:
            self.process = subprocess.Popen(self.command(), stdout=out, stderr=subprocess.STDOUT)
        wait_listening(self.https_port, self.process, "nginx", self.log)
        wait_listening(self.http_port, self.process, "nginx", self.log)
        return self

    def stop(self) -> None:
        stop(self.process, signal.SIGQUIT)  # nginx's graceful stop

    def errors(self) -> str:
        return self.log.read_text("utf-8", errors="replace")[-5000:] if self.log.exists() else ""

    def upstreams(self) -> list[tuple[str, str]]:
        """(path, server address) of each request proxied so far (nginx writes a request's line
        once it has ended: a socket's once it is closed)."""
        log = self.folder / "upstreams.log"
        lines = log.read_text("utf-8").splitlines() if log.exists() else []
        return [(path, address) for path, _, address in (line.partition(" ") for line in lines)]


def server_config(path: Path, **settings: object) -> Path:
    """A configuration file of ``ludotheque serve`` (TOML) with ``settings``."""
    lines = []
    for key, value in settings.items():
        if isinstance(value, bool):
            lines.append(f"{key} = {'true' if value else 'false'}")
        elif isinstance(value, (int, float)):
            lines.append(f"{key} = {value}")
        elif isinstance(value, (list, tuple)):
            lines.append(f"{key} = [{', '.join(_quoted(item) for item in value)}]")
        else:
            lines.append(f"{key} = {_quoted(str(value))}")
    path.write_text("\n".join(lines) + "\n", "utf-8")
    return path


def _quoted(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


__all__ = ["PROXY_ADDRESS", "Nginx", "Serve", "check_loopback_addresses", "client_tls", "free_port",
           "free_ports", "nginx_site", "self_signed_certificate", "server_config", "stop", "websocket_tls"]
