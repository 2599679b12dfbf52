"""Old games: at start, and every ``SWEEP_EVERY_S`` while the server runs, the games that waited
too long for a person are deleted, old seeks dropped, old guests' games archived, and games
nobody moved in for too long ended (settings: ``waiting_days``, ``guest_archive_days``,
``abandoned_days``). At start, the games that need the server to act are loaded."""

from __future__ import annotations

import contextlib
import logging
import time

from .background import every
from .config import ServerSettings
from .errors import ApiError
from .games import Games
from .seeks import SEEK_DAYS, SeekStore
from .snapshots import abandon

log = logging.getLogger("ludotheque.server")
# How often old games are expired while the server runs (and once at every start).
SWEEP_EVERY_S = 3600.0
DAY_S = 86_400.0


class Expiry:
    """Ends, archives and deletes the old games of ``games``, and old seeks."""

    def __init__(self, games: Games, seeks: SeekStore, settings: ServerSettings) -> None:
        self.games = games
        self.storage = games.storage
        self.seeks = seeks
        self.settings = settings

    async def resume(self) -> None:
        """Delete the games that waited too long for a person, then load the games that need
        the server to act: a running clock (its flag) or a bot to move, unless abandoned. Every
        other game loads when first asked for; abandoned ones are ended by :meth:`sweep_forever`
        in the background, so that a start never waits for old games."""
        try:
            await self._delete_waiting()
        except ApiError:  # a read-only or full database still serves its games
            log.warning("old games could not be expired: the database refuses writes")
        if self.games.news.shared:  # flags and bots: every worker's watch finds them
            return
        recent = time.time() - self.settings.abandoned_days * DAY_S
        for game_id in await self.storage.run(self.storage.ids_to_resume, recent):
            session = await self.games.get(game_id)
            self.games.after_change(session)

    async def expire(self) -> None:
        """Delete casual games that waited too long for a person to join (rated ones are
        archived); drop old seeks; archive the games of guests untouched for a long time; end
        (``abandoned``) games without a clock that nobody moved in for too long."""
        await self._delete_waiting()
        await self.storage.run(self.seeks.expire, time.time() - SEEK_DAYS * DAY_S)
        archive_before = time.time() - self.settings.guest_archive_days * DAY_S
        await self.storage.run(self.storage.archive_guest_games, archive_before)
        abandoned_before = time.time() - self.settings.abandoned_days * DAY_S
        for game_id in await self.storage.run(self.storage.abandoned_ids, abandoned_before):
            with contextlib.suppress(ApiError):  # a move came in meanwhile
                await self.games.change(await self.games.get(game_id), abandon)

    async def _delete_waiting(self) -> None:
        waiting_before = time.time() - self.settings.waiting_days * DAY_S
        for game_id in await self.storage.run(self.storage.delete_waiting, waiting_before):
            self.games.forget(game_id)

    async def sweep_forever(self) -> None:
        """Run :meth:`expire` now, then every ``SWEEP_EVERY_S`` while the server runs."""
        await every(SWEEP_EVERY_S, self.expire, "expiring old games failed")
