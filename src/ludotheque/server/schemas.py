"""Typed inbound messages: HTTP bodies and WebSocket messages (discriminated on ``type``).

Invalid input is refused with a clear reason, never patched up (docs/style.md §8).

>>> parse_ws_message('{"type": "move", "move": "1a1"}')
MoveMessage(type='move', move='1a1', ply=None)
>>> parse_ws_message('{"type": "dance"}')  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: unknown message type 'dance' (expected move, resign, draw, ...
>>> parse_json("[" * 30_000)
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: the body is not JSON the server reads: nested too deeply
"""

from __future__ import annotations

import json
import re
from typing import Annotated, Any, Literal, TypeVar

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from .accounts import has_bidi_control, normal_name
from .clocks import ClockSpec
from .errors import ApiError, first_problem, quoted

# Control characters (bidirectional ones included: U+202E shows "Ada" as "adA") in a name.
_NAME_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def seat_name(text: str) -> str:
    """A seat's name as given (no account's): NFKC-normalised; control and bidirectional
    characters refused.

    >>> seat_name("Ａda ")
    'Ada'
    >>> seat_name("abc\u202eabc")
    Traceback (most recent call last):
    ...
    ValueError: a name may not hold control or bidirectional characters
    """
    if has_bidi_control(text) or _NAME_CONTROL.search(text):
        raise ValueError("a name may not hold control or bidirectional characters")
    name = normal_name(text).strip()
    if not name:
        raise ValueError("a name needs a visible character")
    return name


Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(seat_name)]
# A number as a client writes it in a path or query: ASCII digits only (``"²".isdigit()`` is
# true, and ``int("²")`` fails), at most nine of them.
_NATURAL = re.compile(r"[0-9]{1,9}")
SEATS_HELP = "one entry per player: 'human' (the creator's), 'open' (anyone may join), " \
    "'invite' (whoever brings the invite code) or 'bot:<level>' (random, easy, medium, hard)"


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FischerClock(Strict):
    type: Literal["fischer"]
    minutes: Annotated[float, Field(gt=0, le=24 * 60)]
    increment: Annotated[float, Field(ge=0, le=3600)] = 0


class CorrespondenceClock(Strict):
    type: Literal["correspondence"]
    days: Annotated[int, Field(ge=1, le=60)]


ClockBody = Annotated[FischerClock | CorrespondenceClock, Field(discriminator="type")]


def allowed_clock(clock: FischerClock | CorrespondenceClock | None, shortest: float) -> ClockSpec | None:
    """The clock asked for (``None``: no clock); 400 for a Fischer clock shorter than the server's
    minimum of ``shortest`` minutes, wherever a game's clock is asked for (a game, a seek, a
    challenge, a tournament).

    >>> allowed_clock(FischerClock(type="fischer", minutes=5), 1.0).to_json()["minutes"]
    5.0
    >>> allowed_clock(FischerClock(type="fischer", minutes=0.5), 1.0)
    Traceback (most recent call last):
    ...
    ludotheque.server.errors.ApiError: invalid 'clock.minutes': at least 1 minutes
    """
    if clock is None:
        return None
    if isinstance(clock, FischerClock) and clock.minutes < shortest:
        raise ApiError(400, f"invalid 'clock.minutes': at least {shortest:g} minutes", "bad_request")
    return ClockSpec.from_json(clock.model_dump())


class CreateGame(Strict):
    game: Annotated[str, Field(description="a game id, as /api/catalog lists them", max_length=40)]
    variant: Annotated[str | None, Field(description="default when left out", max_length=40)] = None
    players: Annotated[int | None, Field(description="default when left out")] = None
    seats: Annotated[list[str], Field(min_length=1, max_length=8, description=SEATS_HELP)]
    clock: ClockBody | None = None
    name: Annotated[Name | None, Field(description="the creator's name on human seats (a signed-in "
                                       "player's or guest's seats bear their account's name)")] = None
    rated: Annotated[bool, Field(description="rated (changes ratings once over) or casual (default)",
                                 strict=True)] = False


class JoinBody(Strict):
    name: Name | None = None


