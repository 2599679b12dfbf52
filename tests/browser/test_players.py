"""Players in Chromium: sign up, out and in, a password and personal tokens on the account page;
a rated game played in two browsers and both ratings moving; "your turn" found in the lobby and
counted in the title, live; chat with markup kept as text; browser notifications once allowed;
the player page's ratings chart; axe-core on every new page."""

from __future__ import annotations

import itertools
import os
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from tests.server.conftest import POSTGRES_ENV, fresh_postgres_schema
from tests.support.server import ServerProcess

from .axe import assert_no_violation
from .conftest import UNLIMITED
from .helpers import wait_my_turn

PASSWORD = "correct horse"
_names = itertools.count(1)
CORRESPONDENCE = {"type": "correspondence", "days": 3}
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


@pytest.fixture(scope="module", params=["sqlite", "postgresql"])
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """The players' pages on each database the server supports (the other browser tests share
    one SQLite server)."""
    if request.param == "sqlite":
        url = f"sqlite:///{Path(tmp_path_factory.mktemp('players-db')) / 'games.db'}"
    else:
        postgres = os.environ.get(POSTGRES_ENV)
        if not postgres:
            pytest.skip(f"{POSTGRES_ENV} is unset (CI always sets it to a PostgreSQL database)")
        url = fresh_postgres_schema(postgres, "ludotheque_browser")
    with ServerProcess(url, env=UNLIMITED) as running:
        yield running


def unique(prefix: str) -> str:
    return f"{prefix}{next(_names)}x{id(object()) % 9973}"


