"""What players of other sites expect: sounds (Web Audio, one mute switch), a move confirmation,
a dark theme, coordinates on or off, the board turned to the reader's side; plural words in both
languages; Plimil's result in blocks, Ex*Pion's teams in words. axe-core clean in both themes."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from .axe import assert_no_violation
from .helpers import create, document, token_of, wait_my_turn

TEXTS = Path(__file__).resolve().parents[2] / "src" / "ludotheque" / "web" / "app" / "texts.json"
LISTEN = """() => { window.__sounds = [];
  document.addEventListener('ludotheque:sound', (event) => window.__sounds.push(event.detail)); }"""


def opened(page: Page, game_id: str, token: str, lang: str = "en") -> None:
    page.goto(f"/play/{game_id}?lang={lang}&token={token}")
    page.wait_for_selector("body[data-ready]")


def centre_y(page: Page, key: str) -> float:
    box = page.locator(f"#board [data-key='{key}']").bounding_box()
    assert box is not None
    return float(box["y"] + box["height"] / 2)


def test_plural_words_in_both_languages(page: Page) -> None:
    texts = json.loads(TEXTS.read_text(encoding="utf-8"))
    for lang in ("en", "fr"):
        unsplit = [key for key, text in texts[lang].items() if "(s)" in text and key != "form.increment"]
        assert unsplit == [], lang
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    said = page.evaluate("""() => import('/static/app/i18n.js').then(({plural}) => [
      plural('en', 'lobby.yourTurnCount', {n: 1}), plural('en', 'lobby.yourTurnCount', {n: 3}),
      plural('fr', 'lobby.yourTurnCount', {n: 1}), plural('fr', 'lobby.yourTurnCount', {n: 3}),
      plural('en', 'game.replayAt', {n: 0, total: 1}), plural('en', 'game.replayAt', {n: 1, total: 4}),
      plural('fr', 'game.replayAt', {n: 1, total: 4}), plural('fr', 'game.replayAt', {n: 2, total: 4}),
      plural('fr', 'player.won', {n: 2})])""")
    assert said == ["Your turn in 1 game.", "Your turn in 3 games.",
                    "À vous de jouer dans 1 partie.", "À vous de jouer dans 3 parties.",
                    "Position after 0 of 1 move", "Position after 1 of 4 moves",
                    "Position après 1 coup sur 4", "Position après 2 coups sur 4", "2 gagnées"]


def test_plimil_scores_are_blocks_only_where_blocks_decide(page: Page) -> None:
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    said = page.evaluate("""() => import('/static/games/plimil.js').then(({scoreText}) => [
      scoreText({reason: 'resign', winners: [1], scores: [-1, 1]}, 'en'),
      scoreText({reason: 'time', winners: [0], scores: [1, -1]}, 'fr'),
      scoreText({reason: 'rule_of_7', winners: [0], scores: [12, 7]}, 'en')])""")
    assert said[0] is None and said[1] is None
    assert said[2] == "blocks: Blue 12, Red 7"


def test_plimil_red_reads_the_board_from_their_side_and_may_turn_it(page: Page, new_context: Any,
                                                                   api: httpx.Client) -> None:
    created = create(api, "plimil", ["human", "human"])
    opened(page, created["id"], token_of(created, 1))
    assert centre_y(page, "d1") < centre_y(page, "d8")  # Red's rank 8 at the bottom
    flip = page.get_by_role("button", name="Turn the board")
    expect(flip).to_have_attribute("aria-pressed", "false")
    flip.click()
    expect(flip).to_have_attribute("aria-pressed", "true")
    assert centre_y(page, "d1") > centre_y(page, "d8")
    blue = new_context().new_page()
    opened(blue, created["id"], token_of(created, 0))
    assert centre_y(blue, "d1") > centre_y(blue, "d8")


def test_expion_seats_read_their_side_and_the_teams_in_words(page: Page, new_context: Any,
                                                             api: httpx.Client) -> None:
    created = create(api, "expion", ["human", "human", "human", "human"], players=4)
    opened(page, created["id"], token_of(created, 0))  # North
    expect(page.locator("#turn")).to_contain_text("you and South against East and West")
    doc = document(api, created["id"])
    north = next(cell for cell, camp in doc["view"]["cells"].items() if camp == "N")
    south = next(cell for cell, camp in doc["view"]["cells"].items() if camp == "S")
    assert centre_y(page, north) > centre_y(page, south)
    french = new_context(lang="fr").new_page()
    opened(french, created["id"], token_of(created, 1), lang="fr")  # Est
    expect(french.locator("#turn")).to_contain_text("vous et Ouest contre Nord et Sud")
    spectator = new_context().new_page()
    spectator.goto(f"/play/{created['id']}?lang=en")
    spectator.wait_for_selector("body[data-ready]")
    expect(spectator.locator("#turn")).to_contain_text("North and South against East and West")


def test_sounds_for_moves_and_your_turn_and_one_mute_switch(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "bot:random"])
    opened(page, created["id"], token_of(created, 0))
    page.evaluate(LISTEN)
    wait_my_turn(page)
    page.click("#board [data-key='1a1'].target")
    expect(page.locator("#moves [data-ply='2']")).to_be_visible(timeout=15_000)
    wait_my_turn(page)
    page.wait_for_function("() => window.__sounds.includes('turn')")
    sounds = page.evaluate("window.__sounds")
    assert "move" in sounds and "turn" in sounds
    assert page.evaluate("typeof AudioContext") == "function"
    switch = page.get_by_role("button", name="Sounds")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(switch).to_have_attribute("aria-pressed", "false")  # remembered
    page.evaluate(LISTEN)
    wait_my_turn(page)
    # Any free cell: the random bot's reply may have taken any one (1b1 in one game of fifteen).
    page.locator("#board .target").first.click()
    expect(page.locator("#moves [data-ply='4']")).to_be_visible(timeout=15_000)
    wait_my_turn(page)
    page.wait_for_timeout(300)
    assert page.evaluate("window.__sounds") == []


def test_a_correspondence_move_waits_for_confirmation(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "human"], clock={"type": "correspondence", "days": 3})
    opened(page, created["id"], token_of(created, 0))
    wait_my_turn(page)
    expect(page.locator("#confirm-moves")).to_have_value("correspondence")
    page.click("#board [data-key='1a1'].target")
    expect(page.locator("#choices .prompt")).to_have_text("Play 1a1?")
    assert document(api, created["id"])["moves"] == []
    page.get_by_role("button", name="Not this one").click()
    assert document(api, created["id"])["moves"] == []
    page.click("#board [data-key='1b1'].target")
    page.get_by_role("button", name="Confirm").click()
    expect(page.locator("#moves [data-ply='1']")).to_have_text("1b1")
    # Never: the next click plays at once (and the choice is remembered).
    page.select_option("#confirm-moves", "never")
    assert page.evaluate("localStorage.getItem('ludotheque.confirm')") == "never"


def test_coordinates_switch_is_remembered(page: Page, api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "human"])
    opened(page, created["id"], token_of(created, 0))
    coord = page.locator("#board .coord").first
    expect(coord).to_be_visible()
    page.get_by_role("button", name="Coordinates").click()
    expect(coord).to_be_hidden()
    page.reload()
    page.wait_for_selector("body[data-ready]")
    expect(page.locator("#board .coord").first).to_be_hidden()
    expect(page.get_by_role("button", name="Coordinates")).to_have_attribute("aria-pressed", "false")


def test_dark_theme_follows_the_browser_has_a_switch_and_is_axe_clean(new_context: Any,
                                                                     api: httpx.Client) -> None:
    created = create(api, "pylos", ["human", "bot:random"])
    context = new_context()
    page = context.new_page()
    page.emulate_media(color_scheme="dark")
    opened(page, created["id"], token_of(created, 0))
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert_no_violation(page, "the game page, dark theme")
    switch = page.get_by_role("button", name="Dark theme")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert_no_violation(page, "the game page, light theme")
    page.goto("/?lang=en")
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"  # remembered over the browser's
    page.get_by_role("button", name="Dark theme").click()
    assert_no_violation(page, "the lobby, dark theme")
    page.goto("/account?lang=en")
    page.wait_for_selector("body[data-ready]")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert_no_violation(page, "the account page, dark theme")


def test_low_time_and_capture_sounds(page: Page, api: httpx.Client) -> None:
    one_minute = {"type": "fischer", "minutes": 1, "increment": 0}
    created = create(api, "pylos", ["human", "bot:random"], clock=one_minute)
    page.clock.install()  # the page's own time, run forward below (the server's runs as it does)
    opened(page, created["id"], token_of(created, 0))
    page.evaluate(LISTEN)
    wait_my_turn(page)
    page.click("#board [data-key='1a1'].target")
    expect(page.locator("#moves [data-ply='2']")).to_be_visible(timeout=15_000)
    wait_my_turn(page)
    page.clock.run_for(35_000)
    page.wait_for_function("() => window.__sounds.includes('lowTime')")
    said = page.evaluate("""() => Promise.all([import('/static/games/expion.js'),
                                               import('/static/games/pylos.js')])
      .then(([expion, pylos]) => [
        expion.isCapture('a1-a2', {marbles: {N: 7, S: 7}}, {marbles: {N: 7, S: 6}}),
        expion.isCapture('a1-a2', {marbles: {N: 7, S: 7}}, {marbles: {N: 7, S: 7}}),
        pylos.isCapture('1b2x1a1')])""")
    assert said == [True, False, False]
