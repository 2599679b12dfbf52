"""The tournaments in Chromium: a player creates a practice Swiss tournament with the form of
``/tournaments``, joins it and enters a bot from its page; another player joins from the same page;
the creator starts it; both see their game of round 1 ("your game is ready", linked), play it in
the browser (a move, then a resignation); the standings show the result, round 2 starts (the
winner against the bot, the loser's bye) with a browser notification, and after it the winner is
announced. An arena made with the same form: its time left, both players paired at once and again
after their game, a pause and a return, in English and French. axe-core is clean on the pages,
in the light theme and the dark one."""

from __future__ import annotations

import itertools
import os
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.support.server import ServerProcess

from .axe import assert_no_violation
from .conftest import UNLIMITED
from .helpers import click_one_move

ROOT = Path(__file__).resolve().parents[2]
FACTORY = "ludotheque.server.app:app_from_env"
PASSWORD = "correct horse"
# What the pages see live (a poll every 3 s, the server pairing the next round): more than expect's 5 s.
LIVE_MS = 15_000
_names = itertools.count(1)
# Records every browser notification the page shows (Chromium's own would need a desktop).
RECORD_NOTIFICATIONS = """
window.__notifications = [];
const Real = window.Notification;
class Recorded extends Real {
  constructor(title, options) {
    super(title, options);
    window.__notifications.push({title, body: options?.body});
  }
}
Object.defineProperty(Recorded, "permission", { get: () => Real.permission });
Recorded.requestPermission = (...args) => Real.requestPermission(...args);
window.Notification = Recorded;
"""


class TournamentServer(ServerProcess):
    """The real server with the tournaments' routes."""

    def start(self, timeout: float = 60.0) -> TournamentServer:
        env = {**os.environ, "PYTHONUNBUFFERED": "1", **self.env, "LUDOTHEQUE_DB": self.db_url}
        command = [sys.executable, "-m", "uvicorn", "--factory", FACTORY, "--host", self.host,
                   "--port", str(self.port)]
        with self._log.open("ab") as log:
            self.process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, env=env, cwd=ROOT)
        self._wait_ready(timeout)
        return self


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    database = Path(tmp_path_factory.mktemp("tournaments-db")) / "games.db"
    with TournamentServer(f"sqlite:///{database}", env=UNLIMITED) as running:
        yield running


