"""The lessons page (``/learn/<game>``) in Chromium, for every game with a course, in French and in
English: each step answered first with a wrong move then with a right one (``lessons.right_moves``),
both chosen by clicking on the board (and the buttons it offers), axe-core clean at every step;
the progress resumes after a reload; the last step starts a game against the ``easy`` bot and opens
its page. Winning that game in the browser is not needed here: the server's check of a won game is
tested in tests/server/test_lessons_api.py."""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from ludotheque import lessons
from tests.support.server import ServerProcess

from .axe import assert_no_violation
from .conftest import UNLIMITED

ROOT = Path(__file__).resolve().parents[2]
FACTORY = "ludotheque.server.app:app_from_env"
COURSES = list(lessons.courses())


class LessonServer(ServerProcess):
    """The real server with the lessons' routes, in its own process."""

    def start(self, timeout: float = 60.0) -> LessonServer:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env, "LUDOTHEQUE_DB": self.db_url}
        command = [sys.executable, "-m", "uvicorn", "--factory", FACTORY, "--host", self.host,
                   "--port", str(self.port)]
        with self._log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        self._wait_ready(timeout)
        return self


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    database = Path(tmp_path_factory.mktemp("learn-db")) / "games.db"
    with LessonServer(f"sqlite:///{database}", env=UNLIMITED) as running:
        yield running


def wrong_move(step: lessons.Step) -> str:
    """A legal move judged wrong (the first in legal order)."""
    _, state = lessons.rebuild(step)
    right = set(lessons.right_moves(step, state))
    return next(str(move) for move in state.legal_moves() if str(move) not in right)


def right_move(step: lessons.Step) -> str:
    _, state = lessons.rebuild(step)
    return lessons.right_moves(step, state)[0]


def tokens_of(page: Page, game: str, move: str, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The clicks of ``move`` as the game's own board module splits it (its ``paths``), each with
    the board element's key (``None``: a button)."""
    script = """async ([url, move, view]) => {
      const board = await import(url);
      return board.paths(move, view)[0].map((token) => ({ token, key: board.keyOf(token) }));
    }"""
    found: list[dict[str, Any]] = page.evaluate(script, [f"/static/games/{game}.js", move, view])
    return found


def click_move(page: Page, game: str, move: str, view: dict[str, Any]) -> None:
    """Choose ``move`` by clicks only: each token on its board element (a highlighted one), or on
    the button (or in the list) the page offers for it; a token the page chose by itself (a
    forced first click) is skipped."""
    for entry in tokens_of(page, game, move, view):
        token, key = entry["token"], entry["key"]
        button = page.locator(f'#choices button[data-token="{token}"]')
        if key is not None:
            cell = page.locator(f'#board [data-key="{key}"].target:not(.mini)')
            if cell.count() == 0:
                cell = page.locator(f'#board [data-key="{key}"].target')
            if cell.count() == 0:
                continue  # chosen already (the board's forced first click)
            cell.first.click()
            if button.count() > 0:  # one cell, several meanings: the page asks which
                button.first.click()
        elif button.count() > 0:
            button.first.click()
        else:
            page.locator("#choices select").select_option(token)
    # A move that may go on (a second ball to take back) waits for "Finish here".
    verdict = page.locator("#verdict.right, #verdict.wrong")
    expect(page.locator("#verdict.right, #verdict.wrong, #choices button.finish").first).to_be_visible()
    if verdict.count() == 0:
        # The answer may go meanwhile (its verdict replaces the button): fine.
        with contextlib.suppress(PlaywrightTimeout):
            page.locator("#choices button.finish").first.click(timeout=3000)


def lesson_data(api: httpx.Client, game: str, lang: str) -> dict[str, Any]:
    answer = api.get(f"/api/lessons/{game}?lang={lang}")
    assert answer.status_code == 200, answer.text
    data: dict[str, Any] = answer.json()
    return data


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("game", COURSES)
def test_a_course_is_completed_by_clicking_and_its_game_starts_against_easy(
    new_context: Any, api: httpx.Client, game: str, lang: str
) -> None:
    course = lessons.load_course(game)
    data = lesson_data(api, game, lang)
    page = new_context(lang).new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"/learn/{game}?lang={lang}")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    assert_no_violation(page, f"{game} ({lang}), first step")
    for number, step in enumerate(course.steps[:-1]):
        shown = data["steps"][number]
        expect(page.locator("#step-title")).to_have_text(step.title[lang])
        expect(page.locator("#task-text")).to_have_text(step.task[lang])
        click_move(page, game, wrong_move(step), shown["view"])
        expect(page.locator("#verdict.wrong")).to_contain_text(step.wrong[lang])
        assert_no_violation(page, f"{game} ({lang}), step {step.id}, wrong answer")
        page.click("#again-button")
        if number == 0:
            page.click("#hint-button")
            expect(page.locator("#hint-text")).to_contain_text(step.words("hint", lang) or step.task[lang])
        click_move(page, game, right_move(step), shown["view"])
        expect(page.locator("#verdict.right")).to_contain_text(step.right[lang])
        expect(page.locator(f'#course-steps [data-step="{step.id}"]')).to_contain_text(
            "faite" if lang == "fr" else "done")
        assert_no_violation(page, f"{game} ({lang}), step {step.id}, right answer")
        page.click("#next-button")
    # Progress is kept: a reload resumes at the game, the last step.
    page.goto(f"/learn/{game}?lang={lang}")
    page.wait_for_selector("body[data-ready]")
    last = course.steps[-1]
    expect(page.locator("#step-title")).to_have_text(last.title[lang])
    expect(page.locator("#course-progress")).to_contain_text(f"{len(course.steps) - 1}")
    assert_no_violation(page, f"{game} ({lang}), the game step")
    page.click("#start-game")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("body[data-ready]")
    game_id = page.url.rstrip("/").split("/play/")[1].split("?")[0]
    doc = api.get(f"/api/games/{game_id}").json()
    assert doc["game"] == game and doc["status"] in ("playing", "over")
    kinds = [(seat.get("kind"), seat.get("level")) for seat in doc["seats"]]
    assert kinds[last.seat][0] == "human" and all(
        kind == ("bot", last.opponent) for number, kind in enumerate(kinds) if number != last.seat), kinds
    # Back on the lessons, the game in progress is named, with a link to it.
    page.goto(f"/learn/{game}?lang={lang}")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator(f'#game-status a[href="/play/{game_id}"]')).to_be_visible()
    assert_no_violation(page, f"{game} ({lang}), the game in progress")
    assert errors == []


