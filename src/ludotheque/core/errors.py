"""Errors raised by every game: both are ``ValueError`` so callers may catch either.

>>> issubclass(IllegalMoveError, ValueError) and issubclass(InvalidMoveError, ValueError)
True
"""

from __future__ import annotations


class MoveError(ValueError):
    """A move was refused; nothing changed."""


class InvalidMoveError(MoveError):
    """The text is not a move in the game's notation."""


class IllegalMoveError(MoveError):
    """The move is well formed but not legal in this position."""


class UnknownGameError(ValueError):
    """No game, variant or player count of that name is registered."""


class RecordError(ValueError):
    """A game record is malformed or does not replay."""
