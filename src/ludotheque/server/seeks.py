"""Seeks: a person asks for a game (game, variant, player count, time control, rated or casual, a
range of opponents' ratings) and is matched at once with compatible seeks of other people; else
the seek waits until someone compatible seeks, or it is cancelled (or a day passes).

Two seeks are compatible when they ask for the same game, variant, player count, clock and
rated-ness, and each seeker's rating lies in the other's range (a newcomer counts as 1500).

>>> a = SeekRow("s1", "ada", "pylos", "standard", 2, None, True, 1400, 1700, 0.0, 1500)
>>> b = SeekRow("s2", "bob", "pylos", "standard", 2, None, True, None, None, 1.0, 1650)
>>> compatible(a, b), compatible(a, b._replace(rating=1800))
(True, False)
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from sqlalchemy import Engine, delete, func, insert, select

from . import tables
from .errors import ApiError
from .ratings import NEW_RATING, category_of

SEEK_DAYS = 1.0
# Seeks of one person waiting at once (each one a game that may start).
SEEKS_PER_ACCOUNT = 3
# Matching again after losing a chosen seek to another seeker, before this one simply waits.
MATCH_TRIES = 5
SEEKS = tables.seeks.c


class _Lost(Exception):
    """Another seeker's transaction took a chosen seek first."""


class SeekRow(NamedTuple):
    id: str
    account: str
    game: str
    variant: str
    players: int
    clock: str | None
    rated: bool
    rating_min: int | None
    rating_max: int | None
    created: float
    rating: float


def compatible(a: SeekRow, b: SeekRow) -> bool:
    """Whether seekers ``a`` and ``b`` accept each other."""
    def asked(seek: SeekRow) -> tuple[Any, ...]:
        return seek.game, seek.variant, seek.players, seek.clock, seek.rated

    same = asked(a) == asked(b)
    return same and a.account != b.account and _accepts(a, b.rating) and _accepts(b, a.rating)


def _accepts(seek: SeekRow, rating: float) -> bool:
    return (seek.rating_min is None or rating >= seek.rating_min) and (
        seek.rating_max is None or rating <= seek.rating_max)


class SeekStore:
    """Waiting seeks in the database of ``engine``."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _rows(self, connection: Any, query: Any) -> list[SeekRow]:
        ratings = tables.ratings.c
        found = []
        for row in connection.execute(query).mappings():
            category = category_of(row["game"], row["players"], against_bots=False)
            rating = connection.execute(select(ratings.rating).where(
                ratings.account_id == row["account_id"], ratings.category == category)).scalar()
            found.append(SeekRow(row["id"], row["account_id"], row["game"], row["variant"], row["players"],
                                 row["clock"], bool(row["rated"]), row["rating_min"], row["rating_max"],
                                 row["created"], NEW_RATING if rating is None else rating))
        return found

    def match_or_add(self, seek: SeekRow) -> list[SeekRow] | None:
        """The seeks to start a game with (``seek`` first, then the oldest compatible ones, removed
        from the waiting list), or ``None``: ``seek`` now waits. 409 ``too_many_seeks`` when it
        would wait beside ``SEEKS_PER_ACCOUNT`` of its seeker's.

        Seekers who come at once (several workers, or the database's threads) may choose the same
        waiting seek: only the transaction whose delete removes every chosen seek wins them; the
        others read the waiting list again."""
        for _ in range(MATCH_TRIES):
            try:
                return self._match_or_add(seek)
            except _Lost:
                continue
        return self._match_or_add(seek, match=False)  # always lost: wait for the next seeker

    def _match_or_add(self, seek: SeekRow, *, match: bool = True) -> list[SeekRow] | None:
        with self.engine.begin() as connection:
            # One seek of a person at a time (their row's lock): the bound below holds.
            accounts = tables.accounts.c
            connection.execute(select(accounts.id).where(accounts.id == seek.account).with_for_update())
            found = self._partners(connection, seek) if match else None
            if found is not None:
                # One by one, in the order of their ids: seekers after the same seeks wait in
                # turn, never for each other in a circle (a deadlock).
                for seek_id in sorted(other.id for other in found):
                    if not connection.execute(delete(tables.seeks).where(SEEKS.id == seek_id)).rowcount:
                        raise _Lost  # another seeker took it first: this transaction is undone
                return [seek, *found]
            own = connection.execute(select(func.count()).select_from(tables.seeks).where(
                SEEKS.account_id == seek.account)).scalar()
            if (own or 0) >= SEEKS_PER_ACCOUNT:
                raise ApiError(409, f"at most {SEEKS_PER_ACCOUNT} of your seeks wait at once: cancel one "
                               "first", "too_many_seeks")
            connection.execute(insert(tables.seeks).values(
                id=seek.id, account_id=seek.account, game=seek.game, variant=seek.variant,
                players=seek.players, clock=seek.clock, rated=seek.rated, rating_min=seek.rating_min,
                rating_max=seek.rating_max, created=seek.created))
        return None

    def _partners(self, connection: Any, seek: SeekRow) -> list[SeekRow] | None:
        """The oldest waiting seeks that, with ``seek``, fill a game; ``None`` if too few."""
        same_clock = SEEKS.clock.is_(None) if seek.clock is None else SEEKS.clock == seek.clock
        waiting = self._rows(connection, select(tables.seeks).where(
            SEEKS.game == seek.game, SEEKS.variant == seek.variant, SEEKS.players == seek.players,
            same_clock, SEEKS.rated == seek.rated, SEEKS.account_id != seek.account,
        ).order_by(SEEKS.created))
        found: list[SeekRow] = []
        for other in waiting:
            if compatible(seek, other) and all(compatible(other, taken) for taken in found):
                found.append(other)
            if len(found) == seek.players - 1:
                return found
        return None

    def waiting(self) -> list[dict[str, Any]]:
        """Every waiting seek, oldest first, with its seeker's name and rating."""
        with self.engine.connect() as connection:
            rows = self._rows(connection, select(tables.seeks).order_by(SEEKS.created))
            names = dict(connection.execute(select(tables.accounts.c.id, tables.accounts.c.name).where(
                tables.accounts.c.id.in_({row.account for row in rows}))).all()) if rows else {}
        return [public(row, names.get(row.account, "")) for row in rows]

    def cancel(self, account: str, seek_id: str) -> bool:
        with self.engine.begin() as connection:
            done = connection.execute(
                delete(tables.seeks).where(SEEKS.id == seek_id, SEEKS.account_id == account))
        return bool(done.rowcount)

    def expire(self, before: float) -> None:
        with self.engine.begin() as connection:
            connection.execute(delete(tables.seeks).where(SEEKS.created < before))


def public(row: SeekRow, name: str) -> dict[str, Any]:
    return {"id": row.id, "name": name, "rating": round(row.rating), "game": row.game, "variant": row.variant,
            "players": row.players, "clock": json.loads(row.clock) if row.clock else None, "rated": row.rated,
            "rating_min": row.rating_min, "rating_max": row.rating_max}
