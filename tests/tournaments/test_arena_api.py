"""Arena tournaments through the HTTP API on SQLite and PostgreSQL: whoever is free is paired at
once with whoever waits (no immediate rematch when someone else waits), late entrants join a
running arena, leaving pauses, no game starts after the end while the games running then finish
and count, the standings (2/1/0 points, performance) match a computation written here from the
games' own results, and the winner is announced; "your game is ready" names the tournament;
4-player Ex*Pion arenas seat each entrant as a team. Also the list's paging and the club field."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from ludotheque.server import arena as arena_rules
from ludotheque.server import tournament_tables as t
from ludotheque.server.tournament_store import entry_allowed

from .helpers import Person, eventually, game_ended, sweep

ARENA = {"system": "arena", "game": "pylos", "duration": 30, "clock": {"type": "correspondence", "days": 2}}


def refused(answer: Any, status: int, code: str) -> None:
    assert (answer.status_code, answer.json().get("code")) == (status, code), answer.text


def arena(client: TestClient, creator: Person, **extra: Any) -> tuple[str, dict[str, Any]]:
    created = creator.post(client, "/api/tournaments", {**ARENA, **extra})
    assert created.status_code == 201, created.text
    doc = created.json()
    return f"/api/tournaments/{doc['id']}", doc


def playing(doc: dict[str, Any]) -> dict[frozenset[int], dict[str, Any]]:
    """The arena's games being played, by their two entries."""
    return {frozenset((b["first"], b["second"])): b for b in doc["playing"]}


def resign(client: TestClient, game_id: str, people: dict[str, Person]) -> None:
    """One person of the game resigns (the first seat held by a person), then the hub's hook."""
    game = client.get(f"/api/games/{game_id}").json()
    seat, person = next((n, people[s["name"]]) for n, s in enumerate(game["seats"]) if s["name"] in people)
    assert person.post(client, f"/api/games/{game_id}/seats/{seat}/resign").status_code == 200
    game_ended(client, game_id)


def test_arenas_refuse_what_they_cannot_be_and_the_list_pages(client: TestClient) -> None:
    ada = Person(client, "Ada")
    for body in [{**ARENA, "duration": None}, {**ARENA, "rounds": 3}, {**ARENA, "duration": 0},
                 {**ARENA, "duration": 24 * 60 + 1}, {**ARENA, "system": "knockout"},
                 {"game": "pylos", "rounds": 3, "duration": 5}, {**ARENA, "club": ""}]:
        refused(ada.post(client, "/api/tournaments", body), 400, "bad_request")
    club = ada.post(client, "/api/clubs", {"name": "Les Blitzeurs", "open": True}).json()["id"]
    path, doc = arena(client, ada, name="Blitz", club=club)
    shown = ("system", "duration", "rounds", "club", "name", "ends_at", "seconds_left")
    assert {k: doc[k] for k in shown} == {
        "system": "arena", "duration": 30, "rounds": 0, "club": club, "name": "Blitz", "ends_at": None,
        "seconds_left": None}
    assert entry_allowed(None, None, "someone") and entry_allowed(None, club, None)
    started = ada.post(client, f"{path}/start").json()  # an arena starts whatever its field
    assert started["status"] == "running" and started["playing"] == []
    assert 1790 < started["seconds_left"] <= 1800
    check_the_list_pages(client, ada, started["id"], club)


def check_the_list_pages(client: TestClient, ada: Person, first_arena: str, club: str) -> None:
    """Pages of the list, newest first; filtered by system and club."""
    made = [first_arena, *(arena(client, ada)[1]["id"] for _ in range(2))]
    made.append(ada.post(client, "/api/tournaments", {"game": "pylos", "rounds": 1}).json()["id"])
    first = client.get("/api/tournaments?limit=3").json()
    assert len(first["tournaments"]) == 3 and first["next_offset"] == 3
    rest = client.get("/api/tournaments?limit=3&offset=3").json()
    assert len(rest["tournaments"]) == 1 and rest["next_offset"] is None
    assert {x["id"] for x in first["tournaments"] + rest["tournaments"]} == set(made)
    arenas = client.get("/api/tournaments?system=arena").json()["tournaments"]
    assert {x["id"] for x in arenas} == set(made[:3]) and all(x["duration"] == 30 for x in arenas)
    of_club = client.get(f"/api/tournaments?club={club}").json()["tournaments"]
    assert [x["id"] for x in of_club] == [first_arena]
    for query in ("limit=0", "limit=201", "limit=x", "offset=-1", "system=ladder"):
        refused(client.get(f"/api/tournaments?{query}"), 400, "bad_request")


