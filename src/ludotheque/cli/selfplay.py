"""``ludotheque selfplay``: a bot against itself, each game saved as a record, for training and
research.

A thin layer over :func:`ludotheque.ai.arena.run_selfplay`: options, a Rich progress bar on
stderr, a summary line. Each line of ``--out`` is one game: its index, seed, level, winners,
plies and seconds, and under ``record`` the game in the format ``ludotheque replay`` reads.

>>> summary([], Path("x.jsonl"), MESSAGES["fr"])
'0 parties dans x.jsonl — victoires : aucune ; nulles : 0'
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Annotated

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

from .. import i18n
from ..ai.arena import SelfPlayGame, run_selfplay
from ..ai.levels import BOT_NAMES, canonical_level, level_label
from ..ai.remote import RayError
from .arena import RAY_ADDRESS_HELP, RAY_HELP, ray_target
from .common import fail, language, load_game

MESSAGES: dict[str, dict[str, str]] = {
    "en": {
        "playing": "Self-play of {game} ({level})",
        "summary": "{games} games in {out} — wins: {wins}; draws: {draws}",
        "seat": "{wins} for seat {seat}",
        "none": "none",
        "unknown_level": "unknown bot {bot}; choose among {bots}",
    },
    "fr": {
        "playing": "Parties de {game} contre lui-même ({level})",
        "summary": "{games} parties dans {out} — victoires : {wins} ; nulles : {draws}",
        "seat": "{wins} pour la place {seat}",
        "none": "aucune",
        "unknown_level": "robot inconnu {bot} ; choisissez parmi {bots}",
    },
}


def selfplay(
    game: Annotated[str, typer.Argument(metavar="GAME", help="The game: {games} / le jeu")],
    level: Annotated[str, typer.Option(help=(
        "The bot on every seat: a level (easy, medium, hard; French names too) or another bot "
        "of the arena / le robot à chaque place : un niveau (facile, moyen, difficile) ou un autre "
        "robot du tournoi"))] = "hard",
    games: Annotated[int, typer.Option(min=1, help="Number of games / nombre de parties")] = 100,
    out: Annotated[Path, typer.Option(help=(
        "JSON lines file, one game record a line / fichier JSON lines, une partie par ligne"))]
    = Path("out/selfplay.jsonl"),
    players: Annotated[int | None, typer.Option(help="Number of players / nombre de joueurs")] = None,
    variant: Annotated[str | None, typer.Option(help="Variant / variante")] = None,
    seed: Annotated[int, typer.Option(help="Seed of the run / graine de la série")] = 0,
    jobs: Annotated[int, typer.Option(min=1, help=(
        "Processes, or CPUs of a local Ray / processus, ou processeurs d'un Ray local"))] = 2,
    ray: Annotated[bool, typer.Option("--ray", help=RAY_HELP)] = False,
    ray_address: Annotated[str | None, typer.Option(help=RAY_ADDRESS_HELP)] = None,
    resume: Annotated[bool, typer.Option(help=(
        "Keep the games already in --out, play the others / garder les parties déjà dans --out"))]
    = False,
    lang: Annotated[str | None, typer.Option(help="fr or en / fr ou en")] = None,
) -> None:
    """Play a bot against itself and save every game as a record (JSON lines).

    Un robot joue contre lui-même ; chaque partie est enregistrée (JSON lines).
    """
    chosen = language(lang)
    words = MESSAGES[chosen]
    errors = Console(stderr=True)
    load_game(game, variant, players, chosen)
    try:
        level = canonical_level(level)
    except ValueError:
        choices = ", ".join(level_label(bot, chosen) for bot in BOT_NAMES)
        reason = words["unknown_level"].format(bot=i18n.quote(level, chosen), bots=choices)
        fail(reason, chosen, command="selfplay")
    try:
        with Progress(
            TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
            TimeRemainingColumn(), console=errors, transient=True,
        ) as bar:
            task = bar.add_task(
                words["playing"].format(game=game, level=level_label(level, chosen)), total=games)

            def advance(played: SelfPlayGame, done: int, total: int) -> None:
                bar.update(task, completed=done, total=total)

            played = run_selfplay(
                game, level, games=games, out=out, players=players, variant=variant, seed=seed,
                jobs=jobs, resume=resume, ray=ray_target(ray, ray_address), on_result=advance,
            )
    except RayError as error:
        fail(error.text(chosen), chosen, command="selfplay")
    except ValueError as error:  # a bot that cannot play this game, a resume of another run
        fail(str(error), chosen, command="selfplay")
    errors.print(summary(played, out, words), markup=False, highlight=False)


def summary(played: list[SelfPlayGame], out: Path, words: dict[str, str]) -> str:
    """One line: how many games, where, the wins of each seat and the draws."""
    wins: Counter[int] = Counter()
    draws = 0
    for game in played:
        assert game.record.result is not None
        winners = game.record.result.winners
        wins.update(winners)
        draws += not winners
    text = ", ".join(words["seat"].format(seat=seat, wins=wins[seat]) for seat in sorted(wins))
    text = text or words["none"]
    return words["summary"].format(games=len(played), out=out, wins=text, draws=draws)

