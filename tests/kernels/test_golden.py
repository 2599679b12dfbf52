"""Every compiled search answers today what it answered when ``data/searches.json`` was stored
(same seeds, budgets and positions): a refactoring of the kernels or searches changes no result."""

from __future__ import annotations

import json

import pytest

from ludotheque.engines.compiled import AVAILABLE

from .golden import DATA, compute

pytestmark = pytest.mark.skipif(not AVAILABLE, reason="Numba is not installed")


def test_searches_answer_as_stored() -> None:
    stored = json.loads(DATA.read_text())
    now = json.loads(json.dumps(compute(), sort_keys=True))
    assert sorted(now) == sorted(stored)
    differ = [key for key in stored if now[key] != stored[key]]
    assert not differ, f"results changed: {differ}"
