"""Swiss tournaments simulated through the HTTP API on SQLite and PostgreSQL: scripted players
(guests) who play a few random legal moves then resign or agree a draw, and bots; then the
standings and tie-breaks are checked against a computation written here from the raw game
results, with no repeated pairing and seats balanced within one."""

from __future__ import annotations

import functools
import random
import time
from collections import Counter, defaultdict
from typing import Any

import pytest
from fastapi.testclient import TestClient

from ludotheque.server.hub import Hub
from ludotheque.server.sessions import GameSession
from ludotheque.server.snapshots import Snapshot

from .conftest import serving
from .helpers import Person, eventually, game_ended

ROUNDS = 5


def game_document(client: TestClient, game_id: str, person: Person | None = None) -> Any:
    answer = person.get(client, f"/api/games/{game_id}") if person else client.get(f"/api/games/{game_id}")
    assert answer.status_code == 200, answer.text
    return answer.json()


def play_out(client: TestClient, game_id: str, holders: dict[int, Person | None], rng: random.Random) -> Any:
    """The scripted players of a game: up to two random legal moves, then one of them resigns,
    or (between people) all agree a draw; between bots, wait for the end. The final document."""
    people = {seat: person for seat, person in holders.items() if person is not None}
    if not people:
        return eventually(lambda: (doc := game_document(client, game_id))["status"] == "over" and doc)
    anyone = next(iter(people.values()))
    for _ in range(rng.randrange(3)):
        doc = game_document(client, game_id, anyone)
        if doc["status"] == "over" or doc["to_move"] not in people:
            break  # a bot's turn: no waiting for it
        mover = people[doc["to_move"]]
        legal = (doc if mover is anyone else game_document(client, game_id, mover))["legal_moves"]
        moved = mover.post(client, f"/api/games/{game_id}/moves", {"move": rng.choice(legal)})
        assert moved.status_code == 200, moved.text
    if len(people) == len(holders) and len({id(p) for p in people.values()}) == 2 and rng.random() < 0.25:
        for seat, person in sorted(people.items()):
            answer = person.post(client, f"/api/games/{game_id}/seats/{seat}/draw")
            assert answer.status_code == 200, answer.text
    else:
        seat, person = rng.choice(sorted(people.items()))
        answer = person.post(client, f"/api/games/{game_id}/seats/{seat}/resign")
        if answer.status_code == 409:  # a bot's move ended it first
            assert answer.json()["code"] == "game_over", answer.text
    final = game_document(client, game_id)
    assert final["status"] == "over"
    return final


def simulate(client: TestClient, entrants: int, bots: int, rng: random.Random, *, game: str = "pylos",
             players: int = 2, rounds: int = ROUNDS, teams: tuple[set[int], set[int]] = ({0}, {1}),
             report: bool = True) -> tuple[Any, dict[str, Any]]:
    """Create, fill, start and play a Swiss through the API; the final document and each game's
    final document by id. ``report``: tell the tournaments each game's end as the hub's hook
    would; else wait for the hub to do it."""
    creator = Person(client, "Director")
    created = creator.post(client, "/api/tournaments", {
        "game": game, "players": players, "rounds": rounds, "max_entries": 128,
        "clock": {"type": "correspondence", "days": 3}})
    assert created.status_code == 201, created.text
    tournament = created.json()
    path = f"/api/tournaments/{tournament['id']}"
    assert tournament["status"] == "upcoming" and tournament["entries"] == []
    people: dict[str, Person] = {}
    for _ in range(entrants - bots):
        person = Person(client)
        joined = person.post(client, f"{path}/join")
        assert joined.status_code == 200, joined.text
        people[person.name] = person
    for _ in range(bots):
        assert creator.post(client, f"{path}/join", {"bot": "random"}).status_code == 200
    started = creator.post(client, f"{path}/start")
    assert started.status_code == 200, started.text
    games: dict[str, Any] = {}
    while True:
        doc = client.get(path).json()
        if doc["status"] == "finished":
            return doc, games
        assert doc["status"] == "running"
        entries = {e["entry"]: e for e in doc["entries"]}
        current = doc["pairings"][-1]
        assert current["round"] == doc["round"]
        if any(board["game"] is None and board["second"] is not None for board in current["boards"]):
            time.sleep(0.01)  # the round's games are being created (the hub's hook paired it just now)
            continue
        for board in current["boards"]:
            if board["second"] is None or board["game"] in games:
                continue
            first, second = entries[board["first"]], entries[board["second"]]
            holders = {seat: people.get(first["name"] if seat in teams[0] else second["name"])
                       for seat in range(players)}
            final = play_out(client, board["game"], holders, rng)
            if report:
                game_ended(client, board["game"])  # the hub's hook (see helpers.game_ended)
            else:
                assert eventually(functools.partial(scored, client, path, board["game"]), 30.0)
            # The first entrant's team (seat 0's) moves first; each entrant holds their team.
            assert [seat["name"] for seat in final["seats"]] == [
                first["name"] if seat in teams[0] else second["name"] for seat in range(players)]
            games[board["game"]] = final


def scored(client: TestClient, path: str, game_id: str) -> bool:
    doc = client.get(path).json()
    return any(board["game"] == game_id and board["result"] is not None
               for round_ in doc["pairings"] for board in round_["boards"])


