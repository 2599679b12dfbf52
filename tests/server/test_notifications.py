"""Notifications for correspondence games: the live count of "your turn" games over the person's
own WebSocket, e-mail through a real local SMTP server (aiosmtpd) when the player asks for it (to
an address verified by the single-use link mailed to it once), and a deadline that passes ends
the game on time and tells the player."""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from email import message_from_bytes, policy
from email.message import EmailMessage
from typing import Any
from urllib.parse import urlsplit

import pytest
from aiosmtpd.controller import Controller
from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from ludotheque.server.config import database_url
from tests.support.server import free_port

from .conftest import serving
from .test_players import Person, eventually

CORRESPONDENCE = {"type": "correspondence", "days": 2}


class Inbox:
    """What the local SMTP server received."""

    def __init__(self) -> None:
        self.messages: list[EmailMessage] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        message = message_from_bytes(envelope.content, policy=policy.default)
        assert isinstance(message, EmailMessage)
        self.messages.append(message)
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        """The notifications sent to ``address`` (verification links left out)."""
        return [message for message in self.messages if message["To"] == address and not is_link(message)]

    def links_to(self, address: str) -> list[str]:
        """The verification links sent to ``address``: each as a path of this server."""
        bodies = [str(message.get_content()) for message in self.messages
                  if message["To"] == address and is_link(message)]
        found = [re.search(r"https?://\S+/api/account/email/verify\?token=\S+", body) for body in bodies]
        return [f"{urlsplit(m[0]).path}?{urlsplit(m[0]).query}" for m in found if m]


def is_link(message: EmailMessage) -> bool:
    return "confirm your address" in str(message["Subject"])


def verified(client: TestClient, received: Inbox, person: Person, address: str, notify: bool) -> None:
    """``person`` gives ``address`` and opens the link mailed to it."""
    assert person.post(client, "/api/me/email", {"email": address, "notify": notify}).status_code == 200
    [link] = eventually(lambda: received.links_to(address))
    opened = client.get(link, follow_redirects=False)
    assert opened.status_code == 303, opened.text


@pytest.fixture
def inbox() -> Iterator[tuple[Inbox, str]]:
    received = Inbox()
    port = free_port()
    controller = Controller(received, hostname="127.0.0.1", port=port)
    controller.start()
    yield received, f"smtp://127.0.0.1:{port}?from=games@ludotheque.test"
    controller.stop()


def read_until(socket: Any, kind: str) -> dict[str, Any]:
    for _ in range(20):
        message: dict[str, Any] = socket.receive_json()
        if message.get("type") == kind:
            return message
    raise AssertionError(f"no {kind!r} message")


def test_the_turn_count_is_live_on_the_players_own_socket(client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    with client.websocket_connect("/api/me/ws", headers=ada.cookie) as socket:
        assert read_until(socket, "turns") == {"type": "turns", "count": 0, "games": []}
        game = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"],
                                               "clock": CORRESPONDENCE}).json()["id"]
        bob.post(client, f"/api/games/{game}/seats/1/join", {})
        assert read_until(socket, "turns") == {"type": "turns", "count": 1, "games": [game]}
        ada.post(client, f"/api/games/{game}/moves", {"move": "1a1"})
        assert read_until(socket, "turns")["count"] == 0
        bob.post(client, f"/api/games/{game}/moves", {"move": "1d4"})
        assert read_until(socket, "your_turn") == {"type": "your_turn", "game": game, "name": "pylos"}
        socket.send_json({"type": "ping"})
        assert read_until(socket, "pong") == {"type": "pong"}
        socket.send_json({"type": "move"})
        assert read_until(socket, "error")["code"] == "bad_request"
    with client.websocket_connect("/api/me/ws") as nobody:
        refused = nobody.receive_json()
        assert (refused["status"], refused["code"]) == (401, "sign_in_required")