class ClaimBody(Strict):
    invite: Annotated[str, Field(min_length=1, max_length=100)]
    name: Name | None = None


class MoveBody(Strict):
    move: Annotated[str, Field(max_length=1000)]
    ply: Annotated[int, Field(ge=0)] | None = None


class EmptyBody(Strict):
    pass


class SignBody(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]
    password: Annotated[str, Field(min_length=1, max_length=1000)]


class PasswordChange(Strict):
    password: Annotated[str, Field(min_length=1, max_length=1000)]
    new_password: Annotated[str, Field(min_length=1, max_length=1000)]


class NameBody(Strict):
    name: Annotated[str, Field(min_length=1, max_length=40)]


class EmailBody(Strict):
    email: Annotated[str | None, Field(max_length=254, pattern=r"^[^@\s]+@[^@\s]+$")] = None
    notify: Annotated[bool, Field(strict=True)] = False


class TokenBody(Strict):
    label: Annotated[str | None, Field(min_length=1, max_length=40)] = None


class MoveMessage(Strict):
    type: Literal["move"]
    move: Annotated[str, Field(max_length=1000)]
    ply: Annotated[int, Field(ge=0)] | None = None


class ResignMessage(Strict):
    type: Literal["resign"]


class DrawMessage(Strict):
    type: Literal["draw"]


class DeclineDrawMessage(Strict):
    type: Literal["decline_draw"]


class TakebackMessage(Strict):
    type: Literal["takeback"]


class PingMessage(Strict):
    type: Literal["ping"]


WsMessage = Annotated[
    MoveMessage | ResignMessage | DrawMessage | DeclineDrawMessage | TakebackMessage | PingMessage,
    Field(discriminator="type"),
]
_WS_TYPES = ("move", "resign", "draw", "decline_draw", "takeback", "ping")
_ws_adapter: TypeAdapter[WsMessage] = TypeAdapter(WsMessage)

Model = TypeVar("Model", bound=BaseModel)


def parse_json(raw: bytes | str) -> Any:
    """Decode JSON text; raises ``ApiError`` (400 ``bad_json``) when it is not JSON, or JSON that
    Python refuses to read (an integer over 4,300 digits, nesting deeper than the recursion limit)."""
    try:
        return json.loads(raw)
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise ApiError(400, f"the body is not JSON: {error}", "bad_json") from None
    except RecursionError:
        raise ApiError(400, "the body is not JSON the server reads: nested too deeply", "bad_json") from None
    except ValueError as error:  # int() refuses over 4,300 digits (CVE-2020-10735)
        reason = str(error).split(";")[0]
        raise ApiError(400, f"the body is not JSON the server reads: {reason}", "bad_json") from None


def natural_number(text: str) -> int | None:
    """``text`` as a number written in ASCII digits, ``None`` otherwise.

    >>> natural_number("12"), natural_number("²"), natural_number("-1")
    (12, None, None)
    """
    return int(text) if _NATURAL.fullmatch(text) else None


def validate(model: type[Model], data: Any) -> Model:
    """``data`` as ``model``; raises ``ApiError`` (400) naming the first bad field."""
    try:
        return model.model_validate(data)
    except ValidationError as error:
        raise ApiError(400, describe(error), "bad_request") from None


def parse_ws_message(raw: str) -> WsMessage:
    """A WebSocket message; raises ``ApiError`` (400) for anything but a known typed message."""
    data = parse_json(raw)
    if not isinstance(data, dict):
        raise ApiError(400, "a message must be a JSON object with a 'type'", "bad_request")
    kind = data.get("type")
    if not isinstance(kind, str) or kind not in _WS_TYPES:
        raise ApiError(
            400, f"unknown message type {quoted(kind)} (expected {', '.join(_WS_TYPES)})", "bad_request"
        )
    try:
        return _ws_adapter.validate_python(data)
    except ValidationError as error:
        raise ApiError(400, describe(error), "bad_request") from None


def describe(error: ValidationError) -> str:
    """The first problem of a validation error, in one line naming the field."""
    return first_problem(error.errors())
