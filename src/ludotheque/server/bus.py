"""What workers tell each other through Redis pub/sub (``--redis redis://...``, several workers).

PostgreSQL holds every game; a worker that changed one publishes a small message (the game and
its new version, a chat line, a person's news) on one channel, and every worker pushes it to the
sockets it holds itself. Messages carry no state that matters: a worker that missed some (Redis
restarted, the worker was busy) reads the games it holds again from the database once it is
subscribed again (``on_resubscribed``), so a lost message only delays a document.

>>> encode_message({"kind": "game", "game": "g1", "v": 3}, "w1")
'{"from":"w1","kind":"game","game":"g1","v":3}'
>>> decode(_.encode())
{'from': 'w1', 'kind': 'game', 'game': 'g1', 'v': 3}
>>> decode("not json") is None
True
>>> own_prefix("w1")
b'{"from":"w1",'

"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import secrets
import time
from collections.abc import Awaitable, Callable
from typing import Any

from . import metrics

log = logging.getLogger("ludotheque.server")
CHANNEL = "ludotheque:events"
# How long a worker waits before subscribing again after Redis went away.
RETRY_S = 0.5
# redis-py pings an idle subscription this often, so that a dead connection is noticed.
HEALTH_CHECK_S = 5

Handler = Callable[[dict[str, Any]], Awaitable[None]]


def encode_message(message: dict[str, Any], origin: str) -> str:
    """The message as published: its origin first, so that the worker that sent it recognises
    its own message (every subscriber gets it back) from its first bytes, without decoding it."""
    rest = {key: value for key, value in message.items() if key != "from"}
    return json.dumps({"from": origin, **rest}, separators=(",", ":"), ensure_ascii=False)


def own_prefix(origin: str) -> bytes:
    """The first bytes of every message ``origin`` publishes (:func:`encode_message`)."""
    return encode_message({}, origin)[:-1].encode() + b","


def decode(raw: str | bytes) -> dict[str, Any] | None:
    try:
        message = json.loads(raw)
    except ValueError:
        return None
    return message if isinstance(message, dict) else None


class Bus:
    """One worker's publisher and subscriber on Redis; ``handle`` gets every other worker's
    message, ``on_resubscribed`` runs each time the subscription is made again after a loss."""

    def __init__(self, url: str, handle: Handler, on_resubscribed: Callable[[], Awaitable[None]]) -> None:
        from redis.asyncio import Redis

        self.url = url
        self.origin = secrets.token_hex(6)  # this worker: it skips its own messages
        self._own = own_prefix(self.origin)
        self._redis = Redis.from_url(url, health_check_interval=HEALTH_CHECK_S,
                                     socket_connect_timeout=2, socket_timeout=None)
        self._handle = handle
        self._on_resubscribed = on_resubscribed
        self._listener: asyncio.Task[None] | None = None
        # Whether a send is on its way; the messages waiting for it, and the task that sends them.
        self._sending = False
        self._outgoing: list[tuple[str, asyncio.Future[bool]]] = []
        self._sender: asyncio.Task[None] | None = None
        self.subscribed = asyncio.Event()
        self.published = 0
        self.received = 0

    async def start(self) -> None:
        """Subscribe (waits up to a few seconds for the first subscription)."""
        self._listener = asyncio.get_running_loop().create_task(self._listen())
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(5):
                await self.subscribed.wait()

    async def publish(self, message: dict[str, Any]) -> None:
        """Tell every other worker; when Redis is away the message is lost (logged), and the
        others catch up from the database once Redis is back.

        One send at a time, on one connection: a message published while another is on its way
        waits for it, then goes with the others that waited, in one pipeline. So a busy worker
        neither runs out of connections (redis-py refuses a command past its pool's 100, and the
        message was lost) nor waits for a round trip per message; an idle one publishes at once."""
        text = encode_message(message, self.origin)
        if self._sending:
            waiter: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
            self._outgoing.append((text, waiter))
            await asyncio.shield(waiter)
            return
        self._sending = True
        try:
            await self._send([text])
        finally:  # those that came meanwhile go next, even if this request was cancelled
            if self._outgoing:
                self._sender = asyncio.get_running_loop().create_task(self._send_waiting())
            else:
                self._sending = False

    async def _send_waiting(self) -> None:
        batch: list[tuple[str, asyncio.Future[bool]]] = []
        try:
            while self._outgoing:
                batch, self._outgoing = self._outgoing, []
                sent = await self._send([text for text, _ in batch])
                for _, waiter in batch:
                    if not waiter.done():
                        waiter.set_result(sent)
        finally:  # whatever stopped it, nobody waits for ever
            for _, waiter in batch + self._outgoing:
                if not waiter.done():
                    waiter.set_result(False)
            self._outgoing = []
            self._sending = False

    async def _send(self, texts: list[str]) -> bool:
        from redis.exceptions import RedisError

        for attempt in (1, 2):  # a connection from before a Redis restart fails once, then reconnects
            started = time.perf_counter()
            try:
                if len(texts) == 1:  # a pipeline costs more than the command itself
                    await self._redis.publish(CHANNEL, texts[0])
                else:
                    async with self._redis.pipeline(transaction=False) as pipeline:
                        for text in texts:
                            pipeline.publish(CHANNEL, text)
                        await pipeline.execute()
                metrics.redis_timed("publish", time.perf_counter() - started)
                metrics.bus_message("sent", len(texts))
                self.published += len(texts)
                return True
            except (RedisError, OSError):
                metrics.redis_timed("publish", time.perf_counter() - started, failed=True)
                if attempt == 2:
                    log.warning("Redis is unreachable: %d change(s) not announced to the other workers",
                                len(texts))
        return False

    async def ping(self) -> None:
        """Ask Redis for a PONG (readiness); raises when it does not answer."""
        started = time.perf_counter()
        try:
            await self._redis.ping()
        except BaseException:
            metrics.redis_timed("ping", time.perf_counter() - started, failed=True)
            raise
        metrics.redis_timed("ping", time.perf_counter() - started)

    async def _listen(self) -> None:
        from redis.exceptions import RedisError

        first = True
        while True:
            pubsub = self._redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(CHANNEL)
                self.subscribed.set()
                if not first:
                    log.warning("subscribed to Redis again: reading the games held here again")
                    await self._on_resubscribed()
                first = False
                async for raw in pubsub.listen():
                    await self._dispatch(raw)
            except (RedisError, OSError):
                self.subscribed.clear()
                first = False
                await asyncio.sleep(RETRY_S)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    async def _dispatch(self, raw: dict[str, Any]) -> None:
        if raw.get("type") != "message":
            return
        data = raw["data"]
        if (data if isinstance(data, bytes) else data.encode()).startswith(self._own):
            return  # its own news (a move's carries the whole game): not worth decoding
        message = decode(data)
        if message is None or message.get("from") == self.origin:
            return
        self.received += 1
        metrics.bus_message("received")
        try:
            await self._handle(message)
        except Exception:  # one bad message never stops the subscription
            log.exception("a message from another worker failed: %s", message.get("kind"))

    async def close(self) -> None:
        if self._listener is not None:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
        if self._sender is not None:  # the messages already queued go out first
            with contextlib.suppress(Exception):
                await self._sender
        await self._redis.aclose()
