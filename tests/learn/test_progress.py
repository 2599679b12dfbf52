"""Progress: a small value, kept per person by a store; the terminal's store is a JSON file under
the user's data folder."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ludotheque import lessons


def test_the_default_file_is_under_the_data_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "xdg"))
    assert lessons.FileProgressStore().path == tmp_path / "xdg" / "ludotheque" / "progress.json"
    monkeypatch.delenv("XDG_DATA_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    home = tmp_path / "home"
    assert lessons.default_progress_path() == home / ".local" / "share" / "ludotheque" / "progress.json"


def test_progress_round_trips_through_the_file_and_resumes(tmp_path: Path) -> None:
    course = lessons.load_course("pylos")
    store = lessons.FileProgressStore(tmp_path / "deep" / "progress.json")
    assert store.load("local") == lessons.Progress()
    assert store.load("local").next_step(course) == 0
    progress = store.load("local")
    for step in course.steps[:3]:
        progress = progress.with_done("pylos", step.id)
    store.save("local", progress)
    store.save("guest-42", lessons.Progress().with_done("expion", "leave-camp"))
    again = lessons.FileProgressStore(tmp_path / "deep" / "progress.json")
    assert again.load("local") == progress
    assert again.load("local").next_step(course) == 3
    assert again.load("guest-42").done_in("expion") == {"leave-camp"}
    assert again.load("nobody") == lessons.Progress()
    data = json.loads((tmp_path / "deep" / "progress.json").read_text("utf-8"))
    assert data["format"] == 1
    assert data["people"]["local"]["pylos"] == sorted(step.id for step in course.steps[:3])
    assert [p.name for p in (tmp_path / "deep").iterdir()] == ["progress.json"]  # no temporary left


def test_a_step_skipped_is_resumed_first_and_a_reset_forgets_one_game() -> None:
    course = lessons.load_course("pylos")
    progress = lessons.Progress().with_done("pylos", course.steps[1].id).with_done("expion", "push")
    assert progress.next_step(course) == 0
    for step in course.steps:
        progress = progress.with_done("pylos", step.id)
    assert progress.finished(course) and progress.next_step(course) == len(course.steps)
    reset = progress.reset("pylos")
    assert reset.next_step(course) == 0 and reset.done_in("expion") == {"push"}


def test_a_damaged_file_reads_as_no_progress_and_is_replaced(tmp_path: Path) -> None:
    path = tmp_path / "progress.json"
    path.write_text("{ damaged", "utf-8")
    store = lessons.FileProgressStore(path)
    assert store.load("local") == lessons.Progress()
    store.save("local", lessons.Progress().with_done("pylos", "raise"))
    assert store.load("local").done_in("pylos") == {"raise"}
    path.write_text(json.dumps({"format": 1, "people": {"local": {"pylos": ["a", 3], "x": "y"}}}), "utf-8")
    assert store.load("local") == lessons.Progress({"pylos": frozenset({"a"})})


def test_the_memory_store_serves_as_well() -> None:
    store: lessons.ProgressStore = lessons.MemoryProgressStore()
    store.save("guest", lessons.Progress().with_done("plimil", "plant-stems"))
    assert store.load("guest").done_in("plimil") == {"plant-stems"}
    assert store.load("other") == lessons.Progress()
