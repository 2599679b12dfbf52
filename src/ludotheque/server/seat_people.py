"""What a game's documents show of each seat's person: a player's name and rating, a bot's rating.

Read again when a game is loaded, when a seat changes hands and when a game ends.
"""

from __future__ import annotations

from typing import Any

from ..core.contract import Player
from .accounts import AccountStore
from .botratings import bot_rating
from .ratings import BOT_DEVIATION, RatingStore, category_of, shown
from .sessions import GameSession
from .snapshots import GameMeta, Snapshot
from .storage import Storage


class SeatPeople:
    """Reads the people of a game's seats for its documents."""

    def __init__(self, storage: Storage, accounts: AccountStore, ratings: RatingStore) -> None:
        self.storage = storage
        self.accounts = accounts
        self.ratings = ratings

    async def refresh(self, session: GameSession) -> None:
        """Read again what documents show of each seat's person (name of a player, rating)."""
        snap = session.snapshot
        if not snap.has_bot and not any(seat.account for seat in snap.seats):
            return
        session.set_people(await self.storage.run(self.people_of, session.meta, snap))

    def people_of(self, meta: GameMeta, snap: Snapshot) -> dict[Player, dict[str, Any]]:
        game = meta.game
        category = category_of(game.id, game.players, against_bots=snap.has_bot)
        owners = [seat.account for seat in snap.seats if seat.account]
        accounts = {a: self.accounts.get(a) for a in set(owners)}
        ratings = self.ratings.current(owners, category)
        changes = self.ratings.game_changes(meta.id) if meta.rated and snap.status == "over" else {}
        people: dict[Player, dict[str, Any]] = {}
        for number, seat in enumerate(snap.seats):
            if seat.kind == "bot":
                level = bot_rating(game.id, game.players, seat.level or "")
                people[number] = {"rating": shown(level, BOT_DEVIATION) if level is not None else None}
            elif seat.account and (account := accounts.get(seat.account)) is not None:
                rating = ratings.get(seat.account)
                change = changes.get(seat.account)
                people[number] = {
                    "player": None if account.is_guest else account.name,
                    "rating": shown(rating.rating, rating.deviation) if rating else None,
                    "rating_change": round(change[1] - change[0]) if change else None,
                }
        return people
