"""API errors and their one JSON shape: ``{"error": "<clear reason>"}`` (never a 422).

>>> ApiError(409, "game over").body()
{'error': 'game over'}
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException

log = logging.getLogger("ludotheque.server")


class ApiError(Exception):
    """A refused request: the HTTP status and a reason people can read; nothing changed."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message

    def body(self) -> dict[str, str]:
        return {"error": self.message}


def first_problem(problems: Sequence[Any]) -> str:
    """The first of a list of Pydantic problems, in one line naming the field."""
    if not problems:
        return "invalid request"
    first = problems[0]
    where = ".".join(str(part) for part in first.get("loc", ())) or "body"
    return f"invalid {where!r}: {first.get('msg', 'bad value')}"


def install_error_handlers(app: FastAPI) -> None:
    """Make every error, FastAPI's own included, answer ``{"error": ...}``."""

    async def on_api_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, ApiError)
        return JSONResponse(error.body(), status_code=error.status)

    async def on_http_error(_: Request, error: Exception) -> JSONResponse:
        assert isinstance(error, StarletteHTTPException)
        return JSONResponse({"error": str(error.detail)}, status_code=error.status_code)

    async def on_validation_error(_: Request, error: Exception) -> JSONResponse:
        # DESIGN.md: never 422; a malformed path or query parameter is a bad request.
        assert isinstance(error, RequestValidationError)
        return JSONResponse({"error": first_problem(error.errors())}, status_code=400)

    async def on_unexpected_error(_: Request, error: Exception) -> JSONResponse:
        log.error("unexpected error", exc_info=error)
        return JSONResponse({"error": "internal server error"}, status_code=500)

    app.add_exception_handler(ApiError, on_api_error)
    app.add_exception_handler(Exception, on_unexpected_error)
    app.add_exception_handler(StarletteHTTPException, on_http_error)
    app.add_exception_handler(RequestValidationError, on_validation_error)
