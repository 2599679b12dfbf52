"""Seekers who come at once through two workers (one PostgreSQL database, one Redis): one
waiting seek starts one game, never several (issue: 15 rounds of 15 put the waiting person into
several games). The rounds are those of ``tests/server/test_games_seek_races.py``."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.distributed.parts import RedisServer, worker
from tests.server.test_games_seek_races import check_rounds, seek_rounds
from tests.support import run_async
from tests.support.server import ServerProcess


@pytest.fixture(scope="module")
def pair(postgres_db: str, redis_server: RedisServer) -> Iterator[tuple[ServerProcess, ServerProcess]]:
    first = worker(postgres_db, redis_server.url).start()
    second = worker(postgres_db, redis_server.url).start()
    try:
        yield first, second
    finally:
        first.stop()
        second.stop()


def test_a_waiting_seek_starts_one_game_across_workers(pair: tuple[ServerProcess, ServerProcess]) -> None:
    check_rounds(run_async(seek_rounds([server.url for server in pair], rounds=10)))
