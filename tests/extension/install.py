"""Install a game the way a distribution does, for the length of a test: a ``<name>.dist-info``
folder holding ``METADATA`` and ``entry_points.txt`` (group ``ludotheque.games``) in a folder put
on ``sys.path``; the registry reads the declarations again, and again once the folder is gone, so
that no other test sees the game. The processes a test starts (a server) get the same folder,
and the repository for ``tests.extension``, on ``PYTHONPATH``.
"""

from __future__ import annotations

import importlib
import os
import sys
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from pathlib import Path

from ludotheque.core import registry

ROOT = Path(__file__).resolve().parents[2]
# The fifth game of these tests, and its package.
NIM = {"nim": "tests.extension.nim"}


@contextmanager
def installed(site: Path, distribution: str, games: Mapping[str, str] = NIM) -> Iterator[dict[str, str]]:
    """``games`` (entry-point name -> module) installed as ``distribution`` in the folder ``site``;
    yields the environment variables a process started meanwhile needs to see them."""
    info = site / f"{distribution}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {distribution}\nVersion: 0.1\n", "utf-8")
    entries = "".join(f"{name} = {target}\n" for name, target in games.items())
    (info / "entry_points.txt").write_text(f"[{registry.ENTRY_POINT_GROUP}]\n{entries}", "utf-8")
    sys.path.insert(0, str(site))
    importlib.invalidate_caches()
    registry.refresh()
    paths = [str(site), str(ROOT), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    try:
        yield {"PYTHONPATH": os.pathsep.join(paths)}
    finally:
        sys.path.remove(str(site))
        importlib.invalidate_caches()
        registry.refresh()
