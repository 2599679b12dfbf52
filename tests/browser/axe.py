"""axe-core (npm ``axe-core``, installed into ``node_modules`` by scripts/test.sh) run inside a page."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
INSTALL = "npm install --no-save axe-core@4.14.1 (scripts/test.sh does it)"


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page as it is now (every rule axe runs by default)."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: {INSTALL}")
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        # Evaluated by the driver, not added as a <script>: the pages' Content-Security-Policy
        # (script-src 'self') refuses inline scripts, and rightly so.
        page.evaluate(f"{AXE.read_text(encoding='utf-8')}\n;undefined")
    report = page.evaluate("() => axe.run(document, {resultTypes: ['violations']})")
    found: list[dict[str, Any]] = report["violations"]
    return found


def describe(found: list[dict[str, Any]]) -> str:
    """One line per violation and element: the rule, what it asks, where."""
    return "\n".join(f"{v['id']} ({v['impact']}): {v['help']} at {node['target']}"
                     for v in found for node in v["nodes"])


def duplicate_ids(page: Page) -> list[str]:
    """The ids that more than one element of the page bears (axe-core no longer reports them,
    yet a label or ``aria-labelledby`` then names whichever comes first)."""
    ids: list[str] = page.evaluate("[...document.querySelectorAll('[id]')].map((node) => node.id)")
    return sorted({name for name in ids if ids.count(name) > 1})


def assert_no_violation(page: Page, moment: str) -> None:
    found = violations(page)
    assert found == [], f"axe-core, {moment}:\n{describe(found)}"
    assert duplicate_ids(page) == [], f"{moment}: ids borne by several elements"
