"""Issue 14's proof: a fifth game (Nim, ``tests/extension/nim``), defined inside the tests and
installed the way a distribution is (``install.py``: an entry point of ``ludotheque.games``), is
found by everything that lists, shows or plays the games: the registry and the conformance
suite, the lobby, the rules pages and the catalog, ``ludotheque games``, ``play`` (a whole game
against a bot), ``rules``, ``arena`` and ``bench``, and a live server (a game played to its end
over HTTP and WebSocket). No shared file names it; its page and terminal boards are the generic
ones. The page in Chromium: ``tests/browser/test_fifth_game.py``.
"""

from __future__ import annotations

import html
import inspect
import json
import re
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
import websockets
from fastapi.testclient import TestClient
from typer.testing import CliRunner

import ludotheque
from ludotheque.cli.boards import board_module
from ludotheque.cli.main import app
from ludotheque.core import Record, replay
from ludotheque.server import create_app
from tests import test_conformance as conformance
from tests.support import run_async
from tests.support.server import ServerProcess

from .install import installed
from .nim import GAME

runner = CliRunner()
CONFIGURATIONS = [("standard", 2), ("misere", 2), ("standard", 3), ("misere", 3)]
# The conformance suite's checks that take a played game (and a folder): every one of them.
CHECKS: list[Callable[..., None]] = [
    check for name, check in vars(conformance).items()
    if name.startswith("test_") and callable(check)
    and set(inspect.signature(check).parameters) <= {"played", "tmp_path"}
]


