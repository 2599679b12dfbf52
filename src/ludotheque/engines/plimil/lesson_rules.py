"""Plimil's own rules for lesson answers (``lessons.json``; the shared ones are ``lessons.RULES``):
a capture is a block turned over; ``rotates`` sees the board turn a quarter."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import State
from ...lessons import Rule


def flip_count(state: State) -> int:
    return sum(cell["block"]["flips"] for cell in state.view(None)["board"] if cell.get("block"))


def flips(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    return bool(flip_count(after) - flip_count(before) >= int(params.get("at_least", 1)))


def rotates(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    return bool(before.view(None)["rotation"] != after.view(None)["rotation"])


RULES: Mapping[str, Rule] = {
    "captures": Rule(("at_least",), flips),  # blocks turned over (captured) in the move
    "flips": Rule(("at_least",), flips),
    "rotates": Rule((), rotates),            # the board turns a quarter
}
