"""People's accounts: players (a name and an Argon2 password hash, ``argon2-cffi``) and guests (a
generated name kept by a session cookie, no password), their sign-in sessions and personal API
tokens. Only hashes of session tokens and API tokens are stored.

Calls are synchronous, run on the storage's database threads (``Storage.run``); password hashing
is not: it is slow on purpose and runs on a thread of its own (:func:`hash_password`).

>>> valid_name("Zoé_42"), valid_name("x"), valid_name("guest-1234"), valid_name("a b")
(True, False, False, False)
>>> name_key("Zoé_42")
'zoé_42'
>>> is_api_token("lpt_abc"), is_api_token("abc")
(True, False)
"""

from __future__ import annotations

import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Engine, delete, func, insert, select, update
from sqlalchemy.exc import IntegrityError

from . import tables
from .errors import ApiError
from .sessions import hash_token

# Names people choose: a letter first, then letters, digits, "_", "-" or "."; 3 to 20 characters.
_NAME = re.compile(r"[^\W\d_][\w.-]{2,19}")
# Generated guest names ("guest-482193"): nobody may choose one.
GUEST_PREFIX = "guest-"
PASSWORD_MIN = 8
PASSWORD_MAX = 200
# Personal API tokens start with this, so that one is never taken for a seat token.
API_TOKEN_PREFIX = "lpt_"
API_TOKENS_PER_ACCOUNT = 20
SESSION_DAYS = 400
DAY_S = 86_400.0
# OWASP's Argon2id setting (19 MiB, 2 passes, 1 lane): a tenth of a second of one core per sign-in,
# however many cores the server has. Hashes made with other settings are upgraded at sign-in.
_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)
ACCOUNTS = tables.accounts.c
TOKENS = tables.api_tokens.c
# Verified against when a name is unknown, so that an unknown name takes as long as a bad password.
_DUMMY_HASH = _hasher.hash("not a password anybody has")


def valid_name(name: str) -> bool:
    """Whether ``name`` may be chosen: 3–20 letters, digits, ``_``, ``-`` or ``.``, a letter
    first, and not a guest's generated name."""
    return bool(_NAME.fullmatch(name)) and not name.lower().startswith(GUEST_PREFIX)


def name_key(name: str) -> str:
    """``name`` folded for comparison: ``Ada`` and ``ada`` are one name."""
    return name.casefold()


def check_name(name: str) -> str:
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

    def to_json(self) -> dict[str, Any]:
        """What the account's own pages read (``GET /api/me``)."""
        return {"id": self.id, "name": self.name, "guest": self.is_guest, "email": self.email,
                "notify_email": self.notify_email, "created": self.created}


def _account(row: Any) -> Account:
    return Account(row.id, row.name, row.is_guest, row.email, row.notify_email, row.created)


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
                id=account.id, name=name, name_key=name_key(name), password_hash=password_hash,
                is_guest=is_guest, created=created, seen=time.time(), notify_email=False))
        return account

    def promote(self, account_id: str, name: str, password_hash: str) -> Account:
        """The guest ``account_id`` becomes a player named ``name``, keeping its games."""
        try:
            with self.engine.begin() as connection:
                connection.execute(update(tables.accounts).where(tables.accounts.c.id == account_id).values(
                    name=name, name_key=name_key(name), password_hash=password_hash, is_guest=False,
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
                                   .values(name=name, name_key=name_key(name)))
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

    def set_email(self, account_id: str, email: str | None, notify: bool) -> Account:
        with self.engine.begin() as connection:
            connection.execute(update(tables.accounts).where(tables.accounts.c.id == account_id)
                               .values(email=email, notify_email=notify))
        found = self.get(account_id)
        assert found is not None
        return found

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

    def close_other_sessions(self, account_id: str, keep: str) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(tables.login_sessions).where(
                tables.login_sessions.c.account_id == account_id,
                tables.login_sessions.c.token_hash != hash_token(keep)))

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

    def revoke_token(self, account_id: str, token_id: str) -> bool:
        with self.engine.begin() as connection:
            done = connection.execute(delete(tables.api_tokens).where(
                tables.api_tokens.c.account_id == account_id, tables.api_tokens.c.id == token_id))
        return bool(done.rowcount)

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
    return ApiError(409, f"the name {name[:40]!r} is taken", "name_taken")
