"""Flag timers: a game whose clock runs ends on time when its seat to move runs out, by a timer
armed again after every change (with several workers, each worker's watch also ends the games
whose stored deadline passed: see ``workers``)."""

from __future__ import annotations

import asyncio
import contextlib

from .background import Background
from .clocks import Instant
from .errors import ApiError
from .games import Change
from .sessions import GameSession
from .snapshots import time_out


class Flags:
    """Arms each game's flag timer; ``change``: how a game is changed (``Games.change``)."""

    def __init__(self, change: Change, background: Background) -> None:
        self.change = change
        self.background = background

    def arm(self, session: GameSession) -> None:
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
        session.flag_timer = loop.call_later(max(0.0, delay) + 0.01, self._fall, session)

    def _fall(self, session: GameSession) -> None:
        self.background.start(self._flag(session))

    async def _flag(self, session: GameSession) -> None:
        with contextlib.suppress(ApiError):  # a move came first: the timer is re-armed
            await self.change(session, time_out)
