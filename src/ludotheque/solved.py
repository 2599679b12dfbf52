"""Exact values where a game is solved: the optional ``perfect`` module of a game's package
(``engines/<id>/perfect.py``), asked by the ``perfect`` level, the server (is perfect play on
offer here?), the analysis of a game (each move's exact value) and the puzzles ("win in N"
drawn from the tables). No game is named here: a package that ships no such module, or whose
tables are not built on this machine, is simply not solved.

What the module offers (each optional but ``PerfectBot``): ``available(variant) -> bool`` and
``complete(variant) -> bool`` (its tables here, some or all of the positions),
``position_value(state)`` and ``move_value(state, move)`` (an ``Exact``: ``wins``, ``plies``,
``draw``; ``None`` where not solved), ``move_values(state)`` (every legal move's), and
``win_lines(plies, count, seed=…)`` (puzzles; see :mod:`ludotheque.puzzles`).

>>> exact_json(None), words_of({"result": "win", "plies": 12}, "fr")
(None, 'gagne en 12')
>>> words_of({"result": "draw", "plies": 0}, "en"), words_of({"result": "loss", "plies": 9}, "en")
('draw', 'loses in 9')
"""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from types import ModuleType
from typing import Any

from .core.contract import State

MODULE = "perfect"
LEVEL = "perfect"
"""The bot level that plays from the tables (``ai.levels.PERFECT``), offered where :func:`available`."""
RESULTS = ("win", "loss", "draw")
WORDS = {
    "en": {"win": "wins in {n}", "loss": "loses in {n}", "draw": "draw"},
    "fr": {"win": "gagne en {n}", "loss": "perd en {n}", "draw": "nulle"},
}


@cache
def perfect_module(package_name: str) -> ModuleType | None:
    """The ``perfect`` module of the game package ``package_name``, or ``None`` where it has none."""
    name = f"{package_name}.{MODULE}"
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        return None
    return importlib.import_module(name) if found is not None else None


def _module_of(game_id: str) -> ModuleType | None:
    from .core import info

    try:
        package = info(game_id).package_name
    except ValueError:
        return None
    return perfect_module(package) if package else None


def _ask(game_id: str, function: str, *arguments: Any) -> Any:
    """``function(*arguments)`` of the game's ``perfect`` module, ``None`` where it has neither."""
    module = _module_of(game_id)
    found = getattr(module, function, None) if module is not None else None
    return found(*arguments) if callable(found) else None


def available(game_id: str, variant: str) -> bool:
    """Whether perfect play is on offer for ``game_id`` under ``variant`` on this machine: its
    package is solved and the tables of that rule set are built here."""
    return bool(_ask(game_id, "available", variant))


def complete(game_id: str, variant: str) -> bool:
    """Whether every position is solved here (``perfect`` never falls back to ``hard``)."""
    return bool(_ask(game_id, "complete", variant))


def exact_json(value: Any) -> dict[str, Any] | None:
    """An exact value (``wins``, ``plies``, ``draw``) as JSON: ``{"result": "win" | "loss" |
    "draw", "plies": n}`` (the plies to the end under perfect play; 0 for a draw)."""
    if value is None:
        return None
    if value.draw:
        return {"result": "draw", "plies": 0}
    return {"result": "win" if value.wins else "loss", "plies": int(value.plies)}


def words_of(value: dict[str, Any] | None, lang: str) -> str:
    """``wins in 12``, ``loses in 9``, ``draw`` (French: ``gagne en 12``, ``perd en 9``,
    ``nulle``); empty for no value."""
    if not value:
        return ""
    table = WORDS.get(lang, WORDS["en"])
    return table[str(value["result"])].format(n=value["plies"])


def exact_of_move(state: State, move: str) -> tuple[dict[str, Any], dict[str, Any] | None, str] | None:
    """Where ``state`` is solved: its exact value for the player to move (that of its best moves),
    the exact value of playing ``move`` (``None`` where the position after it is not solved), and
    a move of the best value (the first in move order). ``None`` where the game or the position
    is not solved here, and for a game that hides information (its tables would read the true
    state, which its mover could not see)."""
    if state.game.has_hidden_information or state.is_over:
        return None
    best = _ask(state.game.id, "position_value", state)
    values = _ask(state.game.id, "move_values", state) if best is not None else None
    if best is None or not values:
        return None
    key = best.key()
    found = next((str(m) for m, v in values.items() if v is not None and v.key() == key), None)
    position = exact_json(best)
    if found is None or position is None:
        return None
    return position, exact_json(_ask(state.game.id, "move_value", state, move)), found


__all__ = [
    "LEVEL",
    "MODULE",
    "RESULTS",
    "available",
    "complete",
    "exact_json",
    "exact_of_move",
    "perfect_module",
    "words_of",
]
