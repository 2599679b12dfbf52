"""The moderation page, ``/admin``: sqladmin's lists over the moderation tables (the reports queue,
players, sanctions, the audit log), all read-only, and a player's file (``/admin/moderation/player``)
whose forms act through :class:`~.moderation.Moderation` (so that every action is audited and its
effects happen), never by editing rows.

Only moderators get in: the authentication backend reads the site's own session cookie (or a
personal token) and answers 403 to anyone else. sqladmin's pages load their scripts and styles
from ``/admin/statics`` (no CDN); its one inline script (the flash messages) is replaced by a
template without it (``web/moderation/sqladmin/flash.html``), so the site's CSP holds there too,
but for ``data:`` images (Tabler's select arrows) as on ``/api/docs``.
The tables are SQLAlchemy Core: they are mapped here, imperatively, on classes of their own.
French or English as the rest of the site (``?lang=``, the ``lang`` cookie, the browser's
language): sqladmin translates its pages with Babel but ships no French catalog, so this site's
(``web/moderation/fr.po``: sqladmin's words and the names of these lists and columns) is added
to the locales it knows (:func:`add_french`).
"""

from __future__ import annotations

import html
import io
import json
import time
from pathlib import Path
from typing import Any, ClassVar
from urllib.parse import urlencode

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.support import Translations
from fastapi import FastAPI
from markupsafe import Markup, escape
from sqladmin import Admin, BaseView, ModelView, action, expose
from sqladmin import i18n as admin_i18n
from sqladmin.authentication import AuthenticationBackend
from sqladmin.filters import StaticValuesFilter
from sqladmin.i18n import I18nConfig
from sqlalchemy import Engine
from sqlalchemy.orm import Session, registry, sessionmaker
from starlette.requests import Request
from starlette.responses import HTMLResponse, RedirectResponse, Response

from . import moderation_tables, tables
from .accounts import utc_text
from .errors import ApiError
from .identity import is_same_origin
from .moderation import ACTIONS, HANDLED, MAX_MINUTES, OPEN, Moderation, sanction_json
from .people import People

ADMIN_PATH = "/admin"
TEMPLATES = Path(__file__).resolve().parent.parent / "web" / "moderation"
WORDS = Path(__file__).resolve().parent.parent / "web" / "app" / "texts-moderation.json"
LANGUAGES = ("fr", "en")
FRENCH = TEMPLATES / "fr.po"
_mapped = registry()


class Report:
    """A row of ``reports`` (sqladmin lists ORM objects)."""


class Player:
    """A row of ``accounts``: only harmless columns are ever listed (no hashes, no addresses)."""


class SanctionRow:
    """A row of ``sanctions``."""


class AuditEntry:
    """A row of ``moderation_log``."""


class Word(str):
    """A name of these pages (a list, a column, an action), in English where it is compared or
    hashed (sqladmin keys its columns by their labels), in the request's language where a page
    shows it (Jinja calls ``__html__``)."""

    def __html__(self) -> str:
        return str(escape(admin_i18n.gettext(str(self))))


def add_french() -> None:
    """Give sqladmin the French of ``web/moderation/fr.po`` (once): it reads the locales it knows
    from ``SUPPORTED_LOCALES`` and their catalogs from ``translations`` at every request."""
    if "fr" in admin_i18n.SUPPORTED_LOCALES:
        return
    with FRENCH.open("rb") as source:
        catalog = read_po(source, locale="fr")
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    compiled.seek(0)
    admin_i18n.translations["fr"] = Translations(compiled, domain="admin")
    admin_i18n.SUPPORTED_LOCALES.append("fr")


_mapped.map_imperatively(Report, moderation_tables.reports)
_mapped.map_imperatively(Player, tables.accounts)
_mapped.map_imperatively(SanctionRow, moderation_tables.sanctions)
_mapped.map_imperatively(AuditEntry, moderation_tables.moderation_log)


def when(moment: float | None) -> str:
    return utc_text(moment) if moment is not None else ""


