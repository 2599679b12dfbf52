"""The terminal board of a game that has none of its own: the view printed compactly, one field a
line (lists joined by commas, nested fields inline), and the legal moves listed under it by the
game loop (``LIST_MOVES``). Players are A, B, C… by seat.

>>> written({"heaps": [3, 4], "last": None, "open": True}, "en")
'heaps: 3, 4; last: —; open: yes'
>>> side_name({}, 1, lang="fr")
'Joueur B'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import colon, describe_result, turn_line

# The fields every view has (docs/design.md): said in the turn line, or not at all.
COMMON = frozenset({"game", "variant", "players", "viewer", "to_move", "phase", "result", "ply"})
LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
LIST_MOVES = True
EXAMPLE = ""
NOTATION = {
    "fr": "  les coups légaux s'affichent sous la position ; « coups » les redonne",
    "en": "  the legal moves are listed under the position; 'moves' lists them again",
}
WORDS = {
    "fr": {"player": "Joueur {letter}", "yes": "oui", "no": "non", "none": "—", "last": "dernier coup",
           "and": " et "},
    "en": {"player": "Player {letter}", "yes": "yes", "no": "no", "none": "—", "last": "last move",
           "and": " and "},
}


def _words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def side_name(view: Mapping[str, Any], player: int, *, lang: str) -> str:
    """Player A (seat 0), Player B (seat 1)…"""
    letter = LETTERS[player] if player < len(LETTERS) else str(player + 1)
    return _words(lang)["player"].format(letter=letter)


def written(value: Any, lang: str) -> str:
    """A value of a view in words: lists joined by commas, mappings as ``key: value``."""
    words = _words(lang)
    if value is None:
        return words["none"]
    if isinstance(value, bool):
        return words["yes"] if value else words["no"]
    if isinstance(value, list | tuple):
        return ", ".join(written(item, lang) for item in value) or words["none"]
    if isinstance(value, Mapping):
        pairs = [f"{key}{colon(lang)} {written(item, lang)}" for key, item in value.items()]
        return "; ".join(pairs) or words["none"]
    return str(value)


def outcome(view: Mapping[str, Any], result: Mapping[str, Any], *, lang: str) -> str:
    """``result`` in words, the players by their letters."""
    winners = list(result["winners"])
    losers = [seat for seat in range(int(view["players"])) if seat not in winners]
    winner = _words(lang)["and"].join(side_name(view, seat, lang=lang) for seat in winners) or None
    loser = side_name(view, losers[0], lang=lang) if len(losers) == 1 else None
    return describe_result(view, result, lang, winner=winner, loser=loser)


def render(
    view: dict[str, Any], *, lang: str, last_move: str | None = None, turn: bool = True
) -> RenderableType:
    """Each field of ``view`` but the common ones on a line, then the last move and whose turn it is."""
    table = Table.grid(padding=(0, 1))
    table.add_column(style="dim")
    table.add_column()
    for key, value in view.items():
        if key not in COMMON:
            table.add_row(f"{key}{colon(lang)}", Text(written(value, lang)))
    parts: list[RenderableType] = [table]
    if last_move:
        parts.append(Text(f"{_words(lang)['last']}{colon(lang)} {last_move}", style="dim"))
    if turn:
        mover = view["to_move"]
        side = "" if mover is None else f"{side_name(view, mover, lang=lang)} ({mover})"
        parts.append(turn_line(view, lang, side))
    return Group(*parts)

