"""Pylos's solver behind ``ludotheque solve pylos --variant V`` (``cli/solve.py`` finds it here, as
it would a solver any game's package ships): build the tables of perfect play, with progress.

Kids rules: every position's value and distance, in one pass (``engines/pylos/solver.py``).
Standard and advanced rules: a retrograde analysis by passes of distance, draws where cycles
leave a position unproven (``engines/pylos/solve_cycles.py``); ``--balls`` makes small games.

The command says what the whole solve needs (entries, disk, memory) before it starts, then a line
after each checkpoint (every two minutes by default: layer, entries solved, speed, time left) and
the start's value at the end. Stopped at any point (Ctrl-C, a kill, the machine going down), it
starts again from its last checkpoint when run again with the same folder. ``--plan`` only says
what the solve needs and how far it got. The tables go to ``solved/pylos-kids`` in the user's
data folder (``$XDG_DATA_HOME/ludotheque``), or ``--folder``; the ``perfect`` level reads them
from there.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer

from ...cli.common import console, fail
from ...core.contract import Game
from .board import BALLS_PER_PLAYER
from .solve_cycles import CyclesProgress, CyclesSolver, CyclesTable
from .solver import STRETCH, KidsSolver, Plan, Progress, tables_dir

MESSAGES: dict[str, dict[str, str]] = {
    "only_pylos": {"fr": "seul Pylos se résout ici (pas {game})",
                   "en": "only Pylos can be solved here (not {game})"},
    "pass": {"fr": "passe {passes}, couche {layer} : {proved} positions prouvées dans cette passe, "
                   "{total} en tout ({percent:.2f} % des {entries})",
             "en": "pass {passes}, layer {layer}: {proved} positions proved in this pass, "
                   "{total} in all ({percent:.2f}% of {entries})"},
    "cycles_done": {
        "fr": "analyse finie en {passes} passes : {proved} positions gagnées ou perdues, {draws} nulles ; "
              "le premier joueur {outcome}",
        "en": "analysis finished in {passes} passes: {proved} positions won or lost, {draws} drawn; "
              "the first player {outcome}",
    },
    "draws": {"fr": "fait nulle", "en": "draws"},
    "in_plies": {"fr": "{outcome} en {plies} coups (demi-coups)", "en": "{outcome} in {plies} plies"},
    "plan": {
        "fr": "Pylos {variant} : {entries} positions (1 octet chacune) dans {folder}\n"
              "disque : {disk} ; mémoire : {memory} au plus (limites : 40 Go, 16 Gio)",
        "en": "Pylos {variant}: {entries} positions (1 byte each) in {folder}\n"
              "disk: {disk}; memory: {memory} at most (limits: 40 GB, 16 GiB)",
    },
    "resume": {"fr": "reprise : {solved} positions déjà résolues, couches finies : {layers}",
               "en": "resuming: {solved} positions already solved, layers done: {layers}"},
    "step": {"fr": "couche {layer} : {solved}/{entries} ({percent:.2f} %), {rate}/s, reste ~{left}",
             "en": "layer {layer}: {solved}/{entries} ({percent:.2f}%), {rate}/s, ~{left} left"},
    "done": {"fr": "résolu : le premier joueur {outcome} en {plies} coups (demi-coups) ; "
                   "{wins} positions gagnantes sur {solved}",
             "en": "solved: the first player {outcome} in {plies} plies; {wins} of {solved} "
                   "positions won by the player to move"},
    "win": {"fr": "gagne", "en": "wins"},
    "loss": {"fr": "perd", "en": "loses"},
    "stopped": {"fr": "arrêté : relancez la même commande pour reprendre",
                "en": "stopped: run the same command again to resume"},
}

def _say(key: str, lang: str, /, **values: object) -> str:
    words = MESSAGES[key]
    return words.get(lang, words["en"]).format(**values)


def _print(text: str) -> None:
    """One message, as is: no markup, no wrapping (a log keeps each line whole)."""
    console.print(text, markup=False, soft_wrap=True)


def _size(count: int) -> str:
    for unit in ("B", "KiB", "MiB", "GiB"):
        if count < 1024 or unit == "GiB":
            return f"{count:,.1f} {unit}" if unit != "B" else f"{count} B"
        count /= 1024  # type: ignore[assignment]
    return str(count)


def _duration(seconds: float) -> str:
    minutes = int(seconds // 60)
    return f"{minutes // 60}h{minutes % 60:02d}" if minutes >= 60 else f"{minutes} min"


def run(game: Game, *, folder: Path | None, threads: int, balls: int | None, checkpoint: float,
        stretch: int | None, plan_only: bool, words: str) -> None:
    """Solve ``game``'s positions (every Pylos rule set): resumable tables in ``folder`` (default:
    the data folder's); ``balls`` a player (``None``: 15, by the rules; fewer: a small game)."""
    balls = BALLS_PER_PLAYER if balls is None else balls
    stretch = STRETCH if stretch is None else stretch
    if not 1 <= balls <= BALLS_PER_PLAYER:
        fail(f"--balls: 1 to {BALLS_PER_PLAYER}", words)
    where = folder if folder is not None else tables_dir(game.variant)
    if game.variant != "kids":
        _solve_cycles(game.variant, where, balls, threads, checkpoint, stretch, plan_only, words)
        return
    try:
        solver = KidsSolver(where, balls=balls, threads=threads, checkpoint_s=checkpoint,
                            stretch=stretch)
        before = solver.progress()
    except ValueError as error:
        fail(str(error), words)
    plan = solver.plan()
    _announce(plan, before, where, words)
    if plan_only:
        return
    began, solved_before = time.monotonic(), before.solved

    def report(progress: Progress, solved: int, total: int) -> None:
        rate = (solved - solved_before) / max(1e-9, time.monotonic() - began)
        _print(_say("step", words, layer=progress.layer if progress.layer is not None
                           else min(progress.done), solved=f"{solved:,}", entries=f"{total:,}",
                           percent=100 * solved / total, rate=f"{rate:,.0f}",
                           left=_duration((total - solved) / rate) if rate else "?"))

    try:
        progress = solver.run(report)
    except RuntimeError as error:
        fail(str(error), words)
    except KeyboardInterrupt:
        _print(_say("stopped", words))
        raise typer.Exit(130) from None
    if progress.start is not None:
        _print(_say("done", words, outcome=_say("win" if progress.start.wins else "loss", words),
                           plies=progress.start.distance, wins=f"{progress.wins:,}",
                           solved=f"{progress.solved:,}"))


