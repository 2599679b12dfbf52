"""``ludotheque backup`` and ``ludotheque restore`` on SQLite and PostgreSQL, with a real server
running and a real game being played during the backup: the backup is one moment's database (no
move played during it is in it, every game in it is whole), and restored into a new database it
replays every stored game to the same positions, with the same ratings, and serves them again.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
from sqlalchemy import create_engine, select
from sqlalchemy.engine import Engine

import ludotheque
from ludotheque.server import tables
from ludotheque.server.backup import BackupError, backup_kind_of_url
from ludotheque.server.backup import backup as make_backup
from ludotheque.server.config import database_url
from tests.server.helpers import bearer
from tests.server.test_players import Person
from tests.support.server import ServerProcess

from .conftest import NewDatabase, invoke

COMPARED = [table.name for table in tables.metadata.sorted_tables]


# -- playing on the real server ---------------------------------------------------------------------
def document(http: httpx.Client, game_id: str, token: str | None = None) -> dict[str, Any]:
    answer = http.get(f"/api/games/{game_id}", headers=bearer(token) if token else {})
    assert answer.status_code == 200, answer.text
    doc: dict[str, Any] = answer.json()
    return doc


def play_one(http: httpx.Client, game_id: str, tokens: list[str], rng: random.Random) -> bool:
    """Play one random legal move of the seat to move; False once the game is over."""
    doc = document(http, game_id)
    if doc["status"] != "playing":
        return False
    token = tokens[doc["to_move"]]
    mine = document(http, game_id, token)
    move = rng.choice(mine["legal_moves"])
    answer = http.post(f"/api/games/{game_id}/moves", json={"move": move, "ply": len(mine["moves"])},
                       headers=bearer(token))
    assert answer.status_code == 200, answer.text
    return True


def new_game(http: httpx.Client, **body: Any) -> tuple[str, list[str]]:
    body.setdefault("seats", ["human", "human"])
    answer = http.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], [seat.get("token", "") for seat in created["seats"]]


def wait_for(check: Any, seconds: float = 20.0) -> Any:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.05)
    raise AssertionError("timed out")


def populate(http: httpx.Client) -> dict[str, Any]:
    """Games of every state: finished by the rules, resigned (rated: ratings move), under way
    (Pylos, Imbrication with its hidden tiles), waiting for a player."""
    rng = random.Random(7)
    finished, finished_tokens = new_game(http, game="pylos")
    while play_one(http, finished, finished_tokens, rng):
        pass
    ada, bob = Person(http, "Ada"), Person(http, "Bob")  # an httpx client: a TestClient is one
    rated = ada.post(http, "/api/games", {"game": "pylos", "seats": ["human", "open"], "rated": True})
    rated_id = rated.json()["id"]
    assert bob.post(http, f"/api/games/{rated_id}/seats/1/join", {}).status_code == 200
    assert ada.post(http, f"/api/games/{rated_id}/moves", {"move": "1a1"}).status_code == 200
    assert bob.post(http, f"/api/games/{rated_id}/seats/1/resign").status_code == 200
    wait_for(lambda: document(http, rated_id)["seats"][0].get("rating_change"))
    under_way = {}
    for game in ("pylos", "imbrication"):
        game_id, tokens = new_game(http, game=game)
        for _ in range(9):
            play_one(http, game_id, tokens, rng)
        under_way[game_id] = tokens
    new_game(http, game="plimil", seats=["human", "open"])
    return {"under_way": under_way, "ada": ada}


class LivePlay(threading.Thread):
    """A game played on the server, move after move, until stopped (a new game after each end)."""

    def __init__(self, url: str) -> None:
        super().__init__(daemon=True)
        self.url = url
        self.moves = 0
        self.stop = threading.Event()
        self.error: BaseException | None = None

    def run(self) -> None:
        rng = random.Random(11)
        try:
            with httpx.Client(base_url=self.url, timeout=30) as http:
                game_id, tokens = new_game(http, game="pylos")
                while not self.stop.is_set():
                    if play_one(http, game_id, tokens, rng):
                        self.moves += 1
                    else:
                        game_id, tokens = new_game(http, game="pylos")
                    time.sleep(0.02)
        except BaseException as error:  # reported by the test
            self.error = error

    def wait_moves(self, count: int, seconds: float = 30.0) -> None:
        wait_for(lambda: self.moves >= count or self.error, seconds)
        assert self.error is None, self.error

    def finish(self) -> None:
        self.stop.set()
        self.join(30)
        assert self.error is None, self.error


# -- what a database holds --------------------------------------------------------------------------
def engine_of(url: str) -> Engine:
    return create_engine(database_url(url))


def rows(url: str) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table of the server's schema, in primary-key order."""
    engine = engine_of(url)
    try:
        with engine.connect() as connection:
            return {table.name: [tuple(row) for row in connection.execute(
                        select(table).order_by(*table.primary_key.columns))]
                    for table in tables.metadata.sorted_tables}
    finally:
        engine.dispose()


