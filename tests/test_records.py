"""Game records: the one file format of docs/design.md, its errors, and what a reader may get."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import ludotheque
from ludotheque.core import Record, RecordError, replay
from ludotheque.core.records import FORMAT


def pylos_record(moves: tuple[str, ...] = ("1a1", "1b1")) -> Record:
    return Record.start(ludotheque.load("pylos"), seed=4).with_moves(moves)


def test_the_file_has_exactly_the_design_fields(tmp_path: Path) -> None:
    path = tmp_path / "r.json"
    pylos_record().save(path)
    data = json.loads(path.read_text())
    assert set(data) == {"format", "game", "variant", "players", "seed", "rules_version", "moves",
                         "result", "started", "ended"}
    assert data["format"] == FORMAT and data["moves"] == ["1a1", "1b1"] and data["result"] is None


def test_a_running_game_is_given_to_a_reader_without_its_seed() -> None:
    running = pylos_record()
    assert running.for_reader(0).seed is None and running.for_reader(None).seed is None
    assert running.for_reader(1).moves == running.moves
    with pytest.raises(RecordError, match="no seed"):
        replay(running.for_reader(0))


def test_a_finished_game_is_given_complete() -> None:
    states = replay(pylos_record())
    finished = pylos_record().finished(ludotheque.load("pylos").resignation(0))
    assert finished.for_reader(None) == finished and finished.ended is not None
    assert len(states) == 3


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"format": 2}, "unsupported record format"),
        ({"moves": "1a1"}, "list of move texts"),
        ({"seed": "x"}, "'seed' must be an integer"),
        ({"game": None}, None),
    ],
)
def test_malformed_records_are_refused_with_a_reason(change: dict[str, object], message: str | None) -> None:
    data = pylos_record().to_json() | change
    if change.get("game", "") is None:
        data.pop("game")
        message = "'game' is missing"
    with pytest.raises(RecordError, match=message):
        Record.from_json(data)


def test_a_record_of_an_unknown_game_does_not_replay() -> None:
    record = Record.from_json(pylos_record().to_json() | {"game": "chess"})
    with pytest.raises(RecordError, match="unknown game 'chess'"):
        replay(record)
