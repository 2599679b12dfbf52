"""The game page's actions: a draw offered and accepted between two browsers, a rematch both
players land in, the move-by-move replay of a finished game, a takeback against a bot."""

from __future__ import annotations

from typing import Any

import httpx
from playwright.sync_api import Page, Request, expect

from .helpers import create, document, moves_shown, open_seat, token_of, wait_my_turn


def two_players(new_context: Any, api: httpx.Client) -> tuple[str, Page, Page]:
    """A Pylos game between Alice (seat 0, invite link) and Bob (joins the open seat 1)."""
    created = create(api, "pylos", ["human", "open"])
    alice = new_context().new_page()
    bob = new_context().new_page()
    open_seat(alice, created["id"], token_of(created, 0))
    open_seat(bob, created["id"])
    bob.click("#join button.join-seat")
    expect(bob.locator("#turn")).to_contain_text("You play: Dark")
    return created["id"], alice, bob


def test_a_draw_declined_then_offered_again_and_accepted_then_a_rematch(new_context: Any,
                                                                        api: httpx.Client) -> None:
    game_id, alice, bob = two_players(new_context, api)
    alice.click("#board [data-key='1a1'].target")
    expect(bob.locator("#moves [data-ply='1']")).to_have_text("1a1")

    alice.click("#actions [data-action='draw']")
    expect(bob.locator("#draw-offer")).to_contain_text("Light offers a draw.")
    expect(alice.locator("#draw-offer")).to_contain_text("You offer a draw")
    expect(alice.locator("#actions [data-action='draw']")).to_have_count(0)
    expect(bob.locator("#actions [data-action='draw']")).to_have_text("Accept the draw")
    # Bob declines: the offer is withdrawn on the server, for both pages.
    bob.click("#actions [data-action='decline-draw']")
    expect(alice.locator("#draw-offer")).to_have_text("")
    expect(bob.locator("#draw-offer")).to_have_text("")
    expect(bob.locator("#actions [data-action='draw']")).to_have_text("Offer a draw")
    expect(alice.locator("#actions [data-action='draw']")).to_have_text("Offer a draw")
    declined = document(api, game_id)
    assert declined["status"] == "playing" and declined["draw_offer"] == []
    # Bob moves; Light offers again and Dark accepts.
    bob.click("#board [data-key='1d4'].target")
    expect(alice.locator("#moves [data-ply='2']")).to_have_text("1d4")
    alice.click("#actions [data-action='draw']")
    expect(bob.locator("#actions [data-action='draw']")).to_have_text("Accept the draw")
    bob.click("#actions [data-action='draw']")
    for player in (alice, bob):
        expect(player.locator("#result")).to_be_visible()
        expect(player.locator("#result")).to_have_text("Draw — by agreement")
        expect(player.locator("#turn")).to_contain_text("Game over")
    assert document(api, game_id)["result"]["winners"] == []

    # Alice asks for a rematch and lands in the new game, waiting for Bob...
    alice.click("#actions [data-action='rematch']")
    alice.wait_for_url(lambda url: game_id not in url)
    alice.wait_for_selector("body[data-ready]")
    new_id = alice.url.rsplit("/", 1)[-1].split("?")[0]
    expect(alice.locator("#turn")).to_contain_text("Waiting for players")
    # ... whose page offers to join it; both then play the new game, seats turned.
    expect(bob.locator("#actions [data-action='rematch']")).to_have_text("Join the rematch")
    bob.click("#actions [data-action='rematch']")
    bob.wait_for_url(f"**/play/{new_id}")
    bob.wait_for_selector("body[data-ready]")
    expect(bob.locator("#turn")).to_contain_text("You play: Light")
    expect(alice.locator("#turn")).to_contain_text("You play: Dark")
    wait_my_turn(bob)
    bob.click("#board [data-key='1a1'].target")
    expect(alice.locator("#moves [data-ply='1']")).to_have_text("1a1")
    rematch = document(api, new_id)
    assert rematch["status"] == "playing" and rematch["rematch_of"] == game_id
    assert [seat["kind"] for seat in rematch["seats"]] == ["human", "human"]


