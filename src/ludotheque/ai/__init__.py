"""Computer opponents that see only the contract: random, alpha-beta, MCTS and information-set MCTS.

>>> import ludotheque
>>> from ludotheque import ai
>>> game = ludotheque.load("pylos")
>>> state = game.new_state()
>>> ai.bot("easy", game, seed=3).choose(state) == ai.bot("easy", game, seed=3).choose(state)
True
>>> ai.bot("grandmaster", game)
Traceback (most recent call last):
...
ValueError: unknown bot 'grandmaster'; names: random, easy, medium, hard, alphabeta, mcts, ismcts, pimc
>>> ai.bot("difficile", game).algorithm == ai.bot("hard", game).algorithm
True
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..core.contract import Game, LevelSpec
from .alphabeta import AlphaBetaBot
from .base import Analysis, Bot, Evaluator, Progress
from .evaluators import evaluator_for, gain_detector_for, has_evaluator, heuristic_values, rollout_values
from .levels import (
    ALGORITHMS,
    BOT_NAMES,
    KIND_LEVELS,
    LEVEL_ALIASES,
    LEVEL_NAMES,
    canonical_level,
    describe,
    kind_of,
    level_for,
    level_label,
)
from .mcts import MCTSBot
from .pimc import DeterminizedAlphaBetaBot
from .random_bot import RandomBot

NAMES = BOT_NAMES
# Playouts this long end most games of every game here; longer ones are scored by the evaluator.
_ROLLOUT_PLIES = 60


def bot(name: str, game: Game, *, seed: int = 0) -> Bot:
    """The bot ``name`` (a level or an algorithm with default options) for ``game``; levels
    may be named in French too (``facile``, ``moyen``, ``difficile``, ``aléatoire``).

    Raises ``ValueError`` for an unknown name or an algorithm that cannot play ``game``.
    """
    rng = random.Random(seed)
    name = canonical_level(name)
    if name == "random":
        return RandomBot(game, rng=rng)
    if name in LEVEL_NAMES:
        return from_spec(level_for(game, name), game, rng=rng)
    return from_spec(LevelSpec(name), game, rng=rng)


def from_spec(spec: LevelSpec, game: Game, *, rng: random.Random) -> Bot:
    """Build the bot a level describes, injecting the game's evaluator (and, for a level with
    ``deny_gains``, the game's ``immediate_gain`` detector).

    A game without an evaluator is searched by MCTS with random playouts instead, with the
    same number of iterations as its (or the default) MCTS level would have.
    """
    options: Mapping[str, Any] = spec.options
    evaluate: Evaluator | None = evaluator_for(game) if has_evaluator(game) else None
    if spec.algorithm == "alphabeta" and evaluate is not None:
        options = dict(options)
        if options.pop("deny_gains", False):
            options["deny"] = gain_detector_for(game)
        return AlphaBetaBot(game, rng=rng, evaluate=evaluate, **options)
    if spec.algorithm == "pimc" and evaluate is not None:
        return DeterminizedAlphaBetaBot(game, rng=rng, evaluate=evaluate, **options)
    if spec.algorithm in ("alphabeta", "pimc"):
        iterations = int(options.get("nodes") or 2000) // 10
        return MCTSBot(game, rng=rng, iterations=max(50, iterations), leaf=rollout_values(_ROLLOUT_PLIES),
                       determinize=game.has_hidden_information)
    if spec.algorithm in ("mcts", "ismcts"):
        if spec.leaf == "heuristic" and evaluate is not None:
            leaf = heuristic_values(evaluate)
        elif spec.leaf == "rollout+heuristic" and evaluate is not None:
            leaf = rollout_values(int(options.get("rollout_plies", 8)), evaluate)
        else:
            leaf = rollout_values(_ROLLOUT_PLIES, evaluate)
        mcts_options = {k: v for k, v in options.items() if k != "rollout_plies"}
        determinize = spec.algorithm == "ismcts" or game.has_hidden_information
        return MCTSBot(game, rng=rng, leaf=leaf, determinize=determinize, **mcts_options)
    raise ValueError(f"unknown algorithm {spec.algorithm!r} in a level of {game.id}")


__all__ = [
    "ALGORITHMS",
    "KIND_LEVELS",
    "LEVEL_ALIASES",
    "LEVEL_NAMES",
    "NAMES",
    "AlphaBetaBot",
    "Analysis",
    "Bot",
    "DeterminizedAlphaBetaBot",
    "LevelSpec",
    "MCTSBot",
    "Progress",
    "RandomBot",
    "bot",
    "canonical_level",
    "describe",
    "evaluator_for",
    "from_spec",
    "kind_of",
    "level_for",
    "level_label",
]
