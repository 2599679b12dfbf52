"""``ludotheque analyse RECORD`` through the real ``ludotheque`` program."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludotheque.cli.main import app
from ludotheque.core.records import Record

from .games import finished

runner = CliRunner()


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("records") / "pylos.json"
    finished("pylos", 1).save(path)
    return path


def test_table_and_summary(saved: Path, tmp_path: Path) -> None:
    plot = tmp_path / "eval.png"
    result = runner.invoke(app, ["analyse", str(saved), "--lang", "en", "--budget", "0.05",
                                 "--plot", str(plot)])
    assert result.exit_code == 0, result.output
    assert "Summary per player" in result.output and "average loss" in result.output
    assert "inaccuracy" in result.output and "blunder" in result.output
    assert plot.read_bytes()[:4] == b"\x89PNG"
    moves = Record.read(saved).moves
    assert moves[0] in result.output


def test_french(saved: Path) -> None:
    result = runner.invoke(app, ["analyse", str(saved), "--lang", "fr", "--budget", "0.05"])
    assert result.exit_code == 0, result.output
    assert "Résumé par joueur" in result.output and "gaffe" in result.output
    assert "imprécision" in result.output and "perte moyenne" in result.output


def test_json_and_seat(saved: Path) -> None:
    result = runner.invoke(app, ["analyse", str(saved), "--json", "--as", "1", "--budget", "0.05"])
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    assert data["perspective"] == 1 and data["game"] == "pylos"
    assert all(p["analysed"] == (p["mover"] == 1) for p in data["plies"])
    assert data["summary"]["1"]["moves"] > 0


def test_a_game_not_over_is_a_clear_error(tmp_path: Path) -> None:
    record = finished("pylos", 1)
    path = tmp_path / "running.json"
    Record.start(record.load_game(), seed=1).with_moves(record.moves[:4]).save(path)
    result = runner.invoke(app, ["analyse", str(path), "--lang", "en"])
    assert result.exit_code == 1
    assert "ludotheque analyse:" in result.output
    assert "the game is not over (4 moves)" in result.output


def test_bad_options(saved: Path, tmp_path: Path) -> None:
    result = runner.invoke(app, ["analyse", str(saved), "--as", "7", "--lang", "en"])
    assert result.exit_code == 1 and "--as 7" in result.output
    result = runner.invoke(app, ["analyse", str(tmp_path / "missing.json"), "--lang", "en"])
    assert result.exit_code == 1 and "cannot read" in result.output
