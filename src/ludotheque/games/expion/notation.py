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

from ...core.errors import InvalidMoveError
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
            raise InvalidMoveError(f"expion: {text!r} is not a move: expected text")
        cleaned = text.strip().lower()
        match = _MOVE.fullmatch(cleaned)
        if match is None:
            raise InvalidMoveError(
                f"expion: {text!r} is not a move: expected two cells like 'e1-e4'"
            )
        names = (match[1] + match[2], match[3] + match[4])
        for name in names:
            if name not in INDEX:
                raise InvalidMoveError(
                    f"expion: {text!r} is not a move: {name!r} is not a cell"
                    " (the corners are off the board)"
                )
        source, target = INDEX[names[0]], INDEX[names[1]]
        if source == target:
            raise InvalidMoveError(f"expion: {text!r} is not a move: the marble must move")
        return MOVES.get((source, target)) or cls(source, target)


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