def _player_link(name: str) -> Markup:
    link = f"{ADMIN_PATH}/moderation/player?{urlencode({'name': name})}"
    return Markup(f'<a href="{html.escape(link)}">{html.escape(name)}</a>')


def _at(model: Any, attribute: str) -> str:
    return when(getattr(model, attribute))


# Every column's name as the lists show it (translated: web/moderation/fr.po).
COLUMN_LABELS: dict[str, Any] = {
    "id": "#", "status": Word("Status"), "player_name": Word("Reported player"),
    "reporter_name": Word("Reported by"), "reason": Word("Reason"), "chat_text": Word("Chat line"),
    "chat_line": Word("Chat line id"), "game_id": Word("Game"), "created": Word("Created"),
    "handled_by": Word("Handled by"), "handled": Word("Handled"), "name": Word("Name"),
    "is_guest": Word("Guest"), "moderator": Word("Moderator"), "kind": Word("Kind"),
    "account_id": Word("Account"), "until": Word("Until"), "lifted": Word("Lifted"), "seen": Word("Seen"),
    "at": Word("At"), "action": Word("Action"), "target": Word("Target"), "detail": Word("Detail"),
    "moderator_id": Word("Moderator id"), "target_id": Word("Target id"),
}


class ReadOnly(ModelView):
    """A list with details and search, nothing edited, created, deleted or exported here."""

    can_create = False
    can_edit = False
    can_delete = False
    can_export = False
    page_size = 25
    column_labels: ClassVar[dict[Any, Any]] = COLUMN_LABELS

    def search_placeholder(self) -> str:
        """The searched columns' names, in the request's language (sqladmin joins its labels)."""
        return ", ".join(admin_i18n.gettext(str(label)) for label in super().search_placeholder().split(", "))


STATUSES: list[tuple[str, str]] = [(OPEN, Word(OPEN)), (HANDLED, Word(HANDLED))]


class Reports(ReadOnly, model=Report):
    name, name_plural, icon = Word("Report"), Word("Reports"), "fa-solid fa-flag"
    column_list: ClassVar[list[Any]] = ["id", "status", "player_name", "reporter_name", "reason", "chat_text",
                                        "game_id", "created"]
    column_details_list: ClassVar[list[Any]] = [*column_list, "chat_line", "handled_by", "handled"]
    column_searchable_list: ClassVar[list[Any]] = ["player_name", "reporter_name", "reason"]
    column_default_sort: ClassVar[list[Any]] = [("id", True)]
    column_filters: ClassVar[list[Any]] = [StaticValuesFilter("status", STATUSES, title=Word("Status"))]
    column_formatters: ClassVar[dict[Any, Any]] = {
        "player_name": lambda model, _: _player_link(model.player_name), "created": _at,
        "status": lambda model, _: Word(model.status)}
    column_formatters_detail: ClassVar[dict[Any, Any]] = {**column_formatters, "handled": _at}

    @action("open-player", label=Word("Open the player's file"), add_in_list=True, add_in_detail=True)
    async def open_player(self, request: Request) -> Response:
        """To the reported player's file, where the report is handled (a form: a POST)."""
        first = (request.query_params.get("pks") or "").split(",")[0]
        return RedirectResponse(f"{ADMIN_PATH}/moderation/player?report={first}", status_code=303)


class Players(ReadOnly, model=Player):
    name, name_plural, icon = Word("Player"), Word("Players"), "fa-solid fa-user"
    column_list: ClassVar[list[Any]] = ["name", "is_guest", "moderator", "created"]
    column_details_list: ClassVar[list[Any]] = column_list
    column_searchable_list: ClassVar[list[Any]] = ["name"]
    column_default_sort: ClassVar[list[Any]] = [("seen", True)]
    column_formatters: ClassVar[dict[Any, Any]] = {"name": lambda model, _: _player_link(model.name)}
    column_formatters_detail: ClassVar[dict[Any, Any]] = column_formatters


