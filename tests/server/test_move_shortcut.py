"""A move's POST is answered before FastAPI's routing (``move_route.MoveShortcut``): with the
same answers, good or bad, as the route itself, the route's checks, and the route's name in the
metrics; a check that needs more than the request cannot be added to the router behind its back.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest
from fastapi import APIRouter, Depends, FastAPI, Request
from fastapi.testclient import TestClient

from ludotheque.server import create_app, routes
from ludotheque.server.config import ServerSettings
from ludotheque.server.move_route import MoveShortcut, shortcut_parts

TWO = {"game": "pylos", "seats": ["human", "human"]}


def without_shortcut(app: FastAPI) -> FastAPI:
    """The same app answering moves through FastAPI's routing (before its stack is built)."""
    app.user_middleware = [entry for entry in app.user_middleware if entry.cls is not MoveShortcut]
    return app


@pytest.fixture
def both(db_url: str) -> Iterator[tuple[TestClient, TestClient]]:
    settings = replace(ServerSettings())
    lean = create_app(db_url, bot_workers=1, settings=settings)
    assert any(entry.cls is MoveShortcut for entry in lean.user_middleware)
    with TestClient(lean) as shortcut, TestClient(without_shortcut(
            create_app(db_url, bot_workers=1, settings=settings))) as routed:
        yield shortcut, routed


def answers(client: TestClient) -> list[tuple[int, Any]]:
    """The answers to a set of moves, good and bad, in a new game."""
    created = client.post("/api/games", json=TWO).json()
    url, token = f"/api/games/{created['id']}", created["seats"][0]["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    other = {"Authorization": f"Bearer {created['seats'][1]['token']}"}
    tries: list[tuple[str, dict[str, Any]]] = [
        ("/api/games/nosuchgame/moves", {"json": {"move": "1a1"}, "headers": bearer}),
        (f"{url}/moves", {"content": b"not json", "headers": {**bearer, "Content-Type": "application/json"}}),
        (f"{url}/moves", {"content": b"x" * 70_000, "headers": bearer}),
        (f"{url}/moves", {"json": {}, "headers": bearer}),
        (f"{url}/moves", {"json": {"move": "1a1", "extra": 1}, "headers": bearer}),
        (f"{url}/moves", {"json": {"move": "9z9"}, "headers": bearer}),
        (f"{url}/moves", {"json": {"move": "1a1"}}),  # no credentials
        (f"{url}/moves", {"json": {"move": "1a1"}, "headers": other}),  # not its turn
        (f"{url}/moves", {"json": {"move": "1a1", "ply": 3}, "headers": bearer}),
        (f"{url}/moves", {"json": {"move": "1a1", "ply": 0}, "headers": {**bearer, "Origin": "http://evil.example"}}),
        (f"{url}/moves", {"json": {"move": "1a2", "ply": 1}, "headers": other}),
    ]
    page = client.post("/api/games?cookie=1", json=TWO, headers={"Origin": "http://testserver"}).json()
    tries.append((f"/api/games/{page['id']}/moves",  # the seat's cookie, sent from another site's page
                  {"json": {"move": "1a1"}, "headers": {"Origin": "http://evil.example"}}))
    seen = []
    for path, options in tries:
        answer = client.post(path, **options)
        body = answer.json()
        if answer.status_code == 200:  # a document: compare what does not depend on the game's id
            body = {key: body[key] for key in ("ply", "moves", "to_move", "status", "seat", "legal_moves")}
        seen.append((answer.status_code, body))
    return seen


def test_the_shortcut_answers_every_move_as_the_route_does(both: tuple[TestClient, TestClient]) -> None:
    shortcut, routed = both
    lean, full = answers(shortcut), answers(routed)
    assert [status for status, _ in lean] == [404, 400, 413, 400, 400, 400, 401, 409, 409, 200, 200, 403]
    assert lean == full


def test_moves_are_counted_under_the_routes_name(both: tuple[TestClient, TestClient]) -> None:
    shortcut, _ = both
    created = shortcut.post("/api/games", json=TWO).json()
    token = created["seats"][0]["token"]
    moved = shortcut.post(f"/api/games/{created['id']}/moves", json={"move": "1a1"},
                          headers={"Authorization": f"Bearer {token}"})
    assert moved.status_code == 200
    assert moved.headers["x-content-type-options"] == "nosniff" and moved.headers["x-request-id"]
    metrics = shortcut.get("/metrics").text
    assert 'method="POST",route="/api/games/{game_id}/moves",status="200"' in metrics


async def needs_more(request: Request, page: int = 1) -> None:
    """A check FastAPI would have to solve (a query parameter)."""


def test_a_router_check_that_needs_more_than_the_request_is_refused() -> None:
    router = APIRouter(prefix="/api", dependencies=[*routes.router.dependencies, Depends(needs_more)])
    router.add_api_route("/games/{game_id}/moves", routes.post_move, methods=["POST"])
    with pytest.raises(ValueError, match="needs more than the request"):
        shortcut_parts(router, routes.post_move)
    own = APIRouter(prefix="/api")
    own.add_api_route("/games/{game_id}/moves", routes.post_move, methods=["POST"],
                      dependencies=[Depends(routes.guard_origin)])
    with pytest.raises(ValueError, match="checks of its own"):
        shortcut_parts(own, routes.post_move)
    route, checks = shortcut_parts(routes.router, routes.post_move)
    assert route.path == "/api/games/{game_id}/moves" and checks == [routes.guard_origin]


def test_moves_are_answered_without_the_route(db_url: str) -> None:
    """Taken out of FastAPI's routes, the moves route still answers: the shortcut answers it."""
    app = create_app(db_url, bot_workers=1, settings=ServerSettings())
    app.router.routes = [route for route in app.router.routes
                         if getattr(route, "path", None) != "/api/games/{game_id}/moves"]
    with TestClient(app) as client:
        created = client.post("/api/games", json=TWO).json()
        token = created["seats"][0]["token"]
        moved = client.post(f"/api/games/{created['id']}/moves", json={"move": "1a1"},
                            headers={"Authorization": f"Bearer {token}"})
        assert moved.status_code == 200 and moved.json()["moves"] == ["1a1"]
        assert client.get(f"/api/games/{created['id']}/moves").status_code in (404, 405)
