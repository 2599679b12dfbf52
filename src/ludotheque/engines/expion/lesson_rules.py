"""Ex*Pion's own rules for lesson answers (``lessons.json``; the shared ones are ``lessons.RULES``):
captures count the marbles of the other team's camps; ``pushes`` sees the EX*PION move."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ...core import State
from ...lessons import Rule


def opponents_marbles(state: State, mover: int) -> int:
    """How many marbles the camps outside ``mover``'s team hold."""
    view = state.view(None)
    own_team = next(team for team in view["teams"] if mover in team["players"])
    return sum(count for camp, count in view["marbles"].items() if camp not in own_team["camps"])


def captures(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    lost = opponents_marbles(before, mover) - opponents_marbles(after, mover)
    return lost >= int(params.get("at_least", 1))


def pushes(before: State, move: Any, after: State, mover: int, params: Mapping[str, Any]) -> bool:
    return bool(before.view(None)["expion"] != after.view(None)["expion"])


RULES: Mapping[str, Rule] = {
    "captures": Rule(("at_least",), captures),  # the other team loses at least `at_least` (1) marbles
    "pushes": Rule((), pushes),                 # the EX*PION moves
}
