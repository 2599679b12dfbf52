"""Lists of games read straight from the database: a person's current games ("my games", with
whose turn it is and the deadline), a player's games with filters, and the names and ratings that
the lobby shows beside open games.

>>> deadline_of({"clock": '{"type": "correspondence", "days": 1}', "clock_running": 1,
...              "clock_started": 1000.0}, {0: 5000, 1: 86_400_000})
87400.0
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from datetime import UTC, datetime
from typing import Any

from sqlalchemy import Engine, and_, or_, select

from . import tables
from .ratings import category_of, shown

GAMES = tables.games.c
SEATS = tables.seats.c
MY_GAMES_LIMIT = 200
PLAYER_GAMES_LIMIT = 100
RESULTS = ("won", "lost", "drawn")


def deadline_of(game: Mapping[str, Any], remaining: Mapping[int, int | None]) -> float | None:
    """When the running seat's time runs out (epoch seconds), ``None`` without a running clock."""
    running = game["clock_running"]
    if game["clock"] is None or running is None or game["clock_started"] is None:
        return None
    left = remaining.get(running)
    return None if left is None else game["clock_started"] + left / 1000


def _iso(epoch: float | None) -> str | None:
    return None if epoch is None else datetime.fromtimestamp(epoch, UTC).replace(microsecond=0).isoformat()


class Listings:
    """Read-only queries over games, seats, accounts and ratings."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def _seats_of(self, connection: Any, ids: list[str]) -> dict[str, list[dict[str, Any]]]:
        found: dict[str, list[dict[str, Any]]] = {}
        if not ids:
            return found
        names = tables.accounts.c
        rows = connection.execute(
            select(tables.seats, names.name.label("account_name"), names.is_guest)
            .outerjoin(tables.accounts, names.id == SEATS.account_id)
            .where(SEATS.game_id.in_(ids)).order_by(SEATS.game_id, SEATS.seat)).mappings()
        for row in rows:
            found.setdefault(row["game_id"], []).append(dict(row))
        return found

    def my_games(self, account: str) -> list[dict[str, Any]]:
        """The games ``account`` holds a seat of, waiting or being played, "your turn" first, then
        by deadline, then the most recently changed."""
        mine = select(SEATS.game_id).where(SEATS.account_id == account)
        query = (select(tables.games).where(GAMES.id.in_(mine), GAMES.status.in_(("waiting", "playing")),
                                            GAMES.archived.is_(False))
                 .order_by(GAMES.updated.desc()).limit(MY_GAMES_LIMIT))
        with self.engine.connect() as connection:
            games = [dict(row) for row in connection.execute(query).mappings()]
            seats = self._seats_of(connection, [g["id"] for g in games])
        entries = [self._mine(game, seats.get(game["id"], []), account) for game in games]
        far = float("inf")
        entries.sort(key=lambda e: (not e["your_turn"], far if e["_deadline"] is None else e["_deadline"]))
        for entry in entries:
            del entry["_deadline"]
        return entries

    @staticmethod
    def _mine(game: dict[str, Any], seats: list[dict[str, Any]], account: str) -> dict[str, Any]:
        own = [s["seat"] for s in seats if s["account_id"] == account]
        to_move = game["to_move"] if game["status"] == "playing" else None
        deadline = deadline_of(game, {s["seat"]: s["remaining_ms"] for s in seats})
        return {
            "id": game["id"], "game": game["game"], "variant": game["variant"], "players": game["players"],
            "status": game["status"], "rated": bool(game["rated"]),
            "clock": json.loads(game["clock"]) if game["clock"] else None,
            "seats": [_public_seat(s) for s in seats],
            "my_seats": own, "to_move": to_move, "your_turn": to_move is not None and to_move in own,
            "deadline": _iso(deadline), "_deadline": deadline,
            "updated": _iso(game["updated"]),
        }

    def player_games(self, account: str, *, game: str | None, result: str | None, status: str | None,
                     ) -> list[dict[str, Any]]:
        """The games of ``account`` (newest first), filtered by game, result (won, lost, drawn) and
        status (playing, over)."""
        mine = select(SEATS.game_id).where(SEATS.account_id == account)
        query = select(tables.games).where(GAMES.id.in_(mine), GAMES.status != "waiting")
        if game is not None:
            query = query.where(GAMES.game == game)
        if status is not None:
            query = query.where(GAMES.status == status)
        if result is not None:
            query = query.where(GAMES.status == "over")
        query = query.order_by(GAMES.updated.desc()).limit(PLAYER_GAMES_LIMIT * (4 if result else 1))
        with self.engine.connect() as connection:
            games = [dict(row) for row in connection.execute(query).mappings()]
            seats = self._seats_of(connection, [g["id"] for g in games])
        entries = []
        for row in games:
            own = [s["seat"] for s in seats.get(row["id"], []) if s["account_id"] == account]
            outcome = _outcome(row, own)
            if result is not None and outcome != result:
                continue
            entries.append({
                "id": row["id"], "game": row["game"], "variant": row["variant"], "players": row["players"],
                "status": row["status"], "rated": bool(row["rated"]),
                "clock": json.loads(row["clock"]) if row["clock"] else None,
                "seats": [_public_seat(s) for s in seats.get(row["id"], [])], "my_seats": own,
                "outcome": outcome, "result": json.loads(row["result"]) if row["result"] else None,
                "started": row["started"], "ended": row["ended"],
            })
        return entries[:PLAYER_GAMES_LIMIT]

    def creators(self, rows: Iterable[Mapping[str, Any]]) -> dict[str, dict[str, Any]]:
        """For each game row (of the lobby) with a creator: game id -> the creator's name and
        rating in that game's category (``None`` when unrated there)."""
        wanted = {row["id"]: (row["creator"], category_of(row["game"], row["players"], against_bots=False))
                  for row in rows if row.get("creator")}
        if not wanted:
            return {}
        accounts = tables.accounts.c
        ratings = tables.ratings.c
        with self.engine.connect() as connection:
            creators = {account for account, _ in wanted.values()}
            query = select(accounts.id, accounts.name, accounts.is_guest).where(accounts.id.in_(creators))
            names = {row.id: row for row in connection.execute(query)}
            found = connection.execute(select(ratings.account_id, ratings.category, ratings.rating,
                                              ratings.deviation).where(
                or_(*(and_(ratings.account_id == a, ratings.category == c) for a, c in set(wanted.values())))
            )).all()
        rating = {(r.account_id, r.category): shown(r.rating, r.deviation) for r in found}
        return {game: {"name": names[account].name, "guest": bool(names[account].is_guest),
                       "rating": rating.get((account, category))}
                for game, (account, category) in wanted.items() if account in names}


def _public_seat(seat: Mapping[str, Any]) -> dict[str, Any]:
    """A seat as lists show it: the account's name links to the player's page (guests have none)."""
    player = seat["account_name"] if seat.get("account_name") and not seat.get("is_guest") else None
    return {"seat": seat["seat"], "kind": seat["kind"], "name": seat["name"], "level": seat["level"],
            "player": player}


def _outcome(row: Mapping[str, Any], own: list[int]) -> str | None:
    """``won``, ``lost`` or ``drawn`` for the seats ``own`` of a finished game, else ``None``."""
    if row["status"] != "over" or not row["result"] or not own:
        return None
    winners = json.loads(row["result"]).get("winners") or []
    if not winners:
        return "drawn"
    return "won" if any(seat in winners for seat in own) else "lost"
