"""How a game is stored: the values of its rows (``games``, ``seats``, ``moves``) made from a
snapshot, the snapshot made from its rows, and what a change writes (``storage`` runs the
statements). Another worker restores a game from the same values (:func:`stored_values`)
without reading the database.

>>> common_prefix(("1a1", "1b1", "1c1"), ("1a1", "1b1", "1d1"))
2
"""

from __future__ import annotations

import functools
import json
import time
from collections.abc import Mapping
from typing import Any

from ..core.contract import Result
from ..core.registry import load as load_game
from .clocks import Clock, ClockSpec, Instant
from .snapshots import GameMeta, Seat, Snapshot, hidden_facts

__all__ = ["changed_seats", "common_prefix", "deletes_moves", "game_values", "guarded_change",
           "guarded_change_sql", "lobby_entry", "meta_values", "restore_rows", "restore_values",
           "same_change", "seat_values", "stored_values"]


def stored_values(meta: GameMeta, snap: Snapshot) -> dict[str, Any]:
    """What the database holds of a game, as JSON values: another worker restores from them
    (:func:`restore_values`) the snapshot it would read from the database, without reading it.
    They hold the seats' token and invite hashes, as the database does: for workers only."""
    return {"row": {**meta_values(meta), **game_values(snap)},
            "seats": [seat_values(snap, number) for number in range(len(snap.seats))],
            "moves": list(snap.moves)}


def restore_values(values: Mapping[str, Any], known: Snapshot | None = None) -> Snapshot:
    """The snapshot of :func:`stored_values`; ``known``: an older copy whose moves are not
    played again."""
    return restore_rows(dict(values["row"]), [dict(seat) for seat in values["seats"]], list(values["moves"]),
                    known)[1]


def meta_values(meta: GameMeta) -> dict[str, Any]:
    return {
        "id": meta.id,
        "game": meta.game.id,
        "variant": meta.game.variant,
        "players": meta.game.players,
        "seed": meta.seed,
        "rules_version": meta.game.rules_version,
        "created": meta.created,
        "rematch_of": meta.rematch_of,
        "owner": meta.owner or None,
        "rated": meta.rated,
        "creator": meta.creator,
    }


def game_values(snap: Snapshot) -> dict[str, Any]:
    clock = snap.clock
    return {
        "status": snap.status,
        "result": json.dumps(snap.result.to_json()) if snap.result else None,
        "clock": json.dumps(clock.spec.to_json()) if clock else None,
        "clock_running": clock.running if clock else None,
        "clock_started": clock.started_wall if clock and clock.running is not None else None,
        "draw_offer": json.dumps(sorted(snap.draw_offer)),
        "rematch": snap.rematch,
        "started": snap.started,
        "ended": snap.ended,
        "updated": time.time(),
        "to_move": snap.seat_to_move(),
        "deadline": clock.started_wall + clock.remaining_ms[clock.running] / 1000
        if clock and clock.running is not None and snap.status == "playing" else None,
    }


def seat_values(snap: Snapshot, number: int) -> dict[str, Any]:
    seat = snap.seats[number]
    return {
        "kind": seat.kind,
        "name": seat.name,
        "level": seat.level,
        "token_hash": seat.token_hash,
        "bot_seed": seat.bot_seed,
        "invite_hash": seat.invite_hash,
        "account_id": seat.account,
        "remaining_ms": snap.clock.remaining_ms[number] if snap.clock else None,
    }


def deletes_moves(old: Snapshot, new: Snapshot) -> bool:
    """Whether the change takes moves back (stored under the row lock, never in one statement)."""
    return common_prefix(old.moves, new.moves) < len(old.moves)


def changed_seats(old: Snapshot, new: Snapshot) -> dict[int, dict[str, Any]]:
    """The stored values of each seat the change from ``old`` to ``new`` changed, by number."""
    return {number: values for number in range(len(new.seats))
            if (values := seat_values(new, number)) != seat_values(old, number)}


def same_change(stored: Snapshot, new: Snapshot) -> bool:
    """Whether the stored game is ``new`` (a change whose answer was lost with its connection)."""
    return (stored.moves == new.moves and stored.status == new.status
            and all(seat_values(stored, n) == seat_values(new, n) for n in range(len(new.seats))))


_GAME_COLUMNS = ("status", "result", "clock", "clock_running", "clock_started", "draw_offer", "rematch",
                 "started", "ended", "updated", "to_move", "version", "deadline")
_SEAT_COLUMNS = ("kind", "name", "level", "token_hash", "bot_seed", "invite_hash", "account_id",
                 "remaining_ms")


def guarded_change(game_id: str, version: int, old: Snapshot, new: Snapshot) -> tuple[str, dict[str, Any]]:
    """The statement of :func:`guarded_change_sql` that stores the change from ``old`` (at
    ``version``) to ``new``, which appends moves and takes none back, and its parameters."""
    kept = common_prefix(old.moves, new.moves)
    seats = changed_seats(old, new)
    parameters: dict[str, Any] = {"gid": game_id, "expected": version, "version": version + 1,
                                  "played": time.time(), **game_values(new)}
    for index, ply in enumerate(range(kept, len(new.moves))):
        parameters[f"m{index}_ply"], parameters[f"m{index}_text"] = ply, new.moves[ply]
    for number, values in seats.items():
        parameters.update({f"s{number}_{name}": value for name, value in values.items()})
    return guarded_change_sql(len(new.moves) - kept, tuple(seats)), parameters


