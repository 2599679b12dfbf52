"""The pages and the catalog derive from the registry (issue 14): the lobby and the rules pages are
written by the server in the reader's language, naming every registered game; the catalog gives
what each ``GameInfo`` declares; the templates and the pages' words name no game; a game's page
board is found by the catalog. And each server module holds what its name says."""

from __future__ import annotations

import html
import json
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

import ludotheque
from ludotheque.core import info
from ludotheque.server import hub, sessions, snapshots
from ludotheque.server.pages import WEB_DIR, rules_section, rules_text

from .conftest import serving

GENERIC_REASONS = {"resignation", "time", "agreement", "abandoned"}
GENERIC_PHASES = {"play", "over"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with serving(f"sqlite:///{tmp_path / 'pages.db'}") as test_client:
        yield test_client


def test_each_server_module_holds_what_its_name_says() -> None:
    assert sessions.GameSession.__module__ == "ludotheque.server.sessions"
    assert snapshots.Snapshot.__module__ == snapshots.GameMeta.__module__ == "ludotheque.server.snapshots"
    assert not hasattr(sessions, "Snapshot") or sessions.Snapshot is snapshots.Snapshot
    assert hub.Hub.__module__ == "ludotheque.server.hub"


def test_the_catalog_gives_what_each_game_declares(client: TestClient) -> None:
    entries = {entry["id"]: entry for entry in client.get("/api/catalog").json()["games"]}
    assert list(entries) == ludotheque.games()
    for game_id, entry in entries.items():
        facts = info(game_id)
        assert entry["variant_names"] == {
            variant: {"fr": facts.variant_name(variant, "fr"), "en": facts.variant_name(variant, "en")}
            for variant in facts.variants
        }
        assert entry["phase_names"] == {phase: dict(words) for phase, words in facts.phase_names.items()}
        assert entry["reasons"] == {
            reason: {"plain": dict(words.plain), "naming_loser": dict(words.naming_loser)}
            for reason, words in facts.reasons.items()
        }
        assert entry["board"] == f"/static/games/{game_id}.js"
        assert entry["picture"] == f"/static/img/{game_id}.svg"
        assert client.get(entry["board"]).headers["content-type"].startswith("text/javascript")
    assert entries["pylos"]["variant_names"]["kids"] == {"fr": "enfants", "en": "kids"}


@pytest.mark.parametrize(("asked", "lang"), [
    ({"params": {"lang": "fr"}}, "fr"),
    ({"params": {"lang": "en"}, "headers": {"Accept-Language": "fr-FR,fr;q=0.9"}}, "en"),
    ({"headers": {"Accept-Language": "fr-CA,en;q=0.5"}}, "fr"),
    ({"headers": {"Accept-Language": "de-DE"}}, "en"),
    ({"cookies": {"lang": "fr"}, "headers": {"Accept-Language": "en-GB"}}, "fr"),
])
def test_the_lobby_names_every_game_in_the_readers_language(
    client: TestClient, asked: dict[str, dict[str, str]], lang: str
) -> None:
    for name, value in asked.get("cookies", {}).items():
        client.cookies.set(name, value)
    answer = client.get("/", params=asked.get("params"), headers=asked.get("headers"))
    page = answer.text
    assert answer.status_code == 200 and f'<html lang="{lang}">' in page and "<!--@" not in page
    for game_id in ludotheque.games():
        title, summary = info(game_id).title[lang], info(game_id).summary[lang]
        assert f'<li class="game-card" data-game="{game_id}">' in page
        assert f"<h2>{html.escape(title)}</h2>" in page and html.escape(summary) in page
        assert f'<option value="{game_id}">{html.escape(title)}</option>' in page
    assert ("Les jeux" in page) == (lang == "fr") and ("The games" in page) == (lang == "en")
    # ?lang= is remembered, as the pages' scripts remember it.
    remembered = answer.headers.get("set-cookie", "")
    assert (f"lang={lang}" in remembered) == ("params" in asked)


@pytest.mark.parametrize("lang", ["fr", "en"])
def test_a_rules_page_is_written_in_the_readers_language(client: TestClient, lang: str) -> None:
    page = client.get("/rules/plimil", params={"lang": lang}).text
    rules = "Règles" if lang == "fr" else "Rules"
    assert f'<h1 id="rules-title">{rules} — Plimil</h1>' in page and f'data-lang="{lang}"' in page
    first = re.search(r"^### (.+)$", rules_section(rules_text("plimil") or "", lang), re.MULTILINE)
    assert first is not None and f"<h2>{html.escape(first.group(1), quote=False)}</h2>" in page
    assert "<h3>" not in page.split("<h2>")[0], "no heading level skipped under the page's <h1>"
    for game_id in ludotheque.games():
        assert f'href="/rules/{game_id}"' in page
    assert '<a id="rules-plimil" href="/rules/plimil" aria-current="page">' in page


def test_an_unknown_game_has_no_rules_page(client: TestClient) -> None:
    answer = client.get("/rules/chess?lang=fr")
    assert answer.status_code == 404 and "Jeu inconnu : chess." in answer.text


def test_the_templates_and_the_page_words_name_no_game() -> None:
    names = {game_id for game_id in ludotheque.games()} | {
        title for game_id in ludotheque.games() for title in info(game_id).title.values()
    }
    for template in ("index.html", "rules.html", "game.html"):
        text = (WEB_DIR / template).read_text("utf-8").lower()
        assert not [name for name in names if name.lower() in text], template
    words = json.loads((WEB_DIR / "app" / "texts.json").read_text("utf-8"))
    assert set(words["fr"]) == set(words["en"])
    keys = set(words["en"])
    assert not [key for key in keys if key.startswith("variant.")]
    assert {key.split(".")[1] for key in keys if key.startswith("phase.")} == GENERIC_PHASES
    assert {key.split(".")[1] for key in keys if key.startswith("reason.")} == GENERIC_REASONS
    script = (WEB_DIR / "app" / "i18n.js").read_text("utf-8")
    assert not [name for name in names if name.lower() in script.lower()]


def test_page_boards_and_pictures_are_served_by_game(client: TestClient) -> None:
    assert client.get("/static/games/generic.js").status_code == 200
    assert client.get("/static/img/pylos.svg").headers["content-type"].startswith("image/svg+xml")
    for missing in ("/static/games/chess.js", "/static/games/PYLOS.js", "/static/img/chess.svg"):
        assert client.get(missing).status_code == 404, missing


@pytest.mark.parametrize("texts", sorted(path.name for path in (WEB_DIR / "app").glob("texts*.json")))
def test_each_page_word_exists_in_both_languages_with_the_same_fields(texts: str) -> None:
    words = json.loads((WEB_DIR / "app" / texts).read_text("utf-8"))
    assert set(words) == {"fr", "en"} and set(words["fr"]) == set(words["en"])
    fields = {lang: {key: set(re.findall(r"\{(\w+)\}", text)) for key, text in words[lang].items()}
              for lang in ("fr", "en")}
    assert [key for key in words["en"] if fields["fr"][key] != fields["en"][key]] == []
