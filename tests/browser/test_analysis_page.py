"""The analysis page of a finished game (progress, chart, a ply clicked shows its position and better
line) and the game page's hint button, in Chromium, axe-clean. One server of their own: small
analyses on the plain engine (no kernel compiled by its worker), so that the page is done quickly."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

from tests.support.server import ServerProcess

from .axe import assert_no_violation
from .conftest import TIMEOUT_MS, UNLIMITED
from .helpers import create, open_seat, play, token_of, wait_my_turn

SETTINGS = {**UNLIMITED, "LUDOTHEQUE_ANALYSIS_ENGINE": "plain", "LUDOTHEQUE_ANALYSIS_BUDGET": "0.05"}
MOVES = ["1a1", "1b1", "1c1", "1d1", "1a2"]


@pytest.fixture(scope="module")
def analysis_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    database = Path(tmp_path_factory.mktemp("analysis-db")) / "games.db"
    with ServerProcess(f"sqlite:///{database}", env=SETTINGS) as running:
        yield running


@pytest.fixture
def own_page(browser: Browser, analysis_server: ServerProcess) -> Iterator[Page]:
    context = browser.new_context(base_url=analysis_server.url, locale="en-GB",
                                  viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    opened = context.new_page()
    errors: list[str] = []
    opened.on("pageerror", lambda error: errors.append(str(error)))
    opened.errors = errors  # type: ignore[attr-defined]
    yield opened
    context.close()


@pytest.fixture
def own_api(analysis_server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=analysis_server.url, timeout=30) as client:
        yield client


def test_the_analysis_page_shows_a_clicked_ply(own_page: Page, own_api: httpx.Client) -> None:
    page = own_page
    created = create(own_api, "pylos", ["human", "human"])
    game_id = created["id"]
    for number, move in enumerate(MOVES):
        play(own_api, game_id, token_of(created, number % 2), move)
    own_api.post(f"/api/games/{game_id}/seats/1/resign",
                 headers={"Authorization": f"Bearer {token_of(created, 1)}"})
    # The finished game's page links to its analysis.
    open_seat(page, game_id)
    page.locator("#analysis-link").click()
    page.wait_for_url(f"**/games/{game_id}/analysis")
    expect(page.locator("#analysis-plies [data-ply]")).to_have_count(len(MOVES), timeout=60_000)
    expect(page.locator("#analysis-status")).to_contain_text("Analysis done: 5 moves analysed")
    expect(page.locator("#analysis-chart svg[role=img]")).to_have_count(1)
    expect(page.locator("#analysis-summary li")).to_have_count(2)
    summary = own_api.get(f"/api/games/{game_id}/analysis").json()["analysis"]["summary"]
    for seat, row in summary.items():
        line = page.locator(f"#analysis-summary li[data-seat='{seat}']")
        expect(line).to_contain_text(counts_in_words(row, "en"))
    page.locator("#analysis-plies [data-ply='2']").click()
    expect(page.locator("#ply-heading")).to_have_text("Move 3: 1c1 (Light)")
    expect(page.locator("#analysis-board [data-key]").first).to_be_visible()
    detail = page.locator("#ply-detail").inner_text()
    assert "Better line:" in detail
    assert "is the best one found" in detail or ("Best move found:" in detail and "Loss" in detail) or (
        "worth as much" in detail)
    expect(page.locator("#analysis-plies [data-ply='2']")).to_have_attribute("aria-pressed", "true")
    # A point of the chart chooses its ply too.
    page.locator("#analysis-chart [data-ply='1']").click()
    expect(page.locator("#ply-heading")).to_contain_text("Move 2: 1b1")
    # Also: no id borne twice (the chart's title once bore the page heading's, "analysis-title").
    assert_no_violation(page, "the analysis page with a ply chosen")
    page.goto(f"/games/{game_id}/analysis?lang=fr")
    expect(page.locator("#analysis-title")).to_contain_text("Analyse de la partie")
    expect(page.locator("#analysis-status")).to_contain_text("Analyse terminée")
    for seat, row in summary.items():
        line = page.locator(f"#analysis-summary li[data-seat='{seat}']")
        expect(line).to_contain_text(counts_in_words(row, "fr"))
    assert page.errors == []  # type: ignore[attr-defined]


# Each count's word agrees with its number: French takes the singular for 0 and 1, English for 1.
COUNT_WORDS = {
    "en": {"moves": ("move analysed", "moves analysed"), "inaccuracy": ("inaccuracy", "inaccuracies"),
           "mistake": ("mistake", "mistakes"), "blunder": ("blunder", "blunders")},
    "fr": {"moves": ("coup analysé", "coups analysés"), "inaccuracy": ("imprécision", "imprécisions"),
           "mistake": ("erreur", "erreurs"), "blunder": ("gaffe", "gaffes")},
}


def counts_in_words(row: dict[str, float], lang: str) -> str:
    """A summary row's counts as the page should write them, e.g. "3 moves analysed, 1 inaccuracy, …"."""
    def singular(count: int) -> bool:
        return count <= 1 if lang == "fr" else count == 1

    words = []
    for name, (one, other) in COUNT_WORDS[lang].items():
        count = int(row[name])
        words.append(f"{count} {one if singular(count) else other}")
    return ", ".join(words)


def test_the_hint_button_highlights_a_good_move(own_page: Page, own_api: httpx.Client) -> None:
    page = own_page
    created = create(own_api, "pylos", ["human", "bot:random"])
    open_seat(page, created["id"], token_of(created, 0))
    wait_my_turn(page)
    expect(page.locator("#hint-left")).to_have_text("3 hints left")
    page.locator("#hint-button").click()
    expect(page.locator("#hint-text")).to_contain_text("Suggestion (medium bot): ")
    expect(page.locator("#board .hinted").first).to_be_visible()
    expect(page.locator("#hint-left")).to_have_text("2 hints left")
    move = page.locator("#hint-text").inner_text().rsplit(" ", 1)[-1]
    mine = {"Authorization": f"Bearer {token_of(created, 0)}"}
    assert move in own_api.get(f"/api/games/{created['id']}", headers=mine).json()["legal_moves"]
    assert_no_violation(page, "the game page with a hint shown")
    # A game between people shows no hint button.
    people = create(own_api, "pylos", ["human", "human"])
    open_seat(page, people["id"], token_of(people, 0))
    expect(page.locator("#hint-box")).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]
