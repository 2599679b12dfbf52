"""The pages, the catalog of games and their rules in HTML, all derived from the registry.

The lobby (``GET /``) and the rules pages (``GET /rules/{game}``) are rendered here from their
templates in ``ludotheque/web``, in the reader's language (``?lang=``, else the ``lang`` cookie,
else ``Accept-Language``): every registered game is named with its title and summary
(``GameInfo``), so the pages read without JavaScript; the page words are ``web/app/texts.json``'s,
the same the scripts use. A game's lessons page (``GET /learn/{game}``, filled by ``learn.js`` from
``/api/lessons``) is rendered likewise, and the lobby's cards and the rules pages link to it for each
game that ships lessons. Nothing here names a game.

A game's page board is the ``page_board.js`` its package ships (the built-in games'
``engines/<id>/``, or a game installed from another distribution), served at
``/static/games/<id>.js`` with its ``page_board.css`` at ``/static/games/<id>.css``; a game
without one is drawn by ``web/games/generic.js``. Its picture is likewise its package's
``picture.svg`` (the site's logo when it has none).

>>> fill("<title><!--@title--></title>", {"title": "Pylos"})
'<title>Pylos</title>'
>>> translate_markup('<a href="/" data-i18n="nav.lobby">Lobby</a>', {"nav.lobby": "Salon"})
'<a href="/" data-i18n="nav.lobby">Salon</a>'
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from functools import cache
from importlib.resources.abc import Traversable
from pathlib import Path
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import FileResponse, HTMLResponse, Response
from fastapi.staticfiles import StaticFiles
from markdown_it import MarkdownIt

from .. import solved
from ..core.contract import RULES_SECTIONS, GameInfo, rules_section
from ..core.registry import games, info
from ..lessons import has_lessons
from ..puzzles import has_puzzles
from .bots import bots_available
from .config import BOT_LEVELS
from .errors import ApiError, quoted
from .presentation import lobby_default

router = APIRouter()
WEB_DIR = Path(__file__).resolve().parent.parent / "web"
LANGUAGES = tuple(RULES_SECTIONS)
LANG_COOKIE = "lang"
LANG_COOKIE_AGE = 365 * 24 * 3600
# What a game's package may ship for the pages (docs/API.md, "Games from other distributions").
PAGE_BOARD = "page_board.js"
PAGE_BOARD_STYLES = "page_board.css"
PICTURE = "picture.svg"
GENERIC_BOARD = "/static/games/generic.js"
LOGO = "/static/img/logo.svg"
_NAME = re.compile(r"[a-z0-9_]+")
_MARKER = re.compile(r"<!--@([\w-]+)-->")
_TRANSLATED = re.compile(r'(<(\w+)\b[^>]*?\sdata-i18n="([\w.]+)"[^>]*>)([^<]*)(</\2>)')
_TRANSLATED_ATTRIBUTES = re.compile(r'<\w+\b[^>]*?\sdata-i18n-attr="([^"]*)"[^>]*>')
_HEADING = re.compile(r"<(/?)h([1-6])>")
# The tournaments page's lists, and how many of each it writes before its script runs.
TOURNAMENT_LISTS = ("running", "upcoming", "finished")
LISTED_TOURNAMENTS = 50


def mount_static(app: FastAPI, web_dir: Path = WEB_DIR) -> None:
    """Serve ``web/`` under ``/static/`` (the front end references its assets there)."""
    app.mount("/static", StaticFiles(directory=web_dir, check_dir=False), name="static")


# -- the reader's language and the page words ---------------------------------------------------
def reader_language(request: Request) -> str:
    """``?lang=``, else the ``lang`` cookie, else the first language of ``Accept-Language``
    (``fr`` or ``en``), as the pages' scripts choose it."""
    asked = request.query_params.get("lang")
    if asked in LANGUAGES:
        return asked
    remembered = request.cookies.get(LANG_COOKIE)
    if remembered in LANGUAGES:
        return remembered
    first = request.headers.get("accept-language", "").split(",")[0].strip().lower()
    return "fr" if first.startswith("fr") else "en"


