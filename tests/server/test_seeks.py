"""Seeks: a seek waits until a compatible one comes (same game, variant, players, clock and
rated-ness, each rating in the other's range), then both seekers are seated in a new game at once."""

from __future__ import annotations

from fastapi.testclient import TestClient

from ludotheque.server.seeks import SEEKS_PER_ACCOUNT

from .conftest import serving
from .test_notifications import read_until
from .test_players import Person

PYLOS = {"game": "pylos", "clock": {"type": "correspondence", "days": 3}}


def test_a_compatible_seek_starts_a_game_for_both(client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    with client.websocket_connect("/api/me/ws", headers=ada.cookie) as socket:
        read_until(socket, "turns")
        waiting = ada.post(client, "/api/seeks", PYLOS)
        assert waiting.status_code == 201 and waiting.json()["matched"] is False
        seek = waiting.json()["seek"]
        listed = client.get("/api/seeks").json()["seeks"]
        assert [(s["id"], s["name"], s["rating"]) for s in listed] == [(seek["id"], "Ada", 1500)]
        other_clock = bob.post(client, "/api/seeks", {"game": "pylos"})  # no clock: not compatible
        assert other_clock.json()["matched"] is False
        matched = bob.post(client, "/api/seeks", PYLOS).json()
        assert matched["matched"] is True and matched["seat"] == 1
        told = read_until(socket, "matched")
        assert told["game"] == matched["id"]
        assert read_until(socket, "turns")["games"] == [matched["id"]]
    doc = client.get(f"/api/games/{matched['id']}").json()
    assert doc["status"] == "playing" and [s["name"] for s in doc["seats"]] == ["Ada", "Bob"]
    assert doc["clock"]["type"] == "correspondence"
    assert ada.post(client, f"/api/games/{matched['id']}/moves", {"move": "1a1"}).status_code == 200
    assert [s["name"] for s in client.get("/api/seeks").json()["seeks"]] == ["Bob"]  # the other clock waits


def test_rating_ranges_and_cancelling(client: TestClient) -> None:
    carol, dan = Person(client, "Carol"), Person(client, "Dan")
    strong = carol.post(client, "/api/seeks", {"game": "plimil", "rated": True, "rating_min": 1600}).json()
    assert strong["matched"] is False
    assert dan.post(client, "/api/seeks", {"game": "plimil", "rated": True}).json()["matched"] is False
    seek_id = strong["seek"]["id"]
    refused = client.delete(f"/api/seeks/{seek_id}", headers=dan.cookie)
    assert (refused.status_code, refused.json()["code"]) == (404, "not_found")  # not Dan's
    assert client.delete(f"/api/seeks/{seek_id}", headers=carol.cookie).status_code == 204
    assert [s["name"] for s in client.get("/api/seeks").json()["seeks"]] == ["Dan"]


def test_seek_refusals(client: TestClient) -> None:
    client.post("/api/account/guest")
    rated = client.post("/api/seeks", json={"game": "pylos", "rated": True})
    assert (rated.status_code, rated.json()["code"]) == (401, "sign_in_required")
    assert client.post("/api/seeks",
                       json={"game": "pylos"}).status_code == 201  # a guest may seek a casual game
    for body, code in [({"game": "chess"}, "unknown_game"), ({"game": "pylos", "rating_min": -1},
                                                             "bad_request"),
                       ({"game": "pylos", "colour": "white"}, "bad_request")]:
        answer = client.post("/api/seeks", json=body)
        assert (answer.status_code, answer.json()["code"]) == (400, code), body
    client.cookies.clear()
    nobody = client.post("/api/seeks", json={"game": "pylos"})
    assert (nobody.status_code, nobody.json()["code"]) == (401, "sign_in_required")


def test_seeks_count_as_created_games(db_url: str) -> None:
    """Games made by matching count against the client's creation limit: two accounts of one
    address seeking each other in turn cannot get round it (issue: 861 games in 30 s)."""
    with serving(db_url, create_limit="3/minute") as client:
        ada, bob = Person(client, "Ada"), Person(client, "Bob")
        answers = [person.post(client, "/api/seeks", {"game": "pylos"}) for person in (ada, bob, ada, bob)]
        assert [answer.status_code for answer in answers] == [201, 201, 201, 429]
        assert [answer.json().get("matched") for answer in answers[:3]] == [False, True, False]
        refused = answers[3]
        assert refused.json()["code"] == "rate_limited" and int(refused.headers["Retry-After"]) >= 1
        assert [s["name"] for s in client.get("/api/seeks").json()["seeks"]] == ["Ada"]  # nothing changed
        direct = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"]})
        assert direct.status_code == 429  # the same limit as direct creation


def test_a_person_has_few_seeks_waiting(client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    games = ["pylos", "plimil", "imbrication", "expion"]
    answers = [ada.post(client, "/api/seeks", {"game": game}) for game in games]
    assert [answer.status_code for answer in answers] == [201] * SEEKS_PER_ACCOUNT + [409]
    refused = answers[SEEKS_PER_ACCOUNT].json()
    assert refused["code"] == "too_many_seeks" and "cancel one" in refused["error"]
    assert len(client.get("/api/seeks").json()["seeks"]) == SEEKS_PER_ACCOUNT
    # A seek that starts a game at once waits for nothing: never refused by the bound.
    assert bob.post(client, "/api/seeks", {"game": "plimil"}).json()["matched"] is True
    again = [bob.post(client, "/api/seeks", {"game": game}) for game in ("pylos", "imbrication")]
    assert [answer.json()["matched"] for answer in again] == [True, True]
    # Once one of Ada's seeks is gone, she may seek again.
    assert ada.post(client, "/api/seeks", {"game": "expion"}).status_code == 201


def test_a_seek_clock_below_the_server_minimum_is_refused_like_a_games(client: TestClient) -> None:
    """A seek starts a game when matched: its clock obeys the same minimum as a created game's."""
    ada = Person(client, "Ada")
    short = {"game": "pylos", "clock": {"type": "fischer", "minutes": 0.5, "increment": 0}}
    answer = ada.post(client, "/api/seeks", short)
    assert (answer.status_code, answer.json()["code"]) == (400, "bad_request")
    assert "at least 1 minutes" in answer.json()["error"]
    assert client.get("/api/seeks").json()["seeks"] == []  # nothing waits
    long_enough = {"game": "pylos", "clock": {"type": "fischer", "minutes": 1, "increment": 0}}
    assert ada.post(client, "/api/seeks", long_enough).status_code == 201
