"""The kids solver on small games of the same rules (fewer balls a player), checked against an
independent exhaustive search over the plain engine; its index, its resume after an interruption
(in process, and a real kill of the command), and its command's plan and progress."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

import ludotheque
from ludotheque.cli.main import app
from ludotheque.engines.pylos import rules
from ludotheque.engines.pylos.solve_index import SYMMETRIES, kids_index, symmetry_tables, transform
from ludotheque.engines.pylos.solver import KidsSolver, KidsTable, read_progress

from .plain import plain_value


@pytest.fixture(scope="module")
def three(tmp_path_factory: pytest.TempPathFactory) -> KidsTable:
    """The whole game with 3 balls a player, solved."""
    folder = tmp_path_factory.mktemp("kids3")
    KidsSolver(folder, balls=3).run()
    return KidsTable(folder)


def _layer_bytes(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("layer-*.u8"))}


def test_every_entry_of_a_layer_is_one_colouring_of_one_canonical_shape() -> None:
    index = kids_index(3)
    for n in (3, 4, 5):
        seen = []
        for shape in index.layers[n].tolist():
            cells = [c for c in range(30) if shape >> c & 1]
            for pattern in range(1 << n):
                own = sum(1 << cells[j] for j in range(n) if pattern >> j & 1)
                if max(own.bit_count(), n - own.bit_count()) <= 3:
                    seen.append(index.locate(own, shape & ~own)[1])
        assert sorted(seen) == list(range(index.layer_entries(n)))


def test_images_under_the_symmetries_have_the_same_value(three: KidsTable) -> None:
    tables, rng = symmetry_tables(), random.Random(5)
    game = ludotheque.load("pylos", variant="kids")
    rules_balls = rules.BALLS_PER_PLAYER
    rules.BALLS_PER_PLAYER = 3
    try:
        for _ in range(40):
            state = game.new_state()
            for _ in range(rng.randrange(1, 5)):
                state = state.play(rng.choice(state.legal_moves()))
            if state.is_over:
                continue
            light, dark, mover = state.balls(0), state.balls(1), state.to_move
            values = {three.probe(transform(tables, s, light), transform(tables, s, dark), mover)
                      for s in range(SYMMETRIES)}
            assert len(values) == 1 and None not in values
    finally:
        rules.BALLS_PER_PLAYER = rules_balls


def test_every_position_of_games_of_3_balls_agrees_with_plain_search(
        three: KidsTable, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", 3)
    game = ludotheque.load("pylos", variant="kids")
    memo: dict[tuple[int, int, int], tuple[bool, int]] = {}
    start = game.new_state()
    assert plain_value(start, memo) == (False, 6)  # the first player loses, in 6 plies
    # The memo now holds every position reachable from the start: compare them all.
    assert len(memo) > 50_000
    for (light, dark, mover), (wins, plies) in memo.items():
        solved = three.probe(light, dark, mover)
        assert solved is not None and (solved.wins, solved.distance) == (wins, plies)


def test_random_positions_near_the_end_of_games_of_5_balls_agree(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    KidsSolver(tmp_path, balls=5).run()
    table = KidsTable(tmp_path)
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", 5)
    game, rng = ludotheque.load("pylos", variant="kids"), random.Random(11)
    memo: dict[tuple[int, int, int], tuple[bool, int]] = {}
    checked = 0
    while checked < 80:
        state = game.new_state()
        # Play at random until at most 4 balls are left in both reserves together.
        while not state.is_over and state.reserve(0) + state.reserve(1) > rng.choice((2, 3, 4)):
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            continue
        solved = table.probe(state.balls(0), state.balls(1), state.to_move)
        assert solved is not None and (solved.wins, solved.distance) == plain_value(state, memo)
        checked += 1


def test_an_interrupted_solve_resumes_to_the_same_tables(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    KidsSolver(whole, balls=4).run()
    solver = KidsSolver(cut, balls=4, stretch=2_000, checkpoint_s=0.0)
    stopped = solver.run(max_stretches=40)
    assert not stopped.finished and stopped.layer is not None and stopped.solved > 0
    # A kill after the checkpoint leaves half-written entries past it: they are solved again.
    layer = cut / f"layer-{stopped.layer:02d}.u8"
    data = np.memmap(layer, dtype=np.uint8, mode="r+")
    begin = stopped.slot * int(solver.index.colourings[stopped.layer]) + stopped.rank
    data[begin:begin + 500] = 77
    data.flush()
    del data
    resumed = KidsSolver(cut, balls=4, stretch=2_000).run()
    assert resumed.finished and resumed.solved == KidsSolver(whole, balls=4).plan().entries
    assert _layer_bytes(cut) == _layer_bytes(whole)
    assert resumed.start == read_progress(whole).start  # type: ignore[union-attr]


def test_the_command_killed_at_any_point_resumes(tmp_path: Path) -> None:
    whole, cut = tmp_path / "whole", tmp_path / "cut"
    KidsSolver(whole, balls=4).run()
    command = [sys.executable, "-m", "ludotheque", "solve", "pylos", "--variant", "kids",
               "--balls", "4", "--checkpoint", "0", "--stretch", "4000", "--folder", str(cut)]
    env = {**os.environ, "LANG": "en_US.UTF-8"}
    running = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        found = read_progress(cut) if (cut / "progress.json").exists() else None
        if found is not None and found.solved > 0:
            break
        time.sleep(0.02)
    running.send_signal(signal.SIGKILL)
    running.wait()
    killed = read_progress(cut)
    assert killed is not None and not killed.finished  # killed in the middle, not after the end
    again = subprocess.run(command, capture_output=True, text=True, env=env, timeout=60, check=True)
    assert "resuming:" in again.stdout and "solved: the first player loses in 8 plies" in again.stdout
    assert _layer_bytes(cut) == _layer_bytes(whole)


def test_the_command_says_disk_and_memory_first_then_its_progress(tmp_path: Path) -> None:
    runner = CliRunner()
    planned = runner.invoke(app, ["solve", "pylos", "--variant", "kids", "--plan", "--lang", "en",
                                  "--folder", str(tmp_path)])
    assert planned.exit_code == 0
    assert "2,257,858,569 positions" in planned.output and "disk: 2.1 GiB" in planned.output
    assert "memory: 503.1 MiB" in planned.output and not list(tmp_path.glob("layer-*"))
    done = runner.invoke(app, ["solve", "pylos", "-v", "kids", "--balls", "3", "--lang", "fr",
                               "--folder", str(tmp_path)])
    assert done.exit_code == 0, done.output
    assert "disque :" in done.output and "couche 0 :" in done.output
    assert "le premier joueur perd en 6 coups" in done.output
    progress = json.loads((tmp_path / "progress.json").read_text())
    assert progress["start"] == {"wins": False, "distance": 6} and 0 in progress["done"]


@pytest.mark.parametrize(("args", "says"), [
    (["pylos", "--variant", "giant"], "pylos: unknown variant 'giant'"),
    (["expion"], "expion ships no solver"),
])
def test_the_command_refuses_what_it_cannot_solve(args: list[str], says: str, tmp_path: Path) -> None:
    result = CliRunner().invoke(app, ["solve", *args, "--lang", "en", "--folder", str(tmp_path)])
    assert result.exit_code == 1 and says in result.output


def test_tables_of_another_size_are_refused(tmp_path: Path) -> None:
    KidsSolver(tmp_path, balls=2).run()
    with pytest.raises(ValueError, match="holds tables for 2 balls a player"):
        KidsSolver(tmp_path, balls=3).progress()
