"""Friends and clubs in Chromium (two people, two browsers): follow and challenge from a player's
page, the challenge arrives live on the other's friends page, accepted there, and both land on
the new game; a club made from the clubs page, its page with a chat line sent and shown; axe-core
on the friends, player, clubs and club pages."""

from __future__ import annotations

import itertools
import re
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from .axe import assert_no_violation

PASSWORD = "correct horse"
_names = itertools.count(1)


def signed_up(new_context: Any, prefix: str, lang: str = "en") -> tuple[BrowserContext, str]:
    """A browser whose person is a new player (signed up through the API, sharing its cookies)."""
    context: BrowserContext = new_context(lang=lang)
    name = f"{prefix}{next(_names)}s{id(object()) % 9973}"
    answer = context.request.post("/api/account/signup", data={"name": name, "password": PASSWORD})
    assert answer.status == 201, answer.text()
    return context, name


def ready(page: Page, path: str) -> None:
    page.goto(path)
    page.wait_for_selector("body[data-ready]")


def test_a_challenge_from_a_player_page_accepted_live_seats_both(new_context: Any) -> None:
    ada_browser, ada = signed_up(new_context, "Ada")
    bob_browser, bob = signed_up(new_context, "Bob")
    bobs = bob_browser.new_page()
    ready(bobs, "/friends?lang=en")  # Bob's socket is open: Bob is online
    adas = ada_browser.new_page()
    ready(adas, f"/players/{bob}?lang=en")
    expect(adas.locator("#presence")).to_have_text("Online")
    adas.click("#follow")
    expect(adas.locator("#follow")).to_have_text("Unfollow")
    adas.click("#challenge-box summary")
    adas.select_option("#challenge-game", "pylos")
    adas.check("input[name=challenge-clock][value=fischer]")
    assert_no_violation(adas, "a player's page with its challenge form open")
    adas.click("#challenge-form button[type=submit]")
    expect(adas.locator("#social-message")).to_contain_text(f"Challenge sent to {bob}")
    challenge = bobs.locator("#received li[data-challenge]")
    expect(challenge).to_contain_text(f"{ada} challenges you: Pylos")  # live, no reload
    expect(challenge).to_contain_text("10 min")
    assert_no_violation(bobs, "the friends page with a challenge received")
    challenge.locator("button.accept").click()
    bobs.wait_for_url("**/play/**")
    adas.wait_for_url("**/play/**")  # the challenger is taken there too
    assert adas.url.split("/play/")[1] == bobs.url.split("/play/")[1]
    ready(adas, "/friends?lang=fr")
    follows = adas.locator(f"#follows li[data-name='{bob}']")
    expect(follows).to_contain_text("Parties en cours")


def test_a_club_page_with_its_members_and_chat(new_context: Any) -> None:
    context, name = signed_up(new_context, "Zoe", lang="fr")
    page = context.new_page()
    page_errors: list[str] = []
    page.on("pageerror", lambda error: page_errors.append(str(error)))
    ready(page, "/clubs?lang=fr")
    page.fill("#club-name", f"Club {name}")
    page.fill("#club-description", "Le jeudi soir")
    page.click("#club-form button[type=submit]")
    page.wait_for_url("**/clubs/**")
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#club-name")).to_have_text(f"Club {name}")
    expect(page.locator(f"#members tr[data-member='{name}']")).to_contain_text("administrateur")
    club_url = page.url.split("?")[0]
    expect(page.locator("#invite-link")).to_have_value(re.compile(rf"^{re.escape(club_url)}\?invite=\S+$"))
    page.fill("#chat-text", "Bonsoir <b>tout</b> le monde")
    page.click("#chat-form button[type=submit]")
    # Text, never markup.
    expect(page.locator("#club-chat li .text")).to_have_text("Bonsoir <b>tout</b> le monde")
    assert_no_violation(page, "a club's page with a chat line")
    ready(page, "/clubs?lang=fr")
    expect(page.locator("#my-clubs li")).to_contain_text(f"Club {name}")
    assert_no_violation(page, "the clubs page")
    assert page_errors == []
