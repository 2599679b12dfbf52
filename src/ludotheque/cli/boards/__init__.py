"""Terminal boards, one module per game id, each drawing only ``State.view(player)``:

- ``render(view, *, lang, last_move=None, turn=True) -> RenderableType``: the board and its
  counters, the cells of ``last_move`` (its text) marked, then whose turn it is (or that the game
  is over) unless ``turn`` is false (the game loop says it in its prompt);
- ``side_name(view, player, *, lang) -> str``: how a player is called (Light, North, Blue…);
- ``outcome(view, result, *, lang) -> str``: a result in words ("Dark wins: Light's reserve is
  empty"), ``result`` as ``Result.to_json()`` gives it;
- ``NOTATION``: examples of the notation per language, for the in-game help, and ``EXAMPLE``;
- optionally ``details(view, *, lang)`` (the ``info`` command) and ``final_view(views)`` (one view
  holding every player's secrets, shown once the game is over).

>>> describe_result({"winners": [1], "scores": [-1, 1], "reason": "top"}, "fr",
...                 winner="Foncé", loser="Clair", reasons={"top": {"fr": "{winner} au sommet"}})
'Foncé gagne : Foncé au sommet'
>>> describe_result({"winners": [], "scores": [0, 0], "reason": "repetition"}, "en",
...                 winner=None, loser=None, reasons={})
'Draw: the same position came up three times'
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from rich.text import Text

from ... import i18n

# The last move's cells: reversed, an attribute that shows without colours too.
LAST_MOVE_STYLE = "reverse"


def board_module(game_id: str) -> ModuleType:
    """The terminal board module of ``game_id``."""
    return importlib.import_module(f"{__name__}.{game_id}")


def turn_line(view: Mapping[str, Any], lang: str, side: str) -> Text:
    """"to move: <side>", or "game over" once the game is over."""
    if view["to_move"] is None:
        return Text(i18n.text("board_over", lang), style="bold")
    return Text(i18n.text("board_to_move", lang, side=side), style="bold")


def colon(lang: str) -> str:
    """A colon as ``lang`` writes it: French puts a space before it."""
    return " :" if lang == "fr" else ":"


def cells_in(move_text: str | None, pattern: re.Pattern[str]) -> set[str]:
    """The cell names written in ``move_text`` (none when there is no move).

    >>> sorted(cells_in("1a1-2b2x1c3", re.compile(r"[1-4][a-d][1-4]")))
    ['1a1', '1c3', '2b2']
    """
    return set(pattern.findall(move_text.lower())) if move_text else set()


def describe_result(
    result: Mapping[str, Any], lang: str, *, winner: str | None, loser: str | None,
    reasons: Mapping[str, Mapping[str, str]], **values: object,
) -> str:
    """``result`` in words: who won (or a draw) and why. ``reasons`` maps a game's result reasons
    to their words per language, whose fields are ``winner``, ``loser`` and ``values``; a
    resignation and a third repetition are said alike in every game."""
    reason = str(result.get("reason", ""))
    if reason == "resign":
        why = i18n.text("resignation", lang, side=loser)
    elif reason == "repetition" and reason not in reasons:
        why = i18n.text("repetition", lang)
    elif reason in reasons:
        words = reasons[reason]
        why = words.get(lang, words.get("en", reason)).format(winner=winner, loser=loser, **values)
    else:
        why = reason
    if result.get("winners"):
        return i18n.text("wins", lang, side=winner, why=why)
    return i18n.text("draw", lang, why=why)
