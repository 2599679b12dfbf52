"""Players: "my games" with whose turn and deadlines, the lobby's open games with their creator's
name and rating, rated games moving ratings (Glicko-2 for two sides, OpenSkill for teams, bots
rated apart against their calibrated ratings), the player's page and its filters."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from fastapi.testclient import TestClient

from .helpers import bearer

PASSWORD = "correct horse"


class Person:
    """One signed-in player: requests sent with their session cookie only (a browser of their own)."""

    def __init__(self, client: TestClient, name: str) -> None:
        self.name = name
        answer = client.post("/api/account/signup", json={"name": name, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        self.cookie = {"Cookie": f"ludotheque_session={client.cookies.get('ludotheque_session')}"}
        client.cookies.clear()

    def get(self, client: TestClient, path: str) -> Any:
        return client.get(path, headers=self.cookie)

    def post(self, client: TestClient, path: str, body: Any = None) -> Any:
        return client.post(path, json=body, headers=self.cookie)


def people(client: TestClient, *names: str) -> list[Person]:
    return [Person(client, name) for name in names]


def eventually(check: Callable[[], Any], seconds: float = 15.0) -> Any:
    """Poll ``check`` until it returns something true (background work: ratings)."""
    deadline = time.monotonic() + seconds
    while True:
        value = check()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.05)


def rated_document(client: TestClient, game: str) -> Any:
    """The game's document once seat 0's rating change is known (else nothing)."""
    doc = client.get(f"/api/games/{game}").json()
    return doc["seats"][0]["rating_change"] and doc


def test_my_games_show_whose_turn_it_is_and_the_deadline(client: TestClient) -> None:
    ada, bob = people(client, "Ada", "Bob")
    post = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"],
                                           "clock": {"type": "correspondence", "days": 3}})
    pylos = post.json()["id"]
    waiting = ada.post(client, "/api/games", {"game": "imbrication", "seats": ["human", "open"]}).json()["id"]
    assert bob.post(client, f"/api/games/{pylos}/seats/1/join", {}).status_code == 200
    mine = ada.get(client, "/api/me/games").json()
    assert mine["your_turn"] == 1
    first, second = mine["games"]
    assert (first["id"], first["your_turn"], first["my_seats"], first["to_move"]) == (pylos, True, [0], 0)
    assert [seat["name"] for seat in first["seats"]] == ["Ada", "Bob"]
    assert [seat["player"] for seat in first["seats"]] == ["Ada", "Bob"]
    assert first["clock"] == {"type": "correspondence", "days": 3} and first["deadline"] is not None
    assert (second["id"], second["status"], second["your_turn"]) == (waiting, "waiting", False)
    theirs = bob.get(client, "/api/me/games").json()
    assert theirs["your_turn"] == 0 and [g["id"] for g in theirs["games"]] == [pylos]
    assert ada.post(client, f"/api/games/{pylos}/moves", {"move": "1a1"}).status_code == 200
    assert ada.get(client, "/api/me/games").json()["your_turn"] == 0
    assert bob.get(client, "/api/me/games").json()["your_turn"] == 1
    nobody = client.get("/api/me/games")
    assert (nobody.status_code, nobody.json()["code"]) == (401, "sign_in_required")


def test_open_games_name_their_creator_rating_variant_and_clock(client: TestClient) -> None:
    [ada] = people(client, "Ada")
    body = {"game": "pylos", "variant": "kids", "seats": ["human", "open"], "rated": True,
            "clock": {"type": "fischer", "minutes": 5, "increment": 3}}
    created = ada.post(client, "/api/games", body).json()["id"]
    anonymous = client.post("/api/games", json={"game": "pylos", "seats": ["human", "open"]}).json()["id"]
    listed = {game["id"]: game for game in client.get("/api/games?status=open").json()["games"]}
    entry = listed[created]
    assert entry["creator"] == {"name": "Ada", "guest": False, "rating": None}  # not rated in Pylos yet
    assert (entry["variant"], entry["rated"]) == ("kids", True)
    assert entry["clock"] == {"type": "fischer", "minutes": 5, "increment": 3}
    assert listed[anonymous]["creator"] is None and listed[anonymous]["rated"] is False


def finish_by_resignation(client: TestClient, person: Person, game_id: str, seat: int) -> None:
    answer = person.post(client, f"/api/games/{game_id}/seats/{seat}/resign")
    assert answer.status_code == 200, answer.text


def test_a_rated_game_moves_both_ratings_with_glicko2(client: TestClient) -> None:
    ada, bob = people(client, "Ada", "Bob")
    game = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"],
                                           "rated": True}).json()["id"]
    assert bob.post(client, f"/api/games/{game}/seats/1/join", {}).status_code == 200
    twice = bob.post(client, f"/api/games/{game}/seats/0/join", {})
    assert twice.status_code == 409
    doc = client.get(f"/api/games/{game}").json()
    assert doc["rated"] is True and [s["rating"] for s in doc["seats"]] == [None, None]
    finish_by_resignation(client, bob, game, 1)
    doc = eventually(lambda: rated_document(client, game))
    assert doc["seats"][0]["rating_change"] > 0 > doc["seats"][1]["rating_change"]
    assert doc["seats"][0]["rating"]["rating"] > 1500 > doc["seats"][1]["rating"]["rating"]
    page = client.get("/api/players/ada").json()
    [rating] = page["ratings"]
    assert (rating["category"], rating["games"], rating["provisional"]) == ("pylos/2", 1, True)
    assert rating["rating"] == doc["seats"][0]["rating"]["rating"]
    assert [(p["game"], p["before"]) for p in rating["history"]] == [(game, 1500)]
    # A casual game changes nothing.
    casual = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"]}).json()["id"]
    bob.post(client, f"/api/games/{casual}/seats/1/join", {})
    finish_by_resignation(client, ada, casual, 0)
    time.sleep(0.3)
    assert client.get("/api/players/Ada").json()["ratings"][0]["games"] == 1


def test_teams_are_rated_with_openskill(client: TestClient) -> None:
    four = people(client, "North", "East", "South", "West")
    body = {"game": "expion", "players": 4, "seats": ["human", "open", "open", "open"], "rated": True}
    game = four[0].post(client, "/api/games", body).json()["id"]
    for seat, person in enumerate(four[1:], start=1):
        assert person.post(client, f"/api/games/{game}/seats/{seat}/join", {}).status_code == 200
    doc = client.get(f"/api/games/{game}").json()
    assert doc["status"] == "playing"
    finish_by_resignation(client, four[1], game, 1)
    def rated() -> Any:
        doc = client.get(f"/api/games/{game}").json()
        return all(seat["rating_change"] is not None for seat in doc["seats"]) and doc

    done = eventually(rated)
    winners = set(done["result"]["winners"])
    assert 1 not in winners and winners
    for seat in done["seats"]:
        assert (seat["rating_change"] > 0) == (seat["seat"] in winners), seat
    assert client.get("/api/players/West").json()["ratings"][0]["category"] == "expion/4"


def test_games_against_bots_are_rated_apart_against_calibrated_bots(client: TestClient) -> None:
    [ada] = people(client, "Ada")
    mixed = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "bot:random"], "rated": True})
    assert mixed.status_code == 201
    game = mixed.json()["id"]
    doc = client.get(f"/api/games/{game}").json()
    assert doc["seats"][1]["rating"]["rating"] == 600  # the random bot, calibrated from the arena
    finish_by_resignation(client, ada, game, 0)
    done = eventually(lambda: rated_document(client, game))
    assert done["seats"][0]["rating_change"] < 0 and done["seats"][1]["rating"]["rating"] == 600
    [rating] = client.get("/api/players/Ada").json()["ratings"]
    assert rating["category"] == "pylos/2/bots"
    bots = client.get("/api/bots").json()["bots"]
    pylos = next(entry for entry in bots if entry["game"] == "pylos")
    assert pylos["ratings"]["random"] == 600 < pylos["ratings"]["easy"] < pylos["ratings"]["hard"]


def test_the_player_page_filters_games(client: TestClient) -> None:
    ada, bob = people(client, "Ada", "Bob")
    ids = []
    for loser in (1, 0, 1):
        game = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"]}).json()["id"]
        bob.post(client, f"/api/games/{game}/seats/1/join", {})
        finish_by_resignation(client, ada if loser == 0 else bob, game, loser)
        ids.append(game)
    playing = ada.post(client, "/api/games", {"game": "imbrication", "seats": ["human", "open"]}).json()["id"]
    bob.post(client, f"/api/games/{playing}/seats/1/join", {})
    everything = client.get("/api/players/Ada/games").json()["games"]
    assert {g["id"] for g in everything} == {*ids, playing}
    won = client.get("/api/players/Ada/games?result=won").json()["games"]
    assert {g["id"] for g in won} == {ids[0], ids[2]} and all(g["outcome"] == "won" for g in won)
    lost = client.get("/api/players/Bob/games?result=lost&game=pylos").json()["games"]
    assert {g["id"] for g in lost} == {ids[0], ids[2]}
    imbrication = client.get("/api/players/Ada/games?game=imbrication").json()["games"]
    assert [g["id"] for g in imbrication] == [playing]
    assert [g["id"] for g in client.get("/api/players/Ada").json()["current"]] == [playing]
    for query, code in [("?result=maybe", "bad_request"), ("?game=chess", "unknown_game"),
                        ("?status=waiting", "bad_request")]:
        answer = client.get(f"/api/players/Ada/games{query}")
        assert (answer.status_code, answer.json()["code"]) == (400, code), query
    for name in ("Nobody", "guest-000000"):
        missing = client.get(f"/api/players/{name}")
        assert (missing.status_code, missing.json()["code"]) == (404, "not_found")


def test_a_personal_token_lists_my_games(client: TestClient) -> None:
    [ada] = people(client, "Ada")
    token = ada.post(client, "/api/me/tokens", {"label": "bot"}).json()["token"]
    game = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "human"]}).json()["id"]
    listed = client.get("/api/me/games", headers=bearer(token)).json()
    assert listed["your_turn"] == 1 and listed["games"][0]["id"] == game
