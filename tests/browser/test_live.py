"""Two people play a live game in two browsers while a third watches; keyboard and typed moves."""

from __future__ import annotations

import httpx
from playwright.sync_api import Page, expect

from .helpers import create, document, moves_shown, open_seat, token_of


def test_two_browsers_play_and_a_third_watches(new_context, api: httpx.Client) -> None:  # type: ignore[no-untyped-def]
    created = create(api, "pylos", ["human", "open"])
    game_id = created["id"]
    alice = new_context().new_page()
    bob = new_context().new_page()
    carol = new_context().new_page()
    open_seat(alice, game_id, token_of(created, 0))
    open_seat(bob, game_id)
    bob.click("#join button.join-seat")
    expect(bob.locator("#turn")).to_contain_text("You play: Dark")
    open_seat(carol, game_id)
    expect(carol.locator("#turn")).to_contain_text("You are watching")

    alice.click("#board [data-key='1a1'].target")
    for viewer in (alice, bob, carol):
        expect(viewer.locator("#moves [data-ply='1']")).to_have_text("1a1")
    expect(bob.locator("#turn.my-turn")).to_be_visible()
    assert carol.locator("#board .target").count() == 0  # a spectator gets no legal moves

    bob.click("#board [data-key='1d4'].target")
    for viewer in (alice, bob, carol):
        expect(viewer.locator("#moves [data-ply='2']")).to_have_text("1d4")
    assert document(api, game_id)["moves"] == ["1a1", "1d4"]


# The key of the focused board cell ("board": the board itself), or null when the focus is elsewhere.
FOCUSED_KEY = "(e => e.closest('#board') ? (e.dataset.key ?? 'board') : null)(document.activeElement)"


def test_keyboard_alone_and_typed_notation(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "human"])
    open_seat(page, created["id"], token_of(created, 0))
    # Tab into the board: one cell is in the Tab order, the first that can be played.
    for _ in range(60):
        page.keyboard.press("Tab")
        if page.evaluate(FOCUSED_KEY):
            break
    assert page.evaluate(FOCUSED_KEY) == "1a1"
    assert page.evaluate("document.activeElement.getAttribute('aria-label')").startswith("1a1")
    # The arrow keys walk from cell to cell (rank 1 is at the bottom); Enter plays the cell.
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_KEY) == "1b1"
    page.keyboard.press("ArrowUp")
    assert page.evaluate(FOCUSED_KEY) == "1b2"
    page.keyboard.press("Enter")
    expect(page.locator("#moves [data-ply='1']")).to_have_text("1b2")
    # The focus stays on the board, on the cell just played, for the next move.
    assert page.evaluate(FOCUSED_KEY) == "1b2"
    # Typed notation, spaces and case as a person types them, for the next seat.
    second = page.context.new_page()
    open_seat(second, created["id"], token_of(created, 1))
    second.fill("#move-text", " 1 D 4 ")
    second.keyboard.press("Enter")
    expect(second.locator("#moves [data-ply='2']")).to_have_text("1d4")
    # Back to the first page: still on the board, it plays on with the keyboard alone.
    page.wait_for_selector("#turn.my-turn")
    assert page.evaluate(FOCUSED_KEY) == "1b2"
    page.keyboard.press("ArrowRight")
    assert page.evaluate(FOCUSED_KEY) == "1c2"
    page.keyboard.press("Enter")
    expect(page.locator("#moves [data-ply='3']")).to_have_text("1c2")
    # A refused text leaves the game unchanged and says why.
    second.wait_for_selector("#turn.my-turn")
    second.fill("#move-text", "9z9")
    second.keyboard.press("Enter")
    expect(second.locator("#message")).to_contain_text("9z9")
    assert moves_shown(second) == ["1b2", "1d4", "1c2"]


def test_every_board_element_has_a_label(page: Page, api: httpx.Client) -> None:
    # Every cell of the start position: Pylos' 16 level-1 cells, 8×8, Ex*Pion's 77, Plimil's 44.
    for game, cells in [("pylos", 16), ("imbrication", 64), ("expion", 77), ("plimil", 44)]:
        created = create(api, game, ["human", "human"])
        open_seat(page, created["id"], token_of(created, 0))
        unlabelled = page.locator("#board [data-key]:not([aria-label]):not([aria-hidden])").count()
        assert unlabelled == 0, game
        assert page.locator("#board [data-key][aria-label]").count() == cells, game
