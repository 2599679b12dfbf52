"""The real server in its own process (uvicorn, as ``ludotheque serve`` runs it): its JSON log
lines (uvicorn's own included) carry request ids and no secret, and ``/metrics`` counts the
readers dropped for not reading."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets.sync.client

from tests.support.rawsocket import RawSocket
from tests.support.server import ServerProcess

from .helpers import Samples, parse, total

SOCKET_ROUTE = "/api/games/{game_id}/ws"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    db = tmp_path_factory.mktemp("observe") / "games.db"
    env = {"LUDOTHEQUE_LOG_FORMAT": "json", "LUDOTHEQUE_WS_PING_INTERVAL": "600"}
    # A 4 KiB send buffer per connection: a reader that stops reading is dropped after a few
    # documents (tests/server/test_slow_readers.py).
    with ServerProcess(f"sqlite:///{db}", launcher="uvicorn", send_buffer=4096, env=env) as running:
        yield running


def scrape(http: httpx.Client) -> Samples:
    answer = http.get("/metrics")
    assert answer.status_code == 200, answer.text
    return parse(answer.text)


def log_lines(server: ServerProcess) -> list[dict[str, object]]:
    lines = [line for line in server.log(tail=None).splitlines() if line.strip()]
    return [json.loads(line) for line in lines]  # every line is one JSON object


def test_log_lines_are_json_with_request_ids_and_no_secret(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=15) as http:
        created = http.post("/api/games", json={"game": "pylos", "seats": ["human", "invite"]}).json()
        game_id, token = created["id"], created["seats"][0]["token"]
        invite = created["seats"][1]["invite"]
        answer = http.get(f"/api/games/{game_id}?token={token}", headers={"X-Request-ID": "real-1"})
        assert answer.headers["x-request-id"] == "real-1"
        http.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
        http.get(f"/play/{game_id}?invite={invite}", headers={"Cookie": f"ludotheque_seat_0={token}"})
        with websockets.sync.client.connect(f"{server.ws_url}/api/games/{game_id}/ws?token={token}") as ws:
            ws.recv()
        with websockets.sync.client.connect(f"{server.ws_url}/api/games/nothing/ws?token={token}") as ws:
            ws.recv()
        http.get("/health")  # let the server log the sockets' ends
    text = server.log(tail=None)
    lines = log_lines(server)
    assert [line for line in lines if line.get("request_id") == "real-1"]
    assert any(str(line["logger"]).startswith("uvicorn") for line in lines)
    access = [line for line in lines if line["logger"] == "ludotheque.access"]
    assert {"/api/games", "/api/games/{game_id}", SOCKET_ROUTE} <= {line["route"] for line in access}
    for secret in (token, invite):
        assert secret not in text


def test_dropped_readers_and_open_sockets_are_counted(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=15) as http:
        before = scrape(http)
        created = http.post("/api/games", json={"game": "imbrication", "seats": ["human", "human"]}).json()
        game_id, seat_tokens = created["id"], [seat["token"] for seat in created["seats"]]
        stuck = RawSocket.connect(server.host, server.port, f"/api/games/{game_id}/ws", receive_buffer=4096)
        try:
            during = scrape(http)
            assert total(during, "ludotheque_websockets_open", route=SOCKET_ROUTE) - total(
                before, "ludotheque_websockets_open", route=SOCKET_ROUTE) == 1
            rng = random.Random(3)
            dropped = 0.0
            for _ in range(70):
                doc = http.get(f"/api/games/{game_id}").json()
                if doc["status"] != "playing":
                    break
                token = seat_tokens[doc["to_move"]]
                legal = http.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"}
                                 ).json()["legal_moves"]
                http.post(f"/api/games/{game_id}/moves", json={"move": rng.choice(legal), "ply": doc["ply"]},
                          headers={"Authorization": f"Bearer {token}"})
                dropped = total(scrape(http), "ludotheque_websocket_readers_dropped_total") - total(
                    before, "ludotheque_websocket_readers_dropped_total")
                if dropped:
                    break
            assert dropped == 1
        finally:
            stuck.close()
        after = scrape(http)
        assert total(after, "ludotheque_websockets_open", route=SOCKET_ROUTE) == total(
            before, "ludotheque_websockets_open", route=SOCKET_ROUTE)


def test_log_format_is_checked(tmp_path: Path) -> None:
    from ludotheque.server import create_app

    with pytest.raises(ValueError, match="expected text or json"):
        create_app(f"sqlite:///{tmp_path / 'x.db'}", log_format="xml")
