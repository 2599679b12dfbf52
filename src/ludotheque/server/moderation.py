"""Moderation: people report players (or their chat lines); moderators warn, mute, suspend, close
accounts and hide chat lines, each action a row of the audit log (``moderation_log``).

:class:`ModerationStore` holds the blocking database calls (each action and its audit row are one
transaction); :class:`Moderation` runs them on the storage's threads and makes their effects
happen on every worker: a suspension or closure ends the account's sessions and personal tokens
(their sockets close everywhere: ``People.end``), deletes its waiting seeks and calls
:attr:`Moderation.suspended_hooks` (e.g. to end challenges); a mute refuses its chat lines; a
hidden line reaches its room's readers again without its text; a warning reaches the player's
own socket, and their pages through ``GET /api/me`` until they saw it. docs/moderation.md.

>>> check_action("suspend", 60), check_action("warn", 60)
(60, None)
>>> check_action("mute", None)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: a mute lasts a number of minutes ("minutes": 1 to 5256000)
"""

from __future__ import annotations

import json
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Engine, and_, delete, exists, insert, or_, select, update

from . import moderation_tables, tables
from .accounts import BARS, Account, name_key
from .chat import public_line
from .errors import ApiError, quoted
from .people import People
from .throttle import KeyedThrottle

ACCOUNTS = tables.accounts.c
CHAT = tables.chat.c
SEATS = tables.seats.c
GAMES = tables.games.c
REPORTS = moderation_tables.reports.c
SANCTIONS = moderation_tables.sanctions.c
HIDDEN = moderation_tables.hidden_chat.c
LOG = moderation_tables.moderation_log.c
OPEN, HANDLED = "open", "handled"
# What a moderator does to an account; the lifts end a mute or a suspension (or a closure) early.
SANCTION_ACTIONS = ("warn", "mute", "suspend", "close")
LIFTS = {"unmute": ("mute",), "unsuspend": ("suspend", "close")}
ACTIONS = (*SANCTION_ACTIONS, *LIFTS)
TIMED = ("mute", "suspend")
MAX_MINUTES = 10 * 365 * 24 * 60
# Reports one person may send: enough to report a bad game, not to flood the queue.
REPORT_LIMIT = "5/minute;30/day"
# What a player's page on the moderation page shows of them.
PLAYER_GAMES = 50
PLAYER_LINES = 100
LOG_ROWS = 200
# The moderator named in the audit rows of the command line (``ludotheque moderator``).
COMMAND_LINE = "(command line)"
SuspendedHook = Callable[[str], Awaitable[None]]


def check_action(action: str, minutes: int | None) -> int | None:
    """``minutes`` if ``action`` is one with a duration (``None`` otherwise); 400 for a bad one."""
    if action not in ACTIONS:
        raise ApiError(404, f"no moderation action {quoted(action)}; expected one of {', '.join(ACTIONS)}",
                       "not_found")
    if action not in TIMED:
        return None
    if minutes is None or not 1 <= minutes <= MAX_MINUTES:
        raise ApiError(400, f'a {action} lasts a number of minutes ("minutes": 1 to {MAX_MINUTES})',
                       "bad_request")
    return minutes


@dataclass
class Outcome:
    """What an action changed that the rest of the server must hear of."""

    account_id: str
    name: str
    entry: dict[str, Any]
    sessions: list[str] = field(default_factory=list)
    tokens: list[str] = field(default_factory=list)
    seeks: list[str] = field(default_factory=list)
    sanction: int | None = None


def _entry(row: Any) -> dict[str, Any]:
    entry = dict(row._mapping)
    if isinstance(entry.get("detail"), str):
        entry["detail"] = json.loads(entry["detail"])
    return entry


