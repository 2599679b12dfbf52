"""Puzzles over HTTP (``/api/puzzles/...``), on SQLite and PostgreSQL: the next puzzle near the
person's rating and never its solution, answers judged step by step, the first try moving the
person's rating and the puzzle's (Glicko-2) once and only once, the usual 400/404/409 for what is
no answer, and nothing a hidden-information solver may not see."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque import puzzles

from .conftest import serving

PAGE = {"Origin": "http://testserver"}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with serving(db_url) as test_client:
        yield test_client


def guest(client: TestClient) -> None:
    answer = client.post("/api/account/guest", headers=PAGE)
    assert answer.status_code == 201, answer.text


def post(client: TestClient, puzzle: puzzles.Puzzle, move: str, step: int) -> Any:
    return client.post(f"/api/puzzles/{puzzle.game}/{puzzle.id}/answer", json={"move": move, "step": step},
                       headers=PAGE)


def solve(client: TestClient, puzzle: puzzles.Puzzle, start: int = 0) -> dict[str, Any]:
    """Play the line's moves from step ``start``; the last answer."""
    body: dict[str, Any] = {}
    for step, index in list(enumerate(puzzles.solver_plies(puzzle)))[start:]:
        answer = post(client, puzzle, puzzle.line[index], step)
        assert answer.status_code == 200, answer.text
        body = answer.json()
        assert body["right"] and body["step"] == step + 1
    return body


def test_a_guest_solves_a_puzzle_and_both_ratings_move_once(client: TestClient) -> None:
    guest(client)
    shown = client.get("/api/puzzles/pylos/next?lang=fr")
    assert shown.status_code == 200, shown.text
    doc = shown.json()
    assert doc["rating"]["rating"] == 1500 and doc["rating"]["provisional"]
    assert "line" not in doc and "seed" not in doc and doc["lang"] == "fr"
    puzzle = puzzles.load_puzzles("pylos").by_id(doc["id"])
    assert doc["legal_moves"] == [str(m) for m in puzzles.position(puzzle).legal_moves()]
    assert doc["view"] == puzzles.position(puzzle).view(puzzle.solver)
    first = post(client, puzzle, puzzle.line[0], 0).json()
    last = first
    if puzzles.steps(puzzle) > 1:
        assert not first["done"] and first["replies"] and first["rating"]["rating"] == 1500
        assert first["solution"] is None and first["step"] == 1
        last = solve(client, puzzle, start=1)
    assert last["done"] and last["solved"] and last["rated"]
    assert last["solution"] == list(puzzle.line)
    assert last["change"] > 0 and last["rating"]["rating"] > 1500
    assert last["puzzle_rating"]["rating"] < round(puzzle.rating)
    again = client.get(f"/api/puzzles/pylos/{puzzle.id}").json()
    assert again["rating"] == last["rating"] and again["puzzle_rating"] == last["puzzle_rating"]
    # A second try is judged, never rated again; the next puzzle is another one.
    repeat = solve(client, puzzle)
    assert repeat["solved"] and not repeat["rated"] and repeat["rating"] == last["rating"]
    assert client.get("/api/puzzles/pylos/next").json()["id"] != puzzle.id


def test_a_wrong_move_fails_the_puzzle_and_lowers_the_rating(client: TestClient) -> None:
    guest(client)
    puzzle = puzzles.load_puzzles("pylos").puzzles[0]
    state = puzzles.position(puzzle)
    wrong = next(str(m) for m in state.legal_moves()
                 if str(m) != puzzle.line[0] and not state.play(m).is_over)
    answer = post(client, puzzle, wrong, 0).json()
    assert not answer["right"] and answer["done"] and not answer["solved"]
    assert answer["rated"] and answer["change"] < 0 and answer["solution"] == list(puzzle.line)
    assert answer["puzzle_rating"]["rating"] > round(puzzle.rating)
    assert answer["view"] == state.play(wrong).view(puzzle.solver)


def test_bad_answers_are_refused_and_change_nothing(client: TestClient) -> None:
    guest(client)
    puzzle = next(p for p in puzzles.load_puzzles("pylos").puzzles if puzzles.steps(p) > 1)
    base = f"/api/puzzles/pylos/{puzzle.id}/answer"
    assert client.post(base, json={"move": "zz", "step": 0}, headers=PAGE).json()["code"] == "not_notation"
    occupied = puzzle.moves[0]
    refused = client.post(base, json={"move": occupied, "step": 0}, headers=PAGE)
    assert refused.status_code == 409 and refused.json()["code"] == "illegal_move"
    assert client.post(base, json={"move": "1a1", "step": 99}, headers=PAGE).status_code == 400
    assert client.post(base, json={"step": 0}, headers=PAGE).status_code == 400
    assert client.post(base, headers=PAGE).status_code == 400
    # The rated try is at step 0: an answer for step 1 is another tab's, refused.
    plies = puzzles.solver_plies(puzzle)
    stale = client.post(base, json={"move": puzzle.line[plies[1]], "step": 1}, headers=PAGE)
    assert stale.status_code == 409 and stale.json()["code"] == "stale_ply"
    assert client.get(f"/api/puzzles/pylos/{puzzle.id}").json()["rating"]["attempts"] == 0
    assert client.get("/api/puzzles/chess/next").json()["code"] == "unknown_game"
    assert client.get("/api/puzzles/pylos/pylos-9999").status_code == 404
    assert client.get("/api/puzzles/pylos/next?lang=de").status_code == 400


def test_nobody_is_judged_and_nothing_is_kept(client: TestClient) -> None:
    puzzle = puzzles.load_puzzles("pylos").puzzles[0]
    answer = post(client, puzzle, puzzle.line[0], 0).json()
    assert answer["right"] and answer["rating"] is None and not answer["rated"]
    assert client.get(f"/api/puzzles/pylos/{puzzle.id}").json()["rating"] is None


def test_a_hidden_information_puzzle_shows_only_the_solvers_view(client: TestClient) -> None:
    """No seed, no line; the moves masked as the solver's view masks them; the view of the solver
    only, the same document whatever the hidden facts are (another world of that view)."""
    from ludotheque.core.records import masked_moves

    puzzle = next(p for g in ("plimil", "imbrication") if puzzles.has_puzzles(g)
                  for p in puzzles.load_puzzles(g).puzzles
                  if puzzles.position(p).hidden_facts(p.solver) > 0)
    game = puzzle.game
    state = puzzles.position(puzzle)
    doc = client.get(f"/api/puzzles/{game}/{puzzle.id}").json()
    assert set(doc) == {"game", "id", "lang", "title", "variant", "players", "solver", "theme", "plies",
                        "steps", "moves", "puzzle_rating", "rating", "step", "view", "legal_moves",
                        "source", "sources"}
    assert doc["view"] == state.view(puzzle.solver)
    states = [puzzles.game_of(puzzle).new_state(puzzle.seed)]
    for text in puzzle.moves:
        states.append(states[-1].play(text))
    assert doc["moves"] == masked_moves(states[0].game, states, puzzle.moves, puzzle.solver)
    answer = post(client, puzzle, puzzle.line[0], 0).json()
    assert answer["solved"] and answer["solution"] == [puzzle.line[0]]
    assert answer["view"] == state.play(puzzle.line[0]).view(puzzle.solver)
