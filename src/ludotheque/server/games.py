"""The games in memory: every live game session, loaded on demand, and the one way to change it.

Every change goes through :meth:`Games.change`: under the game's lock the operation reads the
current snapshot (so turn and ply are checked again after acquiring it), the new snapshot is
stored in one transaction, then installed and broadcast.

With several workers (``news``: a bus on Redis, PostgreSQL) the game's lock is also its database
row's (``SELECT ... FOR UPDATE``): a worker whose copy is stale reads the game again under it.
Each change is announced, and every worker holding the game reads it again and pushes it to its
own sockets (:meth:`Games.catch_up`); a reader who comes before the news (a socket, a GET) makes
its worker compare versions with the database (:meth:`Games.get`).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any

from ..core.contract import Game
from . import metrics
from .background import Background
from .clocks import ClockSpec, Instant
from .errors import ApiError, quoted
from .new_games import Created, SeatRequest, new_game
from .news import News
from .seat_people import SeatPeople
from .sessions import GameSession
from .snapshots import GameMeta, Snapshot
from .storage import Storage
from .stored_games import restore_values, stored_values

Operation = Callable[[Snapshot, Instant], Snapshot]
Change = Callable[[GameSession, Operation], Awaitable[Snapshot]]
# Finished games kept in memory (for their late readers); older ones are read again on demand.
FINISHED_IN_MEMORY = 1000


class Games:
    """Every loaded game session. ``after_change``: what follows every installed change or read
    (the flag timer, the bot's turn); ``changed``: what follows a change of this worker's, with
    its old and new snapshots (telling people). ``game_over_handlers``: called with the game's id
    when a change ends it."""

    def __init__(
        self, storage: Storage, news: News, background: Background, seat_people: SeatPeople, *,
        after_change: Callable[[GameSession], None],
        changed: Callable[[GameSession, Snapshot, Snapshot], None],
    ) -> None:
        self.storage = storage
        self.news = news
        self.background = background
        self.seat_people = seat_people
        self._after = after_change
        self._changed = changed
        self.game_over_handlers: list[Callable[[str], Coroutine[Any, Any, None]]] = []
        self._sessions: dict[str, GameSession] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()
        self._loading = asyncio.Lock()

    async def get(self, game_id: str, *, fresh: bool = True) -> GameSession:
        """The session of ``game_id``, loaded from the database if needed; 404 if unknown.
        ``fresh=False``: a session in memory as it is, without comparing its version with the
        database's (several workers); for a change, which reads the game again under its row
        lock when it is behind (one database round trip per move fewer)."""
        session = self._sessions.get(game_id)
        if session is not None:
            if fresh:
                await self._up_to_date(session)
            return session
        async with self._loading:
            session = self._sessions.get(game_id)
            if session is None:
                stored = await self.storage.run(self.storage.load_versioned, game_id)
                if stored is None:
                    raise ApiError(404, f"no game {quoted(game_id)}", "not_found")
                session = GameSession(stored[0], stored[1], version=stored[2])
                await self.seat_people.refresh(session)
                self._sessions[game_id] = session
                self._forget_old_games(session)
        return session

    async def _up_to_date(self, session: GameSession) -> None:
        """Several workers: another worker's change is stored before its news arrives here, so a
        reader's first document (a socket's, a GET's) would be the previous position. Compare
        this copy's version with the database's (one indexed read) and read the game again if
        behind; 404 when another worker deleted it."""
        newest = session.behind
        if self.news.shared:
            stored = await self.storage.run(self.storage.versions, [session.meta.id])
            if session.meta.id not in stored:
                self.forget(session.meta.id)
                raise ApiError(404, f"no game {quoted(session.meta.id)}", "not_found")
            newest = max(newest, stored[session.meta.id])
        if newest > session.version:
            await self.catch_up(session, newest, self._news_of(session, newest))

    def keep_news(self, session: GameSession, version: int, values: dict[str, Any] | None) -> None:
        """Another worker's change of a game nobody here watches: kept, installed when the game
        is next used here (:meth:`_install_news`)."""
        session.behind = max(session.behind, version)
        if values is not None and (session.news is None or session.news[0] < version):
            session.news = (version, values)

    @staticmethod
    def _news_of(session: GameSession, version: int) -> dict[str, Any] | None:
        """The stored values of ``version`` as another worker announced them, if kept."""
        news = session.news
        return news[1] if news is not None and news[0] == version else None

    async def _install_news(self, session: GameSession) -> None:
        """Install the changes other workers announced since this copy's version: a player's
        next move made here then needs no read of the game under its lock."""
        news, session.news = session.news, None
        if news is not None and news[0] > session.version:
            await self.catch_up(session, *news)

    def held(self, game_id: str) -> GameSession | None:
        """The session of ``game_id`` if it is in memory."""
        return self._sessions.get(game_id)

    def sessions(self) -> list[GameSession]:
        """The sessions in memory now."""
        return list(self._sessions.values())

    def loaded(self) -> set[str]:
        """The ids of the games in memory now."""
        return set(self._sessions)

    def forget(self, game_id: str) -> None:
        session = self._sessions.pop(game_id, None)
        if session is not None and session.flag_timer:
            session.flag_timer.cancel()

    async def create(
        self, game: Game, requests: list[SeatRequest], clock: ClockSpec | None, name: str,
        rematch_of: str | None = None, owner: str = "", *, account: str | None = None, rated: bool = False,
    ) -> tuple[GameSession, Created]:
        """A new game; returns its session and what its creator is given once: the tokens of
        its human seats and the codes of its invite seats. The human seats are ``account``'s
        (the creator's, if known)."""
        meta, snap, created = new_game(game, requests, clock, name, rematch_of, owner, account, rated)
        await self.storage.run(self.storage.insert, meta, snap)
        session = GameSession(meta, snap)
        await self.seat_people.refresh(session)
        self._sessions[meta.id] = session
        self.after_change(session)
        return session, created

    async def change(self, session: GameSession, operation: Operation) -> Snapshot:
        """Apply ``operation`` under the game's lock: store, install, broadcast.

        The change runs to its end even when the caller is cancelled (a socket dropped while
        its move was being stored): what the database holds is always what is installed.
        """
        return await self.background.finish(self._change(session, operation))

    async def _change(self, session: GameSession, operation: Operation) -> Snapshot:
        if session.meta.rated:
            operation = _keeping_moves(operation)
        if session.news is not None:
            await self._install_news(session)
        async with session.lock:
            old = session.snapshot
            if not self.news.shared:
                new = operation(old, Instant.now())
                if new is old:
                    return old
                await self.storage.store_change(session.meta.id, old, new, session.version + 1)
                session.version += 1
            else:
                seen, new, version = await self.storage.change_shared(
                    session.meta.id, session.version, old, operation)
                stale, old = seen is not old, seen
                if new is old and not stale:
                    return old
                session.version = version
            session.snapshot = new
            metrics.moves_played(session.meta.game.id, new.ply - old.ply)
            # Under the lock, so that every reader's outbox gets documents in the order of the
            # changes; queuing never waits for a reader (rooms.Connection).
            broadcast(session)
            news = self.game_news(session)
        if news is not None:
            await self.news.announce(news)
        self.after_change(session)
        if new is old:
            return old
        self._changed(session, old, new)
        if new.status == "over" != old.status:
            for handler in self.game_over_handlers:
                self.background.spawn(handler(session.meta.id))
        return new

    async def store(self, session: GameSession, old: Snapshot, new: Snapshot) -> None:
        """Store ``new`` in place of ``old`` (the caller holds the session's lock); with several
        workers, only if no other worker changed the game meanwhile (409 otherwise)."""
        if not self.news.shared:
            await self.storage.store_change(session.meta.id, old, new, session.version + 1)
            session.version += 1
            return

        def unless_changed(current: Snapshot, _: Instant) -> Snapshot:
            if current is not old:
                raise ApiError(409, "the game changed meanwhile: try again", "stale_ply")
            return new

        _, _, session.version = await self.storage.change_shared(
            session.meta.id, session.version, old, unless_changed)

    def game_news(self, session: GameSession) -> dict[str, Any] | None:
        """The other workers' news of ``session``'s stored version (``None`` without them), built
        under the game's lock. Its stored values ride along: a worker one version behind installs
        them without reading the game again (see :meth:`catch_up`)."""
        if not self.news.shared:
            return None
        return {"kind": "game", "game": session.meta.id, "v": session.version,
                "values": stored_values(session.meta, session.snapshot)}

    async def catch_up(self, session: GameSession, version: int | None,
                       values: dict[str, Any] | None = None) -> None:
        """Read the game again if the database has a newer version than ``version`` (``None``:
        read it again in any case: seats or people changed), install and push it. ``values``:
        what the database holds at ``version`` (``stored_games.stored_values``: the whole stored
        game), installed without reading, however many versions this copy lacks."""
        async with session.lock:
            if version is not None and session.version >= version:
                return  # an earlier catch-up read it already
            if values is not None and version is not None:
                stored: tuple[GameMeta, Snapshot, int] | None = (
                    session.meta, restore_values(values, session.snapshot), version)
            else:
                stored = await self.storage.run(
                    self.storage.load_versioned, session.meta.id, session.snapshot)
            if stored is None:
                self.forget(session.meta.id)
                return
            if version is not None and stored[2] <= session.version:
                return
            old = session.snapshot
            session.snapshot, session.version = stored[1], stored[2]
            if version is None or old.status != session.snapshot.status:
                await self.seat_people.refresh(session)
            broadcast(session)
        self.after_change(session)

    def watched(self, session: GameSession) -> None:
        """A socket joined ``session``'s room: if another worker's change came meanwhile, read
        it now (the socket's first document may be older)."""
        if session.behind > session.version:
            newest = session.behind
            self.background.spawn(self.catch_up(session, newest, self._news_of(session, newest)))

    async def rename_seats(self, account: str, name: str) -> None:
        """The games in memory, not over, whose seats are ``account``'s: those seats take the new
        ``name`` (the database has it already) and their readers are told."""
        for session in list(self._sessions.values()):
            if session.snapshot.status == "over" or not session.seats_of_account(account):
                continue
            async with session.lock:
                snap = session.snapshot
                seats = tuple(replace(seat, name=name) if seat.account == account else seat
                              for seat in snap.seats)
                session.snapshot = replace(snap, seats=seats)
                broadcast(session)
            await self.news.announce({"kind": "reload", "game": session.meta.id})

    def after_change(self, session: GameSession) -> None:
        """What follows a change installed here: the flag timer, the bot's turn, the memory."""
        self._after(session)
        self._forget_old_games(session)

    def _forget_old_games(self, session: GameSession) -> None:
        """Keep only the most recent finished games in memory: a long-running server's
        memory stays bounded, and the database still has every game."""
        if session.snapshot.status != "over":
            return
        self._finished[session.meta.id] = None
        self._finished.move_to_end(session.meta.id)
        while len(self._finished) > FINISHED_IN_MEMORY:
            oldest, _ = self._finished.popitem(last=False)
            self._sessions.pop(oldest, None)

    def close(self) -> None:
        for session in self._sessions.values():
            if session.flag_timer:
                session.flag_timer.cancel()
            if session.bot_task:
                session.bot_task.cancel()


def broadcast(session: GameSession) -> None:
    """``session``'s document to each of its readers, as that reader may see it."""
    now = Instant.now()
    session.room.broadcast(lambda reader: session.document_text(reader, now))


def _keeping_moves(operation: Operation) -> Operation:
    """``operation`` for a rated game: it may not take moves back, whichever way it is asked
    (HTTP or WebSocket), else a player could farm a rating against bots."""
    def checked(snap: Snapshot, now: Instant) -> Snapshot:
        new = operation(snap, now)
        if new.ply < snap.ply:
            raise rated_takeback()
        return new

    return checked


def rated_takeback() -> ApiError:
    return ApiError(409, "no takebacks in a rated game", "rated_takeback")