def test_the_keyboard_alone_answers_a_step(new_context: Any) -> None:
    page = new_context("en").new_page()
    page.goto("/learn/pylos?lang=en&step=1")
    page.wait_for_selector("body[data-ready]")
    page.locator("#board [data-key][tabindex='0']").first.focus()
    for _ in range(20):  # arrow keys to a centre cell, Enter to choose it
        key = page.evaluate("document.activeElement.dataset.key")
        if key in ("1b2", "1c2", "1b3", "1c3"):
            break
        page.keyboard.press("ArrowRight" if key and key[1] == "a" else "ArrowUp")
    page.keyboard.press("Enter")
    expect(page.locator("#verdict.right")).to_be_visible()
    expect(page.locator("#next-button")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page.locator("#step-title")).to_be_focused()
    page.locator("#move-text").fill("zz")
    page.keyboard.press("Enter")
    expect(page.locator("#message")).not_to_be_empty()


def test_the_lobby_and_the_rules_pages_link_to_the_lessons(page: Page) -> None:
    page.goto("/?lang=en")
    for game in COURSES:
        link = page.locator(f'.game-card[data-game="{game}"] a[href="/learn/{game}"]')
        expect(link).to_have_text("Lessons")
    page.goto("/rules/pylos?lang=fr")
    page.click('a[href="/learn/pylos"]')
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("h1")).to_have_text("Leçons — Pylos")
    page.goto("/learn/chess")
    expect(page.locator("main")).to_contain_text("chess")


def test_a_lost_lesson_game_leads_back_to_the_lesson_which_offers_another(new_context: Any) -> None:
    last = lessons.load_course("pylos").steps[-1]
    page = new_context("en").new_page()
    page.goto(f"/learn/pylos?lang=en&step={len(lessons.load_course('pylos').steps)}")
    page.wait_for_selector("body[data-ready]")
    page.click("#start-game")
    page.wait_for_url(re.compile(r"/play/"))
    page.wait_for_selector("body[data-ready]")
    page.click("[data-action=ask-resign]")
    page.click("[data-action=resign]")
    page.click("#result .lesson-link")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#game-status .verdict.wrong")).to_contain_text(last.wrong["en"])
    expect(page.locator("#start-game")).to_have_text("Play again against the easy bot")
    assert_no_violation(page, "a lost lesson game")
