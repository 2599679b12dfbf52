"""People's accounts: players (a name and an Argon2 password hash, ``argon2-cffi``) and guests (a
generated name kept by a session cookie, no password), their sign-in sessions and personal API
tokens. Only hashes of session tokens and API tokens are stored.

Calls are synchronous, run on the storage's database threads (``Storage.run``); password hashing
is not: it is slow on purpose and runs on a thread of its own (:func:`hash_password`).

Names are NFKC-normalised (a fullwidth ``Ａ`` is an ``A``) and compared by their Unicode TR39
confusables skeleton (``disarm``), so that no name can pass for another one: ``Аlice`` with a
Cyrillic ``А`` is ``Alice``'s (:func:`name_skeleton`; the column ``name_skeleton`` is unique).
Bidirectional controls (U+202E...) are refused in every name a person gives.

>>> valid_name("Zoé_42"), valid_name("x"), valid_name("guest-1234"), valid_name("a b")
(True, False, False, False)
>>> name_key("Zoé_42"), name_key("Ａda")
('zoé_42', 'ada')
>>> name_skeleton("Alice") == name_skeleton("\u0410lice") == name_skeleton("ALICE")
True
>>> has_bidi_control("abc\u202edcba"), strip_bidi_controls("abc\u202edcba")
(True, 'abcdcba')
>>> is_api_token("lpt_abc"), is_api_token("abc")
(True, False)
"""

from __future__ import annotations

import re
import secrets
import time
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from disarm import skeleton_key
from sqlalchemy import Engine, delete, func, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from . import moderation_tables, tables
from .errors import ApiError
from .sessions import hash_token

# Names people choose: a letter first, then letters, digits, "_", "-" or "."; 3 to 20 characters.
_NAME = re.compile(r"[^\W\d_][\w.-]{2,19}")
# Bidirectional controls: they reorder what a reader sees (U+202E turns "Ada" into "adA").
_BIDI = re.compile("[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")
# Generated guest names ("guest-482193"): nobody may choose one.
GUEST_PREFIX = "guest-"
PASSWORD_MIN = 8
PASSWORD_MAX = 200
# Personal API tokens start with this, so that one is never taken for a seat token.
API_TOKEN_PREFIX = "lpt_"
API_TOKENS_PER_ACCOUNT = 20
SESSION_DAYS = 400
DAY_S = 86_400.0
# How long the link that verifies an e-mail address works.
EMAIL_LINK_DAYS = 7
# OWASP's Argon2id setting (19 MiB, 2 passes, 1 lane): a tenth of a second of one core per sign-in,
# however many cores the server has. Hashes made with other settings are upgraded at sign-in.
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
ACCOUNTS = tables.accounts.c
TOKENS = tables.api_tokens.c
SANCTIONS = moderation_tables.sanctions.c
# The sanctions that bar something (chat, sign-in, play) while in force; warnings bar nothing.
BARS = ("mute", "suspend", "close")
# Verified against when a name is unknown, so that an unknown name takes as long as a bad password.
_DUMMY_HASH = _hasher.hash("not a password anybody has")


def normal_name(name: str) -> str:
    """``name`` in NFKC form, as it is stored: compatibility forms (fullwidth, ligatures) are gone."""
    return unicodedata.normalize("NFKC", name)


def valid_name(name: str) -> bool:
    """Whether ``name`` may be chosen: 3–20 letters, digits, ``_``, ``-`` or ``.``, a letter
    first, and not a guest's generated name."""
    return bool(_NAME.fullmatch(name)) and not name.lower().startswith(GUEST_PREFIX)


def name_key(name: str) -> str:
    """``name`` folded for comparison: ``Ada``, ``ada`` and ``Ａda`` are one name."""
    return normal_name(name).casefold()


def name_skeleton(name: str) -> str:
    """What ``name`` looks like (TR39 skeleton of its folded form): two names with one skeleton
    can pass for each other."""
    return skeleton_key(name_key(name))


def has_bidi_control(text: str) -> bool:
    return _BIDI.search(text) is not None


def strip_bidi_controls(text: str) -> str:
    return _BIDI.sub("", text)


def check_name(name: str) -> str:
    """``name`` normalised, if a person may choose it (400 otherwise)."""
    name = normal_name(name)
    if not valid_name(name):
        raise ApiError(400, "a name has 3 to 20 letters, digits, '_', '-' or '.', and starts with a letter "
                       f"(and does not start with {GUEST_PREFIX!r})", "bad_request")
    return name


def check_password(password: str) -> str:
    if not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(400, f"a password has {PASSWORD_MIN} to {PASSWORD_MAX} characters", "bad_request")
    return password


