"""The tournaments' endpoints: who may create, join, leave and start, every refusal and its code;
rated tournaments rate their games; scheduled starts and the sweep's safety net."""

from __future__ import annotations

import time
from datetime import UTC, datetime, timedelta
from typing import Any

from fastapi.testclient import TestClient

from ludotheque.server.tournaments import SWEEP_EVERY_S

from .helpers import Person, eventually, game_ended, sweep

PYLOS = {"game": "pylos", "rounds": 2}


def refused(answer: Any, status: int, code: str) -> None:
    assert (answer.status_code, answer.json().get("code")) == (status, code), answer.text


def test_creating_needs_a_player_and_a_valid_body(client: TestClient) -> None:
    refused(client.post("/api/tournaments", json=PYLOS), 401, "sign_in_required")
    guest = Person(client)
    refused(guest.post(client, "/api/tournaments", PYLOS), 401, "sign_in_required")
    ada = Person(client, "Ada")
    for body, status, code in [
        ({"game": "chess", "rounds": 3}, 400, "unknown_game"),
        ({"game": "pylos", "rounds": 0}, 400, "bad_request"),
        ({"game": "pylos", "rounds": 21}, 400, "bad_request"),
        ({"game": "pylos"}, 400, "bad_request"),
        ({"game": "pylos", "rounds": 3, "colour": "white"}, 400, "bad_request"),
        ({"game": "pylos", "rounds": 3, "starts_at": "tomorrow"}, 400, "bad_request"),
        ({"game": "pylos", "rounds": 3, "clock": {"type": "fischer", "minutes": 0.1}}, 400, "bad_request"),
        ({"game": "expion", "players": 4, "rounds": 3, "rated": True}, 400, "bad_request"),
    ]:
        refused(ada.post(client, "/api/tournaments", body), status, code)
    created = ada.post(client, "/api/tournaments", {
        "name": "Friday Pylos", "game": "pylos", "variant": "kids", "rounds": 3, "rated": True,
        "clock": {"type": "fischer", "minutes": 3, "increment": 2}})
    assert created.status_code == 201, created.text
    doc = created.json()
    assert {k: doc[k] for k in ("name", "system", "game", "variant", "players", "rounds", "round", "rated",
                                 "status", "creator", "starts_at")} == {
        "name": "Friday Pylos", "system": "swiss", "game": "pylos", "variant": "kids", "players": 2,
        "rounds": 3, "round": 0, "rated": True, "status": "upcoming", "creator": "Ada", "starts_at": None}
    assert doc["clock"] == {"type": "fischer", "minutes": 3, "increment": 2}
    listed = client.get("/api/tournaments?status=upcoming").json()["tournaments"]
    assert [(t["id"], t["entrants"]) for t in listed] == [(doc["id"], 0)]
    assert client.get("/api/tournaments?status=running").json()["tournaments"] == []
    refused(client.get("/api/tournaments?status=over"), 400, "bad_request")
    refused(client.get("/api/tournaments/nope"), 404, "not_found")


def test_joining_leaving_and_starting(client: TestClient) -> None:
    ada, bob, guest = Person(client, "Ada"), Person(client, "Bob"), Person(client)
    practice = ada.post(client, "/api/tournaments", {**PYLOS, "max_entries": 3}).json()
    path = f"/api/tournaments/{practice['id']}"
    refused(client.post(f"{path}/join"), 401, "sign_in_required")
    assert guest.post(client, f"{path}/join").status_code == 200  # a guest plays practice tournaments
    refused(guest.post(client, f"{path}/join"), 409, "already_joined")
    refused(bob.post(client, f"{path}/join", {"bot": "easy"}), 403, "not_creator")
    refused(ada.post(client, f"{path}/join", {"bot": "grandmaster"}), 400, "bad_request")
    refused(bob.post(client, f"{path}/start"), 403, "not_creator")
    refused(ada.post(client, f"{path}/start"), 409, "too_few_players")
    doc = ada.post(client, f"{path}/join", {"bot": "easy"}).json()
    bot = doc["entries"][-1]
    assert (bot["name"], bot["bot"]) == ("bot:easy", "easy")
    assert bob.post(client, f"{path}/join").status_code == 200
    refused(ada.post(client, f"{path}/join"), 409, "tournament_full")
    refused(bob.post(client, f"{path}/leave", {"entry": bot["entry"]}), 403, "not_creator")
    left = ada.post(client, f"{path}/leave", {"entry": bot["entry"]}).json()
    assert [e["bot"] for e in left["entries"]] == [None, None]
    assert len(bob.post(client, f"{path}/leave").json()["entries"]) == 1
    refused(bob.post(client, f"{path}/leave"), 404, "not_found")
    assert bob.post(client, f"{path}/join").status_code == 200
    assert ada.post(client, f"{path}/join", {"bot": "random"}).status_code == 200
    started = ada.post(client, f"{path}/start")
    assert started.status_code == 200, started.text
    doc = started.json()
    assert doc["status"] == "running" and doc["round"] == 1
    [board, bye] = doc["pairings"][0]["boards"]
    assert bye["second"] is None and bye["result"] == "bye" and bye["game"] is None
    game = client.get(f"/api/games/{board['game']}").json()
    assert game["status"] == "playing" and game["rated"] is False
    refused(ada.post(client, f"{path}/start"), 409, "tournament_started")
    refused(ada.post(client, f"{path}/join"), 409, "tournament_started")
    refused(bob.post(client, f"{path}/leave"), 409, "tournament_started")
    # A person's account holds their seat: their own session plays it (no seat token needed).
    people = {bob.name: bob, guest.name: guest}
    seat, person = next((n, people[s["name"]]) for n, s in enumerate(game["seats"]) if s["name"] in people)
    assert person.post(client, f"/api/games/{board['game']}/seats/{seat}/resign").status_code == 200
    game_ended(client, board["game"])
    assert client.get(path).json()["round"] == 2

    rated = ada.post(client, "/api/tournaments", {**PYLOS, "rated": True}).json()
    refused(ada.post(client, f"/api/tournaments/{rated['id']}/join", {"bot": "easy"}), 400, "bad_request")
    refused(guest.post(client, f"/api/tournaments/{rated['id']}/join"), 401, "sign_in_required")


