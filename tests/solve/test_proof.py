"""The proof search of the standard and advanced rules (``solve_proof``) on small games (4 balls a
player): the values of the finished retrograde analysis, found by the search alone and over an
analysis stopped part way; no proof through a cycle (a draw is never proven won or lost); its
resume, in process and after a real kill of its command; its command; and an unfinished analysis as
the ``perfect`` level reads it (proven entries exact, the rest not known)."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import cast

import numpy as np
import pytest
import typer
from typer.testing import CliRunner

import ludotheque
from ludotheque import ai
from ludotheque.cli.main import app
from ludotheque.engines.pylos import rules, solve_command
from ludotheque.engines.pylos.perfect import FALLBACK_NOTE, PerfectBot, position_value
from ludotheque.engines.pylos.rules import PylosState
from ludotheque.engines.pylos.solve_cycles import CyclesSolver, CyclesTable
from ludotheque.engines.pylos.solve_proof import ProofProgress, ProofSearch

BALLS = 4
SLOTS = 1 << 20
DEEPEST = 14  # beyond the longest distance of a 4-ball game (8 plies): a draw is searched past it


@pytest.fixture(scope="module", params=["standard", "advanced"])
def finished(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> CyclesTable:
    """The whole analysis of the 4-ball game."""
    folder = tmp_path_factory.mktemp(f"whole-{request.param}")
    assert CyclesSolver(folder, request.param, balls=BALLS).run().finished
    return CyclesTable(folder, request.param)


@pytest.fixture(scope="module")
def stopped(finished: CyclesTable, tmp_path_factory: pytest.TempPathFactory) -> CyclesTable:
    """The same analysis stopped in its third pass (as a long run is, or killed)."""
    variant = finished.progress.variant
    folder = tmp_path_factory.mktemp(f"stopped-{variant}")
    solver = CyclesSolver(folder, variant, balls=BALLS, stretch=20_000, checkpoint_s=0.0)
    while solver.progress().passes < 2:
        solver.run(max_stretches=1)
    solver.run(max_stretches=3)
    table = CyclesTable(folder, variant)
    assert table.progress.passes == 2 and not table.progress.finished
    return table


def _positions(variant: str, count: int, seed: int) -> list[PylosState]:
    """Positions of random games (not over), from the start to a dozen plies in."""
    game, rng = ludotheque.load("pylos", variant=variant), random.Random(seed)
    found: list[PylosState] = []
    while len(found) < count:
        state = cast(PylosState, game.new_state())
        for _ in range(rng.randrange(0, 14)):
            if not state.is_over:
                state = state.play(rng.choice(state.legal_moves()))
        if not state.is_over:
            found.append(state)
    return found


def _where(state: PylosState) -> tuple[int, int, int]:
    assert state.to_move is not None
    return state.balls(0), state.balls(1), state.to_move


@pytest.fixture
def small(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plain engine with 4 balls a player, as the tables."""
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", BALLS)


@pytest.mark.usefixtures("small")
def test_the_search_alone_finds_the_values_of_the_analysis(finished: CyclesTable, tmp_path: Path) -> None:
    variant = finished.progress.variant
    search = ProofSearch(tmp_path, variant, balls=BALLS, table_entries=SLOTS)
    assert search.analysis is None
    kinds = {"win": 0, "loss": 0, "draw": 0}
    for state in _positions(variant, 120, seed=3):
        expected, found = finished.probe(*_where(state)), search.value(*_where(state), DEEPEST)
        assert found == expected
        if expected is None:  # a draw: no proof, whatever the cycles, at any depth searched
            assert finished.is_draw(*_where(state))
        kinds["draw" if expected is None else "win" if expected.wins else "loss"] += 1
    assert kinds["win"] > 10 and kinds["loss"] > 10
    assert search.value(0, 0, 0, DEEPEST) == finished.probe(0, 0, 0)
    assert finished.probe(0, 0, 0) is not None and finished.probe(0, 0, 0).distance == 8  # type: ignore[union-attr]


def test_no_drawn_position_is_proven_won_or_lost(finished: CyclesTable, tmp_path: Path) -> None:
    """The draws of the analysis (cycles: the rules' repetition) searched alone, beyond the
    longest distance of the game: none proven, though each has cycles to claim a win through."""
    search = ProofSearch(tmp_path, finished.progress.variant, balls=BALLS, table_entries=SLOTS)
    for own, opp in _drawn(finished, 40, seed=8):
        assert search.value(own, opp, 0, DEEPEST) is None


