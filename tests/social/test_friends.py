"""Friends over HTTP and WebSocket, on SQLite and PostgreSQL: follows, who is online, direct
challenges (accepted into a game with both seated, declined, cancelled, expired), blocks."""

from __future__ import annotations

import time

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, select, update

from ludotheque.server import friends, tables
from ludotheque.server.config import database_url
from ludotheque.server.friend_tables import challenges

from .helpers import Person, eventually, read_until

CHALLENGE = {"game": "pylos", "clock": {"type": "fischer", "minutes": 5, "increment": 2}, "rated": True}


def follows(person: Person) -> dict[str, dict[str, object]]:
    answer = person.get("/api/friends")
    assert answer.status_code == 200, answer.text
    return {entry["name"]: entry for entry in answer.json()["follows"]}


def test_following_shows_who_is_online_and_their_games(client: TestClient) -> None:
    ada, bob, cy = Person(client, "Ada"), Person(client, "Bob"), Person(client, "Cyd")
    assert ada.post("/api/players/bob/follow").json() == {"name": "Bob", "following": True}
    assert ada.post("/api/players/Bob/follow").status_code == 200  # again: nothing changes
    assert ada.post("/api/players/Ada/follow").json()["code"] == "bad_request"
    assert ada.post("/api/players/nobody/follow").json()["code"] == "not_found"
    assert follows(ada) == {"Bob": {"name": "Bob", "online": False, "games": []}}
    assert bob.get("/api/friends").json()["followers"] == ["Ada"]
    game = bob.post("/api/games", {"game": "pylos", "seats": ["human", "open"]}).json()["id"]
    assert cy.post(f"/api/games/{game}/seats/1/join", {}).status_code == 200
    with bob.socket("/api/friends/ws") as socket:
        assert read_until(socket, "challenges") == {"type": "challenges", "received": [], "sent": []}
        bob_seen = follows(ada)["Bob"]
        assert bob_seen["online"] is True
        assert [entry["id"] for entry in bob_seen["games"]] == [game]  # type: ignore[union-attr]
        assert ada.get("/api/players/Bob/relation").json() == {
            "name": "Bob", "following": True, "blocked": False, "online": True, "self": False}
        socket.send_json({"type": "ping"})
        assert read_until(socket, "pong") == {"type": "pong"}
    assert eventually(lambda: follows(ada)["Bob"]["online"] is False)  # its last socket closed
    assert ada.delete("/api/players/Bob/follow").status_code == 204
    assert follows(ada) == {}
    guest = client.post("/api/account/guest").json()
    client.cookies.clear()
    assert guest["account"]["guest"] is True
    assert client.get("/api/friends").json()["code"] == "sign_in_required"
    with client.websocket_connect("/api/friends/ws") as nobody:
        assert (nobody.receive_json()["code"]) == "sign_in_required"