def test_whoever_is_free_is_paired_at_once(client: TestClient) -> None:
    ada = Person(client, "Ada")
    path, _ = arena(client, ada)
    people = {p.name: p for p in (Person(client) for _ in range(4))}
    for person in people.values():
        assert person.post(client, f"{path}/join").status_code == 200
    doc = ada.post(client, f"{path}/start").json()
    assert len(doc["playing"]) == 2 and doc["waiting"] == []
    assert all(e["waiting"] is False for e in doc["entries"])
    game = client.get(f"/api/games/{doc['playing'][0]['game']}").json()
    assert game["status"] == "playing" and game["clock"]["type"] == "correspondence"
    assert game["tournament"] == doc["id"]

    # A late entrant waits alone, then is paired with one of the two who just finished, never
    # with both of them playing each other again; "your game is ready" names the tournament.
    late = Person(client)
    people[late.name] = late
    doc = late.post(client, f"{path}/join").json()
    late_entry = next(e["entry"] for e in doc["entries"] if e["name"] == late.name)
    assert doc["waiting"] == [late_entry]
    before = playing(doc)
    first_pair, board = next(iter(before.items()))
    with client.websocket_connect("/api/me/ws", headers=late.headers) as socket:
        resign(client, board["game"], people)
        ready = socket.receive_json()
        while ready["type"] != "matched":
            ready = socket.receive_json()
    doc = client.get(path).json()
    assert len(doc["playing"]) == 2 and len(doc["waiting"]) == 1
    [new_pair] = set(playing(doc)) - set(before)
    assert late_entry in new_pair and new_pair != first_pair and doc["waiting"][0] in first_pair
    game_id = playing(doc)[new_pair]["game"]
    assert ready == {"type": "matched", "game": game_id, "name": "pylos", "tournament": doc["id"]}

    # Leaving pauses: the entrant keeps their place but is not paired; joining again resumes.
    waiting_entry = doc["waiting"][0]
    leaver = next(people[e["name"]] for e in doc["entries"] if e["entry"] == waiting_entry)
    doc = leaver.post(client, f"{path}/leave").json()
    assert doc["waiting"] == [] and next(e for e in doc["entries"] if e["entry"] == waiting_entry)["paused"]
    refused(leaver.post(client, f"{path}/leave"), 404, "not_found")
    doc = leaver.post(client, f"{path}/join").json()
    assert doc["waiting"] == [waiting_entry] and len(doc["entries"]) == 5
    refused(leaver.post(client, f"{path}/join"), 409, "already_joined")


def three_games(client: TestClient, path: str) -> Any:
    """The arena's document once its three games are made."""
    def check() -> Any:
        doc = client.get(path).json()
        return len(doc["playing"]) == 3 and all(b["game"] for b in doc["playing"]) and doc
    return eventually(check, 5.0)


