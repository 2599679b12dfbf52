"""Ex*Pion in the terminal: the 9×9 board with its four camps, whose turn, and the counters.

Marbles are their camp's letter ``N E S W`` (the letter carries the meaning, the colour from a
colour-blind-safe palette only helps); the EX*PION is ``✱``; ``◇`` marks a special cell (forbidden
to the EX*PION), ``□`` an empty camp cell and ``·`` an empty play-area cell. Everything is drawn
from ``state.view(player)``, whose ``layout`` holds the board's shape.

>>> import ludotheque
>>> from rich.console import Console
>>> console = Console(width=80, color_system=None)
>>> with console.capture() as capture:
...     console.print(render(ludotheque.load("expion").new_state().view(None), lang="en"))
>>> "a  b  c  d  e  f  g  h  i" in capture.get(), "✱" in capture.get()
(True, True)
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

FILES = "abcdefghi"
EXPION_SYMBOL = ("✱", "bold black on white")
# Okabe–Ito colours, told apart by colour-blind readers; the letters do the real work.
MARBLE_STYLES = {"N": "bold #0072B2", "E": "bold #E69F00", "S": "bold #009E73", "W": "bold #CC79A7"}
EMPTY_SYMBOLS = {"+": ("◇", "yellow"), "N": ("□", "dim"), "E": ("□", "dim"), "S": ("□", "dim"),
                 "W": ("□", "dim"), ".": ("·", "dim"), "X": ("·", "dim")}
WORDS = {
    "fr": {
        "camps": {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"},
        "to_move": "au trait", "over": "partie finie", "player": "joueur", "players": "joueurs",
        "team": "équipe",
        "marbles": "billes", "eliminated": "éliminé", "first_capture": "première prise faite",
        "no_capture": "aucune prise encore (reculer seulement pour prendre)",
        "quiet": "coups sans prise ni poussée", "repetitions": "répétitions de la position",
        "legend": "✱ EX*PION · ◇ case spéciale · □ camp vide",
    },
    "en": {
        "camps": {"N": "North", "E": "East", "S": "South", "W": "West"},
        "to_move": "to move", "over": "game over", "player": "player", "players": "players",
        "team": "team",
        "marbles": "marbles", "eliminated": "eliminated", "first_capture": "first capture made",
        "no_capture": "no capture yet (backward only to capture)",
        "quiet": "moves without capture or push", "repetitions": "repetitions of the position",
        "legend": "✱ EX*PION · ◇ special cell · □ empty camp",
    },
}


def _words(lang: str) -> dict[str, Any]:
    return WORDS.get(lang, WORDS["en"])


def _cell(view: dict[str, Any], name: str, shape: str) -> Text:
    if name == view["expion"]:
        return Text(EXPION_SYMBOL[0], style=EXPION_SYMBOL[1])
    marble = view["cells"].get(name)
    if marble is not None:
        return Text(marble, style=MARBLE_STYLES[marble])
    symbol, style = EMPTY_SYMBOLS[shape]
    return Text(symbol, style=style)


def _grid(view: dict[str, Any]) -> Table:
    table = Table(show_header=True, box=None, pad_edge=False, padding=(0, 1))
    table.add_column("", justify="right", style="dim")
    for file in FILES:
        table.add_column(file, justify="center", header_style="dim")
    table.add_column("", justify="left", style="dim")
    for row_index, shape_row in enumerate(view["layout"]):
        rank = str(len(view["layout"]) - row_index)
        cells: list[Text | str] = [rank]
        for file, shape in zip(FILES, shape_row, strict=True):
            cells.append(" " if shape == " " else _cell(view, f"{file}{rank}", shape))
        table.add_row(*cells, rank)
    return table


def _status(view: dict[str, Any], lang: str) -> Text:
    words = _words(lang)
    status = Text()
    if view["to_move"] is None:
        status.append(words["over"], style="bold")
    else:
        camp = view["camp_to_move"]
        status.append(f"{words['to_move']}: ", style="bold")
        status.append(camp, style=MARBLE_STYLES[camp])
        status.append(f" {words['camps'][camp]} ({words['player']} {view['to_move']})", style="bold")
    return status


def render(view: dict[str, Any], *, lang: str) -> RenderableType:
    """The board as ``view`` shows it (Ex*Pion hides nothing), with whose turn it is."""
    words = _words(lang)
    holders = Text()
    for camp, player in view["holders"].items():
        holders.append(camp, style=MARBLE_STYLES[camp])
        holders.append(f" {words['camps'][camp]}: {words['player']} {player}   ")
    return Group(_grid(view), Text(words["legend"], style="dim"), holders, _status(view, lang))


def details(view: dict[str, Any], *, lang: str) -> RenderableType:
    """Marbles left per camp, the teams, eliminated players and the draw counters."""
    words = _words(lang)
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_column(style="bold")
    table.add_column()
    for number, team in enumerate(view["teams"], start=1):
        camps = ", ".join(
            f"{words['camps'][c]} ({view['marbles'][c]} {words['marbles']})" for c in team["camps"]
        )
        players = ", ".join(
            f"{p}" + (f" ({words['eliminated']})" if p in view["eliminated"] else "")
            for p in team["players"]
        )
        label = words["players"] if len(team["players"]) > 1 else words["player"]
        table.add_row(f"{words['team']} {number}", f"{camps} — {label} {players}")
    table.add_row(words["quiet"], f"{view['quiet_moves']}/{view['quiet_limit']}")
    table.add_row(words["repetitions"], f"{view['repetitions']}/3")
    table.add_row("", words["first_capture"] if view["first_capture"] else words["no_capture"])
    return table
