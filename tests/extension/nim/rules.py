"""Nim for two or three players on three heaps drawn by the seed; rules in ``RULES.md``.

The whole contract on ``StoredState``: the base class parses or checks a move and checks the
viewer; this module gives the legal moves, ``_apply`` and ``_view``.

>>> game = NimGame("standard", 2)
>>> state = game.new_state(seed=3)
>>> state.view(None)["heaps"], [str(m) for m in state.legal_moves()][:3]
([2, 5, 5], ['a1', 'a2', 'b1'])
>>> state.play("c5").view(0)["heaps"]
[2, 5, 0]
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Self

from ludotheque.core import IllegalMoveError, InvalidMoveError, Result
from ludotheque.core.contract import JSON, Game, Player, State, StoredState, base_view
from ludotheque.core.errors import Reason

HEAPS = "abc"
LARGEST_HEAP = 7
VARIANTS = ("standard", "misere")
_TEXT = re.compile(r"\s*([a-z])\s*(\d{1,2})\s*")

NOT_NOTATION = {"en": "write a heap (a, b or c) then a count, as b3",
                "fr": "écrivez un tas (a, b ou c) puis un nombre, comme b3"}
TOO_MANY = {"en": "heap {heap} holds {left} match(es)", "fr": "le tas {heap} a {left} allumette(s)"}


@dataclass(frozen=True, slots=True, order=True)
class Move:
    """Take ``count`` matches from heap ``heap`` (0 for ``a``)."""

    heap: int
    count: int

    def __str__(self) -> str:
        return f"{HEAPS[self.heap]}{self.count}"

    def __repr__(self) -> str:
        return f"Move.from_text({str(self)!r})"

    @classmethod
    def from_text(cls, text: str) -> Move:
        """The move ``text`` names (syntax only); raises ``InvalidMoveError``."""
        match = _TEXT.fullmatch(text.lower()) if isinstance(text, str) else None
        if match is None or match.group(1) not in HEAPS or int(match.group(2)) < 1:
            raise InvalidMoveError.not_notation("nim", text, Reason("not_notation", {}, NOT_NOTATION))
        return cls(HEAPS.index(match.group(1)), int(match.group(2)))


class NimState(StoredState["NimGame", Move]):
    __slots__ = ("_heaps", "_last", "_to_move")

    def __init__(self, game: NimGame, heaps: tuple[int, ...], to_move: Player, ply: int,
                 last: Player | None = None) -> None:
        self._game = game
        self._heaps = heaps
        self._to_move = to_move
        self._ply = ply
        self._last = last
        self._legal = None
        self._result = _result(game, last) if not any(heaps) and last is not None else None

    @property
    def to_move(self) -> Player | None:
        return None if self._result is not None else self._to_move

    @property
    def heaps(self) -> tuple[int, ...]:
        return self._heaps

    def _generate_legal_moves(self) -> list[Move]:
        return [Move(heap, count) for heap, size in enumerate(self._heaps) for count in range(1, size + 1)]

    def _apply(self, move: Move) -> Self:
        heaps = list(self._heaps)
        heaps[move.heap] -= move.count
        following = (self._to_move + 1) % self._game.players
        return type(self)(self._game, tuple(heaps), following, self._ply + 1, self._to_move)

    def _view(self, player: Player | None) -> JSON:
        return {**base_view(self, player, "over" if self.is_over else "play"), "heaps": list(self._heaps)}

    def to_json(self) -> JSON:
        return {**self._json_header(), "heaps": list(self._heaps), "to_move": self._to_move,
                "ply": self._ply, "last": self._last}

    def determinize(self, player: Player | None, rng: random.Random) -> NimState:
        return self  # nothing is hidden

    def __hash__(self) -> int:
        return hash((self._heaps, self._to_move, self._ply, self._last))


class NimGame(Game):
    @property
    def has_chance(self) -> bool:
        return True

    def new_state(self, seed: int = 0) -> NimState:
        rng = random.Random(seed)
        return NimState(self, tuple(rng.randint(1, LARGEST_HEAP) for _ in HEAPS), 0, 0)

    def parse_move(self, state: State, text: str) -> Move:
        if not isinstance(state, NimState):
            raise ValueError(f"nim: {state!r} is no Nim position")
        if state.is_over:
            raise IllegalMoveError.game_over(self.id, text, ply=state.ply)
        move = Move.from_text(text)
        left = state.heaps[move.heap]
        if move.count > left:
            why = Reason("too_many", {"heap": HEAPS[move.heap], "left": left}, TOO_MANY)
            raise IllegalMoveError.here(self.id, text, state.ply, why)
        return next(legal for legal in state.legal_moves() if legal == move)

    def state_from_json(self, data: Mapping[str, Any]) -> NimState:
        self.check_json_header(data)
        try:
            heaps = tuple(int(size) for size in data["heaps"])
            to_move, ply, last = int(data["to_move"]), int(data["ply"]), data["last"]
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"nim: malformed state {data!r}") from error
        if len(heaps) != len(HEAPS) or not all(0 <= size <= LARGEST_HEAP for size in heaps):
            raise ValueError(f"nim: malformed heaps {heaps!r}")
        if not 0 <= to_move < self.players or (last is not None and not 0 <= int(last) < self.players):
            raise ValueError(f"nim: no such player in {data!r}")
        return NimState(self, heaps, to_move, ply, None if last is None else int(last))


def _result(game: Game, last: Player) -> Result:
    """Standard: whoever took the last match wins; misère: whoever took it loses."""
    if game.variant == "misere":
        winners = tuple(p for p in range(game.players) if p != last)
        reason = "last_match_misere"
    else:
        winners, reason = (last,), "last_match"
    return Result(winners, tuple(1 if p in winners else -1 for p in range(game.players)), reason)


def evaluate(state: Any, player: Player) -> float:
    """Two players, normal play: the player to move wins exactly when the heaps' nim-sum is not
    zero (misère: the same, but for the end, where every heap holds at most one match)."""
    if state.is_over:
        return float(state.result().scores[player])
    if state.game.players != 2:
        return 0.0
    nim_sum = 0
    for size in state.heaps:
        nim_sum ^= size
    winning = nim_sum != 0
    if state.game.variant == "misere" and max(state.heaps) <= 1:
        winning = not winning
    return 0.9 if winning == (state.to_move == player) else -0.9