@pytest.mark.usefixtures("small")
def test_the_search_over_a_stopped_analysis_agrees_and_searches_less(
        finished: CyclesTable, stopped: CyclesTable, tmp_path: Path) -> None:
    variant = finished.progress.variant
    over = ProofSearch(stopped.folder, variant, balls=BALLS, table_entries=SLOTS, max_depth=DEEPEST)
    alone = ProofSearch(tmp_path, variant, balls=BALLS, table_entries=SLOTS, max_depth=DEEPEST)
    assert over.analysis is not None
    for state in _positions(variant, 60, seed=4):
        assert over.value(*_where(state), DEEPEST) == finished.probe(*_where(state))
    read = ProofSearch(stopped.folder, variant, balls=BALLS, table_entries=SLOTS).run()
    assert read.value == finished.probe(0, 0, 0) and not read.draw
    assert 0 < read.nodes < alone.run().nodes


@pytest.mark.usefixtures("small")
def test_an_unfinished_analysis_answers_exactly_what_it_proved(
        finished: CyclesTable, stopped: CyclesTable) -> None:
    whole, part = np.asarray(finished.table), np.asarray(stopped.table)
    proven = part != 0
    assert 0 < proven.sum() < (whole != 0).sum()
    assert np.array_equal(part[proven], whole[proven])  # a proven win or loss is final
    for state in _positions(finished.progress.variant, 300, seed=5):
        value = stopped.probe(*_where(state))
        assert value is None or value == finished.probe(*_where(state))
        assert not stopped.is_draw(*_where(state))  # unproven is not a draw until the end


@pytest.mark.usefixtures("small")
def test_perfect_plays_the_proven_part_and_hard_elsewhere(stopped: CyclesTable) -> None:
    variant = stopped.progress.variant
    game = ludotheque.load("pylos", variant=variant)
    said = {"perfect": 0, "fallback": 0}
    for state in _positions(variant, 200, seed=6):
        value = position_value(state, stopped)
        bot = PerfectBot(game, fallback=ai.bot("easy", game), table=stopped, rng=random.Random(1))
        analysis = bot.analyse(state)
        if value is not None and value.wins:
            assert analysis.algorithm == "perfect" and analysis.depth == value.plies
            child = state.play(analysis.best_move)  # the move keeps the proven value
            after = None if child.is_over else position_value(child, stopped)
            assert (child.is_over and value.plies == 1) or (
                after is not None and not after.wins and after.plies == value.plies - 1)
            said["perfect"] += 1
        elif value is None:
            assert analysis.algorithm is not None and FALLBACK_NOTE in analysis.algorithm
            said["fallback"] += 1
    assert said["perfect"] > 3 and said["fallback"] > 3


def _drawn(table: CyclesTable, count: int, seed: int) -> list[tuple[int, int]]:
    """``(own, opp)`` of ``count`` drawn entries of a finished analysis, at random."""
    drawn = np.flatnonzero(np.asarray(table.table) == 0)
    assert len(drawn) > 50  # 98 under the standard rules, 365 under the advanced ones
    found = []
    for number in random.Random(seed).sample(drawn.tolist(), count):
        n = int(np.searchsorted(table.base, number, side="right")) - 1
        found.append(table.index.position(n, number - table.base[n]))
    return found


def test_a_drawn_position_is_proven_drawn_only_by_a_finished_analysis(
        finished: CyclesTable, stopped: CyclesTable) -> None:
    variant = finished.progress.variant
    own, opp = _drawn(finished, 1, seed=9)[0]
    done = ProofSearch(finished.folder, variant, balls=BALLS, light=own, dark=opp,
                       table_entries=SLOTS).run()
    assert done.draw and done.value is None and done.depth >= 0
    unfinished = ProofSearch(stopped.folder, variant, balls=BALLS, light=own, dark=opp,
                             table_entries=SLOTS, max_depth=DEEPEST).run()
    assert not unfinished.proven and unfinished.depth == DEEPEST


