"""``ludotheque arena``: a round robin between bots, with pair scores and Elo ratings.

The command is a thin layer over :func:`ludotheque.ai.arena.run_arena`: it parses options, shows a
Rich progress bar on stderr and prints the tables (or ``--json``) on stdout.

>>> MESSAGES["fr"]["ratings"]
'Classement Elo (intervalle à 95 %)'
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn
from rich.table import Table

from .. import i18n
from ..ai.arena import ArenaReport, Outcome, run_arena
from ..ai.levels import BOT_NAMES, canonical_level, level_label
from ..ai.remote import LOCAL, RayError
from .common import fail, language, load_game, print_table

RAY_HELP = (
    "Play on Ray: a local Ray with --jobs CPUs, or the cluster of --ray-address (extra "
    "'distributed') / jouer sur Ray : un Ray local de --jobs processeurs, ou la grappe de --ray-address"
)
RAY_ADDRESS_HELP = (
    "Address of a Ray cluster: ray://host:10001, host:6379 or auto; implies --ray / adresse d'une "
    "grappe Ray : ray://hôte:10001, hôte:6379 ou auto ; implique --ray"
)

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
        "unknown_bot": "unknown bot {bot}; choose among {bots}",
        "distinct": "the arena needs two or more distinct bots",
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
        "unknown_bot": "robot inconnu {bot} ; choisissez parmi {bots}",
        "distinct": "le tournoi demande au moins deux robots différents",
    },
}


def arena(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game: {games} / le jeu")],
    bots: Annotated[str, typer.Option(help=(
        "Bots, comma-separated: levels, the fixed baselines uct10k and uct100k, or a level on the plain "
        "engine (hard-plain) / robots, séparés par des virgules : niveaux, références fixes uct10k et "
        "uct100k, ou un niveau sur le moteur simple (hard-plain)"))]
    = "random,easy,medium,hard",
    games: Annotated[int, typer.Option(min=1, help="Games per pair / parties par paire")] = 20,
    players: Annotated[int | None, typer.Option(help="Number of players / nombre de joueurs")] = None,
    variant: Annotated[str | None, typer.Option(help="Variant / variante")] = None,
    jobs: Annotated[int, typer.Option(min=1, help=(
        "Processes, or CPUs of a local Ray / processus, ou processeurs d'un Ray local"))] = 2,
    ray: Annotated[bool, typer.Option("--ray", help=RAY_HELP)] = False,
    ray_address: Annotated[str | None, typer.Option(help=RAY_ADDRESS_HELP)] = None,
    resume: Annotated[bool, typer.Option(help="Continue from --out / reprendre depuis --out")] = False,
    out: Annotated[Path, typer.Option(help="Output folder / dossier des résultats")] = Path("out/arena"),
    seed: Annotated[int, typer.Option(help="Seed of the schedule / graine du calendrier")] = 0,
    json_output: Annotated[bool, typer.Option("--json", help="Print JSON / afficher du JSON")] = False,
    lang: Annotated[str | None, typer.Option(help="fr or en / fr ou en")] = None,
) -> None:
    """Play a round robin between bots and rate them (Elo with 95% intervals).

    Tournoi toutes rondes entre robots, avec classement Elo et intervalles à 95 %.
    """
    chosen = language(lang)
    words = MESSAGES[chosen]
    errors = Console(stderr=True)
    names = _bot_names(bots, words, chosen)
    load_game(game, variant, players, chosen)
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
                ray=ray_target(ray, ray_address),
            )
    except RayError as error:
        fail(error.text(chosen), chosen, command="arena")
    except ValueError as error:
        fail(str(error), chosen, command="arena")
    if json_output:
        typer.echo(json.dumps(report.to_json(), indent=2, ensure_ascii=False))
        return
    show_report(report, words, Console(), chosen)
    errors.print(words["saved"].format(out=out), markup=False, highlight=False)


def ray_target(ray: bool, address: str | None) -> str | None:
    """What ``run_arena`` and ``run_selfplay`` take as ``ray``: ``None`` (no Ray), ``"local"``
    or the address.

    >>> ray_target(False, None), ray_target(True, None), ray_target(False, "auto")
    (None, 'local', 'auto')
    """
    if address:
        return address
    return LOCAL if ray else None


def _bot_names(bots: str, words: dict[str, str], lang: str) -> list[str]:
    """The canonical names of ``bots`` (French names accepted); exits with one line on an
    unknown or repeated bot."""
    names = []
    for name in (name.strip() for name in bots.split(",") if name.strip()):
        try:
            names.append(canonical_level(name))
        except ValueError:
            choices = ", ".join(level_label(bot, lang) for bot in BOT_NAMES)
            fail(words["unknown_bot"].format(bot=i18n.quote(name, lang), bots=choices), lang, command="arena")
    if len(set(names)) < 2 or len(set(names)) != len(names):
        fail(words["distinct"], lang, command="arena")
    return names


def show_report(report: ArenaReport, words: dict[str, str], console: Console, lang: str = "en") -> None:
    """The pair table and the ratings table, numbers as ``lang`` writes them (a decimal comma in
    French), negative ones with a minus sign (U+2212); an interval with no bound is open on that
    side: ``[+83, +∞)``."""
    def name(bot: str) -> str:
        return level_label(bot, lang)

    pairs = Table(title=words["pairs"])
    for column in ("pair", "games", "wdl", "score", "interval"):
        pairs.add_column(words[column])
    for p in report.pairs:
        bounds = (" ; " if lang == "fr" else ", ").join(i18n.number(b, 3, lang) for b in (p.low, p.high))
        pairs.add_row(f"{name(p.first)} – {name(p.second)}", str(p.games), f"{p.wins}-{p.draws}-{p.losses}",
                      i18n.number(p.score, 3, lang), f"[{bounds}]")
    print_table(console, pairs)
    ratings = Table(title=words["ratings"])
    for column in ("bot", "elo", "interval", "games"):
        ratings.add_column(words[column])
    for r in report.ratings:
        ratings.add_row(name(r.name), i18n.signed(r.elo, digits=0, lang=lang),
                        i18n.interval(r.low, r.high, digits=0, lang=lang), str(r.games))
    print_table(console, ratings)