@cache
def page_words() -> dict[str, dict[str, str]]:
    """``web/app/texts.json`` and each page family's ``web/app/texts-<part>.json`` (lessons,
    puzzles...): the pages' words by language (none when the front end is missing)."""
    words: dict[str, dict[str, str]] = {}
    for path in sorted((WEB_DIR / "app").glob("texts*.json")):
        for lang, table in json.loads(path.read_text("utf-8")).items():
            words.setdefault(lang, {}).update(table)
    return words


def word(key: str, lang: str, **values: str) -> str:
    """The page word ``key`` in ``lang`` (English, then the key itself, when missing)."""
    words = page_words()
    text = words.get(lang, {}).get(key) or words.get("en", {}).get(key) or key
    return re.sub(r"\{(\w+)\}", lambda m: values.get(m.group(1), ""), text)


def translate_markup(markup: str, words: Mapping[str, str]) -> str:
    """``markup`` with the text of each ``data-i18n`` element, and the attributes each
    ``data-i18n-attr`` names, in ``words`` (what ``translatePage`` does in the browser)."""

    def text(match: re.Match[str]) -> str:
        key = match.group(3)
        if key not in words:
            return match.group(0)
        return f"{match.group(1)}{html.escape(words[key], quote=False)}{match.group(5)}"

    def attributes(match: re.Match[str]) -> str:
        tag = match.group(0)
        for pair in match.group(1).split(";"):
            attribute, _, key = (part.strip() for part in pair.partition(":"))
            if key not in words:
                continue
            value = f'{attribute}="{html.escape(words[key])}"'
            present = re.compile(rf'\s{re.escape(attribute)}="[^"]*"')
            tag = present.sub(f" {value}", tag, count=1) if present.search(tag) else (
                tag[:-1].rstrip("/").rstrip() + f" {value}>")
        return tag

    return _TRANSLATED_ATTRIBUTES.sub(attributes, _TRANSLATED.sub(text, markup))


