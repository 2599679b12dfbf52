"""``ludotheque solve GAME --variant V``: the tables of perfect play of a game whose package ships
a solver (its ``solve_command`` module, with ``run(game, *, folder, threads, balls, checkpoint,
stretch, plan_only, words)``: Pylos's, for every rule set; docs/solving.md).

The solver says what the whole solve needs (entries, disk, memory) before it starts, then a line
after each checkpoint, and the start's value at the end; stopped at any point, it resumes from its
last checkpoint when run again with the same folder. ``--plan`` only says what the solve needs and
how far it got. The tables go under the user's data folder (``$XDG_DATA_HOME/ludotheque/solved``),
or ``--folder``; the ``perfect`` level reads them from there.
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType
from typing import Annotated

import typer

from ..core import info
from .common import GameArgument, LangOption, VariantOption, fail, language, load_game

SOLVER_MODULE = "solve_command"
NO_SOLVER = {"fr": "{game} n'a pas de solveur", "en": "{game} ships no solver"}

FolderOption = Annotated[Path | None, typer.Option(
    "--folder", help="Where the tables go (default: solved/<game>-<variant> in the data folder).")]
ThreadsOption = Annotated[int, typer.Option("--threads", min=1, help="Threads solving at once.")]
BallsOption = Annotated[int | None, typer.Option(
    "--balls", min=1, help="Pieces a player (default: the rules'; fewer: a small game of the same "
                           "rules, for tests).")]
CheckpointOption = Annotated[float, typer.Option(
    "--checkpoint", min=0.0, help="Seconds between checkpoints (resumable from each).")]
StretchOption = Annotated[int | None, typer.Option(
    "--stretch", min=1, help="Entries a thread solves at a time (checkpoints fall between).")]
PlanOption = Annotated[bool, typer.Option("--plan", help="Only say what the solve needs and how far it got.")]
PROOF_ONLY = {"fr": "--seconds, --nodes et --memory vont avec --proof",
              "en": "--seconds, --nodes and --memory go with --proof"}
ProofOption = Annotated[bool, typer.Option(
    "--proof", help="A proof search of the start over the tables built so far (rule sets whose "
                    "tables are built by passes), resumable.")]
SecondsOption = Annotated[float | None, typer.Option(
    "--seconds", min=0.0, help="With --proof: stop after this many seconds (run again to go on).")]
NodesOption = Annotated[int | None, typer.Option(
    "--nodes", min=1, help="With --proof: stop after this many nodes (run again to go on).")]
MemoryOption = Annotated[int | None, typer.Option(
    "--memory", min=1, help="With --proof: the transposition table's memory in MiB (default 1,280).")]


def solver_of(game_id: str) -> ModuleType | None:
    """The solver the package of ``game_id`` ships, if any."""
    name = f"{info(game_id).package_name}.{SOLVER_MODULE}"
    try:
        found = importlib.util.find_spec(name)
    except (ImportError, ValueError):
        found = None
    return importlib.import_module(name) if found is not None else None


def solve(
    game_id: GameArgument,
    variant: VariantOption = None,
    folder: FolderOption = None,
    threads: ThreadsOption = 1,
    balls: BallsOption = None,
    checkpoint: CheckpointOption = 120.0,
    stretch: StretchOption = None,
    plan_only: PlanOption = False,
    proof: ProofOption = False,
    seconds: SecondsOption = None,
    nodes: NodesOption = None,
    memory: MemoryOption = None,
    lang: LangOption = None,
) -> None:
    """Solve GAME's positions for perfect play: resumable tables (a game that ships a solver)."""
    words = language(lang)
    game = load_game(game_id, variant, None, words)
    solver = solver_of(game.id)
    if solver is None:
        fail(NO_SOLVER.get(words, NO_SOLVER["en"]).format(game=game.id), words)
    if not proof and (seconds, nodes, memory) != (None, None, None):
        fail(PROOF_ONLY.get(words, PROOF_ONLY["en"]), words)
    # Only a solver with a proof search takes its options.
    searching = {"proof": True, "seconds": seconds, "nodes": nodes, "memory_mib": memory} if proof else {}
    solver.run(game, folder=folder, threads=threads, balls=balls, checkpoint=checkpoint, stretch=stretch,
               plan_only=plan_only, words=words, **searching)
