"""Migrations from the schema before accounts (revision 0002): games stored then are kept, their
seat to move is filled in, and they still play with their seat tokens after the upgrade."""

from __future__ import annotations

import json
import time

from fastapi.testclient import TestClient
from sqlalchemy import create_engine, text

from ludotheque.server.config import database_url
from ludotheque.server.migrate import upgrade
from ludotheque.server.sessions import hash_token

from .conftest import serving
from .helpers import bearer

PREVIOUS_HEAD = "0002"
GAME_COLUMNS = ("id, game, variant, players, seed, rules_version, status, result, clock, clock_running, "
                "clock_started, draw_offer, rematch, rematch_of, owner, created, started, ended, updated")


def old_game(connection: object, game_id: str, status: str, moves: list[str],
             result: str | None = None) -> None:
    """A game written as the previous schema's server wrote it (two people, Pylos)."""
    execute = connection.execute  # type: ignore[attr-defined]
    execute(text(f"INSERT INTO games ({GAME_COLUMNS}) VALUES (:id, 'pylos', 'standard', 2, 7, 1, :status, "
                 ":result, NULL, NULL, NULL, '[]', NULL, NULL, 'owner', '2026-01-01T00:00:00+00:00', "
                 "'2026-01-01T00:00:00+00:00', NULL, :updated)"),
            {"id": game_id, "status": status, "result": result, "updated": time.time()})
    for seat in (0, 1):
        execute(text("INSERT INTO seats (game_id, seat, kind, name, level, token_hash, bot_seed, "
                     "remaining_ms, "
                     "invite_hash) VALUES (:gid, :seat, 'human', :name, NULL, :hash, NULL, NULL, NULL)"),
                {"gid": game_id, "seat": seat, "name": f"Old {seat}",
                 "hash": hash_token(f"{game_id}-{seat}")})
    for ply, move in enumerate(moves):
        execute(text("INSERT INTO moves (game_id, ply, text, played) VALUES (:gid, :ply, :text, :played)"),
                {"gid": game_id, "ply": ply, "text": move, "played": time.time()})


def test_games_of_the_previous_schema_survive_the_upgrade_and_play_on(db_url: str) -> None:
    engine = create_engine(database_url(db_url))
    upgrade(engine, PREVIOUS_HEAD)
    finished = json.dumps({"winners": [0], "scores": [1, -1], "reason": "resignation"})
    with engine.begin() as connection:
        old_game(connection, "old-playing", "playing", ["1a1", "1d4", "1b1"])
        old_game(connection, "old-over", "over", ["1a1"], finished)
    upgrade(engine)  # what a new server does at its start
    with engine.connect() as connection:
        rows: dict[str, int | None] = dict(connection.execute(text("SELECT id, to_move FROM games")).all())
        flags = connection.execute(text("SELECT DISTINCT rated, archived FROM games")).all()
        owned = text("SELECT COUNT(*) FROM seats WHERE account_id IS NOT NULL")
        accounts = connection.execute(owned).scalar()
    engine.dispose()
    assert rows == {"old-playing": 1, "old-over": None}
    assert [tuple(map(bool, flag)) for flag in flags] == [(False, False)] and accounts == 0
    with serving(db_url) as client:
        check_old_games_play_on(client)


def check_old_games_play_on(client: TestClient) -> None:
    doc = client.get("/api/games/old-playing", headers=bearer("old-playing-1")).json()
    assert doc["seat"] == 1 and doc["moves"] == ["1a1", "1d4", "1b1"] and doc["to_move"] == 1
    assert [seat["name"] for seat in doc["seats"]] == ["Old 0", "Old 1"]
    moved = client.post("/api/games/old-playing/moves", json={"move": "1c4", "ply": 3},
                        headers=bearer("old-playing-1"))
    assert moved.status_code == 200 and moved.json()["to_move"] == 0
    over = client.get("/api/games/old-over").json()
    assert over["status"] == "over" and over["result"]["winners"] == [0]
    listed = client.get("/api/games?status=playing").json()["games"]
    assert [game["id"] for game in listed] == ["old-playing"]


def old_account(connection: object, account_id: str, name: str, created: str) -> None:
    """An account as revision 0004's server wrote it (its name key only casefolded)."""
    connection.execute(  # type: ignore[attr-defined]
        text("INSERT INTO accounts (id, name, name_key, password_hash, is_guest, email, notify_email, "
             "created, seen) VALUES (:id, :name, :key, NULL, false, NULL, false, :created, 0)"),
        {"id": account_id, "name": name, "key": name.casefold(), "created": created})


def test_existing_names_get_their_skeletons_and_look_alikes_are_refused_after(db_url: str) -> None:
    engine = create_engine(database_url(db_url))
    upgrade(engine, "0004")
    with engine.begin() as connection:
        old_account(connection, "alice", "Alice", "2026-01-01T00:00:00+00:00")
        old_account(connection, "cyrillic", "\u0410lice", "2026-02-01T00:00:00+00:00")  # a look-alike, later
        old_account(connection, "wide", "\uff22ob", "2026-03-01T00:00:00+00:00")
    upgrade(engine)
    with engine.connect() as connection:
        rows = {row.id: (row.name, row.name_key, row.name_skeleton) for row in connection.execute(
            text("SELECT id, name, name_key, name_skeleton FROM accounts"))}
    engine.dispose()
    assert rows["alice"] == ("Alice", "alice", "alice")
    assert rows["cyrillic"][0] == "\u0410lice" and rows["cyrillic"][2] == "alice#cyrillic"  # kept, unique
    assert rows["wide"] == ("\uff22ob", "bob", "bob")  # its key now NFKC-folded
    with serving(db_url) as client:
        for name in ("Alice", "\u0410lice", "Bob"):
            answer = client.post("/api/account/signup", json={"name": name, "password": "correct horse"})
            assert (answer.status_code, answer.json()["code"]) == (409, "name_taken"), name
