"""Lobby, languages and rules pages (written by the server from the registry: readable without
JavaScript, in the reader's language)."""

from __future__ import annotations

import re

import httpx
import pytest
from playwright.sync_api import Browser, Page, expect

import ludotheque
from ludotheque.core import info
from ludotheque.core.contract import rules_section
from ludotheque.server.pages import rules_text
from tests.support.server import ServerProcess


def test_lobby_names_every_game_without_javascript(api: httpx.Client) -> None:
    html = api.get("/").text
    for title in ("Pylos", "Imbrication", "Ex*Pion", "Plimil"):
        assert title in html


@pytest.mark.parametrize(("locale", "lang", "heading"),
                         [("fr-FR", "fr", "Les jeux"), ("en-GB", "en", "The games")])
def test_the_lobby_and_the_rules_read_without_javascript_in_the_readers_language(
    browser: Browser, server: ServerProcess, locale: str, lang: str, heading: str
) -> None:
    """The server writes every registered game, its summary and its rules in the language the
    browser asks for (``Accept-Language``), then the one ``?lang=`` chose (kept in a cookie)."""
    context = browser.new_context(base_url=server.url, locale=locale, java_script_enabled=False)
    page = context.new_page()
    page.goto("/")
    expect(page.locator("#games-title")).to_have_text(heading)
    assert page.locator("html").get_attribute("lang") == lang
    cards = page.locator(".game-card")
    expect(cards).to_have_count(len(ludotheque.games()))
    for card, game_id in zip(cards.all(), ludotheque.games(), strict=True):
        expect(card.locator("h2")).to_have_text(info(game_id).title[lang])
        expect(card.locator(".summary")).to_have_text(info(game_id).summary[lang])
    expect(page.locator("#form-game option")).to_have_count(len(ludotheque.games()))
    page.goto("/rules/pylos")
    expect(page.locator("#rules-title")).to_have_text(f"{'Règles' if lang == 'fr' else 'Rules'} — Pylos")
    first_section = re.search(r"^### (.+)$", rules_section(rules_text("pylos") or "", lang), re.MULTILINE)
    assert first_section is not None
    expect(page.locator("#rules-body h2").first).to_have_text(first_section.group(1))
    expect(page.locator("nav a[aria-current=page]")).to_have_text("Pylos")
    other = "en" if lang == "fr" else "fr"
    page.goto(f"/rules/plimil?lang={other}")
    page.goto("/")
    assert page.locator("html").get_attribute("lang") == other
    context.close()


def test_lobby_shows_games_with_pictures(page: Page) -> None:
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    cards = page.locator(".game-card")
    expect(cards).to_have_count(len(ludotheque.games()))
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
