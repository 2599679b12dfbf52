"""Bots play in a pool of worker processes: they are CPU-bound Python and must not block the
event loop. A worker receives the full state (server side) and the bot's seed; the bot itself
only looks at what its seat may know (``ludotheque.ai``'s contract).

With ``where="ray"`` (a local Ray) or ``"ray://host:port"`` (a cluster) the moves are Ray tasks
(``ludotheque.ai.remote.RayExecutor``) instead of local processes: the same function, the same
arguments, hence the same moves for the same seeds.

The pool's work is shared fairly between owners (whoever created the games): each owner has a
queue of moves to think, and the workers take one move from each owner in turn. A hundred hard
games of one person never make another person's easy bot wait behind all of them.

The pool also runs the analyses of finished games (``analysis_jobs``), in small parts (a few
plies each), on their own share of the pool: ``analysis_workers`` processes (one by default) more
than the bots' ``workers``, which the parts never take. A bot move so never waits behind an
analysis (measured: ``benchmarks/analysis_server.py``); when both are waiting, a freed process
takes the bot move first. The parts are shared between their owners (the people who asked) in
turn like the moves.

>>> check_level("nonsense", __import__("ludotheque").load("pylos"))
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: unknown bot level 'nonsense' for pylos: ...
>>> check_level("difficile", __import__("ludotheque").load("pylos"))
'hard'
>>> check_level("perfect", __import__("ludotheque").load("expion"))
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: perfect play is not available on this server for expion (standard): ...
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import Executor, Future, ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from .. import solved
from ..core.contract import Game, State
from ..core.registry import load
from . import metrics
from .errors import ApiError, quoted


def check_level(level: str, game: Game) -> str:
    """The name games store for ``level`` (the design's English one; French names are accepted);
    raises ``ApiError`` (400) unless it names a bot that can play ``game``."""
    if not bots_available():
        raise ApiError(400, "bots are not available in this installation", "bad_request")
    from .. import ai

    try:
        name = ai.canonical_level(level)
        if name == solved.LEVEL:
            check_perfect(game)
        ai.bot(name, game, seed=0)
    except ValueError as error:
        message = f"unknown bot level {quoted(level)} for {game.id}: {error}"
        raise ApiError(400, message, "bad_request") from None
    return name


def check_perfect(game: Game) -> None:
    """Raise ``ApiError`` (400) unless perfect play is on offer for ``game`` here: its package
    is solved and the tables of its rule set are built on this server (``ludotheque solve``)."""
    if not solved.available(game.id, game.variant):
        raise ApiError(400, f"perfect play is not available on this server for {game.id} "
                            f"({game.variant}): that game is not solved here (no tables built)",
                       "bad_request")


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


def is_ray(where: str | None) -> bool:
    """Whether ``where`` names Ray: ``ray`` (a local one) or ``ray://host:port`` (a cluster).

    >>> is_ray("ray"), is_ray("ray://head:10001"), is_ray(None), is_ray("local")
    (True, True, False, False)
    """
    return where is not None and (where == "ray" or where.startswith("ray://"))


def default_workers() -> int:
    """Leave one core to the server (at least one worker)."""
    return max(1, min(4, (os.cpu_count() or 2) - 1))


@dataclass(frozen=True)
class _Job:
    """One piece of work: ``function(*arguments)`` in a worker, its answer on the server's loop;
    ``level`` names a bot move's level (for the metrics), ``None`` for an analysis's part;
    ``started`` is told when a worker takes it."""

    function: Callable[..., Any]
    arguments: tuple[Any, ...]
    answer: asyncio.Future[Any]
    level: str | None = None
    started: Callable[[], None] | None = None


class BotPool:
    """A process pool started on first use; ``choose`` awaits a bot's move without blocking.

    At most ``workers`` bot moves are thought at once; the others wait in their owner's queue,
    and owners are served in turn (round robin), each getting one move per turn. Analyses'
    parts (``analyse``) run on at most ``analysis_workers`` more processes, likewise in turn
    between their owners: the pool has ``workers + analysis_workers`` processes.
    """

    def __init__(self, workers: int | None = None, where: str | None = None,
                 analysis_workers: int = 1) -> None:
        self.workers = workers or default_workers()
        self.analysis_workers = max(1, analysis_workers)
        self.where = where if is_ray(where) else None
        self._pool: Executor | None = None
        self._queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._analysis_queues: OrderedDict[str, deque[_Job]] = OrderedDict()
        self._busy_moves = 0
        self._busy_analyses = 0

    async def prepare(self) -> None:
        """Start a Ray executor now, off the event loop (a local Ray takes seconds to start),
        rather than at the first bot move; a process pool starts on first use as before."""
        if self.where is not None and self._pool is None:
            self._pool = await asyncio.to_thread(self._ray_executor)

    def _ray_executor(self) -> Executor:
        from ..ai.remote import RayExecutor

        address = None if self.where == "ray" else self.where
        processes = self.workers + self.analysis_workers
        return RayExecutor(address, num_cpus=processes if address is None else None)

    async def choose(self, state: State, level: str, seed: int, *, owner: str = "") -> str:
        """The move of bot ``level`` (seed ``seed``) in ``state``, thought when ``owner``'s turn
        in the queue comes."""
        game = state.game
        arguments = (game.id, game.variant, game.players, state.to_json(), level, seed)
        answer: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(owner, deque()).append(_Job(choose_move, arguments, answer, level))
        self._dispatch()
        return await answer

    async def analyse(self, function: Callable[..., Any], arguments: tuple[Any, ...], *, owner: str = "",
                      started: Callable[[], None] | None = None) -> Any:
        """``function(*arguments)`` (an analysis's part: a module-level function, picklable
        arguments) in a worker, when no bot move waits and ``owner``'s turn among the analyses
        comes; ``started`` is told when a worker takes it."""
        answer: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        job = _Job(function, arguments, answer, None, started)
        self._analysis_queues.setdefault(owner, deque()).append(job)
        self._dispatch()
        return await answer

    def waiting(self) -> int:
        """Moves queued, not yet given to a worker."""
        return sum(len(queue) for queue in self._queues.values())

    def analyses_waiting(self) -> int:
        """Analyses' parts queued, not yet given to a worker."""
        return sum(len(queue) for queue in self._analysis_queues.values())

    def _dispatch(self) -> None:
        while True:
            job = _next_job(self._queues) if self._busy_moves < self.workers else None
            if job is None and self._busy_analyses < self.analysis_workers:
                job = _next_job(self._analysis_queues)
            if job is None:
                return
            try:
                future = self._executor().submit(job.function, *job.arguments)
            except Exception as error:  # a broken pool: this piece fails, its caller logs it
                job.answer.set_exception(error)
                continue
            if job.level is None:
                self._busy_analyses += 1
            else:
                self._busy_moves += 1
            if job.started is not None:
                job.started()
            future.add_done_callback(self._finished_in_thread(job))

    def _finished_in_thread(self, job: _Job) -> Any:
        loop = job.answer.get_loop()
        started = time.perf_counter()

        def done(future: Future[Any]) -> None:
            if job.level is not None:
                metrics.bot_thought(job.level, time.perf_counter() - started)
            with contextlib.suppress(RuntimeError):  # the server's loop has closed meanwhile
                loop.call_soon_threadsafe(self._settle, job, future)

        return done

    def _settle(self, job: _Job, future: Future[Any]) -> None:
        if job.level is None:
            self._busy_analyses -= 1
        else:
            self._busy_moves -= 1
        if not job.answer.done():
            if future.cancelled():
                job.answer.cancel()
            elif (error := future.exception()) is not None:
                job.answer.set_exception(error)
            else:
                job.answer.set_result(future.result())
        self._dispatch()

    def _executor(self) -> Executor:
        if self._pool is None and self.where is not None:
            self._pool = self._ray_executor()
        if self._pool is None:
            # spawn: forking a process that runs an event loop and threads is unsafe.
            self._pool = ProcessPoolExecutor(
                self.workers + self.analysis_workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    def close(self) -> None:
        for queues in (self._queues, self._analysis_queues):
            for queue in queues.values():
                for job in queue:
                    job.answer.cancel()
            queues.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None


def _next_job(queues: OrderedDict[str, deque[_Job]]) -> _Job | None:
    """The first waiting piece of the owner whose turn it is; that owner goes to the back."""
    while queues:
        owner, queue = queues.popitem(last=False)
        job = queue.popleft()
        if queue:
            queues[owner] = queue
        if not job.answer.done():  # its game moved on, or its analysis was dropped: skip it
            return job
    return None
