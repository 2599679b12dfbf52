"""Telling people: each person's own WebSocket (``WS /api/me/ws``: the live count of games where
it is their turn, "your turn" and "game over" of correspondence games, a seek matched), and e-mail
for correspondence games when the server has an SMTP server (``--smtp URL``) and the player gave
an address, verified it (the link of :func:`verification_mail`, sent once) and asked for it.

An SMTP URL is ``smtp://[user:password@]host[:port][?from=address&starttls=1]`` (``smtps://``:
TLS from the start). Mail goes out on a thread of its own; a failure is logged, never raised.

>>> settings = smtp_settings("smtp://ada:secret@mail.example:2525?from=games@example.org")
>>> settings.host, settings.port, settings.user, settings.sender, settings.tls
('mail.example', 2525, 'ada', 'games@example.org', 'none')
>>> smtp_settings("http://x")
Traceback (most recent call last):
...
ValueError: the SMTP URL must start with smtp:// or smtps://, not 'http://x'
"""

from __future__ import annotations

import asyncio
import logging
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any
from urllib.parse import parse_qs, unquote, urlsplit

from .rooms import Connection, encode

log = logging.getLogger("ludotheque.server")
SMTP_TIMEOUT_S = 20.0


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int
    user: str | None
    password: str | None
    sender: str
    tls: str  # "none", "starttls" or "tls"


def smtp_settings(url: str) -> SmtpSettings:
    """Read an SMTP URL; raises ``ValueError`` naming what is wrong."""
    parts = urlsplit(url)
    if parts.scheme not in ("smtp", "smtps") or not parts.hostname:
        raise ValueError(f"the SMTP URL must start with smtp:// or smtps://, not {url[:40]!r}")
    query = parse_qs(parts.query)
    starttls = query.get("starttls", ["0"])[0] in ("1", "true")
    tls = "tls" if parts.scheme == "smtps" else "starttls" if starttls else "none"
    sender = query.get("from", [f"ludotheque@{parts.hostname}"])[0]
    return SmtpSettings(parts.hostname, parts.port or (465 if tls == "tls" else 25),
                        unquote(parts.username) if parts.username else None,
                        unquote(parts.password) if parts.password else None, sender, tls)


class Mailer:
    """Sends mail through one SMTP server, off the event loop."""

    def __init__(self, settings: SmtpSettings) -> None:
        self.settings = settings

    def _send(self, to: str, subject: str, body: str) -> None:
        message = EmailMessage()
        message["From"] = self.settings.sender
        message["To"] = to
        message["Subject"] = subject
        message.set_content(body)
        s = self.settings
        client_class = smtplib.SMTP_SSL if s.tls == "tls" else smtplib.SMTP
        with client_class(s.host, s.port, timeout=SMTP_TIMEOUT_S) as client:
            if s.tls == "starttls":
                client.starttls()
            if s.user:
                client.login(s.user, s.password or "")
            client.send_message(message)

    async def send(self, to: str, subject: str, body: str) -> None:
        try:
            await asyncio.to_thread(self._send, to, subject, body)
        except (OSError, smtplib.SMTPException):
            log.warning("an e-mail to a player could not be sent", exc_info=True)


def verification_mail(link: str) -> tuple[str, str]:
    """The subject and body of the mail that proves an address its owner's (French, English)."""
    subject = "Ludothèque — confirmez votre adresse / confirm your address"
    body = ("Pour recevoir les nouvelles de vos parties à cette adresse, ouvrez ce lien :\n"
            "To be told about your games at this address, open this link:\n\n"
            f"{link}\n\n"
            "Si vous n'avez rien demandé, ignorez ce message : rien ne vous sera envoyé.\n"
            "If you did not ask for this, ignore this message: nothing will be sent to you.\n")
    return subject, body


class PeopleSockets:
    """Each person's own WebSockets (several browsers, several tabs), by account."""

    def __init__(self) -> None:
        self._sockets: dict[str, set[Connection]] = {}

    def add(self, account: str, connection: Connection) -> None:
        self._sockets.setdefault(account, set()).add(connection)

    def remove(self, account: str, connection: Connection) -> None:
        held = self._sockets.get(account)
        if held is not None:
            held.discard(connection)
            if not held:
                del self._sockets[account]

    def accounts(self) -> set[str]:
        """The accounts with a socket here."""
        return set(self._sockets)

    def connected(self, accounts: set[str]) -> set[str]:
        return {account for account in accounts if account in self._sockets}

    def tell(self, account: str, message: dict[str, Any]) -> None:
        """Queue ``message`` for every socket of ``account`` (never waits; slow readers drop)."""
        text = encode(message)
        for connection in list(self._sockets.get(account, ())):
            if not connection.offer(text):
                self.remove(account, connection)
