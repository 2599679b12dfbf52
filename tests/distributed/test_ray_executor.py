"""RayExecutor on a real local Ray: the server's bot moves, exceptions and cancellation.

One Ray (2 CPUs) serves the whole module; starting one takes several seconds.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from concurrent.futures import CancelledError

import pytest

import ludotheque
from ludotheque.ai.remote import RayExecutor
from ludotheque.core.errors import UnknownGameError
from ludotheque.core.registry import load
from ludotheque.server.bots import choose_move
from tests.ai.conftest import played_states

pytest.importorskip("ray")


@pytest.fixture(scope="module")
def executor() -> Iterator[RayExecutor]:
    with RayExecutor(num_cpus=2) as pool:
        yield pool


@pytest.mark.parametrize(("game_id", "level"), [("pylos", "medium"), ("plimil", "easy")])
def test_the_servers_bot_moves_on_ray_are_the_moves_it_thinks_here(
    executor: RayExecutor, game_id: str, level: str
) -> None:
    game = ludotheque.load(game_id)
    calls = [
        (game.id, game.variant, game.players, state.to_json(), level, 7 + state.ply)
        for state in played_states(game, seed=4, every=9)[:4]
    ]
    futures = [executor.submit(choose_move, *call) for call in calls]
    # A fresh Ray worker imports the project and may compile a kernel first (minutes on a busy machine).
    remote = [future.result(timeout=300) for future in futures]
    assert remote == [choose_move(*call) for call in calls]
    # Moves that the position allows, not just equal strings.
    for call, move in zip(calls, remote, strict=True):
        state = game.state_from_json(call[3])
        assert move in {str(m) for m in state.legal_moves()}


def test_a_task_that_raises_gives_its_exception_through_the_future(executor: RayExecutor) -> None:
    future = executor.submit(load, "nonesuch")
    with pytest.raises(UnknownGameError, match="unknown game 'nonesuch'"):
        future.result(timeout=60)
    assert isinstance(future.exception(), ValueError)


def test_cancelled_work_never_takes_a_cpu(executor: RayExecutor) -> None:
    # Both CPUs busy for 3 s, two minute-long tasks queued behind them, then cancelled: as in a
    # process pool, waiting work is dropped, and the next task runs as soon as a CPU is free.
    busy = [executor.submit(time.sleep, 3) for _ in range(2)]
    queued = [executor.submit(time.sleep, 60) for _ in range(2)]
    assert all(future.cancel() for future in queued)
    assert all(future.cancelled() for future in queued)
    with pytest.raises(CancelledError):
        queued[0].result()
    game = ludotheque.load("pylos")
    started = time.monotonic()
    move = executor.submit(choose_move, game.id, game.variant, game.players,
                           game.new_state(seed=1).to_json(), "easy", 1).result(timeout=60)
    assert move in {str(m) for m in game.new_state(seed=1).legal_moves()}
    assert time.monotonic() - started < 30, "the cancelled tasks held the CPUs"
    assert [future.result(timeout=60) for future in busy] == [None, None]


def test_executors_share_this_processs_ray(executor: RayExecutor) -> None:
    # The module's Ray is running (asked for, so that this holds in any order, on any pytest-xdist
    # worker): a second executor joins it; its shutdown leaves it running.
    import ray

    assert ray.is_initialized()

    with RayExecutor("local") as second:
        assert second.submit(abs, -3).result(timeout=60) == 3
    assert ray.is_initialized()
