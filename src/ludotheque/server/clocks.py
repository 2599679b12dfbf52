"""Game clocks, owned by the server: remaining time plus the start of the running turn.

In memory the turn start is a ``time.monotonic()`` reading (immune to wall-clock jumps); the
database keeps the wall-clock start so that a restarted server resumes the clock where it was,
the time the server was down included.

>>> spec = ClockSpec.from_json({"type": "fischer", "minutes": 1, "increment": 2})
>>> clock = Clock.fresh(spec, players=2).start(0, Instant(100.0, 1e9))
>>> clock = clock.after_move(0, 1, Instant(110.0, 1e9 + 10))
>>> clock.remaining_ms, clock.running
((52000, 60000), 1)
>>> clock.after_takeback([0], 0, Instant(115.0, 1e9 + 15)).remaining_ms  # 5 s used, no increment
(50000, 55000)
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any, Literal

from ..core.contract import JSON, Player

DAY_MS = 86_400_000


@dataclass(frozen=True)
class Instant:
    """One reading of both clocks: ``mono`` for arithmetic, ``wall`` for the database."""

    mono: float
    wall: float

    @classmethod
    def now(cls) -> Instant:
        return cls(time.monotonic(), time.time())

    def mono_of(self, wall: float) -> float:
        """The monotonic reading matching an earlier wall-clock time."""
        return self.mono - (self.wall - wall)


@dataclass(frozen=True)
class ClockSpec:
    """Fischer (``base_ms`` then ``increment_ms`` per move) or correspondence (``base_ms`` per move)."""

    kind: Literal["fischer", "correspondence"]
    base_ms: int
    increment_ms: int = 0

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> ClockSpec:
        """Read the design's clock object (already validated by the schemas)."""
        if data["type"] == "fischer":
            return cls("fischer", round(data["minutes"] * 60_000), round(data.get("increment", 0) * 1000))
        return cls("correspondence", int(data["days"]) * DAY_MS)

    def to_json(self) -> JSON:
        if self.kind == "fischer":
            return {
                "type": "fischer",
                "minutes": self.base_ms / 60_000,
                "increment": self.increment_ms / 1000,
            }
        return {"type": "correspondence", "days": self.base_ms // DAY_MS}


@dataclass(frozen=True)
class Clock:
    """Immutable clock state: each seat's remaining time, and which seat's time runs since when."""

    spec: ClockSpec
    remaining_ms: tuple[int, ...]
    running: Player | None = None
    started: float = 0.0  # monotonic reading when ``running`` began to think
    started_wall: float = 0.0  # the same instant on the wall clock, for the database

    @classmethod
    def fresh(cls, spec: ClockSpec, players: int) -> Clock:
        return cls(spec, (spec.base_ms,) * players)

    def start(self, seat: Player | None, now: Instant) -> Clock:
        """The clock with ``seat``'s time running from ``now`` (``None``: stopped)."""
        return replace(self, running=seat, started=now.mono, started_wall=now.wall)

    def remaining_now(self, now: Instant) -> tuple[int, ...]:
        """Each seat's remaining time at ``now`` (never below zero)."""
        if self.running is None:
            return self.remaining_ms
        spent = round((now.mono - self.started) * 1000)
        times = list(self.remaining_ms)
        times[self.running] = max(0, times[self.running] - spent)
        return tuple(times)

    def has_flag_fallen(self, now: Instant) -> bool:
        return self.running is not None and self.remaining_now(now)[self.running] <= 0

    def seconds_to_flag(self, now: Instant) -> float | None:
        """Seconds until the running seat's time is up; ``None`` when stopped."""
        if self.running is None:
            return None
        return self.remaining_now(now)[self.running] / 1000

    def after_move(self, mover: Player, next_seat: Player | None, now: Instant) -> Clock:
        """``mover`` has moved at ``now``: charge the time, add the increment or reset
        (correspondence: the time is per move), then run ``next_seat``'s time."""
        times = list(self.remaining_now(now))
        if self.spec.kind == "fischer":
            times[mover] += self.spec.increment_ms
        else:
            times[mover] = self.spec.base_ms
        return replace(self, remaining_ms=tuple(times)).start(next_seat, now)

    def after_takeback(self, movers: Sequence[Player], next_seat: Player | None, now: Instant) -> Clock:
        """The moves of ``movers`` were taken back at ``now``: every seat keeps the time it has
        used (the running seat is charged up to ``now``), and a Fischer clock takes back the
        increments those moves earned, so that moving and taking back never gains time.
        Then ``next_seat``'s time runs."""
        times = list(self.remaining_now(now))
        if self.spec.kind == "fischer":
            for mover in movers:
                times[mover] = max(0, times[mover] - self.spec.increment_ms)
        return replace(self, remaining_ms=tuple(times)).start(next_seat, now)

    def stopped(self, now: Instant) -> Clock:
        """The clock frozen at ``now`` (game over)."""
        return replace(self, remaining_ms=self.remaining_now(now), running=None)

    def to_document(self, now: Instant) -> JSON:
        """The clock as clients see it: they count the running seat down themselves."""
        return {
            **self.spec.to_json(),
            "remaining_ms": list(self.remaining_now(now)),
            "running": self.running,
        }
