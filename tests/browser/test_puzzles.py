"""The puzzles page (``/puzzles/<game>``) in Chromium: a Pylos puzzle of several steps solved by
clicks on the board (the line's replies shown between), the rating change shown at the end, a
wrong answer typed in notation on the next puzzle, axe-core clean at every step, in English and
in French."""

from __future__ import annotations

import contextlib
from typing import Any

import httpx
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from ludotheque import puzzles

from .axe import assert_no_violation


def click_move(page: Page, game: str, move: str, view: dict[str, Any]) -> None:
    """Choose ``move`` by clicks only, as the game's board module splits it (its ``paths``): each
    token on its highlighted board element, or on the button (or list) the page offers for it."""
    script = """async ([url, move, view]) => {
      const board = await import(url);
      return board.paths(move, view)[0].map((token) => ({ token, key: board.keyOf(token) }));
    }"""
    for entry in page.evaluate(script, [f"/static/games/{game}.js", move, view]):
        token, key = entry["token"], entry["key"]
        button = page.locator(f'#choices button[data-token="{token}"]')
        if key is not None:
            cell = page.locator(f'#board [data-key="{key}"].target')
            if cell.count() == 0:
                continue  # chosen already (the board's forced first click)
            cell.first.click()
            if button.count() > 0:
                button.first.click()
        elif button.count() > 0:
            button.first.click()
        else:
            page.locator("#choices select").select_option(token)
    finish = page.locator("#choices button.finish")
    with contextlib.suppress(PlaywrightTimeout):
        if finish.count() > 0:
            finish.first.click(timeout=3000)


def test_a_puzzle_is_solved_by_clicks_and_the_rating_moves(page: Page, api: httpx.Client) -> None:
    puzzle = next(p for p in puzzles.load_puzzles("pylos").puzzles if puzzles.steps(p) > 1)
    page.goto(f"/puzzles/pylos?lang=en&id={puzzle.id}")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#puzzle-name")).to_have_text(f"Puzzle {puzzle.id}")
    expect(page.locator("#puzzle-task")).to_contain_text("only winning move")
    assert_no_violation(page, "pylos puzzle, first step")
    plies = puzzles.solver_plies(puzzle)
    for step, index in enumerate(plies):
        view = puzzles.state_at(puzzle, step).view(puzzle.solver)
        if step == 0:  # the page shows the API's view, which is the solver's
            assert api.get(f"/api/puzzles/pylos/{puzzle.id}").json()["view"] == view
        click_move(page, "pylos", puzzle.line[index], view)
        if step < len(plies) - 1:
            expect(page.locator("#verdict.right")).to_contain_text("Reply")
            assert_no_violation(page, f"pylos puzzle, step {step + 1} right")
    expect(page.locator("#verdict.right")).to_contain_text("Solved")
    expect(page.locator("#solution")).to_contain_text(" ".join(puzzle.line))
    expect(page.locator("#rating-change")).to_contain_text("Rating: ")
    expect(page.locator("#rating-change")).to_contain_text("+")
    expect(page.locator("#next-button")).to_be_focused()
    assert_no_violation(page, "pylos puzzle solved")
    # The next puzzle, near the new rating: a wrong answer typed in notation fails it.
    page.click("#next-button")
    expect(page.locator("#puzzle-name")).not_to_have_text(f"Puzzle {puzzle.id}")
    shown = page.locator("#puzzle-name").inner_text().removeprefix("Puzzle ")
    other = puzzles.load_puzzles("pylos").by_id(shown)
    state = puzzles.position(other)
    wrong = next(str(m) for m in state.legal_moves()
                 if str(m) != other.line[0] and not state.play(m).is_over)
    page.fill("#move-text", wrong)
    page.click("#move-form button[type=submit]")
    expect(page.locator("#verdict.wrong")).to_contain_text(wrong)
    expect(page.locator("#rating-change")).to_contain_text("−")
    assert_no_violation(page, "pylos puzzle failed")
    assert page.errors == []  # type: ignore[attr-defined]


def test_the_page_reads_in_french_and_names_a_game_without_puzzles(page: Page) -> None:
    page.goto("/puzzles/pylos?lang=fr")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("h1")).to_have_text("Problèmes — Pylos")
    expect(page.locator("#puzzle-name")).to_contain_text("Problème pylos-")
    expect(page.locator("#person-rating")).to_contain_text("1500")
    assert_no_violation(page, "pylos puzzles in French")
    answer = page.goto("/puzzles/chess")
    assert answer is not None and answer.status == 404
    expect(page.locator("main")).to_contain_text("chess")
