"""The hub: the parts of a server that share its games, put together once at start.

Each part has one job (docs/style.md §12): ``games`` (the sessions in memory, their locks, the
one way to change a game), ``rematches``, ``flags`` (clock timers), ``bot_turns``, ``notices``
(telling people: turn counts, correspondence turns by socket and e-mail, seats' people),
``game_chat``, ``matchmaking`` (seeks), ``game_lists`` (what pages list), ``news`` (the bus to
the other workers), ``workers`` (the others' news, the watch over clocks and bots nobody holds)
and ``expiry`` (old games). Routes call the part they need; the hub wires each part's callbacks
to the others, so that no part imports one that imports it.

Several workers: see ``games`` and ``workers`` (docs/distributed.md).
"""

from __future__ import annotations

from typing import Any

from ..core.contract import Game
from .accounts import AccountStore
from .background import Background
from .bot_turns import BotTurns
from .bots import BotPool
from .bus import Bus
from .chat import ChatStore
from .clocks import ClockSpec
from .config import ServerSettings
from .expiry import Expiry
from .flags import Flags
from .game_chat import GameChat
from .game_lists import GameLists
from .games import Games, Operation, rated_takeback
from .listings import Listings
from .matchmaking import Matchmaking
from .new_games import Created, SeatRequest, game_of
from .news import News
from .notices import Notices
from .notify import Mailer, PeopleSockets, smtp_settings
from .ratings import RatingStore
from .rematches import Rematches
from .seat_people import SeatPeople
from .seeks import SeekStore
from .sessions import GameSession
from .snapshots import Snapshot
from .storage import Storage
from .throttle import KeyedThrottle
from .workers import Workers

__all__ = ["Created", "Hub", "Operation", "SeatRequest", "game_of", "rated_takeback"]


class Hub:
    """The storage, the stores on it, the bot pool and the parts that share the games."""

    def __init__(self, storage: Storage, bots: BotPool, settings: ServerSettings | None = None) -> None:
        self.storage = storage
        self.settings = settings or ServerSettings()
        self.accounts = AccountStore(storage.engine)
        self.listings = Listings(storage.engine)
        self.ratings = RatingStore(storage.engine)
        self.seeks = SeekStore(storage.engine)
        self.chat = ChatStore(storage.engine)
        self.people_sockets = PeopleSockets()
        self.bots = bots
        self.mailer = Mailer(smtp_settings(self.settings.smtp)) if self.settings.smtp else None
        self.chat_throttle = KeyedThrottle(self.settings.chat_limit, "chat lines")
        self.game_lists = GameLists(storage, self.listings, self.accounts, self.ratings)
        self.background = Background()
        self.news = News()
        # Other parts' own kinds of news from the other workers (kind -> handler).
        self.news_handlers = self.news.handlers
        seat_people = SeatPeople(storage, self.accounts, self.ratings)
        self.games = Games(storage, self.news, self.background, seat_people,
                           after_change=self._after_change, changed=self._changed)
        # Called with a game's id when a change ends it (tournaments: docs/tournaments.md).
        self.game_over_handlers = self.games.game_over_handlers
        self.notices = Notices(
            storage, self.settings, self.news, self.background, accounts=self.accounts,
            listings=self.listings, ratings=self.ratings, seat_people=seat_people,
            people_sockets=self.people_sockets, mailer=self.mailer)
        self.game_chat = GameChat(storage, self.chat, self.news, self.chat_throttle)
        self.rematches = Rematches(self.games)
        self.matchmaking = Matchmaking(storage, self.seeks, self.accounts, self.ratings, self.games,
                                       self.notices)
        self.flags = Flags(self.games.change, self.background)
        self.bot_turns = BotTurns(storage, bots, self.news, self.games.change)
        self.workers = Workers(self.games, self.notices, self.game_chat, self.bot_turns, self.background)
        self.expiry = Expiry(self.games, self.seeks, self.settings)

    def _after_change(self, session: GameSession) -> None:
        """What follows a change installed here: the flag timer and the bot's turn."""
        self.flags.arm(session)
        self.bot_turns.maybe(session)

    def _changed(self, session: GameSession, old: Snapshot, new: Snapshot) -> None:
        self.notices.changed(session, old, new)

    @property
    def bus(self) -> Bus | None:
        """Several workers: the Redis bus (None: this process is the only one)."""
        return self.news.bus

    @bus.setter
    def bus(self, bus: Bus | None) -> None:
        self.news.bus = bus

    # -- what other modules reach through the hub ----------------------------------------------
    async def get(self, game_id: str) -> GameSession:
        """The session of ``game_id`` (``Games.get``)."""
        return await self.games.get(game_id)

    async def change(self, session: GameSession, operation: Operation) -> Snapshot:
        """Apply ``operation`` to the game (``Games.change``)."""
        return await self.games.change(session, operation)

    async def create(
        self, game: Game, requests: list[SeatRequest], clock: ClockSpec | None, name: str,
        rematch_of: str | None = None, owner: str = "", *, account: str | None = None, rated: bool = False,
    ) -> tuple[GameSession, Created]:
        """A new game (``Games.create``)."""
        return await self.games.create(game, requests, clock, name, rematch_of, owner,
                                       account=account, rated=rated)

    def loaded(self) -> set[str]:
        """The ids of the games in memory now."""
        return self.games.loaded()

    def tell_matched(self, session: GameSession, accounts: list[str]) -> None:
        """The seekers of a new game (``Notices.tell_matched``)."""
        self.notices.tell_matched(session, accounts)

    async def announce(self, message: dict[str, Any]) -> None:
        """Tell the other workers (nothing without them)."""
        await self.news.announce(message)

    # -- life cycle -----------------------------------------------------------------------------
    async def share(self, redis_url: str) -> None:
        """Work beside other workers on the same PostgreSQL database: announce every change on
        Redis and take in theirs."""
        await self.news.share(redis_url, self.workers.on_message, self.workers.on_resubscribed)

    async def resume(self) -> None:
        await self.expiry.resume()

    async def sweep_forever(self) -> None:
        await self.expiry.sweep_forever()

    async def watch_forever(self) -> None:
        await self.workers.watch_forever()

    async def close(self) -> None:
        self.games.close()
        self.background.cancel()
        self.bots.close()
        await self.news.close()
