"""A friend invited by link: the seat is theirs alone, never the creator's, and the link works once."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import BrowserContext, Page, expect

from .helpers import document, wait_my_turn


def seat_cookies(context: BrowserContext) -> list[str]:
    names = (cookie["name"] for cookie in context.cookies())
    return sorted(name for name in names if name.startswith("ludotheque_seat_"))


def held_seats(page: Page, game_id: str) -> list[int]:
    """The seats this browser holds, as the server reads its cookies."""
    answer: dict[str, Any] = page.evaluate(
        "id => fetch(`/api/games/${id}/seats/mine`).then(r => r.json())", game_id)
    return sorted(answer["seats"])


def create_with_invite(page: Page) -> str:
    """Create a Pylos game from the lobby: me on seat 1, a friend (invite link) on seat 2."""
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    invite = page.locator("#form-seats select[data-seat='1'] option[value='invite']")
    expect(invite).to_have_text("Friend (invite link)")
    page.select_option("#form-seats select[data-seat='1']", "invite")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/play/**")
    page.wait_for_selector("body[data-ready]")
    return page.url.rsplit("/", 1)[-1].split("?")[0]


def test_an_invited_friend_plays_their_seat_and_the_creator_cannot(new_context: Any,
                                                                    api: httpx.Client) -> None:
    creator = new_context().new_page()
    game_id = create_with_invite(creator)
    # The creator holds their own seat only; the game waits for the friend, clock stopped.
    expect(creator.locator("#turn")).to_contain_text("Waiting for players")
    assert seat_cookies(creator.context) == ["ludotheque_seat_0"]
    assert held_seats(creator, game_id) == [0]
    doc = document(api, game_id)
    assert doc["status"] == "waiting" and doc["seats"][1]["kind"] == "invite"
    link = creator.locator("#invites li[data-seat='1'] input").input_value()
    assert "invite=" in link and "token=" not in link

    # The friend opens the link in their own browser: the seat becomes theirs, the code leaves
    # the address bar.
    friend = new_context().new_page()
    friend.goto(link)
    friend.wait_for_selector("body[data-ready]")
    expect(friend.locator("#turn")).to_contain_text("You play: Dark")
    assert "invite=" not in friend.url
    assert seat_cookies(friend.context) == ["ludotheque_seat_1"]
    expect(creator.locator("#invites-panel")).to_be_hidden()  # nothing left to hand out

    # Light (the creator) moves; then it is Dark's turn, which only the friend may play.
    wait_my_turn(creator)
    creator.click("#board [data-key='1a1'].target")
    expect(creator.locator("#turn")).to_contain_text("To move: Dark")
    expect(creator.locator("#turn.my-turn")).to_have_count(0)
    assert creator.locator("#board .target").count() == 0
    expect(creator.locator("#move-form")).to_be_hidden()
    assert held_seats(creator, game_id) == [0]
    wait_my_turn(friend)
    friend.click("#board [data-key='1d4'].target")
    expect(creator.locator("#moves [data-ply='2']")).to_have_text("1d4")
    assert document(api, game_id)["moves"] == ["1a1", "1d4"]

    # A third person opening the same link is told it was used, and watches.
    third = new_context().new_page()
    third.goto(link)
    third.wait_for_selector("body[data-ready]")
    expect(third.locator("#message")).to_contain_text("already been used")
    expect(third.locator("#turn")).to_contain_text("You are watching")
    assert seat_cookies(third.context) == []
    # The friend opening it again is still the friend, with nothing to be told.
    friend.goto(link)
    friend.wait_for_selector("body[data-ready]")
    expect(friend.locator("#turn")).to_contain_text("You play: Dark")
    expect(friend.locator("#message")).to_have_text("")
