"""The lobby's form names each seat by the side it plays, from the game's own board module, and
says what the game's seating means where it matters (Ex*Pion with 3 players)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page, expect


def seat_names(page: Page) -> list[str]:
    return page.locator("#form-seats [data-seat-name]").all_inner_texts()


def open_form(page: Page, game: str, lang: str) -> None:
    page.goto(f"/?lang={lang}&game={game}")
    page.wait_for_selector("body[data-ready]")


def test_seats_are_named_by_side_and_the_three_player_seating_is_explained(page: Page) -> None:
    open_form(page, "pylos", "en")
    expect(page.locator("#form-seats legend")).to_have_text("Seats")
    expect(page.locator("#form-seats [data-seat-name='1']")).to_have_text("Seat 2 — Dark")
    assert seat_names(page) == ["Seat 1 — Light", "Seat 2 — Dark"]
    note = page.locator("#form-seating")
    expect(note).to_be_hidden()
    page.select_option("#form-game", "expion")
    page.select_option("#form-players", "3")
    expect(page.locator("#form-seats [data-seat-name='2']")).to_have_text("Seat 3 — West")
    assert seat_names(page) == ["Seat 1 — North and South", "Seat 2 — East", "Seat 3 — West"]
    expect(note).to_be_visible()
    expect(note).to_contain_text("at equal strength North and South nearly always win")
    page.select_option("#form-players", "4")
    expect(page.locator("#form-seats [data-seat-name='3']")).to_have_text("Seat 4 — West")
    assert seat_names(page) == ["Seat 1 — North", "Seat 2 — East", "Seat 3 — South", "Seat 4 — West"]
    expect(note).to_be_hidden()
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_seats_and_the_note_in_french(new_context: Any) -> None:
    page = new_context("fr").new_page()
    open_form(page, "expion", "fr")
    page.select_option("#form-players", "3")
    expect(page.locator("#form-seats legend")).to_have_text("Places")
    expect(page.locator("#form-seats [data-seat-name='0']")).to_have_text("Place 1 — Nord et Sud")
    assert seat_names(page) == ["Place 1 — Nord et Sud", "Place 2 — Est", "Place 3 — Ouest"]
    expect(page.locator("#form-seating")).to_contain_text("Donnez-les au joueur le moins fort")
    page.select_option("#form-players", "2")
    expect(page.locator("#form-seats [data-seat-name='1']")).to_have_text("Place 2 — Est et Ouest")
    expect(page.locator("#form-seating")).to_be_hidden()
