"""The tables of analyses of finished games and of hints (SQLAlchemy Core, on ``tables.metadata``);
migration 0010 creates them, and the functions here read and write them (blocking calls: run them
on the storage's threads).

- ``analyses``: one row per game and view (``spectator``, ``players``, ``seat-<n>``), written once
  when its analysis is done and shared by everyone who asks (the analysis as JSON, how long it
  took). A game deleted takes its analyses with it.
- ``analysis_jobs``: the analyses being made, one row per game and view while it runs (or failed
  and not yet told), so that every worker answers with the same job: who asked (the per-person
  limit counts every worker's), how far it is, which worker makes it (``holder``) and until when
  it holds it (``lease``, renewed as it goes). A holder that stops renewing (its worker died) loses
  the job to the next worker asked. The row goes when the analysis is kept.
- ``hints``: per game and seat, the hints used, and the last one given (its ply and move: asking
  again in the same position costs nothing).

>>> from sqlalchemy import create_engine
>>> from ludotheque.server import tables
>>> engine = create_engine("sqlite://")
>>> metadata.create_all(engine, tables=[tables.games, analyses, hints])
>>> load_analysis(engine, "g1", "spectator") is None
True
>>> metadata.create_all(engine, tables=[analysis_jobs])
>>> claim_job(engine, "g1", "spectator", person="p", total=9, holder="w1", lease_s=30, limit=1)[1]
True
>>> row, claimed = claim_job(engine, "g1", "spectator", person="q", total=9, holder="w2", lease_s=30, limit=1)
>>> claimed, row.holder, row.person
(False, 'w1', 'p')
>>> take_hint(engine, "g1", 0, 4, limit=1), take_hint(engine, "g1", 0, 6, limit=1)
(HintUse(used=1, move=None, allowed=True), HintUse(used=1, move=None, allowed=False))
>>> keep_hint(engine, "g1", 0, 4, "1a1"); take_hint(engine, "g1", 0, 4, limit=1)
HintUse(used=1, move='1a1', allowed=True)
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any, Literal

from sqlalchemy import (
    Column,
    Connection,
    Engine,
    Float,
    ForeignKey,
    Integer,
    String,
    Table,
    Text,
    and_,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .tables import metadata

__all__ = ["HintUse", "JobLimit", "JobRow", "analyses", "analysis_jobs", "claim_job", "fail_job",
           "forget_job", "give_hint_back", "hints", "hints_used", "job_is_live", "keep_hint", "load_analysis",
           "load_job", "metadata", "renew_job", "save_analysis", "take_hint"]

analyses = Table(
    "analyses",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    # Whose knowledge: "spectator" (every secret revealed), "players" (each move by what its mover
    # knew) or "seat-<n>" (only that seat's moves).
    Column("view", String(16), primary_key=True),
    Column("analysis", Text, nullable=False),  # analysis.Analysis.to_json(), as JSON text
    Column("seconds", Float, nullable=False),  # from the first part's start to the last's end
    Column("created", Float, nullable=False),
)

analysis_jobs = Table(
    "analysis_jobs",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("view", String(16), primary_key=True),
    Column("person", String(80), nullable=False),  # who asked first: the per-person limit counts it
    Column("status", String(16), nullable=False),  # queued, running, failed
    Column("done", Integer, nullable=False),
    Column("total", Integer, nullable=False),
    Column("error", Text),
    Column("holder", String(32), nullable=False),  # the worker that makes it
    Column("lease", Float, nullable=False),  # until when it holds it (epoch seconds), renewed as it goes
)

hints = Table(
    "hints",
    metadata,
    Column("game_id", String(32), ForeignKey("games.id", ondelete="CASCADE"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("used", Integer, nullable=False),
    # The last hint: its position's ply and its move (null while it is being thought).
    Column("ply", Integer),
    Column("move", String(1000)),
    Column("updated", Float, nullable=False),
)


def load_analysis(engine: Engine, game_id: str, view: str) -> dict[str, Any] | None:
    """The stored analysis of ``game_id`` seen as ``view`` (with its ``seconds``), else ``None``."""
    query = select(analyses.c.analysis, analyses.c.seconds).where(
        and_(analyses.c.game_id == game_id, analyses.c.view == view))
    with engine.connect() as connection:
        row = connection.execute(query).first()
    if row is None:
        return None
    data: dict[str, Any] = json.loads(row.analysis)
    data["seconds"] = round(float(row.seconds), 3)
    return data


def save_analysis(engine: Engine, game_id: str, view: str, data: dict[str, Any], seconds: float) -> None:
    """Keep a finished analysis, and its job is over; one already kept (another worker's) stays as
    it is."""
    values = {"game_id": game_id, "view": view, "analysis": json.dumps(data), "seconds": seconds,
              "created": time.time()}
    try:
        with engine.begin() as connection:
            connection.execute(insert(analyses), values)
            connection.execute(delete(analysis_jobs).where(_job(game_id, view)))
    except IntegrityError:
        forget_job(engine, game_id, view)


# -- the analyses being made -------------------------------------------------------------------------
JobStatus = Literal["queued", "running", "failed"]


@dataclass(frozen=True)
class JobRow:
    """An analysis being made (or failed), as every worker reads it."""

    person: str
    status: JobStatus
    done: int
    total: int
    error: str | None
    holder: str
    lease: float


class JobLimit(Exception):
    """``person`` has ``count`` analyses queued or running, as many as they may."""

    def __init__(self, count: int) -> None:
        super().__init__(count)
        self.count = count


def _job(game_id: str, view: str) -> Any:
    return and_(analysis_jobs.c.game_id == game_id, analysis_jobs.c.view == view)


def _row(found: Any) -> JobRow:
    return JobRow(str(found.person), found.status, int(found.done), int(found.total), found.error,
                  str(found.holder), float(found.lease))


def job_is_live(row: JobRow, holder: str, now: float, alone: bool) -> bool:
    """Whether ``row`` is a job its holder still makes (or a failure still to tell): its lease runs,
    and, for a server alone on its database, it is this very process's (another's is a past run's)."""
    if row.status == "failed":
        return True
    return row.lease > now and not (alone and row.holder != holder)


def load_job(engine: Engine, game_id: str, view: str) -> JobRow | None:
    """The job of ``game_id`` as ``view``, if a row holds one."""
    with engine.connect() as connection:
        return _read_job(connection, game_id, view)


def _read_job(connection: Connection, game_id: str, view: str) -> JobRow | None:
    found = connection.execute(select(analysis_jobs).where(_job(game_id, view))).first()
    return None if found is None else _row(found)


def claim_job(engine: Engine, game_id: str, view: str, *, person: str, total: int, holder: str,
              lease_s: float, limit: int, alone: bool = False, now: float | None = None
              ) -> tuple[JobRow | None, bool]:
    """Take the job of ``game_id`` as ``view`` for ``holder``, unless a live one exists (see
    :func:`load_job`): the row, and whether ``holder`` now makes it; ``(None, False)`` when the
    analysis is kept already (another worker kept it since the caller looked). A job whose holder
    stopped renewing it is taken over. Raises :class:`JobLimit` when ``person`` has ``limit`` live
    jobs (two asked at the same instant on two workers may pass it by one)."""
    now = time.time() if now is None else now
    for _ in range(3):  # lost a race (an insert or a takeover at the same time): read again
        try:
            with engine.begin() as connection:
                answer = _claim(connection, game_id, view, person, total, holder, lease_s, limit, alone, now)
        except IntegrityError:  # another worker inserted it first (the transaction is undone)
            continue
        if answer is not None:
            return answer
    raise RuntimeError("analysis jobs: the row could be neither read nor taken")


def _claim(connection: Connection, game_id: str, view: str, person: str, total: int, holder: str,
           lease_s: float, limit: int, alone: bool, now: float) -> tuple[JobRow | None, bool] | None:
    found = _read_job(connection, game_id, view)
    if found is not None and job_is_live(found, holder, now, alone):
        return found, False
    # Read after the job: a worker keeps the analysis and deletes its job in one transaction, so a
    # job found gone means its analysis is seen kept here (never made a second time).
    if _is_kept(connection, game_id, view):
        return None, False
    mine = _live_jobs_of(connection, person, holder, now, alone)
    if mine >= limit:
        raise JobLimit(mine)
    values: dict[str, Any] = {"person": person, "status": "queued", "done": 0, "total": total, "error": None,
                              "holder": holder, "lease": now + lease_s}
    if found is None:
        connection.execute(insert(analysis_jobs), {"game_id": game_id, "view": view, **values})
    else:  # its holder stopped renewing it: taken over, unless another worker just did
        taken = connection.execute(update(analysis_jobs).where(
            and_(_job(game_id, view), analysis_jobs.c.holder == found.holder,
                 analysis_jobs.c.lease == found.lease)).values(values))
        if taken.rowcount != 1:
            return None
    return JobRow(**values), True


def _is_kept(connection: Connection, game_id: str, view: str) -> bool:
    kept = select(analyses.c.game_id).where(and_(analyses.c.game_id == game_id, analyses.c.view == view))
    return connection.execute(kept).first() is not None


def _live_jobs_of(connection: Connection, person: str, holder: str, now: float, alone: bool) -> int:
    mine = and_(analysis_jobs.c.person == person, analysis_jobs.c.status != "failed",
                analysis_jobs.c.lease > now)
    if alone:
        mine = and_(mine, analysis_jobs.c.holder == holder)
    return int(connection.execute(select(func.count()).select_from(analysis_jobs).where(mine)).scalar() or 0)


def renew_job(engine: Engine, game_id: str, view: str, holder: str, *, status: JobStatus, done: int,
              lease_s: float) -> bool:
    """Write how far ``holder``'s job is and hold it ``lease_s`` more; ``False`` when it is no
    longer ``holder``'s (taken over after its lease ran out, or over)."""
    with engine.begin() as connection:
        renewed = connection.execute(update(analysis_jobs).where(
            and_(_job(game_id, view), analysis_jobs.c.holder == holder))
            .values(status=status, done=done, lease=time.time() + lease_s))
    return bool(renewed.rowcount)


def fail_job(engine: Engine, game_id: str, view: str, holder: str, error: str) -> None:
    """``holder``'s job failed: every worker tells it once (:func:`forget_job`)."""
    with engine.begin() as connection:
        connection.execute(update(analysis_jobs).where(
            and_(_job(game_id, view), analysis_jobs.c.holder == holder)).values(status="failed", error=error))


def forget_job(engine: Engine, game_id: str, view: str) -> None:
    """No job any more for ``game_id`` as ``view`` (its failure was told; or it was kept)."""
    with engine.begin() as connection:
        connection.execute(delete(analysis_jobs).where(_job(game_id, view)))


@dataclass(frozen=True)
class HintUse:
    """A seat's hints after asking one: how many are used, the move already given for this
    position (``None``: to think), and whether one is allowed (``False``: none left)."""

    used: int
    move: str | None
    allowed: bool


def hints_used(engine: Engine, game_id: str, seat: int) -> int:
    """How many hints ``seat`` used in ``game_id``."""
    query = select(hints.c.used).where(and_(hints.c.game_id == game_id, hints.c.seat == seat))
    with engine.connect() as connection:
        used = connection.execute(query).scalar()
    return int(used or 0)


def take_hint(engine: Engine, game_id: str, seat: int, ply: int, *, limit: int) -> HintUse:
    """Count a hint for ``seat`` at ``ply``, unless that position's hint was given already (it is
    given again, uncounted) or ``limit`` hints are used (refused). The count is a conditional
    update: two requests at once never pass the limit."""
    for _ in range(2):  # a first hint of two requests at once: the second insert fails, then updates
        try:
            with engine.begin() as connection:
                return _take_hint(connection, game_id, seat, ply, limit)
        except IntegrityError:
            continue
    raise RuntimeError("hints: the row could be neither inserted nor updated")


def _take_hint(connection: Connection, game_id: str, seat: int, ply: int, limit: int) -> HintUse:
    where = and_(hints.c.game_id == game_id, hints.c.seat == seat)
    row = connection.execute(select(hints.c.used, hints.c.ply, hints.c.move).where(where)).first()
    now = time.time()
    if row is None:
        if limit < 1:
            return HintUse(0, None, False)
        connection.execute(insert(hints), {"game_id": game_id, "seat": seat, "used": 1, "ply": ply,
                                           "move": None, "updated": now})
        return HintUse(1, None, True)
    if row.ply == ply and row.move is not None:
        return HintUse(int(row.used), str(row.move), True)
    counted = connection.execute(
        update(hints).where(and_(where, hints.c.used < limit))
        .values(used=hints.c.used + 1, ply=ply, move=None, updated=now))
    if counted.rowcount == 0:
        return HintUse(int(row.used), None, False)
    return HintUse(int(row.used) + 1, None, True)


def keep_hint(engine: Engine, game_id: str, seat: int, ply: int, move: str) -> None:
    """Remember the hint given at ``ply`` (asked again there, it is given again for free)."""
    with engine.begin() as connection:
        connection.execute(update(hints).where(and_(hints.c.game_id == game_id, hints.c.seat == seat))
                           .values(ply=ply, move=move, updated=time.time()))


def give_hint_back(engine: Engine, game_id: str, seat: int) -> None:
    """A counted hint that could not be given (the position changed meanwhile): uncount it."""
    with engine.begin() as connection:
        connection.execute(update(hints).where(and_(hints.c.game_id == game_id, hints.c.seat == seat,
                                                    hints.c.used > 0))
                           .values(used=hints.c.used - 1, ply=None, move=None, updated=time.time()))
