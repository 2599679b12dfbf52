"""No page is wider than the screen, on a phone or a desktop, in French (the longer words): a long
option in a list ("perfect where solved, hard elsewhere", "win in N, from the solved game's
tables") once widened the lobby to 669 px on a 390 px phone and the puzzles page by 32 px."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from .helpers import create, token_of

PAGES = ("/", "/rules/pylos", "/learn/pylos", "/puzzles/pylos", "/puzzles/pylos?source=tables",
         "/tournaments", "/friends", "/clubs", "/account")


@pytest.mark.parametrize("width", [390, 1280])
def test_every_page_fits_the_screen_in_french(new_context: Any, api: httpx.Client, width: int) -> None:
    created = create(api, "pylos", ["human", "bot:easy"])
    game = f"/play/{created['id']}?token={token_of(created, 0)}"
    page = new_context("fr").new_page()
    page.set_viewport_size({"width": width, "height": 900})
    wider = {}
    for path in (*PAGES, game):
        page.goto(path + ("&" if "?" in path else "?") + "lang=fr")
        page.wait_for_selector("body[data-ready]")
        scroll_width = page.evaluate("document.documentElement.scrollWidth")
        if scroll_width > width:
            wider[path] = scroll_width
    assert wider == {}
