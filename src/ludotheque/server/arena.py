"""Arena tournaments' pairing of the waiting pool and their standings (pure: no database).

Rules (docs/tournaments.md, "Arena"):

- Whenever entrants are free (just finished a game, or joined), the whole waiting pool is paired
  at once by a maximum-weight matching of maximum cardinality (``networkx.max_weight_matching``):
  as many games as possible start now. In an odd pool one entrant waits for the next to finish:
  the one who came last (the weights make it so: each paired entrant adds a bonus that grows with
  the time waited, and that bonus outweighs everything else). Then a pair weighs more the closer
  the two scores, then the closer the two ratings.
- No immediate rematch when someone else waits: two entrants whose last game was against each
  other are joined by no edge, unless they are the whole pool and both have waited
  ``REMATCH_AFTER_S`` (the two of a game that just ended wait that long for another game to end,
  so that an even field does not replay the same games over and over).
- Two bots never meet (they are there for the people's practice).
- Seats: whoever had the first seat less often takes it (then whoever waited longer, then the
  earlier entry).
- Points: a win 2, a draw 1, a loss 0 (as lichess, without streaks or berserk). Standings: points,
  then the **performance** (the mean over the entrant's games of the opponent's rating plus 400
  for a win, minus 400 for a loss), then the rating, then the entry.

>>> pool = [Waiting(1, 0, 1500.0, 10.0), Waiting(2, 0, 1600.0, 11.0), Waiting(3, 2, 1500.0, 12.0)]
>>> pair_waiting(pool, now=12.0)
[(1, 2)]
>>> pool = [Waiting(1, 0, 1500.0, 10.0, last_opponent=2), Waiting(2, 2, 1500.0, 10.0, last_opponent=1)]
>>> pair_waiting(pool, now=11.0), rematch_due(pool, now=11.0), pair_waiting(pool, now=12.0)
([], 12.0, [(1, 2)])
>>> rows = arena_standings({1: 1500.0, 2: 1600.0}, [Result(1, 2, 1.0, 0.0)])
>>> [(r.entry, r.points, r.performance) for r in rows]
[(1, 2, 2000), (2, 0, 1100)]
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx  # type: ignore[import-untyped]

# Scores further apart than this (arena points) weigh as this much; ratings likewise.
SCORE_SPREAD = 100
RATING_SPREAD = 4000
WIN, DRAW = 2, 1
PERFORMANCE_STEP = 400
REMATCH_AFTER_S = 2.0


@dataclass(frozen=True)
class Waiting:
    """An entrant free for a game: entry, arena points, rating, waiting since (epoch seconds), the
    entrant met last (``None`` before any game), a bot or not, first seats minus second seats."""

    entry: int
    points: int
    rating: float
    since: float
    last_opponent: int | None = None
    bot: bool = False
    balance: int = 0


@dataclass(frozen=True)
class Result:
    """A scored arena game: each side's entry and its points of the game (1, ½ or 0)."""

    first: int
    second: int
    first_points: float
    second_points: float


@dataclass(frozen=True)
class ArenaRow:
    """One line of an arena's standings (``performance`` is ``None`` before any game)."""

    entry: int
    points: int
    performance: int | None
    games: int
    wins: int
    draws: int
    losses: int


def _just_met(a: Waiting, b: Waiting) -> bool:
    return a.last_opponent == b.entry or b.last_opponent == a.entry


def _may_meet(a: Waiting, b: Waiting, pool_size: int, now: float) -> bool:
    if a.bot and b.bot:
        return False
    alone = pool_size == 2 and now - max(a.since, b.since) >= REMATCH_AFTER_S
    return not _just_met(a, b) or alone


def rematch_due(pool: Sequence[Waiting], now: float) -> float | None:
    """When the pool, if nobody else comes, may be paired again: the moment two who just met
    and wait alone may meet again (``None``: nothing to wait for)."""
    if len(pool) != 2 or not _just_met(*pool) or all(w.bot for w in pool):
        return None
    due = max(w.since for w in pool) + REMATCH_AFTER_S
    return due if due > now else None


