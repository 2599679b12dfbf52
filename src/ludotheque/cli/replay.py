"""``ludotheque replay FILE``: step through a saved game, forward and back.

A replay shows what a spectator of the game saw: no secret (a Plimil player's stems and balls) in
the move list or on the board, until the final position of a finished game, which shows every
secret as the game's end does in ``play``.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import ModuleType
from typing import Annotated, Any

import typer
from rich.markup import escape

from .. import i18n
from ..core import RecordError, State, info
from ..core import replay as replay_record
from ..core.records import Record
from .boards import board_module
from .common import LangOption, console, fail, language

NEXT = ("", "n", "next", "suivant", "s")
PREVIOUS = ("p", "prev", "previous", "précédent", "precedent")
GO_TO = ("g", "go", "aller")
QUIT = ("q", "quit", "quitter")


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
        fail(str(error), words)
    board = board_module(record.game)
    total = len(record.moves)
    facts = info(record.game)
    title = facts.title.get(words, record.game)
    variant = facts.variant_name(record.variant, words)
    over = record.result is not None
    shown = [_move_text(states, record.moves, index, over=over) for index in range(total)]
    header = " ".join(_spectator_moves(states, record.moves))
    console.print(escape(f"{title} ({variant}, {record.players}) — {header}"))
    ply = total if to_end else 0
    drawn = -1
    while True:
        if ply != drawn:
            last = shown[ply - 1] if ply else None
            console.print(board.render(_view(board, states, ply, over=over), lang=words, last_move=last))
            if ply == 0:
                console.print(escape(i18n.text("replay_start", words, total=total)))
            else:
                console.print(escape(i18n.text("replay_position", words, ply=ply, total=total, move=last)))
            drawn = ply
        if to_end:
            break
        console.print(escape(i18n.text("replay_help", words)))
        try:
            answer = console.input("> ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            break
        if answer in QUIT:
            break
        target = next_ply(answer, ply, total)
        if target is None:
            console.print(escape(i18n.text("replay_unknown", words, command=i18n.quote(answer, words))))
        else:
            ply = target
    if record.result is not None:
        outcome = board.outcome(states[-1].view(None), record.result.to_json(), lang=words)
        console.print(escape(i18n.text("replay_outcome", words, outcome=outcome)))


def _spectator_moves(states: list[State], moves: Sequence[str]) -> list[str]:
    """The move texts as a spectator knew them (secrets masked)."""
    return [_move_text(states, moves, index, over=False) for index in range(len(moves))]


def _move_text(states: list[State], moves: Sequence[str], index: int, *, over: bool) -> str:
    """Move ``index`` as the replay shows it: as a spectator knew it, except the last move of a
    finished game, shown beside the final position with every secret."""
    if over and index == len(moves) - 1:
        return moves[index]
    mover = states[index].to_move
    if mover is None:
        return moves[index]
    return states[index].game.mask_move_text(moves[index], mover, None)


def _view(board: ModuleType, states: list[State], ply: int, *, over: bool) -> dict[str, Any]:
    """What the replay shows of ``states[ply]``: a spectator's view, with every secret once the
    game is over (the record holds them all then)."""
    state = states[ply]
    final_view = getattr(board, "final_view", None)
    if over and ply == len(states) - 1 and final_view is not None and state.game.has_hidden_information:
        view: dict[str, Any] = final_view([state.view(p) for p in range(state.game.players)])
        return view
    return state.view(None)


def next_ply(answer: str, ply: int, total: int) -> int | None:
    """The ply that a replay command leads to, kept within the game; ``None`` for no command.

    >>> next_ply("", 3, 10), next_ply("p", 0, 10), next_ply("g 40", 3, 10), next_ply("x", 3, 10)
    (4, 0, 10, None)
    """
    if answer in NEXT:
        return min(total, ply + 1)
    if answer in PREVIOUS:
        return max(0, ply - 1)
    command, _, number = answer.partition(" ")
    if command in GO_TO and number.strip().isdecimal() and number.strip().isascii():
        return max(0, min(total, int(number)))
    return None