class Sanctions(ReadOnly, model=SanctionRow):
    name, name_plural, icon = Word("Sanction"), Word("Sanctions"), "fa-solid fa-gavel"
    column_list: ClassVar[list[Any]] = ["id", "kind", "account_id", "reason", "moderator", "created", "until",
                                        "lifted"]
    column_details_list: ClassVar[list[Any]] = [*column_list, "seen"]
    column_default_sort: ClassVar[list[Any]] = [("id", True)]
    column_formatters: ClassVar[dict[Any, Any]] = {"created": _at, "until": _at, "lifted": _at}
    column_formatters_detail: ClassVar[dict[Any, Any]] = {**column_formatters, "seen": _at}


class AuditLog(ReadOnly, model=AuditEntry):
    name, name_plural, icon = Word("Audit entry"), Word("Audit log"), "fa-solid fa-list"
    column_list: ClassVar[list[Any]] = ["id", "at", "moderator", "action", "target", "reason", "detail"]
    column_details_list: ClassVar[list[Any]] = [*column_list, "moderator_id", "target_id"]
    column_searchable_list: ClassVar[list[Any]] = ["moderator", "target", "action"]
    column_default_sort: ClassVar[list[Any]] = [("id", True)]
    column_formatters: ClassVar[dict[Any, Any]] = {"at": _at}
    column_formatters_detail: ClassVar[dict[Any, Any]] = column_formatters


class ModeratorsOnly(AuthenticationBackend):
    """Moderators only, by the site's own session cookie (or a personal token): no login form of
    the admin's, no session middleware of its own."""

    def __init__(self, app: FastAPI) -> None:
        self.app = app
        self.middlewares = []

    def people(self) -> People:
        people: People = self.app.state.people
        return people

    async def moderator(self, request: Request) -> Any:
        try:
            account = await self.people().account_of(request)
        except ApiError:
            return None
        return account if account is not None and account.moderator else None

    async def authenticate(self, request: Request) -> Response | bool:
        if await self.moderator(request) is not None:
            return True
        return refusal(language(request))

    async def get_user_id(self, request: Request) -> Any:
        account = await self.moderator(request)
        return account.id if account else None

    async def login(self, request: Request) -> Response | bool:
        return RedirectResponse("/account", status_code=303)

    async def logout(self, request: Request) -> Response | bool:
        return RedirectResponse("/", status_code=303)


def language(request: Request) -> str:
    asked = request.query_params.get("lang") or request.cookies.get("lang") or ""
    if asked in LANGUAGES:
        return asked
    accepted = request.headers.get("accept-language", "")
    return "fr" if accepted.lower().startswith("fr") else "en"


def words(lang: str) -> dict[str, str]:
    table: dict[str, dict[str, str]] = json.loads(WORDS.read_text("utf-8"))
    return table[lang]


def refusal(lang: str) -> HTMLResponse:
    """The 403 page of anyone but a moderator (the site's own words, no script)."""
    said = words(lang)
    return HTMLResponse(
        f'<!DOCTYPE html><html lang="{lang}"><head><meta charset="utf-8"><title>{said["moderation.title"]}'
        f'</title><link rel="stylesheet" href="/static/css/style.css"></head><body><main><h1>'
        f'{said["moderation.title"]}</h1><p>{said["moderation.only"]}</p><p><a href="/account">'
        f'{said["moderation.signIn"]}</a></p></main></body></html>', status_code=403)


