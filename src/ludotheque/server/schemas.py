"""Typed inbound messages: HTTP bodies and WebSocket messages (discriminated on ``type``).

Invalid input is refused with a clear reason, never patched up (STYLE.md §8).

>>> parse_ws_message('{"type": "move", "move": "1a1"}')
MoveMessage(type='move', move='1a1', ply=None)
>>> parse_ws_message('{"type": "dance"}')
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: unknown message type 'dance' (expected move, resign, draw, takeback, ping)
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .errors import ApiError, first_problem

Name = Annotated[str, Field(min_length=1, max_length=40)]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FischerClock(_Strict):
    type: Literal["fischer"]
    minutes: Annotated[float, Field(gt=0, le=24 * 60)]
    increment: Annotated[float, Field(ge=0, le=3600)] = 0


class CorrespondenceClock(_Strict):
    type: Literal["correspondence"]
    days: Annotated[int, Field(ge=1, le=60)]


ClockBody = Annotated[FischerClock | CorrespondenceClock, Field(discriminator="type")]


class CreateGame(_Strict):
    game: str
    variant: str | None = None
    players: int | None = None
    seats: Annotated[list[str], Field(min_length=1, max_length=8)]
    clock: ClockBody | None = None
    name: Name | None = None


class JoinBody(_Strict):
    name: Name | None = None


class MoveBody(_Strict):
    move: Annotated[str, Field(max_length=1000)]
    ply: Annotated[int, Field(ge=0)] | None = None


class EmptyBody(_Strict):
    pass


class MoveMessage(_Strict):
    type: Literal["move"]
    move: Annotated[str, Field(max_length=1000)]
    ply: Annotated[int, Field(ge=0)] | None = None


class ResignMessage(_Strict):
    type: Literal["resign"]


class DrawMessage(_Strict):
    type: Literal["draw"]


class TakebackMessage(_Strict):
    type: Literal["takeback"]


class PingMessage(_Strict):
    type: Literal["ping"]


WsMessage = Annotated[
    MoveMessage | ResignMessage | DrawMessage | TakebackMessage | PingMessage,
    Field(discriminator="type"),
]
_WS_TYPES = ("move", "resign", "draw", "takeback", "ping")
_ws_adapter: TypeAdapter[WsMessage] = TypeAdapter(WsMessage)

Model = TypeVar("Model", bound=BaseModel)


def parse_json(raw: bytes | str) -> Any:
    """Decode JSON text; raises ``ApiError`` (400) when it is not JSON."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ApiError(400, f"the body is not JSON: {error}") from None


def validate(model: type[Model], data: Any) -> Model:
    """``data`` as ``model``; raises ``ApiError`` (400) naming the first bad field."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ApiError(400, describe(error)) from None


def parse_ws_message(raw: str) -> WsMessage:
    """A WebSocket message; raises ``ApiError`` (400) for anything but a known typed message."""
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ApiError(400, "a message must be a JSON object with a 'type'")
    if data.get("type") not in _WS_TYPES:
        raise ApiError(400, f"unknown message type {data.get('type')!r} (expected {', '.join(_WS_TYPES)})")
    try:
        return _ws_adapter.validate_python(data)
    except ValidationError as error:
        raise ApiError(400, describe(error)) from None


def describe(error: ValidationError) -> str:
    """The first problem of a validation error, in one line naming the field."""
    return first_problem(error.errors())
