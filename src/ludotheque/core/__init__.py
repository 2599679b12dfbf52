"""The contract every game implements, the registry and game records."""

from .contract import JSON, Game, GameInfo, Player, Result, State, StoredState, base_view, check_viewer
from .errors import (
    IllegalMoveError,
    InvalidMoveError,
    MoveError,
    RecordError,
    UnknownGameError,
)
from .records import Record, replay
from .registry import games, info, load

__all__ = [
    "JSON",
    "Game",
    "GameInfo",
    "IllegalMoveError",
    "InvalidMoveError",
    "MoveError",
    "Player",
    "Record",
    "RecordError",
    "Result",
    "State",
    "StoredState",
    "UnknownGameError",
    "base_view",
    "check_viewer",
    "games",
    "info",
    "load",
    "replay",
]
