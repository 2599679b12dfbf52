"""Plimil in the terminal: the board as the reader knows it, from the reader's side.

Each cell shows the colour its block shows as a letter (``B`` blue, ``R`` red, ``N`` neutral,
``·`` no block; the colour only repeats the letter) and the stem's height (``S`` short, ``T``
tall, ``?`` unknown to the reader). Red reads the board with rank 8 at the bottom.

>>> _cell_text({"cell": "d4", "stem": None, "block": {"colour": "N"}}, marked=False).plain
'N?'
>>> outcome({"game": "plimil", "counts": {"blue": 9, "red": 8, "neutral": 7}},
...         {"winners": [0], "scores": [9, 8], "reason": "rule_of_7"}, lang="fr")
'Bleu gagne : règle des 7 (blocs bleus 9, rouges 8, neutres 7)'
"""

from __future__ import annotations

import copy
import re
from collections.abc import Mapping, Sequence
from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ...cli.boards import LAST_MOVE_STYLE, cells_in, colon, describe_result, turn_line

FILES = "abcdefgh"
STYLES = {"B": "bold blue", "R": "bold red", "N": "bold yellow"}
NAMES = {"fr": ("Bleu", "Rouge"), "en": ("Blue", "Red")}
WORDS = {
    "fr": {
        "over": "partie finie", "setup": "préparation",
        "side": "vu du côté", "spectator": "spectateur", "turns": "quarts de tour",
        "blue": "bleus", "red": "rouges", "neutral": "neutres", "quiet": "coups sans changement",
        "repetitions": "répétitions", "mine": "mes blocs", "theirs": "blocs adverses",
        "hand": "billes en main", "legend": "B bleu · R rouge · N neutre · S petite · T grande · ? inconnue",
        "blocks_of": "blocs de {side}", "revealed": "tous les secrets, la partie finie",
    },
    "en": {
        "over": "game over", "setup": "setup",
        "side": "seen from the side of", "spectator": "spectator", "turns": "quarter turns",
        "blue": "blue", "red": "red", "neutral": "neutral", "quiet": "plies without a change",
        "repetitions": "repetitions", "mine": "my blocks", "theirs": "opponent's blocks",
        "hand": "balls in hand", "legend": "B blue · R red · N neutral · S short · T tall · ? unknown",
        "blocks_of": "{side}'s blocks", "revealed": "every secret, the game being over",
    },
}


CELL = re.compile(r"[a-h][1-8]")
EXAMPLE = "d2-d4"
NOTATION = {
    "fr": "  préparation : stems STSTTSST (vos tiges, dans l'ordre des cases), block d1 BNR (billes "
          "du bas vers le haut)\n"
          "  puis : d2-d4 · d3-d4xe4 (prise) · d3-d4@cw ou @ccw (tourner le plateau) · e5-d4xd5 · pass",
    "en": "  setup: stems STSTTSST (your stems, in cell order), block d1 BNR (balls bottom to top)\n"
          "  then: d2-d4 · d3-d4xe4 (capture) · d3-d4@cw or @ccw (turn the board) · e5-d4xd5 · pass",
}
# The sentences of ``details`` (the ``info`` command).
SENTENCES = {
    "fr": {
        "counters": "{quiet} demi-coup{s} de suite sans changement de couleur (nulle au {limit}e) ; "
                    "cette position s'est présentée {seen} fois (nulle à la 3e).",
        "setup": "Préparation : les compteurs de nulle partent avec le jeu.",
        "hand": "Billes en main : {blue} bleue{sb}, {red} rouge{sr}, {neutral} neutre{sn}.",
        "blocks": "{title} (billes du bas vers le haut{unknown}) : {blocks}.",
        "no_blocks": "{title} : aucun sur le plateau.",
        "unknown": ", ? inconnue",
        "mine": "Vos blocs", "theirs": "Les blocs adverses", "of": "Les blocs de {side}",
    },
    "en": {
        "counters": "{quiet} pl{s} in a row without a colour change (a draw at {limit}); this position "
                    "has occurred {seen} time{t} (a draw at the 3rd).",
        "setup": "Setup: the draw counters start with play.",
        "hand": "Balls in hand: {blue} blue, {red} red, {neutral} neutral.",
        "blocks": "{title} (balls from the bottom up{unknown}): {blocks}.",
        "no_blocks": "{title}: none on the board.",
        "unknown": ", ? unknown",
        "mine": "Your blocks", "theirs": "Your opponent's blocks", "of": "{side}'s blocks",
    },
}
# The counts behind each result reason (the reason itself is worded by GameInfo).
SCORES = {
    "rule_of_7": {
        "fr": "blocs bleus {blue}, rouges {red}, neutres {neutral}",
        "en": "blocks showing blue {blue}, red {red}, neutral {neutral}",
    },
    "two_passes": {"fr": "blocs bleus {blue}, rouges {red}", "en": "blocks showing blue {blue}, red {red}"},
}


def _words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def side_name(view: Mapping[str, Any], player: int, *, lang: str) -> str:
    """Blue (player 0) or Red (player 1)."""
    return NAMES.get(lang, NAMES["en"])[player]


def outcome(view: Mapping[str, Any], result: Mapping[str, Any], *, lang: str) -> str:
    """``result`` in words, with the counts of blocks that decided it."""
    names = NAMES.get(lang, NAMES["en"])
    winners = result["winners"]
    winner, loser = (names[winners[0]], names[1 - winners[0]]) if winners else (None, None)
    figures = SCORES.get(str(result.get("reason", "")))
    detail = None if figures is None else figures.get(lang, figures["en"]).format(**view["counts"])
    return describe_result(view, result, lang, winner=winner, loser=loser, detail=detail)