def _solve_cycles(variant: str, where: Path, balls: int, threads: int, checkpoint: float,
                  stretch: int, plan_only: bool, words: str) -> None:
    """The retrograde analysis of the standard or advanced rules (cycles: draws by repetition)."""
    try:
        solver = CyclesSolver(where, variant, balls=balls, threads=threads, checkpoint_s=checkpoint,
                              stretch=stretch)
        before = solver.progress()
    except ValueError as error:
        fail(str(error), words)
    plan = solver.plan()
    _print(_say("plan", words, variant=variant, entries=f"{plan.entries:,}", folder=where,
                disk=_size(plan.disk_bytes), memory=_size(plan.memory_bytes)))
    if plan_only:
        if before.proved:
            _print(_say("pass", words, passes=before.passes, layer=before.layer,
                        proved=f"{before.proved_in_pass:,}", total=f"{before.proved:,}",
                        percent=100 * before.proved / plan.entries, entries=f"{plan.entries:,}"))
        return

    def report(progress: CyclesProgress, entries: int) -> None:
        _print(_say("pass", words, passes=progress.passes, layer=progress.layer,
                    proved=f"{progress.proved_in_pass:,}", total=f"{progress.proved:,}",
                    percent=100 * progress.proved / entries, entries=f"{entries:,}"))

    try:
        progress = solver.run(report)
    except RuntimeError as error:
        fail(str(error), words)
    except KeyboardInterrupt:
        _print(_say("stopped", words))
        raise typer.Exit(130) from None
    start = CyclesTable(where, variant).probe(0, 0, 0)
    outcome = (_say("draws", words) if start is None else _say(
        "in_plies", words, outcome=_say("win" if start.wins else "loss", words), plies=start.distance))
    _print(_say("cycles_done", words, passes=progress.passes, proved=f"{progress.proved:,}",
                draws=f"{plan.entries - progress.proved:,}", outcome=outcome))


def _announce(plan: Plan, progress: Progress, where: Path, words: str) -> None:
    _print(_say("plan", words, variant="kids", entries=f"{plan.entries:,}", folder=where,
                       disk=_size(plan.disk_bytes), memory=_size(plan.memory_bytes)))
    if progress.solved or progress.done:
        _print(_say("resume", words, solved=f"{progress.solved:,}",
                           layers=", ".join(map(str, sorted(progress.done))) or "-"))
