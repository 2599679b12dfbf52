"""Pylos in the terminal: the four levels side by side, both reserves, whose turn.

Light balls are ``○``, dark balls ``●`` (shape, not only colour); ``·`` marks an available cell.
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

SIZES = (4, 3, 2, 1)
FILES = "abcd"
NAMES = {"fr": ("Clair", "Foncé"), "en": ("Light", "Dark")}
SYMBOLS = (("○", "bold white"), ("●", "bold red"))
WORDS = {
    "fr": {"level": "niveau", "reserve": "réserve", "to_move": "au trait", "over": "partie finie",
           "repetitions": "répétitions"},
    "en": {"level": "level", "reserve": "reserve", "to_move": "to move", "over": "game over",
           "repetitions": "repetitions"},
}


def _level(view: dict[str, Any], level: int, lang: str) -> Table:
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
                row.append(Text(*SYMBOLS[owner]))
            else:
                row.append(Text("·" if cell in available else " ", style="green"))
        table.add_row(*row)
    return table


def render(view: dict[str, Any], *, lang: str) -> RenderableType:
    """The pyramid as seen by ``view``'s reader (Pylos hides nothing)."""
    words = WORDS.get(lang, WORDS["en"])
    names = NAMES.get(lang, NAMES["en"])
    grid = Table.grid(padding=(0, 4))
    for _ in SIZES:
        grid.add_column(vertical="bottom")
    grid.add_row(*(_level(view, level, lang if lang in WORDS else "en") for level in (1, 2, 3, 4)))
    lines = Text()
    for player in (0, 1):
        symbol, style = SYMBOLS[player]
        lines.append(f"{symbol} ", style=style)
        lines.append(f"{names[player]} ({player}) — {words['reserve']} {view['reserves'][player]}   ")
    status = Text()
    if view["to_move"] is None:
        status.append(words["over"], style="bold")
    else:
        status.append(f"{words['to_move']}: {names[view['to_move']]} ({view['to_move']})", style="bold")
    if view.get("repetitions", 1) > 1:
        status.append(f"   {words['repetitions']}: {view['repetitions']}")
    return Group(grid, lines, status)


def details(view: dict[str, Any], *, lang: str) -> RenderableType:
    """Free balls of each player (the ones that may be raised or taken back)."""
    names = NAMES.get(lang, NAMES["en"])
    free = [cell for cell in view["free"]]
    by_player = {p: [c for c in free if view["cells"][c] == p] for p in (0, 1)}
    label = "libres" if lang == "fr" else "free"
    return Text("\n".join(f"{names[p]} {label}: {' '.join(by_player[p]) or '—'}" for p in (0, 1)))
