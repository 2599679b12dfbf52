"""A short arena of 12 entrants (10 scripted people, 2 bots) through the HTTP API (SQLite), the
hub's own hook reporting each game's end: nobody waits more than a few seconds
for a partner (``benchmarks/arena_simulation.py``: 30 players for 10 minutes)."""

from __future__ import annotations

import time

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from ludotheque.server import tournament_tables as t

from .arena_players import ArenaPlayers
from .conftest import serving

ARENA_S = 6.0
# "A few seconds": games end several times a second here; the odd one out waits for the next.
MOST_WAIT_S = 3.0


def shorten(client: TestClient, seconds: float) -> object:
    """The arena ends ``seconds`` from now (the API's shortest is one minute)."""
    engine = client.app.state.tournaments.store.engine  # type: ignore[attr-defined]

    def to(tournament_id: str) -> None:
        with engine.begin() as connection:
            connection.execute(update(t.tournaments).where(t.tournaments.c.id == tournament_id).values(
                ends_at=time.time() + seconds))
    return to


# SQLite only: the suite's time (the PostgreSQL pairing, row locks included, is checked by
# test_arena_api.py and tests/distributed/test_tournament_workers.py).
@pytest.mark.parametrize("db_url", ["sqlite"], indirect=True)
def test_nobody_waits_long_for_a_partner(db_url: str) -> None:
    with serving(db_url) as client:
        players = ArenaPlayers(client, people=10, bots=2, minutes=1, game_s=(0.3, 1.5), seed=12)
        report = players.run(after_start=shorten(client, ARENA_S), limit_s=120.0)  # type: ignore[arg-type]
        summary = report.summary()
        print(summary)
        doc = report.final
        assert doc["status"] == "finished" and doc["winner"] is not None
        assert report.games >= 15, summary  # several games a second
        met: dict[int, set[int]] = {}
        for board in (b for rnd in doc["pairings"] for b in rnd["boards"]):
            met.setdefault(board["first"], set()).add(board["second"])
            met.setdefault(board["second"], set()).add(board["first"])
        assert all(len(opponents) >= 2 for opponents in met.values()), met  # not the same game again
        assert len(report.waits) >= report.games, summary  # every person's every game was seen
        assert max(report.waits) < MOST_WAIT_S and max(report.server_waits) < MOST_WAIT_S, summary
        assert all(row["games"] > 0 for row in doc["standings"])
        assert all(b["paired_at"] <= doc["ends_at"] for rnd in doc["pairings"] for b in rnd["boards"])