def signed_up(new_context: Any, prefix: str, **options: Any) -> tuple[BrowserContext, str]:
    """A browser whose person is a new player (signed up through the API, sharing its cookies)."""
    context: BrowserContext = new_context(**options)
    name = unique(prefix)
    answer = context.request.post("/api/account/signup", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    return context, name


def create_game(context: BrowserContext, body: dict[str, Any]) -> str:
    answer = context.request.post("/api/games", data=body)
    assert answer.status == 201, answer.text()
    game_id: str = answer.json()["id"]
    return game_id


def join(context: BrowserContext, game_id: str, seat: int) -> None:
    answer = context.request.post(f"/api/games/{game_id}/seats/{seat}/join", data={})
    assert answer.status == 200, answer.text()


def open_page(page: Page, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("body[data-ready]")


def test_sign_up_out_and_in_password_and_tokens(page: Page) -> None:
    open_page(page, "/account?lang=en")
    expect(page.locator("#who")).to_contain_text("You play as a guest named guest-")
    assert_no_violation(page, "the account page of a guest")
    name = unique("Ada")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    expect(page.locator("#who")).to_have_text(f"Signed in as {name}.")
    expect(page.locator("#person-link")).to_have_text(name)
    session = next(c for c in page.context.cookies() if c["name"] == "ludotheque_session")
    assert session["httpOnly"] and session["sameSite"] == "Lax"
    assert "ludotheque_session" not in page.evaluate("document.cookie")
    assert_no_violation(page, "the account page of a player")
    page.fill("#token-label", "my bot")
    page.click("#token-form button[type=submit]")
    expect(page.locator("#new-token-text")).to_have_text(re.compile(r"^lpt_"))
    token = page.locator("#new-token-text").inner_text()
    me = page.context.request.get("/api/me", headers={"Authorization": f"Bearer {token}", "Cookie": ""})
    assert me.json()["account"]["name"] == name
    page.click("#tokens button.danger")
    expect(page.locator("#tokens li")).to_have_count(0)
    page.fill("#old-password", PASSWORD)
    page.fill("#new-password", "battery staple")
    page.click("#password-form button[type=submit]")
    expect(page.locator("#account-message")).to_contain_text("Password changed")
    page.click("#signout")
    expect(page.locator("#who")).to_contain_text("guest")
    page.fill("#signin-name", name)
    page.fill("#signin-password", PASSWORD)
    page.click("#signin-form button[type=submit]")
    expect(page.locator("#account-message")).to_have_text("Wrong name or password.")
    page.fill("#signin-password", "battery staple")
    page.click("#signin-form button[type=submit]")
    expect(page.locator("#who")).to_have_text(f"Signed in as {name}.")
    assert page.errors == []  # type: ignore[attr-defined]


def test_a_guest_who_signs_up_keeps_the_game_in_french(new_context: Any) -> None:
    page = new_context(lang="fr").new_page()
    open_page(page, "/?lang=fr")
    page.select_option("#form-seats select[data-seat='1']", "bot:random")
    page.click("#create-form button[type=submit]")
    page.wait_for_url("**/play/**")
    game_url = page.url
    open_page(page, "/account?lang=fr")
    expect(page.locator("#who")).to_contain_text("Vous jouez en invité")
    name = unique("Zoe")
    page.fill("#signup-name", name)
    page.fill("#signup-password", PASSWORD)
    page.click("#signup-form button[type=submit]")
    expect(page.locator("#who")).to_have_text(f"Connecté en tant que {name}.")
    page.goto(game_url)
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#seats li[data-seat='0'] .seat-name")).to_contain_text(name)


def test_a_rated_game_in_two_browsers_moves_both_ratings(new_context: Any) -> None:
    ada_context, ada_name = signed_up(new_context, "Ada")
    bob_context, bob_name = signed_up(new_context, "Bob")
    ada = ada_context.new_page()
    open_page(ada, "/?lang=en")
    expect(ada.locator("#rated-option")).to_be_visible()
    ada.select_option("#form-seats select[data-seat='1']", "open")
    ada.check("#form-rated")
    ada.click("#create-form button[type=submit]")
    ada.wait_for_url("**/play/**")
    ada.wait_for_selector("body[data-ready]")
    expect(ada.locator("#facts")).to_contain_text("rated")
    bob = bob_context.new_page()
    open_page(bob, "/?lang=en")
    entry = bob.locator("#open-games li", has=bob.locator(f"text={ada_name}"))
    expect(entry).to_contain_text("rated")
    expect(entry.locator(".creator")).to_have_text(f"{ada_name} (unrated)")
    entry.locator("button.join").click()
    bob.wait_for_url("**/play/**")
    bob.wait_for_selector("body[data-ready]")
    wait_my_turn(ada)
    ada.click("#board [data-key='1a1'].target")
    wait_my_turn(bob)
    bob.click("#board [data-key='1d4'].target")
    wait_my_turn(ada)
    bob.click("#actions [data-action='ask-resign']")
    bob.click("#actions [data-action='resign']")
    for viewer in (ada, bob):
        expect(viewer.locator("#seats li[data-seat='0'] .seat-rating")).to_contain_text("+")
        expect(viewer.locator("#seats li[data-seat='1'] .seat-rating")).to_contain_text("−")
    expect(ada.locator("#seats li[data-seat='1'] a")).to_have_text(bob_name)
    open_page(ada, f"/players/{ada_name}?lang=en")
    row = ada.locator("#ratings tbody tr")
    expect(row).to_have_count(1)
    expect(row.locator("th")).to_have_text("Pylos, 2 players")
    assert int(row.locator(".rating-value").inner_text().rstrip("?")) > 1500
    expect(ada.locator("#charts figure svg polyline")).to_have_count(1)
    expect(ada.locator("#games li")).to_have_count(1)
    ada.select_option("#filter-result", "lost")
    expect(ada.locator("#games li.muted")).to_have_count(1)
    ada.select_option("#filter-result", "won")
    expect(ada.locator("#games li[data-outcome='won']")).to_have_count(1)
    assert_no_violation(ada, "the player page")


def test_your_turn_is_found_in_the_lobby_and_counted_live(new_context: Any) -> None:
    ada_context, ada_name = signed_up(new_context, "Ada")
    bob_context, bob_name = signed_up(new_context, "Bob")
    game = create_game(ada_context, {"game": "pylos", "seats": ["human", "open"], "clock": CORRESPONDENCE})
    join(bob_context, game, 1)
    ada = ada_context.new_page()
    open_page(ada, "/?lang=en")
    mine = ada.locator(f"#my-games li[data-id='{game}']")
    expect(mine).to_have_class("your-turn")
    expect(mine.locator(".whose")).to_have_text("Your turn")
    expect(mine).to_contain_text(f"against {bob_name}")
    expect(mine).to_contain_text("by ")  # the correspondence deadline
    expect(ada).to_have_title(re.compile(r"^\(1\) Ludothèque"))
    assert_no_violation(ada, "the lobby with my games")
    bob = bob_context.new_page()
    open_page(bob, "/?lang=en")
    expect(bob.locator(f"#my-games li[data-id='{game}'] .whose")).to_have_text(f"{ada_name} to move")
    moved = ada_context.request.post(f"/api/games/{game}/moves", data={"move": "1a1"})
    assert moved.status == 200
    expect(ada).to_have_title(re.compile(r"^Ludothèque"))  # live, over the person's socket
    expect(bob).to_have_title(re.compile(r"^\(1\) Ludothèque"))
    expect(bob.locator("#turn-count")).to_have_text("Your turn in 1 game.")


def test_browser_notifications_once_allowed(new_context: Any) -> None:
    ada_context, _ = signed_up(new_context, "Ada")
    ada_context.grant_permissions(["notifications"])
    ada_context.add_init_script(RECORD_NOTIFICATIONS)
    bob_context, _ = signed_up(new_context, "Bob")
    ada = ada_context.new_page()
    open_page(ada, "/account?lang=en")
    expect(ada.locator("#notification-state")).to_have_text("Browser notifications are allowed.")
    game = create_game(ada_context, {"game": "pylos", "seats": ["human", "open"], "clock": CORRESPONDENCE})
    open_page(ada, "/?lang=en")
    join(bob_context, game, 1)  # now it is Ada's turn: told by a notification
    ada.wait_for_function("() => window.__notifications.length > 0")
    shown = ada.evaluate("window.__notifications")
    assert shown[0] == {"title": "Your turn", "body": "It is your turn in your game of Pylos."}


def test_chat_keeps_markup_as_text_and_spectators_apart(new_context: Any) -> None:
    ada_context, _ = signed_up(new_context, "Ada")
    bob_context, _ = signed_up(new_context, "Bob")
    game = create_game(ada_context, {"game": "pylos", "seats": ["human", "open"]})
    join(bob_context, game, 1)
    ada, bob = ada_context.new_page(), bob_context.new_page()
    carol = new_context().new_page()
    for viewer in (ada, bob, carol):
        open_page(viewer, f"/play/{game}?lang=en")
    markup = '<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"><b>bold</b>'
    ada.fill("#chat-text", markup)
    ada.press("#chat-text", "Enter")
    expect(bob.locator("#chat-lines li .chat-text")).to_have_text(markup)
    assert bob.locator("#chat-lines b, #chat-lines img, #chat-lines script").count() == 0
    assert bob.evaluate("window.pwned") is None
    expect(carol.locator("#chat-rooms [data-room='players']")).to_be_hidden()
    expect(carol.locator("#chat-rooms [data-room='spectators']")).to_have_attribute("aria-pressed", "true")
    carol.fill("#chat-text", "nice game")
    carol.press("#chat-text", "Enter")
    expect(carol.locator("#chat-lines li .chat-text")).to_have_text("nice game")
    assert_no_violation(carol, "the game page's chat for a spectator")
    ada.click("#chat-rooms [data-room='spectators']")
    expect(ada.locator("#chat-lines li .chat-text")).to_have_text("nice game")
    ada.click("#chat-rooms [data-room='players']")
    ada.click("#seats li[data-seat='1'] button.mute")
    expect(ada.locator("#seats li[data-seat='1'] button.mute")).to_have_attribute("aria-pressed", "true")
    bob.fill("#chat-text", "can you hear me?")
    bob.press("#chat-text", "Enter")
    expect(bob.locator("#chat-lines li")).to_have_count(2)
    ada.wait_for_timeout(500)
    expect(ada.locator("#chat-lines li")).to_have_count(1)
    assert_no_violation(ada, "the game page's chat for a player")
