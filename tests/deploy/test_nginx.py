"""The production setup of docs/operations.md, end to end on real parts: Debian's nginx running
deploy/nginx.conf (TLS with a self-signed certificate, HTTP -> HTTPS, WebSockets) in front of
``ludotheque serve --config FILE``, which believes ``X-Forwarded-*`` from the proxy only.

Through https and wss, with the certificate verified: two players (two browsers' cookie jars,
each from its own address) play a whole game, one over the WebSocket and one over the HTTP API;
their cookies are Secure; the pages' https origin is accepted and others are refused. The server
counts each client by the address nginx saw (rate limits), and ignores ``X-Forwarded-For`` and
``X-Forwarded-Proto`` sent straight to it.
"""

from __future__ import annotations

import json
import random
import ssl
from collections.abc import Iterator
from dataclasses import dataclass
from http.cookies import SimpleCookie
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from .parts import (
    PROXY_ADDRESS,
    Nginx,
    Serve,
    check_loopback_addresses,
    client_tls,
    free_ports,
    nginx_site,
    self_signed_certificate,
    server_config,
    websocket_tls,
)

pytestmark = pytest.mark.timeout(120)
CREATE_LIMIT = 3  # games per minute and client address
PLAYER_A, PLAYER_B, COUNTED, OTHER, ORIGINS = "127.0.0.3", "127.0.0.4", "127.0.0.5", "127.0.0.6", "127.0.0.7"


@dataclass
class Deployment:
    server: Serve
    nginx: Nginx
    tls: ssl.SSLContext
    socket_tls: ssl.SSLContext  # the WebSocket client's (parts.websocket_tls)

    @property
    def public(self) -> str:
        """The public address, as a browser names it (and sends it as Origin)."""
        return f"https://127.0.0.1:{self.nginx.https_port}"

    @property
    def public_ws(self) -> str:
        return f"wss://127.0.0.1:{self.nginx.https_port}"

    def browser(self, address: str) -> httpx.Client:
        """A browser at ``address``, on the public https site (its cookie jar, its Origin)."""
        transport = httpx.HTTPTransport(verify=self.tls, local_address=address)
        return httpx.Client(base_url=self.public, transport=transport, headers={"Origin": self.public},
                            timeout=20)

    def direct(self, address: str = "127.0.0.1") -> httpx.Client:
        """A client straight to the server, past the proxy."""
        return httpx.Client(base_url=self.server.url, timeout=20,
                            transport=httpx.HTTPTransport(local_address=address))

    def socket(self, path: str, cookies: dict[str, str] | None = None,
               origin: str | None = None) -> ClientConnection:
        """A page's WebSocket through the proxy (wss), with its origin and cookies."""
        headers = {"Cookie": "; ".join(f"{name}={value}" for name, value in (cookies or {}).items())}
        return connect(self.public_ws + path, ssl=self.socket_tls, origin=Origin(origin or self.public),
                       additional_headers=headers if cookies else None, open_timeout=20)


@pytest.fixture(scope="module")
def deployment(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Deployment]:
    check_loopback_addresses(PROXY_ADDRESS, PLAYER_A, PLAYER_B, COUNTED, OTHER, ORIGINS)
    folder = tmp_path_factory.mktemp("deploy")
    certificate, key = self_signed_certificate(folder)
    app_port, https_port, http_port = free_ports(3)
    config = server_config(
        folder / "ludotheque.toml", host="127.0.0.1", port=app_port,
        db=f"sqlite:///{folder / 'ludotheque.db'}",
        forwarded_allow_ips=[PROXY_ADDRESS], public_url=f"https://127.0.0.1:{https_port}",
        create_limit=f"{CREATE_LIMIT}/minute", bot_game_limit=False,
    )
    site = nginx_site(app_port, https_port, http_port, certificate, key)
    nginx = Nginx(folder, site, https_port, http_port)
    with Serve(config, app_port, folder / "serve.log") as server:
        nginx.start()
        try:
            yield Deployment(server, nginx, client_tls(certificate), websocket_tls(certificate))
        finally:
            nginx.stop()
        print(nginx.errors()[-2000:])
    print(server.output())


def set_cookies(answer: httpx.Response) -> dict[str, str]:
    """The Set-Cookie lines of an answer, by cookie name (their attributes in lower case)."""
    found = {}
    for line in answer.headers.get_list("set-cookie"):
        cookie = SimpleCookie()
        cookie.load(line)
        for name in cookie:
            found[name] = line.lower()
    return found


def create(client: httpx.Client, cookie: bool = True,
           headers: dict[str, str] | None = None) -> httpx.Response:
    return client.post("/api/games" + ("?cookie=1" if cookie else ""), headers=headers or {},
                       json={"game": "pylos", "seats": ["human", "open"]})


def next_document(socket: ClientConnection, plies: int) -> dict[str, Any]:
    """The socket's next game document with ``plies`` moves (documents in between skipped)."""
    while True:
        message = json.loads(socket.recv(timeout=20))
        assert message.get("type") != "error", message
        if "type" not in message and len(message["moves"]) == plies:
            return message  # type: ignore[no-any-return]


