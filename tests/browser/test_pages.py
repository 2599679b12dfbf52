"""Lobby, languages and rules pages."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

import ludotheque


def test_lobby_names_the_four_games_without_javascript(api: httpx.Client) -> None:
    html = api.get("/").text
    for title in ("Pylos", "Imbrication", "Ex*Pion", "Plimil"):
        assert title in html


def test_lobby_shows_games_with_pictures(page: Page) -> None:
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    cards = page.locator(".game-card")
    expect(cards).to_have_count(4)
    for card in cards.all():
        assert card.locator("img").evaluate("img => img.complete && img.naturalWidth > 0")
    assert page.errors == []  # type: ignore[attr-defined]


def test_language_is_remembered_in_a_cookie(page: Page) -> None:
    page.goto("/?lang=fr")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#games-title")).to_have_text("Les jeux")
    page.goto("/")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#games-title")).to_have_text("Les jeux")
    assert page.locator("html").get_attribute("lang") == "fr"
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#games-title")).to_have_text("The games")


@pytest.mark.parametrize("game", ludotheque.games())
@pytest.mark.parametrize("lang", ["fr", "en"])
def test_rules_page_in_both_languages(page: Page, api: httpx.Client, game: str, lang: str) -> None:
    expected = api.get(f"/api/rules/{game}", params={"lang": lang}).json()["html"]
    page.goto(f"/rules/{game}?lang={lang}")
    page.wait_for_selector("body[data-ready]")
    shown = page.locator("#rules-body").inner_html()
    # The page shows the server's rendering of RULES.md, in the page's language.
    first_heading = page.locator("#rules-body :is(h1,h2,h3)").first.inner_text()
    assert first_heading and first_heading in expected
    assert len(shown) > 200
