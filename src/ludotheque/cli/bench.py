"""``ludotheque bench GAME``: random playouts/s, moves/s and mean game length."""

from __future__ import annotations

import json
from typing import Annotated

import typer
from rich.progress import Progress, TaskID
from rich.table import Table

from ..bench import BenchFigures, random_playouts
from ..core import info
from .common import PlayersOption, SeedOption, VariantOption, console, fail, load_game


def bench(
    game_id: Annotated[str, typer.Argument(metavar="GAME", help="pylos, imbrication, expion or plimil.")],
    variant: VariantOption = None,
    players: PlayersOption = None,
    seconds: Annotated[float, typer.Option("--seconds", help="Seconds per configuration.")] = 10.0,
    seed: SeedOption = 0,
    as_json: Annotated[bool, typer.Option("--json", help="Print the figures as JSON.")] = False,
) -> None:
    """Uniformly random playouts through the public contract, one thread, for every variant and
    player count of GAME (or only those given)."""
    try:
        facts = info(game_id)
    except ValueError as error:
        fail(str(error))
    if seconds <= 0:
        fail("--seconds must be positive")
    variants = [variant] if variant else list(facts.variants)
    counts = [players] if players else list(facts.player_counts)
    figures: list[BenchFigures] = []
    with Progress(console=console, transient=True, disable=as_json) as progress:
        for chosen_variant in variants:
            for count in counts:
                game = load_game(game_id, chosen_variant, count)
                task = progress.add_task(f"{game_id} {chosen_variant} {count}p", total=1.0)

                def advance(done: float, task: TaskID = task) -> None:
                    progress.update(task, completed=done)

                figures.append(random_playouts(game, seconds=seconds, seed=seed, progress=advance))
    if as_json:
        console.print_json(json.dumps([f.to_json() for f in figures]))
        return
    table = Table(title=f"{game_id}: random playouts, one thread")
    for column in ("variant", "players", "playouts", "playouts/s", "moves/s", "mean length"):
        table.add_column(column, justify="right")
    for f in figures:
        table.add_row(f.variant, str(f.players), str(f.playouts), f"{f.playouts_per_second:,.0f}",
                      f"{f.moves_per_second:,.0f}", f"{f.mean_length:.1f}")
    console.print(table)
