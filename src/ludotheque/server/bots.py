"""Bots play in a pool of worker processes: they are CPU-bound Python and must not block the
event loop. A worker receives the full state (server side) and the bot's seed; the bot itself
only looks at what its seat may know (``ludotheque.ai``'s contract).

>>> check_level("nonsense", __import__("ludotheque").load("pylos"))
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: unknown bot level 'nonsense' for pylos: ...
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..core.contract import Game, State
from ..core.registry import load
from .errors import ApiError


def check_level(level: str, game: Game) -> None:
    """Raise ``ApiError`` (400) unless ``level`` names a bot that can play ``game``."""
    if not bots_available():
        raise ApiError(400, "bots are not available in this installation")
    from .. import ai

    try:
        ai.bot(level, game, seed=0)
    except ValueError as error:
        raise ApiError(400, f"unknown bot level {level!r} for {game.id}: {error}") from None


def bots_available() -> bool:
    """Whether the bots package is installed (it is written apart from the server)."""
    try:
        from .. import ai
    except ImportError:
        return False
    return hasattr(ai, "bot")


def choose_move(
    game_id: str, variant: str, players: int, state_json: dict[str, Any], level: str, seed: int
) -> str:
    """The bot's move text (runs in a worker process; same arguments -> same move)."""
    from .. import ai

    game = load(game_id, variant=variant, players=players)
    state = game.state_from_json(state_json)
    return str(ai.bot(level, game, seed=seed).choose(state))


def _exit_with_parent(parent: int) -> None:
    """Worker initializer: end this worker when the server process is gone (even killed)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="ludotheque-parent-watch", daemon=True).start()


def default_workers() -> int:
    """Leave one core to the server (at least one worker)."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


class BotPool:
    """A process pool started on first use; ``choose`` awaits a bot's move without blocking."""

    def __init__(self, workers: int | None = None) -> None:
        self.workers = workers or default_workers()
        self._pool: ProcessPoolExecutor | None = None

    async def choose(self, state: State, level: str, seed: int) -> str:
        if self._pool is None:
            # spawn: forking a process that runs an event loop and threads is unsafe.
            self._pool = ProcessPoolExecutor(
                self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_exit_with_parent,
                initargs=(os.getpid(),),
            )
        game = state.game
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool, choose_move, game.id, game.variant, game.players, state.to_json(), level, seed
        )

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
