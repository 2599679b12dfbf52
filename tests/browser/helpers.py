"""Steps shared by the browser tests: create games, read documents, play by clicking."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import httpx
from playwright.sync_api import Locator, Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError


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
    texts: list[str] = page.locator("#moves [data-ply]").all_inner_texts()
    return [text.strip() for text in texts]


CLICK_MS = 2_000
"""How long one click of :func:`click_one_move` waits for its element before looking again."""


def click_one_move(page: Page) -> None:
    """Play one move with the mouse only: the first highlighted element, then the first offered
    follow-up, until the page sends the move. The move may go out while the board still shows
    the last position's targets (its answer not yet drawn): a click whose element vanished under
    it (the board redrawn for the other side's turn) is not a failure, the page is looked at again."""
    wait_my_turn(page)
    before = len(moves_shown(page))
    for _ in range(16):
        if len(moves_shown(page)) > before or page.locator("#turn.my-turn").count() == 0:
            break
        targets = page.locator("#board .target:not(.mini)")
        buttons = page.locator("#choices button.choice")
        try:
            if targets.count() > 0:
                targets.first.click(timeout=CLICK_MS)
            elif buttons.count() > 0:
                buttons.first.click(timeout=CLICK_MS)
            else:
                break
        except PlaywrightTimeoutError:
            continue
    expect(page.locator("#moves [data-ply]")).not_to_have_count(before)


def play(api: httpx.Client, game_id: str, token: str, move: str) -> dict[str, Any]:
    """Play one move with a seat's token; returns the new document."""
    answer = api.post(f"/api/games/{game_id}/moves", json={"move": move},
                      headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    doc: dict[str, Any] = answer.json()
    return doc


Until = Callable[[str, dict[str, Any]], bool]


def play_moves(api: httpx.Client, created: dict[str, Any], pick: Callable[[list[str]], str],
               *, until: Until | None = None, limit: int = 2000) -> dict[str, Any]:
    """Play a game whose every seat is a person's, one move ``pick(legal_moves)`` at a time, until
    it ends, ``until(move, document)`` holds or ``limit`` moves are played; returns the last document."""
    tokens = {entry["seat"]: entry["token"] for entry in created["seats"]}
    doc = document(api, created["id"], tokens[0])
    for _ in range(limit):
        if doc["status"] == "over":
            break
        mover = doc["to_move"]
        legal = document(api, created["id"], tokens[mover])["legal_moves"]
        move = pick(legal)
        doc = play(api, created["id"], tokens[mover], move)
        if until and until(move, doc):
            break
    return doc


def hop_count(move: str) -> int:
    """The captures of a move's text (Imbrication's chains: ``d4xf6xd8`` has two)."""
    return move.count("x")


def fact(page: Page, label: str) -> Locator:
    """The value of the game page's fact (in the "Status" panel) whose label contains ``label``."""
    return page.locator("#facts dt", has_text=label).locator("xpath=following-sibling::dd[1]")