def test_a_correspondence_turn_is_told_by_email_when_asked(db_url: str, inbox: tuple[Inbox, str]) -> None:
    received, smtp = inbox
    with serving(db_url, smtp=smtp) as client:
        ada, bob = Person(client, "Ada"), Person(client, "Bob")
        verified(client, received, ada, "ada@example.org", True)
        verified(client, received, bob, "bob@example.org", False)
        game = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"],
                                               "clock": CORRESPONDENCE}).json()["id"]
        bob.post(client, f"/api/games/{game}/seats/1/join", {})
        [first] = eventually(lambda: received.to("ada@example.org"))
        assert "your turn" in first["Subject"] and f"/play/{game}" in str(first.get_content())
        assert first["From"] == "games@ludotheque.test"
        ada.post(client, f"/api/games/{game}/moves", {"move": "1a1"})
        time.sleep(0.5)
        assert received.to("bob@example.org") == []  # Bob did not ask for e-mail
        live = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"]}).json()["id"]
        bob.post(client, f"/api/games/{live}/seats/1/join", {})
        time.sleep(0.5)
        assert len(received.to("ada@example.org")) == 1  # games without correspondence clock: no mail


def test_a_passed_deadline_ends_the_game_on_time_and_tells_the_player(db_url: str,
                                                                      inbox: tuple[Inbox, str]) -> None:
    received, smtp = inbox
    with serving(db_url, smtp=smtp) as client:
        ada, bob = Person(client, "Ada"), Person(client, "Bob")
        verified(client, received, ada, "ada@example.org", True)
        game = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"],
                                               "clock": CORRESPONDENCE}).json()["id"]
        bob.post(client, f"/api/games/{game}/seats/1/join", {})
        eventually(lambda: received.to("ada@example.org"))
    # Ada did not move for three days (the server was down meanwhile, or not).
    engine = create_engine(database_url(db_url))
    with engine.begin() as connection:
        connection.execute(text("UPDATE games SET clock_started = clock_started - 3 * 86400 WHERE id = :g"),
                           {"g": game})
    engine.dispose()
    with serving(db_url, smtp=smtp) as client:
        doc = eventually(lambda: (d := client.get(f"/api/games/{game}").json())["status"] == "over" and d)
        assert doc["result"]["reason"] == "time" and doc["result"]["winners"] == [1]
        mails = eventually(lambda: [m for m in received.to("ada@example.org") if "game over" in m["Subject"]])
        assert "on time" in str(mails[0].get_content())


def test_an_address_is_verified_by_a_single_use_link_sent_once(db_url: str, inbox: tuple[Inbox, str]) -> None:
    received, smtp = inbox
    with serving(db_url, smtp=smtp) as client:
        ada = Person(client, "Ada")
        saved = ada.post(client, "/api/me/email", {"email": "ada@example.org", "notify": True}).json()
        assert saved["account"]["email_verified"] is False
        [link] = eventually(lambda: received.links_to("ada@example.org"))
        assert "confirmez" in str(received.messages[0]["Subject"])  # French and English
        ada.post(client, "/api/me/email", {"email": "ada@example.org", "notify": False})
        time.sleep(0.3)
        assert len(received.links_to("ada@example.org")) == 1  # sent once
        assert ada.get(client, "/api/me").json()["account"]["email_verified"] is False
        opened = client.get(link, follow_redirects=False)
        assert opened.status_code == 303 and opened.headers["location"].startswith("/account")
        me = ada.get(client, "/api/me").json()["account"]
        assert (me["email"], me["email_verified"]) == ("ada@example.org", True)
        again = client.get(link, follow_redirects=False)
        assert (again.status_code, again.json()["code"]) == (400, "link_invalid")  # single use
        forged = client.get("/api/account/email/verify?token=nope", follow_redirects=False)
        assert (forged.status_code, forged.json()["code"]) == (400, "link_invalid")
        # A new address is unverified again, and gets a link of its own.
        moved = ada.post(client, "/api/me/email", {"email": "ada@example.net", "notify": True}).json()
        assert moved["account"]["email_verified"] is False
        assert len(eventually(lambda: received.links_to("ada@example.net"))) == 1


def test_an_unverified_address_is_not_mailed(db_url: str, inbox: tuple[Inbox, str]) -> None:
    received, smtp = inbox
    with serving(db_url, smtp=smtp) as client:
        ada, bob = Person(client, "Ada"), Person(client, "Bob")
        ada.post(client, "/api/me/email", {"email": "ada@example.org", "notify": True})
        eventually(lambda: received.links_to("ada@example.org"))
        game = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"],
                                               "clock": CORRESPONDENCE}).json()["id"]
        bob.post(client, f"/api/games/{game}/seats/1/join", {})
        assert client.get(f"/api/games/{game}").json()["to_move"] == 0
        time.sleep(1.0)
        assert received.to("ada@example.org") == []
