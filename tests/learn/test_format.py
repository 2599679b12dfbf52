"""A lessons file that cannot be used gives one clear error naming the file and the step; a game
installed from another distribution brings its own course."""

from __future__ import annotations

import copy
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from ludotheque import lessons

from ..extension.install import installed


def pylos_data() -> dict[str, Any]:
    return copy.deepcopy(lessons.load_course("pylos").to_json())


def write(tmp_path: Path, data: Any) -> Path:
    path = tmp_path / "lessons.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), "utf-8")
    return path


def test_a_course_round_trips_through_its_json(tmp_path: Path) -> None:
    course = lessons.load_course("pylos")
    again = lessons.load_course("pylos", write(tmp_path, course.to_json()))
    assert again.steps == course.steps


def _broken(change: str) -> dict[str, Any]:
    data = pylos_data()
    second = data["steps"][1]
    if change == "no_french":
        del second["task"]["fr"]
    elif change == "unknown_rule":
        second["answer"] = {"rule": "checkmate"}
    elif change == "illegal_answer":
        second["answer"] = {"moves": ["4a1"]}
    elif change == "bad_position":
        second["position"]["moves"] = ["1a1", "1a1"]
    elif change == "duplicate_id":
        second["id"] = data["steps"][0]["id"]
    elif change == "no_game_at_the_end":
        data["steps"].pop()
    elif change == "unknown_key":
        second["answr"] = {}
    elif change == "rule_of_another_game":
        second["answer"] = {"rule": "pushes"}
    elif change == "unknown_bot":
        data["steps"][-1]["answer"]["opponent"] = "grandmaster"
    return data


@pytest.mark.parametrize(("change", "words"), [
    ("no_french", "step 2 (block-square): 'task' has no 'fr' text"),
    ("unknown_rule", "step 2 (block-square): unknown rule 'checkmate'"),
    ("illegal_answer", "step block-square: the accepted move '4a1' is not legal"),
    ("bad_position", "step block-square: the position does not replay: move 2 '1a1'"),
    ("duplicate_id", "step 2 (first-ball): the id 'first-ball' is used twice"),
    ("no_game_at_the_end", "the last step must be a game against a bot"),
    ("unknown_key", "step 2 (block-square): unknown key(s) answr"),
    ("rule_of_another_game", "step block-square: rule 'pushes' is not known for pylos"),
    ("unknown_bot", "step first-game: "),
])
def test_a_malformed_file_names_the_file_and_the_step(tmp_path: Path, change: str, words: str) -> None:
    path = write(tmp_path, _broken(change))
    with pytest.raises(lessons.LessonError) as raised:
        lessons.load_course("pylos", path)
    message = str(raised.value)
    assert message.startswith(f"{path}: "), message
    assert words in message, message


@pytest.mark.parametrize(("text", "words"), [
    ("{not json", "not JSON"),
    ("[]", "must hold an object"),
    ('{"format": 2, "game": "pylos", "steps": []}', "'format' must be 1"),
    ('{"format": 1, "game": "pylos", "steps": []}', "'steps' must be a non-empty list"),
])
def test_a_file_that_is_not_a_course(tmp_path: Path, text: str, words: str) -> None:
    with pytest.raises(lessons.LessonError, match=words):
        lessons.load_course("pylos", write(tmp_path, text))


def test_lessons_of_another_game_and_a_missing_file(tmp_path: Path) -> None:
    with pytest.raises(lessons.LessonError, match="lessons of 'pylos', not of 'expion'"):
        lessons.load_course("expion", write(tmp_path, pylos_data()))
    with pytest.raises(lessons.LessonError, match="cannot read"):
        lessons.load_course("pylos", tmp_path / "missing.json")


NIM_COURSE = {
    "format": 1,
    "game": "nim",
    "steps": [
        {
            "id": "last-heap",
            "title": {"fr": "Le dernier tas", "en": "The last heap"},
            "text": {"fr": "Qui prend la dernière allumette gagne.",
                     "en": "Whoever takes the last match wins."},
            "task": {"fr": "Gagnez en un coup.", "en": "Win in one move."},
            "position": {"game": "nim", "variant": "standard", "players": 2, "seed": 0,
                         "moves": ["a7", "c7"]},
            "answer": {"rule": "wins"},
            "right": {"fr": "Gagné.", "en": "Won."},
            "wrong": {"fr": "Prenez tout le tas b.", "en": "Take the whole heap b."},
        },
        {
            "id": "first-game",
            "title": {"fr": "Une partie", "en": "A game"},
            "text": {"fr": "Contre l'ordinateur.", "en": "Against the computer."},
            "task": {"fr": "Gagnez.", "en": "Win."},
            "position": {"game": "nim", "seed": 0, "moves": []},
            "answer": {"rule": "win_game", "opponent": "easy"},
            "right": {"fr": "Bravo.", "en": "Well done."},
            "wrong": {"fr": "Perdu.", "en": "Lost."},
        },
    ],
}


@pytest.fixture
def nim(tmp_path: Path) -> Iterator[None]:
    with installed(tmp_path / "site", "ludotheque_nim_lessons"):
        yield


def test_a_new_game_brings_its_own_course(nim: None, tmp_path: Path) -> None:
    assert not lessons.has_lessons("nim")  # the test game ships none in its package
    with pytest.raises(lessons.LessonError, match=r"no lessons\.json"):
        lessons.load_course("nim")
    course = lessons.load_course("nim", write(tmp_path, NIM_COURSE))
    step = course.steps[0]
    _, state = lessons.rebuild(step)
    assert lessons.right_moves(step, state) == ["b4"]
    assert lessons.check(step, state, "b4", "en").explanation == "Won."
    assert not lessons.check(step, state, "b1", "fr").right