class PlayerFile(BaseView):
    """A player's file and the forms of the actions on them."""

    name = Word("Player's file")
    icon = "fa-solid fa-user-shield"
    identity = "file"
    main: FastAPI  # the site's app (its state holds the moderation), set on each app's subclass

    def moderation(self) -> Moderation:
        moderation: Moderation = self.main.state.moderation
        return moderation

    @expose("/moderation/player", methods=["GET"], identity="file")
    async def player(self, request: Request) -> Response:
        name = request.query_params.get("name", "")
        report = request.query_params.get("report", "")
        if not name and report.isdigit():
            found = await self.moderation().run(self.moderation().store.reports, None)
            name = next((entry["player_name"] for entry in found if str(entry["id"]) == report), "")
        done = request.query_params.get("done", "")
        return await self.page(request, name, report=report, done=done)

    async def page(self, request: Request, name: str, *, report: str = "", done: str = "", error: str = "",
                   status: int = 200) -> Response:
        lang = language(request)
        said = words(lang)
        file = None
        if name:
            moderation = self.moderation()
            try:
                file = await moderation.run(moderation.store.player, name)
            except ApiError as refused:
                error, status = error or refused.message, 404 if not error else status
        if file is not None:
            now = time.time()
            file["sanctions"] = [sanction_json(row, now) for row in file["sanctions"]]
        context = {"w": said, "lang": lang, "file": file, "name": name, "report": report, "error": error,
                   "done": said["moderation.done"].replace("{action}", done) if done else "",
                   "actions": ACTIONS, "max_minutes": MAX_MINUTES, "when": when}
        return await self.templates.TemplateResponse(request, "moderation_player.html", context,
                                                     status_code=status)

    @expose("/moderation/act", methods=["POST"], identity="act")
    async def act(self, request: Request) -> Response:
        """A form of the player's file: the action through the moderation functions, then back."""
        if not is_same_origin(request):
            return HTMLResponse("another site's page may not act here", status_code=403)
        form = await request.form()
        field = {key: str(form.get(key) or "").strip() for key in
                 ("op", "name", "action", "minutes", "reason", "line", "report")}
        moderator = await ModeratorsOnly(self.main).moderator(request)
        if moderator is None:
            return refusal(language(request))
        moderation = self.moderation()
        try:
            done = await self.perform(moderation, moderator, field)
        except ApiError as refused:
            return await self.page(request, field["name"], error=refused.message, status=refused.status)
        target = f"{ADMIN_PATH}/moderation/player?{urlencode({'name': field['name'], 'done': done})}"
        return RedirectResponse(target, status_code=303)

    @staticmethod
    async def perform(moderation: Moderation, moderator: Any, field: dict[str, str]) -> str:
        reason = field["reason"][:500]
        if field["op"] == "hide" and field["line"].isdigit():
            await moderation.hide(moderator, int(field["line"]), reason or "hidden")
            return "hide"
        if field["op"] == "handle" and field["report"].isdigit():
            await moderation.handle(moderator, int(field["report"]), reason)
            return "handle"
        if field["op"] != "sanction":
            raise ApiError(400, "unknown form", "bad_request")
        if not reason:
            raise ApiError(400, "give a reason", "bad_request")
        minutes = int(field["minutes"]) if field["minutes"].isdigit() else None
        await moderation.act(moderator, field["name"], field["action"], reason, minutes)
        if field["report"].isdigit():  # the report that led here is handled by it
            await moderation.handle(moderator, int(field["report"]), f"{field['action']}: {reason}")
        return field["action"]


def mount_admin(app: FastAPI) -> Admin:
    """The moderation page on ``/admin``; :func:`bind_admin` gives it the database once open."""
    add_french()
    admin = Admin(app, session_maker=sessionmaker(class_=Session), base_url=ADMIN_PATH,
                  title=Word("Ludothèque · moderation"), templates_dir=str(TEMPLATES),
                  authentication_backend=ModeratorsOnly(app),
                  i18n_config=I18nConfig(default_locale="en", language_cookie_name="lang"))
    # sqladmin keeps its database and templates on the view classes: each app gets subclasses of
    # its own (tests run several apps in one process).
    for view in (Reports, Players, Sanctions, AuditLog):
        admin.add_view(type(view.__name__, (view,), {}))
    admin.add_base_view(type("PlayerFile", (PlayerFile,), {"main": app}))
    return admin


def bind_admin(admin: Admin, engine: Engine) -> None:
    admin.session_maker.configure(bind=engine)


__all__ = ["ADMIN_PATH", "bind_admin", "mount_admin"]
