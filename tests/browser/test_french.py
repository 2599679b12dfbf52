"""French everywhere: level, variant and phase names, guests, and the server's errors by code."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from .helpers import create, fact, open_seat, token_of


def test_the_lobby_form_in_french(page: Page) -> None:
    page.goto("/?lang=fr")
    page.wait_for_selector("body[data-ready]")
    seat = page.locator("#form-seats select[data-seat='1']")
    # "perfect" shows too where this machine has solved tables (tests/browser/test_perfect.py).
    assert seat.locator("option:not([value='bot:perfect'])").all_inner_texts() == [
        "Moi (ce navigateur)", "Ami (lien d'invitation)", "Ouverte (à qui la prend)",
        "Ordinateur — hasard", "Ordinateur — facile", "Ordinateur — moyen", "Ordinateur — difficile",
    ]
    assert page.locator("#form-variant option").all_inner_texts() == ["standard", "enfants", "avancée"]


def test_a_game_page_in_french(page: Page, api: httpx.Client) -> None:
    created = create(api, "imbrication", ["human", "bot:easy"])
    open_seat(page, created["id"], token_of(created, 0), lang="fr")
    expect(page.locator("#seats li[data-seat='1']")).to_contain_text("Foncé — ordinateur (facile)")
    expect(fact(page, "Phase")).to_have_text("poses d'ouverture")
    expect(fact(page, "Variante")).to_have_text("standard")
    expect(fact(page, "Cadence")).to_have_text("sans pendule")


def test_guests_and_server_errors_in_french(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "open"])
    joined = api.post(f"/api/games/{created['id']}/seats/1/join", json={})
    assert joined.status_code == 200, joined.text
    open_seat(page, created["id"], token_of(created, 0), lang="fr")
    expect(page.locator("#seats li[data-seat='1'] .seat-name")).to_have_text("Foncé — Invité 2")
    page.fill("#move-text", "9z9")
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_have_text("« 9z9 » n'est pas un coup en notation.")
    page.fill("#move-text", "1a1-2b2")  # notation, but no ball of Light's stands on 1a1
    page.keyboard.press("Enter")
    expect(page.locator("#message")).to_have_text("« 1a1-2b2 » n'est pas un coup légal ici.")
