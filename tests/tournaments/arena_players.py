"""Scripted arena players, through the HTTP API only: people (guests) who join an arena, play each
game they are given for a while (a few random legal moves) then resign or agree a draw, and are
paired again by the server; bots entered by the creator. Each person's wait for a partner is
measured as they see it: from the moment their game ended (the answer to their resignation, or
their joining) to the first reading of the tournament that shows their next game.

Used by ``tests/tournaments/test_arena_simulation.py`` (12 players, a short arena) and by
``benchmarks/arena_simulation.py`` (30 players for 10 minutes against a real server). The client
is any ``httpx.Client`` on the server (``fastapi.testclient.TestClient`` is one).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx

from .helpers import Person

POLL_S = 0.1


@dataclass
class ArenaReport:
    """What a simulated arena measured (seconds): each person's waits for a partner as they saw
    them, the server's own waits of every board (bots too), the waits the end cut short."""

    tournament: str
    games: int = 0
    rematches: int = 0  # games between the same two as their previous game each
    waits: list[float] = field(default_factory=list)
    server_waits: list[float] = field(default_factory=list)
    cut_by_the_end: list[float] = field(default_factory=list)
    final: dict[str, Any] = field(default_factory=dict)

    def summary(self) -> dict[str, Any]:
        return {"tournament": self.tournament, "games": self.games, "rematches": self.rematches,
                "people_waits": len(self.waits),
                "wait_max_s": round(max(self.waits, default=0.0), 3), "wait_p95_s": round(p95(self.waits), 3),
                "server_wait_max_s": round(max(self.server_waits, default=0.0), 3),
                "server_wait_p95_s": round(p95(self.server_waits), 3),
                "cut_by_the_end_max_s": round(max(self.cut_by_the_end, default=0.0), 3)}


def p95(values: list[float]) -> float:
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]


@dataclass
class _Game:
    ends_at: float  # when its people stop playing it (monotonic)
    moves_left: int


class ArenaPlayers:
    """``people`` scripted people and ``bots`` random bots in a new arena of ``minutes``; games
    last ``game_s`` (a range, seconds) of the people's time."""

    def __init__(self, client: httpx.Client, people: int, bots: int, minutes: int, *,
                 game_s: tuple[float, float] = (1.0, 4.0), seed: int = 0, game: str = "pylos") -> None:
        self.client = client
        self.rng = random.Random(seed)
        self.game_s = game_s
        self.creator = Person(client, f"Director{self.rng.randrange(10**6)}")
        created = self.creator.post(client, "/api/tournaments", {
            "system": "arena", "game": game, "duration": minutes, "max_entries": 128,
            "clock": {"type": "correspondence", "days": 1}})
        assert created.status_code == 201, created.text
        self.id: str = created.json()["id"]
        self.path = f"/api/tournaments/{self.id}"
        self.people: dict[int, Person] = {}
        self.free_since: dict[int, float] = {}
        for _ in range(people):
            person = Person(client)
            joined = person.post(client, f"{self.path}/join")
            assert joined.status_code == 200, joined.text
            entry = next(e["entry"] for e in joined.json()["entries"] if e["name"] == person.name)
            self.people[entry] = person
        for _ in range(bots):
            assert self.creator.post(client, f"{self.path}/join", {"bot": "random"}).status_code == 200
        self.games: dict[str, _Game] = {}
        self.report = ArenaReport(self.id)

    def run(self, after_start: Callable[[str], None] | None = None, limit_s: float = 900.0) -> ArenaReport:
        """Start the arena and play until it is finished; ``after_start``: called with the
        tournament's id (a test shortens the arena there)."""
        started = self.creator.post(self.client, f"{self.path}/start")
        assert started.status_code == 200, started.text
        now = time.monotonic()
        self.free_since = dict.fromkeys(self.people, now)
        if after_start is not None:
            after_start(self.id)
        deadline = now + limit_s
        while time.monotonic() < deadline:
            doc = self.client.get(self.path).json()
            if doc["status"] == "finished":
                return self._finish(doc)
            self._see(doc)
            for board in doc["playing"]:
                if board["game"] is not None:
                    self._play(board, over=doc["seconds_left"] == 0)
            time.sleep(POLL_S)
        raise AssertionError(f"the arena {self.id} did not finish within {limit_s} s")

    def _see(self, doc: dict[str, Any]) -> None:
        """The people whose new game this reading shows stop waiting."""
        now = time.monotonic()
        for board in doc["playing"]:
            if board["game"] is None or board["game"] in self.games:
                continue
            self.games[board["game"]] = _Game(now + self.rng.uniform(*self.game_s), self.rng.randrange(3))
            for entry in (board["first"], board["second"]):
                if entry in self.free_since:
                    self.report.waits.append(now - self.free_since.pop(entry))
        if doc["seconds_left"] == 0:
            for entry in list(self.free_since):
                self.report.cut_by_the_end.append(now - self.free_since.pop(entry))

    def _play(self, board: dict[str, Any], *, over: bool) -> None:
        """A move or the end of one game, when its time came (at once after the arena's end)."""
        game = self.games[board["game"]]
        if time.monotonic() < game.ends_at and not over:
            return
        game_id = board["game"]
        holders = {entry: self.people.get(entry) for entry in (board["first"], board["second"])}
        doc = self.client.get(f"/api/games/{game_id}").json()
        if doc["status"] == "over":
            self._freed(holders)
            return
        seats = {n: self.people.get(self._entry_of(board, n, doc)) for n in range(len(doc["seats"]))}
        mover = seats.get(doc["to_move"]) if doc["to_move"] is not None else None
        if game.moves_left > 0 and mover is not None and not over:
            legal = mover.get(self.client, f"/api/games/{game_id}").json()["legal_moves"]
            if legal:
                mover.post(self.client, f"/api/games/{game_id}/moves", {"move": self.rng.choice(legal)})
            game.moves_left -= 1
            return
        people = {n: p for n, p in seats.items() if p is not None}
        between_people = len({id(p) for p in people.values()}) == 2 and len(people) == len(seats)
        if between_people and self.rng.random() < 0.2:
            for seat, person in sorted(people.items()):
                person.post(self.client, f"/api/games/{game_id}/seats/{seat}/draw")
        else:
            seat, person = self.rng.choice(sorted(people.items()))
            person.post(self.client, f"/api/games/{game_id}/seats/{seat}/resign")
        self._freed(holders)

    def _entry_of(self, board: dict[str, Any], seat: int, doc: dict[str, Any]) -> int:
        """The entry holding ``seat``: the first side holds the team of seat 0."""
        first_person = self.people.get(board["first"])
        name = doc["seats"][seat]["name"]
        if first_person is not None:
            return int(board["first"] if name == first_person.name else board["second"])
        second_person = self.people.get(board["second"])
        held = second_person is not None and name == second_person.name
        return int(board["second"] if held else board["first"])

    def _freed(self, holders: dict[int, Person | None]) -> None:
        now = time.monotonic()
        for entry, person in holders.items():
            if person is not None:
                self.free_since.setdefault(entry, now)

    def _finish(self, doc: dict[str, Any]) -> ArenaReport:
        boards = [b for rnd in doc["pairings"] for b in rnd["boards"]]
        self.report.games = len(boards)
        last: dict[int, int] = {}
        for board in boards:  # in the order they were paired
            first, second = board["first"], board["second"]
            self.report.rematches += last.get(first) == second and last.get(second) == first
            last[first], last[second] = second, first
        self.report.server_waits = [w for b in boards for w in b["waited"]]
        self.report.final = doc
        return self.report
