"""Seats in a browser: held by HttpOnly cookies, never by a token in the page's storage; kept
over a reload; several seats of one game played from one page (same screen)."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import BrowserContext, Page, expect

from .helpers import create, document, open_seat, token_of, wait_my_turn

STORAGE = """() => JSON.stringify({
  local: Object.entries(localStorage), session: Object.entries(sessionStorage), cookie: document.cookie,
})"""


def assert_no_token_readable(page: Page, tokens: list[str]) -> None:
    """Neither storage nor ``document.cookie`` holds a seat token: scripts cannot read one."""
    readable = page.evaluate(STORAGE)
    for token in tokens:
        assert token not in readable
    assert "token=" not in page.url


def seat_cookies(context: BrowserContext) -> list[Any]:
    return [cookie for cookie in context.cookies() if cookie["name"].startswith("ludotheque_seat_")]


def test_an_invite_link_becomes_a_cookie_and_a_reload_keeps_the_seat(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "open"])
    token = token_of(created, 0)
    open_seat(page, created["id"], token)
    expect(page.locator("#turn")).to_contain_text("You play: Light")
    [cookie] = seat_cookies(page.context)
    assert cookie["name"] == "ludotheque_seat_0" and cookie["value"] == token
    assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
    assert cookie["path"] == f"/api/games/{created['id']}"
    assert_no_token_readable(page, [token])
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#turn")).to_contain_text("You play: Light")
    page.get_by_role("button", name="Take the seat: Dark").wait_for()  # the open seat is still offered
    assert_no_token_readable(page, [token])
    # Another person (another browser) is a spectator of the same page.
    other = page.context.browser.new_context(base_url=page.url.split("/play")[0]).new_page()  # type: ignore[union-attr]
    try:
        open_seat(other, created["id"])
        expect(other.locator("#turn")).to_contain_text("You are watching")
    finally:
        other.context.close()


def test_a_bad_invite_link_leaves_a_spectator(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "human"])
    open_seat(page, created["id"], "forged-token")
    expect(page.locator("#turn")).to_contain_text("You are watching")
    expect(page.locator("#message")).to_contain_text("invite link")
    assert seat_cookies(page.context) == []


def test_same_screen_both_seats_from_the_lobby_and_after_a_reload(page: Page, api: httpx.Client) -> None:
    page.goto("/?lang=en&game=pylos")
    page.wait_for_selector("body[data-ready]")
    page.select_option("#form-seats select[data-seat='1']", "human")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-ready]")
    game_id = page.url.rsplit("/", 1)[-1].split("?")[0]
    tokens = [cookie["value"] for cookie in seat_cookies(page.context)]
    assert len(tokens) == 2
    # The page acts as whichever of its seats is to move.
    wait_my_turn(page)
    expect(page.locator("#turn")).to_contain_text("You play: Light")
    page.click("#board [data-key='1a1'].target")
    expect(page.locator("#turn.my-turn")).to_contain_text("Your move (Dark)")
    page.click("#board [data-key='1d4'].target")
    expect(page.locator("#moves [data-ply='2']")).to_have_text("1d4")
    # Both seats are this browser's: no link to hand out (a friend's seat is an "invite" seat).
    expect(page.locator("#invites-panel")).to_be_hidden()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    wait_my_turn(page)
    page.click("#board [data-key='1b1'].target")
    expect(page.locator("#turn.my-turn")).to_contain_text("Your move (Dark)")
    assert document(api, game_id)["moves"] == ["1a1", "1d4", "1b1"]
    assert_no_token_readable(page, tokens)


def test_tokens_left_in_local_storage_by_older_pages_become_cookies(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "human"])
    token = token_of(created, 1)
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    page.evaluate("([key, value]) => localStorage.setItem(key, value)",
                  [f"ludotheque.tokens.{created['id']}", f'["{token}"]'])
    open_seat(page, created["id"])
    expect(page.locator("#turn")).to_contain_text("You play: Dark")
    assert [cookie["name"] for cookie in seat_cookies(page.context)] == ["ludotheque_seat_1"]
    assert_no_token_readable(page, [token])
