"""Expiry: open games nobody joins expire (casual ones are deleted, rated ones archived, never
deleted); games of guests (or of nobody) untouched for 30 days are archived: they leave the lobby
and "my games", and stay readable by id; games of signed-in players stay."""

from __future__ import annotations

import time

from sqlalchemy import create_engine, text

from ludotheque.server.config import database_url

from .conftest import serving
from .test_players import Person, eventually

DAY_S = 86_400


def age(db_url: str, game_ids: list[str], days: float) -> None:
    """Make games look untouched for ``days``."""
    engine = create_engine(database_url(db_url))
    with engine.begin() as connection:
        for game_id in game_ids:
            connection.execute(text("UPDATE games SET updated = :t WHERE id = :g"),
                               {"t": time.time() - days * DAY_S, "g": game_id})
    engine.dispose()


def test_old_guest_games_are_archived_and_player_games_kept(db_url: str) -> None:
    with serving(db_url) as client:
        guest_game = client.post("/api/games?cookie=1", json={"game": "pylos", "seats": ["human",
                                                                                         "human"]}).json()
        guest_cookie = {"Cookie": f"ludotheque_session={client.cookies.get('ludotheque_session')}"}
        client.cookies.clear()
        nobodys = client.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]}).json()
        ada = Person(client, "Ada")
        players = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "human"]}).json()
        fresh = client.post("/api/games", json={"game": "pylos", "seats": ["human", "human"]}).json()
        assert len(client.get("/api/me/games", headers=guest_cookie).json()["games"]) == 1
    age(db_url, [guest_game["id"], nobodys["id"], players["id"]], 25)
    with serving(db_url, guest_archive_days=20) as client:  # expiry runs soon after every start, and hourly
        expected = {players["id"], fresh["id"]}
        listed = eventually(lambda: {g["id"] for g in client.get("/api/games?status=playing").json()["games"]}
                            == expected)
        assert listed
        assert client.get("/api/me/games", headers=guest_cookie).json()["games"] == []
        for archived in (guest_game, nobodys):
            assert client.get(f"/api/games/{archived['id']}").json()["status"] == "playing"


def test_open_games_nobody_joins_expire_and_rated_ones_are_kept(db_url: str) -> None:
    with serving(db_url) as client:
        ada = Person(client, "Ada")
        casual = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"]}).json()["id"]
        rated = ada.post(client, "/api/games", {"game": "pylos", "seats": ["human", "open"],
                                                "rated": True}).json()
    age(db_url, [casual, rated["id"]], 8)
    with serving(db_url, waiting_days=7) as client:  # at the start, before anything else
        assert client.get(f"/api/games/{casual}").status_code == 404
        kept = client.get(f"/api/games/{rated['id']}")
        assert kept.status_code == 200 and kept.json()["status"] == "waiting"
        assert client.get("/api/games?status=open").json()["games"] == []