def stored_games(url: str) -> list[tuple[dict[str, Any], list[str]]]:
    """Each game's row and move texts, read in one statement: one snapshot, even of the live
    database of a running server (two statements may see two moments)."""
    engine = engine_of(url)
    games: dict[str, tuple[dict[str, Any], list[str]]] = {}
    query = (select(tables.games, tables.moves.c.text.label("move_text"))
             .select_from(tables.games.outerjoin(tables.moves))
             .order_by(tables.games.c.id, tables.moves.c.ply))
    try:
        with engine.connect() as connection:
            for row in connection.execute(query).mappings():
                _, moves = games.setdefault(row["id"], (dict(row), []))
                if row["move_text"] is not None:
                    moves.append(row["move_text"])
    finally:
        engine.dispose()
    return list(games.values())


def replay_stored_games(url: str) -> dict[str, Any]:
    """Replay each stored game's moves through the engine from its seed and compare with what the
    database says of it (seat to move, status, result); returns each game's replayed state."""
    replayed: dict[str, Any] = {}
    for row, moves in stored_games(url):
        game = ludotheque.load(row["game"], variant=row["variant"], players=row["players"])
        state = game.new_state(seed=row["seed"])
        for move in moves:
            state = state.play(move)
        if row["status"] == "playing":
            assert row["to_move"] == state.to_move, (row["id"], len(moves))
        if state.is_over:
            assert row["status"] == "over"
            stored = json.loads(row["result"])
            result = state.result()
            assert stored["winners"] == list(result.winners)
            assert stored["scores"] == list(result.scores)
        elif row["status"] == "over":  # ended by people, not by the rules
            reason = json.loads(row["result"])["reason"]
            assert reason in ("resignation", "abandoned", "agreement", "time"), row["result"]
        replayed[row["id"]] = (moves, state)
    return replayed


def moves_count(url: str) -> int:
    return sum(len(moves) for moves, _ in replay_stored_games(url).values())


def same_view(doc: dict[str, Any], state: Any) -> bool:
    return bool(doc["view"] == json.loads(json.dumps(state.view(None))))


