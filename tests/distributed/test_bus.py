"""The workers' bus on a real Redis: what one worker publishes reaches the others, all of it and
in order, however many publishes are under way at once (a busy worker has hundreds: each move
announces one); a Redis that went away loses messages without failing the worker."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

import pytest

from ludotheque.server.bus import Bus
from tests.distributed.parts import RedisServer
from tests.support import run_async

MANY = 600  # more than redis-py's pool of 100 connections, which once refused the rest


async def nothing() -> None:
    return None


class Listener:
    """A worker's side that only collects what the others announce."""

    def __init__(self, url: str) -> None:
        self.seen: list[dict[str, Any]] = []
        self.bus = Bus(url, self.take, nothing)

    async def take(self, message: dict[str, Any]) -> None:
        self.seen.append(message)

    async def until(self, count: int, seconds: float = 10.0) -> None:
        async with asyncio.timeout(seconds):
            while len(self.seen) < count:
                await asyncio.sleep(0.01)


async def announce_many(url: str) -> tuple[list[dict[str, Any]], int, int]:
    sender, listener = Listener(url), Listener(url)
    await sender.bus.start()
    await listener.bus.start()
    try:
        news = [{"kind": "game", "game": "g", "v": v} for v in range(MANY)]
        await asyncio.gather(*(sender.bus.publish(message) for message in news))
        await listener.until(MANY)
        await asyncio.sleep(0.2)  # nothing more comes, and the sender never hears itself
        return listener.seen, len(sender.seen), sender.bus.published
    finally:
        await sender.bus.close()
        await listener.bus.close()


def test_every_message_of_a_busy_worker_arrives_in_order(redis_server: RedisServer) -> None:
    seen, heard_by_sender, published = run_async(announce_many(redis_server.url))
    assert [message["v"] for message in seen] == list(range(MANY))
    assert all(message["kind"] == "game" and message["game"] == "g" for message in seen)
    assert heard_by_sender == 0
    assert published == MANY


async def cancel_the_first(url: str) -> list[int]:
    sender, listener = Listener(url), Listener(url)
    await sender.bus.start()
    await listener.bus.start()
    try:
        first = asyncio.create_task(sender.bus.publish({"kind": "game", "v": 0}))
        await asyncio.sleep(0)  # the first is on its way; the next ones wait for it
        waiting = [asyncio.create_task(sender.bus.publish({"kind": "game", "v": v})) for v in (1, 2, 3)]
        await asyncio.sleep(0)
        first.cancel()  # its request went away: the ones waiting behind it go all the same
        async with asyncio.timeout(10):
            await asyncio.gather(*waiting)
        await sender.bus.publish({"kind": "game", "v": 4})  # and the next goes out at once
        await listener.until(4)
        await asyncio.sleep(0.2)
        return [message["v"] for message in listener.seen]
    finally:
        await sender.bus.close()
        await listener.bus.close()


def test_messages_waiting_behind_a_cancelled_publish_still_go(redis_server: RedisServer) -> None:
    seen = run_async(cancel_the_first(redis_server.url))
    assert seen[-4:] == [1, 2, 3, 4]
    assert seen[:-4] in ([], [0])  # the first may have reached Redis before it was cancelled


async def publish_without_redis(url: str) -> int:
    bus = Bus(url, Listener(url).take, nothing)
    try:
        await asyncio.gather(*(bus.publish({"kind": "chat", "line": n}) for n in range(3)))
        return bus.published
    finally:
        await bus.close()


def test_a_worker_without_redis_goes_on_and_says_what_was_lost(
    tmp_path_factory: pytest.TempPathFactory, caplog: pytest.LogCaptureFixture
) -> None:
    gone = RedisServer(tmp_path_factory.mktemp("redis-gone"))  # never started: nobody listens there
    with caplog.at_level(logging.WARNING, logger="ludotheque.server"):
        assert run_async(publish_without_redis(gone.url)) == 0
    lost = [record.getMessage() for record in caplog.records if "not announced" in record.getMessage()]
    assert lost and sum(int(line.split()[3]) for line in lost) == 3
