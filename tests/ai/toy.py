"""A tiny game that implements the contract, for testing bots where no registered game fits yet.

Each player is dealt a secret card 0-3 by the seed (hidden from the others in the ``hidden``
variant). Players move in turn, twice each: ``safe`` scores 1 point; ``duel`` scores 3 if the
mover's card beats every other card, else loses 1. The highest score wins.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ludotheque.core import IllegalMoveError, InvalidMoveError, Result
from ludotheque.core.contract import JSON, Game, GameInfo, Player, State, base_view

MOVES = ("duel", "safe")
ROUNDS = 2


class ToyState(State):
    __slots__ = ("_cards", "_game", "_history")

    def __init__(self, game: ToyGame, cards: tuple[int, ...], history: tuple[str, ...]) -> None:
        self._game = game
        self._cards = cards
        self._history = history

    @property
    def game(self) -> ToyGame:
        return self._game

    @property
    def ply(self) -> int:
        return len(self._history)

    @property
    def is_over(self) -> bool:
        return self.ply >= ROUNDS * self._game.players

    @property
    def to_move(self) -> Player | None:
        return None if self.is_over else self.ply % self._game.players

    def legal_moves(self) -> list[str]:
        return [] if self.is_over else list(MOVES)

    def play(self, move: Any) -> ToyState:
        if move not in MOVES:
            raise InvalidMoveError(f"toy: {move!r} is not a move")
        if self.is_over:
            raise IllegalMoveError(f"toy: {move!r} is not legal: over at ply {self.ply}")
        return ToyState(self._game, self._cards, (*self._history, move))

    def scores(self) -> tuple[int, ...]:
        players = self._game.players
        points = [0] * players
        for ply, move in enumerate(self._history):
            mover = ply % players
            if move == "safe":
                points[mover] += 1
            else:
                others = [c for p, c in enumerate(self._cards) if p != mover]
                points[mover] += 3 if self._cards[mover] > max(others) else -1
        return tuple(points)

    def result(self) -> Result:
        if not self.is_over:
            raise self._not_over_error()
        points = self.scores()
        best = max(points)
        winners = tuple(p for p, s in enumerate(points) if s == best)
        if len(winners) == len(points):
            winners = ()
        return Result(winners, tuple(float(s) for s in points), "points")

    def view(self, player: Player | None = None) -> JSON:
        data = base_view(self, player, "play")
        hidden = self._game.has_hidden_information
        data["cards"] = [c if not hidden or p == player else None for p, c in enumerate(self._cards)]
        data["history"] = list(self._history)
        return data

    def to_json(self) -> JSON:
        return {"cards": list(self._cards), "history": list(self._history)}

    def determinize(self, player: Player | None, rng: random.Random) -> ToyState:
        if not self._game.has_hidden_information:
            return self
        cards = tuple(c if p == player else rng.randrange(4) for p, c in enumerate(self._cards))
        return ToyState(self._game, cards, self._history)


class ToyGame(Game):
    @property
    def has_hidden_information(self) -> bool:
        return self.variant == "hidden"

    @property
    def has_chance(self) -> bool:
        return True

    def new_state(self, seed: int = 0) -> ToyState:
        rng = random.Random(seed)
        return ToyState(self, tuple(rng.randrange(4) for _ in range(self.players)), ())

    def deal(self, cards: tuple[int, ...], history: tuple[str, ...] = ()) -> ToyState:
        return ToyState(self, cards, history)

    def parse_move(self, state: State, text: str) -> str:
        return text

    def state_from_json(self, data: Mapping[str, Any]) -> ToyState:
        return ToyState(self, tuple(data["cards"]), tuple(data["history"]))


ToyGame.info = GameInfo(
    id="toy", title={"en": "Toy"}, summary={"en": "Toy"}, player_counts=(2, 3),
    default_players=2, variants=("hidden", "open"), default_variant="hidden", rules_version=1,
    make=lambda variant, players: ToyGame(variant, players),
)
