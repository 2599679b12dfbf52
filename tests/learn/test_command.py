"""``ludotheque learn GAME``, typed as a person would (Typer's CliRunner, through the real
``ludotheque`` program)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from ludotheque import lessons

from .support import app, winning_line

runner = CliRunner()
APP = app()


def learn(tmp_path: Path, *args: str, input: str = "") -> tuple[int, str]:
    result = runner.invoke(APP, ["learn", *args], input=input, env={"XDG_DATA_HOME": str(tmp_path / "data")})
    return result.exit_code, result.output


def progress(tmp_path: Path) -> dict[str, list[str]]:
    data = json.loads((tmp_path / "data" / "ludotheque" / "progress.json").read_text("utf-8"))
    people: dict[str, dict[str, list[str]]] = data["people"]
    return people["local"]


def answers(game_id: str) -> list[str]:
    """A right answer for every step, then the moves of a game won against the final bot."""
    course = lessons.load_course(game_id)
    lines = []
    for step in course.steps[:-1]:
        _, state = lessons.rebuild(step)
        lines.append(lessons.right_moves(step, state)[0])
    lines.append("")  # Enter: start the game
    lines.extend(winning_line(course.steps[-1], levels=("easy",)))
    return lines


@pytest.mark.parametrize("game_id", ["pylos", "imbrication", "expion", "plimil"])
def test_a_course_is_completed_by_typing_the_answers(tmp_path: Path, game_id: str) -> None:
    course = lessons.load_course(game_id)
    code, out = learn(tmp_path, game_id, "--lang", "en", input="\n".join(answers(game_id)) + "\n")
    assert code == 0, out
    assert out.count("✓ Right") == len(course.steps) - 1
    assert course.steps[-1].right["en"] in out
    assert "Course finished" in out
    assert sorted(progress(tmp_path)[game_id]) == sorted(step.id for step in course.steps)
    code, out = learn(tmp_path, game_id, "--lang", "en")
    assert code == 0 and "You have finished this course" in out


COUNT = len(lessons.load_course("pylos").steps)


def test_wrong_answers_hints_and_french_commands(tmp_path: Path) -> None:
    course = lessons.load_course("pylos")
    first = course.steps[0]
    code, out = learn(tmp_path, "pylos", "--lang", "fr", input="1a1\nindice\nzz9\n1b2\ncoups\nquitter\n")
    assert code == 0, out
    assert f"Leçon 1/{COUNT} — Le plateau et la réserve" in out
    assert f"✗ Pas encore (1a1) : {first.wrong['fr']}" in " ".join(out.split())
    assert "Indice : Tapez par exemple 1b2." in out
    assert "Coup refusé" in out
    assert "✓ Juste (1b2)" in out
    assert "Coups légaux (11)" in out
    assert "vous reprendrez à la leçon 2" in out
    assert progress(tmp_path) == {"pylos": ["first-ball"]}


def test_it_resumes_where_the_person_left_and_reset_starts_over(tmp_path: Path) -> None:
    learn(tmp_path, "pylos", "--lang", "en", input="1b2\nquit\n")
    code, out = learn(tmp_path, "pylos", "--lang", "en", input="skip\nquit\n")
    assert f"Lesson 2/{COUNT} — Block a square" in out and f"Lesson 1/{COUNT}" not in out
    assert "Lesson skipped." in out and f"Lesson 3/{COUNT}" in out
    assert "resume at lesson 2" in out  # the step skipped is still to do
    code, out = learn(tmp_path, "pylos", "--lang", "en", "--step", "6", input="1d4-2a1\nquit\n")
    assert code == 0
    assert f"Lesson 6/{COUNT} — Raise a ball" in out and "✓ Right (1d4-2a1)" in out
    assert sorted(progress(tmp_path)["pylos"]) == ["first-ball", "raise"]
    _, out = learn(tmp_path, "pylos", "--lang", "en", "--reset", input="quit\n")
    assert "Progress cleared for pylos." in out and f"Lesson 1/{COUNT}" in out
    assert progress(tmp_path) == {}


def test_end_of_input_quits_and_errors_are_one_line(tmp_path: Path) -> None:
    code, out = learn(tmp_path, "expion", "--lang", "en")
    assert code == 0 and "Goodbye" in out
    code, out = learn(tmp_path, "chess", "--lang", "en")
    assert code == 1 and "unknown game 'chess'" in out
    code, out = learn(tmp_path, "pylos", "--lang", "en", "--step", "99")
    assert code == 1 and f"--step must be between 1 and {COUNT}" in out


def test_a_lost_final_game_is_not_counted(tmp_path: Path) -> None:
    # The last lesson: resign at once (the game loop's own command), and the step stays to do.
    code, out = learn(tmp_path, "pylos", "--lang", "en", "--step", str(COUNT), input="\nresign\nyes\n")
    assert code == 0, out
    assert "✗" in out and "again to replay" in out
    assert not (tmp_path / "data" / "ludotheque" / "progress.json").exists()


def test_a_game_without_lessons_says_so(tmp_path: Path) -> None:
    from ..extension.install import installed

    with installed(tmp_path / "site", "ludotheque_nim_learn"):
        code, out = learn(tmp_path, "nim", "--lang", "en")
    assert code == 1
    assert "ludotheque learn: nim: no lessons.json in its package" in " ".join(out.split())


def test_a_data_folder_that_cannot_be_written_is_said_and_the_lesson_goes_on(tmp_path: Path) -> None:
    (tmp_path / "data").write_text("a file where the folder should be", "utf-8")
    code, out = learn(tmp_path, "pylos", "--lang", "en", input="1b2\nquit\n")
    assert code == 0, out
    assert "✓ Right (1b2)" in out and "Progress not saved:" in out and f"Lesson 2/{COUNT}" in out
