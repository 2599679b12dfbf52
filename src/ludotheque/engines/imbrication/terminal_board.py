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
>>> outcome(view, {"winners": [0], "scores": [12, 9], "reason": "territory"}, lang="fr")
'Clair gagne : plus de territoire (12 cases contre 9)'
>>> outcome(view, {"winners": [1], "scores": [0, 1], "reason": "territory"}, lang="en")
'Dark wins: more territory (1 cell to 0)'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from rich.console import Group, RenderableType
from rich.text import Text

from ... import i18n
from ...cli.boards import LAST_MOVE_STYLE, cells_in, colon, describe_result
from ...core import info

FILES = "abcdefgh"
SYMBOLS = ("L", "D")
TERRITORY_MARKS = ("+", "×")
STYLES = ("bold black on grey85", "bold white on grey23")
WORDS = {
    "fr": {
        "round": "Manche", "line": "Tuiles", "current": "Tuile retournée", "none": "aucune",
        "over": "partie finie",
        "seat": "joueur", "legend": "L clair (joueur 0) · D foncé "
        "(joueur 1) · [ ] pion à déplacer · +/× territoire du joueur 0/1 · ? tuile cachée",
        "territory": "Territoire", "pieces": "Pions", "cells": "cases", "revealed": "Tuiles jouées",
        "action": "action", "blank": "vierge", "removed": "pion retiré", "pending": "en attente",
    },
    "en": {
        "round": "Round", "line": "Tiles", "current": "Tile revealed", "none": "none",
        "over": "game over", "seat": "player", "legend": "L light "
        "(player 0) · D dark (player 1) · [ ] piece to move · +/× territory of player 0/1 · "
        "? hidden tile",
        "territory": "Territory", "pieces": "Pieces", "cells": "cells", "revealed": "Tiles played",
        "action": "action", "blank": "blank", "removed": "piece removed", "pending": "pending",
    },
}


NAMES = {"fr": ("Clair", "Foncé"), "en": ("Light", "Dark")}
CELL = re.compile(r"[a-h][1-8]")
EXAMPLE = "d4"
NOTATION = {
    "fr": "  d4 : poser un pion · puis l'action de la tuile : d4-d7 (pas ou glissade), "
          "d4xf6xd8 (prises, case après case)",
    "en": "  d4: place a piece · then the tile's action: d4-d7 (step or slide), "
          "d4xf6xd8 (captures, landing after landing)",
}
# The figures behind each result reason (the reason itself is worded by GameInfo).
SCORES = {
    "territory": {"fr": "{high} {cells} contre {low}", "en": "{high} {cells} to {low}"},
    "pieces": {
        "fr": "{high} {cells} chacun, {most} pions contre {fewest}",
        "en": "{high} {cells} each, {most} pieces to {fewest}",
    },
    "draw": {"fr": "{high} {cells} et {most} pions chacun", "en": "{high} {cells} and {most} pieces each"},
}
# French says 0 and 1 in the singular, English only 1.
CELL_WORDS = {"fr": ("case", "cases"), "en": ("cell", "cells")}
# What a move did that its text does not say (``events``): the tile a placement turned over.
EVENTS = {
    "removed": {
        "fr": "Tuile retournée : {tile} — le pion posé en {cell} est retiré : aucun pion ne peut la jouer.",
        "en": "Tile revealed: {tile} — the piece placed on {cell} is removed: no piece can perform it.",
    },
    "blank": {"fr": "Tuile retournée : {tile} — pas d'action ce tour-ci.",
              "en": "Tile revealed: {tile} — no action this turn."},
    "pending": {"fr": "Tuile retournée : {tile} — {side} la joue maintenant.",
                "en": "Tile revealed: {tile} — {side} performs it now."},
}
# The sentences of ``details`` (the ``info`` command).
SENTENCES = {
    "fr": {
        "round": "Manche {round} sur {rounds}.",
        "territory": "Territoire : {each}.",
        "holds": "{side} ({symbol}) {count} {cells}",
        "regions": " — {cells}",
        "pieces": "Pions sur le plateau : {each}.",
        "tiles": "Manche {round} : {tiles}.",
        "no_tile": "Aucune tuile retournée pour l'instant.",
        "action": "jouée", "blank": "", "removed": "pion retiré", "pending": "à jouer",
        "then": " ; ",
    },
    "en": {
        "round": "Round {round} of {rounds}.",
        "territory": "Territory: {each}.",
        "holds": "{side} ({symbol}) {count} {cells}",
        "regions": " — {cells}",
        "pieces": "Pieces on the board: {each}.",
        "tiles": "Round {round}: {tiles}.",
        "no_tile": "No tile turned over yet.",
        "action": "performed", "blank": "", "removed": "piece removed", "pending": "to perform",
        "then": "; ",
    },
}


def side_name(view: Mapping[str, Any], player: int, *, lang: str) -> str:
    """Light (player 0, ``L``) or Dark (player 1, ``D``)."""
    return NAMES.get(lang, NAMES["en"])[player]


def outcome(view: Mapping[str, Any], result: Mapping[str, Any], *, lang: str) -> str:
    """``result`` in words: territory, then pieces on the board (the tie-break)."""
    names = NAMES.get(lang, NAMES["en"])
    winners = result["winners"]
    winner, loser = (names[winners[0]], names[1 - winners[0]]) if winners else (None, None)
    scores, pieces = [int(s) for s in result["scores"]], [int(p) for p in view["pieces"]]
    one, many = CELL_WORDS.get(lang, CELL_WORDS["en"])
    singular = max(scores) <= 1 if lang == "fr" else max(scores) == 1
    figures = SCORES.get(str(result.get("reason", "")))
    detail = None if figures is None else figures.get(lang, figures["en"]).format(
        high=max(scores), low=min(scores), most=max(pieces), fewest=min(pieces),
        cells=one if singular else many)
    return describe_result(view, result, lang, winner=winner, loser=loser, detail=detail)


