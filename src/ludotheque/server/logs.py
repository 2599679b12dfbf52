"""Structured logs: one JSON object per line, each with the request it belongs to.

``ludotheque serve --log-format json`` (or ``LUDOTHEQUE_LOG_FORMAT=json``, read by every way of
starting the server) sends every log record of the server, uvicorn's included, to standard error
as one JSON object per line: ``timestamp`` (ISO 8601, UTC), ``level``, ``logger``, ``message``,
``worker`` (the process id), and, inside a request, ``request_id``, ``method`` and ``route`` (the
route's template, never the raw path); a request's own line (logger ``ludotheque.access``) adds
``status`` and ``duration_ms``. The default format, ``text``, leaves the logging configuration
as it is.

A request's id is its ``X-Request-ID`` header when that is sane (1–64 letters, digits, ``-``,
``_``, ``.`` or ``:``), else a new one; the answer carries it back in ``X-Request-ID``.

Secrets never reach a line: every message, argument and traceback is passed through
:func:`redact` (the values of ``token=`` and ``invite=``, ``Bearer`` credentials, the server's
cookies), and nothing logs headers or query strings.

>>> redact('GET /api/games/x/ws?token=abc&seat=1 HTTP/1.1')
'GET /api/games/x/ws?token=…&seat=1 HTTP/1.1'
>>> redact("Authorization: Bearer abc.def")
'Authorization: Bearer …'
>>> redact("cookie: ludotheque_session=s3cret; ludotheque_seat_1=t0k")
'cookie: ludotheque_session=…; ludotheque_seat_1=…'
>>> sane_request_id("abc-123"), sane_request_id("bad id\\n") is None
('abc-123', True)
"""

from __future__ import annotations

import json
import logging
import os
import re
import secrets
import sys
import time
from contextvars import ContextVar
from typing import Any

LOG_FORMAT_ENV = "LUDOTHEQUE_LOG_FORMAT"
LOG_FORMATS = ("text", "json")
REQUEST_ID_HEADER = "x-request-id"
ACCESS_LOGGER = "ludotheque.access"
# The loggers uvicorn configures with handlers of its own: in JSON mode they go to the root's.
UVICORN_LOGGERS = ("uvicorn", "uvicorn.error", "uvicorn.access")
_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
# Seat tokens and invite codes travel in queries (?token=, ?invite=); credentials in
# "Authorization: Bearer ..."; seat and session tokens in the server's cookies.
_SECRETS = (
    (re.compile(r"(?i)\b(token|invite)=[^&\s\"';,]*"), r"\1=…"),
    (re.compile(r"(?i)\b(bearer)\s+[^\s\"',;]+"), r"\1 …"),
    (re.compile(r"(?i)\b(ludotheque_[a-z0-9_]+)=[^;\s\"',]*"), r"\1=…"),
)
# Fields a record's ``extra`` may set that the JSON line shows.
EXTRA_FIELDS = ("status", "duration_ms", "route", "method", "request_id")

# The request being served (asyncio copies the context into the tasks it starts).
request_context: ContextVar[dict[str, str] | None] = ContextVar("ludotheque_request", default=None)


def redact(text: str) -> str:
    """``text`` with seat tokens, invite codes, bearer credentials and cookie values replaced by
    an ellipsis."""
    for pattern, replacement in _SECRETS:
        text = pattern.sub(replacement, text)
    return text


def sane_request_id(value: str | None) -> str | None:
    """``value`` if it may serve as a request id (short, no spaces or control characters)."""
    return value if value is not None and _SANE_ID.fullmatch(value) else None


def new_request_id() -> str:
    return secrets.token_hex(8)


def log_format(chosen: str | None = None) -> str:
    """The log format: ``chosen``, else ``$LUDOTHEQUE_LOG_FORMAT``, else ``text``; raises
    ``ValueError`` for another name."""
    value = (chosen or os.environ.get(LOG_FORMAT_ENV) or "text").strip().lower()
    if value not in LOG_FORMATS:
        raise ValueError(f"log format {value!r}: expected text or json")
    return value


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line, secrets redacted."""

    def format(self, record: logging.LogRecord) -> str:
        line: dict[str, Any] = {
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created))
            + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "logger": record.name,
            "message": redact(record.getMessage()),
            "worker": record.process,
        }
        context = request_context.get()
        if context:
            line.update(context)
        for name in EXTRA_FIELDS:
            if (value := record.__dict__.get(name)) is not None:
                line[name] = value
        if record.exc_info:
            line["exception"] = redact(self.formatException(record.exc_info))
        elif record.exc_text:
            line["exception"] = redact(record.exc_text)
        return json.dumps(line, ensure_ascii=False, default=str)


class _JsonHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The root's handler in JSON mode (a class of its own, so that it is installed once)."""


def configure(chosen: str | None = None, stream: Any = None) -> str:
    """Apply the log format (see :func:`log_format`); returns it. ``json``: the root logger gets
    one JSON handler at INFO on ``stream`` (standard error), and uvicorn's loggers hand their
    records to it. Called again after uvicorn configured its loggers (at the app's start)."""
    chosen = log_format(chosen)
    if chosen != "json":
        return chosen
    root = logging.getLogger()
    for handler in list(root.handlers):
        if isinstance(handler, _JsonHandler):
            if stream is None or handler.stream is stream:
                break
            root.removeHandler(handler)
    else:
        handler = _JsonHandler(stream if stream is not None else sys.stderr)
        handler.setFormatter(JsonFormatter())
        root.addHandler(handler)
    if root.level > logging.INFO or root.level == logging.NOTSET:
        root.setLevel(logging.INFO)
    logging.captureWarnings(True)  # Python's warnings too: no line of another shape
    for name in UVICORN_LOGGERS:
        logger = logging.getLogger(name)
        logger.handlers = []
        logger.propagate = True
    # uvicorn's access lines repeat ours (and would carry raw paths): ours have the route.
    logging.getLogger("uvicorn.access").setLevel(logging.WARNING)
    logging.getLogger(ACCESS_LOGGER).setLevel(logging.INFO)
    return chosen