def fill(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``<!--@name-->`` marker replaced by ``values[name]`` (empty when
    missing)."""
    return _MARKER.sub(lambda match: values.get(match.group(1), ""), template)


@cache
def template(name: str) -> str:
    """The page template ``web/<name>``, read once."""
    return (WEB_DIR / name).read_text("utf-8")


def render_page(name: str, lang: str, values: Mapping[str, str]) -> str:
    """The template ``web/<name>`` for a reader of ``lang``: markers filled, words translated,
    the language switch pointing to the other language."""
    page = template(name)
    other = "en" if lang == "fr" else "fr"
    page = translate_markup(fill(page, values), page_words().get(lang, {}))
    page = page.replace('<html lang="en">', f'<html lang="{lang}">', 1)
    return page.replace('data-lang-switch href="?lang=fr"', f'data-lang-switch href="?lang={other}"', 1)


def answer_page(request: Request, body: str, lang: str, status: int = 200) -> HTMLResponse:
    """An HTML page; a ``?lang=`` asked for is remembered in the cookie, as the scripts do."""
    response = HTMLResponse(body, status_code=status)
    if request.query_params.get("lang") in LANGUAGES:
        response.set_cookie(LANG_COOKIE, lang, max_age=LANG_COOKIE_AGE, path="/", samesite="lax")
    return response


def pick_words(words: Mapping[str, str], lang: str) -> str:
    return words.get(lang) or words.get("en") or next(iter(words.values()), "")


def _listed(titles: list[str], lang: str) -> str:
    """``a, b and c`` in ``lang``."""
    if len(titles) < 2:
        return "".join(titles)
    return ", ".join(titles[:-1]) + word("result.and", lang) + titles[-1]


# -- the pages ------------------------------------------------------------------------------------
@router.get("/", include_in_schema=False)
async def lobby_page(request: Request) -> Response:
    lang = reader_language(request)
    if not (WEB_DIR / "index.html").is_file():
        return answer_page(request, _fallback_lobby(lang), lang)
    return answer_page(request, render_page("index.html", lang, lobby_values(lang)), lang)


def lobby_values(lang: str) -> dict[str, str]:
    """What the lobby's template leaves to the registry: every game's card and form choice."""
    titles = [pick_words(info(game_id).title, lang) for game_id in games()]
    return {
        "titles": html.escape(", ".join(titles)),
        "description": html.escape(word("site.description", lang, games=_listed(titles, lang))),
        "cards": "".join(game_card(info(game_id), lang) for game_id in games()),
        "default-game": html.escape(lobby_default()),
        "game-options": "".join(
            f'<option value="{html.escape(game_id)}">'
            f'{html.escape(pick_words(info(game_id).title, lang))}</option>'
            for game_id in games()
        ),
    }


def game_card(facts: GameInfo, lang: str) -> str:
    """A game's card in the lobby: picture, title, summary, links to play and to the rules."""
    game_id = html.escape(facts.id)
    return (
        f'\n        <li class="game-card" data-game="{game_id}">'
        f'<img src="{html.escape(picture_url(facts.id))}" alt="" width="160" height="120">'
        f"<h2>{html.escape(pick_words(facts.title, lang))}</h2>"
        f'<p class="summary" data-summary>{html.escape(pick_words(facts.summary, lang))}</p>'
        f'<p class="card-links"><a class="play" href="/?game={game_id}#new-game" data-i18n="lobby.newGame">'
        f'{html.escape(word("lobby.newGame", lang))}</a> '
        f'<a href="/rules/{game_id}" data-i18n="lobby.rules">{html.escape(word("lobby.rules", lang))}</a>'
        f"{learn_link(facts.id, lang)}{puzzles_link(facts.id, lang)}</p>"
        "</li>"
    )


def puzzles_link(game_id: str, lang: str) -> str:
    """A link to the game's puzzles (``/puzzles/<game>``), for a game that ships them."""
    if not has_puzzles(game_id):
        return ""
    return (f' <a class="puzzles" href="/puzzles/{html.escape(game_id)}" data-i18n="lobby.puzzles">'
            f'{html.escape(word("lobby.puzzles", lang))}</a>')


def learn_link(game_id: str, lang: str) -> str:
    """A link to the game's lessons (an ``<a>``), or nothing for a game that ships none."""
    if not has_lessons(game_id):
        return ""
    return (f' <a class="learn" href="/learn/{html.escape(game_id)}" data-i18n="lobby.learn">'
            f'{html.escape(word("lobby.learn", lang))}</a>')


@router.get("/learn/{game_id}", include_in_schema=False)
async def learn_page(request: Request, game_id: str) -> Response:
    """A game's lessons: the course, a step at a time, filled by its script; 404 for a game
    unknown or with no lessons (the page says so)."""
    lang = reader_language(request)
    if not (WEB_DIR / "learn.html").is_file():
        return answer_page(request, _fallback_lobby(lang), lang)
    known = game_id in games() and has_lessons(game_id)
    return answer_page(request, render_page("learn.html", lang, learn_values(game_id, lang)), lang,
                   200 if known else 404)


def learn_values(game_id: str, lang: str) -> dict[str, str]:
    """What the lessons page's template leaves to the registry: the title, the rules' link."""
    known = game_id in games() and has_lessons(game_id)
    title = pick_words(info(game_id).title, lang) if game_id in games() else game_id[:40]
    heading = f"{word('learn.title', lang)} — {title}" if known else word("learn.title", lang)
    return {
        "page-title": html.escape(f"{heading} — Ludothèque"),
        "heading": html.escape(heading),
        "game": html.escape(game_id if known else ""),
        "rules": html.escape(f"/rules/{game_id}" if game_id in games() else "/"),
        "unknown": "" if known else (
            f'<p class="message">{html.escape(word("learn.unknown", lang, game=game_id[:40]))}</p>'),
    }


@router.get("/account", include_in_schema=False)
async def account_page(request: Request) -> Response:
    """The account page: sign up, sign in, the guest's name, password, notifications, API tokens."""
    lang = reader_language(request)
    return answer_page(request, render_page("account.html", lang, {}), lang)


@router.get("/players/{name}", include_in_schema=False)
async def player_page(request: Request, name: str) -> Response:
    """A player's page: ratings over time, current games, games with filters (filled by its script)."""
    lang = reader_language(request)
    values = {"name": html.escape(name[:40]), "default-game": html.escape(lobby_default())}
    return answer_page(request, render_page("player.html", lang, values), lang)


@router.get("/tournaments", include_in_schema=False)
async def tournaments_page(request: Request) -> Response:
    """The tournaments: upcoming, running and finished (filled by its script), and the form that
    creates one (a signed-in player's)."""
    lang = reader_language(request)
    values = lobby_values(lang)
    service = getattr(request.app.state, "tournaments", None)
    for status in TOURNAMENT_LISTS:  # the lists read without JavaScript too (its script keeps them live)
        listed = [] if service is None else await service.hub.storage.run(service.store.listing, status)
        values[f"{status}-list"] = tournament_items(listed[:LISTED_TOURNAMENTS], lang)
    return answer_page(request, render_page("tournaments.html", lang, values), lang)


def tournament_items(listed: list[dict[str, Any]], lang: str) -> str:
    """The ``<li>`` of each tournament listed: its name linked to its page, its game and rounds
    (an arena: its minutes)."""
    if not listed:
        return f'<li class="muted" data-i18n="lobby.none">{html.escape(word("lobby.none", lang))}</li>'
    items = []
    for tournament in listed:
        game_id = str(tournament["game"])
        title = pick_words(info(game_id).title, lang) if game_id in games() else game_id
        if tournament.get("system") == "arena":  # an arena's minutes instead of rounds
            minutes = int(tournament.get("duration") or 0)
            rounds = word(f"arena.duration.{'one' if minutes == 1 else 'other'}", lang, n=str(minutes))
        else:
            form = "one" if tournament["rounds"] == 1 else "other"  # 1 to 20 rounds: French agrees
            rounds = word(f"tournament.roundCount.{form}", lang, n=str(tournament["rounds"]))
        items.append(
            f'<li data-tournament="{html.escape(str(tournament["id"]))}"><span class="what">'
            f'<a class="tournament-name" href="/tournaments/{html.escape(str(tournament["id"]))}">'
            f'{html.escape(str(tournament["name"]))}</a>'
            f'<span class="tournament-line">{html.escape(f"{title} · {rounds}")}</span></span></li>')
    return "".join(items)


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament_page(request: Request, tournament_id: str) -> Response:
    """A tournament's page: entries, standings, pairings per round (filled by its script, live);
    its name is written here when the tournaments run in this app, 404 for an unknown one."""
    lang = reader_language(request)
    name, status = word("tournament.title", lang), 200
    service = getattr(request.app.state, "tournaments", None)
    if service is not None:
        try:
            name = str((await service.document(tournament_id))["name"])
        except ApiError as error:
            if error.status != 404:
                raise
            status = 404
    values = {"page-title": html.escape(f"{name} — Ludothèque"), "heading": html.escape(name),
              "unknown": "" if status == 200 else (
                  f'<p class="message">{html.escape(word("tournament.unknown", lang))}</p>')}
    return answer_page(request, render_page("tournament.html", lang, values), lang, status)


@router.get("/games/{game_id}", include_in_schema=False)
@router.get("/play/{game_id}", include_in_schema=False)
async def game_page(game_id: str) -> Response:
    path = WEB_DIR / "game.html"
    if path.is_file():
        return FileResponse(path, media_type="text/html")
    return HTMLResponse(_fallback_lobby("en"))


@router.get("/rules/{game_id}", include_in_schema=False)
async def rules_page(request: Request, game_id: str) -> Response:
    """A game's rules in the reader's language, with every game's rules a link away; 404 for an
    unknown game (the page says so)."""
    lang = reader_language(request)
    if not (WEB_DIR / "rules.html").is_file():
        return answer_page(request, _fallback_lobby(lang), lang)
    known = game_id in games()
    return answer_page(request, render_page("rules.html", lang, rules_values(game_id, lang)), lang,
                   200 if known else 404)


def rules_values(game_id: str, lang: str) -> dict[str, str]:
    """What the rules page's template leaves to the registry: the games' links, this game's title,
    picture and rules (its RULES.md section, headings under the page's ``<h1>``)."""
    known = game_id in games()
    title = pick_words(info(game_id).title, lang) if known else game_id
    heading = f"{word('rules.title', lang)} — {title}" if known else word("rules.title", lang)
    if not known:
        body = f"<p>{html.escape(word('rules.unknown', lang, game=game_id[:40]))}</p>"
    elif (text := rules_text(game_id)) is None:
        body = f"<p>{html.escape(word('rules.missing', lang))}</p>"
    else:
        body = lower_headings(render(rules_section(text, lang)), top=2)
    current = ' aria-current="page"'
    links = "".join(
        f'<a id="rules-{html.escape(other)}" href="/rules/{html.escape(other)}"'
        f'{current if other == game_id else ""}>'
        f'{html.escape(pick_words(info(other).title, lang))}</a>\n      '
        for other in games()
    )
    return {
        "page-title": html.escape(f"{heading} — Ludothèque"),
        "heading": html.escape(heading),
        "rules-nav": links.rstrip(),
        "picture": html.escape(picture_url(game_id) if known else LOGO),
        "new-game": html.escape(f"/?game={game_id}#new-game" if known else "/#new-game"),
        "learn": learn_link(game_id, lang) if known else "",
        "puzzles": puzzles_link(game_id, lang) if known else "",
        "lang": lang,
        "rules": body,
    }


def lower_headings(rendered: str, *, top: int) -> str:
    """``rendered`` HTML with its headings moved so that the highest is ``<h{top}>`` (the rules'
    ``###`` sections under a page's ``<h1>``: no level skipped).

    >>> lower_headings("<h3>A</h3><h4>B</h4>", top=2)
    '<h2>A</h2><h3>B</h3>'
    """
    levels = [int(level) for _, level in _HEADING.findall(rendered)]
    shift = min(levels, default=top) - top
    if shift <= 0:
        return rendered
    return _HEADING.sub(lambda m: f"<{m.group(1)}h{int(m.group(2)) - shift}>", rendered)


# -- what a game's package ships for the pages ----------------------------------------------------
def package_file(game_id: str, name: str) -> Traversable | None:
    """The file ``name`` of the package that declares ``game_id``, if it ships one."""
    return info(game_id).resource(name)


def board_url(game_id: str) -> str:
    """Where the game page imports the game's board from (the generic board when none exists)."""
    if package_file(game_id, PAGE_BOARD):
        return f"/static/games/{game_id}.js"
    return GENERIC_BOARD


def picture_url(game_id: str) -> str:
    """The game's picture for the lobby and the rules page (the site's logo when it has none)."""
    if package_file(game_id, PICTURE):
        return f"/static/img/{game_id}.svg"
    return LOGO


def _served(folder: str, name: str, suffix: str, shipped: str, media_type: str) -> Response:
    """``web/<folder>/<name><suffix>``, else the file ``shipped`` of game ``name``'s package."""
    if not _NAME.fullmatch(name):
        raise ApiError(404, f"no file {quoted(name + suffix)}", "not_found")
    path = WEB_DIR / folder / f"{name}{suffix}"
    if path.is_file():
        return FileResponse(path, media_type=media_type)
    found = package_file(name, shipped) if name in games() else None
    if found is None:
        raise ApiError(404, f"no file {quoted(name + suffix)}", "not_found")
    return Response(found.read_bytes(), media_type=media_type)


@router.get("/static/games/{name}.js", include_in_schema=False)
async def page_board(name: str) -> Response:
    return _served("games", name, ".js", PAGE_BOARD, "text/javascript")


@router.get("/static/games/{name}.css", include_in_schema=False)
async def page_board_styles(name: str) -> Response:
    return _served("games", name, ".css", PAGE_BOARD_STYLES, "text/css")


@router.get("/static/img/{name}.svg", include_in_schema=False)
async def picture(name: str) -> Response:
    return _served("img", name, ".svg", PICTURE, "image/svg+xml")


# -- the catalog and the rules ------------------------------------------------------------------
@router.get("/api/catalog")
async def catalog() -> dict[str, Any]:
    """Every registered game's facts, for the lobby's create form and the game pages."""
    return {"games": [game_facts(game_id) for game_id in games()], "bot_levels": list(bot_levels())}


@router.get("/api/rules/{game_id}")
async def rules(game_id: str, lang: str = "fr") -> dict[str, str]:
    if lang not in RULES_SECTIONS:
        raise ApiError(400, f"unknown language {quoted(lang)}; expected fr or en", "bad_request")
    if game_id not in games():
        raise ApiError(404, f"unknown game {quoted(game_id)}; known games: {', '.join(games())}",
                       "unknown_game")
    text = rules_text(game_id)
    if text is None:
        raise ApiError(404, f"{game_id}: no rules page (RULES.md) is installed", "not_found")
    return {"game": game_id, "lang": lang, "html": render(rules_section(text, lang))}


def game_facts(game_id: str) -> dict[str, Any]:
    """A game's catalog entry: its declared facts (``GameInfo``) and where the pages find its board
    and picture."""
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
        "perfect": perfect_play(game_id, facts.variants, facts.package_name),
        "variant_names": {
            variant: {lang: facts.variant_name(variant, lang) for lang in LANGUAGES}
            for variant in facts.variants
        },
        "phase_names": {phase: dict(words) for phase, words in facts.phase_names.items()},
        "reasons": {
            reason: {"plain": dict(words.plain), "naming_loser": dict(words.naming_loser)}
            for reason, words in facts.reasons.items()
        },
        "board": board_url(game_id),
        "picture": picture_url(game_id),
    }


