"""Pylos in the terminal: the four levels side by side and both reserves.

Light balls are ``○``, dark balls ``●`` (shape, not only colour); ``·`` marks an available cell;
the cells of the last move are shown reversed.

>>> import ludotheque
>>> view = ludotheque.load("pylos").new_state().view(None)
>>> outcome(view, {"winners": [1], "scores": [-1, 1], "reason": "empty_reserve"}, lang="en")
"Dark wins: Light's reserve is empty"
>>> outcome(view, {"winners": [1], "scores": [-1, 1], "reason": "empty_reserve"}, lang="fr")
'Foncé gagne : réserve de Clair épuisée'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...cli.boards import LAST_MOVE_STYLE, cells_in, describe_result, turn_line

SIZES = (4, 3, 2, 1)
FILES = "abcd"
NAMES = {"fr": ("Clair", "Foncé"), "en": ("Light", "Dark")}
SYMBOLS = (("○", "bold white"), ("●", "bold red"))
WORDS = {
    "fr": {"level": "niveau", "reserve": "réserve", "repetitions": "répétitions", "free": "libres"},
    "en": {"level": "level", "reserve": "reserve", "repetitions": "repetitions", "free": "free"},
}
CELL = re.compile(r"[1-4][a-d][1-4]")
EXAMPLE = "1b2"
NOTATION = {
    "fr": "  1b2 : poser une bille (niveau 1, colonne b, rangée 2) · 1a1-2b2 : monter une bille\n"
          "  après un carré, reprendre une ou deux billes : 1b2x1b2 ou 1a1-2b2x1c3x1d4",
    "en": "  1b2: place a ball (level 1, file b, rank 2) · 1a1-2b2: raise a ball\n"
          "  after a square, take back one or two balls: 1b2x1b2 or 1a1-2b2x1c3x1d4",
}


def side_name(view: Mapping[str, Any], player: int, *, lang: str) -> str:
    """Light (player 0) or Dark (player 1)."""
    return NAMES.get(lang, NAMES["en"])[player]


def outcome(view: Mapping[str, Any], result: Mapping[str, Any], *, lang: str) -> str:
    """``result`` in words, e.g. "Dark wins: Light's reserve is empty"."""
    names = NAMES.get(lang, NAMES["en"])
    winners = result["winners"]
    winner, loser = (names[winners[0]], names[1 - winners[0]]) if winners else (None, None)
    return describe_result(view, result, lang, winner=winner, loser=loser)


def _level(view: dict[str, Any], level: int, lang: str, marked: set[str]) -> Table:
    size = SIZES[level - 1]
    table = Table(
        title=f"{WORDS[lang]['level']} {level}", show_header=True, box=None, pad_edge=False, min_width=10
    )
    table.add_column("", justify="right", style="dim")
    for file in range(size):
        table.add_column(FILES[file], justify="center")
    available = set(view["available"])
    for rank in range(size, 0, -1):
        row: list[Text | str] = [str(rank)]
        for file in range(size):
            cell = f"{level}{FILES[file]}{rank}"
            owner = view["cells"].get(cell)
            if owner is not None:
                symbol = Text(*SYMBOLS[owner])
            else:
                symbol = Text("·" if cell in available else " ", style="green")
            if cell in marked:
                symbol.stylize(LAST_MOVE_STYLE)
            row.append(symbol)
        table.add_row(*row)
    return table


def render(
    view: dict[str, Any], *, lang: str, last_move: str | None = None, turn: bool = True
) -> RenderableType:
    """The pyramid as seen by ``view``'s reader (Pylos hides nothing), both reserves, whose turn."""
    words = WORDS.get(lang, WORDS["en"])
    names = NAMES.get(lang, NAMES["en"])
    marked = cells_in(last_move, CELL)
    grid = Table.grid(padding=(0, 4))
    for _ in SIZES:
        grid.add_column(vertical="bottom")
    grid.add_row(*(_level(view, level, lang if lang in WORDS else "en", marked) for level in (1, 2, 3, 4)))
    lines = Text()
    for player in (0, 1):
        symbol, style = SYMBOLS[player]
        lines.append(f"{symbol} ", style=style)
        lines.append(f"{names[player]} ({player}) — {words['reserve']} {view['reserves'][player]}   ")
    if view.get("repetitions", 1) > 1:
        colon = " :" if lang == "fr" else ":"
        lines.append(f"\n{words['repetitions']}{colon} {view['repetitions']}")
    if not turn:
        return Group(grid, lines)
    mover = view["to_move"]
    side = "" if mover is None else f"{names[mover]} ({mover})"
    return Group(grid, lines, turn_line(view, lang, side))


# The sentences of ``details`` (the ``info`` command).
SENTENCES = {
    "fr": {
        "free": "Billes libres de {side} (on peut les monter ou les reprendre) : {cells}.",
        "none": "{side} n'a aucune bille libre.",
        "reserves": "En réserve : {first} bille{s0} pour {side0}, {second} pour {side1}.",
    },
    "en": {
        "free": "{side}'s free balls (they may be raised or taken back): {cells}.",
        "none": "{side} has no free ball.",
        "reserves": "In reserve: {first} ball{s0} for {side0}, {second} for {side1}.",
    },
}


def details(view: dict[str, Any], *, lang: str) -> RenderableType:
    """In sentences: each player's free balls (the ones that may be raised or taken back) and
    both reserves.

    >>> import ludotheque
    >>> view = ludotheque.load("pylos").new_state().play("1a1").view(None)
    >>> print(Text.assemble(details(view, lang="en")).plain)
    Light's free balls (they may be raised or taken back): 1a1.
    Dark has no free ball.
    In reserve: 14 balls for Light, 15 for Dark.
    """
    names = NAMES.get(lang, NAMES["en"])
    said = SENTENCES.get(lang, SENTENCES["en"])
    lines = []
    for player in (0, 1):
        cells = [c for c in view["free"] if view["cells"][c] == player]
        if cells:
            lines.append(said["free"].format(side=names[player], cells=", ".join(cells)))
        else:
            lines.append(said["none"].format(side=names[player]))
    first, second = view["reserves"]
    singular = first <= 1 if lang == "fr" else first == 1
    lines.append(said["reserves"].format(first=first, second=second, side0=names[0], side1=names[1],
                                         s0="" if singular else "s"))
    return Text("\n".join(lines))