def hash_password(password: str) -> str:
    """The Argon2id hash of ``password`` (tens of milliseconds of one core: call it off the loop)."""
    return _hasher.hash(password)


def verify_password(stored: str | None, password: str) -> bool:
    """Whether ``password`` matches the stored hash (``None``: no account, verified all the same)."""
    try:
        return _hasher.verify(stored or _DUMMY_HASH, password) and stored is not None
    except (VerificationError, InvalidHashError):
        return False


def needs_rehash(stored: str) -> bool:
    return _hasher.check_needs_rehash(stored)


def is_api_token(token: str) -> bool:
    return token.startswith(API_TOKEN_PREFIX)


def new_api_token() -> str:
    return API_TOKEN_PREFIX + secrets.token_urlsafe(24)


@dataclass(frozen=True)
class Account:
    """A person as the server knows them."""

    id: str
    name: str
    is_guest: bool
    email: str | None = None
    notify_email: bool = False
    created: str = ""
    # Whether ``email`` was proved its owner's (the link sent to it was opened): only then is it mailed.
    email_verified: bool = False
    # Moderators open the moderation page and act on reports (docs/moderation.md).
    moderator: bool = False

    def to_json(self) -> dict[str, Any]:
        """What the account's own pages read (``GET /api/me``)."""
        return {"id": self.id, "name": self.name, "guest": self.is_guest, "email": self.email,
                "email_verified": self.email_verified, "notify_email": self.notify_email,
                "created": self.created, "moderator": self.moderator}


@dataclass(frozen=True)
class Sanction:
    """A mute, suspension or closure in force: ``until`` its end (epoch seconds; ``None``: for good)."""

    kind: str
    until: float | None
    reason: str

    def in_force(self, now: float) -> bool:
        return self.until is None or self.until > now


def utc_text(moment: float) -> str:
    """An instant as people read it in an error: ``2026-11-27 14:05 UTC``."""
    return datetime.fromtimestamp(moment, UTC).strftime("%Y-%m-%d %H:%M UTC")


def sanction_error(sanction: Sanction) -> ApiError:
    """The refusal a sanction in force gives (403), with its end date."""
    if sanction.kind == "close":
        return ApiError(403, "a moderator closed this account", "account_closed")
    until = f"until {utc_text(sanction.until)}" if sanction.until is not None else "for now"
    if sanction.kind == "mute":
        return ApiError(403, f"a moderator muted this account {until}: no chat", "muted")
    return ApiError(403, f"this account is suspended {until}: no sign-in, no play", "suspended")


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.is_guest, row.email, row.notify_email, row.created,
                   bool(row.email and row.email_verified), bool(row.moderator))