def independent_standings(doc: Any, games: dict[str, Any], teams: list[set[int]]
                          ) -> dict[int, tuple[float, float, float]]:
    """Score, Buchholz and Sonneborn-Berger of every entry, from the games' own results."""
    score: dict[int, float] = defaultdict(float)
    results: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for entry in doc["entries"]:
        score[entry["entry"]] = 0.0
    for round_ in doc["pairings"]:
        for board in round_["boards"]:
            if board["second"] is None:
                score[board["first"]] += 1.0  # a bye
                continue
            winners = set(games[board["game"]]["result"]["winners"])
            first_won, second_won = bool(winners & teams[0]), bool(winners & teams[1])
            first_points = 0.5 if first_won == second_won else 1.0 if first_won else 0.0
            score[board["first"]] += first_points
            score[board["second"]] += 1.0 - first_points
            results[board["first"]].append((board["second"], first_points))
            results[board["second"]].append((board["first"], 1.0 - first_points))
    computed = {}
    for entry in score:
        buchholz = sum(score[opponent] for opponent, _ in results[entry])
        sonneborn = sum(points * score[opponent] for opponent, points in results[entry])
        computed[entry] = (score[entry], buchholz, sonneborn)
    return computed


def check_swiss(doc: Any, games: dict[str, Any], entrants: int, rounds: int,
                teams: list[set[int]] | None = None) -> None:
    teams = teams or [{0}, {1}]
    entries = [e["entry"] for e in doc["entries"]]
    assert len(entries) == entrants and doc["round"] == rounds and len(doc["pairings"]) == rounds
    met: set[frozenset[int]] = set()
    seats: dict[int, list[int]] = {entry: [] for entry in entries}
    byes: Counter[int] = Counter()
    for round_ in doc["pairings"]:
        seen = []
        for board in round_["boards"]:
            seen.append(board["first"])
            if board["second"] is None:
                byes[board["first"]] += 1
                assert board["result"] == "bye" and board["first_points"] == 1.0
                continue
            seen.append(board["second"])
            pair = frozenset((board["first"], board["second"]))
            assert pair not in met, f"repeated pairing {sorted(pair)} in round {round_['round']}"
            met.add(pair)
            seats[board["first"]].append(0)
            seats[board["second"]].append(1)
            assert games[board["game"]]["status"] == "over"
        assert sorted(seen) == sorted(entries), "every entrant plays once a round"
        assert sum(1 for b in round_["boards"] if b["second"] is None) == entrants % 2
        for history in seats.values():
            assert abs(history.count(0) - history.count(1)) <= 1, "seats balanced within one"
    assert all(count <= 1 for count in byes.values())
    computed = independent_standings(doc, games, teams)
    shown = {r["entry"]: (r["score"], r["buchholz"], r["sonneborn_berger"]) for r in doc["standings"]}
    assert shown == computed
    ratings = {e["entry"]: e["rating"] for e in doc["entries"]}
    expected = sorted(entries, key=lambda e: (*(-value for value in computed[e]), -ratings[e], e))
    assert [row["entry"] for row in doc["standings"]] == expected
    assert [row["rank"] for row in doc["standings"]] == list(range(1, entrants + 1))


@pytest.mark.parametrize(("entrants", "bots"), [(6, 1), (7, 2), (16, 2), (64, 2)])
def test_a_swiss_over_five_rounds_through_the_api(db_url: str, entrants: int, bots: int) -> None:
    rng = random.Random(entrants)
    with serving(db_url) as client:
        doc, games = simulate(client, entrants, bots, rng)
        check_swiss(doc, games, entrants, ROUNDS)
        finished = client.get("/api/tournaments?status=finished").json()["tournaments"]
        assert [t["id"] for t in finished] == [doc["id"]]
        assert client.get("/api/tournaments?status=running").json()["tournaments"] == []


def test_four_player_expion_seats_each_entrant_as_a_team(db_url: str) -> None:
    """Ex*Pion at 4 players: each entrant holds both camps of one team (North+South moves first)."""
    with serving(db_url) as client:
        doc, games = simulate(client, 5, 1, random.Random(4), game="expion", players=4, rounds=3,
                              teams=({0, 2}, {1, 3}))
        check_swiss(doc, games, 5, 3, teams=[{0, 2}, {1, 3}])


def hub_hook(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hook that hub.py is to have (docs/tournaments.md), put in for this test when it has
    not: ``Hub.game_over_handlers``, each called with the game's id when a change ends it."""
    if "game_over_handlers" in Hub.__init__.__code__.co_names:
        return
    init, change = Hub.__init__, Hub.change

    def hooked_init(self: Hub, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        self.game_over_handlers = []  # type: ignore[attr-defined]

    async def hooked_change(self: Hub, session: GameSession, operation: Any) -> Snapshot:
        before = session.snapshot.status
        new = await change(self, session, operation)
        if new.status == "over" != before:
            for handler in self.game_over_handlers:  # type: ignore[attr-defined]
                self._spawn(handler(session.meta.id))
        return new

    monkeypatch.setattr(Hub, "__init__", hooked_init)
    monkeypatch.setattr(Hub, "change", hooked_change)


def test_the_hubs_hook_moves_the_rounds_on_by_itself(db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    hub_hook(monkeypatch)
    with serving(db_url) as client:
        doc, games = simulate(client, 7, 2, random.Random(7), rounds=3, report=False)
        check_swiss(doc, games, 7, 3)
