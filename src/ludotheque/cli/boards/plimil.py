"""Plimil in the terminal: the board as the reader knows it, from the reader's side.

Each cell shows the colour its block shows as a letter (``B`` blue, ``R`` red, ``N`` neutral,
``·`` no block; the colour only repeats the letter) and the stem's height (``S`` short, ``T``
tall, ``?`` unknown to the reader). Red reads the board with rank 8 at the bottom.

>>> _cell_text({"cell": "d4", "stem": None, "block": {"colour": "N"}}).plain
'N?'
"""

from __future__ import annotations

from typing import Any

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

FILES = "abcdefgh"
STYLES = {"B": "bold blue", "R": "bold red", "N": "bold yellow"}
NAMES = {"fr": ("Bleu", "Rouge"), "en": ("Blue", "Red")}
WORDS = {
    "fr": {
        "to_move": "au trait", "over": "partie finie", "setup": "préparation",
        "side": "vu du côté", "spectator": "spectateur", "turns": "quarts de tour",
        "blue": "bleus", "red": "rouges", "neutral": "neutres", "quiet": "coups sans changement",
        "repetitions": "répétitions", "mine": "mes blocs", "theirs": "blocs adverses",
        "hand": "billes en main", "legend": "B bleu · R rouge · N neutre · S petite · T grande · ? inconnue",
        "winner": "gagnant", "draw": "nulle",
    },
    "en": {
        "to_move": "to move", "over": "game over", "setup": "setup",
        "side": "seen from the side of", "spectator": "spectator", "turns": "quarter turns",
        "blue": "blue", "red": "red", "neutral": "neutral", "quiet": "plies without a change",
        "repetitions": "repetitions", "mine": "my blocks", "theirs": "opponent's blocks",
        "hand": "balls in hand", "legend": "B blue · R red · N neutral · S short · T tall · ? unknown",
        "winner": "winner", "draw": "draw",
    },
}


def _words(lang: str) -> dict[str, str]:
    return WORDS.get(lang, WORDS["en"])


def _cell_text(entry: dict[str, Any] | None) -> Text:
    if entry is None:
        return Text("  ")
    block = entry["block"]
    text = Text()
    if block is None:
        text.append("·", style="dim")
    else:
        text.append(block["colour"], style=STYLES[block["colour"]])
    text.append(entry["stem"] or "?", style="dim")
    return text


def render(view: dict[str, Any], *, lang: str) -> RenderableType:
    """The board of ``view`` (``State.view(player)``) with coordinates, then whose turn."""
    words = _words(lang)
    names = NAMES.get(lang, NAMES["en"])
    cells = {entry["cell"]: entry for entry in view["board"]}
    red_side = view["viewer"] == 1
    ranks = range(1, 9) if red_side else range(8, 0, -1)
    files = FILES[::-1] if red_side else FILES
    table = Table(show_header=True, box=None, pad_edge=False)
    table.add_column("", justify="right", style="dim")
    for file in files:
        table.add_column(file, justify="center")
    for rank in ranks:
        table.add_row(str(rank), *(_cell_text(cells.get(f"{file}{rank}")) for file in files))
    side = names[1] if red_side else names[0]
    header = Text(f"{words['side']} {side}", style="dim")
    if view["viewer"] is None:
        header.append(f" ({words['spectator']})", style="dim")
    header.append(f" — {words['turns']}: {view['rotation']}", style="dim")
    return Group(header, table, Text(words["legend"], style="dim"), _status(view, lang))


def _status(view: dict[str, Any], lang: str) -> Text:
    words = _words(lang)
    names = NAMES.get(lang, NAMES["en"])
    counts = view["counts"]
    status = Text()
    for key, letter in (("blue", "B"), ("red", "R"), ("neutral", "N")):
        status.append(f"{letter} {words[key]} {counts[key]}   ", style=STYLES[letter])
    result = view["result"]
    if result is not None:
        winners = result["winners"]
        outcome = f"{words['winner']}: {names[winners[0]]}" if winners else words["draw"]
        status.append(f"\n{words['over']} — {outcome} ({result['reason']})", style="bold")
    elif view["to_move"] is not None:
        phase = f" ({words['setup']})" if view["phase"] == "setup" else ""
        status.append(f"\n{words['to_move']}: {names[view['to_move']]}{phase}", style="bold")
    return status


def details(view: dict[str, Any], *, lang: str) -> RenderableType:
    """Counts, the draw counters, and what the reader knows of every block's balls."""
    words = _words(lang)
    draw = view["draw"]
    lines = [
        _status(view, lang),
        Text(f"{words['quiet']}: {draw['quiet_plies']}   {words['repetitions']}: {draw['repetitions']}"),
    ]
    viewer = view["viewer"]
    hand = view["hands"][viewer] if viewer is not None else None
    if hand is not None and view["phase"] == "setup":
        lines.append(Text(f"{words['hand']}: B {hand[0]}  R {hand[1]}  N {hand[2]}"))
    blocks = [entry for entry in view["board"] if entry["block"] is not None]
    for title, mine in ((words["mine"], True), (words["theirs"], False)):
        if viewer is None and mine:
            continue
        chosen = [e for e in blocks if (e["block"]["owner"] == viewer) == mine]
        text = Text(f"{title}: ")
        for entry in chosen:
            block = entry["block"]
            balls = "".join(ball or "?" for ball in block["balls"])
            text.append(f"{block['id']}→{entry['cell']} ")
            text.append(block["colour"], style=STYLES[block["colour"]])
            text.append(f"[{balls}]  ")
        lines.append(text)
    return Group(*lines)
