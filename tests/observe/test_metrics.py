"""``GET /metrics`` on a real app and database (SQLite and PostgreSQL): Prometheus text that
prometheus-client's parser reads, every name ``ludotheque_``, routes by template, and figures
that move when a game is created, a move played and a socket opened."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient

from ludotheque.server import metrics
from tests.server.helpers import bearer, create, tokens

from .helpers import Samples, families, label_values, parse, total, wait_for

GAME_ROUTE = "/api/games/{game_id}"
MOVES_ROUTE = "/api/games/{game_id}/moves"
SOCKET_ROUTE = "/api/games/{game_id}/ws"


def scrape(client: TestClient) -> Samples:
    answer = client.get("/metrics")
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return parse(answer.text)


def test_every_figure_is_parsed_and_named_ludotheque(client: TestClient) -> None:
    answer = client.get("/metrics")
    names = families(answer.text)
    assert names and all(name.startswith("ludotheque_") for name in names), names
    expected = {"ludotheque_http_requests", "ludotheque_http_request_duration_seconds",
                "ludotheque_websockets_open", "ludotheque_games", "ludotheque_games_loaded",
                "ludotheque_bot_queue", "ludotheque_bot_workers", "ludotheque_db_query_seconds",
                "ludotheque_db_connection_seconds", "ludotheque_worker_start_time_seconds"}
    assert expected <= names, expected - names
    samples = parse(answer.text)
    assert label_values(samples, "ludotheque_worker_start_time_seconds", "worker") == {metrics.WORKER}


def test_figures_move_with_a_game_and_a_move(client: TestClient) -> None:
    before = scrape(client)
    created = create(client)
    game_id, light = created["id"], tokens(created)[0]
    answer = client.post(f"/api/games/{game_id}/moves", json={"move": "1a1"}, headers=bearer(light))
    assert answer.status_code == 200, answer.text
    assert client.get(f"/api/games/{game_id}").status_code == 200
    after = scrape(client)

    def grew(name: str, **labels: str) -> float:
        return total(after, name, **labels) - total(before, name, **labels)

    assert grew("ludotheque_http_requests_total", method="POST", route="/api/games", status="201") == 1
    assert grew("ludotheque_http_requests_total", method="POST", route=MOVES_ROUTE, status="200") == 1
    assert grew("ludotheque_http_requests_total", method="GET", route=GAME_ROUTE, status="200") == 1
    assert grew("ludotheque_http_request_duration_seconds_count", method="POST", route=MOVES_ROUTE) == 1
    assert grew("ludotheque_http_request_duration_seconds_sum", method="POST", route=MOVES_ROUTE) > 0
    assert grew("ludotheque_games", status="playing") == 1
    assert total(after, "ludotheque_games_loaded") >= 1
    assert grew("ludotheque_db_query_seconds_count", statement="insert") >= 1
    assert grew("ludotheque_db_connection_seconds_count") >= 2  # the creation, the move
    assert total(after, "ludotheque_bot_workers") == 1 and total(after, "ludotheque_bot_queue") == 0
    # Routes by template only: no game id in any label (it would explode the series).
    assert not any(game_id in value for (_, labels) in after for _, value in labels)


def test_unknown_paths_share_one_label(client: TestClient) -> None:
    before = scrape(client)
    for n in range(3):
        assert client.get(f"/no/such/page/{n}").status_code == 404
    after = scrape(client)
    grown = (total(after, "ludotheque_http_requests_total", route="<unmatched>", status="404")
             - total(before, "ludotheque_http_requests_total", route="<unmatched>", status="404"))
    assert grown == 3
    assert not any("/no/such" in value for (_, labels) in after for _, value in labels)


def test_open_sockets_are_counted_while_open(client: TestClient) -> None:
    created = create(client)
    before = scrape(client)
    with client.websocket_connect(f"/api/games/{created['id']}/ws") as socket:
        assert socket.receive_json()["id"] == created["id"]
        during = scrape(client)
        assert (total(during, "ludotheque_websockets_open", route=SOCKET_ROUTE)
                - total(before, "ludotheque_websockets_open", route=SOCKET_ROUTE)) == 1
        assert (total(during, "ludotheque_websocket_connections_total", route=SOCKET_ROUTE)
                - total(before, "ludotheque_websocket_connections_total", route=SOCKET_ROUTE)) == 1
    assert wait_for(lambda: total(scrape(client), "ludotheque_websockets_open", route=SOCKET_ROUTE)
                    == total(before, "ludotheque_websockets_open", route=SOCKET_ROUTE))


def test_request_ids_come_back(client: TestClient) -> None:
    given = client.get("/api/catalog", headers={"X-Request-ID": "trace-42"})
    assert given.headers["x-request-id"] == "trace-42"
    fresh = client.get("/api/catalog", headers={"X-Request-ID": "no spaces allowed " + "x" * 80})
    assert fresh.headers["x-request-id"] != "trace-42" and len(fresh.headers["x-request-id"]) == 16
    assert client.get("/api/catalog").headers["x-request-id"]


def test_moves_are_counted(client: TestClient) -> None:
    before = scrape(client)
    created = create(client)
    light, dark = tokens(created)
    for token, move in ((light, "1a1"), (dark, "1b1")):
        answer = client.post(f"/api/games/{created['id']}/moves", json={"move": move}, headers=bearer(token))
        assert answer.status_code == 200, answer.text
    after = scrape(client)
    assert total(after, "ludotheque_moves_total", game="pylos") - total(
        before, "ludotheque_moves_total", game="pylos") == 2


def test_bot_think_time_is_measured(client: TestClient) -> None:
    before = scrape(client)
    created = create(client, seats=["human", "bot:random"])
    answer = client.post(f"/api/games/{created['id']}/moves", json={"move": "1a1"},
                         headers=bearer(tokens(created)[0]))
    assert answer.status_code == 200, answer.text
    deadline = time.monotonic() + 60
    while client.get(f"/api/games/{created['id']}").json()["ply"] < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    after = scrape(client)
    assert total(after, "ludotheque_bot_think_seconds_count", level="random") - total(
        before, "ludotheque_bot_think_seconds_count", level="random") == 1
