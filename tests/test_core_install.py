"""The core dependencies alone run the server: a fresh ``pip install -e .`` (the README's first
command) brings no extra, so nothing outside ``[project].dependencies`` and what they require may be
needed to serve.

The test environment has every extra installed, so a missing core dependency would go unseen
(sqladmin needs greenlet through SQLAlchemy's asyncio module; only the test tools brought it, and
a fresh install could not serve). Here the server runs in a process where importing any installed
distribution outside the core closure fails as if it were absent, and must still answer.
"""

from __future__ import annotations

import importlib.metadata
import json
import socket
import subprocess
import sys
import time
import tomllib
import urllib.request
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[1]

# Run in the server's process before anything else: imports of distributions outside ``allowed``
# fail as if they were not installed (third-party optional imports then take their fallback).
BLOCKER = """
import importlib.abc, importlib.metadata, json, sys
from packaging.utils import canonicalize_name
allowed = set(json.loads(sys.argv[1]))
owners = importlib.metadata.packages_distributions()
class CoreOnly(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path, target=None):
        dists = owners.get(name.partition(".")[0], [])
        if dists and not any(canonicalize_name(d) in allowed for d in dists):
            raise ModuleNotFoundError(f"No module named {name!r} (not a core dependency)", name=name)
        return None
sys.meta_path.insert(0, CoreOnly())
sys.argv = ["ludotheque", *sys.argv[2:]]
from ludotheque.cli.main import main
main()
"""


def core_closure() -> set[str]:
    """The distributions ``pip install .`` brings: the core requirements, with the extras they
    name, and theirs in turn (markers evaluated here)."""
    requirements = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    pending = [Requirement(text) for text in requirements["dependencies"]]
    found: set[str] = {"ludotheque"}
    done: set[tuple[str, frozenset[str]]] = set()
    while pending:
        requirement = pending.pop()
        key = (canonicalize_name(requirement.name), frozenset(requirement.extras))
        if key in done:
            continue
        done.add(key)
        found.add(key[0])
        for text in importlib.metadata.requires(requirement.name) or []:
            needed = Requirement(text)
            extras = requirement.extras or {""}
            if needed.marker is None or any(needed.marker.evaluate({"extra": e}) for e in extras):
                pending.append(needed)
    return found


def test_the_closure_reads_extras_and_markers() -> None:
    closure = core_closure()
    assert {"fastapi", "sqladmin", "greenlet", "numba"} <= closure  # greenlet: sqlalchemy[asyncio]
    assert not {"pytest", "redis", "ray", "open-spiel"} & closure  # the extras' own


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _get(url: str) -> tuple[int, bytes]:
    with urllib.request.urlopen(url, timeout=10) as answer:
        return int(answer.status), answer.read()


def test_the_server_serves_with_the_core_dependencies_alone(tmp_path: Path) -> None:
    port = _free_port()
    command = [sys.executable, "-c", BLOCKER, json.dumps(sorted(core_closure())), "serve",
               "--port", str(port), "--db", f"sqlite:///{tmp_path / 'core.db'}"]
    server = subprocess.Popen(command, cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        base = f"http://127.0.0.1:{port}"
        deadline = time.monotonic() + 90
        while True:
            assert server.poll() is None, server.stdout.read().decode() if server.stdout else ""
            try:
                status, _ = _get(f"{base}/health")
                break
            except OSError:
                assert time.monotonic() < deadline, "the server did not answer within 90 s"
                time.sleep(0.3)
        assert status == 200
        status, lobby = _get(f"{base}/")
        assert status == 200 and b"Pylos" in lobby
        status, signin = _get(f"{base}/admin/login")  # the moderation page: sqladmin, greenlet
        assert status == 200 and b"<form" in signin
    finally:
        server.terminate()
        server.wait(timeout=30)
