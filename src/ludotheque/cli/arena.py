"""``ludotheque arena``: a round robin between bots, with pair scores and Elo ratings.

The command is a thin layer over :func:`ludotheque.ai.arena.run_arena`: it parses options, shows a
Rich progress bar on stderr and prints the tables (or ``--json``) on stdout.

>>> MESSAGES["fr"]["ratings"]
'Classement Elo (intervalle à 95 %)'
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from ..ai.arena import ArenaReport, Outcome, run_arena

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "playing": "Playing {game}",
        "pairs": "Pair scores (win 1, draw ½; 95% interval)",
        "ratings": "Elo ratings (95% interval)",
        "pair": "Pair",
        "games": "Games",
        "wdl": "W-D-L",
        "score": "Score",
        "interval": "95% interval",
        "bot": "Bot",
        "elo": "Elo",
        "saved": "Results written to {out}",
        "error": "error: {reason}",
    },
    "fr": {
        "playing": "Parties de {game}",
        "pairs": "Scores par paire (victoire 1, nulle ½ ; intervalle à 95 %)",
        "ratings": "Classement Elo (intervalle à 95 %)",
        "pair": "Paire",
        "games": "Parties",
        "wdl": "V-N-D",
        "score": "Score",
        "interval": "Intervalle à 95 %",
        "bot": "Robot",
        "elo": "Elo",
        "saved": "Résultats écrits dans {out}",
        "error": "erreur : {reason}",
    },
}


def default_language() -> str:
    """``fr`` when ``LANG`` says French, else ``en``."""
    return "fr" if os.environ.get("LANG", "").lower().startswith("fr") else "en"


def arena(
    game: Annotated[str, typer.Argument(help="Game id, e.g. pylos / identifiant du jeu")],
    bots: Annotated[str, typer.Option(help="Bots, comma-separated / robots, séparés par des virgules")]
    = "random,easy,medium,hard",
    games: Annotated[int, typer.Option(min=1, help="Games per pair / parties par paire")] = 20,
    players: Annotated[int | None, typer.Option(help="Number of players / nombre de joueurs")] = None,
    variant: Annotated[str | None, typer.Option(help="Variant / variante")] = None,
    jobs: Annotated[int, typer.Option(min=1, help="Processes / processus")] = 2,
    resume: Annotated[bool, typer.Option(help="Continue from --out / reprendre depuis --out")] = False,
    out: Annotated[Path, typer.Option(help="Output folder / dossier des résultats")] = Path("out/arena"),
    seed: Annotated[int, typer.Option(help="Seed of the schedule / graine du calendrier")] = 0,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON / afficher du JSON")] = False,
    lang: Annotated[str | None, typer.Option(help="fr or en / fr ou en")] = None,
) -> None:
    """Play a round robin between bots and rate them (Elo with 95% intervals).

    Tournoi toutes rondes entre robots, avec classement Elo et intervalles à 95 %.
    """
    words = MESSAGES.get(lang or default_language(), MESSAGES["en"])
    names = [name.strip() for name in bots.split(",") if name.strip()]
    errors = Console(stderr=True)
    try:
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=errors, transient=True,
        ) as bar:
            task = bar.add_task(words["playing"].format(game=game), total=None)

            def advance(outcome: Outcome, done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            report = run_arena(
                game, names, games=games, players=players, variant=variant, jobs=jobs,
                out=out, resume=resume, seed=seed, on_result=advance,
            )
    except ValueError as error:
        errors.print(words["error"].format(reason=error), markup=False, highlight=False)
        raise typer.Exit(1) from None
    if json_output:
        typer.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return
    show_report(report, words, Console())
    errors.print(words["saved"].format(out=out), markup=False, highlight=False)


def show_report(report: ArenaReport, words: dict[str, str], console: Console) -> None:
    """The pair table and the ratings table."""
    pairs = Table(title=words["pairs"])
    for column in ("pair", "games", "wdl", "score", "interval"):
        pairs.add_column(words[column])
    for p in report.pairs:
        pairs.add_row(f"{p.first} – {p.second}", str(p.games), f"{p.wins}-{p.draws}-{p.losses}",
                      f"{p.score:.3f}", f"[{p.low:.3f}, {p.high:.3f}]")
    console.print(pairs)
    ratings = Table(title=words["ratings"])
    for column in ("bot", "elo", "interval", "games"):
        ratings.add_column(words[column])
    for r in report.ratings:
        ratings.add_row(r.name, f"{r.elo:+.0f}", f"[{r.low:+.0f}, {r.high:+.0f}]", str(r.games))
    console.print(ratings)
