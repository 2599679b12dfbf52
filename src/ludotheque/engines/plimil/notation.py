"""Plimil notation (``RULES.md``, Notation): ``d2-d4``, ``d3-d4xe4``, ``d3-d4@cw``,
``e5-d4xd5``, ``pass``, and the setup moves ``stems STSTTSST`` and ``block d1 BNR``.

The parser is syntax only: it ignores case and spaces and knows nothing of the position, so
``a1-a3`` (off the board) is notation, refused later as illegal.

>>> move = Move.from_text(" D3 - d4 @ CW ")
>>> str(move), move.turn
('d3-d4@cw', 1)
>>> str(Move.from_text("Block d1 bnr")), str(Move.from_text("STEMS sstt ttss"))
('block d1 BNR', 'stems SSTTTTSS')
>>> Move.from_text("d3-d9")
Traceback (most recent call last):
...
ludotheque.core.errors.InvalidMoveError: plimil: 'd3-d9' is not a move: expected a move like \
'd2-d4', 'd3-d4xe4', 'd3-d4@cw', 'pass', 'stems SSSSTTTT' or 'block d1 BNR'
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

from ...core.errors import InvalidMoveError, Reason
from .board import CCW, CW, INDEX, NAMES, NO_SQUARE, Square

MoveKind = Literal["play", "pass", "stems", "block"]
_CELL = r"[a-h][1-8]"
_PLAY = re.compile(rf"({_CELL})-({_CELL})(?:x({_CELL})|@(ccw|cw))?")
_STEMS = re.compile(r"stems([st]{8}|[st]{10})")
_BLOCK = re.compile(rf"block({_CELL})([bnr]{{3}})")
_TURNS = {"cw": CW, "ccw": CCW}
_SPACES = re.compile(r"\s+")


@dataclass(frozen=True, slots=True)
class Move:
    """One turn of Plimil.

    ``play``: a block from ``origin`` to ``landing`` (squares, see ``board``), then the block on
    ``captured`` taken, or the board turned (``turn`` is ``CW`` or ``CCW``). ``stems``: the
    heights (``S``/``T``) of the cells a player plants, in board order. ``block``: the balls
    bottom-middle-top (``B``/``R``/``N``) of the block built on ``origin``. ``pass``.
    """

    kind: MoveKind
    origin: Square = NO_SQUARE
    landing: Square = NO_SQUARE
    captured: Square = NO_SQUARE
    turn: int = 0
    letters: str = ""

    def __str__(self) -> str:
        if self.kind == "play":
            text = f"{NAMES[self.origin]}-{NAMES[self.landing]}"
            if self.captured != NO_SQUARE:
                return f"{text}x{NAMES[self.captured]}"
            if self.turn:
                return f"{text}@{'cw' if self.turn == CW else 'ccw'}"
            return text
        if self.kind == "block":
            return f"block {NAMES[self.origin]} {self.letters}"
        if self.kind == "stems":
            return f"stems {self.letters}"
        return "pass"

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    @property
    def is_setup(self) -> bool:
        return self.kind in ("stems", "block")

    @classmethod
    def from_text(cls, text: str) -> Move:
        """Parse notation without a position; raises ``InvalidMoveError``."""
        if not isinstance(text, str):
            raise InvalidMoveError.not_notation("plimil", text, _said("not_text"))
        cleaned = _SPACES.sub("", text).lower()
        if cleaned == "pass":
            return PASS
        match = _PLAY.fullmatch(cleaned)
        if match:
            origin, landing, captured, turn = match.groups()
            return cls(
                "play", INDEX[origin], INDEX[landing],
                INDEX[captured] if captured else NO_SQUARE, _TURNS.get(turn, 0),
            )
        match = _STEMS.fullmatch(cleaned)
        if match:
            return cls("stems", letters=match.group(1).upper())
        match = _BLOCK.fullmatch(cleaned)
        if match:
            return cls("block", INDEX[match.group(1)], letters=match.group(2).upper())
        raise InvalidMoveError.not_notation("plimil", text, _said("not_notation"))


PASS = Move("pass")

# Why a text is not notation, in the words of each language (``Reason``: key, parameters, words).
_WORDS = {
    "not_text": {"en": "expected text", "fr": "il faut du texte"},
    "not_notation": {
        "en": "expected a move like 'd2-d4', 'd3-d4xe4', 'd3-d4@cw', 'pass', 'stems SSSSTTTT' or "
              "'block d1 BNR'",
        "fr": "attendu un coup comme « d2-d4 », « d3-d4xe4 », « d3-d4@cw », « pass », "
              "« stems SSSSTTTT » ou « block d1 BNR »",
    },
}


def _said(key: str) -> Reason:
    return Reason(key, {}, _WORDS[key])


def masked_text(move: Move) -> str:
    """The text of a setup move as another player reads it: ``stems ????????``,
    ``block d1 ???``; other moves are public.

    >>> masked_text(Move.from_text("block d1 BNR")), masked_text(Move.from_text("d2-d4"))
    ('block d1 ???', 'd2-d4')
    """
    if move.kind == "stems":
        return "stems " + "?" * len(move.letters)
    if move.kind == "block":
        return f"block {NAMES[move.origin]} ???"
    return str(move)
