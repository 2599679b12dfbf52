"""``ludotheque analyse RECORD``: the analysis of a finished game, ply by ply.

A Rich progress bar while the kernel searches, then a table (ply, player, move, evaluation from
the side to move, best move found, loss, mark) and a summary per player (marks counted, average
loss); ``--json`` prints the analysis as JSON instead, ``--plot FILE`` draws the evaluation chart
into a PNG file, ``--as SEAT|spectator`` chooses whose knowledge the analysis uses (hidden
information; ``docs/analysis.md``).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from ..analysis import MARK_SYMBOLS, SPECTATOR, Analysis, Budget, Perspective, budget_for, mark_word
from ..analysis import analyse as analyse_game
from ..core import RecordError
from ..core.records import Record
from ..solved import words_of
from .common import LangOption, console, errors, fail, language, print_table

MESSAGES: dict[str, dict[str, str]] = {
    "not_over": {
        "fr": "{path} : la partie n'est pas finie ({moves} coups) ; seule une partie finie s'analyse",
        "en": "{path}: the game is not over ({moves} moves); only a finished game can be analysed",
    },
    "bad_as": {
        "fr": "--as {value} : un siège de 0 à {last}, ou spectator",
        "en": "--as {value}: a seat from 0 to {last}, or spectator",
    },
    "bad_budget": {
        "fr": "--budget {value} : un facteur entre 0 (exclu) et 100",
        "en": "--budget {value}: a factor above 0, at most 100",
    },
    "analysing": {"fr": "Analyse de {game}", "en": "Analysing {game}"},
    "title": {"fr": "{game} : analyse ({engine})", "en": "{game}: analysis ({engine})"},
    "ply": {"fr": "coup", "en": "ply"},
    "player": {"fr": "joueur", "en": "player"},
    "move": {"fr": "coup joué", "en": "move"},
    "eval": {"fr": "éval.", "en": "eval"},
    "best": {"fr": "meilleur", "en": "best"},
    "line": {"fr": "suite", "en": "line"},
    "loss": {"fr": "perte", "en": "loss"},
    "mark": {"fr": "note", "en": "mark"},
    "exact": {"fr": "valeur exacte", "en": "exact value"},
    "summary": {"fr": "Résumé par joueur", "en": "Summary per player"},
    "moves": {"fr": "coups", "en": "moves"},
    "average_loss": {"fr": "perte moyenne", "en": "average loss"},
    "plot": {"fr": "graphique écrit dans {path}", "en": "chart written to {path}"},
    "plot_failed": {"fr": "impossible d'écrire {path} : {reason}", "en": "cannot write {path}: {reason}"},
    "not_analysed": {"fr": "—", "en": "—"},
}


def say(key: str, lang: str, /, **values: object) -> str:
    return MESSAGES[key][lang].format(**values)


def perspective_of(value: str | None, players: int, lang: str) -> Perspective:
    """``--as``'s value: ``None``, ``"spectator"`` (``spectateur`` too) or a seat."""
    if value is None:
        return None
    text = value.strip().lower()
    if text in (SPECTATOR, "spectateur"):
        return "spectator"
    if text.isascii() and text.isdigit() and int(text) < players:
        return int(text)
    fail(say("bad_as", lang, value=value, last=players - 1), lang)


def analyse(
    path: Annotated[
        Path, typer.Argument(metavar="RECORD", help="A finished game's record (play, web export).")
    ],
    plot: Annotated[
        Path | None, typer.Option("--plot", metavar="FILE", help="Draw the evaluation chart into FILE (PNG).")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the analysis as JSON.")] = False,
    seat: Annotated[
        str | None,
        typer.Option("--as", metavar="SEAT|spectator",
                     help="Whose knowledge: a seat (its moves only, by what it knew) or spectator "
                          "(every secret of the finished game). Default: each move by its mover's."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="Seed of the searches.")] = 0,
    scale: Annotated[
        float, typer.Option("--budget", metavar="FACTOR",
                            help="The game's search budget times FACTOR (deeper above 1, quicker below).")
    ] = 1.0,
    lang: LangOption = None,
) -> None:
    """Analyse a finished game: each ply's evaluation, best move, loss and mark, and a summary."""
    words = language(lang)
    try:
        record = Record.read(path)
    except RecordError as error:
        fail(str(error), words)
    if record.result is None:
        fail(say("not_over", words, path=str(path), moves=len(record.moves)), words)
    perspective = perspective_of(seat, record.players, words)
    if not 0 < scale <= 100:
        fail(say("bad_budget", words, value=scale), words)
    budget = budget_for(record.game).scaled(scale)
    try:
        if as_json:
            analysis = analyse_game(record, perspective=perspective, seed=seed, budget=budget)
        else:
            analysis = _with_progress(record, perspective, seed, budget, words)
    except (RecordError, ValueError) as error:
        fail(str(error), words)
    if plot is not None:
        try:
            analysis.png(plot, words)
        except OSError as error:
            fail(say("plot_failed", words, path=str(plot), reason=error.strerror or str(error)), words)
    if as_json:
        typer.echo(json.dumps(analysis.to_json(), ensure_ascii=False))
    else:
        show(analysis, words)
    if plot is not None:
        errors.print(escape(say("plot", words, path=str(plot))))


def _with_progress(record: Record, perspective: Perspective, seed: int, budget: Budget,
                   lang: str) -> Analysis:
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=errors, transient=True) as bar:
        task = bar.add_task(escape(say("analysing", lang, game=record.game)), total=None)

        def told(done: int, total: int) -> None:
            bar.update(task, completed=done, total=total)

        return analyse_game(record, perspective=perspective, seed=seed, budget=budget, progress=told)


def show(analysis: Analysis, lang: str) -> None:
    """The table of plies and the summary per player."""
    table = Table(title=escape(say("title", lang, game=analysis.game, engine=analysis.engine)))
    # Where the game is solved here, the move played's exact value ("wins in 12") too.
    exact = any(entry.exact_played for entry in analysis.plies)
    for key in ("ply", "player", "move", "eval", "best", "loss", "mark", "line", "exact")[:9 if exact else 8]:
        right = key in ("ply", "player", "eval", "loss")
        table.add_column(say(key, lang), justify="right" if right else "left")
    for entry in analysis.plies:
        value = [words_of(entry.exact_played, lang)] if exact else []
        if not entry.analysed:
            dash = say("not_analysed", lang)
            table.add_row(str(entry.ply + 1), str(entry.mover), escape(entry.move), dash, dash, dash, "", "",
                          *value)
            continue
        mark = f"{MARK_SYMBOLS[entry.mark]} {mark_word(entry.mark, lang)}" if entry.mark else ""
        line = " ".join(entry.line) if entry.mark else ""
        table.add_row(str(entry.ply + 1), str(entry.mover), escape(entry.move), f"{entry.value:+.2f}",
                      escape(entry.best or ""), f"{entry.loss:.2f}", mark, escape(line), *value)
    print_table(console, table)
    summary = Table(title=say("summary", lang))
    summary.add_column(say("player", lang), justify="right")
    summary.add_column(say("moves", lang), justify="right")
    for name in ("inaccuracy", "mistake", "blunder"):
        summary.add_column(mark_word(name, lang), justify="right")
    summary.add_column(say("average_loss", lang), justify="right")
    for player, row in analysis.summary().items():
        if not row["moves"]:
            continue
        summary.add_row(str(player), str(int(row["moves"])), str(int(row["inaccuracy"])),
                        str(int(row["mistake"])), str(int(row["blunder"])), f"{row['average_loss']:.3f}")
    print_table(console, summary)

