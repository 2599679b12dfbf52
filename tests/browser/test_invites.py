"""A friend invited by link: the seat is theirs alone, never the creator's, and the link works once."""

from __future__ import annotations

import uuid
from typing import Any

import httpx
from playwright.sync_api import BrowserContext, Page, expect

from .axe import assert_no_violation
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
    # Opening the link takes nothing: the seat is taken by the friend's click.
    take = friend.get_by_role("button", name="Take this seat — casual, no clock, against")
    expect(take).to_be_visible()
    assert seat_cookies(friend.context) == [] and document(api, game_id)["seats"][1]["kind"] == "invite"
    take.click()
    expect(friend.locator("#turn")).to_contain_text("You play: Dark")
    expect(friend.locator("#take-seat")).to_be_hidden()
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


PASSWORD = "correct horse"
BLITZ = {"type": "fischer", "minutes": 1, "increment": 0}


def signed_up(new_context: Any, name: str) -> BrowserContext:
    """A browser whose person is a new player (signed up through the API, sharing its cookies)."""
    context: BrowserContext = new_context()
    answer = context.request.post("/api/account/signup", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    return context


def rated_invite(new_context: Any, creator: str) -> tuple[str, str]:
    """A rated Pylos game (1+0) of a signed-in ``creator`` on seat 0, seat 1 kept for an invite;
    returns its id and the invite link."""
    context = signed_up(new_context, creator)
    answer = context.request.post("/api/games", data={
        "game": "pylos", "seats": ["human", "invite"], "rated": True, "clock": BLITZ})
    assert answer.status == 201, answer.text()
    created = answer.json()
    return created["id"], created["seats"][1]["url"]


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:8]}"


def test_another_site_sending_a_player_to_an_invite_link_takes_no_seat(new_context: Any,
                                                                        api: httpx.Client) -> None:
    """A foreign page sends a signed-in player's browser to a rated game's invite link: the page
    describes the seat and takes it only on the player's own click."""
    creator = unique("Ada")
    game_id, link = rated_invite(new_context, creator)
    victim = signed_up(new_context, unique("Vic")).new_page()
    victim.route("http://elsewhere.example/**", lambda route: route.fulfill(
        content_type="text/html", body=f"<script>location.href = {link!r};</script>"))
    victim.goto("http://elsewhere.example/prize")
    victim.wait_for_url("**/play/**")
    victim.wait_for_selector("body[data-ready]")
    take = victim.locator("#take-seat-button")
    expect(take).to_have_text(f"Take this seat — rated, 1+0, against {creator}")
    expect(victim.locator("#turn")).to_contain_text("You are watching")
    assert "invite=" not in victim.url
    victim.wait_for_timeout(500)
    doc = document(api, game_id)
    assert doc["status"] == "waiting" and doc["seats"][1]["kind"] == "invite"
    assert seat_cookies(victim.context) == []
    # A reload still offers it (the code is kept in the tab's history entry), still unclaimed.
    victim.reload()
    victim.wait_for_selector("body[data-ready]")
    expect(take).to_be_visible()
    assert document(api, game_id)["seats"][1]["kind"] == "invite"
    take.click()
    expect(victim.locator("#turn")).to_contain_text("You play: Dark")
    assert document(api, game_id)["status"] == "playing"


def test_a_guest_opening_a_rated_invite_is_asked_to_sign_in_and_comes_back(new_context: Any,
                                                                            api: httpx.Client) -> None:
    game_id, link = rated_invite(new_context, unique("Ada"))
    guest = new_context().new_page()
    guest.goto(link)
    guest.wait_for_selector("body[data-ready]")
    box = guest.locator("#take-seat")
    expect(box).to_contain_text("Rated games are played with an account")
    expect(guest.locator("#message")).to_have_text("")
    expect(guest.locator("#take-seat-button")).to_have_count(0)
    assert_no_violation(guest, "a guest's rated invite")
    box.get_by_role("link", name="Sign in and come back to this game").click()
    guest.wait_for_url("**/account**")
    guest.wait_for_selector("body[data-ready]")
    expect(guest.locator("#return-hint")).to_be_visible()
    name = unique("Bea")
    guest.fill("#signup-name", name)
    guest.fill("#signup-password", PASSWORD)
    guest.click("#signup-form button[type=submit]")
    guest.wait_for_url(f"**/play/{game_id}**")
    guest.wait_for_selector("body[data-ready]")
    assert document(api, game_id)["seats"][1]["kind"] == "invite"
    guest.locator("#take-seat-button").click()
    expect(guest.locator("#turn")).to_contain_text("You play: Dark")


def test_the_account_page_goes_back_to_this_site_only(new_context: Any) -> None:
    page = new_context().new_page()
    page.goto("/account?lang=en&next=//elsewhere.example/x")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#return-hint")).to_be_hidden()


def test_a_rated_game_offers_no_takeback_and_the_refusal_is_worded(new_context: Any) -> None:
    context = signed_up(new_context, unique("Ada"))
    answer = context.request.post("/api/games", data={
        "game": "pylos", "seats": ["human", "bot:random"], "rated": True, "clock": BLITZ})
    assert answer.status == 201, answer.text()
    page = context.new_page()
    page.goto(f"/play/{answer.json()['id']}?lang=fr")
    page.wait_for_selector("body[data-ready]")
    wait_my_turn(page)
    page.click("#board [data-key='1a1'].target")
    expect(page.locator("#moves [data-ply='2']")).to_be_visible(timeout=15_000)  # the bot answered
    wait_my_turn(page)
    expect(page.locator("#actions [data-action='ask-resign']")).to_be_visible()
    expect(page.locator("#actions [data-action='takeback']")).to_have_count(0)
    worded = page.evaluate("""() => import('/static/app/i18n.js').then(({errorText}) =>
        ['fr', 'en'].map((lang) => errorText(lang, {code: 'rated_takeback', message: 'raw'})))""")
    assert worded == ["Pas de reprise de coup dans une partie classée.", "No takeback in a rated game."]


def test_a_join_link_describes_the_open_seat_and_waits_for_the_click(new_context: Any,
                                                                    api: httpx.Client) -> None:
    creator = unique("Ada")
    answer = signed_up(new_context, creator).request.post("/api/games", data={
        "game": "pylos", "seats": ["human", "open"], "rated": True, "clock": BLITZ})
    assert answer.status == 201, answer.text()
    game_id = answer.json()["id"]
    guest = new_context().new_page()
    guest.goto(f"/play/{game_id}?lang=en&join=1")
    guest.wait_for_selector("body[data-ready]")
    expect(guest.locator("#take-seat")).to_contain_text("Rated games are played with an account")
    back = f"/account?next=%2Fplay%2F{game_id}%3Fjoin%3D1"
    expect(guest.locator("#take-seat a")).to_have_attribute("href", back)
    player = signed_up(new_context, unique("Bea")).new_page()
    player.goto(f"/play/{game_id}?lang=fr&join=1")
    player.wait_for_selector("body[data-ready]")
    take = player.locator("#take-seat-button")
    expect(take).to_have_text(f"Prendre cette place — partie classée, 1+0, contre {creator}")
    assert document(api, game_id)["seats"][1]["kind"] == "open"
    take.click()
    expect(player.locator("#turn")).to_contain_text("Vous jouez : Foncé")
