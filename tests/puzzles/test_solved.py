"""The "win in N" puzzles drawn from the solved tables (``puzzles-solved.json``, Pylos under the
kids rules): each is a win in exactly N plies by a plain search of the engine (no tables, no
kernel), the API serves them under their rules on their own, and the command draws them again
from tables (a small game of 3 balls a player, solved here)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from ludotheque import puzzles
from ludotheque.engines.pylos import perfect

from .conftest import serving
from .test_api import PAGE, guest, solve


def shipped() -> list[puzzles.Puzzle]:
    return [p for p in puzzles.load_puzzles("pylos").puzzles if p.source == puzzles.SOLVED_SOURCE]


def test_sixty_win_in_n_puzzles_of_the_kids_rules_are_shipped() -> None:
    found = shipped()
    assert len(found) == 60 and Counter(p.plies for p in found) == {3: 20, 5: 20, 7: 20}
    assert {(p.variant, p.theme, p.margin) for p in found} == {("kids", "win", 2.0)}
    assert len({p.moves for p in found}) == 60
    assert puzzles.validate(puzzles.PuzzleSet("pylos", tuple(found))) == []


@pytest.mark.parametrize("plies", [3, 5, 7])
def test_each_is_a_win_in_exactly_n_by_a_plain_search(plies: int) -> None:
    for puzzle in [p for p in shipped() if p.plies == plies][:4]:
        state = puzzles.position(puzzle)
        assert state.game.variant == "kids" and len(puzzle.line) == plies
        assert puzzles.wins_within(state, plies) and not puzzles.wins_within(state, plies - 2)
        others = [m for m in state.legal_moves() if str(m) != puzzle.line[0]]
        assert others and not any(puzzles.wins_within(state.play(m), plies - 1, state.to_move)
                                  for m in others)
        assert puzzles.check(puzzle, puzzles.Budget()).ok


def test_a_wrong_line_is_caught_by_the_check() -> None:
    from dataclasses import replace

    puzzle = next(p for p in shipped() if p.plies == 5)
    assert not puzzles.check_win_in(replace(puzzle, plies=3)).ok  # not a win in 3
    assert not puzzles.check_win_in(replace(puzzle, plies=7)).ok


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with serving(db_url) as test_client:
        yield test_client


def test_the_api_serves_them_alone_under_the_kids_rules(client: TestClient) -> None:
    guest(client)
    doc = client.get("/api/puzzles/pylos/next?source=tables").json()
    assert doc["source"] == "tables" and doc["variant"] == "kids" and "tables" in doc["sources"]
    puzzle = puzzles.load_puzzles("pylos").by_id(doc["id"])
    assert doc["legal_moves"] == [str(m) for m in puzzles.position(puzzle).legal_moves()]
    assert solve(client, puzzle)["solved"]
    refused = client.get("/api/puzzles/pylos/next?source=nowhere")
    assert refused.status_code == 400 and refused.json()["code"] == "bad_request"
    page = client.get("/puzzles/pylos?source=tables", headers=PAGE)
    assert page.status_code == 200 and 'id="puzzle-source"' in page.text


@pytest.mark.skipif(not perfect.available("kids"), reason="the kids tables are not built on this machine")
def test_the_command_draws_them_from_the_tables(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "solved.json"
    command = ["solved", "pylos", "--count", "3", "--plies", "5", "--seed", "9", "--out", str(out)]
    assert puzzles.main(command) == 0
    drawn = puzzles.read_puzzles(out.read_text("utf-8")).puzzles
    assert len(drawn) == 3 and "3 puzzles from the tables" in capsys.readouterr().out
    for puzzle in drawn:
        assert (puzzle.source, puzzle.plies, puzzle.variant) == ("tables", 5, "kids")
        assert puzzles.check_win_in(puzzle).ok


def test_the_command_keeps_only_what_a_plain_search_proves(tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """The command's own checks, whatever the tables say (here a stand-in for them: two shipped
    puzzles, one of them given a line one ply short)."""
    first, second = [p for p in shipped() if p.plies == 5][:2]
    lines = [perfect.WinLine(first.moves, first.line, 2, True),
             perfect.WinLine(second.moves, second.line[:-1], 2, True)]
    monkeypatch.setattr(perfect, "win_lines", lambda plies, count, seed=0: lines)
    out = tmp_path / "solved.json"
    assert puzzles.main(["solved", "pylos", "--count", "2", "--plies", "5", "--out", str(out)]) == 0
    drawn = puzzles.read_puzzles(out.read_text("utf-8")).puzzles
    assert [(p.moves, p.line, p.id) for p in drawn] == [(first.moves, first.line, "pylos-s001")]


def test_without_tables_the_command_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOTHEQUE_TABLES", str(tmp_path))
    with pytest.raises(puzzles.PuzzleError, match="tables"):
        puzzles.solved_puzzles("pylos", 2, plies=(3,))
    with pytest.raises(puzzles.PuzzleError, match="no puzzles from solved tables"):
        puzzles.solved_puzzles("expion", 2)


def test_the_terminal_command_draws_them_too(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ludotheque puzzle GAME --generate N --from-tables``: the same drawing and checks, or a clear
    error for a game whose package draws none."""
    from typer.testing import CliRunner

    from ludotheque.cli.main import app

    first = next(p for p in shipped() if p.plies == 3)
    monkeypatch.setattr(perfect, "win_lines",
                        lambda plies, count, seed=0: [perfect.WinLine(first.moves, first.line, 2, True)])
    out = tmp_path / "solved.json"
    runner = CliRunner()
    done = runner.invoke(app, ["puzzle", "pylos", "--generate", "1", "--from-tables", "--plies", "3",
                               "--out", str(out), "--lang", "en"])
    assert done.exit_code == 0, done.output
    assert f"1puzzlewrittento{out}" in "".join(done.output.split())  # however Rich wraps it
    assert [p.line for p in puzzles.read_puzzles(out.read_text("utf-8")).puzzles] == [first.line]
    refused = runner.invoke(app, ["puzzle", "expion", "--generate", "1", "--from-tables", "--out",
                                  str(tmp_path / "x.json"), "--lang", "en"])
    assert refused.exit_code != 0 and "no puzzles from solved tables" in refused.output
    assert not (tmp_path / "x.json").exists()
