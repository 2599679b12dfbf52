"""``ludotheque puzzle GAME``, typed as a person would (Typer's CliRunner, through the real
command): a puzzle solved raises the rating kept in the data folder, a wrong move lowers it and
shows the solution, commands and refused moves say so, a second try changes nothing."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from ludotheque import puzzles
from ludotheque.cli.main import app as APP

runner = CliRunner()


def run(tmp_path: Path, *args: str, input: str) -> str:
    result = runner.invoke(APP, ["puzzle", *args], input=input, env={"XDG_DATA_HOME": str(tmp_path / "data")})
    assert result.exit_code == 0, result.output
    return result.output


def saved(tmp_path: Path) -> dict[str, object]:
    path = tmp_path / "data" / "ludotheque" / "puzzle-ratings.json"
    data: dict[str, object] = json.loads(path.read_text("utf-8"))
    return data


def test_a_puzzle_solved_in_the_terminal_raises_the_rating(tmp_path: Path) -> None:
    puzzle = next(p for p in puzzles.load_puzzles("pylos").puzzles if puzzles.steps(p) > 1)
    moves = [puzzle.line[index] for index in puzzles.solver_plies(puzzle)]
    typed = "coups\nzz\n" + "\n".join(moves) + "\n"
    output = run(tmp_path, "pylos", "--id", puzzle.id, "--lang", "en", input=typed)
    assert f"Puzzle {puzzle.id}" in output and "Legal moves" in output and "Move refused" in output
    assert "✓ Right" in output and "✓ Solved" in output and "Rating: 1500 → " in output
    entry = saved(tmp_path)["games"]["pylos"]  # type: ignore[index]
    assert entry["tried"] == [puzzle.id] and entry["rating"]["rating"] > 1500
    assert entry["puzzles"][puzzle.id]["rating"] < puzzle.rating
    # Again: judged, not rated again.
    again = run(tmp_path, "pylos", "--id", puzzle.id, "--lang", "fr", input="\n".join(moves) + "\n")
    assert "Résolu" in again and "Classement :" not in again


def test_a_wrong_move_lowers_the_rating_and_shows_the_solution(tmp_path: Path) -> None:
    puzzle = puzzles.load_puzzles("pylos").puzzles[0]
    state = puzzles.position(puzzle)
    wrong = next(str(m) for m in state.legal_moves()
                 if str(m) != puzzle.line[0] and not state.play(m).is_over)
    output = run(tmp_path, "pylos", "--id", puzzle.id, "--lang", "en", input=f"{wrong}\n")
    assert f"✗ That is not it ({wrong})" in output and f"Solution: {' '.join(puzzle.line)}" in output
    entry = saved(tmp_path)["games"]["pylos"]  # type: ignore[index]
    assert entry["rating"]["rating"] < 1500


def test_the_loop_offers_the_next_puzzle_until_quit(tmp_path: Path) -> None:
    output = run(tmp_path, "pylos", "--lang", "en", input="skip\nquit\n")
    assert output.count("Puzzle pylos-") == 2 and "Puzzle skipped" in output
    assert len(saved(tmp_path)["games"]["pylos"]["tried"]) == 1  # type: ignore[index]
