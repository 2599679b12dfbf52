"""Bots' turns: when a bot is to move, its move is thought in the bot pool and played like any
other change. With several workers a bot's move is a leased job: only the worker that wins the
lease thinks it (another takes it if that worker dies: see ``workers``)."""

from __future__ import annotations

import asyncio
import logging

from ..core.contract import Player
from .bots import BotPool
from .clocks import Instant
from .errors import ApiError
from .games import Change
from .news import News
from .sessions import GameSession
from .snapshots import Snapshot, play
from .storage import Storage

log = logging.getLogger("ludotheque.server")


class BotTurns:
    """Plays the bots' turns with ``bots``; ``change``: how a game is changed (``Games.change``)."""

    def __init__(self, storage: Storage, bots: BotPool, news: News, change: Change) -> None:
        self.storage = storage
        self.bots = bots
        self.news = news
        self.change = change

    def maybe(self, session: GameSession) -> None:
        """Start the bot's turn if a bot is to move and nobody thinks it yet."""
        snap = session.snapshot
        seat = snap.seat_to_move()
        if seat is None or snap.seats[seat].kind != "bot":
            return
        if session.bot_task is not None and not session.bot_task.done():
            return
        loop = asyncio.get_running_loop()
        if not self.news.shared:
            session.bot_task = loop.create_task(self._turn(session, snap, seat))
        else:
            session.bot_task = loop.create_task(self._claimed_turn(session, snap, seat, session.version))

    async def _claimed_turn(self, session: GameSession, snap: Snapshot, seat: Player, version: int) -> None:
        """Several workers: think the bot's move only if this worker wins its lease (the others
        that read the same change do not; another takes it if this worker dies)."""
        try:
            claimed = await self.storage.run(self.storage.claim_bot, session.meta.id, version)
        except ApiError:
            claimed = False
        if not claimed or session.snapshot is not snap:
            session.bot_task = None
            return
        await self._turn(session, snap, seat)

    async def _turn(self, session: GameSession, snap: Snapshot, seat: Player) -> None:
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
        self.maybe(session)
