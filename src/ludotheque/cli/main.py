"""The ``ludotheque`` command (also ``python -m ludotheque``)."""

from __future__ import annotations

from importlib import metadata
from typing import Annotated

import typer

from .. import __version__
from .arena import arena
from .bench import bench
from .games import games
from .play import play
from .replay import replay
from .rules import rules
from .serve import serve

app = typer.Typer(
    name="ludotheque",
    help="Ludothèque: Pylos, Imbrication, Ex*Pion and Plimil in the terminal, the browser and for bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def installed_version() -> str:
    """The installed distribution's version (the package's own when it runs uninstalled)."""
    try:
        return metadata.version("ludotheque")
    except metadata.PackageNotFoundError:
        return __version__


def show_version(asked: bool) -> None:
    if asked:
        typer.echo(f"ludotheque {installed_version()}")
        raise typer.Exit()


@app.callback()
def options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=show_version, is_eager=True,
                     help="Print the version and exit."),
    ] = False,
) -> None:
    """Ludothèque: Pylos, Imbrication, Ex*Pion and Plimil in the terminal, the browser and for bots."""


app.command(help="List the games with their variants and player counts.")(games)
app.command(help="Play a game in the terminal against people or computer opponents.")(play)
app.command(help="Step through a saved game record.")(replay)
app.command(help="Measure engine speed with uniformly random playouts.")(bench)
app.command(help="Show a game's rules (French or English).")(rules)
app.command(help="Round robin between bots: Elo ratings, results table, CSV/JSON and a chart.")(arena)
app.command(help="Run the web server: lobby, live and correspondence games, bots.")(serve)


def main() -> None:
    app()
