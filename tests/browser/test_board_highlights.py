"""Imbrication's clicks: only the legal cells of the current step are marked, forbidden
placements are shown as such, and the tile action starts from the piece just placed."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from .helpers import create, document, open_seat, token_of

TARGETS = "#board .target"


def keys(page: Page, selector: str) -> list[str]:
    found: list[str] = page.locator(selector).evaluate_all("els => els.map(e => e.dataset.key)")
    return sorted(found)


def play(api: httpx.Client, game_id: str, token: str, move: str) -> dict[str, Any]:
    answer = api.post(f"/api/games/{game_id}/moves", json={"move": move},
                      headers={"Authorization": f"Bearer {token}"})
    assert answer.status_code == 200, answer.text
    doc: dict[str, Any] = answer.json()
    return doc


def test_placement_marks_only_legal_cells_and_shows_forbidden_ones(page: Page, api: httpx.Client) -> None:
    created = create(api, "imbrication", ["human", "human"])
    game_id, light, dark = created["id"], token_of(created, 0), token_of(created, 1)
    # Light on d4 and f4: Dark may not place on e4, between them (the placement ban).
    for move, token in [("d4", light), ("a8", dark), ("f4", light), ("h8", dark), ("a1", light)]:
        doc = play(api, game_id, token, move)
    while doc["to_move"] == 0:  # Light's tile action, if any: it only moves the piece on a1
        legal = document(api, game_id, light)["legal_moves"]
        doc = play(api, game_id, light, legal[0])
    legal = document(api, game_id, dark)["legal_moves"]
    assert "e4" not in legal
    open_seat(page, game_id, dark)
    expect(page.locator("#choices .board-prompt")).to_contain_text("Place a piece")
    assert keys(page, TARGETS) == sorted(legal)
    forbidden = page.locator("#board [data-key='e4']")
    assert "placement forbidden" in (forbidden.get_attribute("aria-label") or "")
    expect(forbidden.locator(".imb-forbidden")).to_have_text("×")
    # A placement is one click; no ring crowds the board, only a small dot per legal cell.
    assert page.locator("#board .ring-target").count() == 0
    assert page.locator("#board .imb-spot.place").count() == len(legal)


def test_the_tile_action_starts_from_the_piece_just_placed(page: Page, api: httpx.Client) -> None:
    created = create(api, "imbrication", ["human", "human"])
    game_id, tokens = created["id"], [token_of(created, 0), token_of(created, 1)]
    rng = random.Random(5)
    # Random moves until a round-1 tile action with a choice of landings comes up.
    for _ in range(120):
        docs = [document(api, game_id, token) for token in tokens]
        mover = next(doc for doc in docs if doc["legal_moves"])
        legal = mover["legal_moves"]
        if mover["view"]["phase"] == "act" and len(legal) > 1 and mover["view"]["round"] == 1:
            break
        play(api, game_id, tokens[mover["seat"]], rng.choice(legal))
    else:
        raise AssertionError("no round-1 tile action with several landings in 120 moves")
    piece = mover["view"]["placed"]
    assert all(move.startswith(piece) for move in legal)
    open_seat(page, game_id, tokens[mover["seat"]])
    # The only piece that may act is already chosen: the landings are what the page asks for.
    expect(page.locator("#board .ring-chosen")).to_have_count(1)
    assert page.locator("#board .ring-chosen").evaluate("e => e.closest('[data-key]').dataset.key") == piece
    landings = sorted({move[len(piece) + 1:len(piece) + 3] for move in legal})
    assert keys(page, TARGETS) == landings
    expect(page.locator("#choices .board-prompt")).to_contain_text(f"click where the piece on {piece} lands")
    assert page.locator("#board .imb-path").count() == len(landings)
    expect(page.locator("#choices button", has_text="Cancel")).to_have_count(0)  # nothing to undo
    page.click(f"#board [data-key='{landings[0]}'].target")
    choices = page.locator("#choices button.choice")
    if choices.count():  # a capture chain that may go on: stop here
        page.get_by_role("button", name="Stop here").click()
    expect(page.locator(f"#moves [data-ply='{len(mover['moves']) + 1}']")).to_contain_text(piece)
    assert document(api, game_id)["moves"][-1].startswith(f"{piece}")
