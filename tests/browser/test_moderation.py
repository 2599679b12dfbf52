"""Moderation in Chromium: a spectator (a guest) reports a chat line from the game page; a
moderator (granted by ``ludotheque moderator``) hides it (the open page shows it hidden at once),
opens the moderation page, finds the report in the
queue, handles it and suspends the player from the player's file; the player is then refused at
sign-in. No CSP refusal on the moderation page (its scripts are local, none inline); axe-core on
our own page (the game page's chat); the admin library's pages are axe-checked and what axe says
of them is printed (the library's markup is not ours to fix)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from typer.testing import CliRunner

from ludotheque.cli.main import app as cli
from tests.support.server import ServerProcess

from .axe import assert_no_violation, describe, violations
from .test_players import PASSWORD, signed_up

REASON = "insults in the chat"


def csp_refusals(page: Page) -> list[str]:
    """The console's Content-Security-Policy refusals on ``page`` from now on (a live list)."""
    refused: list[str] = []
    page.on("console", lambda message: refused.append(message.text)
            if "Content Security Policy" in message.text else None)
    return refused


def chat_line(context: BrowserContext, game_id: str, text: str) -> int:
    answer = context.request.post(f"/api/games/{game_id}/chat", data={"room": "spectators", "text": text})
    assert answer.status == 201, answer.text()
    line_id: int = answer.json()["line"]["id"]
    return line_id


def test_a_report_from_the_chat_is_handled_and_the_player_suspended(
        new_context: Any, server: ServerProcess, tmp_path: Path) -> None:
    bob, bob_name = signed_up(new_context, "Bob")
    game = bob.request.post("/api/games", data={"game": "pylos", "seats": ["human", "human"]}).json()
    line = chat_line(bob, game["id"], "you fool")
    # A spectator, with no account yet, reports the line from the game page (a guest is made).
    viewer = new_context().new_page()
    viewer.on("dialog", lambda dialog: dialog.accept(REASON))
    viewer.goto(f"/games/{game['id']}?lang=en")
    report = viewer.locator(f"#chat-lines li[data-line='{line}'] button.chat-report")
    expect(report).to_have_text("Report")
    report.click()
    expect(viewer.locator("#chat-message")).to_have_text("Line reported to the moderators. Thank you.")
    assert_no_violation(viewer, "the game page's chat with its report control")
    viewer.locator("#chat-panel").screenshot(path=str(tmp_path / "chat-report.png"))
    # The moderator, granted by the command.
    moderator, mod_name = signed_up(new_context, "Mod")
    granted = CliRunner().invoke(cli, ["moderator", mod_name, "--db", server.db_url])
    assert granted.exit_code == 0, granted.output
    # A line hidden by the moderator reads "hidden by a moderator" at once on the open page.
    hidden = moderator.request.post(f"/api/moderation/chat/{line}/hide", data={"reason": REASON})
    assert hidden.status == 200, hidden.text()
    shown = viewer.locator(f"#chat-lines li[data-line='{line}']")
    expect(shown.locator(".chat-text")).to_have_text("hidden by a moderator")
    expect(shown.locator("button")).to_have_count(0)
    # A warning: shown at the top of the player's next page until they say they read it (the
    # pages call moderation-warnings.js once they know their person).
    warned = moderator.request.post(f"/api/moderation/players/{bob_name}/warn", data={"reason": "be kind"})
    assert warned.status == 200, warned.text()
    bob_page = bob.new_page()
    bob_page.goto("/account?lang=en")
    bob_page.evaluate("import('/static/app/moderation-warnings.js').then((m) => m.showWarnings('en'))")
    expect(bob_page.locator(".moderation-warning p")).to_have_text("A moderator's warning: be kind")
    warning_id = bob_page.locator(".moderation-warning").get_attribute("data-warning")
    with bob_page.expect_response("**/api/me/warnings/seen"):
        bob_page.get_by_role("button", name="Understood").click()
    expect(bob_page.locator(".moderation-warning")).to_have_count(0)
    # An answer that left before the click (the page's own call crossing this one) shows it no more.
    bob_page.evaluate("([id]) => import('/static/app/moderation-warnings.js').then((m) => "
                      "m.showWarning({id: Number(id), reason: 'be kind'}, 'en'))", [warning_id])
    expect(bob_page.locator(".moderation-warning")).to_have_count(0)
    assert bob.request.get("/api/me").json()["warnings"] == []
    page = moderator.new_page()
    refused = csp_refusals(page)
    page.goto("/admin/report/list")
    row = page.locator("table tbody tr", has_text=REASON)
    expect(row).to_contain_text("you fool")  # the report kept the line's text
    page.screenshot(path=str(tmp_path / "moderation-reports.png"), full_page=True)
    queue_findings = violations(page)
    # In French too, as the rest of the site (sqladmin ships no French: web/moderation/fr.po).
    page.goto("/admin/report/list?lang=fr")
    expect(page.get_by_role("heading", name="Signalements")).to_be_visible()
    expect(page.locator("table thead")).to_contain_text("Joueur signalé")
    page.screenshot(path=str(tmp_path / "moderation-reports-fr.png"), full_page=True)
    page.goto("/admin/report/list?lang=en")
    row.get_by_role("link", name=bob_name).click()
    expect(page.locator("#player-reports")).to_contain_text(REASON)
    page.locator("#player-reports button", has_text="Mark handled").click()
    expect(page.locator("#moderation-done")).to_have_text("Done: handle.")
    page.select_option("#act-action", "suspend")
    page.fill("#act-minutes", "120")
    page.fill("#act-reason", REASON)
    page.click("#act-form button[type=submit]")
    expect(page.locator("#moderation-done")).to_have_text("Done: suspend.")
    expect(page.locator("#player-sanctions tbody tr").first).to_contain_text("suspend")
    page.screenshot(path=str(tmp_path / "moderation-player.png"), full_page=True)
    file_findings = violations(page)
    assert refused == [], refused
    # The player is out: their session ended, and signing in again is refused until the date.
    assert bob.request.get("/api/me").json()["account"] is None
    again = bob.request.post("/api/account/signin", data={"name": bob_name, "password": PASSWORD})
    assert again.status == 403 and again.json()["code"] == "suspended"
    # What axe says of the library's pages (reported, not failed: its markup is sqladmin's).
    print(f"\naxe on sqladmin's reports list:\n{describe(queue_findings) or 'nothing'}")
    print("axe on the player's file (our template in sqladmin's layout):\n"
          f"{describe(file_findings) or 'nothing'}")
