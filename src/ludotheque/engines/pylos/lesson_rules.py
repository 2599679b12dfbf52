"""Pylos's own rules for lesson answers (``lessons.json``; the shared ones are ``lessons.RULES``):
what a move did to the mover's reserve, read from the views before and after it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import State
from ...lessons import Rule


def reserve_change(before: State, after: State, mover: int) -> int:
    change: int = after.view(None)["reserves"][mover] - before.view(None)["reserves"][mover]
    return change


def takes_back(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    # One ball leaves the reserve for a placement, none for a raise; each ball taken back returns.
    placed = 0 if getattr(move, "is_raise", False) else 1
    return reserve_change(before, after, mover) + placed >= int(params.get("at_least", 1))


def saves(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    return reserve_change(before, after, mover) >= int(params.get("at_least", 1))


def raises(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    return bool(getattr(move, "is_raise", False))


RULES: Mapping[str, Rule] = {
    "takes_back": Rule(("at_least",), takes_back),  # a square or line completed, balls taken back
    "saves": Rule(("at_least",), saves),            # the reserve grows by `at_least` (1) balls
    "raises": Rule((), raises),                     # a ball of the board raised to a higher level
}
