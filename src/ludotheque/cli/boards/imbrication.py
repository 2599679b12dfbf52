"""Imbrication in the terminal: the board, the round, the tile line as the viewer knows it.

Pieces are letters, so colour is never the only signal: ``L`` light (seat 0), ``D`` dark
(seat 1), the piece whose action is pending in brackets, ``+``/``×`` territory of seat 0/1.

>>> import ludotheque
>>> from rich.console import Console
>>> view = ludotheque.load("imbrication").new_state(seed=0).view(None)
>>> console = Console(width=80, color_system=None)
>>> with console.capture() as out:
...     console.print(render(view, lang="en"))
>>> "a  b  c  d  e  f  g  h" in out.get() and "Round 1/5" in out.get()
True
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...games.imbrication.board import TILE_TABLE

FILES = "abcdefgh"
SYMBOLS = ("L", "D")
TERRITORY_MARKS = ("+", "×")
STYLES = ("bold black on grey85", "bold white on grey23")
WORDS = {
    "fr": {
        "round": "Manche", "line": "Tuiles", "current": "Tuile retournée", "none": "aucune",
        "opening": "pose d'ouverture", "place": "pose", "act": "action", "over": "partie finie",
        "to_move": "au trait", "seat": "joueur", "legend": "L clair (joueur 0) · D foncé "
        "(joueur 1) · [ ] pion à déplacer · +/× territoire du joueur 0/1 · ? tuile cachée",
        "territory": "Territoire", "pieces": "Pions", "cells": "cases", "revealed": "Tuiles jouées",
        "action": "action", "blank": "vierge", "removed": "pion retiré", "pending": "en attente",
        "winner": "Vainqueur", "draw": "Partie nulle",
    },
    "en": {
        "round": "Round", "line": "Tiles", "current": "Tile revealed", "none": "none",
        "opening": "opening placement", "place": "placement", "act": "action",
        "over": "game over", "to_move": "to move", "seat": "player", "legend": "L light "
        "(player 0) · D dark (player 1) · [ ] piece to move · +/× territory of player 0/1 · "
        "? hidden tile",
        "territory": "Territory", "pieces": "Pieces", "cells": "cells", "revealed": "Tiles played",
        "action": "action", "blank": "blank", "removed": "piece removed", "pending": "pending",
        "winner": "Winner", "draw": "Draw",
    },
}


def render(view: dict[str, Any], *, lang: str) -> RenderableType:
    """The board with coordinates, then the round, the phase and the tile line."""
    words = WORDS.get(lang, WORDS["en"])
    return Group(_board(view), _status(view, words), _line(view, lang, words),
                 Text(words["legend"], style="dim"))


def details(view: dict[str, Any], *, lang: str) -> RenderableType:
    """Scores, pieces and territories of both players, then every tile played."""
    words = WORDS.get(lang, WORDS["en"])
    table = Table(title=f"{words['round']} {view['round']}/5")
    table.add_column(words["seat"])
    table.add_column(words["territory"], justify="right")
    table.add_column(words["pieces"], justify="right")
    table.add_column(words["cells"])
    for seat in (0, 1):
        cells = " | ".join(" ".join(t) for t in view["territories"][seat]) or "-"
        table.add_row(f"{seat} ({SYMBOLS[seat]})", str(view["scores"][seat]),
                      str(view["pieces"][seat]), cells)
    played = Text(f"{words['revealed']}: ")
    for entry in view["revealed"]:
        played.append(
            f"{entry['round']}.{entry['turn']} {SYMBOLS[entry['player']]} "
            f"{_tile_name(entry['tile'], lang)} ({words[entry['outcome']]}); "
        )
    parts: list[RenderableType] = [table, played]
    if view["result"] is not None:
        winners = view["result"]["winners"]
        parts.append(Text(
            f"{words['winner']}: {winners[0]} ({SYMBOLS[winners[0]]})" if winners
            else words["draw"], style="bold"))
    return Group(*parts)


def _board(view: dict[str, Any]) -> Text:
    cells: dict[str, int] = view["cells"]
    marks = {
        cell: TERRITORY_MARKS[seat]
        for seat in (0, 1) for territory in view["territories"][seat] for cell in territory
    }
    text = Text()
    for rank in range(8, 0, -1):
        text.append(f"{rank} ")
        for file in FILES:
            name = f"{file}{rank}"
            owner = cells.get(name)
            if owner is None:
                text.append(f" {marks.get(name, '·')} ")
            elif name == view["placed"]:
                text.append(f"[{SYMBOLS[owner]}]", style=STYLES[owner])
            else:
                text.append(f" {SYMBOLS[owner]} ", style=STYLES[owner])
        text.append("\n")
    text.append("   " + "  ".join(FILES))
    return text


def _status(view: dict[str, Any], words: dict[str, str]) -> Text:
    status = f"{words['round']} {view['round']}/5 · {words[view['phase']]}"
    if view["phase"] == "opening":
        status += f" {view['opening_placements'] + 1}/4"
    if view["to_move"] is not None:
        status += f" · {words['to_move']}: {view['to_move']} ({SYMBOLS[view['to_move']]})"
    return Text(status, style="bold")


def _line(view: dict[str, Any], lang: str, words: dict[str, str]) -> Text:
    """The round's nine tiles, left first: played ones struck, the pending one marked."""
    text = Text(f"{words['line']}: ")
    played = view["tiles_played"]
    for turn, tile in enumerate(view["line"]):
        label = "?" if tile is None else _tile_name(tile, lang)
        if turn < played - (1 if view["current_tile"] else 0):
            text.append(f"{label}", style="strike dim")
        elif turn == played - 1 and view["current_tile"]:
            text.append(f">{label}<", style="bold reverse")
        else:
            text.append(label)
        text.append(" | " if turn < 8 else "")
    current = view["current_tile"]
    text.append(f"\n{words['current']}: {_tile_name(current, lang) if current else words['none']}")
    return text


def _tile_name(tile: str, lang: str) -> str:
    facts = TILE_TABLE[tile]
    return facts.fr if lang == "fr" else facts.en
