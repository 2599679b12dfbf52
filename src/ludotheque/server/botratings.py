"""The bots' public ratings, calibrated from the arena: each level's score against the level below
(``ludotheque arena``, figures in the README and ``benchmarks/results``) is turned into a rating
difference with the logistic curve that Glicko's expected score uses, from the random bot anchored
at ``RANDOM_ANCHOR``. The hard level searches in the compiled kernel since issue 15; its step is
its score against ``hard-plain``, the hard level of before (whose own step is its score against
medium). A player sees "hard ≈ 2816" beside Pylos's hardest bot, and games against bots are rated
against these fixed numbers (they never move). Each game's package ships its scores, by player
count, in its ``presentation.json`` (``"arena_scores"``), as a game installed from another
distribution does.

>>> bot_rating("pylos", 2, "random"), bot_rating("pylos", 2, "hard")
(600, 2816)
>>> bot_rating("nim", 2, "hard") is None
True
>>> difference(0.5), difference(0.76)
(0, 200)
"""

from __future__ import annotations

import math
from functools import cache

from ..core.registry import games
from .presentation import presentation

RANDOM_ANCHOR = 600
# A level that won every game is not infinitely stronger: the score is capped at this.
MAX_SCORE = 0.99
LEVELS = ("random", "easy", "medium", "hard")
Scores = tuple[float, float, float, float | None]


@cache
def arena_scores() -> dict[tuple[str, int], Scores]:
    """(game, players): the arena's score of easy against random, medium against easy, hard-plain
    against medium, and hard against hard-plain (``None`` where not measured: hard then shows
    hard-plain's rating, a floor, since it searches the same evaluator deeper in the kernel)."""
    found: dict[tuple[str, int], Scores] = {}
    for game in games():
        for players, (easy, medium, plain, hard) in presentation(game).get("arena_scores", {}).items():
            found[game, int(players)] = (easy, medium, plain, hard)
    return found


def difference(score: float) -> int:
    """The rating difference that makes ``score`` the expected score (400·log10(s / (1 − s)))."""
    capped = min(max(score, 1 - MAX_SCORE), MAX_SCORE)
    return round(400 * math.log10(capped / (1 - capped)))


def bot_ratings(game: str, players: int) -> dict[str, int]:
    """Every level's calibrated rating in ``game`` with ``players`` (empty when not measured)."""
    scores = arena_scores().get((game, players))
    if scores is None:
        return {}
    ratings = {"random": RANDOM_ANCHOR}
    for weaker, stronger, score in zip(LEVELS[:-1], LEVELS[1:], scores[:3], strict=True):
        ratings[stronger] = ratings[weaker] + difference(score)
    kernel_step = scores[3]
    if kernel_step is not None:
        ratings["hard"] += difference(kernel_step)
    return ratings


def bot_rating(game: str, players: int, level: str) -> int | None:
    return bot_ratings(game, players).get(level)


def all_bot_ratings() -> list[dict[str, object]]:
    """Every calibrated table, for ``GET /api/bots``."""
    return [{"game": game, "players": players, "ratings": bot_ratings(game, players)}
            for game, players in sorted(arena_scores())]
