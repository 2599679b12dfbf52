"""Errors raised by every game: both are ``ValueError`` so callers may catch either.

A move error's text is English, for logs and programs. Beside it, it carries what a translation
needs: a stable ``key`` (``invalid_move``: not notation; ``illegal_move``: not legal here), the
game, the text refused, the ply, and a :class:`Reason` (its own stable key, its parameters and
the game's words for it in each language; a game keeps its words in its own package).

>>> issubclass(IllegalMoveError, ValueError) and issubclass(InvalidMoveError, ValueError)
True
>>> why = Reason("unknown_cell", {"cell": "1e1"},
...              {"en": "unknown cell '{cell}'", "fr": "case inconnue « {cell} »"})
>>> error = InvalidMoveError.not_notation("pylos", "1e1", why)
>>> str(error)
"pylos: '1e1' is not a move: unknown cell '1e1'"
>>> error.key, error.params["reason"], error.reason.text("fr")
('invalid_move', 'unknown_cell', 'case inconnue « 1e1 »')
>>> str(IllegalMoveError.game_over("expion", "e1-e4", ply=12))
"expion: 'e1-e4' is not legal: the game is over (ply 12)"
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move was refused: a stable ``key``, its ``params`` and ``words``, one template per
    language (``str.format`` fields named after the parameters; English is required)."""

    key: str
    params: Mapping[str, str | int] = field(default_factory=dict)
    words: Mapping[str, str] = field(default_factory=dict, compare=False, repr=False)

    def text(self, lang: str = "en") -> str:
        """The reason in ``lang`` (English when the game has no words in that language)."""
        template = self.words.get(lang) or self.words.get("en") or self.key
        return template.format(**self.params)

    def __str__(self) -> str:
        return self.text("en")


GAME_OVER = {"en": "the game is over", "fr": "la partie est terminée"}


class MoveError(ValueError):
    """A move was refused; nothing changed."""

    key = "move_refused"

    def __init__(
        self, message: str, *, game: str = "", text: object = "", ply: int | None = None,
        reason: Reason | None = None,
    ) -> None:
        super().__init__(message)
        self.game = game
        # A Move refused by ``State.play`` is quoted by its notation.
        self.text = text if isinstance(text, str) else str(text)
        self.ply = ply
        self.reason = reason

    @property
    def params(self) -> dict[str, Any]:
        """What a translation of this error needs, JSON-serialisable: ``game``, ``text``,
        ``ply``, ``reason`` (its key, or ``None``) and ``reason_params``."""
        return {
            "game": self.game,
            "text": self.text,
            "ply": self.ply,
            "reason": self.reason.key if self.reason else None,
            "reason_params": dict(self.reason.params) if self.reason else {},
        }


class InvalidMoveError(MoveError):
    """The text is not a move in the game's notation."""

    key = "invalid_move"

    @classmethod
    def not_notation(cls, game: str, text: object, reason: Reason) -> InvalidMoveError:
        """``<game>: <text!r> is not a move: <reason>``."""
        return cls(f"{game}: {text!r} is not a move: {reason}", game=game, text=text, reason=reason)


class IllegalMoveError(MoveError):
    """The move is well formed but not legal in this position."""

    key = "illegal_move"

    @classmethod
    def here(cls, game: str, text: object, ply: int, reason: Reason | None = None) -> IllegalMoveError:
        """``<game>: <text!r> is not legal at ply <ply>[: <reason>]``."""
        because = f": {reason}" if reason is not None else ""
        return cls(f"{game}: {text!r} is not legal at ply {ply}{because}",
                   game=game, text=text, ply=ply, reason=reason)

    @classmethod
    def game_over(cls, game: str, text: object, *, ply: int | None = None) -> IllegalMoveError:
        """``<game>: <text!r> is not legal: the game is over[ (ply <ply>)]``."""
        at = f" (ply {ply})" if ply is not None else ""
        return cls(f"{game}: {text!r} is not legal: the game is over{at}", game=game, text=text, ply=ply,
                   reason=Reason("game_over", {}, GAME_OVER))


class UnknownGameError(ValueError):
    """No game, variant or player count of that name is registered."""


class RecordError(ValueError):
    """A game record is malformed or does not replay."""