def _closeness(a: Waiting, b: Waiting) -> int:
    """Heavier for closer scores, then closer ratings."""
    scores = min(abs(a.points - b.points), SCORE_SPREAD)
    ratings = min(round(abs(a.rating - b.rating)), RATING_SPREAD)
    return (SCORE_SPREAD - scores) * (RATING_SPREAD + 1) + (RATING_SPREAD - ratings)


def pair_waiting(pool: Sequence[Waiting], now: float) -> list[tuple[int, int]]:
    """The games to start now among the waiting ``pool``: ``(first, second)`` entries, the first
    taking the first seat (its team), best-scored pairs first.

    >>> pool = [Waiting(1, 4, 1500.0, 1.0, last_opponent=2), Waiting(2, 0, 1500.0, 1.0, last_opponent=1),
    ...         Waiting(3, 4, 1500.0, 2.0)]
    >>> pair_waiting(pool, now=2.0)  # 1 and 2 just met: 3 plays one of them, the other waits
    [(1, 3)]
    """
    size = len(pool)
    by_arrival = sorted(pool, key=lambda w: (w.since, w.entry))
    # Earlier arrivals bring a larger bonus into any matching that pairs them.
    bonus = {w.entry: size - rank for rank, w in enumerate(by_arrival)}
    unit = (size // 2 + 1) * (SCORE_SPREAD + 1) * (RATING_SPREAD + 1) + 1
    graph = nx.Graph()
    graph.add_nodes_from(w.entry for w in pool)
    for a, b in itertools.combinations(pool, 2):
        if _may_meet(a, b, size, now):
            weight = (bonus[a.entry] + bonus[b.entry]) * unit + _closeness(a, b)
            graph.add_edge(a.entry, b.entry, weight=weight)
    by_entry = {w.entry: w for w in pool}
    pairs = [_seated(by_entry[x], by_entry[y]) for x, y in nx.max_weight_matching(graph, maxcardinality=True)]
    return sorted(pairs, key=lambda p: (-max(by_entry[p[0]].points, by_entry[p[1]].points), min(p)))


def _seated(a: Waiting, b: Waiting) -> tuple[int, int]:
    """Whoever had the first seat less often sits first; then whoever waited longer."""
    first = min(a, b, key=lambda w: (w.balance, w.since, w.entry))
    return (a.entry, b.entry) if first is a else (b.entry, a.entry)


def game_points(points: float) -> int:
    """A game's arena points from its Swiss points: 1 → 2, ½ → 1, 0 → 0."""
    return {1.0: WIN, 0.5: DRAW}.get(points, 0)


def arena_standings(ratings: Mapping[int, float], results: Sequence[Result]) -> list[ArenaRow]:
    """Every entry of ``ratings`` (entry → rating) ranked by points, performance, rating, entry."""
    points = dict.fromkeys(ratings, 0)
    tally: dict[int, list[int]] = {entry: [0, 0, 0] for entry in ratings}  # wins, draws, losses
    performances: dict[int, list[float]] = {entry: [] for entry in ratings}
    for result in results:
        for me, other, mine in ((result.first, result.second, result.first_points),
                                (result.second, result.first, result.second_points)):
            earned = game_points(mine)
            points[me] += earned
            tally[me][{WIN: 0, DRAW: 1}.get(earned, 2)] += 1
            performances[me].append(ratings[other] + PERFORMANCE_STEP * (earned - DRAW))
    rows = []
    for entry in ratings:
        played = performances[entry]
        performance = round(sum(played) / len(played)) if played else None
        wins, draws, losses = tally[entry]
        rows.append(ArenaRow(entry, points[entry], performance, len(played), wins, draws, losses))

    def rank(row: ArenaRow) -> tuple[int, float, float, int]:
        shown = row.performance if row.performance is not None else float("-inf")
        return (-row.points, -shown, -ratings[row.entry], row.entry)

    return sorted(rows, key=rank)
