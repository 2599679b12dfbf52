"""The lists that pages read: the lobby, a person's own games, a player's public page and games.
Each is read on the database threads; none changes anything."""

from __future__ import annotations

from typing import Any

from .accounts import Account, AccountStore
from .listings import Listings
from .ratings import RatingStore
from .storage import Storage


class GameLists:
    """Reads the games' lists from ``storage``, ``listings``, ``accounts`` and ``ratings``."""

    def __init__(self, storage: Storage, listings: Listings, accounts: AccountStore,
                 ratings: RatingStore) -> None:
        self.storage = storage
        self.listings = listings
        self.accounts = accounts
        self.ratings = ratings

    async def lobby(self, status: str | None) -> list[dict[str, Any]]:
        """The lobby's games (``status``: only those), each with its ``creator``."""
        games = await self.storage.run(self.storage.lobby, status)
        creators = await self.storage.run(self.listings.creators, games)
        for entry in games:
            entry["creator"] = creators.get(entry["id"])
        return games

    async def my_games(self, account_id: str) -> list[dict[str, Any]]:
        """The games ``account_id`` holds a seat of, waiting or being played."""
        return await self.storage.run(self.listings.my_games, account_id)

    async def player(self, name: str) -> Account | None:
        """The account named ``name``, if it is a player's (not a guest's)."""
        found = await self.storage.run(self.accounts.by_name, name)
        return None if found is None or found[0].is_guest else found[0]

    async def ratings_of(self, account_id: str) -> list[dict[str, Any]]:
        """``account_id``'s ratings per category, with their history."""
        return await self.storage.run(self.ratings.of_account, account_id)

    async def player_games(self, account_id: str, *, game: str | None, result: str | None,
                           status: str | None) -> list[dict[str, Any]]:
        """``account_id``'s games, newest first, filtered."""
        return await self.storage.run(self.listings.player_games, account_id, game=game, result=result,
                                      status=status)
