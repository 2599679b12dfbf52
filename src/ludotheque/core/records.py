"""Game records: one JSON format for the CLI's save, the web export and ``replay``.

>>> from ludotheque.core.registry import load
>>> record = Record.start(load("pylos"), seed=0).with_moves(["1a1", "1b1"])
>>> [str(s.to_move) for s in replay(record)]
['0', '1', '0']
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from .contract import JSON, Game, Player, Result, State
from .errors import RecordError
from .registry import load

FORMAT = 1


def now_iso() -> str:
    """The current UTC time as ISO 8601 text, to the second."""
    return datetime.now(UTC).replace(microsecond=0).isoformat()


@dataclass(frozen=True)
class Record:
    """A game id, its parameters, the seed and the move texts: enough to replay it exactly."""

    game: str
    variant: str
    players: int
    seed: int | None
    rules_version: int
    moves: tuple[str, ...]
    result: Result | None
    started: str
    ended: str | None = None

    @classmethod
    def start(cls, game: Game, seed: int) -> Record:
        return cls(game.id, game.variant, game.players, seed, game.rules_version, (), None, now_iso())

    def with_moves(self, moves: Iterable[str]) -> Record:
        return replace(self, moves=tuple(moves))

    def finished(self, result: Result, ended: str | None = None) -> Record:
        return replace(self, result=result, ended=ended or now_iso())

    def load_game(self) -> Game:
        return load(self.game, variant=self.variant, players=self.players)

    def to_json(self) -> JSON:
        return {
            "format": FORMAT,
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "seed": self.seed,
            "rules_version": self.rules_version,
            "moves": list(self.moves),
            "result": self.result.to_json() if self.result else None,
            "started": self.started,
            "ended": self.ended,
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Record:
        """Read a record; raises ``RecordError`` naming the first bad field."""
        if not isinstance(data, Mapping):
            raise RecordError("a record must be a JSON object")
        if data.get("format") != FORMAT:
            raise RecordError(f"unsupported record format {data.get('format')!r} (expected {FORMAT})")
        try:
            moves = data["moves"]
            if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
                raise RecordError("'moves' must be a list of move texts")
            seed = data.get("seed")
            if seed is not None and not isinstance(seed, int):
                raise RecordError(f"'seed' must be an integer, not {seed!r}")
            result = data.get("result")
            return cls(
                game=str(data["game"]),
                variant=str(data["variant"]),
                players=int(data["players"]),
                seed=seed,
                rules_version=int(data.get("rules_version", 0)),
                moves=tuple(moves),
                result=Result.from_json(result) if result else None,
                started=str(data.get("started", "")),
                ended=data.get("ended"),
            )
        except KeyError as missing:
            raise RecordError(f"record field {missing} is missing") from None
        except (TypeError, ValueError) as error:
            if isinstance(error, RecordError):
                raise
            raise RecordError(f"malformed record: {error}") from None

    def save(self, path: Path) -> None:
        path.write_text(json.dumps(self.to_json(), indent=2, ensure_ascii=False) + "\n", "utf-8")

    @classmethod
    def read(cls, path: Path) -> Record:
        """Load a record file; raises ``RecordError`` for unreadable or malformed files."""
        try:
            data = json.loads(path.read_text("utf-8"))
        except OSError as error:
            raise RecordError(f"cannot read {str(path)!r}: {error.strerror}") from None
        except json.JSONDecodeError as error:
            raise RecordError(f"{str(path)!r} is not JSON: {error}") from None
        return cls.from_json(data)

    def for_reader(self, reader: Player | None) -> Record:
        """The record as ``reader`` may see it: complete once the game is over, otherwise
        without the seed and with the moves masked as ``view(reader)`` masks them."""
        if self.result is not None:
            return self
        game = self.load_game()
        return replace(self, seed=None, moves=tuple(masked_moves(game, replay(self), self.moves, reader)))


def masked_moves(
    game: Game, states: list[State], moves: Iterable[str], reader: Player | None
) -> list[str]:
    """The texts of ``moves`` (played from ``states[i]``) as ``reader`` may know them."""
    masked = []
    for before, text in zip(states, moves, strict=False):
        mover = before.to_move
        assert mover is not None, "a move was recorded after the end"
        masked.append(game.mask_move_text(text, mover, reader))
    return masked


def replay(record: Record) -> list[State]:
    """Every state of the recorded game, from ``new_state(seed)`` to the last move.

    Raises ``RecordError`` naming the first move that does not replay.
    """
    if record.seed is None:
        raise RecordError("this record has no seed (the game was still running): it cannot replay")
    try:
        game = record.load_game()
    except ValueError as error:
        raise RecordError(str(error)) from None
    states = [game.new_state(seed=record.seed)]
    for number, text in enumerate(record.moves, start=1):
        try:
            states.append(states[-1].play(text))
        except ValueError as error:
            raise RecordError(f"move {number} {text!r} does not replay: {error}") from None
    return states
