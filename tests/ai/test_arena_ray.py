"""The arena and self-play on a real local Ray give the games they give here, seed for seed.

One Ray (2 CPUs) serves the whole module; starting one takes several seconds.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from ludotheque.ai.arena import GAMES_FILE, run_arena, run_selfplay
from ludotheque.ai.remote import RayExecutor
from ludotheque.cli.arena import arena
from ludotheque.cli.selfplay import selfplay
from ludotheque.core.records import Record, replay

pytest.importorskip("ray")


@pytest.fixture(scope="module")
def local_ray() -> Iterator[RayExecutor]:
    """Keeps this process's local Ray up between tests (the runs below join it)."""
    with RayExecutor("local", num_cpus=2) as executor:
        yield executor


def command(function: Any) -> typer.Typer:
    app = typer.Typer()
    app.command()(function)
    return app


def saved_games(folder: Path) -> list[dict[str, Any]]:
    """games.jsonl by index, without the times (the only thing that may differ)."""
    games = [json.loads(line) for line in (folder / GAMES_FILE).read_text().splitlines()]
    return sorted(({k: v for k, v in g.items() if k != "seconds"} for g in games),
                  key=lambda g: g["index"])


def test_the_arena_on_ray_plays_the_local_games(local_ray: RayExecutor, tmp_path: Path) -> None:
    bots = ["random", "easy", "medium"]
    here = run_arena("pylos", bots, games=2, seed=11, jobs=1, out=tmp_path / "here")
    there = run_arena("pylos", bots, games=2, seed=11, jobs=2, out=tmp_path / "ray", ray="local")
    assert len(saved_games(tmp_path / "here")) == 6
    assert saved_games(tmp_path / "ray") == saved_games(tmp_path / "here")
    assert there.pairs == here.pairs and there.ratings == here.ratings
    for name in ("pairs.csv", "ratings.csv", "summary.json"):
        assert (tmp_path / "ray" / name).read_text() == (tmp_path / "here" / name).read_text()


def test_the_arena_command_resumes_a_local_run_on_ray(local_ray: RayExecutor, tmp_path: Path) -> None:
    arguments = ["pylos", "--bots", "random,easy", "--seed", "4", "--jobs", "1", "--lang", "en"]
    full = run_arena("pylos", ["random", "easy"], games=4, seed=4, out=tmp_path / "full")
    first = CliRunner().invoke(command(arena), [*arguments, "--games", "2", "--out", str(tmp_path / "cut")])
    assert first.exit_code == 0, first.output
    cut = tmp_path / "cut" / GAMES_FILE
    cut.write_text(cut.read_text() + '{"index": 3, "sea')  # a line cut short by an interruption
    second = CliRunner().invoke(command(arena), [*arguments, "--games", "4", "--out", str(tmp_path / "cut"),
                                                 "--resume", "--ray", "--json"])
    assert second.exit_code == 0, second.output
    assert json.loads(second.stdout)["games"] == 4
    assert saved_games(tmp_path / "cut") == saved_games(tmp_path / "full")
    assert len(full.outcomes) == 4


def without_times(path: Path) -> list[dict[str, Any]]:
    """The self-play lines by index, without seconds and the records' start and end times."""
    games = []
    for line in path.read_text().splitlines():
        game = json.loads(line)
        del game["seconds"], game["record"]["started"], game["record"]["ended"]
        games.append(game)
    return sorted(games, key=lambda g: g["index"])


def test_selfplay_on_ray_records_the_local_games(local_ray: RayExecutor, tmp_path: Path) -> None:
    here = run_selfplay("pylos", "easy", games=4, seed=3, out=tmp_path / "here.jsonl")
    run_selfplay("pylos", "facile", games=4, seed=3, out=tmp_path / "ray.jsonl", ray="local")
    assert without_times(tmp_path / "ray.jsonl") == without_times(tmp_path / "here.jsonl")
    assert len({tuple(game.record.moves) for game in here}) == 4, "each game has its own seed"
    for line in (tmp_path / "ray.jsonl").read_text().splitlines():
        game = json.loads(line)
        record = Record.from_json(game["record"])
        assert record.game == "pylos" and record.seed == game["seed"]
        final = replay(record)[-1]
        assert final.is_over and final.result() == record.result
        assert game["winners"] == list(final.result().winners) and game["plies"] == len(record.moves)


def test_the_selfplay_command_on_ray_resumes_and_matches_a_local_run(
    local_ray: RayExecutor, tmp_path: Path
) -> None:
    local = tmp_path / "local.jsonl"
    run_selfplay("plimil", "easy", games=3, seed=5, out=local, jobs=2)
    out = tmp_path / "cut.jsonl"
    arguments = ["plimil", "--level", "easy", "--seed", "5", "--out", str(out), "--lang", "fr"]
    first = CliRunner().invoke(command(selfplay), [*arguments, "--games", "1", "--jobs", "1"])
    assert first.exit_code == 0, first.output
    out.write_text(out.read_text() + '{"index": 2, "se')  # a line cut short by an interruption
    second = CliRunner().invoke(command(selfplay), [*arguments, "--games", "3", "--resume", "--ray"])
    assert second.exit_code == 0, second.output
    assert "3 parties dans" in second.output and "pour la place 0" in second.output
    assert without_times(out) == without_times(local)
    other = CliRunner().invoke(command(selfplay), [*arguments, "--games", "3", "--resume", "--seed", "6"])
    assert other.exit_code == 1 and "another self-play" in other.output


def test_without_ray_installed_the_commands_name_the_extra(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what ``import ray`` meets without the extra
    result = CliRunner().invoke(command(arena), ["pylos", "--bots", "random,easy", "--games", "1",
                                                 "--out", str(tmp_path), "--ray", "--lang", "fr"])
    assert result.exit_code == 1
    assert "Ray n'est pas installé" in result.output and "ludotheque[distributed]" in result.output
    result = CliRunner().invoke(command(selfplay), ["pylos", "--games", "1", "--out", str(tmp_path / "s"),
                                                    "--ray-address", "auto", "--lang", "en"])
    assert result.exit_code == 1 and "Traceback" not in result.output
    assert "Ray is not installed: install the 'distributed' extra" in result.output
