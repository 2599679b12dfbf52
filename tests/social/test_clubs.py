"""Clubs over HTTP and WebSocket, on SQLite and PostgreSQL: names unique by look-alikes, open and
invite-only clubs, the invite link and its renewal, admins' rules, the ratings table, the chat
(members only, live, without the lines of people a member blocked)."""

from __future__ import annotations

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, insert

from ludotheque.server import clubs, tables
from ludotheque.server.config import database_url

from .helpers import Person, read_until


def test_club_names_membership_admins_and_the_invite_link(client: TestClient) -> None:
    ada, bob, cyd = Person(client, "Ada"), Person(client, "Bob"), Person(client, "Cyd")
    made = ada.post("/api/clubs", {"name": "  Les   Pylonautes ", "description": "Le jeudi", "open": False})
    assert made.status_code == 201, made.text
    club = made.json()
    assert (club["name"], club["role"], club["admins"], club["open"]) == (
        "Les Pylonautes", "admin", ["Ada"], False)
    code = club["invite_code"]
    for name in ("LES PYLONAUTES", "Les Pyl\u043enautes"):  # case, a Cyrillic o
        taken = bob.post("/api/clubs", {"name": name})
        assert (taken.status_code, taken.json()["code"]) == (409, "name_taken")
    assert bob.post("/api/clubs", {"name": "x"}).json()["code"] == "bad_request"
    path = f"/api/clubs/{club['id']}"
    assert bob.get(path).json()["code"] == "not_member"  # invite-only: not readable
    assert "invite_code" not in bob.get(f"{path}?invite={code}").json()
    assert bob.post(f"{path}/join").json()["code"] == "invite_invalid"
    joined = bob.post(f"{path}/join", {"invite": code})
    assert joined.status_code == 200 and joined.json()["role"] == "member"
    assert "invite_code" not in joined.json()  # admins only
    assert bob.post(f"{path}/join", {"invite": code}).json()["code"] == "already_joined"
    assert bob.post(f"{path}/invite").json()["code"] == "not_admin"
    renewed = ada.post(f"{path}/invite").json()["invite_code"]
    assert renewed != code
    assert cyd.post(f"{path}/join", {"invite": code}).json()["code"] == "invite_invalid"  # the old link
    assert cyd.post(f"{path}/join", {"invite": renewed}).status_code == 200
    assert [club["name"] for club in cyd.get("/api/clubs").json()["mine"]] == ["Les Pylonautes"]
    assert client.get("/api/clubs").json()["open"] == []  # invite-only clubs are not listed
    # Admins: add one, the last one cannot step down, remove a member.
    assert bob.post(f"{path}/members/Cyd/role", {"role": "admin"}).json()["code"] == "not_admin"
    assert ada.post(f"{path}/members/Bob/role", {"role": "admin"}).json()["admins"] == ["Ada", "Bob"]
    assert bob.post(f"{path}/members/Ada/role", {"role": "member"}).json()["admins"] == ["Bob"]
    refused = bob.post(f"{path}/members/Bob/role", {"role": "member"})
    assert (refused.status_code, refused.json()["code"]) == (409, "last_admin")
    assert ada.delete(f"{path}/members/Cyd").json()["code"] == "not_admin"
    assert bob.delete(f"{path}/members/Cyd").status_code == 204
    assert cyd.get(path).json()["code"] == "not_member"
    # The last admin leaving: the longest member becomes admin; the last member ends the club.
    assert bob.post(f"{path}/leave").status_code == 204
    assert ada.get(path).json()["admins"] == ["Ada"]
    assert ada.post(f"{path}/leave").status_code == 204
    assert ada.get(path).json()["code"] == "not_found"