def test_the_end_standings_and_winner(client: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    """Games played to the end; at the end no new game starts, the running ones count."""
    monkeypatch.setattr(arena_rules, "REMATCH_AFTER_S", 0.2)  # the two of a game meet again soon
    ada = Person(client, "Ada")
    path, doc = arena(client, ada)
    people = {p.name: p for p in (Person(client) for _ in range(4))}
    for person in people.values():
        assert person.post(client, f"{path}/join").status_code == 200
    assert ada.post(client, f"{path}/join", {"bot": "random"}).status_code == 200
    assert ada.post(client, f"{path}/join", {"bot": "random"}).status_code == 200
    doc = ada.post(client, f"{path}/start").json()
    bots = {e["entry"] for e in doc["entries"] if e["bot"]}
    finished: dict[str, Any] = {}
    for _ in range(6):  # six games end, one at a time: the free are paired again (the two of a
        # game between people after REMATCH_AFTER_S, as nobody else comes)
        doc = three_games(client, path)
        assert doc and doc["waiting"] == [], doc
        board = next(b for b in doc["playing"] if {b["first"], b["second"]} - bots)
        resign(client, board["game"], people)
        finished[board["game"]] = client.get(f"/api/games/{board['game']}").json()
    doc = three_games(client, path)
    assert all(frozenset((b["first"], b["second"])) != bots for rnd in doc["pairings"] for b in rnd["boards"])
    # The time is up (set in the database: a short arena), then a last game ends.
    engine = client.app.state.tournaments.store.engine  # type: ignore[attr-defined]
    with engine.begin() as connection:
        connection.execute(update(t.tournaments).where(t.tournaments.c.id == doc["id"]).values(
            ends_at=time.time() - 1))
    still = [b["game"] for b in doc["playing"]]
    resign(client, still[0], people)
    finished[still[0]] = client.get(f"/api/games/{still[0]}").json()
    doc = client.get(path).json()
    assert doc["status"] == "running" and len(doc["playing"]) == 2 and doc["seconds_left"] == 0
    for game_id in still[1:]:
        resign(client, game_id, people)
        finished[game_id] = client.get(f"/api/games/{game_id}").json()
    sweep(client)
    doc = eventually(lambda: (d := client.get(path).json())["status"] == "finished" and d, 10.0)
    assert doc and doc["playing"] == [] and doc["waiting"] == []
    boards = [b for rnd in doc["pairings"] for b in rnd["boards"]]
    assert len(boards) == 9 and {b["game"] for b in boards} == set(finished)
    check_standings(doc, boards, finished)
    assert doc["winner"]["entry"] == doc["standings"][0]["entry"] and doc["winner"]["rank"] == 1
    listed = client.get("/api/tournaments?status=finished&system=arena").json()
    assert [x["id"] for x in listed["tournaments"]] == [doc["id"]] and listed["next_offset"] is None


def check_standings(doc: dict[str, Any], boards: list[dict[str, Any]], games: dict[str, Any]) -> None:
    """Points (win 2, draw 1, loss 0) and performance from the games' own results."""
    ratings = {e["entry"]: e["rating"] for e in doc["entries"]}
    points = dict.fromkeys(ratings, 0)
    performance: dict[int, list[int]] = {entry: [] for entry in ratings}
    for board in boards:
        winners = set(games[board["game"]]["result"]["winners"])
        first = 1 if winners == {0} else -1 if winners == {1} else 0
        for me, other, outcome in ((board["first"], board["second"], first),
                                   (board["second"], board["first"], -first)):
            points[me] += outcome + 1
            performance[me].append(ratings[other] + 400 * outcome)
    shown = {r["entry"]: (r["score"], r["performance"], r["games"]) for r in doc["standings"]}
    expected = {e: (points[e], round(sum(p) / len(p)) if p else None, len(p)) for e, p in performance.items()}
    assert shown == expected
    order = [r["entry"] for r in doc["standings"]]
    assert order == sorted(ratings, key=lambda e: (-points[e], -(shown[e][1] or -10**9), -ratings[e], e))


def test_four_player_expion_arenas_seat_each_entrant_as_a_team(client: TestClient,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Ex*Pion at 4 players: each entrant holds a whole team (North+South, East+West), as in a
    Swiss; rated ones are refused (one person on two seats)."""
    monkeypatch.setattr(arena_rules, "REMATCH_AFTER_S", 0.0)
    ada = Person(client, "Ada")
    refused(ada.post(client, "/api/tournaments", {**ARENA, "game": "expion", "players": 4, "rated": True}),
            400, "bad_request")
    path, _ = arena(client, ada, game="expion", players=4)
    people = {p.name: p for p in (Person(client) for _ in range(2))}
    for person in people.values():
        assert person.post(client, f"{path}/join").status_code == 200
    doc = ada.post(client, f"{path}/start").json()
    [board] = doc["playing"]
    names = {e["entry"]: e["name"] for e in doc["entries"]}
    game = client.get(f"/api/games/{board['game']}").json()
    first, second = names[board["first"]], names[board["second"]]
    assert [seat["name"] for seat in game["seats"]] == [first, second, first, second]
    resign(client, board["game"], people)
    doc = eventually(lambda: (d := client.get(path).json())["playing"] and d, 5.0)
    assert doc and sorted(row["score"] for row in doc["standings"]) == [0, 2]
    assert doc["playing"][0]["game"] != board["game"]


def test_a_clubs_tournament_is_made_by_its_admins_for_its_members(client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    club = ada.post(client, "/api/clubs", {"name": "Les Pylonautes", "open": True}).json()["id"]
    refused(bob.post(client, "/api/tournaments", {**ARENA, "club": club}), 403, "not_member")
    refused(ada.post(client, "/api/tournaments", {**ARENA, "club": "no-such-club"}), 404, "not_found")
    path, _ = arena(client, ada, club=club)
    refused(bob.post(client, f"{path}/join"), 403, "not_member")
    assert bob.post(client, f"/api/clubs/{club}/join").status_code == 200
    refused(bob.post(client, "/api/tournaments", {**ARENA, "club": club}), 403, "not_admin")
    joined = bob.post(client, f"{path}/join")
    assert joined.status_code == 200, joined.text
