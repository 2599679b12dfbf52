"""The tournaments' pages answer HTML: ``/tournaments`` (the lists, filled by its script, and the
create form naming every game) and ``/tournaments/<id>`` (the tournament's name written by the
server, escaped; 404 for an unknown one), in the reader's language, under the pages' strict
Content-Security-Policy (no inline script or style); their templates and words name no game."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.core import info
from ludotheque.server import create_app, tournament_routes
from ludotheque.server.pages import WEB_DIR

from ..tournaments.helpers import Person

TEMPLATES = ("tournaments.html", "tournament.html")


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    """The app with the tournaments' router (included here until ``app.py`` includes it)."""
    app = create_app(f"sqlite:///{tmp_path / 'pages.db'}", bot_workers=1)
    if not any(getattr(route, "path", "") == "/api/tournaments" for route in app.routes):
        app.include_router(tournament_routes.router)
    with TestClient(app) as test_client:
        yield test_client


def assert_page(answer: object, status: int = 200) -> str:
    assert answer.status_code == status, answer.text  # type: ignore[attr-defined]
    assert answer.headers["content-type"].startswith("text/html")  # type: ignore[attr-defined]
    policy = answer.headers["content-security-policy"]  # type: ignore[attr-defined]
    assert "script-src 'self'" in policy and "unsafe" not in policy
    text: str = answer.text  # type: ignore[attr-defined]
    assert not re.search(r"<script(?![^>]*\bsrc=)", text), "an inline script"
    assert " style=" not in text and "<style" not in text, "an inline style"
    assert not re.search(r"\son[a-z]+=", text), "an inline event handler"
    return text


@pytest.mark.parametrize(("lang", "heading", "create"), [("en", "Tournaments", "New tournament"),
                                                          ("fr", "Tournois", "Nouveau tournoi")])
def test_the_tournaments_page_answers_html_in_the_readers_language(
        client: TestClient, lang: str, heading: str, create: str) -> None:
    text = assert_page(client.get(f"/tournaments?lang={lang}"))
    assert f'<html lang="{lang}">' in text
    assert f'<h1 id="tournaments-title" data-i18n="tournaments.heading">{heading}</h1>' in text
    assert create in text
    assert '<script type="module" src="/static/app/tournaments.js"></script>' in text
    for game_id in ludotheque.games():  # the create form names every game without JavaScript
        assert f'<option value="{game_id}">{info(game_id).title[lang]}</option>' in text
    for status in ("running", "upcoming", "finished"):
        assert f'id="{status}"' in text
    assert client.get("/static/app/tournaments.js").headers["content-type"].startswith("text/javascript")


def test_a_tournaments_page_names_it_and_an_unknown_one_is_404(client: TestClient) -> None:
    ada = Person(client, "Ada")
    body = {"name": "Friday <Pylos> & co", "game": "pylos", "rounds": 2}
    created = ada.post(client, "/api/tournaments", body)
    assert created.status_code == 201, created.text
    tournament_id = created.json()["id"]
    for lang in ("en", "fr"):
        text = assert_page(client.get(f"/tournaments/{tournament_id}?lang={lang}"))
        assert "<title>Friday &lt;Pylos&gt; &amp; co — Ludothèque</title>" in text
        assert '<h1 id="tournament-name">Friday &lt;Pylos&gt; &amp; co</h1>' in text
        assert '<script type="module" src="/static/app/tournament.js"></script>' in text
        assert ("Classement" if lang == "fr" else "Standings") in text
    listed = assert_page(client.get("/tournaments?lang=fr"))  # the lists, written without JavaScript
    upcoming = listed[listed.index('id="upcoming"'):listed.index('id="finished"')]
    link = f'<a class="tournament-name" href="/tournaments/{tournament_id}">Friday &lt;Pylos&gt; &amp; co</a>'
    assert link in upcoming
    assert "Pylos · 2 rondes" in upcoming
    unknown = assert_page(client.get("/tournaments/nope?lang=fr"), 404)
    assert "Ce tournoi n&#x27;existe pas." in unknown or "Ce tournoi n'existe pas." in unknown
    assert client.get("/static/app/tournament.js").status_code == 200


def test_the_lobby_links_to_the_tournaments(client: TestClient) -> None:
    text = assert_page(client.get("/?lang=en"))
    assert '<a href="/tournaments" data-i18n="nav.tournaments">Tournaments</a>' in text
    assert 'id="lobby-tournaments"' in text


def test_the_templates_and_words_name_no_game_and_agree_in_both_languages() -> None:
    names = set(ludotheque.games()) | {title for g in ludotheque.games() for title in info(g).title.values()}
    for template in TEMPLATES:
        text = (WEB_DIR / template).read_text("utf-8").lower()
        assert not [name for name in names if name.lower() in text], template
    words = json.loads((WEB_DIR / "app" / "texts.json").read_text("utf-8"))
    assert set(words["fr"]) == set(words["en"])
    ours = [key for key in words["en"]
            if key.startswith(("tournament", "nav.tournaments", "lobby.tournaments"))]
    assert len(ours) > 50
    assert not [key for key in ours for name in names if name.lower() in words["en"][key].lower()]


def test_the_arena_words_agree_and_every_template_word_exists() -> None:
    """``texts-tournaments.json`` (the arenas' words) has both languages alike, adds no word of
    ``texts.json`` and names no game; every ``data-i18n`` key of the templates is known."""
    words = json.loads((WEB_DIR / "app" / "texts-tournaments.json").read_text("utf-8"))
    shared = json.loads((WEB_DIR / "app" / "texts.json").read_text("utf-8"))
    assert set(words["fr"]) == set(words["en"]) and not set(words["en"]) & set(shared["en"])
    names = set(ludotheque.games()) | {title for g in ludotheque.games() for title in info(g).title.values()}
    assert not [key for key, text in words["en"].items() for name in names if name.lower() in text.lower()]
    known = set(shared["en"]) | set(words["en"])
    for template in TEMPLATES:
        keys = re.findall(r'data-i18n="([^"]+)"', (WEB_DIR / template).read_text("utf-8"))
        assert [key for key in keys if key not in known] == [], template


def test_the_arena_form_and_panel_in_french(client: TestClient) -> None:
    text = assert_page(client.get("/tournaments?lang=fr"))
    assert "Arène (un temps fixé)" in text and "Durée (minutes)" in text
    assert 'href="/static/css/tournaments.css"' in text
    ada = Person(client, "Ada")
    created = ada.post(client, "/api/tournaments", {"system": "arena", "game": "pylos", "duration": 20})
    text = assert_page(client.get(f"/tournaments/{created.json()['id']}?lang=fr"))
    assert '<h2 id="arena-title" data-i18n="arena.panel">Arène</h2>' in text