def test_an_open_club_is_listed_and_shows_its_members_ratings(db_url: str, client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    club = ada.post("/api/clubs", {"name": "Club Ouvert"}).json()
    path = f"/api/clubs/{club['id']}"
    listed = client.get("/api/clubs").json()
    assert listed == {"mine": [], "open": [{"id": club["id"], "name": "Club Ouvert", "description": "",
                                            "open": True, "members": 1, "role": None}]}
    assert bob.post(f"{path}/join").status_code == 200
    engine = create_engine(database_url(db_url))
    with engine.begin() as connection:
        ids = dict(connection.execute(tables.accounts.select().with_only_columns(
            tables.accounts.c.name, tables.accounts.c.id)).all())
        rows = [("Ada", "pylos/2", 1620.0, 80.0, 12), ("Bob", "pylos/2", 1710.0, 200.0, 3),
                ("Bob", "expion/4", 1490.0, 90.0, 5)]
        connection.execute(insert(tables.ratings), [
            {"account_id": ids[name], "category": category, "rating": rating, "deviation": deviation,
             "volatility": 0.06, "games": games, "updated": 0.0}
            for name, category, rating, deviation, games in rows])
        assert clubs.is_member(connection, club["id"], ids["Bob"]) is True
        assert clubs.is_member(connection, "nope", ids["Bob"]) is False
    engine.dispose()
    page = client.get(path).json()  # anyone reads an open club's page
    assert page["role"] is None and "invite_code" not in page
    assert [(member["name"], member["role"]) for member in page["members_list"]] == [("Ada", "admin"),
                                                                                      ("Bob", "member")]
    assert page["ratings"] == {
        "expion/4": [{"name": "Bob", "rating": 1490, "games": 5, "provisional": False}],
        "pylos/2": [{"name": "Bob", "rating": 1710, "games": 3, "provisional": True},
                    {"name": "Ada", "rating": 1620, "games": 12, "provisional": False}]}
    assert ada.post(f"{path}/settings", {"open": False, "description": "Fermé"}).json()["open"] is False
    assert client.get("/api/clubs").json()["open"] == []


def test_the_club_chat_is_for_members_live_and_without_blocked_writers(client: TestClient) -> None:
    ada, bob, cyd = Person(client, "Ada"), Person(client, "Bob"), Person(client, "Cyd")
    club = ada.post("/api/clubs", {"name": "Causerie"}).json()
    path = f"/api/clubs/{club['id']}"
    for person in (bob, cyd):
        person.post(f"{path}/join")
    outsider = Person(client, "Dan")
    assert outsider.post(f"{path}/chat", {"text": "hello"}).json()["code"] == "not_member"
    assert outsider.get(f"{path}/chat").json()["code"] == "not_member"
    with outsider.socket(f"/api/clubs/{club['id']}/ws") as refused:
        assert refused.receive_json()["code"] == "not_member"
    assert ada.post("/api/players/Cyd/block").status_code == 200
    with ada.socket(f"/api/clubs/{club['id']}/ws") as adas, bob.socket(f"/api/clubs/{club['id']}/ws") as bobs:
        read_until(adas, "club_ready")
        read_until(bobs, "club_ready")
        said = cyd.post(f"{path}/chat", {"text": " salut\u202e tout le monde "})
        assert said.status_code == 201 and said.json()["text"] == "salut tout le monde"
        assert read_until(bobs, "club_chat")["line"] == said.json()
        line = bob.post(f"{path}/chat", {"text": "bonjour"}).json()
        assert read_until(adas, "club_chat")["line"] == line  # Cyd's line never reached Ada
        assert read_until(bobs, "club_chat")["line"] == line
        assert ada.delete(f"{path}/members/Bob").status_code == 204
        assert read_until(bobs, "club_left") == {"type": "club_left", "club": club["id"]}
    assert bob.get(f"{path}/chat").json()["code"] == "not_member"
    assert [entry["text"] for entry in ada.get(f"{path}/chat").json()["lines"]] == ["bonjour"]
    cyds = cyd.get(f"{path}/chat").json()["lines"]
    assert [entry["text"] for entry in cyds] == ["salut tout le monde", "bonjour"]
    assert cyd.post(f"{path}/chat", {"text": "   "}).json()["code"] == "bad_request"
