"""Ex*Pion notation: ``from-to`` (``e1-e4`` leaves a camp, ``d5-e5`` may push the EX*PION).

Captures, the EX*PION's new cell and passes are never written. The parser is syntax-only: it
knows the cells but not the position, so ``e4-f5`` parses (and is then refused as illegal).

>>> move = Move.from_text("  E1-e4 ")
>>> str(move), move == Move.from_text("e1-e4"), move is Move.from_text("e1-e4")
('e1-e4', True, True)
>>> Move.from_text("a1-a2")  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ludotheque.core.errors.InvalidMoveError: expion: 'a1-a2' is not a move: 'a1' is not a cell ...
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ...core.errors import InvalidMoveError, Reason
from .board import ADJACENT, CAMP_COUNT, CELLS, INDEX, NAMES, OPTIONS, Cell

_MOVE = re.compile(r"([a-z])([0-9]+)-([a-z])([0-9]+)")


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """A marble from ``source`` to ``target`` (orders like the rules file: source, then target)."""

    source: Cell
    target: Cell

    def __str__(self) -> str:
        return f"{NAMES[self.source]}-{NAMES[self.target]}"

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse ``from-to`` without a position; raises ``InvalidMoveError``.

        Case and surrounding whitespace are free; spaces inside are not.
        """
        if not isinstance(text, str):
            raise InvalidMoveError.not_notation("expion", text, _said("not_text"))
        cleaned = text.strip().lower()
        match = _MOVE.fullmatch(cleaned)
        if match is None:
            raise InvalidMoveError.not_notation("expion", text, _said("not_notation"))
        names = (match[1] + match[2], match[3] + match[4])
        for name in names:
            if name not in INDEX:
                raise InvalidMoveError.not_notation("expion", text, _said("not_a_cell", cell=name))
        source, target = INDEX[names[0]], INDEX[names[1]]
        if source == target:
            raise InvalidMoveError.not_notation("expion", text, _said("must_move"))
        return MOVES.get((source, target)) or cls(source, target)


# Why a text is not notation, in the words of each language (``Reason``: key, parameters, words).
_WORDS = {
    "not_text": {"en": "expected text", "fr": "il faut du texte"},
    "not_notation": {"en": "expected two cells like 'e1-e4'", "fr": "attendu deux cases comme « e1-e4 »"},
    "not_a_cell": {
        "en": "'{cell}' is not a cell (the corners are off the board)",
        "fr": "« {cell} » n'est pas une case (les coins sont hors du plateau)",
    },
    "must_move": {"en": "the marble must move", "fr": "la bille doit bouger"},
}


def _said(key: str, **params: str) -> Reason:
    return Reason(key, params, _WORDS[key])


# Every move some marble could ever make is interned: the engine compares moves by identity
# first (``State.play``), and parsing returns the very object that ``legal_moves`` lists.
MOVES: dict[tuple[Cell, Cell], Move] = {
    (source, option.target): Move(source, option.target)
    for camp in range(CAMP_COUNT)
    for source in CELLS
    for option in OPTIONS[camp][source]
}
for _source in CELLS:
    for _target in ADJACENT[_source]:
        MOVES.setdefault((_source, _target), Move(_source, _target))
