"""The pages (static files of ``ludotheque/web``), the catalog of games and their rules in HTML.

>>> rules_section("# T\\n## Français\\nBonjour\\n## English\\nHello\\n", "en")
'Hello\\n'
"""

from __future__ import annotations

import html
from importlib import resources
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from markdown_it import MarkdownIt

from ..core.registry import games, info
from .bots import bots_available
from .config import BOT_LEVELS
from .errors import ApiError, quoted

router = APIRouter()
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
SECTIONS = {"fr": "## Français", "en": "## English"}


def mount_static(app: FastAPI, web_dir: Path = WEB_DIR) -> None:
    """Serve ``web/`` under ``/static/`` (the front end references its assets there)."""
    app.mount("/static", StaticFiles(directory=web_dir, check_dir=False), name="static")


def _page(name: str) -> Response:
    path = WEB_DIR / name
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(_fallback_lobby())


@router.get("/", include_in_schema=False)
async def lobby_page() -> Response:
    return _page("index.html")


@router.get("/games/{game_id}", include_in_schema=False)
@router.get("/play/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> Response:
    return _page("game.html")


@router.get("/rules/{game_id}", include_in_schema=False)
async def rules_page(game_id: str) -> Response:
    return _page("rules.html")


@router.get("/api/catalog")
async def catalog() -> dict[str, Any]:
    """Every registered game's facts, for the lobby's create form."""
    return {"games": [game_facts(game_id) for game_id in games()], "bot_levels": list(bot_levels())}


@router.get("/api/rules/{game_id}")
async def rules(game_id: str, lang: str = "fr") -> dict[str, str]:
    if lang not in SECTIONS:
        raise ApiError(400, f"unknown language {quoted(lang)}; expected fr or en", "bad_request")
    if game_id not in games():
        raise ApiError(404, f"unknown game {quoted(game_id)}; known games: {', '.join(games())}",
                       "unknown_game")
    text = rules_text(game_id)
    if text is None:
        raise ApiError(404, f"{game_id}: no rules page (RULES.md) is installed", "not_found")
    return {"game": game_id, "lang": lang, "html": render(rules_section(text, lang))}


def game_facts(game_id: str) -> dict[str, Any]:
    facts = info(game_id)
    return {
        "id": facts.id,
        "title": dict(facts.title),
        "summary": dict(facts.summary),
        "variants": list(facts.variants),
        "default_variant": facts.default_variant,
        "player_counts": list(facts.player_counts),
        "default_players": facts.default_players,
        "rules_version": facts.rules_version,
        "bot_levels": list(bot_levels()),
    }


def bot_levels() -> tuple[str, ...]:
    """The levels people choose from (none when the bots package is missing)."""
    return BOT_LEVELS if bots_available() else ()


def rules_text(game_id: str) -> str | None:
    path = resources.files("ludotheque.games").joinpath(game_id, "RULES.md")
    return path.read_text("utf-8") if path.is_file() else None


def rules_section(text: str, lang: str) -> str:
    """The ``## Français`` or ``## English`` section of a RULES.md, without its heading."""
    lines = text.splitlines(keepends=True)
    heading = SECTIONS[lang]
    start = next((i for i, line in enumerate(lines) if line.strip() == heading), None)
    if start is None:
        return text
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "".join(lines[start + 1 : end])


def render(markdown: str) -> str:
    # Raw HTML stays escaped: the rules are text, never markup to trust.
    rendered: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    return rendered


def _fallback_lobby() -> str:
    """A lobby readable without the front end: the games by name, in French and English."""
    items = "".join(
        f'<li><a href="/rules/{g}">{html.escape(info(g).title["fr"])}</a> — '
        f"{html.escape(info(g).summary['fr'])} / {html.escape(info(g).summary['en'])}</li>"
        for g in games()
    )
    return (
        '<!doctype html><html lang="fr"><head><meta charset="utf-8"><title>Ludothèque</title>'
        f"</head><body><h1>Ludothèque</h1><ul>{items}</ul></body></html>"
    )
