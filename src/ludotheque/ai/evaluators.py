"""Evaluators, found by game id, and the keys that identify positions during a search.

Each game declares its evaluator, ``engines/<id>/evaluate.py``'s ``evaluate(state, player)``
(docs/design.md), in its ``GameInfo``: bots find it through the registry and never import a game.

>>> import ludotheque
>>> game = ludotheque.load("pylos")
>>> evaluate = evaluator_for(game)
>>> -1.0 <= evaluate(game.new_state(), 0) <= 1.0
True
>>> position_key(game.new_state()) == position_key(game.new_state())
True
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable

from ..core.contract import Game, State
from .base import Evaluator, terminal_values

# A leaf evaluation gives every player's value at once (MCTS backs up one value per player).
LeafValues = Callable[[State, random.Random], tuple[float, ...]]
GainDetector = Callable[[State], bool]


def has_evaluator(game: Game) -> bool:
    """Whether the game declares an evaluator (``GameInfo.evaluator``)."""
    return game.info.evaluator is not None


def evaluator_for(game: Game) -> Evaluator:
    """The game's own evaluator; raises ``ValueError`` when the game declares none."""
    evaluate = game.info.evaluator
    if evaluate is None:
        raise ValueError(f"{game.id}: no evaluator (GameInfo.evaluator, engines/{game.id}/evaluate.py)")
    return evaluate


def gain_detector_for(game: Game) -> GainDetector | None:
    """The game's optional detector of an immediate gain (``GameInfo.gain_detector``): whether
    the player to move can cash in something a careful opponent would have prevented (Pylos:
    close a square). ``None`` when the game declares none."""
    return game.info.gain_detector


def heuristic_values(evaluate: Evaluator) -> LeafValues:
    """Leaf values from a static evaluator (terminal states scored exactly)."""

    def values(state: State, rng: random.Random) -> tuple[float, ...]:
        if state.is_over:
            return terminal_values(state)
        return tuple(evaluate(state, p) for p in range(state.game.players))

    return values


def rollout_values(max_plies: int, evaluate: Evaluator | None = None) -> LeafValues:
    """Leaf values from a random playout of at most ``max_plies`` moves, then the evaluator
    (or 0 for everyone) if the game has not ended by then."""

    def values(state: State, rng: random.Random) -> tuple[float, ...]:
        for _ in range(max_plies):
            if state.is_over:
                return terminal_values(state)
            state = state.play(rng.choice(state.legal_moves()))
        if state.is_over:
            return terminal_values(state)
        if evaluate is None:
            return tuple(0.0 for _ in range(state.game.players))
        return tuple(evaluate(state, p) for p in range(state.game.players))

    return values


def position_key(state: State) -> str:
    """A transposition key for a perfect-information state.

    It is the full state's JSON: with nothing hidden it holds exactly what both players know,
    it is exact (the history that repetition draws depend on is in it, so two positions with
    different draw prospects never share an entry), and it costs a fifth of ``json.dumps`` of a
    view, whose derived lists (available cells, free balls) the engine recomputes on every call.
    """
    return json.dumps(state.to_json(), sort_keys=True, separators=(",", ":"))
