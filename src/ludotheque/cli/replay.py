"""``ludotheque replay FILE``: step through a saved game, forward and back."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape

from .. import i18n
from ..core import RecordError
from ..core import replay as replay_record
from ..core.records import Record
from .boards import board_module
from .common import LangOption, console, fail, language


def replay(
    path: Annotated[Path, typer.Argument(metavar="FILE", help="A game record saved by play or the web.")],
    to_end: Annotated[
        bool, typer.Option("--to-end", help="Show only the final position and the moves.")
    ] = False,
    lang: LangOption = None,
) -> None:
    """Replay FILE move by move: Enter or n for the next move, p for the previous, q to quit."""
    words = language(lang)
    try:
        record = Record.read(path)
        states = replay_record(record)
    except RecordError as error:
        fail(str(error))
    board = board_module(record.game)
    total = len(record.moves)
    console.print(escape(f"{record.game} ({record.variant}, {record.players}) — {' '.join(record.moves)}"))
    ply = total if to_end else 0
    while True:
        console.print(board.render(states[ply].view(None), lang=words))
        if ply == 0:
            console.print(escape(i18n.text("replay_start", words, total=total)))
        else:
            console.print(escape(i18n.text("replay_position", words, ply=ply, total=total,
                                           move=record.moves[ply - 1])))
        if to_end:
            break
        console.print(escape(i18n.text("replay_help", words)))
        try:
            answer = console.input("> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            break
        if answer in ("q", "quit", "quitter"):
            break
        ply = _next_ply(answer, ply, total)
    if record.result is not None:
        winners = ", ".join(map(str, record.result.winners)) or i18n.text("draw", words)
        console.print(escape(f"{record.result.reason}: {winners} {list(record.result.scores)}"))


def _next_ply(answer: str, ply: int, total: int) -> int:
    """The ply that a replay command leads to, kept within the game."""
    if answer in ("", "n", "next", "suivant"):
        return min(total, ply + 1)
    if answer in ("p", "prev", "previous", "précédent"):
        return max(0, ply - 1)
    command, _, number = answer.partition(" ")
    if command == "g" and number.strip().isdigit():
        return max(0, min(total, int(number)))
    return ply
