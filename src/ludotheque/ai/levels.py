"""The levels: an algorithm and budget per level, declared by each game (``GameInfo.levels``).

Budgets are depths, node counts and iterations, never wall time, so a level plays the same on
every machine and a seed reproduces its games; the time a level takes per move is measured by
``ludotheque bench GAME --bots easy,medium,hard``. A game that declares no levels uses those of
its *kind*, derived from its declared facts: two sides (two players, or two teams as in
Ex*Pion) and perfect information (alpha-beta), more sides (MCTS), hidden information
(information-set MCTS). A game's row for ``0`` players serves every player count it has no row for.

>>> import ludotheque
>>> spec = level_for(ludotheque.load("pylos"), "hard")
>>> spec.algorithm, spec.options["depth"]
('alphabeta', 8)
>>> sorted(LEVEL_NAMES)
['easy', 'hard', 'medium']
>>> spec_for(ludotheque.load("pylos"), "uct10k").options
{'iterations': 10000}
>>> "kernel" in spec_for(ludotheque.load("pylos"), "hard-plain").options
False
>>> canonical_level("Difficile"), canonical_level("hasard"), canonical_level("mcts")
('hard', 'random', 'mcts')
>>> canonical_level("Parfait"), spec_for(ludotheque.load("pylos"), "perfect").options
('perfect', {'fallback': 'hard'})
>>> level_label("medium", "fr"), level_label("medium", "en")
('moyen', 'medium')
"""

from __future__ import annotations

from ..core.contract import Game, LevelSpec
from .base import has_two_sides

LEVEL_NAMES = ("easy", "medium", "hard")
ALGORITHMS = ("alphabeta", "mcts", "ismcts", "pimc")
# Fixed baselines, the same for every game and never tuned: the project's own UCT with random
# playouts to the end and no evaluator (inside the game's kernel where it has one), to measure
# the levels against something that does not change.
BASELINES: dict[str, LevelSpec] = {
    "uct10k": LevelSpec("uct", {"iterations": 10_000}, "rollout",
                        "UCT, 10,000 random playouts a move, no evaluator (baseline)"),
    "uct100k": LevelSpec("uct", {"iterations": 100_000}, "rollout",
                         "UCT, 100,000 random playouts a move, no evaluator (baseline)"),
}
# ``perfect``: exact play from a game's solved tables (``ludotheque solve GAME``: its package's
# ``perfect`` and ``solve_command`` modules) wherever they reach, the ``hard`` level elsewhere.
PERFECT = "perfect"
PERFECT_SPEC = LevelSpec(PERFECT, {"fallback": "hard"}, description=(
    "perfect play from the game's solved tables where they reach; the hard level elsewhere, "
    "said so by the bot"))
# ``<level>-plain``: a level as it plays on the plain engine, where the game has no kernel or
# Numba is missing (its options without ``kernel``); Pylos's ``hard-plain`` is the hard level of
# before its kernel, kept for comparisons.
PLAIN_SUFFIX = "-plain"
PLAIN_NAMES = tuple(f"{name}{PLAIN_SUFFIX}" for name in LEVEL_NAMES)
# Every name a bot is known by: the design's (English) names first, then the algorithms, the
# baselines and the levels on the plain engine.
BOT_NAMES = ("random", *LEVEL_NAMES, *ALGORITHMS, *BASELINES, PERFECT, *PLAIN_NAMES)
# The French names people type (the CLI and the pages speak French too), with and without
# accents; each stands for the design's English name, the one games and records store.
FRENCH_NAMES = {
    "random": ("aléatoire", "aleatoire", "hasard"),
    "easy": ("facile",),
    "medium": ("moyen", "moyenne"),
    "hard": ("difficile",),
    PERFECT: ("parfait",),
}
LEVEL_ALIASES: dict[str, str] = {
    alias: name for name, aliases in FRENCH_NAMES.items() for alias in aliases
}


PERFECT_TWO = "two sides, perfect information"
MANY = "three or more sides, perfect information"
HIDDEN = "hidden information"