def signed_up(new_context: Any, prefix: str) -> tuple[BrowserContext, str]:
    """A browser whose person is a new player (signed up through the API, sharing its cookies)."""
    context: BrowserContext = new_context()
    name = f"{prefix}{next(_names)}x{os.getpid() % 9973}"
    answer = context.request.post("/api/account/signup", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    return context, name


def open_page(page: Page, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("body[data-ready]")


def axe_in_both_themes(page: Page, moment: str) -> None:
    """axe-core on the page as it is, in the light theme and in the dark one (then light again)."""
    switch = page.locator("[data-theme-switch]")
    for theme in ("light", "dark"):
        if page.locator("html").get_attribute("data-theme") != theme:
            switch.click()
        expect(page.locator("html")).to_have_attribute("data-theme", theme)
        assert_no_violation(page, f"{moment}, {theme} theme")
    switch.click()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")


def standing(page: Page, name: str) -> list[str]:
    """The cells of ``name``'s row of the standings: rank, points, Buchholz, SB, games, rating."""
    row = page.locator("#standings tbody tr", has=page.locator("th", has_text=name))
    return [cell.strip() for cell in row.locator("td").all_inner_texts()]


def whose_turn(*pages: Page) -> Page:
    """The page, of ``pages`` showing the same game, whose seat is to move."""
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        for page in pages:
            if page.locator("#turn.my-turn").count():
                return page
        pages[0].wait_for_timeout(100)
    raise AssertionError("nobody's turn")


def resign(page: Page) -> None:
    page.click("#actions [data-action='ask-resign']")
    page.click("#actions [data-action='resign']")
    expect(page.locator("#actions [data-action='ask-resign']")).to_have_count(0)


def test_two_players_join_a_tournament_and_play_its_rounds(new_context: Any) -> None:
    ada_context, ada_name = signed_up(new_context, "Ada")
    bob_context, bob_name = signed_up(new_context, "Bob")
    ada_context.grant_permissions(["notifications"])
    ada_context.add_init_script(RECORD_NOTIFICATIONS)
    ada, bob = ada_context.new_page(), bob_context.new_page()
    errors: list[str] = []
    for viewer in (ada, bob):
        viewer.on("pageerror", lambda error: errors.append(str(error)))

    # The tournaments page: Ada's form (a signed-in player), axe-clean in both themes.
    open_page(ada, "/tournaments?lang=en")
    expect(ada.locator("#tournament-form")).to_be_visible()
    axe_in_both_themes(ada, "the tournaments page")
    ada.fill("#form-name", "Night owls")
    ada.select_option("#form-game", "pylos")
    ada.fill("#form-rounds", "2")
    ada.click("#tournament-form button[type=submit]")
    ada.wait_for_url(re.compile(r"/tournaments/[^/?]+$"))
    ada.wait_for_selector("body[data-ready]")
    tournament_url = ada.url
    expect(ada.locator("#tournament-name")).to_have_text("Night owls")
    expect(ada.locator("#tournament-facts")).to_contain_text("2 rounds")
    expect(ada.locator("#tournament-status")).to_contain_text("Upcoming")

    # Ada joins and enters a bot; Bob joins from the same page; the lists show it.
    ada.click("#join-button")
    expect(ada.locator("#entries li.mine")).to_contain_text(f"{ada_name} (you)")
    ada.select_option("#bot-level", "random")
    ada.click("#bot-form button[type=submit]")
    expect(ada.locator("#entries li")).to_have_count(2)
    axe_in_both_themes(ada, "an upcoming tournament, its creator's page")
    open_page(bob, "/tournaments?lang=en")
    expect(bob.locator("#sign-in-hint")).to_be_hidden()
    expect(bob.locator("#upcoming li", has_text="Night owls")).to_contain_text("2 entrants")
    bob.locator("#upcoming a", has_text="Night owls").click()
    bob.wait_for_selector("body[data-ready]")
    expect(bob.locator("#start-button")).to_be_hidden()
    bob.click("#join-button")
    expect(bob.locator("#leave-button")).to_be_visible()
    expect(ada.locator("#entries li")).to_have_count(3, timeout=LIVE_MS)  # live, without a reload
    expect(ada.locator("#entry-count")).to_have_text("3 entered, of 64 at most")

    # The creator starts it: both see their game of round 1, linked; the bot has the bye.
    ada.click("#start-button")
    for viewer, other in ((ada, bob_name), (bob, ada_name)):
        expect(viewer.locator("#your-game")).to_contain_text(
            f"Your game of round 1 is ready, against {other}.", timeout=LIVE_MS)
        expect(viewer.locator("#tournament-status")).to_contain_text("Round 1 of 2 is being played.")
    game_href = ada.locator("#your-game-link").get_attribute("href")
    assert game_href and game_href.startswith("/play/")
    assert bob.locator("#your-game-link").get_attribute("href") == game_href
    board = ada.locator("#rounds [data-round='1'] li.mine")
    expect(board).to_contain_text("being played")
    expect(board.locator("a")).to_have_attribute("href", game_href)
    expect(ada.locator("#rounds [data-round='1']")).to_contain_text("computer (random): bye (1 point)")
    axe_in_both_themes(bob, "a running tournament, a player's page")

    # They play it in the browser: the first to move plays a move, then Bob resigns.
    for viewer in (ada, bob):
        viewer.click("#your-game-link")
        viewer.wait_for_url(f"**{game_href}")
        viewer.wait_for_selector("body[data-ready]")
    click_one_move(whose_turn(ada, bob))
    open_page(ada, tournament_url)  # Ada waits on the tournament's page, her game still linked
    expect(ada.locator("#your-game-link")).to_have_attribute("href", game_href)
    resign(bob)

    # The standings show it, round 2 starts at once (Ada against the bot, Bob's bye), and Ada's
    # page tells her, with a browser notification.
    expect(ada.locator("#rounds [data-round='1'] li.mine")).to_contain_text(f"{ada_name} (you) won (1–0)",
                                                                            timeout=LIVE_MS)
    expect(ada.locator("#your-game")).to_contain_text(
        "Your game of round 2 is ready, against computer (random).", timeout=LIVE_MS)
    ada.wait_for_function("() => window.__notifications.length > 0")
    shown = ada.evaluate("window.__notifications")
    assert shown[0]["title"] == "Your tournament game is ready"
    assert shown[0]["body"] == "Night owls, round 2: your game has started."
    assert standing(ada, ada_name)[1] == "1"
    open_page(bob, tournament_url)
    expect(bob.locator("#your-game")).to_have_text(
        "Round 2: you have a bye (1 point); wait for the next round.")
    # Bob: the bye's point already; Buchholz: Ada's point; no win; one game.
    assert standing(bob, bob_name)[1:5] == ["1", "1", "0", "1"]  # points, Buchholz, SB, games

    # Ada plays round 2 (she resigns against the bot): the tournament is over, the winner announced.
    round_two = ada.locator("#your-game-link").get_attribute("href")
    assert round_two and round_two != game_href
    ada.click("#your-game-link")
    ada.wait_for_url(f"**{round_two}")
    ada.wait_for_selector("body[data-ready]")
    resign(ada)
    open_page(ada, tournament_url)
    winner = "The tournament is over: computer (random) wins it, with 2 points."
    for viewer in (ada, bob):
        expect(viewer.locator("#winner")).to_have_text(winner, timeout=LIVE_MS)
        expect(viewer.locator("#tournament-status")).to_contain_text("Finished on")
    # The bot 2 points; Ada and Bob 1 each, Ada ahead on Buchholz (her opponents scored 3, Bob's 1).
    ranks = ada.locator("#standings tbody tr th").all_inner_texts()
    assert ranks == ["computer (random)", f"{ada_name} (you)", bob_name]
    assert standing(ada, ada_name)[:5] == ["2", "1", "3", "1", "2"]
    expect(ada.locator("#rounds [data-round='2'] li.mine")).to_contain_text(
        re.compile(r"computer \(random\) won \((1–0|0–1)\)"))
    expect(ada.locator("#rounds [data-round='2'] li.mine a")).to_have_attribute("href", round_two)
    expect(ada.locator("#join-button")).to_be_hidden()
    axe_in_both_themes(ada, "a finished tournament")
    open_page(ada, "/tournaments?lang=en")
    expect(ada.locator("#finished li", has_text="Night owls")).to_contain_text("3 entrants")
    assert errors == []


def test_the_pages_in_french_and_the_lobbys_tournaments(new_context: Any) -> None:
    context, name = signed_up(new_context, "Zoe")
    created = context.request.post("/api/tournaments",
                                   data={"name": "Rondes du soir", "game": "pylos", "rounds": 3})
    assert created.status == 201, created.text()
    tournament_id = created.json()["id"]
    page = context.new_page()
    open_page(page, f"/tournaments/{tournament_id}?lang=fr")
    expect(page.locator("#tournament-facts")).to_contain_text("3 rondes")
    expect(page.locator("#entry-count")).to_have_text("0 inscrit, sur 64 au plus")
    page.click("#join-button")
    expect(page.locator("#entries li.mine")).to_contain_text(f"{name} (vous)")
    expect(page.locator("#entry-count")).to_have_text("1 inscrit, sur 64 au plus")
    page.click("#start-button")
    expect(page.locator("#tournament-message")).to_contain_text("Trop peu d'inscrits")
    open_page(page, "/?lang=fr")
    entry = page.locator(f"#lobby-tournaments li[data-tournament='{tournament_id}']")
    expect(entry).to_contain_text("Rondes du soir")
    expect(entry).to_contain_text("À venir")
    entry.locator("a").click()
    page.wait_for_url(f"**/tournaments/{tournament_id}")
    # A guest sees the lists but no create form.
    guest = new_context(lang="fr").new_page()
    open_page(guest, "/tournaments")
    expect(guest.locator("#tournament-form")).to_be_hidden()
    expect(guest.locator("#sign-in-hint")).to_be_visible()
    expect(guest.locator("#upcoming li", has_text="Rondes du soir")).to_contain_text("1 inscrit")


def test_two_players_in_an_arena(new_context: Any) -> None:
    """An arena made with the form: its time left counts down, both players are paired at once
    ("your arena game is ready"), the game's end pairs them again, a pause and a return; the
    page axe-clean while it runs, and in French."""
    ada_context, ada_name = signed_up(new_context, "Ada")
    bob_context, bob_name = signed_up(new_context, "Bob")
    ada, bob = ada_context.new_page(), bob_context.new_page()
    errors: list[str] = []
    for viewer in (ada, bob):
        viewer.on("pageerror", lambda error: errors.append(str(error)))
    open_page(ada, "/tournaments?lang=en")
    ada.fill("#form-name", "Quick arena")
    ada.select_option("#form-game", "pylos")
    ada.check("#form-system input[value='arena']")
    expect(ada.locator("#form-rounds")).to_be_hidden()
    ada.fill("#form-duration", "5")
    ada.click("#tournament-form button[type=submit]")
    ada.wait_for_url(re.compile(r"/tournaments/[^/?]+$"))
    ada.wait_for_selector("body[data-ready]")
    tournament_url = ada.url
    expect(ada.locator("#tournament-facts")).to_contain_text("arena of 5 minutes")
    expect(ada.locator("#tournament-status")).to_contain_text("An arena starts with whoever has joined")
    ada.click("#join-button")
    expect(ada.locator("#entries li.mine")).to_contain_text(f"{ada_name} (you)")
    ada.click("#start-button")
    expect(ada.locator("#arena-clock")).to_contain_text(re.compile(r"Time left: [45]:\d\d"))
    expect(ada.locator("#arena-waiting")).to_have_text("You are waiting for a partner: your next game starts "
                                                        "as soon as someone is free.")

    # Bob joins the running arena from its page: both are paired at once.
    open_page(bob, tournament_url)
    expect(bob.locator("#join-button")).to_have_text("Join the arena")
    bob.click("#join-button")
    for viewer, other in ((ada, bob_name), (bob, ada_name)):
        expect(viewer.locator("#your-game")).to_contain_text(f"Your arena game is ready, against {other}.",
                                                             timeout=LIVE_MS)
    game_href = bob.locator("#your-game-link").get_attribute("href")
    assert game_href and game_href.startswith("/play/")
    expect(ada.locator("#arena-current li.mine a")).to_have_attribute("href", game_href)
    expect(bob.locator("#leave-button")).to_have_text("Pause")
    axe_in_both_themes(bob, "a running arena, a player's page")

    # Bob resigns (through the API): Ada has 2 points, the game is in the history, and the two
    # are paired again (nobody else waits) a moment later.
    game_id = game_href.rsplit("/", 1)[1]
    seats = bob_context.request.get(f"/api/games/{game_id}").json()["seats"]
    bob_seat = next(n for n, seat in enumerate(seats) if seat["name"] == bob_name)
    assert bob_context.request.post(f"/api/games/{game_id}/seats/{bob_seat}/resign").status == 200
    expect(ada.locator("#rounds li.mine")).to_contain_text(f"{ada_name} (you) won", timeout=LIVE_MS)
    assert standing(ada, ada_name)[:3] == ["1", "2", "1900"]  # rank, points, performance (1500 + 400)
    expect(ada.locator("#arena-current li.mine a")).not_to_have_attribute("href", game_href, timeout=LIVE_MS)
    expect(ada.locator("#your-game")).to_contain_text(f"against {bob_name}")

    # Bob pauses (his game goes on), then comes back.
    bob.click("#leave-button")
    expect(bob.locator("#arena-waiting")).to_have_text(
        "You paused: you are not paired again until you come back.")
    expect(bob.locator("#join-button")).to_have_text("Come back")
    bob.click("#join-button")
    expect(bob.locator("#leave-button")).to_have_text("Pause")
    open_page(ada, "/tournaments?lang=fr")
    expect(ada.locator("#running li", has_text="Quick arena")).to_contain_text("arène de 5 minutes")
    open_page(ada, f"{tournament_url}?lang=fr")
    expect(ada.locator("#arena-clock")).to_contain_text("Temps restant")
    expect(ada.locator("#standings caption")).to_contain_text("Une victoire 2 points")
    assert errors == []
