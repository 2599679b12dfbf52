"""A local Ray started by RayExecutor stops with it: no Ray process outlives ``shutdown``."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from ludotheque.ai.remote import RayExecutor

ray = pytest.importorskip("ray")


def descendants(pid: int) -> set[int]:
    """Every live process below ``pid`` (from /proc), zombies left out."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if fields[0] != "Z":
            children.setdefault(int(fields[1]), []).append(int(entry.name))
    found: set[int] = set()
    todo = [pid]
    while todo:
        for child in children.get(todo.pop(), []):
            found.add(child)
            todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_shutdown_stops_the_local_ray_it_started() -> None:
    assert not ray.is_initialized(), "a Ray is already running in this test process"
    before = descendants(os.getpid())
    executor = RayExecutor(num_cpus=2)
    assert executor.submit(pow, 2, 10).result(timeout=60) == 1024
    started = descendants(os.getpid()) - before
    assert started, "a local Ray runs in processes of its own"
    executor.shutdown()
    assert not ray.is_initialized()
    deadline = time.monotonic() + 15
    while any(alive(pid) for pid in started) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in started if alive(pid)], "Ray processes outlived shutdown"
    with pytest.raises(RuntimeError, match="after shutdown"):
        executor.submit(pow, 2, 3)