class ModerationStore:
    """Reports, sanctions, hidden lines and the audit log in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- the audit log ------------------------------------------------------------------------
    @staticmethod
    def _log(connection: Any, moderator: Account | None, action: str, target_id: str | None, target: str,
             reason: str, **detail: Any) -> dict[str, Any]:
        row = {"at": time.time(), "moderator_id": moderator.id if moderator else None,
               "moderator": moderator.name if moderator else COMMAND_LINE, "action": action,
               "target_id": target_id, "target": target, "reason": reason,
               "detail": json.dumps(detail, sort_keys=True)}
        key = connection.execute(insert(moderation_tables.moderation_log).values(**row)).inserted_primary_key
        return {**row, "id": key[0] if key else None, "detail": detail}

    def log(self, limit: int = LOG_ROWS) -> list[dict[str, Any]]:
        """The audit log, newest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(moderation_tables.moderation_log)
                                      .order_by(LOG.id.desc()).limit(limit)).all()
        return [_entry(row) for row in rows]

    # -- accounts -----------------------------------------------------------------------------
    @staticmethod
    def _account(connection: Any, name: str) -> Any:
        row = connection.execute(select(ACCOUNTS.id, ACCOUNTS.name, ACCOUNTS.moderator)
                                 .where(ACCOUNTS.name_key == name_key(name))).first()
        if row is None:
            raise ApiError(404, f"no player named {quoted(name)}", "not_found")
        return row

    def set_moderator(self, name: str, on: bool) -> str:
        """Grant (``on``) or revoke the moderator role of player ``name``; their name."""
        with self.engine.begin() as connection:
            row = self._account(connection, name)
            connection.execute(update(tables.accounts).where(ACCOUNTS.id == row.id).values(moderator=on))
            self._log(connection, None, "grant" if on else "revoke", row.id, row.name, "moderator role")
        return str(row.name)

    # -- reports ------------------------------------------------------------------------------
    def report(self, reporter: Account, player: str, reason: str, chat_line: int | None,
               game_id: str | None) -> dict[str, Any]:
        """A new open report of ``player`` (by name) by ``reporter``; a reported chat line's text is
        kept as it is now."""
        with self.engine.begin() as connection:
            target = self._account(connection, player)
            text = None
            if chat_line is not None:
                line = connection.execute(select(CHAT.game_id, CHAT.text).where(CHAT.id == chat_line)).first()
                if line is None or (game_id is not None and line.game_id != game_id):
                    where = f" in game {game_id}" if game_id else ""
                    raise ApiError(404, f"no chat line {chat_line}{where}", "not_found")
                game_id, text = line.game_id, line.text
            row = {"reporter_id": reporter.id, "reporter_name": reporter.name, "player_id": target.id,
                   "player_name": target.name, "reason": reason, "game_id": game_id, "chat_line": chat_line,
                   "chat_text": text, "status": OPEN, "created": time.time()}
            key = connection.execute(insert(moderation_tables.reports).values(**row)).inserted_primary_key
        return {"id": key[0] if key else None, **{name: row[name] for name in (
            "player_name", "reason", "game_id", "chat_line", "chat_text", "status", "created")}}

    def reports(self, status: str | None = OPEN, player_id: str | None = None) -> list[dict[str, Any]]:
        """Reports (``status``: open or handled; ``None``: both), oldest open first."""
        query = select(moderation_tables.reports).order_by(REPORTS.id)
        if status is not None:
            query = query.where(REPORTS.status == status)
        if player_id is not None:
            query = query.where(REPORTS.player_id == player_id)
        with self.engine.connect() as connection:
            return [dict(row._mapping) for row in connection.execute(query.limit(LOG_ROWS)).all()]

    def handle_report(self, moderator: Account, report_id: int, reason: str) -> dict[str, Any]:
        """Report ``report_id`` is handled (whatever was done about it): it leaves the queue."""
        with self.engine.begin() as connection:
            row = connection.execute(select(moderation_tables.reports).where(REPORTS.id == report_id)).first()
            if row is None:
                raise ApiError(404, f"no report {report_id}", "not_found")
            connection.execute(update(moderation_tables.reports).where(REPORTS.id == report_id).values(
                status=HANDLED, handled_by=moderator.name, handled=time.time()))
            return self._log(connection, moderator, "handle_report", row.player_id, row.player_name, reason,
                             report=report_id)

    # -- sanctions ----------------------------------------------------------------------------
    def sanction(self, moderator: Account, name: str, action: str, reason: str,
                 minutes: int | None) -> Outcome:
        """Warn, mute, suspend or close the account of player ``name``. A suspension or closure
        ends its sessions and personal tokens and deletes its seeks (returned, to be told)."""
        now = time.time()
        until = now + minutes * 60 if minutes is not None else None
        with self.engine.begin() as connection:
            target = self._account(connection, name)
            if target.id == moderator.id:
                raise ApiError(400, "a moderator does not sanction themselves", "bad_request")
            key = connection.execute(insert(moderation_tables.sanctions).values(
                account_id=target.id, kind=action, reason=reason, moderator=moderator.name, created=now,
                until=until)).inserted_primary_key
            outcome = Outcome(target.id, target.name, {}, sanction=key[0] if key else None)
            if action in ("suspend", "close"):
                self._end_credentials(connection, outcome)
            outcome.entry = self._log(connection, moderator, action, target.id, target.name, reason,
                                      minutes=minutes, until=until, seeks=len(outcome.seeks))
        return outcome

    @staticmethod
    def _end_credentials(connection: Any, outcome: Outcome) -> None:
        sessions, tokens, seeks = tables.login_sessions.c, tables.api_tokens.c, tables.seeks.c
        account = outcome.account_id
        outcome.sessions = list(connection.execute(select(sessions.token_hash)
                                                   .where(sessions.account_id == account)).scalars())
        outcome.tokens = list(connection.execute(select(tokens.token_hash)
                                                 .where(tokens.account_id == account)).scalars())
        outcome.seeks = list(connection.execute(select(seeks.id)
                                                .where(seeks.account_id == account)).scalars())
        connection.execute(delete(tables.login_sessions).where(sessions.account_id == account))
        connection.execute(delete(tables.api_tokens).where(tokens.account_id == account))
        connection.execute(delete(tables.seeks).where(seeks.account_id == account))

    def lift(self, moderator: Account, name: str, action: str, reason: str) -> Outcome:
        """End the account's sanctions of ``LIFTS[action]`` in force (404 when none is)."""
        now = time.time()
        with self.engine.begin() as connection:
            target = self._account(connection, name)
            in_force = (SANCTIONS.account_id == target.id, SANCTIONS.kind.in_(LIFTS[action]),
                        SANCTIONS.lifted.is_(None), or_(SANCTIONS.until.is_(None), SANCTIONS.until > now))
            lifted = connection.execute(update(moderation_tables.sanctions).where(*in_force)
                                        .values(lifted=now)).rowcount
            if not lifted:
                kinds = " or ".join(LIFTS[action])
                raise ApiError(404, f"{target.name} has no {kinds} in force", "not_found")
            entry = self._log(connection, moderator, action, target.id, target.name, reason)
        return Outcome(target.id, target.name, entry)

    def sanctions(self, account_id: str) -> list[dict[str, Any]]:
        """Every sanction of the account, newest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(moderation_tables.sanctions).where(
                SANCTIONS.account_id == account_id).order_by(SANCTIONS.id.desc())).all()
        return [dict(row._mapping) for row in rows]

    def warnings(self, account_id: str) -> list[dict[str, Any]]:
        """The warnings the player has not seen yet, oldest first."""
        with self.engine.connect() as connection:
            rows = connection.execute(select(SANCTIONS.id, SANCTIONS.reason, SANCTIONS.created).where(
                SANCTIONS.account_id == account_id, SANCTIONS.kind == "warn", SANCTIONS.seen.is_(None),
                SANCTIONS.lifted.is_(None)).order_by(SANCTIONS.id)).all()
        return [{"id": row.id, "reason": row.reason, "at": row.created} for row in rows]

    def saw_warnings(self, account_id: str, ids: list[int]) -> int:
        """The player saw their warnings ``ids``: they are not shown again. How many were new."""
        with self.engine.begin() as connection:
            return int(connection.execute(update(moderation_tables.sanctions).where(
                SANCTIONS.account_id == account_id, SANCTIONS.kind == "warn", SANCTIONS.id.in_(ids),
                SANCTIONS.seen.is_(None)).values(seen=time.time())).rowcount)

    # -- chat ---------------------------------------------------------------------------------
    def hide_line(self, moderator: Account, line_id: int, reason: str) -> dict[str, Any]:
        """Hide chat line ``line_id`` for good; the line as stored (with its text and game)."""
        with self.engine.begin() as connection:
            row = connection.execute(select(tables.chat).where(CHAT.id == line_id)).mappings().first()
            if row is None:
                raise ApiError(404, f"no chat line {line_id}", "not_found")
            if connection.execute(select(HIDDEN.chat_id).where(HIDDEN.chat_id == line_id)).first() is None:
                connection.execute(insert(moderation_tables.hidden_chat).values(
                    chat_id=line_id, moderator=moderator.name, at=time.time()))
            author = connection.execute(select(SEATS.account_id).where(
                SEATS.game_id == row["game_id"], SEATS.seat == row["seat"])).scalar()
            self._log(connection, moderator, "hide_line", author, row["author"], reason, line=line_id,
                      game=row["game_id"], room=row["room"], text=row["text"])
        return dict(row)

    # -- a player's file ----------------------------------------------------------------------
    def player(self, name: str) -> dict[str, Any]:
        """What the moderation page shows of a player: their account, sanctions, the reports of
        them, their last games and chat lines (hidden ones with their text, marked)."""
        with self.engine.connect() as connection:
            target = self._account(connection, name)
            account = connection.execute(
                select(ACCOUNTS.id, ACCOUNTS.name, ACCOUNTS.is_guest, ACCOUNTS.created, ACCOUNTS.seen,
                       ACCOUNTS.moderator).where(ACCOUNTS.id == target.id)).mappings().one()
            games = connection.execute(
                select(GAMES.id, GAMES.game, GAMES.status, GAMES.created, SEATS.seat)
                .join(tables.seats, SEATS.game_id == GAMES.id).where(SEATS.account_id == target.id)
                .order_by(GAMES.updated.desc()).limit(PLAYER_GAMES)).mappings().all()
            by_seat = exists().where(SEATS.game_id == CHAT.game_id, SEATS.seat == CHAT.seat,
                                     SEATS.account_id == target.id)
            lines = connection.execute(
                select(tables.chat, HIDDEN.chat_id.label("hidden"))
                .outerjoin(moderation_tables.hidden_chat, HIDDEN.chat_id == CHAT.id)
                .where(or_(by_seat, and_(CHAT.seat.is_(None), CHAT.author == target.name)))
                .order_by(CHAT.id.desc()).limit(PLAYER_LINES)).mappings().all()
        return {
            "account": dict(account), "sanctions": self.sanctions(target.id),
            "reports": self.reports(None, target.id), "games": [dict(game) for game in games],
            "chat": [{**public_line(line, hidden=False), "game_id": line["game_id"],
                      "hidden": line["hidden"] is not None} for line in lines],
        }


def sanction_json(row: dict[str, Any], now: float) -> dict[str, Any]:
    """A sanction as the API shows it, with whether it is in force now."""
    in_force = row["kind"] in BARS and row["lifted"] is None and (row["until"] is None or row["until"] > now)
    return {**row, "in_force": in_force}


class Moderation:
    """Moderation's actions with their effects (on ``people``, the chat and the seeks)."""

    def __init__(self, store: ModerationStore, people: People, hub: Any,
                 report_limit: str | None = REPORT_LIMIT) -> None:
        self.store = store
        self.people = people
        self.hub = hub
        self.report_throttle = KeyedThrottle(report_limit, "reports")
        # Called with an account's id once it is suspended or closed (challenges end there).
        self.suspended_hooks: list[SuspendedHook] = []

    async def run(self, function: Callable[..., Any], *args: Any) -> Any:
        return await self.people.run(function, *args)

    async def report(self, reporter: Account, address: str, player: str, reason: str,
                     chat_line: int | None, game_id: str | None) -> dict[str, Any]:
        self.report_throttle.check(f"account:{reporter.id}")
        self.report_throttle.check(f"address:{address}")
        return dict(await self.run(self.store.report, reporter, player, reason, chat_line, game_id))

    async def act(self, moderator: Account, name: str, action: str, reason: str,
                  minutes: int | None) -> dict[str, Any]:
        """Action ``action`` (``ACTIONS``) on player ``name``; its audit entry."""
        minutes = check_action(action, minutes)
        if action in LIFTS:
            outcome: Outcome = await self.run(self.store.lift, moderator, name, action, reason)
        else:
            outcome = await self.run(self.store.sanction, moderator, name, action, reason, minutes)
        # Every worker forgets what it cached (the sanctions in force too) and closes the sockets
        # of the sessions and tokens ended.
        await self.people.end(sessions=outcome.sessions, tokens=outcome.tokens)
        if action == "warn":
            await self.hub.notices.tell(outcome.account_id, {"type": "warning", "warning": {
                "id": outcome.sanction, "reason": reason, "at": outcome.entry["at"]}})
        if action in ("suspend", "close"):
            for hook in self.suspended_hooks:
                await hook(outcome.account_id)
        return outcome.entry

    async def hide(self, moderator: Account, line_id: int, reason: str) -> dict[str, Any]:
        """Hide chat line ``line_id``: its room's readers get it again without its text."""
        line = await self.run(self.store.hide_line, moderator, line_id, reason)
        session = await self.hub.games.get(line["game_id"])
        await self.hub.game_chat.hide(session, line)
        return {"id": line_id, "hidden": True}

    async def handle(self, moderator: Account, report_id: int, reason: str) -> dict[str, Any]:
        return dict(await self.run(self.store.handle_report, moderator, report_id, reason))
