"""axe-core finds no violation on the lobby, the rules pages, and each game's page at its start,
in the middle of a move being chosen, and at its end (with the replay open)."""

from __future__ import annotations

import random
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect

import ludotheque

from .axe import assert_no_violation
from .helpers import create, open_seat, play_moves, token_of

# Moves played before the middle of the game: past Plimil's setup, into Imbrication's tile actions.
MIDDLE = {"pylos": 10, "imbrication": 21, "expion": 12, "plimil": 30}
PLAYERS = {"pylos": 2, "imbrication": 2, "expion": 4, "plimil": 2}


RULES = [f"/rules/{game}?lang=fr" for game in ludotheque.games()]
PAGES = ["/?lang=en", "/?lang=fr", *RULES, "/rules/pylos?lang=en"]


@pytest.mark.parametrize("path", PAGES)
def test_lobby_and_rules_pages(page: Page, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("body[data-ready]")
    assert_no_violation(page, path)


def test_a_rules_page_on_a_phone(page: Page) -> None:
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto("/rules/plimil?lang=fr")  # the widest diagrams: they scroll sideways
    page.wait_for_selector("body[data-ready]")
    assert_no_violation(page, "Plimil's rules on a phone")


def open_as_mover(page: Page, created: dict[str, Any], doc: dict[str, Any]) -> None:
    open_seat(page, created["id"], token_of(created, doc["to_move"]))
    expect(page.locator("#moves [data-ply]")).to_have_count(len(doc["moves"]))


@pytest.mark.parametrize("game", ludotheque.games())
def test_a_game_page_from_start_to_end(page: Page, api: httpx.Client, game: str) -> None:
    created = create(api, game, ["human"] * PLAYERS[game])
    open_seat(page, created["id"], token_of(created, 0))
    expect(page.locator("#turn.my-turn")).to_be_visible()
    assert_no_violation(page, f"{game} at the start")

    rng = random.Random(3)
    doc = play_moves(api, created, rng.choice, limit=MIDDLE[game])
    open_as_mover(page, created, doc)
    page.locator("#board .target:not(.mini)").first.click()  # a move half chosen
    assert_no_violation(page, f"{game} in the middle, a move half chosen")

    if game == "expion":  # hundreds of moves to its natural end: a resignation ends it
        answer = api.post(f"/api/games/{created['id']}/seats/0/resign",
                          headers={"Authorization": f"Bearer {token_of(created, 0)}"})
        assert answer.status_code == 200, answer.text
    else:
        doc = play_moves(api, created, rng.choice)
    expect(page.locator("#result")).to_be_visible()
    assert_no_violation(page, f"{game} at the end")
    page.locator("#replay [data-step='prev']").click()
    expect(page.locator("#moves .current")).to_have_count(1)
    assert_no_violation(page, f"{game} replayed")