def final_view(views: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One view holding what every player knows (every stem, every block's balls), for the
    end of a game; its ``viewer`` is ``None`` and ``revealed`` is set."""
    merged = copy.deepcopy(dict(views[0]))
    merged["viewer"], merged["revealed"] = None, True
    for entry, *others in zip(merged["board"], *(v["board"] for v in views[1:]), strict=True):
        for other in others:
            entry["stem"] = entry["stem"] or other["stem"]
            if entry["block"] is not None and other["block"] is not None:
                entry["block"]["balls"] = [
                    mine or theirs for mine, theirs in zip(entry["block"]["balls"], other["block"]["balls"],
                                                           strict=True)
                ]
    return merged


def _cell_text(entry: dict[str, Any] | None, *, marked: bool) -> Text:
    if entry is None:
        return Text("  ")
    block = entry["block"]
    text = Text()
    if block is None:
        text.append("·", style="dim")
    else:
        text.append(block["colour"], style=STYLES[block["colour"]])
    text.append(entry["stem"] or "?", style="dim")
    if marked:
        text.stylize(LAST_MOVE_STYLE)
    return text


def render(
    view: dict[str, Any], *, lang: str, last_move: str | None = None, turn: bool = True
) -> RenderableType:
    """The board of ``view`` (``State.view(player)``) with coordinates (the cells of
    ``last_move`` marked, unless the board turned since), the counts and whose turn it is."""
    words = _words(lang)
    names = NAMES.get(lang, NAMES["en"])
    # A rotation names cells as they stood before the board turned: they moved since.
    marked = set() if last_move is None or "@" in last_move else cells_in(last_move, CELL)
    cells = {entry["cell"]: entry for entry in view["board"]}
    red_side = view["viewer"] == 1
    ranks = range(1, 9) if red_side else range(8, 0, -1)
    files = FILES[::-1] if red_side else FILES
    table = Table(show_header=True, box=None, pad_edge=False)
    table.add_column("", justify="right", style="dim")
    for file in files:
        table.add_column(file, justify="center")
    for rank in ranks:
        table.add_row(str(rank), *(_cell_text(cells.get(f"{file}{rank}"), marked=f"{file}{rank}" in marked)
                                   for file in files))
    side = names[1] if red_side else names[0]
    header = Text(f"{words['side']} {side}", style="dim")
    if view.get("revealed"):
        header.append(f" ({words['revealed']})", style="dim")
    elif view["viewer"] is None:
        header.append(f" ({words['spectator']})", style="dim")
    header.append(f" — {words['turns']}{colon(lang)} {view['rotation']}", style="dim")
    parts: list[RenderableType] = [header, table, Text(words["legend"], style="dim"), _status(view, lang)]
    if turn:
        mover = view["to_move"]
        parts.append(turn_line(view, lang, "" if mover is None else names[mover]))
    return Group(*parts)


def _status(view: dict[str, Any], lang: str) -> Text:
    words = _words(lang)
    counts = view["counts"]
    status = Text()
    for key, letter in (("blue", "B"), ("red", "R"), ("neutral", "N")):
        status.append(f"{letter} {words[key]} {counts[key]}   ", style=STYLES[letter])
    if view["phase"] == "setup":
        status.append(f"\n{words['setup']}", style="bold")
    return status


def details(view: dict[str, Any], *, lang: str) -> RenderableType:
    """In sentences: the draw counters (or the balls in hand during setup) and what the reader
    knows of every block's balls (the board above shows the counts)."""
    said = SENTENCES.get(lang, SENTENCES["en"])
    names = NAMES.get(lang, NAMES["en"])
    draw = view["draw"]
    viewer = view["viewer"]
    lines: list[RenderableType] = []
    if view["phase"] == "setup":
        lines.append(Text(said["setup"]))
        hand = view["hands"][viewer] if viewer is not None else None
        if hand is not None:
            plural = {f"s{key}": "" if count <= 1 else "s" for key, count in zip("brn", hand, strict=True)}
            lines.append(Text(said["hand"].format(blue=hand[0], red=hand[1], neutral=hand[2], **plural)))
    else:
        quiet, seen = int(draw["quiet_plies"]), int(draw["repetitions"])
        lines.append(Text(said["counters"].format(
            quiet=quiet, limit=view.get("quiet_limit", 100), seen=seen,
            s=("" if quiet <= 1 else "s") if lang == "fr" else ("y" if quiet == 1 else "ies"),
            t="" if seen == 1 else "s")))
    blocks = [entry for entry in view["board"] if entry["block"] is not None]
    if view.get("revealed") or viewer is None:
        groups = [(said["of"].format(side=names[p]), [e for e in blocks if e["block"]["owner"] == p])
                  for p in (0, 1)]
    else:
        groups = [(said[key], [e for e in blocks if (e["block"]["owner"] == viewer) == mine])
                  for key, mine in (("mine", True), ("theirs", False))]
    for title, chosen in groups:
        if not chosen:
            if view["phase"] != "setup":
                lines.append(Text(said["no_blocks"].format(title=title)))
            continue
        balls_of = ["".join(ball or "?" for ball in entry["block"]["balls"]) for entry in chosen]
        unknown = said["unknown"] if any("?" in balls for balls in balls_of) else ""
        head, tail = said["blocks"].split("{blocks}")
        text = Text(head.format(title=title, unknown=unknown))
        for index, (entry, balls) in enumerate(zip(chosen, balls_of, strict=True)):
            colour = entry["block"]["colour"]
            text.append(f"{', ' if index else ''}{entry['cell']}\u00a0")
            text.append(colour, style=STYLES[colour])
            text.append(f"\u00a0[{balls}]")
        text.append(tail)
        lines.append(text)
    return Group(*lines)
