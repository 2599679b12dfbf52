"""The hub: every live game session (``sessions``), the storage behind them and the bot pool.

Every change goes through :meth:`Hub.change`: under the game's lock the operation reads the
current snapshot (so turn and ply are checked again after acquiring it), the new snapshot is
stored in one transaction, then installed and broadcast.

With several workers (a :class:`~ludotheque.server.bus.Bus` on Redis, PostgreSQL) the game's lock
is also its database row's (``SELECT ... FOR UPDATE``): a worker whose copy is stale reads the
game again under it. Each change is announced on the bus, and every worker holding the game
reads it again and pushes it to its own sockets; a reader who comes before the news (a socket,
a GET) makes its worker compare versions with the database (:meth:`Hub.get`). Clocks fall by
their stored deadline and bots' moves are leased jobs: any worker's watch
(:meth:`Hub.watch_forever`) ends an overdue game or takes a bot move that no living worker thinks.

>>> new_seed() < 2**SEED_BITS
True
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, replace
from typing import Any

from ..core.contract import Game, Player
from ..core.registry import info, load
from . import metrics
from .accounts import AccountStore
from .botratings import bot_rating
from .bots import BotPool
from .bus import Bus
from .chat import ChatStore, hidden
from .clocks import ClockSpec, Instant
from .config import ServerSettings
from .errors import ApiError, quoted
from .listings import Listings
from .notify import Mailer, PeopleSockets, smtp_settings
from .ratings import BOT_DEVIATION, RatingStore, category_of, shown
from .rooms import Audience, encode
from .seeks import SEEK_DAYS, SeekStore
from .sessions import GameSession, hash_token, new_token
from .snapshots import (
    GameMeta,
    Seat,
    SeatKind,
    Snapshot,
    abandon,
    begin,
    claim,
    iso,
    new_snapshot,
    play,
    time_out,
)
from .storage import Storage, restore_values, stored_values
from .throttle import KeyedThrottle

log = logging.getLogger("ludotheque.server")
Operation = Callable[[Snapshot, Instant], Snapshot]
# docs/design.md: a seed is an integer in [0, 2^53), so that every JSON reader (a browser's
# included) keeps it exact. Older games may hold larger seeds (62 bits): they still load.
SEED_BITS = 53
# Finished games kept in memory (for their late readers); older ones are read again on demand.
FINISHED_IN_MEMORY = 1000
# How often old games are expired while the server runs (and once at every start).
SWEEP_EVERY_S = 3600.0
DAY_S = 86_400.0
# Several workers: how often each looks for overdue clocks and bot moves nobody thinks, and how
# long a bot's turn waits for the worker that made it before another takes it.
WATCH_EVERY_S = 0.5
BOT_GRACE_S = 2.0


def new_seed() -> int:
    return secrets.randbits(SEED_BITS)


@dataclass(frozen=True)
class SeatRequest:
    """A seat asked for at creation: ``human``, ``open``, ``invite`` or ``bot:<level>``."""

    kind: str
    level: str | None = None
    name: str = ""
    # A rematch's reserved seat stays its person's account's.
    account: str | None = None


@dataclass(frozen=True)
class Created:
    """What the creator of a game is given once: each human seat's token, each invite seat's code."""

    tokens: dict[Player, str]
    invites: dict[Player, str]


class Hub:
    """Every loaded game session, the storage behind them and the bot pool."""

    def __init__(self, storage: Storage, bots: BotPool, settings: ServerSettings | None = None) -> None:
        self.storage = storage
        self.accounts = AccountStore(storage.engine)
        self.listings = Listings(storage.engine)
        self.ratings = RatingStore(storage.engine)
        self.seeks = SeekStore(storage.engine)
        self.people_sockets = PeopleSockets()
        self.chat = ChatStore(storage.engine)
        self.bots = bots
        self.settings = settings or ServerSettings()
        self.mailer = Mailer(smtp_settings(self.settings.smtp)) if self.settings.smtp else None
        self.chat_throttle = KeyedThrottle(self.settings.chat_limit, "chat lines")
        self._sessions: dict[str, GameSession] = {}
        self._finished: OrderedDict[str, None] = OrderedDict()
        self._loading = asyncio.Lock()
        self._tasks: set[asyncio.Task[Any]] = set()
        # Several workers: the Redis bus (None: this process is the only one).
        self.bus: Bus | None = None
        # Other parts' own kinds of news from the other workers (kind -> handler), so that a part
        # (people, sessions...) takes its news without the hub knowing what it means.
        self.news_handlers: dict[str, Callable[[dict[str, Any]], Awaitable[None]]] = {}

    async def share(self, redis_url: str) -> None:
        """Work beside other workers on the same PostgreSQL database: announce every change on
        Redis and take in theirs."""
        self.bus = Bus(redis_url, self._on_message, self._on_resubscribed)
        await self.bus.start()

    # -- life cycle -----------------------------------------------------------------------------
    async def resume(self) -> None:
        """Delete the games that waited too long for a person, then load the games that need
        the server to act: a running clock (its flag) or a bot to move, unless abandoned. Every
        other game loads when first asked for; abandoned ones are ended by :meth:`sweep_forever`
        in the background, so that a start never waits for old games."""
        try:
            await self._delete_waiting()
        except ApiError:  # a read-only or full database still serves its games
            log.warning("old games could not be expired: the database refuses writes")
        if self.bus is not None:  # flags and bots: every worker's watch finds them
            return
        recent = time.time() - self.settings.abandoned_days * DAY_S
        for game_id in await self.storage.run(self.storage.ids_to_resume, recent):
            session = await self.get(game_id)
            self._after_change(session)

    async def expire(self) -> None:
        """Delete casual games that waited too long for a person to join (rated ones are
        archived); drop old seeks; archive the games of guests untouched for a long time; end
        (``abandoned``) games without a clock that nobody moved in for too long (settings:
        ``waiting_days``, ``guest_archive_days``, ``abandoned_days``)."""
        await self._delete_waiting()
        await self._expire_seeks()
        archive_before = time.time() - self.settings.guest_archive_days * DAY_S
        await self.storage.run(self.storage.archive_guest_games, archive_before)
        abandoned_before = time.time() - self.settings.abandoned_days * DAY_S
        for game_id in await self.storage.run(self.storage.abandoned_ids, abandoned_before):
            with contextlib.suppress(ApiError):  # a move came in meanwhile
                await self.change(await self.get(game_id), abandon)

    async def _expire_seeks(self) -> None:
        await self.storage.run(self.seeks.expire, time.time() - SEEK_DAYS * DAY_S)

    async def _delete_waiting(self) -> None:
        waiting_before = time.time() - self.settings.waiting_days * DAY_S
        for game_id in await self.storage.run(self.storage.delete_waiting, waiting_before):
            self._forget(game_id)

    async def sweep_forever(self) -> None:
        """Run :meth:`expire` now, then every ``SWEEP_EVERY_S`` while the server runs."""
        while True:
            try:
                await self.expire()
            except Exception:  # the database may be away for a while: try again later
                log.warning("expiring old games failed", exc_info=True)
            await asyncio.sleep(SWEEP_EVERY_S)

    async def close(self) -> None:
        for session in self._sessions.values():
            if session.flag_timer:
                session.flag_timer.cancel()
            if session.bot_task:
                session.bot_task.cancel()
        for task in list(self._tasks):
            task.cancel()
        self.bots.close()
        if self.bus is not None:
            await self.bus.close()

    # -- sessions -------------------------------------------------------------------------------
    async def get(self, game_id: str) -> GameSession:
        """The session of ``game_id``, loaded from the database if needed; 404 if unknown."""
        session = self._sessions.get(game_id)
        if session is not None:
            await self._up_to_date(session)
            return session
        async with self._loading:
            session = self._sessions.get(game_id)
            if session is None:
                stored = await self.storage.run(self.storage.load_versioned, game_id)
                if stored is None:
                    raise ApiError(404, f"no game {quoted(game_id)}", "not_found")
                session = GameSession(stored[0], stored[1], version=stored[2])
                await self.refresh_people(session)
                self._sessions[game_id] = session
                self._forget_old_games(session)
        return session

    async def _up_to_date(self, session: GameSession) -> None:
        """Several workers: another worker's change is stored before its news arrives here, so a
        reader's first document (a socket's, a GET's) would be the previous position. Compare
        this copy's version with the database's (one indexed read) and read the game again if
        behind; 404 when another worker deleted it."""
        newest = session.behind
        if self.bus is not None:
            stored = await self.storage.run(self.storage.versions, [session.meta.id])
            if session.meta.id not in stored:
                self._forget(session.meta.id)
                raise ApiError(404, f"no game {quoted(session.meta.id)}", "not_found")
            newest = max(newest, stored[session.meta.id])
        if newest > session.version:
            await self._catch_up(session, newest)

    def loaded(self) -> set[str]:
        """The ids of the games in memory now."""
        return set(self._sessions)

    def _forget(self, game_id: str) -> None:
        session = self._sessions.pop(game_id, None)
        if session is not None and session.flag_timer:
            session.flag_timer.cancel()

    async def create(
        self,
        game: Game,
        requests: list[SeatRequest],
        clock: ClockSpec | None,
        name: str,
        rematch_of: str | None = None,
        owner: str = "",
        *,
        account: str | None = None,
        rated: bool = False,
    ) -> tuple[GameSession, Created]:
        """A new game; returns its session and what its creator is given once: the tokens of
        its human seats and the codes of its invite seats. The human seats are ``account``'s
        (the creator's, if known)."""
        created = Created({}, {})
        seats = []
        for number, request in enumerate(requests):
            if request.kind == "human":
                created.tokens[number] = new_token()
                person = request.name or name or f"Guest {number + 1}"
                digest = hash_token(created.tokens[number])
                seats.append(Seat("human", person, token_hash=digest, account=request.account or account))
            elif request.kind == "invite":
                created.invites[number] = new_token()
                seats.append(Seat("invite", "", invite_hash=hash_token(created.invites[number])))
            elif request.kind == "bot":
                seats.append(Seat("bot", f"bot:{request.level}", request.level, bot_seed=new_seed()))
            else:
                kind: SeatKind = "reserved" if request.kind == "reserved" else "open"
                seats.append(Seat(kind, request.name, account=request.account))
        seed = new_seed()
        now = Instant.now()
        meta = GameMeta(secrets.token_urlsafe(9), game, seed, iso(now), rematch_of, owner, rated, account)
        snap = begin(new_snapshot(game, seed, tuple(seats), clock), now)
        await self.storage.run(self.storage.insert, meta, snap)
        session = GameSession(meta, snap)
        await self.refresh_people(session)
        self._sessions[meta.id] = session
        self._after_change(session)
        return session, created

    async def change(self, session: GameSession, operation: Operation) -> Snapshot:
        """Apply ``operation`` under the game's lock: store, install, broadcast.

        The change runs to its end even when the caller is cancelled (a socket dropped while
        its move was being stored): what the database holds is always what is installed.
        """
        task = asyncio.get_running_loop().create_task(self._change(session, operation))
        self._tasks.add(task)
        task.add_done_callback(_settled)
        task.add_done_callback(self._tasks.discard)
        return await asyncio.shield(task)

    async def _change(self, session: GameSession, operation: Operation) -> Snapshot:
        if session.meta.rated:
            operation = _keeping_moves(operation)
        async with session.lock:
            old = session.snapshot
            if self.bus is None:
                new = operation(old, Instant.now())
                if new is old:
                    return old
                await self.storage.run(self.storage.save, session.meta.id, old, new, session.version + 1)
                session.version += 1
            else:
                seen, new, version = await self.storage.run(
                    self.storage.change_locked, session.meta.id, session.version, old, operation)
                stale, old = seen is not old, seen
                if new is old and not stale:
                    return old
                session.version = version
            session.snapshot = new
            metrics.moves_played(session.meta.game.id, new.ply - old.ply)
            # Under the lock, so that every reader's outbox gets documents in the order of the
            # changes; queuing never waits for a reader (rooms.Connection).
            self.broadcast(session)
            news = self._game_news(session)
        if news is not None:
            await self.announce(news)
        self._after_change(session)
        if new is old:
            return old
        ended = new.status == "over" != old.status
        if ended or [seat.account for seat in old.seats] != [seat.account for seat in new.seats]:
            self._spawn(self._people_changed(session, rate=ended and session.meta.rated))
        if any(seat.account for seat in new.seats) and (
                ended or new.seat_to_move() != old.seat_to_move() or new.ply != old.ply):
            self._spawn(self._tell_people(session, old, new))
        return new

    # -- telling people: their own sockets, e-mail ----------------------------------------------
    async def tell_turns(self, accounts: set[str]) -> None:
        """Send each connected person of ``accounts`` the games where it is their turn."""
        # With several workers the person's sockets may be held by any of them.
        held = accounts if self.bus is not None else self.people_sockets.connected(accounts)
        for account in held:
            games = await self.storage.run(self.listings.my_games, account)
            turn = [game["id"] for game in games if game["your_turn"]]
            await self.tell(account, {"type": "turns", "count": len(turn), "games": turn})

    async def tell(self, account: str, message: dict[str, Any]) -> None:
        """``message`` to every socket of ``account``, this worker's and the others'."""
        self.people_sockets.tell(account, message)
        await self.announce({"kind": "person", "account": account, "message": message})

    def tell_matched(self, session: GameSession, accounts: list[str]) -> None:
        """The seekers of a new game: it exists, and their turn counts change."""
        for account in accounts:
            self._spawn(self.tell(account, {"type": "matched", "game": session.meta.id,
                                            "name": session.meta.game.id}))
        self._spawn(self.tell_turns(set(accounts)))

    async def _tell_people(self, session: GameSession, old: Snapshot, new: Snapshot) -> None:
        """After a change: the live counts; in a correspondence game, the person now to move, or
        everyone once it ended (on time too), by socket and by e-mail."""
        await self.tell_turns({seat.account for seat in new.seats if seat.account})
        if new.clock is None or new.clock.spec.kind != "correspondence":
            return
        game_id, name = session.meta.id, session.meta.game.id
        mover = new.seat_to_move()
        if new.status == "over" and old.status != "over":
            reason = new.result.reason if new.result else None
            for number, seat in enumerate(new.seats):
                if seat.account:
                    message = {"type": "game_over", "game": game_id, "name": name, "reason": reason,
                               "won": bool(new.result and number in new.result.winners)}
                    await self.tell(seat.account, message)
                    await self._mail(seat.account, "game_over", game_id, name, reason)
        elif mover is not None and mover != old.seat_to_move() and (account := new.seats[mover].account):
            await self.tell(account, {"type": "your_turn", "game": game_id, "name": name})
            await self._mail(account, "your_turn", game_id, name, None)

    async def _mail(self, account_id: str, kind: str, game_id: str, name: str, reason: str | None) -> None:
        if self.mailer is None:
            return
        account = await self.storage.run(self.accounts.get, account_id)
        if account is None or not account.email or not account.notify_email or not account.email_verified:
            return
        title = info(name).title
        link = f"{self.settings.public_url.rstrip('/')}/play/{game_id}"
        if kind == "your_turn":
            subject = f"Ludothèque — {title.get('fr', name)} : à vous de jouer / your turn"
            body = (f"À vous de jouer dans votre partie de {title.get('fr', name)}.\n"
                    f"It is your turn in your game of {title.get('en', name)}.\n\n{link}\n")
        else:
            subject = f"Ludothèque — {title.get('fr', name)} : partie terminée / game over"
            why = " (temps écoulé / on time)" if reason == "time" else ""
            body = (f"Votre partie de {title.get('fr', name)} est terminée{why}.\n"
                    f"Your game of {title.get('en', name)} is over{why}.\n\n{link}\n")
        await self.mailer.send(account.email, subject, body)

    # -- people: who holds each seat, their ratings ------------------------------------------------
    async def refresh_people(self, session: GameSession) -> None:
        """Read again what documents show of each seat's person (name of a player, rating)."""
        snap = session.snapshot
        if not snap.has_bot and not any(seat.account for seat in snap.seats):
            return
        session.set_people(await self.storage.run(self._people_of, session.meta, snap))

    def _people_of(self, meta: GameMeta, snap: Snapshot) -> dict[Player, dict[str, Any]]:
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

    async def _people_changed(self, session: GameSession, *, rate: bool) -> None:
        """After a seat changed hands or the game ended: rate it (once, if rated), then tell its
        readers the seats' people and ratings."""
        snap = session.snapshot
        if rate and snap.result is not None:
            await self.storage.run(self.ratings.rate, session.meta.id, session.meta.game, snap.seats,
                                   snap.result.winners)
        await self.refresh_people(session)
        async with session.lock:
            self.broadcast(session)
        await self.announce({"kind": "people", "game": session.meta.id})

    def _game_news(self, session: GameSession) -> dict[str, Any] | None:
        """The other workers' news of ``session``'s stored version (``None`` without them), built
        under the game's lock. Its stored values ride along: a worker one version behind installs
        them without reading the game again (see :meth:`_catch_up`)."""
        if self.bus is None:
            return None
        return {"kind": "game", "game": session.meta.id, "v": session.version,
                "values": stored_values(session.meta, session.snapshot)}

    async def announce(self, message: dict[str, Any]) -> None:
        """Tell the other workers (nothing without them)."""
        if self.bus is not None:
            await self.bus.publish(message)

    async def deliver_chat(self, session: GameSession, room: str, line: dict[str, Any], *,
                           announce: bool = True) -> None:
        """A new chat line to this worker's readers who may read ``room`` (not those who muted
        its author), and to the other workers' (``announce``)."""
        if session.mutes is None:
            session.mutes = await self.storage.run(self.chat.mutes, session.meta.id)
        mutes, author = session.mutes, line.get("seat")
        message = encode({"type": "chat", "line": line})

        def build(audience: Audience) -> str | None:
            if room == "players" and audience is None:
                return None
            return None if hidden(mutes, audience, author) else message

        session.room.deliver(build)
        if announce:
            await self.announce({"kind": "chat", "game": session.meta.id, "room": room, "line": line})

    # -- several workers: what the others announce, and the watch over clocks and bots ----------
    async def _on_message(self, message: dict[str, Any]) -> None:
        """Another worker's news; never waits long (the subscription reads the next one)."""
        kind, game_id = message.get("kind"), message.get("game")
        if isinstance(kind, str) and (handler := self.news_handlers.get(kind)) is not None:
            await handler(message)
            return
        if kind == "person" and isinstance(account := message.get("account"), str):
            self.people_sockets.tell(account, message.get("message") or {})
            return
        session = self._sessions.get(game_id) if isinstance(game_id, str) else None
        if session is None:
            return
        if kind == "game":
            version = int(message.get("v") or 0)
            if len(session.room) == 0:  # no socket here: read it again when next used
                session.behind = max(session.behind, version)
            else:
                values = message.get("values")
                self._spawn(self._catch_up(session, version, values if isinstance(values, dict) else None))
        elif kind in ("reload", "people"):
            self._spawn(self._catch_up(session, None))
        elif kind == "chat":
            line = message.get("line")
            if isinstance(line, dict):
                self._spawn(self.deliver_chat(session, str(message.get("room")), line, announce=False))
        elif kind == "mutes":
            session.mutes = None

    def watched(self, session: GameSession) -> None:
        """A socket joined ``session``'s room: if another worker's change came meanwhile, read
        it now (the socket's first document may be older)."""
        if session.behind > session.version:
            self._spawn(self._catch_up(session, session.behind))

    async def _catch_up(self, session: GameSession, version: int | None,
                        values: dict[str, Any] | None = None) -> None:
        """Read the game again if the database has a newer version than ``version`` (``None``:
        read it again in any case: seats or people changed), install and push it. ``values``:
        what the database holds at ``version`` (``storage.stored_values``), installed without
        reading when this copy is the version just before."""
        async with session.lock:
            if version is not None and session.version >= version:
                return  # an earlier catch-up read it already
            if values is not None and version == session.version + 1:
                stored: tuple[GameMeta, Snapshot, int] | None = (
                    session.meta, restore_values(values, session.snapshot), version)
            else:
                stored = await self.storage.run(
                    self.storage.load_versioned, session.meta.id, session.snapshot)
            if stored is None:
                self._forget(session.meta.id)
                return
            if version is not None and stored[2] <= session.version:
                return
            old = session.snapshot
            session.snapshot, session.version = stored[1], stored[2]
            if version is None or old.status != session.snapshot.status:
                await self.refresh_people(session)
            self.broadcast(session)
        self._after_change(session)

    async def _on_resubscribed(self) -> None:
        """Messages may have been lost while Redis was away: read again every game held here
        whose stored version moved, and tell this worker's people their counts again."""
        held = {game_id: session.version for game_id, session in self._sessions.items()}
        if held:
            stored = await self.storage.run(self.storage.versions, list(held))
            for game_id, version in stored.items():
                if version != held[game_id] and (session := self._sessions.get(game_id)):
                    self._spawn(self._catch_up(session, None))
        for account in self.people_sockets.accounts():
            self._spawn(self.tell_turns({account}))

    async def watch_forever(self) -> None:
        """Several workers: end the games whose flag fell (their worker may be gone) and think
        the bot moves no worker holds, every ``WATCH_EVERY_S``."""
        while True:
            try:
                await self._watch()
            except Exception:  # the database may be away for a while: try again
                log.warning("watching clocks and bots failed", exc_info=True)
            await asyncio.sleep(WATCH_EVERY_S)

    async def _watch(self) -> None:
        for game_id in await self.storage.run(self.storage.overdue, time.time()):
            with contextlib.suppress(ApiError):  # another worker flagged it first
                await self.change(await self.get(game_id), time_out)
        waiting = await self.storage.run(self.storage.bots_waiting, time.time() - BOT_GRACE_S)
        for game_id in waiting:
            with contextlib.suppress(ApiError):  # deleted meanwhile
                self._maybe_bot(await self.get(game_id))  # read again if behind

    def _spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        task.add_done_callback(_logged)

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
                self.broadcast(session)
            await self.announce({"kind": "reload", "game": session.meta.id})

    def broadcast(self, session: GameSession) -> None:
        now = Instant.now()
        session.room.broadcast(lambda reader: session.document_text(reader, now))

    async def rematch(self, session: GameSession, seat: Player) -> tuple[GameSession, Player, str]:
        """The rematch of a finished game, seats turned by one; each person claims their seat
        with the token of their old one. Returns the new session, seat and token."""
        token = new_token()
        if self.bus is not None:  # another worker may have made the rematch already
            stored = await self.storage.run(self.storage.versions, [session.meta.id])
            await self._catch_up(session, stored.get(session.meta.id, 0))
        async with session.lock:
            snap = session.snapshot
            if snap.status != "over":
                raise ApiError(409, "a rematch is only possible once the game is over", "game_not_over")
            if snap.rematch is None or not await self.storage.run(self.storage.exists, snap.rematch):
                fresh = await self._create_rematch(session)
                new_snap = replace(snap, rematch=fresh.meta.id)
                await self._store(session, snap, new_snap)
                session.snapshot = new_snap
                self.broadcast(session)
            news = self._game_news(session)
        if news is not None:
            await self.announce(news)
        target = await self.get(session.snapshot.rematch or "")
        new_seat = (seat + 1) % session.meta.game.players
        await self.change(target, lambda s, now: claim(s, new_seat, hash_token(token), now))
        return target, new_seat, token

    async def _store(self, session: GameSession, old: Snapshot, new: Snapshot) -> None:
        """Store ``new`` in place of ``old`` (the caller holds the session's lock); with several
        workers, only if no other worker changed the game meanwhile (409 otherwise)."""
        if self.bus is None:
            await self.storage.run(self.storage.save, session.meta.id, old, new, session.version + 1)
            session.version += 1
            return

        def unless_changed(current: Snapshot, _: Instant) -> Snapshot:
            if current is not old:
                raise ApiError(409, "the game changed meanwhile: try again", "stale_ply")
            return new

        _, _, session.version = await self.storage.run(
            self.storage.change_locked, session.meta.id, session.version, old, unless_changed)

    async def _create_rematch(self, session: GameSession) -> GameSession:
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
        fresh, _ = await self.create(meta.game, requests, clock, "", meta.id, meta.owner, rated=meta.rated,
                                     account=meta.creator)
        return fresh

    # -- what follows a change: the flag timer and the bot's turn --------------------------------
    def _after_change(self, session: GameSession) -> None:
        self._arm_flag(session)
        self._maybe_bot(session)
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

    def _arm_flag(self, session: GameSession) -> None:
        if session.flag_timer:
            session.flag_timer.cancel()
            session.flag_timer = None
        snap = session.snapshot
        if snap.status != "playing" or snap.clock is None:
            return
        delay = snap.clock.seconds_to_flag(Instant.now())
        if delay is None:
            return
        loop = asyncio.get_running_loop()
        session.flag_timer = loop.call_later(max(0.0, delay) + 0.01, self._spawn_flag, session)

    async def _flag(self, session: GameSession) -> None:
        with contextlib.suppress(ApiError):  # a move came first: the timer is re-armed
            await self.change(session, time_out)

    def _maybe_bot(self, session: GameSession) -> None:
        snap = session.snapshot
        seat = snap.seat_to_move()
        if seat is None or snap.seats[seat].kind != "bot":
            return
        if session.bot_task is not None and not session.bot_task.done():
            return
        loop = asyncio.get_running_loop()
        if self.bus is None:
            session.bot_task = loop.create_task(self._bot_turn(session, snap, seat))
        else:
            session.bot_task = loop.create_task(self._claimed_bot_turn(session, snap, seat, session.version))

    async def _claimed_bot_turn(
        self, session: GameSession, snap: Snapshot, seat: Player, version: int
    ) -> None:
        """Several workers: think the bot's move only if this worker wins its lease (the others
        that read the same change do not; another takes it if this worker dies)."""
        try:
            claimed = await self.storage.run(self.storage.claim_bot, session.meta.id, version)
        except ApiError:
            claimed = False
        if not claimed or session.snapshot is not snap:
            session.bot_task = None
            return
        await self._bot_turn(session, snap, seat)

    async def _bot_turn(self, session: GameSession, snap: Snapshot, seat: Player) -> None:
        bot = snap.seats[seat]
        assert bot.level is not None and bot.bot_seed is not None
        try:
            text = await self.bots.choose(snap.state, bot.level, bot.bot_seed, owner=session.meta.owner)

            def bot_move(current: Snapshot, now: Instant) -> Snapshot:
                if current is not snap:  # a takeback, resignation or timeout came first
                    raise ApiError(409, "the position changed while the bot was thinking", "stale_ply")
                return play(current, seat, text, snap.ply, now)

            await self.change(session, bot_move)
        except ApiError:
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("bot %s failed in game %s", bot.level, session.meta.id)
            return
        finally:
            session.bot_task = None
        self._maybe_bot(session)

    def _spawn_flag(self, session: GameSession) -> None:
        task = asyncio.get_running_loop().create_task(self._flag(session))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)


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


def _logged(task: asyncio.Task[None]) -> None:
    """A background task's failure is logged, never lost."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("background task failed", exc_info=error)


def _settled(task: asyncio.Task[Snapshot]) -> None:
    """Mark a change's outcome as seen: its caller may have been cancelled and gone."""
    if not task.cancelled():
        task.exception()


def game_of(name: str, variant: str | None, players: int | None) -> Game:
    """The registered game; raises ``ApiError`` 400 for an unknown game, variant or count."""
    try:
        return load(name, variant=variant, players=players)
    except ValueError as error:
        raise ApiError(400, str(error), "unknown_game") from None