def perfect_play(game_id: str, variants: Sequence[str], package: str) -> dict[str, Any] | None:
    """Where the ``perfect`` level plays here: ``None`` for a game whose package is not solved (or
    no bots), else ``{"variants": {variant: "complete" | "partial"}}`` for the rule sets whose
    tables are built on this server (``partial``: it falls back to ``hard`` where they stop); a
    rule set missing there is not offered (the pages say so)."""
    if not bots_available() or not package or solved.perfect_module(package) is None:
        return None
    return {"variants": {
        variant: "complete" if solved.complete(game_id, variant) else "partial"
        for variant in variants if solved.available(game_id, variant)}}


def bot_levels() -> tuple[str, ...]:
    """The levels people choose from (none when the bots package is missing)."""
    return BOT_LEVELS if bots_available() else ()


def rules_text(game_id: str) -> str | None:
    """The ``RULES.md`` of the package that declares ``game_id``, ``None`` when it ships none."""
    return info(game_id).rules_text()



def render(markdown: str) -> str:
    # Raw HTML stays escaped: the rules are text, never markup to trust.
    rendered: str = MarkdownIt("commonmark", {"html": False}).enable("table").render(markdown)
    return rendered


def _fallback_lobby(lang: str) -> str:
    """A lobby readable without the front end: the games by name and summary."""
    items = "".join(
        f'<li><a href="/rules/{html.escape(g)}">{html.escape(pick_words(info(g).title, lang))}</a> — '
        f"{html.escape(pick_words(info(g).summary, lang))}</li>"
        for g in games()
    )
    return (
        f'<!doctype html><html lang="{lang}"><head><meta charset="utf-8"><title>Ludothèque</title>'
        f"</head><body><h1>Ludothèque</h1><ul>{items}</ul></body></html>"
    )
