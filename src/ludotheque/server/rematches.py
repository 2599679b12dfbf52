"""Rematches: a finished game's next game, seats turned by one, made once whoever asks first (on
whichever worker)."""

from __future__ import annotations

from dataclasses import replace

from ..core.contract import Player
from .errors import ApiError
from .games import Games, broadcast
from .new_games import SeatRequest
from .sessions import GameSession, hash_token, new_token
from .snapshots import claim


class Rematches:
    """Makes and joins the rematches of ``games``."""

    def __init__(self, games: Games) -> None:
        self.games = games

    async def rematch(self, session: GameSession, seat: Player) -> tuple[GameSession, Player, str]:
        """The rematch of a finished game, seats turned by one; each person claims their seat
        with the token of their old one. Returns the new session, seat and token."""
        games, storage = self.games, self.games.storage
        token = new_token()
        if games.news.shared:  # another worker may have made the rematch already
            stored = await storage.run(storage.versions, [session.meta.id])
            await games.catch_up(session, stored.get(session.meta.id, 0))
        async with session.lock:
            snap = session.snapshot
            if snap.status != "over":
                raise ApiError(409, "a rematch is only possible once the game is over", "game_not_over")
            if snap.rematch is None or not await storage.run(storage.exists, snap.rematch):
                fresh = await self._create(session)
                new_snap = replace(snap, rematch=fresh.meta.id)
                await games.store(session, snap, new_snap)
                session.snapshot = new_snap
                broadcast(session)
            news = games.game_news(session)
        if news is not None:
            await games.news.announce(news)
        target = await games.get(session.snapshot.rematch or "")
        new_seat = (seat + 1) % session.meta.game.players
        await games.change(target, lambda s, now: claim(s, new_seat, hash_token(token), now))
        return target, new_seat, token

    async def _create(self, session: GameSession) -> GameSession:
        old = session.snapshot
        players = len(old.seats)
        requests = []
        for number in range(players):
            previous = old.seats[(number - 1) % players]
            if previous.kind == "bot":
                requests.append(SeatRequest("bot", previous.level))
            else:
                requests.append(SeatRequest("reserved", name=previous.name, account=previous.account))
        clock = old.clock.spec if old.clock else None
        meta = session.meta
        fresh, _ = await self.games.create(meta.game, requests, clock, "", meta.id, meta.owner,
                                           rated=meta.rated, account=meta.creator)
        return fresh