@pytest.fixture(scope="module")
def nim(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    """Nim installed for this module's tests; the environment a server process needs."""
    with installed(tmp_path_factory.mktemp("site"), "ludotheque_nim") as env:
        yield env


def run(*args: str, input: str | None = None) -> tuple[int, str]:
    result = runner.invoke(app, list(args), input=input, env={"COLUMNS": "200"})
    return result.exit_code, result.stdout


def test_installing_adds_the_game_and_removing_it_takes_it_away(tmp_path: Path) -> None:
    assert "nim" not in ludotheque.games()
    with installed(tmp_path, "ludotheque_nim"):
        assert ludotheque.games() == sorted([*ludotheque.games()]) and "nim" in ludotheque.games()
        game = ludotheque.load("nim", variant="misere", players=3)
        assert (game.id, game.variant, game.players) == ("nim", "misere", 3)
    assert "nim" not in ludotheque.games()


@pytest.mark.parametrize("check", CHECKS, ids=[check.__name__ for check in CHECKS])
@pytest.mark.parametrize(("variant", "players"), CONFIGURATIONS)
def test_the_fifth_game_passes_the_conformance_suite(
    nim: dict[str, str], check: Callable[..., None], variant: str, players: int, tmp_path: Path
) -> None:
    game = ludotheque.load("nim", variant=variant, players=players)
    played = (game, [conformance.playout(game, seed) for seed in conformance.SEEDS])
    arguments: dict[str, Any] = {"played": played, "tmp_path": tmp_path}
    check(**{name: arguments[name] for name in inspect.signature(check).parameters})


def catalog_entry(client: TestClient, game_id: str) -> dict[str, Any]:
    entries: list[dict[str, Any]] = client.get("/api/catalog").json()["games"]
    [entry] = [entry for entry in entries if entry["id"] == game_id]
    return entry


def serving(tmp_path: Path) -> TestClient:
    return TestClient(create_app(f"sqlite:///{tmp_path / 'games.db'}", bot_workers=1))


def test_the_lobby_the_rules_pages_and_the_catalog_name_it(nim: dict[str, str], tmp_path: Path) -> None:
    with serving(tmp_path) as client:
        for lang, section in (("fr", "Matériel"), ("en", "Equipment")):
            lobby = client.get("/", params={"lang": lang}).text
            assert 'data-game="nim"' in lobby and html.escape(GAME.summary[lang]) in lobby
            assert '<option value="nim">Nim</option>' in lobby and "Nim" in lobby.split("</title>")[0]
            rules = client.get("/rules/nim", params={"lang": lang})
            assert rules.status_code == 200 and f"<h2>{section}</h2>" in rules.text
            assert '<a id="rules-nim" href="/rules/nim" aria-current="page">Nim</a>' in rules.text
            other = client.get("/rules/pylos", params={"lang": lang}).text
            assert '<a id="rules-nim" href="/rules/nim">Nim</a>' in other
            assert section in client.get("/api/rules/nim", params={"lang": lang}).json()["html"]
        entry = catalog_entry(client, "nim")
        assert entry["player_counts"] == [2, 3] and entry["variants"] == ["standard", "misere"]
        assert entry["variant_names"]["misere"]["fr"] == "misère (la dernière perd)"
        naming = entry["reasons"]["last_match_misere"]["naming_loser"]
        assert naming["en"] == "{loser} had to take the last match"
        assert (entry["board"], entry["picture"]) == ("/static/games/generic.js", "/static/img/logo.svg")
        assert client.get(entry["board"]).status_code == 200
        assert client.get("/static/games/nim.js").status_code == 404


def test_the_command_line_names_the_fifth_game_in_its_help(nim: dict[str, str]) -> None:
    code, out = run("--help")
    assert code == 0 and "Nim" in out
    for command in ("play", "bench", "rules", "arena"):
        code, out = run(command, "--help")
        assert code == 0 and "expion, imbrication, nim, plimil or pylos" in out, command
    code, out = run("games", "--json")
    assert "nim" in [entry["id"] for entry in json.loads(out)]


def test_a_whole_game_against_a_bot_in_the_terminal(nim: dict[str, str], tmp_path: Path) -> None:
    path = tmp_path / "nim.json"
    first = str(ludotheque.load("nim").new_state(seed=5).legal_moves()[0])
    typed = "\n".join(["help", first, *["random"] * 20]) + "\n"
    code, out = run("play", "nim", "--vs", "easy", "--seed", "5", "--lang", "en", "--save", str(path),
                    input=typed)
    assert code == 0, out
    assert "Nim (standard, 2 players) — Player A: human, Player B: easy" in out
    assert f"Played: {first}" in out and "Legal moves (" in out and "heaps: " in out
    assert re.search(r"Game over — Player [AB] wins: took the last match\.", out), out
    record = Record.read(path)
    assert record.game == "nim" and replay(record)[-1].is_over
    code, out = run("play", "nim", "--variant", "misere", "--vs", "random", "--seed", "2", "--lang", "fr",
                    input="hasard\n" * 20)
    ending = r"Partie terminée — Joueur [AB] gagne : Joueur [AB] a dû prendre la dernière allumette"
    assert re.search(ending, out), out


def test_rules_arena_and_bench_take_the_fifth_game(nim: dict[str, str], tmp_path: Path) -> None:
    code, out = run("rules", "nim", "--lang", "fr")
    assert code == 0 and "Matériel" in out and "Equipment" not in out
    code, out = run("arena", "nim", "--bots", "random,easy", "--games", "4", "--jobs", "2",
                    "--out", str(tmp_path / "arena"), "--json")
    assert code == 0, out
    report = json.loads(out)
    assert (report["game"], report["games"], report["bots"]) == ("nim", 4, ["random", "easy"])
    code, out = run("bench", "nim", "--seconds", "0.2", "--json")
    assert code == 0, out
    figures = json.loads(out)
    assert {(f["variant"], f["players"]) for f in figures} == set(CONFIGURATIONS)
    assert all(f["playouts"] > 0 and f["mean_length"] > 0 for f in figures)
    code, out = run("bench", "nim", "--bots", "random,easy", "--games", "1", "--players", "2", "--json")
    assert code == 0
    assert [f["level"] for f in json.loads(out) if f["variant"] == "standard"] == ["random", "easy"]


def test_a_package_may_ship_its_own_page_and_terminal_boards(tmp_path: Path) -> None:
    package = tmp_path / "site" / "boarded_nim"  # a distribution's package, with its boards
    package.mkdir(parents=True)
    (package / "__init__.py").write_text(
        "from dataclasses import replace\n"
        "from tests.extension.nim import GAME as NIM\n"
        "from tests.extension.nim.rules import NimGame\n\n\n"
        "class BoardedNim(NimGame):\n    pass\n\n\n"
        "GAME = replace(NIM, id='boardednim', package=__name__, make=BoardedNim)\n"
        "BoardedNim.info = GAME\n", "utf-8")
    (package / "page_board.js").write_text('export const id = "boardednim";\n', "utf-8")
    (package / "picture.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>\n', "utf-8")
    (package / "terminal_board.py").write_text("from ludotheque.cli.boards.generic import *  # noqa\n")
    site = tmp_path / "site"
    with installed(site, "boarded_nim", {"boardednim": "boarded_nim"}), serving(tmp_path) as client:
        entry = catalog_entry(client, "boardednim")
        assert entry["board"] == "/static/games/boardednim.js"
        assert entry["picture"] == "/static/img/boardednim.svg"
        board = client.get(entry["board"])
        assert board.text == 'export const id = "boardednim";\n'
        assert "javascript" in board.headers["content-type"]
        assert client.get(entry["picture"]).headers["content-type"].startswith("image/svg+xml")
        assert client.get("/static/games/pylos.js").status_code == 200
        assert board_module("boardednim").__name__ == "boarded_nim.terminal_board"
        assert client.get("/rules/boardednim?lang=en").status_code == 200


async def play_live(server: ServerProcess) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    """A Nim game, a person against the easy bot, played to its end: each document comes over the
    WebSocket, each of the person's moves goes over HTTP. Returns the last document and the record."""
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        created = await http.post("/api/games", json={"game": "nim", "seats": ["human", "bot:easy"]})
        assert created.status_code == 201, created.text
        game_id, token = created.json()["id"], created.json()["seats"][0]["token"]
        documents = []
        async with websockets.connect(f"{server.ws_url}/api/games/{game_id}/ws?token={token}") as socket:
            while True:
                doc = json.loads(await socket.recv())
                documents.append(doc)
                if doc["status"] == "over":
                    break
                if doc["legal_moves"]:
                    body = {"move": doc["legal_moves"][-1], "ply": len(doc["moves"])}
                    answer = await http.post(f"/api/games/{game_id}/moves", json=body,
                                             headers={"Authorization": f"Bearer {token}"})
                    assert answer.status_code == 200, answer.text
        record = (await http.get(f"/api/games/{game_id}/record")).json()
        return documents[-1], [record]


def test_a_live_server_plays_the_fifth_game_to_its_end(nim: dict[str, str], tmp_path: Path) -> None:
    with ServerProcess(f"sqlite:///{tmp_path / 'games.db'}", env=nim) as server:
        assert 'data-game="nim"' in httpx.get(f"{server.url}/?lang=en").text
        assert httpx.get(f"{server.url}/rules/nim?lang=fr").status_code == 200
        last, [record] = run_async(play_live(server))
    assert last["game"] == "nim" and last["status"] == "over"
    assert last["result"]["reason"] == "last_match" and last["view"]["heaps"] == [0, 0, 0]
    assert record["game"] == "nim" and record["moves"] == last["moves"]
    finished = ludotheque.load("nim")
    state = finished.new_state(seed=record["seed"])
    for move in record["moves"]:
        state = state.play(move)
    assert state.is_over and list(state.result().winners) == last["result"]["winners"]