# -- the tests --------------------------------------------------------------------------------------
def test_backup_while_a_game_is_played_then_restore_and_replay(new_database: NewDatabase,
                                                                tmp_path: Path) -> None:
    source = new_database()
    with ServerProcess(source) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        facts = populate(http)
        base = moves_count(source)
        live = LivePlay(server.url)
        live.start()
        live.wait_moves(3)
        # 1. A backup while the game goes on, held open until two more moves are stored: none of
        # those is in it, and every game in it is whole (its row agrees with its moves).
        held: list[int] = []

        def hold(done: int, total: int) -> None:
            if not held:
                held.append(live.moves)
                live.wait_moves(held[0] + 2)

        before = live.moves
        summary = make_backup(source, tmp_path / "during.bak", progress=hold, pages_per_step=1)
        assert held and live.moves >= held[0] + 2
        first = new_database()
        assert invoke("restore", str(summary.path), "--db", first).exit_code == 0
        in_backup = moves_count(first) - base
        assert before <= in_backup <= held[0] + 1 < live.moves
        assert summary.counts["moves"] == in_backup + base
        # 2. Through the command, the game still going on.
        during = invoke("backup", str(tmp_path / "cli.bak"), "--db", source)
        assert during.exit_code == 0, during.output
        assert f"Backed up {source.split('://')[0]}" in during.output
        replay_stored_games(source)
        live.finish()
        time.sleep(0.5)
        # 3. Quiet: the backup restored into a new database holds exactly the same rows.
        done = invoke("backup", str(tmp_path / "final.bak"), "--db", source)
        assert done.exit_code == 0, done.output
        restored = new_database()
        answer = invoke("restore", str(tmp_path / "final.bak"), "--db", restored)
        assert answer.exit_code == 0, answer.output
        assert "Restored" in answer.output
        original = rows(source)
        copy = rows(restored)
        assert copy["ratings"] == original["ratings"] and copy["ratings"]
        assert copy["rating_history"] == original["rating_history"]
        assert copy == original
        replayed = replay_stored_games(restored)
        assert replayed.keys() == {row[0] for row in original["games"]}
        # The running server says of each game what the replay says.
        for game_id, (moves, state) in replayed.items():
            doc = document(http, game_id)
            assert same_view(doc, state) and len(doc["moves"]) == len(moves), game_id
        ratings = facts["ada"].get(http, "/api/players/ada").json()["ratings"]
    # 4. A server on the restored database serves the same games, ratings and seat tokens.
    with ServerProcess(restored) as again, httpx.Client(base_url=again.url, timeout=30) as http:
        for game_id, (moves, state) in replayed.items():
            doc = document(http, game_id)
            assert same_view(doc, state) and len(doc["moves"]) == len(moves), game_id
        assert http.get("/api/players/ada").json()["ratings"] == ratings
        for game_id, tokens in facts["under_way"].items():
            assert play_one(http, game_id, tokens, random.Random(3))


def test_restore_refuses_a_database_that_is_not_empty_unless_forced(new_database: NewDatabase,
                                                                    tmp_path: Path) -> None:
    source = new_database()
    with ServerProcess(source) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        new_game(http, game="pylos")
    saved = tmp_path / "saved.bak"
    assert invoke("backup", str(saved), "--db", source).exit_code == 0
    target = new_database()
    with ServerProcess(target) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        other, _ = new_game(http, game="imbrication")
    refused = invoke("restore", str(saved), "--db", target)
    assert refused.exit_code == 1
    assert "ludotheque restore:" in refused.output and "is not empty" in refused.output
    assert "--force" in refused.output and "Traceback" not in refused.output
    assert rows(target)["games"][0][0] == other  # untouched
    forced = invoke("restore", str(saved), "--db", target, "--force")
    assert forced.exit_code == 0, forced.output
    assert rows(target) == rows(source)
    again = invoke("backup", str(saved), "--db", source)
    assert again.exit_code == 1 and "exists already" in again.output and "--force" in again.output
    assert invoke("backup", str(saved), "--db", source, "--force").exit_code == 0


def test_backups_of_a_folder_are_dated_and_pruned(tmp_path: Path) -> None:
    source = f"sqlite:///{tmp_path / 'live.db'}"
    with ServerProcess(source):
        pass
    folder = tmp_path / "backups"
    folder.mkdir()
    old = [f"ludotheque-2025010{day}T000000Z.db" for day in (1, 2, 3)]
    for name in [*old, "notes.txt"]:
        (folder / name).write_text("old")
    answer = invoke("backup", str(folder), "--db", source, "--keep", "2")
    assert answer.exit_code == 0, answer.output
    assert "2 older backups deleted" in answer.output
    names = sorted(path.name for path in folder.iterdir())
    assert names[0] == old[2] and names[-1] == "notes.txt" and len(names) == 3
    assert names[1].startswith("ludotheque-2") and names[1].endswith("Z.db")
    assert not list(folder.glob("*.partial"))
    as_json = invoke("backup", str(tmp_path / "one.db"), "--db", source, "--json")
    assert json.loads(as_json.output)["counts"]["games"] == 0


