"""Analyses of finished games computed in the bot pool, once per game and view, and shared.

An analysis (:mod:`ludotheque.analysis`) is asked for by ``GET /api/games/{id}/analysis``; the
first request starts it and every request answers at once with where it stands: ``queued``,
``running`` (plies done of plies to analyse), ``done`` (the analysis, kept in the ``analyses``
table for everyone who asks later) or ``failed``.

It runs in the server's bot pool (``bots.BotPool.analyse``: worker processes, or Ray), cut into
parts of a few plies: each ply's searches are seeded from the ply alone, so the parts put together
are the analysis the command ``ludotheque analyse`` makes of the same record. The parts wait
behind every bot move (bots first), are shared between the people who asked in turn (round
robin), and a person may have at most ``AnalysisSettings.per_person`` analyses queued or running
(``429 rate_limited`` beyond): fifty analyses asked by one person never starve another's bots or
analyses.

With several workers, each job is made by one of them and every worker answers with it: the
``analysis_jobs`` table (``analysis_tables``) holds who asked, how far it is and which worker makes
it, renewed as it goes; the per-person limit counts every worker's jobs. A worker that dies with a
job loses it when its lease runs out (``AnalysisSettings.lease_s``, ``LUDOTHEQUE_ANALYSIS_LEASE_S``):
the next worker asked makes it again. A server alone on its database, restarted meanwhile, makes it
again at once when next asked.

Views (``?as=``): ``spectator`` (the default: the true states, every secret of the finished game
revealed), ``players`` (each move judged by what its mover knew) or a seat number (only that
seat's moves, by what it knew). A finished game's record is public, so any reader may ask any
view; for a game that hides nothing the three views search the same positions.

>>> parse_view(None, 2), parse_view("players", 2), parse_view("1", 2)
('spectator', 'players', 'seat-1')
>>> perspective_of("seat-1"), perspective_of("players"), perspective_of("spectator")
(1, None, 'spectator')
>>> parse_view("5", 2)
Traceback (most recent call last):
...
ludotheque.server.errors.ApiError: unknown analysis view '5': expected spectator, players or a seat 0…1
>>> [len(part) for part in parts_of(list(range(30)), 8)]
[8, 8, 8, 6]
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import time
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any, Literal

from ..analysis import (
    SPECTATOR,
    Analysis,
    Perspective,
    PlyAnalysis,
    analyse_part,
    assemble,
    budget_for,
    plies_to_analyse,
)
from ..core.records import Record
from .analysis_tables import (
    JobLimit,
    JobRow,
    claim_job,
    fail_job,
    forget_job,
    job_is_live,
    load_analysis,
    load_job,
    renew_job,
    save_analysis,
)
from .background import Background
from .bots import BotPool
from .errors import ApiError, quoted
from .storage import Storage

log = logging.getLogger("ludotheque.server")

PLAYERS_VIEW = "players"
JobStatus = Literal["queued", "running", "done", "failed"]
# Environment variables of the analyses (docs/analysis.md): per person, budget factor, engine.
LIMIT_ENV = "LUDOTHEQUE_ANALYSIS_LIMIT"
BUDGET_ENV = "LUDOTHEQUE_ANALYSIS_BUDGET"
ENGINE_ENV = "LUDOTHEQUE_ANALYSIS_ENGINE"
HINTS_ENV = "LUDOTHEQUE_HINTS"
LEASE_ENV = "LUDOTHEQUE_ANALYSIS_LEASE_S"
# Done jobs remembered in memory (their results are in the database).
DONE_KEPT = 1000


@dataclass(frozen=True)
class AnalysisSettings:
    """``per_person``: analyses one person may have queued or running; ``budget``: a factor on
    each game's analysis budget (``analysis.json``); ``engine``: ``kernel``, ``plain`` or
    ``None`` (the kernel where it runs); ``part_plies``: plies per part handed to a worker;
    ``hints``: hints per player per game; ``lease_s``: how long a worker holds a job it makes
    without renewing it (several workers: a dead one's job is made again by another after it)."""

    per_person: int = 3
    budget: float = 1.0
    engine: str | None = None
    part_plies: int = 8
    hints: int = 3
    lease_s: float = 30.0

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> AnalysisSettings:
        """The settings of ``LUDOTHEQUE_ANALYSIS_LIMIT``, ``_BUDGET``, ``_ENGINE``, ``_LEASE_S`` and
        ``LUDOTHEQUE_HINTS`` in ``env`` (``os.environ``; a configuration file's keys
        ``analysis_limit``... stand for them); defaults where unset, ``ValueError`` for a bad one."""
        env = os.environ if env is None else env
        engine = env.get(ENGINE_ENV) or None
        if engine not in (None, "kernel", "plain"):
            raise ValueError(f"{ENGINE_ENV} must be kernel or plain, not {engine!r}")
        try:
            settings = cls(per_person=int(env.get(LIMIT_ENV, "3")), budget=float(env.get(BUDGET_ENV, "1")),
                           engine=engine, hints=int(env.get(HINTS_ENV, "3")),
                           lease_s=float(env.get(LEASE_ENV, "30")))
        except ValueError:
            raise ValueError(f"{LIMIT_ENV} and {HINTS_ENV} must be whole numbers, {BUDGET_ENV} and "
                             f"{LEASE_ENV} numbers") from None
        if settings.per_person < 1 or settings.budget <= 0 or settings.hints < 0 or settings.lease_s < 1:
            raise ValueError(f"{LIMIT_ENV} must be at least 1, {BUDGET_ENV} positive, {HINTS_ENV} at "
                             f"least 0, {LEASE_ENV} at least 1")
        return settings


def parse_view(text: str | None, players: int) -> str:
    """The view ``?as=`` names: ``spectator`` (default), ``players`` or ``seat-<n>``; 400 otherwise."""
    if text is None or text == SPECTATOR:
        return SPECTATOR
    if text == PLAYERS_VIEW:
        return PLAYERS_VIEW
    if text.isdigit() and int(text) < players:
        return f"seat-{int(text)}"
    raise ApiError(400, f"unknown analysis view {quoted(text)}: expected {SPECTATOR}, {PLAYERS_VIEW} or "
                   f"a seat 0…{players - 1}", "bad_request")


def perspective_of(view: str) -> Perspective:
    """The :func:`analysis.analyse` perspective of a view."""
    if view == PLAYERS_VIEW:
        return None
    if view.startswith("seat-"):
        return int(view.removeprefix("seat-"))
    spectator: Perspective = "spectator"
    return spectator


def parts_of(plies: Sequence[int], size: int) -> list[list[int]]:
    """``plies`` cut into parts of ``size`` (the last one shorter)."""
    return [list(plies[start:start + size]) for start in range(0, len(plies), max(1, size))]


@dataclass
class AnalysisJob:
    """One analysis being made: whose request started it, how far it is."""

    game_id: str
    view: str
    person: str
    total: int = 0
    done: int = 0
    status: JobStatus = "queued"
    error: str | None = None
    started: float = field(default_factory=time.monotonic)

    def progress(self) -> dict[str, Any]:
        answer: dict[str, Any] = {"id": self.game_id, "view": self.view, "status": self.status,
                                  "done": self.done, "total": self.total}
        if self.error is not None:
            answer["error"] = self.error
        return answer


class AnalysisJobs:
    """The analyses of this server: stored ones read from the database, this worker's running ones
    in memory, every worker's running ones in the ``analysis_jobs`` table. ``holder``: this
    worker's name in that table; ``alone``: no other worker shares the database."""

    def __init__(self, storage: Storage, bots: BotPool, background: Background,
                 settings: AnalysisSettings | None = None, *, holder: str | None = None,
                 alone: bool = True) -> None:
        self.storage = storage
        self.bots = bots
        self.background = background
        self.settings = settings or AnalysisSettings()
        self.holder = holder or secrets.token_hex(6)
        self.alone = alone
        self._jobs: dict[tuple[str, str], AnalysisJob] = {}

    async def stored(self, game_id: str, view: str) -> dict[str, Any] | None:
        """The kept analysis of ``game_id`` as ``view``, if it is done."""
        return await self.storage.run(load_analysis, self.storage.engine, game_id, view)

    async def ask(self, game_id: str, view: str, record: Record, person: str) -> tuple[AnalysisJob, bool]:
        """The job of ``game_id`` as ``view``: the running one, else a new one for ``person``
        (429 ``rate_limited`` when they have as many running as they may). Also says whether the
        job was new. A failed job is told once, then forgotten (asked again, it starts again)."""
        job = self._jobs.get((game_id, view))
        if job is not None:
            if job.status == "failed":
                del self._jobs[(game_id, view)]
                await self.storage.run(forget_job, self.storage.engine, game_id, view)
            return job, False
        row = await self.storage.run(load_job, self.storage.engine, game_id, view)
        if row is not None and job_is_live(row, self.holder, time.time(), self.alone):
            return await self._elsewhere(game_id, view, row), False
        plies = await asyncio.to_thread(plies_to_analyse, record, perspective_of(view))
        try:
            claimed_row, claimed = await self.storage.run(
                claim_job, self.storage.engine, game_id, view, person=person, total=len(plies),
                holder=self.holder, lease_s=self.settings.lease_s, limit=self.settings.per_person,
                alone=self.alone)
        except JobLimit as limit:
            raise ApiError(429, f"you have {limit.count} analyses queued or running, as many as one "
                           "person may: ask for more once they are done", "rate_limited",
                           {"Retry-After": "10"}) from None
        if claimed_row is None:  # kept by another worker since the caller looked: read it
            return AnalysisJob(game_id, view, person, total=len(plies), done=len(plies), status="done"), False
        if not claimed:
            return await self._elsewhere(game_id, view, claimed_row), False  # made by another worker
        job = AnalysisJob(game_id, view, person, total=len(plies))
        self._jobs[(game_id, view)] = job
        self.background.spawn(self._run(job, record, plies))
        return job, True

    async def _elsewhere(self, game_id: str, view: str, row: JobRow) -> AnalysisJob:
        """Another worker's job as its row says (a failure is told once, then forgotten)."""
        if row.status == "failed":
            await self.storage.run(forget_job, self.storage.engine, game_id, view)
        return AnalysisJob(game_id, view, row.person, total=row.total, done=row.done, status=row.status,
                           error=row.error)

    def drop(self, game_id: str, view: str) -> None:
        """Forget a done job (its result is no longer stored)."""
        job = self._jobs.get((game_id, view))
        if job is not None and job.status == "done":
            del self._jobs[(game_id, view)]

    def jobs(self) -> list[AnalysisJob]:
        """The jobs in memory now (queued, running, failed and not yet told, recently done)."""
        return list(self._jobs.values())

    def _forget_old_jobs(self) -> None:
        """Done jobs stay a while (a reader between the result's storing and its reading gets
        ``done``, never a second analysis); the oldest go beyond ``DONE_KEPT``."""
        done = [key for key, job in self._jobs.items() if job.status == "done"]
        for key in done[: max(0, len(done) - DONE_KEPT)]:
            del self._jobs[key]

    async def _run(self, job: AnalysisJob, record: Record, plies: list[int]) -> None:
        perspective = perspective_of(job.view)
        budget = budget_for(record.game).scaled(self.settings.budget)
        record_json = record.to_json()

        def running() -> None:
            job.status = "running"

        async def part(plies_of_part: list[int]) -> dict[str, Any]:
            arguments = (record_json, plies_of_part, perspective, asdict(budget), 0, self.settings.engine)
            answer: dict[str, Any] = await self.bots.analyse(analyse_part, arguments, owner=job.person,
                                                             started=running)
            job.done += sum(1 for entry in answer["plies"] if entry["analysed"])
            await self._renew(job)
            return answer

        tasks = [asyncio.ensure_future(part(p)) for p in parts_of(plies, self.settings.part_plies)]
        keeping = asyncio.ensure_future(self._keep(job))
        try:
            answers = await asyncio.gather(*tasks)
            entries = [PlyAnalysis.from_json(entry) for answer in answers for entry in answer["plies"]]
            engine = answers[0]["engine"] if answers else ""
            analysis: Analysis = await asyncio.to_thread(
                assemble, record, entries, engine=engine, budget=budget, perspective=perspective)
            seconds = time.monotonic() - job.started
            await self.storage.run(save_analysis, self.storage.engine, job.game_id, job.view,
                                   analysis.to_json(), seconds)
            job.status = "done"
            self._forget_old_jobs()
        except asyncio.CancelledError:
            self._jobs.pop((job.game_id, job.view), None)
            raise
        except Exception as error:  # the analysis's own failure: told to the next reader, logged
            for task in tasks:
                task.cancel()
            log.exception("analysis of game %s (%s) failed", job.game_id, job.view)
            job.status, job.error = "failed", f"the analysis failed: {type(error).__name__}"
            await self.storage.run(fail_job, self.storage.engine, job.game_id, job.view, self.holder,
                                   job.error)
        finally:
            keeping.cancel()
            for task in tasks:
                task.cancel()

    async def _keep(self, job: AnalysisJob) -> None:
        """Hold ``job`` while a part runs longer than the lease: renewed every third of it."""
        while True:
            await asyncio.sleep(self.settings.lease_s / 3)
            await self._renew(job)

    async def _renew(self, job: AnalysisJob) -> None:
        """Tell the other workers how far ``job`` is, and hold it longer."""
        status: Literal["queued", "running"] = "running" if job.status == "running" else "queued"
        held = await self.storage.run(renew_job, self.storage.engine, job.game_id, job.view, self.holder,
                                      status=status, done=job.done, lease_s=self.settings.lease_s)
        if not held:  # its lease ran out unrenewed (a loop stalled that long): another worker makes it too
            log.warning("analysis of game %s (%s): another worker took it over", job.game_id, job.view)
