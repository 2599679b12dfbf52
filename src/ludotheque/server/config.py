"""Where the server keeps its data, the limits it enforces, and the settings an operator may change.

The default database is SQLite in the user's data folder (``$XDG_DATA_HOME/ludotheque``), unless
``$LUDOTHEQUE_DB`` names another; PostgreSQL URLs get the psycopg 3 driver. The other settings
(rate limits, expiry, the shortest clock, extra allowed origins, connection timeouts) come from
``LUDOTHEQUE_*`` variables, so that every way of starting the server (``ludotheque serve``,
``python -m ludotheque.server``, ``uvicorn --factory``) reads the same ones.

>>> database_url("sqlite:////tmp/x.db")
'sqlite:////tmp/x.db'
>>> database_url("postgres://h/db")
'postgresql+psycopg://h/db'
>>> ServerSettings.from_env({"LUDOTHEQUE_CREATE_LIMIT": "none"}).create_limit is None
True
"""

from __future__ import annotations

import difflib
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

DB_ENV = "LUDOTHEQUE_DB"
REDIS_ENV = "LUDOTHEQUE_REDIS"
BOTS_ENV = "LUDOTHEQUE_BOTS"
FORWARDED_ENV = "LUDOTHEQUE_FORWARDED_ALLOW_IPS"
ENV_PREFIX = "LUDOTHEQUE_"
# docs/design.md: a request body (or WebSocket message) over 64 KiB is refused.
MAX_BODY_BYTES = 64 * 1024
# The largest WebSocket message the transport reads: well above MAX_BODY_BYTES, so that the app
# sees an oversized message and answers it with an error instead of the transport closing.
WS_MAX_BYTES = 1024 * 1024
# A client that cannot take a document within this delay is dropped rather than slowing a room.
SEND_TIMEOUT_S = 5.0
# A close handshake with a client that stopped reading never completes: give up after this.
CLOSE_TIMEOUT_S = 1.0
# Documents (and replies) waiting for one WebSocket: a reader this far behind is dropped. A
# reader that keeps up has at most one or two waiting; a game never waits for any reader.
OUTBOX_DOCUMENTS = 32
BOT_LEVELS = ("random", "easy", "medium", "hard")
# How much input an error message quotes back: enough to recognise it, never a flood.
QUOTE_CHARS = 40
DISABLED = ("", "0", "none", "off")


