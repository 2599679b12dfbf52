"""Lessons over HTTP (``/api/lessons/...``), on SQLite and PostgreSQL: the course in the reader's
language without its answers, answers judged by the engine (right, wrong, and the usual 400/409 for
what is no answer), progress kept per person (players and guests) in the database, and the last
step done only by a stored game won against the step's bot."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque import lessons
from ludotheque.server.snapshots import resign

from .conftest import serving

PAGE = {"Origin": "http://testserver"}


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    with serving(db_url) as test_client:
        yield test_client


@contextmanager
def another_person(client: TestClient) -> Iterator[TestClient]:
    """``client`` as another browser (no cookies) for a while, then itself again."""
    saved = list(client.cookies.jar)
    client.cookies.clear()
    try:
        yield client
    finally:
        client.cookies.clear()
        for cookie in saved:
            client.cookies.jar.set_cookie(cookie)


def guest(client: TestClient) -> None:
    """Make ``client`` a guest (its session cookie kept by the client)."""
    answer = client.post("/api/account/guest", headers=PAGE)
    assert answer.status_code == 201, answer.text


def wrong_move(step: lessons.Step) -> str:
    _, state = lessons.rebuild(step)
    right = set(lessons.right_moves(step, state))
    return next(str(move) for move in state.legal_moves() if str(move) not in right)


def post_answer(client: TestClient, game: str, step: str, move: Any, lang: str = "en") -> Any:
    return client.post(f"/api/lessons/{game}/{step}/answer?lang={lang}", json={"move": move}, headers=PAGE)


def test_the_course_is_public_and_in_the_readers_language(client: TestClient) -> None:
    course = lessons.load_course("pylos")
    for lang in ("fr", "en"):
        data = client.get(f"/api/lessons/pylos?lang={lang}").json()
        assert data["game"] == "pylos" and data["lang"] == lang and len(data["steps"]) == len(course.steps)
        first = data["steps"][0]
        assert first["title"] == course.steps[0].title[lang] and first["number"] == 1
        assert "answer" not in first and "right" not in first and "wrong" not in first
        assert first["view"]["game"] == "pylos" and first["legal_moves"]
        assert data["steps"][-1]["game"] is True and data["steps"][-1]["opponent"] == "easy"
        assert data["progress"] == {"done": [], "next": 0, "count": len(course.steps), "finished": False,
                                    "kept": False}
    french = client.get("/api/lessons/pylos", headers={"Accept-Language": "fr-FR"}).json()
    assert french["lang"] == "fr"


def test_no_secret_of_a_position_reaches_the_page(client: TestClient) -> None:
    course = lessons.load_course("plimil")
    data = client.get("/api/lessons/plimil").json()
    masked = 0
    for step, shown in zip(course.steps, data["steps"], strict=True):
        _, state = lessons.rebuild(step)
        assert "seed" not in shown["position"]
        assert shown["view"] == state.view(shown["learner"])
        given, played = shown["position"]["moves"], list(step.position.moves)
        assert len(given) == len(played)
        masked += sum(text != secret for text, secret in zip(given, played, strict=True))
        for text, secret in zip(given, played, strict=True):
            if secret.startswith("stems ") and text == secret:
                assert secret == step.position.moves[0]  # the learner's own stems only
    assert masked > 0, "the other player's secret stems are masked"


def test_unknown_games_steps_and_languages_are_refused(client: TestClient) -> None:
    assert client.get("/api/lessons/chess").json()["code"] == "unknown_game"
    assert client.get("/api/lessons/pylos?lang=de").status_code == 400
    missing = post_answer(client, "pylos", "no-such-step", "1a1")
    assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


@pytest.mark.parametrize("game_id", lessons.courses())
def test_every_step_judges_its_right_answer_and_a_wrong_one_in_both_languages(
    client: TestClient, game_id: str
) -> None:
    course = lessons.load_course(game_id)
    guest(client)
    for number, step in enumerate(course.steps[:-1]):
        wrong = post_answer(client, game_id, step.id, wrong_move(step), "fr")
        assert wrong.status_code == 200, wrong.text
        assert wrong.json()["right"] is False and wrong.json()["explanation"] == step.wrong["fr"]
        assert wrong.json()["progress"]["next"] == number  # a wrong answer keeps nothing
        _, state = lessons.rebuild(step)
        right = post_answer(client, game_id, step.id, lessons.right_moves(step, state)[0])
        body = right.json()
        assert right.status_code == 200 and body["right"] is True, right.text
        assert body["explanation"] == step.right["en"] and body["view"]["game"] == game_id
        assert body["progress"]["next"] == number + 1 and step.id in body["progress"]["done"]
    data = client.get(f"/api/lessons/{game_id}").json()
    assert data["progress"]["next"] == len(course.steps) - 1 and data["progress"]["kept"] is True
    assert [step["done"] for step in data["steps"]] == [True] * (len(course.steps) - 1) + [False]


def test_what_is_no_answer_gets_the_usual_errors_and_keeps_nothing(client: TestClient) -> None:
    guest(client)
    step = lessons.load_course("pylos").steps[0]
    bad = post_answer(client, "pylos", step.id, "zz9")
    assert (bad.status_code, bad.json()["code"]) == (400, "not_notation") and bad.json()["error"]
    illegal = post_answer(client, "pylos", step.id, "2a1")  # no ball under it yet
    assert (illegal.status_code, illegal.json()["code"]) == (409, "illegal_move")
    for body in ({}, {"move": 3}, {"move": "1a1", "extra": 1}, [1]):
        answer = client.post(f"/api/lessons/pylos/{step.id}/answer", json=body, headers=PAGE)
        assert (answer.status_code, answer.json()["code"]) == (400, "bad_request"), body
    not_json = client.post(f"/api/lessons/pylos/{step.id}/answer", content=b"{", headers=PAGE)
    assert not_json.status_code == 400 and set(not_json.json()) == {"error", "code"}
    game_step = post_answer(client, "pylos", "first-game", "1a1")
    assert (game_step.status_code, game_step.json()["code"]) == (400, "bad_request")
    assert client.get("/api/lessons/pylos").json()["progress"]["done"] == []


def test_progress_is_kept_per_person_and_resumes(client: TestClient, db_url: str) -> None:
    step = lessons.load_course("pylos").steps[0]
    # A page's request without a session gets a guest, whose progress is kept.
    first = client.post(f"/api/lessons/pylos/{step.id}/answer?cookie=1", json={"move": "1b2"}, headers=PAGE)
    assert first.status_code == 200 and first.json()["progress"]["kept"] is True
    assert "ludotheque_session" in first.cookies or client.cookies.get("ludotheque_session")
    assert client.get("/api/lessons/pylos").json()["progress"]["next"] == 1
    # Another person starts at the beginning; nobody (no cookie, no token) keeps nothing.
    with another_person(client) as other:
        assert other.get("/api/lessons/pylos").json()["progress"]["next"] == 0
        anonymous = post_answer(other, "pylos", step.id, "1b2").json()
        assert anonymous["right"] is True and anonymous["progress"] == {
            "done": [], "next": 0, "count": anonymous["progress"]["count"], "finished": False, "kept": False}
        signed = other.post("/api/account/signup", json={"name": "Learner", "password": "correct horse"},
                            headers=PAGE)
        assert signed.status_code in (200, 201), signed.text
        assert post_answer(other, "pylos", step.id, "1c2").json()["progress"]["next"] == 1
    assert client.get("/api/lessons/pylos").json()["progress"]["next"] == 1
    # A restarted server reads it back from the database; a reset starts over.
    cookie = client.cookies.get("ludotheque_session")
    with serving(db_url) as again:
        again.cookies.set("ludotheque_session", cookie or "")
        assert again.get("/api/lessons/pylos").json()["progress"]["done"] == [step.id]
        reset = again.post("/api/lessons/pylos/reset", headers=PAGE)
        assert reset.json()["progress"]["done"] == []
        assert again.get("/api/lessons/pylos").json()["progress"]["next"] == 0


def lesson_game(client: TestClient, step: lessons.Step, seats: list[str] | None = None) -> str:
    """The step's game as the page starts it: the person's seat, the bot on the others."""
    players = step.position.players or 2
    wanted = seats or ["human" if n == step.seat else f"bot:{step.opponent}" for n in range(players)]
    body = {"game": step.position.game, "variant": step.position.variant, "players": players, "seats": wanted}
    created = client.post("/api/games?cookie=1", json=body, headers=PAGE)
    assert created.status_code == 201, created.text
    game_id: str = created.json()["id"]
    return game_id


def end_by_resignation(client: TestClient, game_id: str, loser: int) -> None:
    """End a stored game: seat ``loser`` resigns (the hub stores it like any change)."""
    hub = client.app.state.hub  # type: ignore[attr-defined]
    assert client.portal is not None
    session = client.portal.call(hub.get, game_id)
    client.portal.call(hub.change, session, lambda snap, now: resign(snap, loser, now))


def post_game(client: TestClient, game_id: str, lang: str = "en") -> Any:
    return client.post(f"/api/lessons/pylos/first-game/game?lang={lang}", json={"id": game_id}, headers=PAGE)


def test_the_last_step_is_done_by_a_stored_game_won_against_the_bot(client: TestClient) -> None:
    guest(client)
    step = lessons.load_course("pylos").steps[-1]
    game_id = lesson_game(client, step)
    playing = post_game(client, game_id)
    assert (playing.status_code, playing.json()["code"]) == (409, "game_not_over")
    end_by_resignation(client, game_id, 1)  # the bot resigns: the person's seat wins
    won = post_game(client, game_id, "fr")
    assert won.status_code == 200 and won.json()["right"] is True, won.text
    assert won.json()["explanation"] == step.right["fr"] and step.id in won.json()["progress"]["done"]
    # A lost game says so and keeps nothing.
    lost_id = lesson_game(client, step)
    end_by_resignation(client, lost_id, 0)
    client.post("/api/lessons/pylos/reset", headers=PAGE)
    lost = post_game(client, lost_id)
    assert lost.json()["right"] is False and lost.json()["explanation"] == step.wrong["en"]
    assert lost.json()["progress"]["done"] == []


def test_a_game_that_is_not_the_persons_lesson_game_does_not_count(client: TestClient) -> None:
    guest(client)
    step = lessons.load_course("pylos").steps[-1]
    against_people = lesson_game(client, step, ["human", "human"])
    end_by_resignation(client, against_people, 1)
    refused = post_game(client, against_people)
    assert (refused.status_code, refused.json()["code"]) == (400, "bad_request")
    harder = lesson_game(client, step, ["human", "bot:hard"])
    end_by_resignation(client, harder, 1)
    assert post_game(client, harder).status_code == 400
    won = lesson_game(client, step)
    end_by_resignation(client, won, 1)
    with another_person(client) as stranger:
        guest(stranger)
        assert post_game(stranger, won).status_code == 400  # not their seat
    assert post_game(client, "no-such-game").status_code == 404
    other_game = client.post("/api/lessons/expion/first-game/game", json={"id": won}, headers=PAGE)
    assert other_game.status_code == 400
    answer_step = client.post("/api/lessons/pylos/first-ball/game", json={"id": won}, headers=PAGE)
    assert answer_step.status_code == 400
