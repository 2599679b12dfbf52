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
>>> view = ludotheque.load("expion", players=4).new_state().view(None)
>>> outcome(view, {"winners": [0, 2], "scores": [1, -1, 1, -1], "reason": "no_marbles"}, lang="en")
'North–South (players 0, 2) wins: East–West has no marbles left'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import LAST_MOVE_STYLE, cells_in, describe_result, turn_line

FILES = "abcdefghi"
EXPION_SYMBOL = ("✱", "bold black on white")
# Okabe–Ito colours, told apart by colour-blind readers; the letters do the real work.
MARBLE_STYLES = {"N": "bold #0072B2", "E": "bold #E69F00", "S": "bold #009E73", "W": "bold #CC79A7"}
EMPTY_SYMBOLS = {"+": ("◇", "yellow"), "N": ("□", "dim"), "E": ("□", "dim"), "S": ("□", "dim"),
                 "W": ("□", "dim"), ".": ("·", "dim"), "X": ("·", "dim")}
WORDS = {
    "fr": {
        "camps": {"N": "Nord", "E": "Est", "S": "Sud", "W": "Ouest"},
        "player": "joueur", "players": "joueurs",
        "team": "équipe",
        "marbles": "billes", "eliminated": "éliminé", "first_capture": "première prise faite",
        "no_capture": "aucune prise encore (reculer seulement pour prendre)",
        "quiet": "coups sans prise ni poussée", "repetitions": "répétitions de la position",
        "legend": "✱ EX*PION · ◇ case spéciale · □ camp vide",
    },
    "en": {
        "camps": {"N": "North", "E": "East", "S": "South", "W": "West"},
        "player": "player", "players": "players",
        "team": "team",
        "marbles": "marbles", "eliminated": "eliminated", "first_capture": "first capture made",
        "no_capture": "no capture yet (backward only to capture)",
        "quiet": "moves without capture or push", "repetitions": "repetitions of the position",
        "legend": "✱ EX*PION · ◇ special cell · □ empty camp",
    },
}


CELL = re.compile(r"[a-i][1-9]")
EXAMPLE = "e1-e4"
NOTATION = {
    "fr": "  e1-e4 : une bille sort de son camp (1 à 3 cases tout droit) · e4-e5 : un pas orthogonal\n"
          "  d5-e5 quand e5 porte l'EX*PION le pousse en f5 ; prises et passes ne s'écrivent pas",
    "en": "  e1-e4: a marble leaves its camp (1 to 3 cells straight on) · e4-e5: an orthogonal step\n"
          "  d5-e5 when e5 holds the EX*PION pushes it to f5; captures and passes are not written",
}


def _words(lang: str) -> dict[str, Any]:
    return WORDS.get(lang, WORDS["en"])


def team_name(team: Mapping[str, Any], *, lang: str, with_players: bool = True) -> str:
    """A team by its camps, e.g. "North–South (players 0, 2)"."""
    words = _words(lang)
    name = "–".join(words["camps"][camp] for camp in team["camps"])
    if not with_players:
        return name
    label = words["players"] if len(team["players"]) > 1 else words["player"]
    return f"{name} ({label} {', '.join(map(str, team['players']))})"


def side_name(view: Mapping[str, Any], player: int, *, lang: str) -> str:
    """A player by the camps they hold, e.g. "North–South" with 2 players, "East" with 4."""
    camps = _words(lang)["camps"]
    return "–".join(camps[camp] for camp, holder in view["holders"].items() if holder == player)


def outcome(view: Mapping[str, Any], result: Mapping[str, Any], *, lang: str) -> str:
    """``result`` in words, the teams named by their camps."""
    teams = view["teams"]
    winners = set(result["winners"])
    winner = loser = None
    if winners:
        won = next(i for i, team in enumerate(teams) if winners & set(team["players"]))
        winner = team_name(teams[won], lang=lang)
        loser = team_name(teams[1 - won], lang=lang, with_players=False)
    return describe_result(view, result, lang, winner=winner, loser=loser)


def _cell(view: dict[str, Any], name: str, shape: str, marked: set[str]) -> Text:
    if name == view["expion"]:
        text = Text(EXPION_SYMBOL[0], style=EXPION_SYMBOL[1])
    elif (marble := view["cells"].get(name)) is not None:
        text = Text(marble, style=MARBLE_STYLES[marble])
    else:
        symbol, style = EMPTY_SYMBOLS[shape]
        text = Text(symbol, style=style)
    if name in marked:
        text.stylize(LAST_MOVE_STYLE)
    return text


def _grid(view: dict[str, Any], marked: set[str]) -> Table:
    table = Table(show_header=True, box=None, pad_edge=False, padding=(0, 1))
    table.add_column("", justify="right", style="dim")
    for file in FILES:
        table.add_column(file, justify="center", header_style="dim")
    table.add_column("", justify="left", style="dim")
    for row_index, shape_row in enumerate(view["layout"]):
        rank = str(len(view["layout"]) - row_index)
        cells: list[Text | str] = [rank]
        for file, shape in zip(FILES, shape_row, strict=True):
            cells.append(" " if shape == " " else _cell(view, f"{file}{rank}", shape, marked))
        table.add_row(*cells, rank)
    return table


def render(
    view: dict[str, Any], *, lang: str, last_move: str | None = None, turn: bool = True
) -> RenderableType:
    """The board as ``view`` shows it (Ex*Pion hides nothing), who holds each camp and whose
    turn it is; the cells of ``last_move`` are marked."""
    words = _words(lang)
    colon = " :" if lang == "fr" else ":"
    holders = Text()
    for camp, player in view["holders"].items():
        holders.append(camp, style=MARBLE_STYLES[camp])
        holders.append(f" {words['camps'][camp]}{colon} {words['player']} {player}   ")
    parts: list[RenderableType] = [_grid(view, cells_in(last_move, CELL)), Text(words["legend"], style="dim"),
                                   holders]
    if turn:
        camp = view["camp_to_move"]
        side = "" if view["to_move"] is None else (
            f"{camp} {words['camps'][camp]} ({words['player']} {view['to_move']})")
        parts.append(turn_line(view, lang, side))
    return Group(*parts)


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