def render(
    view: dict[str, Any], *, lang: str, last_move: str | None = None, turn: bool = True
) -> RenderableType:
    """The board with coordinates (the cells of ``last_move`` marked), then the round, the
    phase (and whose turn it is, unless ``turn`` is false) and the tile line."""
    words = WORDS.get(lang, WORDS["en"])
    return Group(_board(view, cells_in(last_move, CELL)), _status(view, lang, words, turn=turn),
                 _line(view, lang, words), Text(words["legend"], style="dim"))


def details(view: dict[str, Any], *, lang: str) -> RenderableType:
    """In sentences: the round, each player's territory and pieces, every tile turned over
    round by round (and what became of it), then the result once the game is over."""
    said = SENTENCES.get(lang, SENTENCES["en"])
    one, many = CELL_WORDS.get(lang, CELL_WORDS["en"])
    holdings = []
    for seat in (0, 1):
        count = int(view["scores"][seat])
        singular = count <= 1 if lang == "fr" else count == 1
        holding = said["holds"].format(side=side_name(view, seat, lang=lang), symbol=SYMBOLS[seat],
                                       count=count, cells=one if singular else many)
        regions = " | ".join(" ".join(t) for t in view["territories"][seat])
        holdings.append(holding + (said["regions"].format(cells=regions) if regions else ""))
    pieces = ", ".join(f"{side_name(view, seat, lang=lang)} {view['pieces'][seat]}" for seat in (0, 1))
    lines = [
        said["round"].format(round=view["round"], rounds=view["round_count"]),
        said["territory"].format(each=said["then"].join(holdings)),
        said["pieces"].format(each=pieces),
    ]
    rounds: dict[int, list[str]] = {}
    for entry in view["revealed"]:
        fate = said[entry["outcome"]]
        # A no-break space: the turn's number never ends a line.
        tile = f"{entry['turn']}.\u00a0{side_name(view, entry['player'], lang=lang)}, "
        tile += _tile_name(view, entry["tile"], lang) + (f" ({fate})" if fate else "")
        rounds.setdefault(entry["round"], []).append(tile)
    for number, tiles in rounds.items():
        lines.append(said["tiles"].format(round=number, tiles=said["then"].join(tiles)))
    if not rounds:
        lines.append(said["no_tile"])
    parts: list[RenderableType] = [Text(line) for line in lines]
    if view["result"] is not None:
        parts.append(Text(outcome(view, view["result"], lang=lang) + ".", style="bold"))
    return Group(*parts)


def events(before: Mapping[str, Any], after: Mapping[str, Any], move: str, *, lang: str) -> list[str]:
    """What ``move`` did that its text does not say: the tile its placement turned over, and
    whether the placed piece was removed because no piece can perform it."""
    lines = []
    for entry in after["revealed"][len(before["revealed"]):]:
        fate = str(entry["outcome"])
        words = EVENTS.get(fate, EVENTS["pending"])
        cell = next(iter(CELL.findall(move.lower())), "?")
        lines.append(words.get(lang, words["en"]).format(
            tile=_tile_name(after, entry["tile"], lang), cell=cell,
            side=side_name(after, int(entry["player"]), lang=lang)))
    return lines


def _board(view: dict[str, Any], marked: set[str]) -> Text:
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
            extra = f" {LAST_MOVE_STYLE}" if name in marked else ""
            if owner is None:
                text.append(f" {marks.get(name, '·')} ", style=extra.strip())
            elif name == view["placed"]:
                text.append(f"[{SYMBOLS[owner]}]", style=STYLES[owner] + extra)
            else:
                text.append(f" {SYMBOLS[owner]} ", style=STYLES[owner] + extra)
        text.append("\n")
    text.append("   " + "  ".join(FILES))
    return text


def _status(view: dict[str, Any], lang: str, words: dict[str, str], *, turn: bool) -> Text:
    phase = info("imbrication").phase_name(view["phase"], lang) or words["over"]
    status = f"{words['round']} {view['round']}/{view['round_count']} · {phase}"
    if view["phase"] == "opening":
        status += f" {view['opening_placements'] + 1}/{view['opening_placements_per_round']}"
    mover = view["to_move"]
    if turn and mover is not None:
        side = f"{side_name(view, mover, lang=lang)} ({SYMBOLS[mover]}, {words['seat']} {mover})"
        status += f" · {i18n.text('board_to_move', lang, side=side)}"
    return Text(status, style="bold")


def _line(view: dict[str, Any], lang: str, words: dict[str, str]) -> Text:
    """The round's nine tiles, left first: played ones struck, the pending one marked."""
    text = Text(f"{words['line']}{colon(lang)} ")
    played = view["tiles_played"]
    for turn, tile in enumerate(view["line"]):
        label = "?" if tile is None else _tile_name(view, tile, lang)
        if turn < played - (1 if view["current_tile"] else 0):
            text.append(f"{label}", style="strike dim")
        elif turn == played - 1 and view["current_tile"]:
            text.append(f">{label}<", style="bold reverse")
        else:
            text.append(label)
        text.append(" | " if turn < len(view["line"]) - 1 else "")
    current = view["current_tile"]
    shown = _tile_name(view, current, lang) if current else words["none"]
    text.append(f"\n{words['current']}{colon(lang)} {shown}")
    return text


def _tile_name(view: Mapping[str, Any], tile: str, lang: str) -> str:
    """A tile's name, as the view's ``tile_table`` gives it."""
    names: Mapping[str, str] = view["tile_table"][tile]
    return names["fr"] if lang == "fr" else names["en"]
