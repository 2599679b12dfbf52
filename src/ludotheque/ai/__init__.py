"""Computer opponents that see only the contract: random, alpha-beta, MCTS and information-set MCTS,
on the plain engine or inside the game's compiled kernel where it runs (``compiled.py``); the
fixed baselines ``uct10k`` and ``uct100k``; each level as it plays on the plain engine,
``<level>-plain``.

>>> import ludotheque
>>> from ludotheque import ai
>>> game = ludotheque.load("pylos")
>>> state = game.new_state()
>>> ai.bot("easy", game, seed=3).choose(state) == ai.bot("easy", game, seed=3).choose(state)
True
>>> ai.bot("grandmaster", game)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: unknown bot 'grandmaster'; names: random, easy, medium, hard, alphabeta, mcts, ..., hard-plain
>>> ai.bot("difficile", game).algorithm == ai.bot("hard", game).algorithm
True
>>> ai.bot("hard", game).engine, ai.bot("hard-plain", game).engine, ai.bot("uct10k", game).engine
('kernel', 'plain', 'kernel')
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from ..core.contract import Game, LevelSpec
from ..solved import perfect_module
from .alphabeta import AlphaBetaBot
from .base import Analysis, Bot, Evaluator, Progress
from .compiled import (
    KernelAlphaBetaBot,
    KernelISMCTSBot,
    KernelPIMCBot,
    KernelUCTBot,
    kernel_bot,
    kernel_rollout_values,
)
from .evaluators import evaluator_for, gain_detector_for, has_evaluator, heuristic_values, rollout_values
from .levels import (
    ALGORITHMS,
    BASELINES,
    BOT_NAMES,
    KIND_LEVELS,
    LEVEL_ALIASES,
    LEVEL_NAMES,
    PERFECT,
    canonical_level,
    describe,
    kind_of,
    level_for,
    level_label,
    plain_spec,
    spec_for,
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
    return from_spec(spec_for(game, name), game, rng=rng)


def perfect_bot(spec: LevelSpec, game: Game, *, rng: random.Random) -> Bot:
    """The ``perfect`` level: the ``PerfectBot`` of the game's package (its ``perfect`` module:
    exact play from its solved tables, its ``fallback`` level elsewhere, said so in its analysis);
    a game that ships none plays its fallback level."""
    fallback = from_spec(level_for(game, str(spec.options.get("fallback", "hard"))), game, rng=rng)
    module = perfect_module(game.info.package_name)
    if module is None:
        return fallback
    bot: Bot = module.PerfectBot(game, rng=rng, fallback=fallback)
    return bot


def from_spec(spec: LevelSpec, game: Game, *, rng: random.Random) -> Bot:
    """Build the bot a level describes, injecting the game's evaluator (and, for a level with
    ``deny_gains``, the game's ``immediate_gain`` detector).

    A level's ``kernel`` options, when the game's compiled kernel runs here and offers the
    search they name (``alphabeta``, ``uct``, ``pimc``, ``ismcts``: see
    :func:`~ludotheque.ai.compiled.kernel_plan`), make it search inside the kernel with those
    options; otherwise the level plays on the plain engine with its other options (the bot
    ``<level>-plain``). The ``uct`` algorithm (the baselines) is UCT with random playouts to
    the end and no evaluator: the kernel's ``uct`` (``ismcts`` for hidden information) where it
    has one, else the plain MCTS, with the kernel's random playouts where the game has a kernel.
    A game without an evaluator is searched by MCTS with random playouts instead, with the same
    number of iterations as its (or the default) MCTS level would have.
    """
    if spec.algorithm == PERFECT:
        return perfect_bot(spec, game, rng=rng)
    compiled = kernel_bot(spec, game, rng=rng)
    if compiled is not None:
        return compiled
    options: Mapping[str, Any] = plain_spec(spec).options
    evaluate: Evaluator | None = evaluator_for(game) if has_evaluator(game) else None
    if spec.algorithm == "uct":
        return _plain_uct(game, options, rng)
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


def _plain_uct(game: Game, options: Mapping[str, Any], rng: random.Random) -> Bot:
    """The baselines' UCT on the plain engine: random playouts to the end, no evaluator,
    information-set MCTS for a game that hides information; the playouts are the kernel's where
    the game has one that runs here (its searches aside)."""
    kernel = game.info.load_kernel()
    playouts = kernel_rollout_values(kernel) if kernel is not None else rollout_values(game.info.max_plies)
    bot = MCTSBot(game, rng=rng, iterations=int(options.get("iterations", 10_000)), leaf=playouts,
                  exploration=float(options.get("exploration", 1.0)),
                  determinize=game.has_hidden_information, samples=options.get("samples"))
    bot.engine = "kernel playouts" if kernel is not None else "plain"
    return bot


__all__ = [
    "ALGORITHMS",
    "BASELINES",
    "KIND_LEVELS",
    "LEVEL_ALIASES",
    "LEVEL_NAMES",
    "NAMES",
    "AlphaBetaBot",
    "Analysis",
    "Bot",
    "DeterminizedAlphaBetaBot",
    "KernelAlphaBetaBot",
    "KernelISMCTSBot",
    "KernelPIMCBot",
    "KernelUCTBot",
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
    "spec_for",
]