def test_a_whole_game_through_the_proxy_over_https_and_wss(deployment: Deployment) -> None:
    rng = random.Random(5)
    with deployment.browser(PLAYER_A) as ada, deployment.browser(PLAYER_B) as bob:
        created = create(ada)
        assert created.status_code == 201, created.text
        game_id = created.json()["id"]
        assert created.json()["seats"][1]["url"].startswith(deployment.public + "/play/")
        joined = bob.post(f"/api/games/{game_id}/seats/1/join?cookie=1", json={})
        assert joined.status_code == 200, joined.text
        for answer in (created, joined):  # over https (the proxy's X-Forwarded-Proto): Secure cookies
            cookies = set_cookies(answer)
            assert any(name.startswith("ludotheque_seat_") for name in cookies), cookies
            for name, line in cookies.items():
                assert "; secure" in line and "httponly" in line, (name, line)
        seat_cookies = {name: value for name, value in ada.cookies.items()
                        if name.startswith("ludotheque_seat_")}
        with deployment.socket(f"/api/games/{game_id}/ws", seat_cookies) as socket:
            document = next_document(socket, 0)
            assert document["seat"] == 0 and document["status"] == "playing"
            while document["status"] == "playing":
                plies = len(document["moves"])
                if document["to_move"] == 0:  # Ada plays over the WebSocket
                    socket.send(json.dumps({"type": "move", "move": rng.choice(document["legal_moves"]),
                                            "ply": plies}))
                else:  # Bob over the HTTP API, with his seat cookie
                    mine = bob.get(f"/api/games/{game_id}").json()
                    assert mine["seat"] == 1
                    played = bob.post(f"/api/games/{game_id}/moves",
                                      json={"move": rng.choice(mine["legal_moves"]), "ply": plies})
                    assert played.status_code == 200, played.text
                document = next_document(socket, plies + 1)
        assert document["status"] == "over" and document["result"], document
        assert len(document["moves"]) > 10  # a whole game, both players moving
        seen_by_bob = bob.get(f"/api/games/{game_id}").json()
        assert seen_by_bob["moves"] == document["moves"] and seen_by_bob["status"] == "over"
        stored = deployment.direct().get(f"/api/games/{game_id}").json()  # the server stored it all
        assert stored["moves"] == document["moves"]


def test_the_server_sees_the_address_nginx_saw_and_no_forged_one(deployment: Deployment) -> None:
    # Straight to the server, forged headers are not believed: every creation counts against the
    # address the connection comes from, whatever X-Forwarded-For says; and no Secure cookie
    # over plain http, whatever X-Forwarded-Proto says.
    with deployment.direct() as direct:
        for number in range(CREATE_LIMIT):
            forged = {"X-Forwarded-For": f"10.0.0.{number}", "X-Forwarded-Proto": "https"}
            answer = create(direct, headers=forged)
            assert answer.status_code == 201, answer.text
            assert answer.json()["seats"][0]["url"].startswith("http://")
            assert all("; secure" not in line for line in set_cookies(answer).values())
        refused = create(direct, headers={"X-Forwarded-For": "10.0.0.99"})
        assert refused.status_code == 429 and refused.json()["code"] == "rate_limited"
    # Through nginx, each client is counted by its own address, not the proxy's (one count for
    # everyone) nor the one it claims (here the address whose count is spent).
    with deployment.browser(COUNTED) as counted, deployment.browser(OTHER) as other:
        assert create(other).status_code == 201
        for _ in range(CREATE_LIMIT):
            answer = create(counted, headers={"X-Forwarded-For": "127.0.0.1"})
            assert answer.status_code == 201, answer.text
        assert create(counted).status_code == 429
        assert create(other).status_code == 201  # another client still may
    with deployment.direct(COUNTED) as same_address:  # the count the proxy's client spent is its address's
        assert create(same_address).status_code == 429


def test_http_is_sent_to_https_with_hsts(deployment: Deployment) -> None:
    answer = httpx.get(f"http://127.0.0.1:{deployment.nginx.http_port}/lobby", timeout=10)
    assert answer.status_code == 301
    assert answer.headers["location"].startswith("https://127.0.0.1")
    with deployment.browser(OTHER) as browser:
        catalog = browser.get("/api/catalog")
        assert catalog.status_code == 200 and "pylos" in [game["id"] for game in catalog.json()["games"]]
        assert catalog.headers["strict-transport-security"].startswith("max-age=")


@pytest.mark.parametrize("origin", ["https://evil.example", "http://127.0.0.1:{port}"],
                         ids=["another site", "the same name over plain http"])
def test_a_socket_from_another_origin_is_refused_through_the_proxy(deployment: Deployment,
                                                                   origin: str) -> None:
    with deployment.direct(ORIGINS) as client:
        game_id = create(client, cookie=False).json()["id"]
    page = origin.format(port=deployment.nginx.https_port)
    with deployment.socket(f"/api/games/{game_id}/ws", origin=page) as socket:
        refusal = json.loads(socket.recv(timeout=20))
        assert refusal["code"] == "origin_refused", refusal
        with pytest.raises(ConnectionClosed) as closed:
            socket.recv(timeout=20)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403


def test_the_deploy_files_are_those_tested() -> None:
    """The test runs deploy/nginx.conf itself; the example configuration reads."""
    from ludotheque.server.config import read_config

    example = read_config(Path(__file__).resolve().parents[2] / "deploy" / "ludotheque.toml")
    assert example["LUDOTHEQUE_FORWARDED_ALLOW_IPS"] == "127.0.0.1"
    assert example["LUDOTHEQUE_PUBLIC_URL"].startswith("https://")
