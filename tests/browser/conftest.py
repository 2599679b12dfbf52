"""Fixtures of the browser tests: one real server (SQLite in a temporary folder) and one
Chromium for the whole session, a fresh browser context per page user.

Chromium is Debian's (``apt-get install chromium``), never a Playwright download.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tests.support.server import ServerProcess

from .helpers import create, hop_count, play_moves

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
TIMEOUT_MS = 15_000
# Every browser of the session comes from one address, much faster than people would.
UNLIMITED = {"LUDOTHEQUE_ACCOUNT_LIMIT": "none", "LUDOTHEQUE_SIGNIN_LIMIT": "none",
             "LUDOTHEQUE_SIGNIN_ACCOUNT_LIMIT": "none", "LUDOTHEQUE_CHAT_LIMIT": "none"}


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    database = Path(tmp_path_factory.mktemp("browser-db")) / "games.db"
    with ServerProcess(f"sqlite:///{database}", env=UNLIMITED) as running:
        yield running


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail(f"{CHROMIUM} is missing: apt-get update && apt-get install -y chromium")
    launched = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield launched
    launched.close()


@pytest.fixture
def new_context(browser: Browser, server: ServerProcess) -> Iterator[Any]:
    """A factory of fresh browser contexts (separate cookies and localStorage: separate people)."""
    contexts: list[BrowserContext] = []

    def make(lang: str = "en") -> BrowserContext:
        context = browser.new_context(base_url=server.url, locale="en-GB" if lang == "en" else "fr-FR",
                                      viewport={"width": 1280, "height": 900})
        context.set_default_timeout(TIMEOUT_MS)
        contexts.append(context)
        return context

    yield make
    for context in contexts:
        context.close()


@pytest.fixture
def page(new_context: Any) -> Page:
    opened: Page = new_context().new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.errors = errors  # type: ignore[attr-defined]
    return opened


@pytest.fixture
def api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def session_api(server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=30) as client:
        yield client


def greedy_captures(rng: random.Random) -> Any:
    """A move chooser that plays the longest capture chain there is, else a random move."""
    def pick(legal: list[str]) -> str:
        longest = max(legal, key=hop_count)
        return longest if hop_count(longest) > 0 else rng.choice(legal)
    return pick


@pytest.fixture(scope="session")
def finished_imbrication(session_api: httpx.Client) -> dict[str, Any]:
    """An Imbrication game between two people played to its end (long capture chains taken
    whenever offered); its creation answer, with the seats' tokens."""
    created = create(session_api, "imbrication", ["human", "human"])
    play_moves(session_api, created, greedy_captures(random.Random(11)))
    return created


@pytest.fixture(scope="session")
def finished_pylos(session_api: httpx.Client) -> dict[str, Any]:
    """A Pylos game between two people played to its end with random moves."""
    created = create(session_api, "pylos", ["human", "human"])
    rng = random.Random(5)
    play_moves(session_api, created, rng.choice)
    return created
