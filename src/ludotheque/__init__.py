"""Ludothèque: Pylos, Imbrication, Ex*Pion and Plimil, for people and for computer opponents.

>>> import ludotheque
>>> ludotheque.games()[-1]
'pylos'
>>> state = ludotheque.load("pylos").new_state(seed=0)
>>> len(state.legal_moves())
16
"""

from .core import (
    Game,
    IllegalMoveError,
    InvalidMoveError,
    Record,
    Result,
    State,
    UnknownGameError,
    games,
    load,
)

__version__ = "0.1.0"

__all__ = [
    "Game",
    "IllegalMoveError",
    "InvalidMoveError",
    "Record",
    "Result",
    "State",
    "UnknownGameError",
    "__version__",
    "games",
    "load",
]