@functools.lru_cache(maxsize=64)
def guarded_change_sql(moves: int, seats: tuple[int, ...]) -> str:
    """PostgreSQL: one statement that updates the game only if it is still at ``%(expected)s``,
    and, only then, appends ``moves`` moves and updates the ``seats`` that changed; its one row
    counts the games changed (0 or 1). Autocommitted, it is atomic: a change of another worker
    made meanwhile (under the row lock) makes it change nothing.

    >>> print(guarded_change_sql(1, ()).split(" SET ")[0])
    WITH game AS (UPDATE games
    """
    assignments = ", ".join(f"{column} = %({column})s" for column in _GAME_COLUMNS)
    parts = [f"WITH game AS (UPDATE games SET {assignments}, bot_lease = NULL "
             "WHERE id = %(gid)s AND version = %(expected)s RETURNING id)"]
    if moves:
        rows = ", ".join(f"(%(m{i}_ply)s::integer, %(m{i}_text)s::text, %(played)s::double precision)"
                         for i in range(moves))
        parts.append(", moved AS (INSERT INTO moves (game_id, ply, text, played) SELECT game.id, m.ply, "
                     f"m.text, m.played FROM game, (VALUES {rows}) AS m(ply, text, played))")
    for n in seats:
        values = ", ".join(f"{column} = %(s{n}_{column})s" for column in _SEAT_COLUMNS)
        parts.append(f", seat{n} AS (UPDATE seats SET {values} "
                     f"WHERE game_id = %(gid)s AND seat = {n} AND EXISTS (SELECT 1 FROM game))")
    parts.append(" SELECT count(*) FROM game")
    return "".join(parts)


def common_prefix(old: tuple[str, ...], new: tuple[str, ...]) -> int:
    kept = 0
    for before, after in zip(old, new, strict=False):
        if before != after:
            break
        kept += 1
    return kept


def restore_rows(
    row: dict[str, Any], seat_rows: list[dict[str, Any]], texts: list[str], known: Snapshot | None = None
) -> tuple[GameMeta, Snapshot]:
    game = load_game(row["game"], variant=row["variant"], players=row["players"])
    meta = GameMeta(row["id"], game, row["seed"], row["created"], row["rematch_of"], row["owner"] or "",
                    bool(row["rated"]), row["creator"])
    start = state = game.new_state(seed=row["seed"])
    movers: list[int] = []
    hidden = [hidden_facts(start)]
    done = 0
    if known is not None and tuple(texts[: len(known.moves)]) == known.moves:
        # The copy in memory is this game's older state: play only the moves it lacks.
        start, state, done = known.start, known.state, len(known.moves)
        movers, hidden = list(known.movers), list(known.hidden)
    for move in texts[done:]:
        assert state.to_move is not None, f"game {row['id']}: a move was stored after the end"
        movers.append(state.to_move)
        state = state.play(move)
        hidden.append(hidden_facts(state))
    seats = tuple(
        Seat(r["kind"], r["name"], r["level"], r["token_hash"], r["bot_seed"], r["invite_hash"],
             r["account_id"])
        for r in seat_rows
    )
    snap = Snapshot(
        seats=seats,
        start=start,
        state=state,
        moves=tuple(texts),
        movers=tuple(movers),
        status=row["status"],
        result=Result.from_json(json.loads(row["result"])) if row["result"] else None,
        clock=_restore_clock(row, seat_rows),
        hidden=tuple(hidden),
        draw_offer=frozenset(json.loads(row["draw_offer"])),
        rematch=row["rematch"],
        started=row["started"],
        ended=row["ended"],
    )
    return meta, snap


def _restore_clock(row: dict[str, Any], seat_rows: list[dict[str, Any]]) -> Clock | None:
    if row["clock"] is None:
        return None
    clock = Clock(ClockSpec.from_json(json.loads(row["clock"])), tuple(r["remaining_ms"] for r in seat_rows))
    if row["clock_running"] is None:
        return clock
    # The turn started before the restart: its monotonic start lies in this process's past.
    now = Instant.now()
    started = row["clock_started"]
    return Clock(clock.spec, clock.remaining_ms, row["clock_running"], now.mono_of(started), started)


def lobby_entry(row: dict[str, Any], seats: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "id": row["id"],
        "game": row["game"],
        "variant": row["variant"],
        "players": row["players"],
        "status": row["status"],
        "result": json.loads(row["result"]) if row["result"] else None,
        "clock": json.loads(row["clock"]) if row["clock"] else None,
        "seats": seats,
        "rated": bool(row["rated"]),
        # The creator's account id: the routes replace it by their name and rating.
        "creator": row["creator"],
        "created": row["created"],
        "started": row["started"],
        "ended": row["ended"],
    }
