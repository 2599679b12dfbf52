"""The result said to its reader, the time control and a correspondence deadline, the game page
on a phone, and the lobby's form opening on Pylos."""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from .helpers import create, document, fact, open_seat, token_of

REASONS = {
    ("en", "top"): "top of the pyramid", ("fr", "top"): "sommet de la pyramide",
    ("en", "empty_reserve"): "{loser}'s reserve is empty",
    ("fr", "empty_reserve"): "réserve de {loser} épuisée",
}
NAMES = {"en": ["Light", "Dark"], "fr": ["Clair", "Foncé"]}


def reason(result: dict[str, Any], lang: str) -> str:
    loser = NAMES[lang][1 - result["winners"][0]]
    return REASONS[(lang, result["reason"])].format(loser=loser)


def test_the_result_speaks_to_each_reader(new_context: Any, api: httpx.Client,
                                          finished_pylos: dict[str, Any]) -> None:
    game_id = finished_pylos["id"]
    result = document(api, game_id)["result"]
    winner = result["winners"][0]
    for seat in (0, 1):
        player = new_context().new_page()
        open_seat(player, game_id, token_of(finished_pylos, seat))
        said = "You won" if seat == winner else "You lost"
        expect(player.locator("#result")).to_have_text(f"{said} — {reason(result, 'en')}")
    watcher = new_context("fr").new_page()
    open_seat(watcher, game_id, lang="fr")
    expect(watcher.locator("#result")).to_have_text(f"{NAMES['fr'][winner]} gagne — {reason(result, 'fr')}")
    assert not re.search(r"-1|score", watcher.locator("#result").inner_text(), re.IGNORECASE)


def test_time_control_and_correspondence_deadline(page: Page, api: httpx.Client) -> None:
    fischer = {"type": "fischer", "minutes": 10, "increment": 5}
    created = create(api, "pylos", ["human", "human"], clock=fischer)
    open_seat(page, created["id"], token_of(created, 0))
    expect(fact(page, "Time control")).to_have_text("10 min + 5 s per move")
    created = create(api, "pylos", ["human", "human"], clock={"type": "correspondence", "days": 3})
    open_seat(page, created["id"], token_of(created, 0))
    expect(fact(page, "Time control")).to_have_text("3 d per move")
    deadline = page.locator("#deadline")
    expect(deadline).to_contain_text("Light must move by")
    # Three days from now, as a date (the page's time zone is the test machine's).
    when = datetime.now(UTC).astimezone() + timedelta(days=3)
    expect(deadline).to_contain_text(f"{when.day} {when.strftime('%B')}")
    assert page.evaluate("document.documentElement.scrollWidth <= innerWidth")  # the date fits its panel


def test_on_a_phone_the_clocks_sit_by_the_board(new_context: Any, api: httpx.Client) -> None:
    fischer = {"type": "fischer", "minutes": 5, "increment": 0}
    created = create(api, "pylos", ["human", "human"], clock=fischer)
    phone = new_context().new_page()
    phone.set_viewport_size({"width": 390, "height": 844})
    open_seat(phone, created["id"], token_of(created, 0))
    bar = phone.locator("#clock-bar")
    expect(bar).to_be_visible()
    expect(bar.locator("[data-clock]")).to_have_count(2)
    expect(bar.locator("[data-clock='0']")).to_have_text(re.compile(r"0[45]:\d\d"))
    bar_box, board_box = bar.bounding_box(), phone.locator("#board").bounding_box()
    assert bar_box and board_box
    assert bar_box["y"] + bar_box["height"] <= board_box["y"] + 1  # right above the board
    header = phone.locator(".site-header").bounding_box()
    assert header and header["height"] <= 64  # one compact line


def test_the_lobby_form_opens_on_pylos(page: Page) -> None:
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#form-game")).to_have_value("pylos")
    expect(page.locator("#form-variant")).to_have_value("standard")
    page.goto("/?lang=en&game=plimil")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#form-game")).to_have_value("plimil")
