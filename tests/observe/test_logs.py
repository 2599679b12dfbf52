"""Structured logs: with ``LUDOTHEQUE_LOG_FORMAT=json`` (``ludotheque serve --log-format json``)
every line is one JSON object with the request's id, method, route, status and duration; no
seat token, invite code, bearer credential or cookie ever reaches a line, whether it came in a
query, a header or a cookie."""

from __future__ import annotations

import io
import json
import logging
from collections.abc import Iterator
from typing import Any

import pytest

from ludotheque.server import logs
from tests.server.conftest import serving
from tests.server.helpers import bearer, create, tokens

FIELDS = {"timestamp", "level", "logger", "message", "request_id", "method", "route", "status", "duration_ms"}


@pytest.fixture
def json_lines(monkeypatch: pytest.MonkeyPatch) -> Iterator[io.StringIO]:
    """The JSON log lines of the apps made in the test (``LUDOTHEQUE_LOG_FORMAT=json``)."""
    monkeypatch.setenv(logs.LOG_FORMAT_ENV, "json")
    root = logging.getLogger()
    saved = (root.level, {name: (logging.getLogger(name).level, logging.getLogger(name).propagate,
                                 list(logging.getLogger(name).handlers))
                          for name in (*logs.UVICORN_LOGGERS, logs.ACCESS_LOGGER)})
    buffer = io.StringIO()
    logs.configure("json", stream=buffer)
    try:
        yield buffer
    finally:
        for handler in list(root.handlers):
            if isinstance(handler, logs._JsonHandler):
                root.removeHandler(handler)
        root.setLevel(saved[0])
        for name, (level, propagate, handlers) in saved[1].items():
            logger = logging.getLogger(name)
            logger.setLevel(level)
            logger.propagate = propagate
            logger.handlers = handlers
        logging.captureWarnings(False)


def read_lines(buffer: io.StringIO) -> list[dict[str, Any]]:
    lines = [line for line in buffer.getvalue().splitlines() if line.strip()]
    return [json.loads(line) for line in lines]  # every line is one JSON object


def test_each_request_is_one_json_line_with_its_id(json_lines: io.StringIO, db_url: str) -> None:
    with serving(db_url) as client:
        created = create(client)
        answer = client.get(f"/api/games/{created['id']}", headers={"X-Request-ID": "trace-7"})
        assert answer.headers["x-request-id"] == "trace-7"
        other = client.get("/no/such/page")
        generated = other.headers["x-request-id"]
    lines = read_lines(json_lines)
    mine = [line for line in lines if line.get("request_id") == "trace-7"]
    assert len(mine) == 1, lines
    line = mine[0]
    assert set(line) >= FIELDS, line
    assert (line["logger"], line["level"], line["method"], line["route"], line["status"]) == (
        "ludotheque.access", "info", "GET", "/api/games/{game_id}", 200)
    assert isinstance(line["duration_ms"], float) and line["duration_ms"] >= 0
    assert line["timestamp"].endswith("Z") and "T" in line["timestamp"]
    assert line["message"] == "GET /api/games/{game_id} 200"
    assert created["id"] not in json.dumps(line)  # routes, never raw paths
    missing = [line for line in lines if line.get("request_id") == generated]
    assert len(missing) == 1 and missing[0]["route"] == "<unmatched>" and missing[0]["status"] == 404


def test_records_inside_a_request_carry_its_id(json_lines: io.StringIO, db_url: str) -> None:
    with serving(db_url) as client:
        created = create(client)
        token = tokens(created)[0]
        # A move refused is no log line of its own; a WebSocket's life is one line.
        with client.websocket_connect(f"/api/games/{created['id']}/ws?token={token}",
                                      headers={"X-Request-ID": "socket-1"}) as socket:
            socket.receive_json()
    lines = read_lines(json_lines)
    socket_lines = [line for line in lines if line.get("request_id") == "socket-1"]
    assert socket_lines and socket_lines[-1]["route"] == "/api/games/{game_id}/ws"
    assert socket_lines[-1]["method"] == "WS"


def test_no_secret_reaches_the_logs(json_lines: io.StringIO, db_url: str) -> None:
    logging.getLogger().setLevel(logging.DEBUG)  # every record there is
    with serving(db_url) as client:
        created = create(client, seats=["human", "invite"])
        game_id, token = created["id"], tokens(created)[0]
        invite = created["seats"][1]["invite"]
        session = "session-secret-" + token[:8]
        secrets = [token, invite, session]
        client.get(f"/api/games/{game_id}?token={token}")
        client.get(f"/play/{game_id}?token={token}&invite={invite}")
        client.get(f"/api/games/{game_id}", headers=bearer(token))
        client.get(f"/api/games/{game_id}", headers={"Authorization": f"Bearer {session}"})
        client.get(f"/api/games/{game_id}/seats/mine",
                   headers={"Cookie": f"ludotheque_seat_0={token}; ludotheque_session={session}"})
        client.post(f"/api/games/{game_id}/seats/1/claim", json={"invite": invite})
        with client.websocket_connect(f"/api/games/{game_id}/ws?token={token}") as socket:
            socket.receive_json()
        # A secret inside a message or a traceback is redacted too.
        logging.getLogger("ludotheque.server").warning("GET /x?token=%s (Authorization: Bearer %s)",
                                                       token, session)
        try:
            raise RuntimeError(f"failed with invite={invite}")
        except RuntimeError:
            logging.getLogger("ludotheque.server").exception("a failure")
    text = json_lines.getvalue()
    lines = read_lines(json_lines)
    assert len([line for line in lines if line["logger"] == "ludotheque.access"]) >= 7
    assert "token=…" in text and "Bearer …" in text and "invite=…" in text
    for secret in secrets:
        assert secret not in text, secret