def test_a_rated_tournament_rates_its_games(client: TestClient) -> None:
    ada, bob, cid = Person(client, "Ada"), Person(client, "Bob"), Person(client, "Cid")
    created = ada.post(client, "/api/tournaments", {"game": "plimil", "rounds": 1, "rated": True,
                                                    "clock": {"type": "correspondence", "days": 2}}).json()
    path = f"/api/tournaments/{created['id']}"
    for person in (bob, cid):
        assert person.post(client, f"{path}/join").status_code == 200
    doc = ada.post(client, f"{path}/start").json()
    [board] = doc["pairings"][0]["boards"]
    game = client.get(f"/api/games/{board['game']}").json()
    assert game["rated"] is True and game["clock"]["type"] == "correspondence"
    loser = bob if game["seats"][0]["name"] == "Bob" else cid
    assert loser.post(client, f"/api/games/{board['game']}/seats/0/resign").status_code == 200
    game_ended(client, board["game"])
    game_ended(client, board["game"])  # a second report changes nothing
    doc = client.get(path).json()
    assert doc["status"] == "finished" and doc["ended"] is not None
    assert [(row["name"], row["score"]) for row in doc["standings"]] == [
        (("Cid" if loser is bob else "Bob"), 1.0), (loser.name, 0.0)]
    assert doc["pairings"][0]["boards"][0]["result"] == "0-1"
    # The game's ratings are applied in the background once it ended (notices).
    ratings = eventually(lambda: client.get(f"/api/players/{loser.name}").json()["ratings"], 10.0)
    assert [r["category"] for r in ratings] == ["plimil/2"] and ratings[0]["rating"] < 1500


def test_scheduled_starts_and_the_sweep(client: TestClient) -> None:
    ada = Person(client, "Ada")
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    lonely = ada.post(client, "/api/tournaments", {**PYLOS, "starts_at": past}).json()
    due = ada.post(client, "/api/tournaments", {**PYLOS, "starts_at": past}).json()
    later = ada.post(client, "/api/tournaments", {
        **PYLOS, "starts_at": (datetime.now(UTC) + timedelta(days=1)).isoformat()}).json()
    people = [Person(client) for _ in range(3)]
    for person in people:
        assert person.post(client, f"/api/tournaments/{due['id']}/join").status_code == 200
    sweep(client)
    assert client.get(f"/api/tournaments/{lonely['id']}").json()["status"] == "cancelled"
    assert client.get(f"/api/tournaments/{later['id']}").json()["status"] == "upcoming"
    doc = client.get(f"/api/tournaments/{due['id']}").json()
    assert doc["status"] == "running" and doc["round"] == 1
    boards = doc["pairings"][0]["boards"]
    assert [b["result"] for b in boards] == [None, "bye"]
    game_id = boards[0]["game"]
    names = [s["name"] for s in client.get(f"/api/games/{game_id}").json()["seats"]]
    by_name = {p.name: p for p in people}
    assert by_name[names[1]].post(client, f"/api/games/{game_id}/seats/1/resign").status_code == 200
    sweep(client)  # the sweep scores the game and pairs the next round, or waits for the hook doing it
    doc = client.get(f"/api/tournaments/{due['id']}").json()
    assert doc["pairings"][0]["boards"][0]["result"] == "1-0" and doc["round"] == 2
    assert [t["id"] for t in client.get("/api/tournaments?status=cancelled").json()["tournaments"]] == [
        lonely["id"]]


def test_a_start_that_comes_while_the_sweep_runs_is_swept_at_once(client: TestClient) -> None:
    """The sweep checks which tournaments are due, then looks for the next start: one that
    came between the two was found by neither and waited a whole SWEEP_EVERY_S (seen as a
    start 5 s late on a loaded machine)."""
    service = client.app.state.tournaments  # type: ignore[attr-defined]
    ada = Person(client, "Ada")
    began = time.time()
    starts = datetime.fromtimestamp(began + 0.5, UTC)
    created = ada.post(client, "/api/tournaments", {**PYLOS, "starts_at": starts.isoformat()}).json()
    time.sleep(max(0.0, began + 0.7 - time.time()))  # the start passes while the sweep "runs"
    pause = client.portal.call(service.sweep_once, began)  # type: ignore[union-attr]
    assert client.get(f"/api/tournaments/{created['id']}").json()["status"] == "upcoming"
    assert pause <= 0.1, pause
    assert client.portal.call(service.sweep_once) == SWEEP_EVERY_S  # type: ignore[union-attr]
    assert client.get(f"/api/tournaments/{created['id']}").json()["status"] == "cancelled"  # nobody came
