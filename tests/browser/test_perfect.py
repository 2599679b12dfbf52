"""Perfect play in Chromium: the lobby offers the ``perfect`` level for Pylos under the kids rules
where the server has its tables (and says plainly when it has not), a game against it plays, and
a "win in N" puzzle drawn from the tables is solved on ``/puzzles/pylos?source=tables``, typed in
notation. ``LUDOTHEQUE_SHOTS=<folder>`` keeps a screenshot of each page there (to look at them)."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from playwright.sync_api import Page, expect

from ludotheque import puzzles
from ludotheque.engines.pylos import perfect

from .axe import assert_no_violation

# The browser's server runs on this machine's data folder: its tables are these.
SOLVED_HERE = perfect.available("kids")


def shot(page: Page, name: str) -> None:
    folder = os.environ.get("LUDOTHEQUE_SHOTS")
    if folder:
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def test_the_lobby_offers_perfect_only_where_the_tables_are(page: Page) -> None:
    page.goto("/?lang=en&game=pylos")
    page.locator("#form-variant").select_option("kids")
    note = page.locator("#form-perfect")
    options = page.locator('#form-seats select[data-seat="1"] option[value="bot:perfect"]')
    if SOLVED_HERE:
        expect(note).to_contain_text("never errs")
        expect(options).to_have_count(1)
        page.locator('#form-seats select[data-seat="1"]').select_option("bot:perfect")
    else:
        expect(note).to_contain_text("not available on this server")
        expect(options).to_have_count(0)
    page.locator("#form-variant").select_option("standard")
    if not perfect.available("standard"):
        expect(note).to_contain_text("not available on this server")
    assert_no_violation(page, "the lobby's new-game form, Pylos")
    shot(page, "lobby")


def test_a_win_in_n_puzzle_of_the_tables_is_solved_by_typing(page: Page) -> None:
    page.goto("/puzzles/pylos?lang=fr&source=tables")
    expect(page.locator("#puzzle-task")).to_contain_text("Gagnez en")
    expect(page.locator("#puzzle-source")).to_have_value("tables")
    shown = page.url.split("id=")[1].split("&")[0]
    puzzle = puzzles.load_puzzles("pylos").by_id(shown)
    assert puzzle.source == "tables" and puzzle.variant == "kids"
    expect(page.locator("#puzzle-task")).to_contain_text(f"Gagnez en {puzzle.plies} coups")
    shot(page, "puzzle")
    for index in puzzles.solver_plies(puzzle):
        page.locator("#move-text").fill(puzzle.line[index])
        page.locator("#move-form button[type=submit]").click()
        expect(page.locator("#move-text")).to_have_value("")
    expect(page.locator("#verdict")).not_to_be_empty()
    expect(page.locator("#solution")).to_be_visible()
    assert_no_violation(page, "a solved puzzle of the tables")
    shot(page, "puzzle-solved")
    errors: Any = page.errors  # type: ignore[attr-defined]
    assert errors == []
