"""``POST /api/games/{id}/moves``, the request a server answers most, taken before FastAPI's
routing: the same endpoint (``routes.post_move``), the same checks (its router's dependencies,
run here in their order), the same answers to errors (the app's exception handlers), the same
metrics and log line (``scope["route"]`` is the route's), only without the routing, dependency
solving and exception middlewares that cost a fifth of a move (docs/distributed.md,
"CPU per move against the floor"). An unexpected error goes on to the app's outermost handler,
as it would from the route. Every other request goes on to the app.

The endpoint must take ``(request, game_id)`` and nothing else, and each router dependency
``(request)`` alone: the shortcut refuses to be built otherwise, so that a check added to the
router later can never be skipped here.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Awaitable, Callable

from fastapi import APIRouter, Request
from fastapi.routing import APIRoute
from starlette.responses import Response
from starlette.types import ASGIApp, Receive, Scope, Send

Check = Callable[[Request], Awaitable[None]]
Endpoint = Callable[[Request, str], Awaitable[Response]]
# Starlette's ``{game_id}``: one path segment.
MOVES_PATH = re.compile(r"/api/games/(?P<game_id>[^/]+)/moves")


def shortcut_parts(router: APIRouter, endpoint: Endpoint) -> tuple[APIRoute, list[Check]]:
    """The route of ``endpoint`` in ``router`` and the router's checks; ``ValueError`` when the
    route or a check needs anything but the request (FastAPI would have to solve it)."""
    routes = [r for r in router.routes if isinstance(r, APIRoute) and r.endpoint is endpoint]
    if [(r.path, r.dependencies) for r in routes] != [("/api/games/{game_id}/moves", router.dependencies)]:
        raise ValueError("the moves route is not the shortcut's: none, another path, or checks of its own")
    route = routes[0]
    if list(inspect.signature(endpoint).parameters) != ["request", "game_id"]:
        raise ValueError("the moves endpoint must take (request, game_id) only")
    checks: list[Check] = []
    for dependency in router.dependencies:
        check = dependency.dependency
        if check is None or list(inspect.signature(check).parameters) != ["request"]:
            raise ValueError(f"the router's check {check!r} needs more than the request")
        checks.append(check)
    return route, checks


class MoveShortcut:
    """ASGI middleware: a move's POST straight to its endpoint (see the module's docstring)."""

    def __init__(self, app: ASGIApp, router: APIRouter, endpoint: Endpoint) -> None:
        self.app = app
        self.route, self.checks = shortcut_parts(router, endpoint)
        self.endpoint = endpoint

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        match = (MOVES_PATH.fullmatch(scope["path"])
                 if scope["type"] == "http" and scope["method"] == "POST" and not scope.get("root_path")
                 else None)
        if match is None:
            await self.app(scope, receive, send)
            return
        scope["route"] = self.route  # the metrics and the log name the route's template
        scope["path_params"] = match.groupdict()
        request = Request(scope, receive)
        try:
            for check in self.checks:
                await check(request)
            response = await self.endpoint(request, match["game_id"])
        except Exception as error:
            response = await self._answer(request, error)
        await response(scope, receive, send)

    async def _answer(self, request: Request, error: Exception) -> Response:
        """The app's answer to ``error``, found as Starlette finds it (by the error's classes);
        one with no handler of its own is raised on, to the app's handler of last resort."""
        handlers = request.app.exception_handlers
        for kind in type(error).__mro__:
            if kind is Exception:
                break
            if kind in handlers:
                answer: Response = await handlers[kind](request, error)
                return answer
        raise error