def test_a_finished_game_is_replayed_move_by_move(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "human"])
    game_id, tokens = created["id"], [token_of(created, 0), token_of(created, 1)]
    moves = ["1a1", "1d4", "1b1", "1c4"]
    for ply, move in enumerate(moves):
        answer = api.post(f"/api/games/{game_id}/moves", json={"move": move},
                          headers={"Authorization": f"Bearer {tokens[ply % 2]}"})
        assert answer.status_code == 200, answer.text
    api.post(f"/api/games/{game_id}/seats/0/resign", headers={"Authorization": f"Bearer {tokens[0]}"})

    asked: list[str] = []

    def note(request: Request) -> None:
        if "/replay/" in request.url:
            asked.append(request.url.rsplit("/", 1)[-1])

    page.on("request", note)
    open_seat(page, game_id)  # a spectator: the page saw no position but the last one
    replay = page.locator("#replay")
    expect(replay).to_be_visible()
    expect(page.locator("#replay-at")).to_have_text("Position after 4 of 4 moves")
    board_cell = "#board [role][data-key='{}']"

    def at(ply: int) -> None:
        expect(page.locator("#replay-at")).to_have_text(f"Position after {ply} of 4 moves")
        current = page.locator("#moves .current")
        if ply in (0, len(moves)):
            expect(current).to_have_count(0)
        else:
            expect(current).to_have_attribute("data-ply", str(ply))
        for index, move in enumerate(moves):
            expect(page.locator(board_cell.format(move))).to_have_count(1 if index < ply else 0)
        last = page.locator("#board [role].last")
        if ply:
            expect(last).to_have_attribute("data-key", moves[ply - 1])
        else:
            expect(last).to_have_count(0)

    replay.get_by_role("button", name="Previous move").click()
    at(3)
    replay.get_by_role("button", name="Previous move").click()
    at(2)
    replay.get_by_role("button", name="Next move").click()
    at(3)
    replay.get_by_role("button", name="Start").click()
    at(0)
    page.locator("#moves [data-ply='1']").click()
    at(1)
    replay.get_by_role("button", name="End").click()
    at(4)
    # The arrow keys step through the replay too.
    page.keyboard.press("ArrowLeft")
    at(3)
    page.keyboard.press("Home")
    at(0)
    page.keyboard.press("ArrowRight")
    at(1)
    page.keyboard.press("End")
    at(4)
    assert sorted(set(asked)) == ["0", "1", "2", "3"]  # each position asked once, from the server
    # The buttons' icons are drawn (SVG), not glyphs that Debian's fonts show as empty boxes.
    for button in replay.get_by_role("button").all():
        assert button.locator("svg").count() == 1 and button.inner_text().strip() == ""
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_takeback_against_a_bot(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "bot:random"])
    open_seat(page, created["id"], token_of(created, 0))
    wait_my_turn(page)
    expect(page.locator("#actions [data-action='takeback']")).to_have_count(0)  # nothing to take back
    page.click("#board [data-key='1a1'].target")
    expect(page.locator("#moves [data-ply='2']")).to_be_visible(timeout=15_000)  # the bot answered
    wait_my_turn(page)
    page.click("#actions [data-action='takeback']")
    expect(page.locator("#moves [data-ply]")).to_have_count(0)
    wait_my_turn(page)
    assert document(api, created["id"])["moves"] == []
    # The page plays on from the position taken back.
    page.click("#board [data-key='1b1'].target")
    expect(page.locator("#moves [data-ply='1']")).to_have_text("1b1")
    assert moves_shown(page)[0] == "1b1"


def test_resigning_asks_for_confirmation(new_context: Any, api: httpx.Client) -> None:
    game_id, alice, bob = two_players(new_context, api)
    alice.click("#actions [data-action='ask-resign']")
    expect(alice.locator("#actions .confirm")).to_have_text("Resign this game?")
    alice.click("#actions [data-action='keep-playing']")  # changed her mind
    expect(alice.locator("#actions [data-action='ask-resign']")).to_be_visible()
    assert document(api, game_id)["status"] == "playing"
    alice.click("#actions [data-action='ask-resign']")
    alice.click("#actions [data-action='resign']")
    expect(alice.locator("#result")).to_have_text("You lost — Light resigned")
    expect(bob.locator("#result")).to_have_text("You won — Light resigned")
    assert document(api, game_id)["result"]["winners"] == [1]


def test_no_draw_is_offered_to_a_bot(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "bot:random"])
    open_seat(page, created["id"], token_of(created, 0))
    wait_my_turn(page)
    expect(page.locator("#actions [data-action='ask-resign']")).to_be_visible()
    expect(page.locator("#actions [data-action='draw']")).to_have_count(0)
