"""The retrograde analysis of the standard and advanced rules (cycles, draws by repetition) on
small games (4 balls a player), checked against bounded searches over the plain engine; its
resume; the command; the ``perfect`` level on its tables."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import ludotheque
from ludotheque import ai
from ludotheque.cli.main import app
from ludotheque.engines.pylos import rules
from ludotheque.engines.pylos.perfect import PerfectBot, position_value
from ludotheque.engines.pylos.solve_cycles import ALL_COLOURINGS, CyclesSolver, CyclesTable, child_shapes

from .plain import loses_within, wins_within

DRAW_HORIZON = 7  # a draw: no forced end within this many plies, for either player


@pytest.fixture(scope="module", params=["standard", "advanced"])
def solved(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> CyclesTable:
    variant = request.param
    folder = tmp_path_factory.mktemp(variant)
    progress = CyclesSolver(folder, variant, balls=4).run()
    assert progress.finished and progress.by_pass[-1] == 0
    return CyclesTable(folder, variant)


def test_values_agree_with_bounded_plain_searches(
        solved: CyclesTable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", 4)
    game, rng = ludotheque.load("pylos", variant=solved.progress.variant), random.Random(1)
    memo: dict[tuple[int, int, int, int, bool], bool] = {}
    kinds = {"win": 0, "loss": 0, "draw": 0}
    while sum(kinds.values()) < 150:
        state = game.new_state()
        for _ in range(rng.randrange(0, 12)):
            if not state.is_over:
                state = state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            continue
        value = solved.probe(state.balls(0), state.balls(1), state.to_move)  # type: ignore[arg-type]
        if value is None:
            assert solved.is_draw(state.balls(0), state.balls(1), state.to_move)  # type: ignore[arg-type]
            assert not wins_within(state, DRAW_HORIZON, memo)
            assert not loses_within(state, DRAW_HORIZON, memo)
            kinds["draw"] += 1
        elif value.wins:
            assert wins_within(state, value.distance, memo)
            assert not wins_within(state, value.distance - 2, memo)
            kinds["win"] += 1
        else:
            assert loses_within(state, value.distance, memo)
            assert not loses_within(state, value.distance - 2, memo)
            kinds["loss"] += 1
    assert kinds["win"] and kinds["loss"]
    assert solved.probe(0, 0, 0) is not None and not solved.probe(0, 0, 0).wins  # type: ignore[union-attr]


def test_a_stopped_analysis_resumes_to_the_same_table(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    CyclesSolver(whole, "standard", balls=4).run()
    solver = CyclesSolver(cut, "standard", balls=4, stretch=3_000, checkpoint_s=0.0)
    stopped = solver.run(max_stretches=150)
    assert not stopped.finished and stopped.passes > 0
    # A kill after the checkpoint leaves entries of this pass proven past it: the resumed pass
    # skips them, and must still count them (or an empty-looking pass would end it too soon).
    n = stopped.layer
    reached = int(solver.base[n]) + stopped.slot * int(solver.index.colourings[n]) + stopped.rank
    done = np.fromfile(whole / "entries.u8", dtype=np.uint8)
    table = np.memmap(cut / "entries.u8", dtype=np.uint8, mode="r+")
    later = np.flatnonzero(done[reached:] == stopped.passes + 1) + reached
    table[later] = done[later]
    table.flush()
    del table
    resumed = CyclesSolver(cut, "standard", balls=4, stretch=3_000).run()
    assert resumed.finished and resumed.by_pass == CyclesSolver(whole, "standard", balls=4).progress().by_pass
    assert (cut / "entries.u8").read_bytes() == (whole / "entries.u8").read_bytes()


def test_the_command_runs_the_analysis_and_says_the_draws(tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["solve", "pylos", "-v", "advanced", "--balls", "3", "--checkpoint", "0",
                                      "--lang", "en", "--folder", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert "disk:" in result.output and "pass 1, layer" in result.output
    assert "analysis finished in" in result.output and "the first player loses in 6 plies" in result.output
    refused = CliRunner().invoke(app, ["solve", "pylos", "-v", "standard", "--balls", "3", "--lang", "en",
                                       "--lang", "en", "--folder", str(tmp_path)])
    assert refused.exit_code == 1 and "holds the advanced rules with 3 balls" in refused.output


def test_perfect_plays_the_analysis(solved: CyclesTable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", 4)
    game, rng = ludotheque.load("pylos", variant=solved.progress.variant), random.Random(5)
    played = {"win": 0, "draw": 0}
    while played["win"] < 6 or played["draw"] < 1:
        state = game.new_state()
        for _ in range(rng.randrange(0, 10)):
            if not state.is_over:
                state = state.play(rng.choice(state.legal_moves()))
        value = position_value(state, solved)
        if value is None or not (value.wins or value.draw):
            continue
        perfect = PerfectBot(game, fallback=ai.bot("easy", game), table=solved, rng=random.Random(1))
        said = perfect.analyse(state)
        assert said.algorithm == "perfect" and said.value == value.score
        if value.draw:
            played["draw"] += 1
            continue
        other, mover, plies = ai.bot("medium", game, seed=2), state.to_move, 0
        while not state.is_over:
            state = state.play((perfect if state.to_move == mover else other).choose(state))
            plies += 1
        assert state.result().winners == (mover,) and plies == value.plies
        played["win"] += 1


@pytest.mark.parametrize("variant", ["standard", "advanced"])
def test_the_child_shapes_hold_every_real_move(variant: str) -> None:
    """A pass skips colourings on the boards a shape's moves may lead to: that set must hold the
    board after every legal move of every colouring (here those of random 15-ball games)."""
    game, rng, moves = ludotheque.load("pylos", variant=variant), random.Random(2), 0
    for _ in range(25):
        state = game.new_state()
        while not state.is_over:
            occupied = state.balls(0) | state.balls(1)  # type: ignore[attr-defined]
            boards = child_shapes(occupied, variant)
            for move in state.legal_moves():
                child = state.play(move)
                if not (child.is_over and child.result().reason == "top"):
                    assert child.balls(0) | child.balls(1) in boards  # type: ignore[attr-defined]
                    moves += 1
            state = state.play(rng.choice(state.legal_moves()))
    assert moves > 10_000


def test_skipping_colourings_changes_no_entry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    skipping = CyclesSolver(tmp_path / "skip", "advanced", balls=4)
    done = skipping.run()
    table = np.memmap(tmp_path / "skip" / "entries.u8", dtype=np.uint8, mode="r")
    index = skipping.index
    groups = sum(len(index.layers[n]) * (min(4, n) - max(0, n - 4) + 1) for n in range(index.top_layer + 1))
    looked = [sum(bin(int(m)).count("1") for m in skipping.wanted(d, table)) for d in range(2, 6)]
    assert min(looked) > 0 and max(looked) < groups / 2  # (shape, own balls) groups: most skipped
    monkeypatch.setattr(CyclesSolver, "wanted", lambda self, d, table: np.full(
        int(self.firsts[-1]), ALL_COLOURINGS, dtype=np.int64))
    whole = CyclesSolver(tmp_path / "whole", "advanced", balls=4).run()
    assert whole.by_pass == done.by_pass
    assert (tmp_path / "skip" / "entries.u8").read_bytes() == (tmp_path / "whole" / "entries.u8").read_bytes()
