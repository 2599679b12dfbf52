"""The ``ludotheque`` command (also ``python -m ludotheque``)."""

from __future__ import annotations

from importlib import metadata
from typing import Annotated

import typer

from .. import __version__
from .analyse import analyse
from .arena import arena
from .bench import bench
from .common import RegistryCommand, RegistryGroup
from .games import games
from .learn import learn
from .operate import backup, doctor, moderator, restore
from .play import play
from .puzzle import puzzle
from .replay import replay
from .rules import rules
from .selfplay import selfplay
from .serve import serve
from .solve import solve

# The help texts name the registered games ({titles}, {games}: see ``common.with_games``).
HELP = "Ludothèque: {titles} in the terminal, the browser and for bots."

app = typer.Typer(
    name="ludotheque",
    cls=RegistryGroup,
    help=HELP,
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
    """Ludothèque in the terminal, the browser and for bots (the program's help is ``HELP``)."""


COMMANDS = (
    (games, "List the games with their variants and player counts: {titles}."),
    (play, "Play a game in the terminal against people or computer opponents."),
    (learn, "Learn a game step by step, from the setup to a first game won against the easy level."),
    (puzzle, "Solve puzzles: positions where one move wins, with a puzzle rating (Glicko-2)."),
    (replay, "Step through a saved game record."),
    (analyse, "Analyse a finished game: each ply's evaluation, best move, loss and mark (inaccuracy, "
              "mistake, blunder); --plot draws the chart."),
    (bench, "Measure engine speed with uniformly random playouts."),
    (rules, "Show a game's rules (French or English)."),
    (arena, "Round robin between bots: Elo ratings, results table, CSV/JSON and a chart."),
    (selfplay, "A bot against itself, every game saved as a record (JSON lines), for training and research."),
    (solve, "Solve a game for perfect play, where it ships a solver: tables by variant, resumable."),
    (serve, "Run the web server: lobby, live and correspondence games, bots."),
    (backup, "Back up the server's database while it runs: one moment's consistent copy."),
    (restore, "Restore a backup into an empty database (--force: over one)."),
    (moderator, "Grant a player the moderator role (--revoke: take it back): the moderation page, /admin."),
    (doctor, "Check a setup (database, migrations, Redis, SMTP, public URL, clock), one line each."),
)
for command, text in COMMANDS:
    app.command(cls=RegistryCommand, help=text)(command)


def main() -> None:
    app()