@pytest.mark.parametrize(("args", "words"), [
    (["backup", "{tmp}/out.bak", "--db", "mysql://u@h/db"], "unknown kind of database 'mysql'"),
    (["backup", "{tmp}/out.bak", "--db", "sqlite:///{tmp}/missing.db"], "no SQLite database at"),
    (["backup", "{tmp}/nowhere/out.bak", "--db", "sqlite:///{tmp}/live.db"], "create it first"),
    (["backup", "{tmp}/out.bak", "--db", "sqlite:///{tmp}/other.db"], "is not a Ludothèque database"),
    (["backup", "{tmp}/out.bak", "--db", "sqlite:///{tmp}/live.db", "--keep", "2"], "give a folder"),
    (["restore", "{tmp}/missing.bak", "--db", "sqlite:///{tmp}/new.db"], "no backup file at"),
    (["restore", "{tmp}/notes.txt", "--db", "sqlite:///{tmp}/new.db"], "is not a Ludothèque backup"),
    (["restore", "{tmp}/other.db", "--db", "sqlite:///{tmp}/new.db"], "is not a Ludothèque database"),
    (["restore", "{tmp}/live.db", "--db", "postgresql://u:p@127.0.0.1:1/db"], "is a SQLite backup"),
    (["restore", "{tmp}/live.db", "--db", "ftp://x"], "unknown kind of database 'ftp'"),
])
def test_bad_input_is_one_clear_line(tmp_path: Path, args: list[str], words: str) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'live.db'}"):
        pass
    (tmp_path / "notes.txt").write_text("not a backup")
    import sqlite3
    with sqlite3.connect(tmp_path / "other.db") as other:
        other.execute("CREATE TABLE t (x)")
    answer = invoke(*[arg.replace("{tmp}", str(tmp_path)) for arg in args])
    assert answer.exit_code == 1, answer.output
    line = answer.output.strip()
    assert line.startswith(f"ludotheque {args[0]}:") and words in line, line
    assert "Traceback" not in line and "\n" not in line
    assert not (tmp_path / "new.db").exists() or "new.db" not in " ".join(args)


def test_a_backup_of_one_kind_restores_only_into_the_same_kind(new_postgres: NewDatabase,
                                                                tmp_path: Path) -> None:
    source = new_postgres()
    with ServerProcess(source):
        pass
    dump = tmp_path / "pg.dump"
    assert invoke("backup", str(dump), "--db", source).exit_code == 0
    assert dump.read_bytes().startswith(b"PGDMP")
    answer = invoke("restore", str(dump), "--db", f"sqlite:///{tmp_path / 'x.db'}")
    assert answer.exit_code == 1 and "is a PostgreSQL backup" in answer.output
    missing = new_postgres().rsplit("/", 1)[0] + "/ludotheque_no_such_database"
    answer = invoke("restore", str(dump), "--db", missing)
    assert answer.exit_code == 1 and "create it first" in answer.output, answer.output
    with pytest.raises(BackupError, match=r"cannot open the database .*password authentication failed"):
        make_backup(source.replace("ludotheque:ludotheque@", "ludotheque:wrong@"), tmp_path / "y.dump")
    assert backup_kind_of_url(source) == "postgresql"


def test_help_texts() -> None:
    for command, words in (("backup", "consistent copy"), ("restore", "--force"), ("doctor", "--public-url")):
        answer = invoke(command, "--help")
        assert answer.exit_code == 0 and words in answer.output, answer.output


def registered(name: str) -> bool:
    from ludotheque.cli.main import app

    return any(command.callback is not None and command.callback.__name__ == name
               for command in app.registered_commands)


def test_the_real_command_backs_up_and_restores(tmp_path: Path) -> None:
    assert registered("backup") and registered("restore")
    source = f"sqlite:///{tmp_path / 'live.db'}"
    with ServerProcess(source) as server, httpx.Client(base_url=server.url, timeout=30) as http:
        new_game(http, game="pylos")
        saved = tmp_path / "saved.bak"
        done = subprocess.run([sys.executable, "-m", "ludotheque", "backup", str(saved), "--db", source],
                              capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "Backed up" in done.stdout, done.stderr
    restored = f"sqlite:///{tmp_path / 'restored.db'}"
    done = subprocess.run([sys.executable, "-m", "ludotheque", "restore", str(saved), "--db", restored],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0 and "Restored" in done.stdout, done.stderr
    assert rows(restored) == rows(source)