@dataclass(frozen=True)
class ServerSettings:
    """What an operator may tune; every field has a sane default.

    Rate limits use the ``limits`` library's notation (``"30/minute;300/hour"``), per client
    address; ``None`` turns a limit off (``LUDOTHEQUE_CREATE_LIMIT=none``, e.g. for load tests).
    """

    # Game creation per client, and, stricter, games whose seats are all bots (they cost CPU
    # without anybody playing).
    create_limit: str | None = "60/minute;600/hour"
    bot_game_limit: str | None = "10/minute;60/hour"
    # A game that waits for a person to join (open or invite seat) is deleted after this long
    # untouched; a game without a clock that nobody moves in is ended ("abandoned") after this.
    # Games with a clock end by their flag. Expired games are never loaded again.
    waiting_days: float = 7.0
    abandoned_days: float = 30.0
    # Shortest base time of a Fischer clock: below this a game is decided by network latency.
    min_clock_minutes: float = 1.0
    # Origins allowed besides the server's own (a site that embeds the pages), e.g. "https://x.org".
    allowed_origins: tuple[str, ...] = field(default=())
    # uvicorn's connection timeouts: idle keep-alive HTTP connections, and WebSocket pings
    # (a client that does not answer a ping within the timeout is disconnected).
    keep_alive_s: float = 5.0
    ws_ping_interval_s: float = 20.0
    ws_ping_timeout_s: float = 20.0
    # Sign-in attempts per client address and per account name; new accounts (guests and
    # players) per client address; chat lines per person and game.
    signin_limit: str | None = "10/minute;60/hour"
    signin_account_limit: str | None = "5/minute;30/hour"
    account_limit: str | None = "20/minute;200/hour"
    chat_limit: str | None = "10/minute;100/hour"
    # Games whose people are all guests (or nobody's) untouched this long leave every list
    # (archived: still readable by id, never deleted if rated).
    guest_archive_days: float = 30.0
    # Where e-mail notifications go out (smtp://user:password@host:port?from=...), none: no e-mail.
    smtp: str | None = None
    # Where people reach the server, for links in e-mail.
    public_url: str = "http://localhost:8000"
    # Several workers on one PostgreSQL database: the Redis server through which they announce
    # their changes to each other (redis://host:6379/0); none: this process is the only worker.
    redis: str | None = None
    # Where bots think: None (a pool of local processes), "ray" (a local Ray) or "ray://host:port".
    bots: str | None = None
    # The proxies whose X-Forwarded-For and X-Forwarded-Proto are believed (uvicorn's
    # forwarded_allow_ips: addresses or networks, comma-separated; "*": any, never in production).
    # A request from any other address is the client itself: its headers are ignored.
    forwarded_allow_ips: str = "127.0.0.1"
    # On SIGTERM the server stops accepting and waits this long for the requests under way
    # (moves are stored before they are answered) before it cancels them.
    graceful_timeout_s: float = 20.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> ServerSettings:
        """The settings of ``LUDOTHEQUE_*`` variables (``env``: ``os.environ``); raises
        ``ValueError`` naming a variable whose value is not a number."""
        env = os.environ if env is None else env
        default = cls()
        return cls(
            create_limit=_limit(env, "LUDOTHEQUE_CREATE_LIMIT", default.create_limit),
            bot_game_limit=_limit(env, "LUDOTHEQUE_BOT_GAME_LIMIT", default.bot_game_limit),
            waiting_days=_number(env, "LUDOTHEQUE_WAITING_DAYS", default.waiting_days),
            abandoned_days=_number(env, "LUDOTHEQUE_ABANDONED_DAYS", default.abandoned_days),
            min_clock_minutes=_number(env, "LUDOTHEQUE_MIN_CLOCK_MINUTES", default.min_clock_minutes),
            allowed_origins=_allowed_origins(env),
            keep_alive_s=_number(env, "LUDOTHEQUE_KEEP_ALIVE", default.keep_alive_s),
            ws_ping_interval_s=_number(env, "LUDOTHEQUE_WS_PING_INTERVAL", default.ws_ping_interval_s),
            ws_ping_timeout_s=_number(env, "LUDOTHEQUE_WS_PING_TIMEOUT", default.ws_ping_timeout_s),
            signin_limit=_limit(env, "LUDOTHEQUE_SIGNIN_LIMIT", default.signin_limit),
            signin_account_limit=_limit(env, "LUDOTHEQUE_SIGNIN_ACCOUNT_LIMIT", default.signin_account_limit),
            account_limit=_limit(env, "LUDOTHEQUE_ACCOUNT_LIMIT", default.account_limit),
            chat_limit=_limit(env, "LUDOTHEQUE_CHAT_LIMIT", default.chat_limit),
            guest_archive_days=_number(env, "LUDOTHEQUE_GUEST_ARCHIVE_DAYS", default.guest_archive_days),
            smtp=env.get("LUDOTHEQUE_SMTP") or None,
            public_url=env.get("LUDOTHEQUE_PUBLIC_URL") or default.public_url,
            redis=env.get(REDIS_ENV) or None,
            bots=env.get(BOTS_ENV) or None,
            forwarded_allow_ips=_addresses(env.get(FORWARDED_ENV)) or default.forwarded_allow_ips,
            graceful_timeout_s=_number(env, "LUDOTHEQUE_GRACEFUL_TIMEOUT", default.graceful_timeout_s),
        )


def _allowed_origins(env: Mapping[str, str]) -> tuple[str, ...]:
    """``LUDOTHEQUE_ORIGINS``, and the origin of ``LUDOTHEQUE_PUBLIC_URL`` when set: the pages
    people load from the public address may use the API even if a proxy changes the ``Host``.

    >>> _allowed_origins({"LUDOTHEQUE_ORIGINS": "https://club.example",
    ...                   "LUDOTHEQUE_PUBLIC_URL": "https://Games.example.org/lobby"})
    ('https://club.example', 'https://games.example.org')
    """
    origins = [origin for origin in env.get("LUDOTHEQUE_ORIGINS", "").split() if origin]
    public = urlsplit((env.get("LUDOTHEQUE_PUBLIC_URL") or "").strip())
    if public.scheme in ("http", "https") and public.netloc:
        origin = f"{public.scheme}://{public.netloc}".lower()
        if origin not in origins:
            origins.append(origin)
    return tuple(origins)


def _addresses(value: str | None) -> str:
    """A list of addresses as uvicorn takes it: comma-separated, whatever the separators given."""
    return ",".join(part for part in (value or "").replace(",", " ").split() if part)


def _limit(env: Mapping[str, str], name: str, default: str | None) -> str | None:
    value = env.get(name)
    if value is None:
        return default
    return None if value.strip().lower() in DISABLED else value.strip()


def _number(env: Mapping[str, str], name: str, default: float) -> float:
    value = env.get(name)
    if value is None or not value.strip():
        return default
    try:
        return float(value)
    except ValueError:
        raise ValueError(f"{name} must be a number, not {value[:QUOTE_CHARS]!r}") from None


