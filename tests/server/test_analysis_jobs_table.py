"""The analyses being made as every worker sees them (``analysis_tables``: the ``analysis_jobs`` rows),
on SQLite and PostgreSQL: one job per game and view whoever asks, the per-person limit over every
worker's jobs, a job taken over once its holder stops renewing it (or at once by a server alone on
its database, restarted), a failure told once, the row gone once the analysis is kept, and no job
taken for an analysis kept since the worker looked for it."""

from __future__ import annotations

import ludotheque
from ludotheque.core.contract import Result
from ludotheque.core.records import Record
from ludotheque.server.analysis_jobs import AnalysisJobs
from ludotheque.server.analysis_tables import (
    JobLimit,
    claim_job,
    fail_job,
    forget_job,
    load_job,
    renew_job,
    save_analysis,
)
from ludotheque.server.background import Background
from ludotheque.server.bots import BotPool
from ludotheque.server.snapshots import GameMeta, Seat, new_snapshot
from ludotheque.server.storage import Storage
from tests.support import run_async

NOW = 1_000_000.0
LEASE_S = 30.0


def storage_with_games(db_url: str, *ids: str) -> Storage:
    storage = Storage(db_url)
    storage.migrate()
    game = ludotheque.load("pylos")
    for game_id in ids:
        meta = GameMeta(game_id, game, 1, "2026-11-27T00:00:00+00:00")
        storage.insert(meta, new_snapshot(game, 1, (Seat("open", ""), Seat("open", "")), None))
    return storage


def claim(storage: Storage, game_id: str, holder: str, *, person: str = "address:1", now: float = NOW,
          limit: int = 3, alone: bool = False) -> tuple[str | None, bool]:
    """Who makes the job of ``game_id`` once ``holder`` asked (``None``: nobody, it is kept), and
    whether ``holder`` does."""
    row, claimed = claim_job(storage.engine, game_id, "spectator", person=person, total=12, holder=holder,
                             lease_s=LEASE_S, limit=limit, alone=alone, now=now)
    return None if row is None else row.holder, claimed


def renew(storage: Storage, game_id: str, holder: str, done: int) -> bool:
    return renew_job(storage.engine, game_id, "spectator", holder, status="running", done=done,
                     lease_s=LEASE_S)


def test_a_job_is_made_by_the_first_worker_asked_and_read_by_the_others(db_url: str) -> None:
    storage = storage_with_games(db_url, "g1")
    try:
        assert claim(storage, "g1", "a") == ("a", True)
        assert claim(storage, "g1", "b", person="address:2") == ("a", False)
        assert renew(storage, "g1", "a", 5)
        row = load_job(storage.engine, "g1", "spectator")
        assert row is not None
        assert (row.person, row.status, row.done, row.total) == ("address:1", "running", 5, 12)
        assert not renew(storage, "g1", "b", 9)  # only its holder renews it
    finally:
        storage.close()


def test_the_limit_counts_every_workers_jobs_of_the_person(db_url: str) -> None:
    storage = storage_with_games(db_url, "g1", "g2", "g3")
    try:
        assert claim(storage, "g1", "a", limit=2)[1] and claim(storage, "g2", "b", limit=2)[1]
        try:
            claim(storage, "g3", "a", limit=2)
        except JobLimit as limit:
            assert limit.count == 2
        else:
            raise AssertionError("a third analysis passed a limit of two")
        assert claim(storage, "g3", "a", person="address:2", limit=2)[1]  # another person may
        # Jobs whose leases ran out count no more (and the one of g3 is taken over).
        assert claim(storage, "g3", "a", limit=2, now=NOW + LEASE_S + 1) == ("a", True)
    finally:
        storage.close()


def test_a_job_whose_holder_stopped_renewing_it_is_taken_over(db_url: str) -> None:
    storage = storage_with_games(db_url, "g1")
    try:
        assert claim(storage, "g1", "a") == ("a", True)
        assert claim(storage, "g1", "b", now=NOW + LEASE_S - 1) == ("a", False)
        assert claim(storage, "g1", "b", now=NOW + LEASE_S + 1) == ("b", True)
        assert not renew(storage, "g1", "a", 3)
        row = load_job(storage.engine, "g1", "spectator")
        assert row is not None and (row.holder, row.done) == ("b", 0)
    finally:
        storage.close()


def test_a_server_alone_takes_over_a_past_runs_job_at_once(db_url: str) -> None:
    storage = storage_with_games(db_url, "g1")
    try:
        assert claim(storage, "g1", "before-restart", alone=True) == ("before-restart", True)
        # Restarted (another holder name), alone on the database: the old job is nobody's.
        assert claim(storage, "g1", "after-restart", alone=True) == ("after-restart", True)
        # Its own job is still its own.
        assert claim(storage, "g1", "after-restart", alone=True) == ("after-restart", False)
    finally:
        storage.close()


def test_a_failure_is_told_until_forgotten_and_a_kept_analysis_ends_the_job(db_url: str) -> None:
    storage = storage_with_games(db_url, "g1", "g2")
    try:
        claim(storage, "g1", "a")
        fail_job(storage.engine, "g1", "spectator", "a", "the analysis failed: ValueError")
        row = load_job(storage.engine, "g1", "spectator")
        assert row is not None and (row.status, row.error) == ("failed", "the analysis failed: ValueError")
        assert claim(storage, "g1", "b", now=NOW + 10 * LEASE_S) == ("a", False)  # told, not taken over
        forget_job(storage.engine, "g1", "spectator")
        assert load_job(storage.engine, "g1", "spectator") is None
        assert claim(storage, "g1", "b") == ("b", True)  # asked again: made again
        claim(storage, "g2", "a")
        save_analysis(storage.engine, "g2", "spectator", {"plies": []}, 1.5)
        assert load_job(storage.engine, "g2", "spectator") is None
    finally:
        storage.close()


def test_a_job_asked_after_its_analysis_was_kept_is_not_made_again(db_url: str) -> None:
    # A worker that looked for the kept analysis just before another kept it: its claim finds the
    # analysis kept and takes no job (no second analysis, no job counted against the person).
    storage = storage_with_games(db_url, "g1", "g2")
    try:
        assert claim(storage, "g1", "a", limit=1) == ("a", True)
        save_analysis(storage.engine, "g1", "spectator", {"plies": []}, 1.5)
        assert claim(storage, "g1", "b", limit=1) == (None, False)
        assert load_job(storage.engine, "g1", "spectator") is None
        assert claim(storage, "g2", "b", limit=1) == ("b", True)  # the person's one job is free
    finally:
        storage.close()


def test_a_worker_that_finds_the_analysis_kept_as_it_claims_answers_done(db_url: str) -> None:
    # The worker's side of the race above: it answers ``done`` (the route then reads the kept
    # analysis) and starts no job of its own.
    storage = storage_with_games(db_url, "g1")
    try:
        save_analysis(storage.engine, "g1", "spectator", {"plies": []}, 1.5)
        jobs = AnalysisJobs(storage, BotPool(workers=1), Background(), holder="b", alone=False)
        record = Record.start(ludotheque.load("pylos"), 1).with_moves(["1a1", "1b1"]).finished(
            Result((0,), (1.0, 0.0), "resignation"))
        job, new = run_async(jobs.ask("g1", "spectator", record, "address:1"))
        assert (job.status, new, jobs.jobs()) == ("done", False, [])
        assert load_job(storage.engine, "g1", "spectator") is None
    finally:
        storage.close()