# The levels of each kind of game, for a game that declares none of its own (``GameInfo.levels``).
KIND_LEVELS: dict[str, dict[str, LevelSpec]] = {
    PERFECT_TWO: {
        "easy": LevelSpec("alphabeta", {"depth": 1, "margin": 0.15},
                          description="one ply, a random move among those close to the best"),
        "medium": LevelSpec("alphabeta", {"depth": 3, "nodes": 20_000},
                            description="alpha-beta, 3 plies, at most 20,000 positions"),
        "hard": LevelSpec("alphabeta", {"depth": 5, "nodes": 120_000},
                          description="alpha-beta, 5 plies, at most 120,000 positions"),
    },
    MANY: {
        "easy": LevelSpec("mcts", {"iterations": 100}, "heuristic",
                          "UCT, 100 iterations, evaluator at the leaves"),
        "medium": LevelSpec("mcts", {"iterations": 600}, "heuristic",
                            "UCT, 600 iterations, evaluator at the leaves"),
        "hard": LevelSpec("mcts", {"iterations": 3000}, "heuristic",
                          "UCT, 3,000 iterations, evaluator at the leaves"),
    },
    HIDDEN: {
        "easy": LevelSpec("ismcts", {"iterations": 100}, "heuristic",
                          "information-set MCTS, 100 determinized iterations"),
        "medium": LevelSpec("ismcts", {"iterations": 600}, "heuristic",
                            "information-set MCTS, 600 determinized iterations"),
        "hard": LevelSpec("ismcts", {"iterations": 3000}, "heuristic",
                          "information-set MCTS, 3,000 determinized iterations"),
    },
}


def canonical_level(name: str) -> str:
    """the design's name of the bot ``name`` (a level, ``random`` or an algorithm), accepting the
    French names and any case or surrounding spaces; raises ``ValueError`` for an unknown name.

    >>> canonical_level("grandmaster")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: unknown bot 'grandmaster'; names: random, easy, medium, hard, alphabeta, ..., hard-plain
    """
    key = name.strip().lower() if isinstance(name, str) else name
    canonical = LEVEL_ALIASES.get(key, key)
    if canonical not in BOT_NAMES:
        raise ValueError(f"unknown bot {name!r}; names: {', '.join(BOT_NAMES)}")
    return str(canonical)


def level_label(name: str, lang: str) -> str:
    """How a bot is called for people in ``lang`` (``fr``: its French name; else the design's)."""
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
    declared = game.info.levels
    row = declared.get(game.players) or declared.get(0) or KIND_LEVELS[kind_of(game)]
    try:
        return row[LEVEL_ALIASES.get(level.strip().lower(), level.strip().lower())]
    except KeyError:
        raise ValueError(f"unknown level {level!r}; levels: {', '.join(LEVEL_NAMES)}") from None


def plain_spec(spec: LevelSpec) -> LevelSpec:
    """``spec`` as it plays on the plain engine: without its ``kernel`` options."""
    options = {key: value for key, value in spec.options.items() if key != "kernel"}
    return LevelSpec(spec.algorithm, options, spec.leaf, spec.description)


def spec_for(game: Game, name: str) -> LevelSpec:
    """The spec of bot ``name`` (any name but ``random``, French names accepted) for ``game``: a
    level, a baseline, a level on the plain engine, or an algorithm with default options."""
    canonical = canonical_level(name)
    if canonical == "random":
        raise ValueError("the random bot has no spec")
    if canonical in LEVEL_NAMES:
        return level_for(game, canonical)
    if canonical in BASELINES:
        return BASELINES[canonical]
    if canonical == PERFECT:
        return PERFECT_SPEC
    if canonical in PLAIN_NAMES:
        return plain_spec(level_for(game, canonical.removesuffix(PLAIN_SUFFIX)))
    return LevelSpec(canonical)


def describe(game: Game) -> dict[str, str]:
    """Each level's algorithm and budget for ``game``, for people (``ludotheque arena``, help)."""
    return {name: level_for(game, name).description for name in LEVEL_NAMES}
