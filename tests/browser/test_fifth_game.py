"""The fifth game (Nim, ``tests/extension``) in Chromium, on a server started with it installed:
the lobby names it, and its game page draws it with the generic board (the view as text, the
legal moves as buttons), takes a move, and says its result in the words Nim's ``GameInfo``
declares (through ``/api/catalog``), in French; axe-core finds nothing to fix."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from playwright.sync_api import Browser, ViewportSize, expect

from tests.extension.install import installed
from tests.support.server import ServerProcess

from .axe import assert_no_violation
from .helpers import create, fact, moves_shown, open_seat, play_moves, token_of


@pytest.fixture(scope="module")
def nim_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    site = tmp_path_factory.mktemp("site")
    database = Path(tmp_path_factory.mktemp("nim-db")) / "games.db"
    with installed(site, "ludotheque_nim") as env, ServerProcess(f"sqlite:///{database}", env=env) as server:
        yield server


def test_the_fifth_game_plays_on_the_generic_board(browser: Browser, nim_server: ServerProcess) -> None:
    viewport: ViewportSize = {"width": 1280, "height": 900}
    context = browser.new_context(base_url=nim_server.url, locale="fr-FR", viewport=viewport)
    context.set_default_timeout(15_000)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    page.goto("/?lang=fr")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator('.game-card[data-game="nim"] h2')).to_have_text("Nim")
    expect(page.locator('#form-game option[value="nim"]')).to_have_text("Nim")
    page.select_option("#form-game", "nim")
    expect(page.locator("#form-variant option")).to_have_text(["standard", "misère (la dernière perd)"])

    with httpx.Client(base_url=nim_server.url, timeout=30) as api:
        created = create(api, "nim", ["human", "human"], variant="misere")
        open_seat(page, created["id"], token_of(created, 0), lang="fr")
        expect(page.locator("#game-title")).to_have_text("Nim")
        expect(page.locator("#board .generic-view")).to_contain_text("heaps")
        expect(fact(page, "Variante")).to_have_text("misère (la dernière perd)")
        expect(fact(page, "Phase")).to_have_text("jeu")
        legal = api.get(f"/api/games/{created['id']}",
                        headers={"Authorization": f"Bearer {token_of(created, 0)}"}).json()["legal_moves"]
        buttons = page.locator("#board button.generic-move")
        expect(buttons).to_have_text(legal)
        assert_no_violation(page, "Nim on the generic board")
        buttons.first.focus()
        page.keyboard.press("Enter")
        expect(page.locator("#moves [data-ply]")).to_have_count(1)
        assert moves_shown(page) == [legal[0]]
        play_moves(api, created, random.Random(4).choice)
    expect(page.locator("#result")).to_contain_text("Joueur ")
    expect(page.locator("#result")).to_contain_text(" a dû prendre la dernière allumette")
    assert_no_violation(page, "Nim over")
    page.goto("/rules/nim")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#rules-title")).to_have_text("Règles — Nim")
    expect(page.locator("#rules-body h2").first).to_have_text("Matériel")
    assert errors == []
    context.close()
