"""Several workers: what this one does with the others' news (read a game again, push a chat
line or a person's message to its own sockets), and its watch over the clocks and bots of games
that no living worker may hold."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from .background import Background, every
from .bot_turns import BotTurns
from .errors import ApiError
from .game_chat import GameChat
from .games import Games
from .notices import Notices
from .snapshots import time_out

# How often each worker looks for overdue clocks and bot moves nobody thinks, and how long a
# bot's turn waits for the worker that made it before another takes it.
WATCH_EVERY_S = 0.5
BOT_GRACE_S = 2.0


class Workers:
    """This worker's side of the others' news, and the watch."""

    def __init__(self, games: Games, notices: Notices, chat: GameChat, bot_turns: BotTurns,
                 background: Background) -> None:
        self.games = games
        self.chat = chat
        self.notices = notices
        self.bot_turns = bot_turns
        self.background = background

    async def on_message(self, message: dict[str, Any]) -> None:
        """Another worker's news; never waits long (the subscription reads the next one)."""
        kind, game_id = message.get("kind"), message.get("game")
        if isinstance(kind, str) and (handler := self.games.news.handlers.get(kind)) is not None:
            await handler(message)
            return
        if kind == "person" and isinstance(account := message.get("account"), str):
            self.notices.people_sockets.tell(account, message.get("message") or {})
            return
        session = self.games.held(game_id) if isinstance(game_id, str) else None
        if session is None:
            return
        spawn = self.background.spawn
        if kind == "game":
            version = int(message.get("v") or 0)
            values = message.get("values")
            values = values if isinstance(values, dict) else None
            if len(session.room) == 0:  # no socket here: installed when next used
                self.games.keep_news(session, version, values)
            else:
                spawn(self.games.catch_up(session, version, values))
        elif kind in ("reload", "people"):
            spawn(self.games.catch_up(session, None))
        elif kind == "chat":
            line = message.get("line")
            if isinstance(line, dict):
                spawn(self.chat.deliver(session, str(message.get("room")), line, announce=False))
        elif kind == "mutes":
            session.mutes = None

    async def on_resubscribed(self) -> None:
        """Messages may have been lost while Redis was away: read again every game held here
        whose stored version moved, and tell this worker's people their counts again."""
        held = {session.meta.id: session.version for session in self.games.sessions()}
        if held:
            storage = self.games.storage
            stored = await storage.run(storage.versions, list(held))
            for game_id, version in stored.items():
                if version != held[game_id] and (session := self.games.held(game_id)):
                    self.background.spawn(self.games.catch_up(session, None))
        for account in self.notices.people_sockets.accounts():
            self.background.spawn(self.notices.tell_turns({account}))

    async def watch_forever(self) -> None:
        """End the games whose flag fell (their worker may be gone) and think the bot moves no
        worker holds, every ``WATCH_EVERY_S``."""
        await every(WATCH_EVERY_S, self._watch, "watching clocks and bots failed")

    async def _watch(self) -> None:
        games, storage = self.games, self.games.storage
        for game_id in await storage.run(storage.overdue, time.time()):
            with contextlib.suppress(ApiError):  # another worker flagged it first
                await games.change(await games.get(game_id), time_out)
        waiting = await storage.run(storage.bots_waiting, time.time() - BOT_GRACE_S)
        for game_id in waiting:
            with contextlib.suppress(ApiError):  # deleted meanwhile
                self.bot_turns.maybe(await games.get(game_id))  # read again if behind