Kind = Literal["text", "whole", "number", "limit", "spaced", "commas"]
# The keys of a configuration file (``ludotheque serve --config FILE``, docs/operations.md): each
# is a LUDOTHEQUE_* variable without its prefix, in lower case, and the variable (then the command
# line) wins over the file. The kind says what a key takes: a string, a whole number, a number, a
# rate limit (or false: none), a list (or one string).
CONFIG_KEYS: dict[str, Kind] = {
    "host": "text", "port": "whole", "workers": "whole", "db": "text", "smtp": "text",
    "redis": "text", "bots": "text", "forwarded_allow_ips": "commas", "graceful_timeout": "number",
    "public_url": "text", "origins": "spaced", "log_format": "text",
    "create_limit": "limit", "bot_game_limit": "limit", "signin_limit": "limit",
    "signin_account_limit": "limit", "account_limit": "limit", "chat_limit": "limit",
    "waiting_days": "number", "abandoned_days": "number", "guest_archive_days": "number",
    "min_clock_minutes": "number", "keep_alive": "number", "ws_ping_interval": "number",
    "ws_ping_timeout": "number",
    "analysis_limit": "whole", "analysis_budget": "number", "analysis_engine": "text",
    "analysis_lease_s": "number", "hints": "whole",
}
_KIND_WORDS = {"text": "a string", "whole": "a whole number", "number": "a number",
               "limit": 'a rate limit such as "30/minute;300/hour", or false',
               "spaced": "a list of strings", "commas": "a list of strings"}


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message is one line naming the file (and key)."""


def config_variable(key: str) -> str:
    """The LUDOTHEQUE_* variable a file's key stands for: ``config_variable("port") == "LUDOTHEQUE_PORT"``."""
    return ENV_PREFIX + key.upper()


def read_config(path: str | Path) -> dict[str, str]:
    """The settings of a TOML configuration file, as the LUDOTHEQUE_* variables they stand for
    (``{"LUDOTHEQUE_PORT": "8000", ...}``); raises :class:`ConfigError`.

    >>> import tempfile
    >>> with tempfile.NamedTemporaryFile("w", suffix=".toml", delete=False) as file:
    ...     _ = file.write('port = 8001\\norigins = ["https://a.org", "https://b.org"]\\n'
    ...                    'create_limit = false\\n')
    >>> read_config(file.name) == {"LUDOTHEQUE_PORT": "8001", "LUDOTHEQUE_CREATE_LIMIT": "none",
    ...                            "LUDOTHEQUE_ORIGINS": "https://a.org https://b.org"}
    True
    """
    try:
        with open(path, "rb") as file:
            table = tomllib.load(file)
    except OSError as error:
        raise ConfigError(f"cannot read the configuration file {path}: {error.strerror or error}") from None
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(f"{path} is not valid TOML: {error}") from None
    found: dict[str, str] = {}
    for key, value in table.items():
        kind = CONFIG_KEYS.get(key)
        if kind is None:
            close = difflib.get_close_matches(key.lower().replace("-", "_"), CONFIG_KEYS, n=1)
            hint = f" (did you mean {close[0]!r}?)" if close else ""
            raise ConfigError(f"unknown key {key[:QUOTE_CHARS]!r} in {path}{hint}; the keys are: "
                              f"{', '.join(CONFIG_KEYS)}")
        text = _config_text(kind, value)
        if text is None:
            raise ConfigError(f"key {key!r} in {path} must be {_KIND_WORDS[kind]}, "
                              f"not {str(value)[:QUOTE_CHARS]!r}")
        found[config_variable(key)] = text
    return found


def _config_text(kind: Kind, value: Any) -> str | None:
    """``value`` written as the variable's text, or ``None`` when it is not of ``kind``."""
    if isinstance(value, bool):
        return "none" if kind == "limit" and value is False else None
    if kind == "whole":
        return str(value) if isinstance(value, int) else None
    if kind == "number":
        return str(value) if isinstance(value, (int, float)) else None
    if kind in ("spaced", "commas"):
        items = [value] if isinstance(value, str) else value
        if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
            return None
        return (" " if kind == "spaced" else ",").join(item.strip() for item in items if item.strip())
    return value.strip() if isinstance(value, str) else None


def layered_settings(config: str | Path | None, env: Mapping[str, str] | None = None) -> dict[str, str]:
    """The LUDOTHEQUE_* settings in effect: the configuration file's (``config``), under the
    environment's (``env``: ``os.environ``). The command line's options go over both."""
    env = os.environ if env is None else env
    return {**(read_config(config) if config else {}), **env}


def whole_setting(env: Mapping[str, str], name: str, default: int) -> int:
    """A whole number from ``env`` (``default`` when unset); raises ``ValueError`` naming ``name``."""
    value = env.get(name)
    if value is None or not value.strip():
        return default
    try:
        return int(value)
    except ValueError:
        raise ValueError(f"{name} must be a whole number, not {value[:QUOTE_CHARS]!r}") from None


def data_dir() -> Path:
    """The user's data folder for Ludothèque (XDG base directory specification)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "ludotheque"


def default_database_url() -> str:
    """``$LUDOTHEQUE_DB`` when set, otherwise SQLite in :func:`data_dir`."""
    override = os.environ.get(DB_ENV)
    if override:
        return database_url(override)
    return f"sqlite:///{data_dir() / 'ludotheque.db'}"


def database_url(url: str | None) -> str:
    """``url`` with the driver SQLAlchemy needs (``None``: the default database)."""
    if not url:
        return default_database_url()
    for prefix in ("postgresql://", "postgres://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix) :]
    return url


def is_sqlite(url: str) -> bool:
    return url.startswith("sqlite")
