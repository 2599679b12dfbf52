"""Helpers shared by the commands: consoles, language and game options, clean errors."""

from __future__ import annotations

from typing import Annotated, NoReturn

import typer
from rich.console import Console

from .. import i18n
from ..core import Game, load

console = Console(highlight=False)
errors = Console(stderr=True, highlight=False, soft_wrap=True)

LangOption = Annotated[
    str | None,
    typer.Option("--lang", help="Language of the messages: fr or en (default: from LANG)."),
]
VariantOption = Annotated[str | None, typer.Option("--variant", "-v", help="Rule set (variant).")]
PlayersOption = Annotated[int | None, typer.Option("--players", "-p", help="Number of players.")]
SeedOption = Annotated[int, typer.Option("--seed", help="Seed for every chance event and random choice.")]


def language(lang: str | None) -> str:
    """The language to speak: ``lang`` when given (validated), else from the environment."""
    if lang is None:
        return i18n.detect_language()
    if lang not in i18n.LANGUAGES:
        fail(f"unknown language {lang!r}: choose fr or en")
    return lang


def fail(message: str) -> NoReturn:
    """Print one clear line to stderr and exit with status 1 (no traceback)."""
    errors.print(f"[bold red]error:[/] {message}", markup=True, highlight=False)
    raise typer.Exit(1)


def load_game(game_id: str, variant: str | None, players: int | None) -> Game:
    try:
        return load(game_id, variant=variant, players=players)
    except ValueError as error:
        fail(str(error))
