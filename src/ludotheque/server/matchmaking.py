"""Matchmaking: a person's seek is matched at once with compatible waiting seekers (a game starts,
its seats theirs) or waits; the waiting seeks; cancelling one's own."""

from __future__ import annotations

from typing import Any

from ..core.contract import Game
from .accounts import Account, AccountStore
from .clocks import ClockSpec
from .games import Games
from .new_games import SeatRequest
from .notices import Notices
from .ratings import RatingStore, category_of
from .seeks import SeekRow, SeekStore
from .sessions import GameSession
from .storage import Storage


class Matchmaking:
    """Seeks stored in ``seeks``, matched games made in ``games`` and told by ``notices``."""

    def __init__(self, storage: Storage, seeks: SeekStore, accounts: AccountStore, ratings: RatingStore,
                 games: Games, notices: Notices) -> None:
        self.storage = storage
        self.seeks = seeks
        self.accounts = accounts
        self.ratings = ratings
        self.games = games
        self.notices = notices

    async def seek(self, account: Account, game: Game, clock: ClockSpec | None, rated: bool,
                   row: SeekRow) -> tuple[GameSession, int] | None:
        """``account``'s seek ``row`` (at its current rating): the new game and its seat there,
        or ``None`` when it waits."""
        rating = await self.storage.run(self.ratings.current, [account.id], category_of(
            game.id, game.players, against_bots=False))
        if account.id in rating:
            row = row._replace(rating=rating[account.id].rating)
        matched = await self.storage.run(self.seeks.match_or_add, row)
        if matched is None:
            return None
        people = await self.storage.run(self.accounts.names, [s.account for s in matched])
        # The longest waiting seeker moves first.
        order = sorted(matched, key=lambda s: s.created)
        requests = [SeatRequest("human", name=people.get(s.account, ""), account=s.account) for s in order]
        session, _ = await self.games.create(game, requests, clock, "", rated=rated, account=order[0].account)
        self.notices.tell_matched(session, [s.account for s in order])
        return session, [s.account for s in order].index(account.id)

    async def waiting(self) -> list[dict[str, Any]]:
        return await self.storage.run(self.seeks.waiting)

    async def cancel(self, account_id: str, seek_id: str) -> bool:
        """Cancel ``account_id``'s seek ``seek_id``; false if it has none of that id."""
        return await self.storage.run(self.seeks.cancel, account_id, seek_id)
