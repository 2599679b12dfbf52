"""Pylos notation: ``1b2`` (placement), ``1a1-2b2`` (raise), ``x1a1`` per removal.

>>> move = Move.from_text(" 1A1-2b2x1D1 ")
>>> str(move), move.is_raise, move.removals == (INDEX["1d1"],)
('1a1-2b2x1d1', True, True)
>>> Move.from_text("1e1")
Traceback (most recent call last):
...
ludotheque.core.errors.InvalidMoveError: pylos: '1e1' is not a move: unknown cell '1e1'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.errors import InvalidMoveError, Reason
from .board import CELL_COUNT, INDEX, NAMES, Cell

RESERVE = -1
_CELL = r"[1-4][a-d][1-4]"
_MOVE = re.compile(rf"({_CELL})(?:-({_CELL}))?((?:x{_CELL}){{0,2}})")


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A turn: a ball from ``source`` (``RESERVE`` for a placement) to ``target``, then removals."""

    target: Cell
    source: Cell = RESERVE
    removals: tuple[Cell, ...] = ()

    @property
    def is_raise(self) -> bool:
        return self.source != RESERVE

    def __str__(self) -> str:
        text = NAMES[self.target] if self.source == RESERVE else (
            f"{NAMES[self.source]}-{NAMES[self.target]}"
        )
        return text + "".join("x" + NAMES[r] for r in self.removals)

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse notation without a position; raises ``InvalidMoveError``."""
        if not isinstance(text, str):
            raise InvalidMoveError.not_notation("pylos", text, _said("not_text"))
        cleaned = text.strip().lower()
        match = _MOVE.fullmatch(cleaned)
        if match is None:
            raise InvalidMoveError.not_notation("pylos", text, _reason(cleaned))
        first, second, removals = match.groups()
        cells = [first] + ([second] if second else []) + removals.split("x")[1:]
        for name in cells:
            if name not in INDEX:
                raise InvalidMoveError.not_notation("pylos", text, _said("unknown_cell", cell=name))
        if second is None:
            move = PLACEMENTS[INDEX[first]]
        else:
            move = RAISES.get((INDEX[first], INDEX[second])) or cls(INDEX[second], INDEX[first])
        if removals:
            move = cls(move.target, move.source, tuple(INDEX[n] for n in removals.split("x")[1:]))
        return move


# Why a text is not notation, in the words of each language (``Reason``: key, parameters, words).
_WORDS = {
    "not_text": {"en": "expected text", "fr": "il faut du texte"},
    "unknown_cell": {"en": "unknown cell '{cell}'", "fr": "case inconnue « {cell} »"},
    "not_notation": {
        "en": "expected a cell like '1b2', a raise like '1a1-2b2', removals like 'x1c3'",
        "fr": "attendu une case comme « 1b2 », une montée comme « 1a1-2b2 », des retraits comme « x1c3 »",
    },
}


def _said(key: str, **params: str | int) -> Reason:
    return Reason(key, params, _WORDS[key])


def _reason(text: str) -> Reason:
    for token in re.findall(r"[1-9][a-z][0-9]", text):
        if token not in INDEX:
            return _said("unknown_cell", cell=token)
    return _said("not_notation")


# Plain placements and raises are interned: most turns are one of them, and the engine then
# compares moves by identity first.
PLACEMENTS: list[Move] = [Move(cell) for cell in range(CELL_COUNT)]
RAISES: dict[tuple[Cell, Cell], Move] = {
    (source, target): Move(target, source)
    for source in range(CELL_COUNT)
    for target in range(CELL_COUNT)
    if int(NAMES[target][0]) > int(NAMES[source][0])
}