def test_an_accepted_challenge_seats_both_in_a_new_game(client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    with bob.socket("/api/friends/ws") as bobs, ada.socket("/api/friends/ws") as adas:
        read_until(bobs, "challenges")
        read_until(adas, "challenges")
        made = ada.post("/api/players/Bob/challenge", CHALLENGE)
        assert made.status_code == 201, made.text
        challenge = made.json()
        assert (challenge["from"], challenge["to"], challenge["status"]) == ("Ada", "Bob", "pending")
        assert read_until(bobs, "challenge")["challenge"] == challenge  # live, without a reload
        received = bob.get("/api/friends").json()["received"]
        assert [entry["id"] for entry in received] == [challenge["id"]]
        assert ada.get("/api/friends").json()["sent"][0]["id"] == challenge["id"]
        assert ada.post(f"/api/challenges/{challenge['id']}/accept").json()["code"] == "not_found"
        accepted = bob.post(f"/api/challenges/{challenge['id']}/accept")
        assert accepted.status_code == 201, accepted.text
        game_id = accepted.json()["id"]
        told = read_until(adas, "challenge_accepted")
        assert told["game"] == game_id and told["challenge"]["status"] == "accepted"
        assert read_until(adas, "matched")["game"] == game_id
    document = client.get(f"/api/games/{game_id}").json()
    assert {seat["name"] for seat in document["seats"]} == {"Ada", "Bob"}
    assert document["rated"] is True and document["status"] == "playing"
    assert (document["clock"]["type"], document["clock"]["minutes"], document["clock"]["increment"]) == (
        "fischer", 5, 2)
    for person in (ada, bob):  # both seated: the game is in "my games" of each
        assert [entry["id"] for entry in person.get("/api/me/games").json()["games"]] == [game_id]
    again = bob.post(f"/api/challenges/{challenge['id']}/accept")
    assert (again.status_code, again.json()["code"]) == (409, "challenge_closed")
    assert bob.get("/api/friends").json()["received"] == []


def test_declined_cancelled_and_expired_challenges(db_url: str, client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    bad = ada.post("/api/players/Bob/challenge", {"game": "chess"})
    assert (bad.status_code, bad.json()["code"]) == (400, "unknown_game")
    short = ada.post("/api/players/Bob/challenge",
                     {"game": "pylos", "clock": {"type": "fischer", "minutes": 0.1}})
    assert short.status_code == 400
    with ada.socket("/api/friends/ws") as adas, bob.socket("/api/friends/ws") as bobs:
        read_until(adas, "challenges")
        read_until(bobs, "challenges")
        first = ada.post("/api/players/Bob/challenge", {"game": "expion", "players": 3}).json()
        assert first["players"] == 3 and first["rated"] is False
        assert read_until(bobs, "challenge")["challenge"]["id"] == first["id"]
        declined = bob.post(f"/api/challenges/{first['id']}/decline")
        assert declined.json()["status"] == "declined"
        assert read_until(adas, "challenge_declined")["challenge"]["id"] == first["id"]
        second = ada.post("/api/players/Bob/challenge", {"game": "plimil", "variant": "open"}).json()
        assert read_until(bobs, "challenge")["challenge"]["id"] == second["id"]
        # Only the challenger cancels.
        assert bob.delete(f"/api/challenges/{second['id']}").json()["code"] == "not_found"
        assert ada.delete(f"/api/challenges/{second['id']}").status_code == 204
        assert read_until(bobs, "challenge_cancelled")["challenge"]["id"] == second["id"]
        assert bob.post(f"/api/challenges/{second['id']}/accept").json()["code"] == "challenge_closed"
    third = ada.post("/api/players/Bob/challenge", {"game": "pylos"}).json()
    assert third["expires"] - third["created"] == friends.CHALLENGE_S
    engine = create_engine(database_url(db_url))
    with engine.begin() as connection:  # its time passes
        connection.execute(update(challenges).where(challenges.c.id == third["id"])
                           .values(expires=time.time() - 1))
    engine.dispose()
    assert bob.get("/api/friends").json()["received"] == []
    late = bob.post(f"/api/challenges/{third['id']}/accept")
    assert (late.status_code, late.json()["code"]) == (409, "challenge_closed")
    assert "expired" in late.json()["error"]


def test_a_blocked_player_cannot_follow_challenge_nor_see_the_blocker_online(client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    assert bob.post("/api/players/Ada/follow").status_code == 200
    pending = bob.post("/api/players/Ada/challenge", {"game": "pylos"}).json()
    with ada.socket("/api/friends/ws") as socket:
        read_until(socket, "challenges")
        assert follows(bob)["Ada"]["online"] is True
        assert ada.post("/api/players/Bob/block").json() == {"name": "Bob", "blocked": True}
        assert follows(bob) == {}  # the block ended Bob's follow
        for refused in (bob.post("/api/players/Ada/follow"),
                        bob.post("/api/players/Ada/challenge", {"game": "pylos"}),
                        ada.post("/api/players/Bob/challenge", {"game": "pylos"})):
            assert (refused.status_code, refused.json()["code"]) == (403, "blocked")
        assert ada.post(f"/api/challenges/{pending['id']}/accept").json()["code"] == "challenge_closed"
        assert bob.get("/api/players/Ada/relation").json()["online"] is False  # online, not to Bob
        assert ada.get("/api/players/Bob/relation").json()["blocked"] is True
        assert ada.get("/api/friends").json()["blocked"] == ["Bob"]
        assert ada.delete("/api/players/Bob/block").status_code == 204
        assert bob.post("/api/players/Ada/follow").status_code == 200
        assert follows(bob)["Ada"]["online"] is True


def test_is_blocked_tells_the_chat_whose_lines_a_reader_refuses(db_url: str, client: TestClient) -> None:
    """``friends.is_blocked(connection, reader, writer)``: what the chat asks before delivering."""
    ada, _ = Person(client, "Ada"), Person(client, "Bob")
    cross_site = client.post("/api/players/Bob/block", headers={**ada.cookie, "Origin": "https://evil.example"})
    assert (cross_site.status_code, cross_site.json()["code"]) == (403, "origin_refused")
    assert ada.post("/api/players/Bob/block").status_code == 200
    engine = create_engine(database_url(db_url))
    with engine.begin() as connection:
        accounts = dict(connection.execute(select(tables.accounts.c.name, tables.accounts.c.id)).all())
        assert friends.is_blocked(connection, accounts["Ada"], accounts["Bob"]) is True
        assert friends.is_blocked(connection, accounts["Bob"], accounts["Ada"]) is False
    assert ada.delete("/api/players/Bob/block").status_code == 204
    with engine.begin() as connection:
        assert friends.is_blocked(connection, accounts["Ada"], accounts["Bob"]) is False
    engine.dispose()


def test_a_blocked_players_chat_lines_never_reach_the_blocker(client: TestClient) -> None:
    ada, bob = Person(client, "Ada"), Person(client, "Bob")
    made = ada.post("/api/players/Bob/challenge", CHALLENGE).json()
    game_id = bob.post(f"/api/challenges/{made['id']}/accept").json()["id"]
    assert bob.post(f"/api/games/{game_id}/chat", {"text": "before the block"}).status_code == 201
    assert ada.post("/api/players/Bob/block").status_code == 200
    assert bob.post(f"/api/games/{game_id}/chat", {"text": "after the block"}).status_code == 201
    assert ada.post(f"/api/games/{game_id}/chat", {"text": "Ada speaks"}).status_code == 201

    def texts(person: Person) -> list[str]:
        return [line["text"] for line in person.get(f"/api/games/{game_id}/chat").json()["lines"]]

    assert texts(ada) == ["Ada speaks"]  # none of Bob's, not even from before the block
    assert texts(bob) == ["before the block", "after the block", "Ada speaks"]
