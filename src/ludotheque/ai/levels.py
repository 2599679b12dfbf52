"""The levels: ONE table of algorithm and budget per game and number of players.

Budgets are depths, node counts and iterations, never wall time, so a level plays the same on
every machine and a seed reproduces its games; the time a level takes per move is measured by
``ludotheque bench GAME --bots easy,medium,hard``. A game with no row of its own uses the row of
its *kind*, derived from its declared facts: two sides (two players, or two teams as in
Ex*Pion) and perfect information (alpha-beta), more sides (MCTS), hidden information
(information-set MCTS). A game's row for ``0`` players serves every player count it has no row for.

>>> import ludotheque
>>> spec = level_for(ludotheque.load("pylos"), "hard")
>>> spec.algorithm, spec.options["depth"]
('alphabeta', 8)
>>> sorted(LEVEL_NAMES)
['easy', 'hard', 'medium']
>>> canonical_level("Difficile"), canonical_level("hasard"), canonical_level("mcts")
('hard', 'random', 'mcts')
>>> level_label("medium", "fr"), level_label("medium", "en")
('moyen', 'medium')
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ..core.contract import Game
from .base import has_two_sides

LEVEL_NAMES = ("easy", "medium", "hard")
ALGORITHMS = ("alphabeta", "mcts", "ismcts", "pimc")
# Every name a bot is known by: DESIGN's (English) names first, then the algorithms.
BOT_NAMES = ("random", *LEVEL_NAMES, *ALGORITHMS)
# The French names people type (the CLI and the pages speak French too), with and without
# accents; each stands for DESIGN's English name, the one games and records store.
FRENCH_NAMES = {
    "random": ("aléatoire", "aleatoire", "hasard"),
    "easy": ("facile",),
    "medium": ("moyen", "moyenne"),
    "hard": ("difficile",),
}
LEVEL_ALIASES: dict[str, str] = {
    alias: name for name, aliases in FRENCH_NAMES.items() for alias in aliases
}


@dataclass(frozen=True)
class LevelSpec:
    """One level: an algorithm name (as ``ai.bot`` knows it), its options and a description.

    ``leaf`` for MCTS is ``"heuristic"`` (the game's evaluator), ``"rollout"`` (random
    playouts) or ``"rollout+heuristic"`` (short playouts, then the evaluator).
    """

    algorithm: str
    options: Mapping[str, Any] = field(default_factory=dict)
    leaf: str = "heuristic"
    description: str = ""


PERFECT_TWO = "two sides, perfect information"
MANY = "three or more sides, perfect information"
HIDDEN = "hidden information"

# (game id, players) -> level -> spec. ``(kind, 0)`` rows are the defaults of each kind.
LEVELS: dict[tuple[str, int], dict[str, LevelSpec]] = {
    (PERFECT_TWO, 0): {
        "easy": LevelSpec("alphabeta", {"depth": 1, "margin": 0.15},
                          description="one ply, a random move among those close to the best"),
        "medium": LevelSpec("alphabeta", {"depth": 3, "nodes": 20_000},
                            description="alpha-beta, 3 plies, at most 20,000 positions"),
        "hard": LevelSpec("alphabeta", {"depth": 5, "nodes": 120_000},
                          description="alpha-beta, 5 plies, at most 120,000 positions"),
    },
    (MANY, 0): {
        "easy": LevelSpec("mcts", {"iterations": 100}, "heuristic",
                          "UCT, 100 iterations, evaluator at the leaves"),
        "medium": LevelSpec("mcts", {"iterations": 600}, "heuristic",
                            "UCT, 600 iterations, evaluator at the leaves"),
        "hard": LevelSpec("mcts", {"iterations": 3000}, "heuristic",
                          "UCT, 3,000 iterations, evaluator at the leaves"),
    },
    (HIDDEN, 0): {
        "easy": LevelSpec("ismcts", {"iterations": 100}, "heuristic",
                          "information-set MCTS, 100 determinized iterations"),
        "medium": LevelSpec("ismcts", {"iterations": 600}, "heuristic",
                            "information-set MCTS, 600 determinized iterations"),
        "hard": LevelSpec("ismcts", {"iterations": 3000}, "heuristic",
                          "information-set MCTS, 3,000 determinized iterations"),
    },
    ("pylos", 2): {
        "easy": LevelSpec("alphabeta", {"depth": 1, "margin": 0.08},
                          description="one ply, a random move among those close to the best"),
        "medium": LevelSpec("alphabeta", {"depth": 2, "nodes": 20_000},
                            description="alpha-beta, 2 plies"),
        "hard": LevelSpec("alphabeta", {"depth": 8, "nodes": 30_000, "deny_gains": True},
                          description="alpha-beta, up to 8 plies within 30,000 positions, "
                                      "never leaving a square to close when it can help it"),
    },
    # Every player count: 3 and 4 players are two teams, searched as two sides. UCT with one
    # tree per player (3,000 iterations, even 12,000) beat 600 only 52.5% with 3 players: the
    # lone North+South player won 39 of 40 games whoever held it.
    ("expion", 0): {
        "easy": LevelSpec("alphabeta", {"depth": 1, "margin": 0.08},
                          description="one ply, a random move among those close to the best"),
        "medium": LevelSpec("alphabeta", {"depth": 2, "nodes": 10_000},
                            description="alpha-beta, 2 plies"),
        # Ex*Pion positions cost about 10 times Pylos ones to generate and key.
        "hard": LevelSpec("alphabeta", {"depth": 6, "nodes": 6_000},
                          description="alpha-beta, up to 6 plies within 6,000 positions"),
    },
    # Imbrication hides only tile orders, from both players (round 1's, then round 4's until
    # round 3 ends), and offers up to 60 placements a turn: information-set MCTS with its
    # evaluator barely improves with iterations there, so the levels search determinizations
    # with alpha-beta (one search per distinct determinization, sharing the node budget). A
    # turn is two moves of one player, a placement then its action, so searches deepen a whole
    # turn at a time. Measured: 4 plies (the opponent's reply turn included) beat 1 ply 85% in
    # 10 games, and 2 plies barely beat 1 (62%); medium at 4,000 positions beat easy only 61%
    # over 37 games (4 plies overran it in most of rounds 4-5), at 15,000 78% over 99. Four
    # plies fit in 15,000 positions almost everywhere, so more positions change little (one
    # sample with 45,000 won 4 of 6 probe games against medium; six plies 2 of 6, over 5 s).
    # What medium lacks is round 1's unknown tiles: one determinization believes one tile order
    # and places pieces that the real tile cannot move (they are removed: 35 of medium's 90
    # round-1 turns in 20 games against hard). Hard averages each placement's exact value over
    # 8 orders (17 of 90 removed; a vote among 3 orders won 3 of 6): 13 of 14 probe games
    # against medium, with more pieces at the end in nearly all; 81% over 40 arena games.
    ("imbrication", 2): {
        "easy": LevelSpec("pimc", {"samples": 1, "depth": 1, "margin": 0.05},
                          description="the placement the evaluator likes, or one close to it"),
        "medium": LevelSpec("pimc", {"samples": 1, "depth": 4, "nodes": 15_000, "depth_step": 2},
                            description="alpha-beta over two whole turns within 15,000 positions "
                                        "(one turn when that overruns), one determinization"),
        "hard": LevelSpec("pimc", {"samples": 8, "depth": 4, "nodes": 45_000, "depth_step": 2},
                          description="alpha-beta over two whole turns on 8 tile orders it cannot "
                                      "know, sharing 45,000 positions, the move best on average"),
    },
    # Plimil's determinize rebuilds hidden stems and blocks (about 5 ms): 64 samples, reused.
    ("plimil", 2): {
        "easy": LevelSpec("ismcts", {"iterations": 100, "samples": 16}, "heuristic",
                          "information-set MCTS, 100 iterations over 16 determinizations"),
        "medium": LevelSpec("ismcts", {"iterations": 600, "samples": 64}, "heuristic",
                            "information-set MCTS, 600 iterations over 64 determinizations"),
        "hard": LevelSpec("ismcts", {"iterations": 2000, "samples": 128}, "heuristic",
                          "information-set MCTS, 2,000 iterations over 128 determinizations"),
    },
}


def canonical_level(name: str) -> str:
    """DESIGN's name of the bot ``name`` (a level, ``random`` or an algorithm), accepting the
    French names and any case or surrounding spaces; raises ``ValueError`` for an unknown name.

    >>> canonical_level("grandmaster")
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'grandmaster'; names: random, easy, medium, hard, alphabeta, mcts, ismcts, pimc
    """
    key = name.strip().lower() if isinstance(name, str) else name
    canonical = LEVEL_ALIASES.get(key, key)
    if canonical not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}; names: {', '.join(BOT_NAMES)}")
    return str(canonical)


def level_label(name: str, lang: str) -> str:
    """How a bot is called for people in ``lang`` (``fr``: its French name; else DESIGN's)."""
    canonical = canonical_level(name)
    if lang == "fr" and canonical in FRENCH_NAMES:
        return FRENCH_NAMES[canonical][0]
    return canonical


def kind_of(game: Game) -> str:
    """The kind of search a game needs, from its declared facts."""
    if game.has_hidden_information:
        return HIDDEN
    return PERFECT_TWO if has_two_sides(game) else MANY


def level_for(game: Game, level: str) -> LevelSpec:
    """The spec of ``level`` (French names accepted) for ``game``; raises ``ValueError`` for an
    unknown level."""
    row = LEVELS.get((game.id, game.players)) or LEVELS.get((game.id, 0)) or LEVELS[(kind_of(game), 0)]
    try:
        return row[LEVEL_ALIASES.get(level.strip().lower(), level.strip().lower())]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVEL_NAMES)}") from None


def describe(game: Game) -> dict[str, str]:
    """Each level's algorithm and budget for ``game``, for people (``ludotheque arena``, help)."""
    return {name: level_for(game, name).description for name in LEVEL_NAMES}
