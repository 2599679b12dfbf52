"""Steps shared by the browser tests: create games, read documents, play by clicking."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, expect


def create(api: httpx.Client, game: str, seats: list[str], **extra: Any) -> dict[str, Any]:
    """Create a game through the API; returns its creation answer (id, seats with tokens)."""
    answer = api.post("/api/games", json={"game": game, "players": len(seats), "seats": seats, **extra})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def document(api: httpx.Client, game_id: str, token: str | None = None) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = api.get(f"/api/games/{game_id}", headers=headers)
    assert answer.status_code == 200, answer.text
    doc: dict[str, Any] = answer.json()
    return doc


def token_of(created: dict[str, Any], seat: int) -> str:
    token: str = next(entry["token"] for entry in created["seats"] if entry["seat"] == seat)
    return token


def open_seat(page: Page, game_id: str, token: str | None = None, lang: str = "en") -> None:
    """Open the game page (with an invite token, or as a spectator) and wait for the board."""
    query = f"?lang={lang}" + (f"&token={token}" if token else "")
    page.goto(f"/play/{game_id}{query}")
    page.wait_for_selector("body[data-ready]")


def wait_my_turn(page: Page) -> None:
    page.wait_for_selector("#turn.my-turn")


def moves_shown(page: Page) -> list[str]:
    texts: list[str] = page.locator("#moves li[data-ply]").all_inner_texts()
    return [text.strip() for text in texts]


def click_one_move(page: Page) -> None:
    """Play one move with the mouse only: the first highlighted element, then the first offered
    follow-up, until the page sends the move."""
    wait_my_turn(page)
    before = len(moves_shown(page))
    for _ in range(16):
        targets = page.locator("#board .target:not(.mini)")
        buttons = page.locator("#choices button.choice")
        if targets.count() > 0:
            targets.first.click()
        elif buttons.count() > 0:
            buttons.first.click()
        else:
            break
        if len(moves_shown(page)) > before or page.locator("#turn.my-turn").count() == 0:
            break
    expect(page.locator("#moves li[data-ply]")).not_to_have_count(before)
