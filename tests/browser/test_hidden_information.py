"""Plimil: a spectator's page and WebSocket frames hold no hidden stem or ball."""

from __future__ import annotations

import json
import random
from typing import Any

import httpx
from playwright.sync_api import Page, WebSocket, expect

import ludotheque

from .helpers import create, open_seat, token_of


def play_setups(api: httpx.Client, game_id: str, tokens: list[str]) -> list[str]:
    """Both players set up at random through the API; returns the true move texts."""
    rng = random.Random(7)
    moves: list[str] = []
    for _ in range(26):
        docs = [api.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {t}"}).json()
                for t in tokens]
        doc = next(d for d in docs if d["legal_moves"])
        move = rng.choice(doc["legal_moves"])
        token = tokens[doc["view"]["viewer"]]
        answer = api.post(f"/api/games/{game_id}/moves", json={"move": move},
                          headers={"Authorization": f"Bearer {token}"})
        assert answer.status_code == 200, answer.text
        moves.append(move)
    return moves


def test_plimil_spectator_sees_no_secret(page: Page, api: httpx.Client) -> None:
    created = create(api, "plimil", ["human", "human"])
    tokens = [token_of(created, 0), token_of(created, 1)]
    true_moves = play_setups(api, created["id"], tokens)
    state = ludotheque.load("plimil").new_state()
    for move in true_moves:
        state = state.play(move)
    public, full = state.view(None), state.view(0) | {"other": state.view(1)}

    frames: list[dict[str, Any]] = []

    def listen(socket: WebSocket) -> None:
        if "/api/games/" in socket.url:  # the game's socket (the page also opens the person's)
            socket.on("framereceived", lambda payload: frames.append(json.loads(payload)))

    page.on("websocket", listen)
    open_seat(page, created["id"])
    expect(page.locator("#turn")).to_contain_text("You are watching")
    page.wait_for_timeout(300)
    assert frames, "the spectator page received its document over the WebSocket"
    for frame in frames:
        assert frame["view"] == public
        assert frame["legal_moves"] == []
        assert all("?" in text for text in frame["moves"][:26])
    for text in true_moves:
        assert all(text not in json.dumps(frame) for frame in frames)
    # Planted stems and built balls are on the page only as unknowns.
    hidden_cells = [
        cell["cell"] for cell in public["board"] if cell["planted_by"] is not None and cell["stem"] is None
    ]
    assert hidden_cells
    for cell in hidden_cells:
        label = page.locator(f"#board [data-key='{cell}']").get_attribute("aria-label") or ""
        assert "unknown stem" in label
    public_cells = {cell["cell"]: cell for cell in public["board"]}
    for entry in full["board"]:
        block = entry["block"]
        if block and block["balls"] != public_cells[entry["cell"]]["block"]["balls"]:
            label = page.locator(f"#board [data-key='{entry['cell']}']").get_attribute("aria-label") or ""
            assert " ".join(ball or "?" for ball in block["balls"]) not in label
