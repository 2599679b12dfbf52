"""Each game, created from the lobby's form against a bot, is played by clicks on its board."""

from __future__ import annotations

import httpx
import pytest
from playwright.sync_api import Page, expect

from .helpers import click_one_move, document, moves_shown, wait_my_turn

# (game, players) — Ex*Pion with 2 players keeps the test short: the bot holds East and West.
GAMES = [("pylos", 2), ("imbrication", 2), ("expion", 2), ("plimil", 2)]


def create_from_lobby(page: Page, game: str, players: int) -> str:
    page.goto(f"/?lang=en&game={game}")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#form-players", str(players))
    for seat in range(1, players):
        page.select_option(f"#form-seats select[data-seat='{seat}']", "bot:random")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-ready]")
    return page.url.rsplit("/", 1)[-1].split("?")[0]


@pytest.mark.parametrize(("game", "players"), GAMES)
def test_play_against_a_bot_by_clicking(page: Page, api: httpx.Client, game: str, players: int) -> None:
    game_id = create_from_lobby(page, game, players)
    assert page.locator("#game-title").inner_text() != ""
    if game == "plimil":
        # The setup is chosen at random with one button; the bot sets up Red's side.
        wait_my_turn(page)
        page.get_by_role("button", name="Random setup").click()
        expect(page.locator("#facts")).to_contain_text("play", timeout=30_000)
    for _ in range(3):
        before = document(api, game_id)
        click_one_move(page)
        after = document(api, game_id)
        # The page sent one legal move of the position it showed, and lists it.
        played = after["moves"][len(before["moves"])]
        assert played in moves_shown(page)
        if after["status"] == "over":
            break
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_move_completing_a_square_offers_removals(page: Page, api: httpx.Client) -> None:
    """Pylos follow-up choices: after a square, the balls to take back are highlighted."""
    from .helpers import create, open_seat, token_of

    created = create(api, "pylos", ["human", "human"])
    me, other = token_of(created, 0), token_of(created, 1)
    opening = [("1a1", me), ("1d4", other), ("1b1", me), ("1c4", other), ("1a2", me), ("1d3", other)]
    for move, token in opening:
        assert api.post(f"/api/games/{created['id']}/moves", json={"move": move},
                        headers={"Authorization": f"Bearer {token}"}).status_code == 200
    open_seat(page, created["id"], me)
    # Only seat 0's token is in this browser: it stays seat 0 (same-screen switching needs both).
    expect(page.locator("#choices .board-prompt")).to_contain_text("Click a highlighted cell to place a ball")
    page.click("#board [data-key='1b2'].target")
    expect(page.locator("#choices .board-prompt")).to_contain_text("take back one or two of your free balls")
    targets = page.locator("#board .target:not(.mini)")
    keys = sorted(targets.evaluate_all("els => els.map(e => e.dataset.key)"))
    legal = document(api, created["id"], me)["legal_moves"]
    expected = sorted({m.split("x")[1] for m in legal if m.startswith("1b2x")})
    assert keys == expected
    page.click("#board [data-key='1a1'].target")
    prompt = page.locator("#choices .board-prompt")
    expect(prompt).to_have_text("You may take back a second ball, or stop here.")
    page.get_by_role("button", name="Stop here (1b2x1a1)").click()
    expect(page.locator("#moves [data-ply='7']")).to_contain_text("1b2x1a1")
