"""deploy/nginx.conf in front of two server processes on their own ports (PostgreSQL, Redis):
every request and socket of one game reaches the same process, whoever sends it, so that no
process makes another's moves over again to serve its own readers (docs/distributed.md,
scale-out); requests about no game go to either. Real nginx, TLS, two real servers."""

from __future__ import annotations

import json
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect
from websockets.typing import Origin

from tests.deploy.parts import (
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
from tests.distributed.parts import RedisServer

pytestmark = pytest.mark.timeout(180)
GAMES = 6
PLIES = 2


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory, postgres_db: str,
                  redis_server: RedisServer) -> Iterator[tuple[Nginx, Path]]:
    check_loopback_addresses(PROXY_ADDRESS)
    folder = tmp_path_factory.mktemp("affinity")
    certificate, key = self_signed_certificate(folder)
    first, second, https_port, http_port = free_ports(4)
    servers = [
        Serve(server_config(folder / f"{port}.toml", host="127.0.0.1", port=port, db=postgres_db,
                            redis=redis_server.url, forwarded_allow_ips=[PROXY_ADDRESS],
                            public_url=f"https://127.0.0.1:{https_port}", create_limit="none",
                            bot_game_limit=False), port, folder / f"serve-{port}.log")
        for port in (first, second)
    ]
    nginx = Nginx(folder, nginx_site([first, second], https_port, http_port, certificate, key),
                  https_port, http_port)
    with servers[0], servers[1]:
        nginx.start()
        try:
            yield nginx, certificate
        finally:
            nginx.stop()


def seat_socket(nginx: Nginx, certificate: Path, game_id: str, token: str) -> ClientConnection:
    public = f"127.0.0.1:{nginx.https_port}"
    return connect(f"wss://{public}/api/games/{game_id}/ws?token={token}", ssl=websocket_tls(certificate),
                   origin=Origin(f"https://{public}"), open_timeout=20)


def document_at(socket: ClientConnection, ply: int) -> dict[str, object]:
    while True:
        doc = json.loads(socket.recv(timeout=20))
        if doc.get("ply") == ply:
            return doc


def play_games(nginx: Nginx, certificate: Path) -> list[str]:
    """Games made and played through the proxy: each player's moves over https, both players'
    sockets over wss; the games' ids."""
    public = f"https://127.0.0.1:{nginx.https_port}"
    ids = []
    with httpx.Client(base_url=public, verify=client_tls(certificate), headers={"Origin": public},
                      timeout=20) as browser:
        for _ in range(GAMES):
            created = browser.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]}).json()
            game_id, tokens = created["id"], [seat["token"] for seat in created["seats"]]
            with ExitStack() as opened:
                sockets = [opened.enter_context(seat_socket(nginx, certificate, game_id, token))
                           for token in tokens]
                for ply in range(PLIES):
                    token = {"Authorization": f"Bearer {tokens[ply % 2]}"}
                    legal = browser.get(f"/api/games/{game_id}", headers=token).json()["legal_moves"]
                    moved = browser.post(f"/api/games/{game_id}/moves", json={"move": legal[0], "ply": ply},
                                         headers=token)
                    assert moved.status_code == 200, moved.text
                    for socket in sockets:
                        document_at(socket, ply + 1)
            ids.append(game_id)
        for _ in range(20):
            assert browser.get("/api/catalog").status_code == 200
    return ids


def servers_by_game(nginx: Nginx, ids: list[str]) -> dict[str, set[str]]:
    """Which processes served each game's requests, once nginx has logged its sockets too."""
    deadline = time.monotonic() + 10
    while True:
        served: dict[str, set[str]] = defaultdict(set)
        sockets = 0
        for path, address in nginx.upstreams():
            parts = path.split("/")
            if path.startswith("/api/games/") and len(parts) > 3 and parts[3] in ids:
                served[parts[3]].add(address)
                sockets += path.endswith("/ws")
        if sockets >= 2 * len(ids) or time.monotonic() > deadline:
            return served
        time.sleep(0.1)


def test_each_game_is_served_by_one_process(two_processes: tuple[Nginx, Path]) -> None:
    nginx, certificate = two_processes
    ids = play_games(nginx, certificate)
    served = servers_by_game(nginx, ids)
    assert sorted(served) == sorted(ids)
    assert all(len(addresses) == 1 for addresses in served.values()), served
    everyone = {address for _, address in nginx.upstreams() if address != "-"}
    assert len(everyone) == 2  # the other requests go to either process
