"""Helpers of the tests that store moves on a real PostgreSQL through ``Storage``: a move that
notes every snapshot it was applied to, and the end of every other backend (as a restart)."""

from __future__ import annotations

from sqlalchemy import text

from ludotheque.server.clocks import Instant
from ludotheque.server.snapshots import Snapshot, play
from ludotheque.server.storage import Operation, Storage


def a_move(notation: str, seat: int) -> tuple[list[Snapshot], Operation]:
    """The move ``notation`` of ``seat``, with no ply (applied twice, it would be a second move),
    and the snapshots it was applied to."""
    seen: list[Snapshot] = []

    def operation(snap: Snapshot, now: Instant) -> Snapshot:
        seen.append(snap)
        return play(snap, seat, notation, None, now)

    return seen, operation


def end_other_backends(storage: Storage) -> int:
    """Terminate every other connection to the test database (as a restart would); how many."""
    with storage.engine.connect() as admin:
        ended = admin.execute(text(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity "
            "WHERE datname = current_database() AND pid <> pg_backend_pid()")).scalar_one()
        admin.commit()
    return int(ended)
