"""What every bot shares: the ``Bot`` base class, its ``Analysis`` and the per-move seeding.

A bot is built once with an injected ``random.Random``; it draws one integer from it at
construction, its *seed*, and every ``choose`` re-seeds a fresh generator from (seed, ply),
so a move is a pure function of (seed, state): a bot reused, or rebuilt, plays the same.

>>> import ludotheque
>>> from ludotheque.ai.random_bot import RandomBot
>>> game = ludotheque.load("pylos")
>>> bot = RandomBot(game, rng=random.Random(7))
>>> state = game.new_state()
>>> bot.choose(state) == RandomBot(game, rng=random.Random(7)).choose(state)
True
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.contract import Evaluator as ContractEvaluator
from ..core.contract import Game, Player, State

Progress = Callable[[float], None]
# An evaluator scores a full state for one player, in [-1, 1] (docs/design.md: each game's evaluate.py).
Evaluator = ContractEvaluator

# Mixes the bot's seed with the ply: a large odd multiplier keeps (seed, ply) pairs apart.
_SEED_MIX = 0x9E3779B97F4A7C15


@dataclass(frozen=True)
class Analysis:
    """A bot's opinion of a position, for people.

    ``value`` is in [-1, 1] for the player to move; ``principal_variation`` lists move texts
    (alpha-beta); ``visits`` maps move texts to visit counts (MCTS), most visited first;
    ``iterations`` counts search nodes (alpha-beta) or playouts (MCTS).
    """

    value: float
    best_move: Any
    principal_variation: tuple[str, ...] = ()
    visits: dict[str, int] = field(default_factory=dict)
    iterations: int = 0
    depth: int = 0
    algorithm: str = ""

    def to_json(self) -> dict[str, Any]:
        return {
            "value": self.value,
            "best_move": str(self.best_move),
            "principal_variation": list(self.principal_variation),
            "visits": dict(self.visits),
            "iterations": self.iterations,
            "depth": self.depth,
            "algorithm": self.algorithm,
        }


class Bot(ABC):
    """A computer player for one game. Subclasses implement :meth:`analyse`.

    Raises ``ValueError`` at construction when the algorithm cannot play ``game``.
    """

    algorithm = "bot"
    # Where the bot searches: the plain engine, through the contract, or the game's compiled kernel.
    engine = "plain"

    def __init__(self, game: Game, *, rng: random.Random | None = None) -> None:
        self.game = game
        self.seed = (rng if rng is not None else random.Random(0)).getrandbits(63)

    def choose(self, state: State, progress: Progress | None = None) -> Any:
        """A legal move for ``state.to_move``; raises ``ValueError`` once the game is over."""
        return self.analyse(state, progress).best_move

    @abstractmethod
    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        """This bot's evaluation of ``state`` and the move it would play."""

    def rng_for(self, state: State) -> random.Random:
        """The generator of one decision: a function of (seed, ply) only."""
        return random.Random((self.seed ^ (state.ply * _SEED_MIX)) & ((1 << 64) - 1))

    def _check_playable(self, state: State) -> Player:
        if state.is_over or state.to_move is None:
            raise ValueError(f"{state.game.id}: no move to choose, the game is over (ply {state.ply})")
        if state.game != self.game:
            raise ValueError(f"{self!r} cannot play a state of {state.game!r}")
        return state.to_move

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.algorithm} for {self.game!r}>"


def has_two_sides(game: Game) -> bool:
    """Whether ``game`` is played by exactly two sides (two players, or two teams).

    >>> import ludotheque
    >>> [has_two_sides(ludotheque.load("expion", players=n)) for n in (2, 3, 4)]
    [True, True, True]
    """
    return len(game.teams) == 2


def terminal_values(state: State) -> tuple[float, ...]:
    """Each player's utility at the end: 1 for a winner, -1 for a loser, 0 for all on a draw.

    >>> import ludotheque
    >>> game = ludotheque.load("pylos")
    >>> state = game.state_from_json({**game.new_state().to_json(),
    ...     "result": {"winners": [1], "scores": [-1, 1], "reason": "top"}})
    >>> terminal_values(state)
    (-1.0, 1.0)
    """
    winners = state.result().winners
    if not winners:
        return tuple(0.0 for _ in range(state.game.players))
    return tuple(1.0 if p in winners else -1.0 for p in range(state.game.players))


def report(progress: Progress | None, fraction: float) -> None:
    """Tell the caller how far the search is, clamped to [0, 1]."""
    if progress is not None:
        progress(min(1.0, max(0.0, fraction)))