def test_a_stopped_proof_resumes_where_it_stopped(tmp_path: Path) -> None:
    whole = ProofSearch(tmp_path / "whole", "standard", balls=BALLS, table_entries=SLOTS).run()
    first = ProofSearch(tmp_path, "standard", balls=BALLS, table_entries=SLOTS, checkpoint_s=0.0)
    cut = first.run(nodes=whole.nodes // 2, chunk=max(1, whole.nodes // 20))
    assert not cut.proven and cut.depth >= 0 and (first.home / "entries.npz").exists()
    depths: list[int] = []

    def report(progress: ProofProgress, depth: int) -> None:
        depths.append(depth)

    again = ProofSearch(tmp_path, "standard", balls=BALLS, table_entries=SLOTS)
    assert again.progress() == cut
    done = again.run(report)
    assert min(depths) > cut.depth and done.nodes > cut.nodes
    assert done.value is not None and (done.value.wins, done.value.distance) == (False, 8)
    assert done.value == whole.value and done.nodes < 1.5 * whole.nodes  # little work done twice
    assert ProofSearch(tmp_path, "standard", balls=BALLS).run() == done  # proven: nothing to do


def test_the_proof_command_killed_mid_search_resumes_to_the_same_value(tmp_path: Path) -> None:
    """5 balls a player (the start lost in 10 plies, about 300,000 nodes): killed (SIGKILL) just
    after its first checkpoint, the command started again goes on from there to the same value."""
    command = [sys.executable, "-m", "ludotheque", "solve", "pylos", "-v", "standard", "--balls", "5",
               "--folder", str(tmp_path), "--lang", "en", "--proof", "--checkpoint", "0"]
    progress = tmp_path / "proof-0-0-0" / "progress.json"
    running = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT,
                               env={**os.environ, "LANG": "en_US.UTF-8"})
    def searched() -> bool:  # the file is written whole, then renamed: never read half written
        return progress.exists() and json.loads(progress.read_text())["nodes"] > 0

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and not searched():
        time.sleep(0.005)
    running.send_signal(signal.SIGKILL)
    running.wait()
    killed = ProofProgress.from_json(json.loads(progress.read_text()))
    assert not killed.proven and killed.nodes > 0  # killed in the middle, not after the end
    again = subprocess.run(command, capture_output=True, text=True, timeout=120, check=True,
                           env={**os.environ, "LANG": "en_US.UTF-8"})
    assert f"resuming: no end within {killed.depth} plies" in again.stdout, again.stdout
    assert "proven: the first player loses in 10 plies" in again.stdout


def test_the_command_says_its_needs_then_the_value(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    game = ludotheque.load("pylos", variant="advanced")
    options = {"folder": tmp_path, "threads": 1, "balls": BALLS, "checkpoint": 0.0, "stretch": None,
               "words": "en", "proof": True}
    solve_command.run(game, plan_only=True, **options)  # type: ignore[arg-type]
    planned = capsys.readouterr().out
    assert "proof of the start, Pylos advanced" in planned and "memory:" in planned and "disk:" in planned
    assert "retrograde analysis read: none" in planned and not (tmp_path / "proof-0-0-0").exists()
    solve_command.run(game, plan_only=False, **options)  # type: ignore[arg-type]
    assert "proven: the first player loses in 8 plies" in capsys.readouterr().out
    with pytest.raises(typer.Exit):
        solve_command.run(ludotheque.load("pylos", variant="kids"), plan_only=False, **options)  # type: ignore[arg-type]
    assert "kids rules are solved whole" in capsys.readouterr().err


def test_the_cli_proves_the_start(tmp_path: Path) -> None:
    options = ["solve", "pylos", "-v", "standard", "--balls", str(BALLS), "--folder", str(tmp_path),
               "--lang", "en", "--proof"]
    planned = CliRunner().invoke(app, [*options, "--plan"])
    assert planned.exit_code == 0, planned.output
    assert "memory:" in planned.output and "disk:" in planned.output
    cut = CliRunner().invoke(app, [*options, "--nodes", "1", "--checkpoint", "0"])
    assert cut.exit_code == 0 and "not proven yet" in cut.output
    done = CliRunner().invoke(app, [*options, "--seconds", "60", "--memory", "16"])
    assert done.exit_code == 0, done.output
    assert "resuming: no end within" in done.output and "the first player loses in 8 plies" in done.output
    alone = CliRunner().invoke(app, [*options[:-1], "--seconds", "5"])
    assert alone.exit_code != 0 and "--seconds, --nodes and --memory go with --proof" in alone.output
