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

``--proof`` (standard and advanced rules): a proof search of the start over the analysis done so
far (``engines/pylos/solve_proof.py``), for ``--seconds`` or ``--nodes`` at most, with a
transposition table of ``--memory`` MiB; it says its memory and disk first, shows a progress bar,
checkpoints like the analysis and resumes where it stopped.
"""

from __future__ import annotations

import time
from pathlib import Path

import typer
from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
from rich.progress import Progress as RichProgress

from ...cli.common import console, fail
from ...core.contract import Game
from .board import BALLS_PER_PLAYER
from .solve_cycles import CyclesProgress, CyclesSolver, CyclesTable
from .solve_proof import ENTRY_BYTES, ProofProgress, ProofSearch, entries_for
from .solver import DISK_LIMIT, MEMORY_LIMIT, STRETCH, KidsSolver, Plan, Progress, tables_dir

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
    "proof_kids": {"fr": "--proof : les règles enfants sont résolues entièrement, sans recherche de preuve",
                   "en": "--proof: the kids rules are solved whole, without a proof search"},
    "proof_plan": {
        "fr": "preuve du départ, Pylos {variant} : table de transposition de {slots} entrées ; "
              "mémoire : {memory} au plus ; disque : {disk} au plus, dans {folder} "
              "(limites : 40 Go, 16 Gio)\nanalyse rétrograde lue : {analysis}",
        "en": "proof of the start, Pylos {variant}: transposition table of {slots} entries; "
              "memory: {memory} at most; disk: {disk} at most, in {folder} "
              "(limits: 40 GB, 16 GiB)\nretrograde analysis read: {analysis}",
    },
    "no_analysis": {"fr": "aucune", "en": "none"},
    "analysis_state": {"fr": "{proved} positions prouvées, {passes} passes complètes{finished}",
                       "en": "{proved} positions proved, {passes} complete passes{finished}"},
    "finished": {"fr": " (finie : le reste est nul)", "en": " (finished: the rest are draws)"},
    "proof_resume": {"fr": "reprise : aucune fin à {depth} demi-coups ou moins, {nodes} nœuds, {time}",
                     "en": "resuming: no end within {depth} plies, {nodes} nodes, {time}"},
    "proof_step": {"fr": "profondeur {depth} : {nodes} nœuds, {rate}/s",
                   "en": "depth {depth}: {nodes} nodes, {rate}/s"},
    "proof_depth": {"fr": "aucune fin à {depth} demi-coups ou moins ({nodes} nœuds, {time})",
                    "en": "no end within {depth} plies ({nodes} nodes, {time})"},
    "proven": {"fr": "prouvé : le premier joueur {outcome} en {plies} demi-coups ({nodes} nœuds, {time})",
               "en": "proven: the first player {outcome} in {plies} plies ({nodes} nodes, {time})"},
    "proven_draw": {"fr": "prouvé : nulle (l'analyse finie ne donne de fin forcée à personne)",
                    "en": "proven: a draw (the finished analysis forces no end for either player)"},
    "unproven": {"fr": "pas encore prouvé : aucune fin à {depth} demi-coups ou moins ({nodes} nœuds, "
                       "{time}) ; relancez la même commande pour continuer",
                 "en": "not proven yet: no end within {depth} plies ({nodes} nodes, {time}); "
                       "run the same command again to go on"},
    "stopped": {"fr": "arrêté : relancez la même commande pour reprendre",
                "en": "stopped: run the same command again to resume"},
}

DEFAULT_PROOF_ENTRIES = 1 << 27
"""The proof's transposition table by default: 134 million entries, 1.25 GiB (``--memory``)."""


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


def _seconds(seconds: float) -> str:
    return f"{seconds:.1f} s" if seconds < 60 else _duration(seconds)


