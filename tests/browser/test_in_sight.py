"""At 1280×800, what a step of a move asks (the prompt, Finish and Cancel) and the errors are seen
without scrolling: under the board, or over its bottom edge when the board is taller."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Locator, Page, ViewportSize, expect

from .helpers import create, play, play_moves, token_of, wait_my_turn

WINDOW: ViewportSize = {"width": 1280, "height": 800}


def in_sight(locator: Locator) -> bool:
    """Whether the element lies wholly inside the window as it is now (no scrolling)."""
    inside: bool = locator.evaluate("""element => {
      const box = element.getBoundingClientRect();
      return box.height > 0 && box.top >= 0 && box.bottom <= window.innerHeight
        && box.left >= 0 && box.right <= window.innerWidth;
    }""")
    return inside


def opened(new_context: Any, game_id: str, token: str) -> Page:
    page: Page = new_context().new_page()
    page.set_viewport_size(WINDOW)
    page.goto(f"/play/{game_id}?lang=en&token={token}")
    page.wait_for_selector("body[data-ready]")
    wait_my_turn(page)
    return page


def assert_error_in_sight(page: Page) -> None:
    page.fill("#move-text", "zz9")
    page.press("#move-text", "Enter")
    expect(page.locator("#message")).not_to_have_text("")
    page.evaluate("window.scrollTo(0, 0)")
    assert in_sight(page.locator("#message"))


def test_pylos_taking_back_after_a_square(new_context: Any, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "human"])
    game_id, light, dark = created["id"], token_of(created, 0), token_of(created, 1)
    for ply, move in enumerate(["1a1", "1d4", "1a2", "1d3", "1b1", "1c4"]):
        play(api, game_id, dark if ply % 2 else light, move)
    page = opened(new_context, game_id, light)
    page.click("#board [data-key='1b2'].target")
    page.click("#board [data-key='1a1'].target")
    finish = page.locator("#choices button.finish")
    expect(finish).to_contain_text("1b2x1a1")
    page.evaluate("window.scrollTo(0, 0)")
    assert in_sight(finish)
    assert in_sight(page.get_by_role("button", name="Cancel selection"))
    assert in_sight(page.locator("#choices .prompt"))
    assert_error_in_sight(page)


def test_imbrication_where_the_piece_lands(new_context: Any, api: httpx.Client) -> None:
    created = create(api, "imbrication", ["human", "human"])
    rng = random.Random(3)
    doc = play_moves(api, created, rng.choice, until=lambda _move, doc: doc["view"]["phase"] == "act")
    page = opened(new_context, created["id"], token_of(created, doc["to_move"]))
    prompt = page.locator("#choices .board-prompt")
    expect(prompt).to_contain_text("click")
    if "lands" not in prompt.inner_text():  # the piece that plays the tile is to choose first
        page.locator("#board .target").first.click()
    expect(prompt).to_contain_text("lands")
    page.evaluate("window.scrollTo(0, 0)")
    assert in_sight(prompt)
    cancel = page.get_by_role("button", name="Cancel selection")
    assert cancel.count() == 0 or in_sight(cancel)
    assert_error_in_sight(page)


def test_plimil_setup(new_context: Any, api: httpx.Client) -> None:
    created = create(api, "plimil", ["human", "human"])
    page = opened(new_context, created["id"], token_of(created, 0))
    random_setup = page.get_by_role("button", name="Random setup")
    expect(random_setup).to_be_visible()
    assert in_sight(random_setup)
    assert in_sight(page.locator("#choices"))
    assert_error_in_sight(page)
