"""The game document each reader receives, built only from ``view(reader)`` and masked moves.

>>> import ludotheque
>>> from ludotheque.server.snapshots import GameMeta, Seat, new_snapshot
>>> meta = GameMeta("g1", ludotheque.load("pylos"), 0, "2026-01-01T00:00:00+00:00")
>>> snap = new_snapshot(meta.game, 0, (Seat("open", ""), Seat("open", "")), None)
>>> doc = game_document(meta, snap, None, Instant(0.0, 0.0))
>>> doc["status"], doc["legal_moves"], doc["view"]["viewer"]
('waiting', [], None)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core.contract import Player
from ..core.records import Record
from .clocks import Instant
from .snapshots import GameMeta, Snapshot, can_take_back


def game_document(meta: GameMeta, snap: Snapshot, reader: Player | None, now: Instant,
                  people: Mapping[Player, Mapping[str, Any]] | None = None,
                  view: dict[str, Any] | None = None) -> dict[str, Any]:
    """the design's game document for ``reader`` (a seat, or ``None`` for a spectator); ``people``:
    what the server knows of each seat's person (player name, rating, the game's rating change);
    ``view``: ``reader``'s view when the caller has it already (``state.view(reader)`` otherwise)."""
    people = people or {}
    state = snap.state
    to_move = snap.seat_to_move()
    game = meta.game
    hides = game.has_hidden_information
    return {
        "id": meta.id,
        "game": game.id,
        "variant": game.variant,
        "players": game.players,
        "to_move": None if snap.status == "over" else state.to_move,
        "status": snap.status,
        "result": snap.result.to_json() if snap.result else None,
        # A game that hides nothing shows every move to everyone as it was written.
        "moves": [game.mask_move_text(t, m, reader) for t, m in zip(snap.moves, snap.movers, strict=True)]
        if hides else list(snap.moves),
        # Who made each move: the pages name the mover and group a player's turn by it.
        "movers": list(snap.movers),
        "view": state.view(reader) if view is None else view,
        "legal_moves": [str(m) for m in state.legal_moves()]
        if reader is not None and reader == to_move
        else [],
        "ply": snap.ply,
        "seat": reader,
        "seats": [
            {"seat": n, "kind": seat.kind, "name": seat.name, "level": seat.level,
             "player": None, "rating": None, "rating_change": None, **people.get(n, {})}
            for n, seat in enumerate(snap.seats)
        ],
        "rated": meta.rated,
        "clock": snap.clock.to_document(now) if snap.clock else None,
        "draw_offer": sorted(snap.draw_offer),
        "can_take_back": reader is not None and not meta.rated and can_take_back(snap, reader),
        "rematch": snap.rematch,
        "rematch_of": meta.rematch_of,
        # The tournament whose game this is (tournaments create theirs with owner "t-<id>"); not a rematch.
        "tournament": meta.owner[2:] if meta.owner.startswith("t-") and meta.rematch_of is None else None,
        "created": meta.created,
        "started": snap.started,
        "ended": snap.ended,
    }


def game_record(meta: GameMeta, snap: Snapshot, reader: Player | None) -> dict[str, Any]:
    """the design's record format: complete once over, otherwise as ``reader`` may know it."""
    record = Record(
        game=meta.game.id,
        variant=meta.game.variant,
        players=meta.game.players,
        seed=meta.seed,
        rules_version=meta.game.rules_version,
        moves=snap.moves,
        result=snap.result,
        started=snap.started or meta.created,
        ended=snap.ended,
    )
    return record.for_reader(reader).to_json()


def lobby_document(games: list[dict[str, Any]]) -> dict[str, Any]:
    return {"games": games}
