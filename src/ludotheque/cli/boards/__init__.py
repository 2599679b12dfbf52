"""Terminal boards, each drawing only ``State.view(player)``. A game's board is the
``terminal_board`` module of the package that declares the game (``GameInfo.package``: the
built-in games' ``engines/<id>/``, or a game installed from another distribution), else
``generic``, which prints any game's view compactly and lets the game loop list the legal moves.
This module holds what every board shares (result sentences, turn lines, cells of a move). A board has:

- ``render(view, *, lang, last_move=None, turn=True) -> RenderableType``: the board and its
  counters, the cells of ``last_move`` (its text) marked, then whose turn it is (or that the game
  is over) unless ``turn`` is false (the game loop says it in its prompt);
- ``side_name(view, player, *, lang) -> str``: how a player is called (Light, North, Blue…);
- ``outcome(view, result, *, lang) -> str``: a result in words ("Dark wins: Light's reserve is
  empty"), ``result`` as ``Result.to_json()`` gives it, the reason worded by the game's
  ``GameInfo`` (see :func:`describe_result`);
- ``NOTATION``: examples of the notation per language, for the in-game help, and ``EXAMPLE``
  (empty: the game loop shows a legal move);
- optionally ``details(view, *, lang)`` (the ``info`` command, in sentences), ``final_view(views)``
  (one view holding every player's secrets, shown once the game is over), ``events(before, after,
  move, *, lang) -> list[str]`` (what a move did that its text does not say, from the views of the
  same reader before and after it: a tile revealed, marbles captured), ``seating_note(players, *,
  lang) -> str | None`` (what the seating means, said once at the start: Ex*Pion's lone player with
  3) and ``LIST_MOVES`` (the game loop lists the legal moves under the board).

>>> describe_result({"game": "pylos"}, {"winners": [1], "scores": [-1, 1], "reason": "empty_reserve"},
...                 "fr", winner="Foncé", loser="Clair")
'Foncé gagne : réserve de Clair épuisée'
>>> describe_result({"game": "pylos"}, {"winners": [], "scores": [0, 0], "reason": "repetition"}, "en",
...                 winner=None, loser=None)
'Draw: repeated position'
>>> describe_result({"game": "pylos"}, {"winners": [0], "scores": [1, -1], "reason": "resign"}, "en",
...                 winner="Light", loser="Dark", detail="12 to 9")
'Light wins: Dark resigned (12 to 9)'
"""

from __future__ import annotations

import importlib
import importlib.util
import re
from collections.abc import Mapping
from types import ModuleType
from typing import Any

from rich.text import Text

from ... import i18n
from ...core import info

# The last move's cells: reversed, an attribute that shows without colours too.
LAST_MOVE_STYLE = "reverse"


def board_module(game_id: str) -> ModuleType:
    """The terminal board of ``game_id``: its package's, else the generic one."""
    name = f"{info(game_id).package_name}.terminal_board"
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        found = None
    return importlib.import_module(name if found is not None else f"{__name__}.generic")


def turn_line(view: Mapping[str, Any], lang: str, side: str) -> Text:
    """"to move: <side>", or "game over" once the game is over."""
    if view["to_move"] is None:
        return Text(i18n.text("board_over", lang), style="bold")
    return Text(i18n.text("board_to_move", lang, side=side), style="bold")


def colon(lang: str) -> str:
    """A colon as ``lang`` writes it: French puts a space before it."""
    return " :" if lang == "fr" else ":"


def in_words(items: list[str], lang: str) -> str:
    """``a, b and c`` (``a, b et c`` in French).

    >>> in_words(["f5"], "en"), in_words(["f5", "g5", "h5"], "fr")
    ('f5', 'f5, g5 et h5')
    """
    last = " et " if lang == "fr" else " and "
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])}{last}{items[-1]}"


def cells_in(move_text: str | None, pattern: re.Pattern[str]) -> set[str]:
    """The cell names written in ``move_text`` (none when there is no move).

    >>> sorted(cells_in("1a1-2b2x1c3", re.compile(r"[1-4][a-d][1-4]")))
    ['1a1', '1c3', '2b2']
    """
    return set(pattern.findall(move_text.lower())) if move_text else set()


def describe_result(
    view: Mapping[str, Any], result: Mapping[str, Any], lang: str, *, winner: str | None,
    loser: str | None, detail: str | None = None,
) -> str:
    """``result`` in words: who won (``winner``, the winning side's name; a draw when nobody won)
    and why, in the words of ``view``'s game (``GameInfo.reason_text``), naming ``loser`` (the losing
    side's name, given where exactly one side lost) where the game's words do; a resignation, a
    time out, an agreement and an abandoned game read alike in every game. ``detail`` (scores)
    follows in brackets."""
    reason = str(result.get("reason", ""))
    why = info(str(view["game"])).reason_text(reason, lang, loser=loser)
    if why is None:
        why = i18n.shared_reason(reason, lang, loser=loser) or reason
    if detail:
        why = f"{why} ({detail})"
    if result.get("winners"):
        return i18n.text("wins", lang, side=winner, why=why)
    return i18n.text("draw", lang, why=why)