class AccountStore:
    """Accounts, sessions and API tokens in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    # -- accounts -----------------------------------------------------------------------------
    def create_guest(self, created: str) -> Account:
        """A new guest with a generated name."""
        for _ in range(20):
            name = f"{GUEST_PREFIX}{secrets.randbelow(10**6):06d}"
            try:
                return self._insert(name, None, is_guest=True, created=created)
            except IntegrityError:
                continue  # that name is taken: draw another
        raise ApiError(503, "no guest name is free right now", "unavailable")

    def create_player(self, name: str, password_hash: str, created: str) -> Account:
        try:
            return self._insert(name, password_hash, is_guest=False, created=created)
        except IntegrityError:
            raise name_taken(name) from None

    def _insert(self, name: str, password_hash: str | None, *, is_guest: bool, created: str) -> Account:
        account = Account(secrets.token_urlsafe(12), name, is_guest, created=created)
        with self.engine.begin() as connection:
            connection.execute(insert(tables.accounts).values(
                id=account.id, name=name, name_key=name_key(name), name_skeleton=name_skeleton(name),
                password_hash=password_hash,
                is_guest=is_guest, created=created, seen=time.time(), notify_email=False))
        return account

    def promote(self, account_id: str, name: str, password_hash: str) -> Account:
        """The guest ``account_id`` becomes a player named ``name``, keeping its games."""
        try:
            with self.engine.begin() as connection:
                connection.execute(update(tables.accounts).where(tables.accounts.c.id == account_id).values(
                    name=name, name_key=name_key(name), name_skeleton=name_skeleton(name),
                    password_hash=password_hash, is_guest=False,
                    seen=time.time()))
                self._rename_seats(connection, account_id, name)
        except IntegrityError:
            raise name_taken(name) from None
        found = self.get(account_id)
        assert found is not None
        return found

    def rename(self, account_id: str, name: str) -> Account:
        """A new name for ``account_id`` (its seats in games not over take it too)."""
        try:
            with self.engine.begin() as connection:
                connection.execute(update(tables.accounts).where(tables.accounts.c.id == account_id)
                                   .values(name=name, name_key=name_key(name),
                                           name_skeleton=name_skeleton(name)))
                self._rename_seats(connection, account_id, name)
        except IntegrityError:
            raise name_taken(name) from None
        found = self.get(account_id)
        assert found is not None
        return found

    @staticmethod
    def _rename_seats(connection: Any, account_id: str, name: str) -> None:
        # Finished games keep the name their players had.
        running = select(tables.games.c.id).where(tables.games.c.status != "over")
        connection.execute(update(tables.seats).where(
            tables.seats.c.account_id == account_id, tables.seats.c.game_id.in_(running)).values(name=name))

    def set_email(self, account_id: str, email: str | None, notify: bool) -> tuple[Account, str | None]:
        """Store the address and the wish for mail; a new address is unverified, and gets a
        verification token (returned, to be mailed to it; ``None``: nothing to send). An address
        is sent one link: saving it again sends none, unless it never had one."""
        with self.engine.begin() as connection:
            row = connection.execute(select(tables.accounts).where(ACCOUNTS.id == account_id)).first()
            values: dict[str, Any] = {"email": email, "notify_email": notify}
            token = None
            fresh = row is None or email != row.email
            never_sent = row is not None and not row.email_verified and row.email_token_hash is None
            if email is None or fresh:
                values.update(email_verified=False, email_token_hash=None, email_token_expires=None)
            if email is not None and (fresh or never_sent):
                token = secrets.token_urlsafe(32)
                values.update(email_token_hash=hash_token(token),
                              email_token_expires=time.time() + EMAIL_LINK_DAYS * DAY_S)
            connection.execute(update(tables.accounts).where(ACCOUNTS.id == account_id).values(**values))
        found = self.get(account_id)
        assert found is not None
        return found, token

    def verify_email(self, token: str) -> Account | None:
        """The account whose address the link of ``token`` proves, now verified (the token is
        spent); ``None`` for an unknown, spent or expired token."""
        digest = hash_token(token)
        with self.engine.begin() as connection:
            account_id = connection.execute(select(ACCOUNTS.id).where(
                ACCOUNTS.email_token_hash == digest, ACCOUNTS.email_token_expires > time.time())).scalar()
            if account_id is None:
                return None
            connection.execute(update(tables.accounts).where(ACCOUNTS.id == account_id).values(
                email_verified=True, email_token_hash=None, email_token_expires=None))
        return self.get(account_id)

    def set_password(self, account_id: str, password_hash: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(update(tables.accounts).where(tables.accounts.c.id == account_id)
                               .values(password_hash=password_hash))

    def get(self, account_id: str) -> Account | None:
        with self.engine.connect() as connection:
            row = connection.execute(select(tables.accounts).where(ACCOUNTS.id == account_id)).first()
        return _account(row) if row else None

    def by_name(self, name: str) -> tuple[Account, str | None] | None:
        """The account named ``name`` (any case) and its password hash."""
        with self.engine.connect() as connection:
            row = connection.execute(
                select(tables.accounts).where(tables.accounts.c.name_key == name_key(name))).first()
        return (_account(row), row.password_hash) if row else None

    def player_like(self, name: str) -> str | None:
        """The name of the player (not a guest) whose name ``name`` could pass for, if any."""
        skeleton = name_skeleton(name)
        if not skeleton:
            return None
        with self.engine.connect() as connection:
            found: str | None = connection.execute(select(ACCOUNTS.name).where(
                ACCOUNTS.name_skeleton == skeleton, ACCOUNTS.is_guest.is_(False))).scalar()
        return found

    def password_hash(self, account_id: str) -> str | None:
        with self.engine.connect() as connection:
            found: str | None = connection.execute(
                select(tables.accounts.c.password_hash).where(tables.accounts.c.id == account_id)).scalar()
        return found

    def names(self, account_ids: list[str]) -> dict[str, str]:
        if not account_ids:
            return {}
        with self.engine.connect() as connection:
            rows = connection.execute(select(tables.accounts.c.id, tables.accounts.c.name)
                                      .where(tables.accounts.c.id.in_(account_ids))).all()
        return {row.id: row.name for row in rows}

    def sanctions(self, now: float) -> dict[str, dict[str, Sanction]]:
        """The mutes, suspensions and closures in force: account id -> kind -> the one ending last."""
        found: dict[str, dict[str, Sanction]] = {}
        rows = select(SANCTIONS.account_id, SANCTIONS.kind, SANCTIONS.until, SANCTIONS.reason).where(
            SANCTIONS.kind.in_(BARS), SANCTIONS.lifted.is_(None),
            or_(SANCTIONS.until.is_(None), SANCTIONS.until > now))
        with self.engine.connect() as connection:
            for row in connection.execute(rows):
                kinds = found.setdefault(row.account_id, {})
                known = kinds.get(row.kind)
                later = known is not None and known.until is not None and (row.until is None or
                                                                          row.until > known.until)
                if known is None or later:
                    kinds[row.kind] = Sanction(row.kind, row.until, row.reason)
        return found

    # -- sessions -----------------------------------------------------------------------------
    def open_session(self, account_id: str, replacing: str | None = None) -> str:
        """A new session token for ``account_id``; the session ``replacing`` (a token) ends:
        a sign-in always gives a fresh token (no session fixation)."""
        token = secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as connection:
            if replacing:
                connection.execute(delete(tables.login_sessions)
                                   .where(tables.login_sessions.c.token_hash == hash_token(replacing)))
            connection.execute(insert(tables.login_sessions).values(
                token_hash=hash_token(token), account_id=account_id, created=now,
                expires=now + SESSION_DAYS * DAY_S))
            connection.execute(update(tables.accounts).where(ACCOUNTS.id == account_id).values(seen=now))
        return token

    def close_session(self, token: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(tables.login_sessions)
                               .where(tables.login_sessions.c.token_hash == hash_token(token)))

    def close_other_sessions(self, account_id: str, keep: str) -> list[str]:
        """End every session of ``account_id`` but ``keep`` (a token); the hashes of those ended."""
        sessions = tables.login_sessions.c
        others = (sessions.account_id == account_id, sessions.token_hash != hash_token(keep))
        with self.engine.begin() as connection:
            ended = list(connection.execute(select(sessions.token_hash).where(*others)).scalars())
            connection.execute(delete(tables.login_sessions).where(*others))
        return ended

    def session_account(self, token: str) -> Account | None:
        """The account of session ``token`` (``None``: unknown or expired); marks it seen."""
        now = time.time()
        sessions = tables.login_sessions.c
        with self.engine.begin() as connection:
            row = connection.execute(
                select(tables.accounts).join(tables.login_sessions, sessions.account_id == ACCOUNTS.id)
                .where(sessions.token_hash == hash_token(token), sessions.expires > now)).first()
            if row is not None and row.seen < now - 3600:
                connection.execute(update(tables.accounts).where(ACCOUNTS.id == row.id).values(seen=now))
        return _account(row) if row else None

    # -- personal API tokens --------------------------------------------------------------------
    def create_token(self, account_id: str, label: str, created: str) -> tuple[dict[str, Any], str]:
        """A new personal token: its public entry and the token itself (shown once)."""
        token = new_api_token()
        entry = {"id": secrets.token_urlsafe(9), "label": label, "created": created, "last_used": None}
        with self.engine.begin() as connection:
            count = connection.execute(select(func.count()).select_from(tables.api_tokens)
                                       .where(tables.api_tokens.c.account_id == account_id)).scalar_one()
            if count >= API_TOKENS_PER_ACCOUNT:
                raise ApiError(409, f"an account holds at most {API_TOKENS_PER_ACCOUNT} tokens: revoke one "
                               "first", "too_many_tokens")
            connection.execute(insert(tables.api_tokens).values(
                id=entry["id"], account_id=account_id, label=label, token_hash=hash_token(token),
                created=created))
        return entry, token

    def tokens(self, account_id: str) -> list[dict[str, Any]]:
        with self.engine.connect() as connection:
            rows = connection.execute(select(tables.api_tokens).where(TOKENS.account_id == account_id)
                                      .order_by(TOKENS.created)).all()
        return [{"id": r.id, "label": r.label, "created": r.created, "last_used": r.last_used} for r in rows]

    def revoke_token(self, account_id: str, token_id: str) -> str | None:
        """Revoke ``account_id``'s token ``token_id``; its hash (``None``: no such token)."""
        which = (TOKENS.account_id == account_id, TOKENS.id == token_id)
        with self.engine.begin() as connection:
            digest: str | None = connection.execute(select(TOKENS.token_hash).where(*which)).scalar()
            connection.execute(delete(tables.api_tokens).where(*which))
        return digest

    def token_account(self, token: str) -> Account | None:
        """The account of personal token ``token`` (``None``: unknown or revoked)."""
        digest = hash_token(token)
        with self.engine.begin() as connection:
            row = connection.execute(
                select(tables.accounts).join(tables.api_tokens,
                                             tables.api_tokens.c.account_id == tables.accounts.c.id)
                .where(tables.api_tokens.c.token_hash == digest)).first()
            if row is not None:
                connection.execute(update(tables.api_tokens).where(tables.api_tokens.c.token_hash == digest)
                                   .values(last_used=time.time()))
        return _account(row) if row else None


def name_taken(name: str) -> ApiError:
    return ApiError(409, f"the name {name[:40]!r} is taken, or looks like a name that is", "name_taken")
