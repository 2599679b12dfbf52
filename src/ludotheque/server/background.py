"""The server's background tasks: each one kept until it ends (asyncio holds tasks weakly), its
failure logged, every one cancelled when the server stops."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, TypeVar

log = logging.getLogger("ludotheque.server")
T = TypeVar("T")


class Background:
    """The tasks that the parts of the hub start and do not wait for."""

    def __init__(self) -> None:
        self._tasks: set[asyncio.Task[Any]] = set()

    def spawn(self, coroutine: Coroutine[Any, Any, None]) -> None:
        """Run ``coroutine`` in the background; its failure is logged, never lost."""
        task = self.start(coroutine)
        task.add_done_callback(_logged)

    def start(self, coroutine: Coroutine[Any, Any, T]) -> asyncio.Task[T]:
        """Run ``coroutine`` in the background, kept until it ends; the caller sees its outcome."""
        task = asyncio.get_running_loop().create_task(coroutine)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return task

    async def finish(self, coroutine: Coroutine[Any, Any, T]) -> T:
        """Await ``coroutine``, which runs to its end even when the caller is cancelled."""
        task = self.start(coroutine)
        task.add_done_callback(_settled)
        return await asyncio.shield(task)

    def cancel(self) -> None:
        for task in list(self._tasks):
            task.cancel()


async def every(seconds: float, step: Callable[[], Awaitable[None]], failed: str) -> None:
    """Run ``step`` now, then every ``seconds`` forever; a failure (the database may be away for
    a while) is logged as ``failed`` and tried again next time."""
    while True:
        try:
            await step()
        except Exception:
            log.warning(failed, exc_info=True)
        await asyncio.sleep(seconds)


def _logged(task: asyncio.Task[None]) -> None:
    """A background task's failure is logged, never lost."""
    if not task.cancelled() and (error := task.exception()) is not None:
        log.error("background task failed", exc_info=error)


def _settled(task: asyncio.Task[Any]) -> None:
    """Mark a change's outcome as seen: its caller may have been cancelled and gone."""
    if not task.cancelled():
        task.exception()