def _prove(variant: str, where: Path, balls: int, checkpoint: float, plan_only: bool, words: str,
           *, seconds: float | None, nodes: int | None, memory_mib: int | None) -> None:
    """The proof search of the start over the analysis of ``where`` (``solve_proof``): its
    needs first, a progress bar, then the value proven or how deep it got."""
    index_entries = CyclesSolver(where, variant, balls=balls).entries
    slots = (entries_for(memory_mib << 20) if memory_mib is not None
             else min(DEFAULT_PROOF_ENTRIES, entries_for(2 * index_entries * ENTRY_BYTES)))
    try:
        search = ProofSearch(where, variant, balls=balls, table_entries=slots,
                             checkpoint_s=checkpoint)
        before = search.progress()
    except ValueError as error:
        fail(str(error), words)
    if search.memory_bytes() > MEMORY_LIMIT or search.disk_bytes() > DISK_LIMIT:
        fail("pylos proof: the search would exceed 16 GiB of memory or 40 GB of disk", words)
    analysis = search.analysis
    done = None if analysis is None else analysis.progress
    state = _say("no_analysis", words) if done is None else _say(
        "analysis_state", words, proved=f"{done.proved:,}", passes=done.passes,
        finished=_say("finished", words) if done.finished else "")
    _print(_say("proof_plan", words, variant=variant, slots=f"{slots:,}", folder=search.home,
                memory=_size(search.memory_bytes()), disk=_size(search.disk_bytes()), analysis=state))
    if before.nodes and not before.proven:
        _print(_say("proof_resume", words, depth=before.depth, nodes=f"{before.nodes:,}",
                    time=_seconds(before.seconds)))
    if plan_only:
        return
    began, nodes_before = time.monotonic(), before.nodes
    with RichProgress(TextColumn("{task.description}"), BarColumn(), TimeElapsedColumn(),
                      console=console, transient=True) as bar:
        task = bar.add_task("", total=seconds)

        searched = [before.depth, before.nodes]

        def report(progress: ProofProgress, depth: int) -> None:
            rate = (progress.nodes - nodes_before) / max(1e-9, time.monotonic() - began)
            if progress.depth > searched[0] and progress.nodes > searched[1] and not progress.proven:
                # A line for each depth searched in full that cost anything, for a log.
                searched[:] = [progress.depth, progress.nodes]
                bar.console.print(_say("proof_depth", words, depth=progress.depth,
                                       nodes=f"{progress.nodes:,}", time=_seconds(progress.seconds)),
                                  markup=False, soft_wrap=True)
            bar.update(task, completed=time.monotonic() - began, description=_say(
                "proof_step", words, depth=depth, nodes=f"{progress.nodes:,}", rate=f"{rate:,.0f}"))

        try:
            progress = search.run(report, seconds=seconds, nodes=nodes)
        except KeyboardInterrupt:
            _print(_say("stopped", words))
            raise typer.Exit(130) from None
    spent = _seconds(progress.seconds)
    if progress.draw:
        _print(_say("proven_draw", words))
    elif progress.value is not None:
        _print(_say("proven", words, outcome=_say("win" if progress.value.wins else "loss", words),
                    plies=progress.value.distance, nodes=f"{progress.nodes:,}", time=spent))
    else:
        _print(_say("unproven", words, depth=progress.depth, nodes=f"{progress.nodes:,}", time=spent))


def run(game: Game, *, folder: Path | None, threads: int, balls: int | None, checkpoint: float,
        stretch: int | None, plan_only: bool, words: str, proof: bool = False,
        seconds: float | None = None, nodes: int | None = None,
        memory_mib: int | None = None) -> None:
    """Solve ``game``'s positions (every Pylos rule set): resumable tables in ``folder`` (default:
    the data folder's); ``balls`` a player (``None``: 15, by the rules; fewer: a small game).
    With ``proof`` (standard and advanced rules): the proof search of the start instead, over
    the analysis of that folder, for ``seconds`` or ``nodes`` at most, its transposition table
    in ``memory_mib`` MiB (``solve_proof``)."""
    balls = BALLS_PER_PLAYER if balls is None else balls
    stretch = STRETCH if stretch is None else stretch
    if not 1 <= balls <= BALLS_PER_PLAYER:
        fail(f"--balls: 1 to {BALLS_PER_PLAYER}", words)
    where = folder if folder is not None else tables_dir(game.variant)
    if proof:
        if game.variant == "kids":
            fail(_say("proof_kids", words), words)
        _prove(game.variant, where, balls, checkpoint, plan_only, words,
               seconds=seconds, nodes=nodes, memory_mib=memory_mib)
        return
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
