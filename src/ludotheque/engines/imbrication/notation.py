"""Imbrication notation: ``d4`` (placement), ``d4-d7`` (step or slide), ``d4xf6xd8`` (captures).

>>> move = Move.from_text(" D4 x F6 X d8 ")
>>> str(move), move.is_capture, move.source == INDEX["d4"], move.target == INDEX["d8"]
('d4xf6xd8', True, True, True)
>>> Move.from_text("d4") is PLACEMENTS[INDEX["d4"]]
True
>>> Move.from_text("i9")
Traceback (most recent call last):
...
ludotheque.core.errors.InvalidMoveError: imbrication: 'i9' is not a move: unknown cell 'i9'
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.errors import InvalidMoveError, Reason
from .board import CELL_COUNT, INDEX, NAMES, Cell

_CELL = r"[a-h][1-8]"
_MOVE = re.compile(rf"({_CELL})(?:-({_CELL})|((?:x{_CELL})+))?")
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A placement (one cell), a step or slide (two cells joined by ``-``), or a capture chain
    (the start cell, then every landing cell, joined by ``x``)."""

    cells: tuple[Cell, ...]
    is_capture: bool = False

    @property
    def is_placement(self) -> bool:
        return len(self.cells) == 1

    @property
    def source(self) -> Cell:
        """The cell placed on, or the cell the acting piece starts from."""
        return self.cells[0]

    @property
    def target(self) -> Cell:
        """Where the piece ends: the placed cell, or the last landing cell."""
        return self.cells[-1]

    def __str__(self) -> str:
        return ("x" if self.is_capture else "-").join(NAMES[c] for c in self.cells)

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse notation without a position (case and spaces are free); raises
        ``InvalidMoveError``."""
        if not isinstance(text, str):
            raise InvalidMoveError.not_notation("imbrication", text, _said("not_text"))
        cleaned = _SPACES.sub("", text).lower()
        match = _MOVE.fullmatch(cleaned)
        if match is None:
            raise InvalidMoveError.not_notation("imbrication", text, _reason(cleaned))
        first, second, chain = match.groups()
        if chain:
            return cls((INDEX[first], *(INDEX[n] for n in chain.split("x")[1:])), True)
        if second:
            return SHIFTS[INDEX[first], INDEX[second]]
        return PLACEMENTS[INDEX[first]]


# Why a text is not notation, in the words of each language (``Reason``: key, parameters, words).
_WORDS = {
    "not_text": {"en": "expected text", "fr": "il faut du texte"},
    "unknown_cell": {"en": "unknown cell '{cell}'", "fr": "case inconnue « {cell} »"},
    "not_notation": {
        "en": "expected a cell like 'd4', a step or slide like 'd4-d7', captures like 'd4xf6xd8'",
        "fr": "attendu une case comme « d4 », un pas ou une glissade comme « d4-d7 », des prises "
              "comme « d4xf6xd8 »",
    },
}


def _said(key: str, **params: str) -> Reason:
    return Reason(key, params, _WORDS[key])


def _reason(text: str) -> Reason:
    for token in re.findall(r"[a-z]+[0-9]+", text):
        if token not in INDEX:
            return _said("unknown_cell", cell=token)
    return _said("not_notation")


# Placements, steps and slides are interned: most moves are one of them, and the engine then
# compares moves by identity first.
PLACEMENTS: list[Move] = [Move((cell,)) for cell in range(CELL_COUNT)]
SHIFTS: dict[tuple[Cell, Cell], Move] = {
    (source, target): Move((source, target))
    for source in range(CELL_COUNT)
    for target in range(CELL_COUNT)
}
# PLACEMENTS_BY_BYTE[rank][byte]: the placements of one rank's cells set in ``byte``, so that
# listing the placements of a 64-bit mask costs eight look-ups (placements are most moves).
PLACEMENTS_BY_BYTE: list[list[tuple[Move, ...]]] = [
    [tuple(PLACEMENTS[rank * 8 + f] for f in range(8) if byte >> f & 1) for byte in range(256)]
    for rank in range(8)
]


def placements(mask: int) -> list[Move]:
    """The placements on the cells of ``mask``, in board order.

    >>> [str(m) for m in placements(1 | 1 << 9 | 1 << 63)]
    ['a1', 'b2', 'h8']
    """
    found: list[Move] = []
    for rank in range(8):
        found.extend(PLACEMENTS_BY_BYTE[rank][mask >> (8 * rank) & 255])
    return found
