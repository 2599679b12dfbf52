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

from ...cli.boards import LAST_MOVE_STYLE, cells_in, describe_result, in_words, turn_line

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


# The sentences of ``details`` (the ``info`` command) and of ``events``.
SENTENCES = {
    "fr": {
        "team": "Équipe {number} ({players}) : {camps}.",
        "camp_first": "{camp} a {count} {marbles}",
        "camp_next": "{camp} {count}",
        "eliminated": "{label} {players} {verb} éliminé{plural}.",
        "quiet": "{count} coup{plural} de suite sans prise ni poussée (nulle au {limit}e).",
        "repetitions": "Cette position s'est présentée {count} fois (nulle à la {limit}e).",
        "first_capture": "La première prise est faite : toute bille peut reculer.",
        "no_capture": "Aucune prise encore : une bille ne recule que pour prendre.",
        "captured_one": "La bille {of} en {cells} est capturée.",
        "captured_many": "Les billes {of} en {cells} sont capturées.",
        "pushed": "L'EX*PION est poussé en {cell}.",
        "out": "{side} (joueur {player}) est éliminé.",
    },
    "en": {
        "team": "Team {number} ({players}): {camps}.",
        "camp_first": "{camp} has {count} {marbles}",
        "camp_next": "{camp} {count}",
        "eliminated": "{label} {players} {verb} eliminated.",
        "quiet": "{count} move{plural} in a row without a capture or a push (a draw at {limit}).",
        "repetitions": "This position has occurred {count} time{plural} (a draw at {limit}).",
        "first_capture": "The first capture has been made: every marble may step backward.",
        "no_capture": "No capture yet: a marble steps backward only to capture.",
        "captured_one": "{of} marble on {cells} is captured.",
        "captured_many": "{of} marbles on {cells} are captured.",
        "pushed": "The EX*PION is pushed to {cell}.",
        "out": "{side} (player {player}) is eliminated.",
    },
}
# Whose marbles: "East's", "de l'Est".
OF_CAMP = {"fr": {"N": "du Nord", "E": "de l'Est", "S": "du Sud", "W": "de l'Ouest"},
           "en": {"N": "North's", "E": "East's", "S": "South's", "W": "West's"}}
REPETITION_LIMIT = 3
CELL = re.compile(r"[a-i][1-9]")
EXAMPLE = "e1-e4"
NOTATION = {
    "fr": "  e1-e4 : une bille sort de son camp (1 à 3 cases tout droit) · e4-e5 : un pas orthogonal\n"
          "  d5-e5 quand e5 porte l'EX*PION le pousse en f5 ; prises et passes ne s'écrivent pas",
    "en": "  e1-e4: a marble leaves its camp (1 to 3 cells straight on) · e4-e5: an orthogonal step\n"
          "  d5-e5 when e5 holds the EX*PION pushes it to f5; captures and passes are not written",
}


SEATING_NOTES = {
    "fr": "À 3 joueurs, Nord et Sud jouent 2 tours sur 4 avec leurs 14 billes, Est et Ouest chacun 1 "
          "avec ses 7 : à force égale, Nord et Sud gagnent presque toujours.",
    "en": "With 3 players, North and South move on 2 turns of 4 with their 14 marbles, East and West "
          "on 1 each with their 7: at equal strength North and South nearly always win.",
}


def seating_note(players: int, *, lang: str) -> str | None:
    """What the seating means, said at the start: with 3 players, the lone player's edge."""
    return SEATING_NOTES.get(lang, SEATING_NOTES["en"]) if players == 3 else None


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
    """In sentences: each team's camps and marbles, eliminated players, the draw counters and
    whether marbles may step backward yet."""
    words, said = _words(lang), SENTENCES.get(lang, SENTENCES["en"])
    lines = []
    for number, team in enumerate(view["teams"], start=1):
        label = words["players"] if len(team["players"]) > 1 else words["player"]
        camps = []
        for index, camp in enumerate(team["camps"]):
            count = view["marbles"][camp]
            key = "camp_first" if index == 0 else "camp_next"
            marbles = words["marbles"] if count != 1 else words["marbles"][:-1]
            camps.append(said[key].format(camp=words["camps"][camp], count=count, marbles=marbles))
        players = f"{label} {', '.join(map(str, team['players']))}"
        lines.append(said["team"].format(number=number, players=players, camps=", ".join(camps)))
    out = [p for team in view["teams"] for p in team["players"] if p in view["eliminated"]]
    if out:
        lines.append(said["eliminated"].format(
            label=(words["players"] if len(out) > 1 else words["player"]).capitalize(),
            players=in_words([str(p) for p in out], lang), verb=_verb(len(out), lang),
            plural="s" if len(out) > 1 and lang == "fr" else ""))
    quiet = int(view["quiet_moves"])
    lines.append(said["quiet"].format(count=quiet, limit=view["quiet_limit"],
                                      plural="" if quiet == 1 else "s"))
    seen = int(view["repetitions"])
    lines.append(said["repetitions"].format(count=seen, limit=REPETITION_LIMIT,
                                            plural="" if seen == 1 else "s"))
    lines.append(said["first_capture"] if view["first_capture"] else said["no_capture"])
    return Group(*(Text(line) for line in lines))


def _verb(count: int, lang: str) -> str:
    if lang == "fr":
        return "sont" if count > 1 else "est"
    return "are" if count > 1 else "is"


def events(before: Mapping[str, Any], after: Mapping[str, Any], move: str, *, lang: str) -> list[str]:
    """What ``move`` did that its text does not say: the marbles it captured (by camp), where it
    pushed the EX*PION, and the players it eliminated.

    >>> import ludotheque
    >>> game = ludotheque.load("expion", players=2)
    >>> before = game.new_state().view(None)
    >>> after = dict(before, cells={c: m for c, m in before["cells"].items() if c not in ("b1", "i2")},
    ...              expion="e4")
    >>> events(before, after, "b1-b2", lang="en")
    ["East's marble on i2 is captured.", 'The EX*PION is pushed to e4.']
    """
    said, of_camp = SENTENCES.get(lang, SENTENCES["en"]), OF_CAMP.get(lang, OF_CAMP["en"])
    source = next(iter(CELL.findall(move.lower())), None)
    lost: dict[str, list[str]] = {}
    for cell, camp in before["cells"].items():
        if cell != source and after["cells"].get(cell) != camp:
            lost.setdefault(camp, []).append(cell)
    lines = []
    for camp, cells in lost.items():
        sentence = said["captured_one" if len(cells) == 1 else "captured_many"]
        line = sentence.format(of=of_camp[camp], cells=in_words(sorted(cells), lang))
        lines.append(line[:1].upper() + line[1:])
    if after["expion"] != before["expion"]:
        lines.append(said["pushed"].format(cell=after["expion"]))
    for player in after["eliminated"]:
        if player not in before["eliminated"]:
            lines.append(said["out"].format(side=side_name(before, player, lang=lang), player=player))
    return lines
