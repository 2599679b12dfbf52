"""The arena's pairing of its waiting pool (Hypothesis): every pool gets a matching of the most
games the rules allow (no bots together, no immediate rematch while someone else waits), in an
odd pool the last to come is the one left waiting, closer scores meet first, seats go to who had
fewer first seats; and the arena's standings (2/1/0 points, performance)."""

from __future__ import annotations

import itertools

import networkx as nx  # type: ignore[import-untyped]
from hypothesis import given, settings
from hypothesis import strategies as st

from ludotheque.server.arena import (
    REMATCH_AFTER_S,
    Result,
    Waiting,
    arena_standings,
    pair_waiting,
    rematch_due,
)

NOW = 1000.0


@st.composite
def pools(draw: st.DrawFn) -> list[Waiting]:
    size = draw(st.integers(0, 14))
    entries = list(range(1, size + 1))
    pool = []
    for entry in entries:
        last = draw(st.sampled_from([None, *[e for e in entries if e != entry]]))
        pool.append(Waiting(entry, draw(st.integers(0, 20)), draw(st.floats(800, 2400)),
                            NOW - draw(st.floats(0, 10)), last, draw(st.booleans()) and draw(st.booleans()),
                            draw(st.integers(-3, 3))))
    return pool


def allowed(a: Waiting, b: Waiting, size: int) -> bool:
    """The rules, written again: no two bots; no two who just met unless they are the whole pool
    and both waited ``REMATCH_AFTER_S``."""
    if a.bot and b.bot:
        return False
    just_met = a.last_opponent == b.entry or b.last_opponent == a.entry
    return not just_met or (size == 2 and NOW - max(a.since, b.since) >= REMATCH_AFTER_S)


@settings(max_examples=80, deadline=None)
@given(pools())
def test_the_most_games_the_rules_allow(pool: list[Waiting]) -> None:
    pairs = pair_waiting(pool, NOW)
    by_entry = {w.entry: w for w in pool}
    seen = [entry for pair in pairs for entry in pair]
    assert len(seen) == len(set(seen)) and set(seen) <= set(by_entry)
    assert all(allowed(by_entry[a], by_entry[b], len(pool)) for a, b in pairs)
    graph = nx.Graph()
    graph.add_edges_from((a.entry, b.entry) for a, b in itertools.combinations(pool, 2)
                         if allowed(a, b, len(pool)))
    assert len(pairs) == len(nx.max_weight_matching(graph, maxcardinality=True))
    for first, second in pairs:  # the first seat to whoever had it less often
        assert by_entry[first].balance <= by_entry[second].balance


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 7), st.lists(st.integers(0, 30), min_size=15, max_size=15))
def test_in_an_odd_pool_the_last_to_come_waits(half: int, points: list[int]) -> None:
    """People who all may meet: everyone is paired but the latest arrival."""
    pool = [Waiting(n, points[n], 1500.0, NOW - 10 + n) for n in range(2 * half + 1)]
    paired = {entry for pair in pair_waiting(pool, NOW) for entry in pair}
    assert paired == set(range(2 * half))


def test_closer_scores_meet_then_closer_ratings() -> None:
    pool = [Waiting(1, 10, 1500.0, NOW), Waiting(2, 0, 1500.0, NOW), Waiting(3, 9, 2000.0, NOW),
            Waiting(4, 1, 1000.0, NOW)]
    assert {frozenset(p) for p in pair_waiting(pool, NOW)} == {frozenset((1, 3)), frozenset((2, 4))}
    pool = [Waiting(1, 4, 1500.0, NOW), Waiting(2, 4, 1900.0, NOW), Waiting(3, 4, 1510.0, NOW),
            Waiting(4, 4, 1880.0, NOW)]
    assert {frozenset(p) for p in pair_waiting(pool, NOW)} == {frozenset((1, 3)), frozenset((2, 4))}


def test_two_who_just_met_wait_a_moment_for_someone_else() -> None:
    pool = [Waiting(1, 2, 1500.0, NOW - 0.5, 2), Waiting(2, 0, 1500.0, NOW - 0.5, 1)]
    assert pair_waiting(pool, NOW) == [] and rematch_due(pool, NOW) == NOW - 0.5 + REMATCH_AFTER_S
    later = NOW - 0.5 + REMATCH_AFTER_S
    assert len(pair_waiting(pool, later)) == 1 and rematch_due(pool, later) is None
    third = Waiting(3, 0, 1500.0, NOW)
    assert {frozenset(p) for p in pair_waiting([*pool, third], later)} in (
        {frozenset((1, 3))}, {frozenset((2, 3))})
    bots = [Waiting(1, 0, 1500.0, NOW, bot=True), Waiting(2, 0, 1500.0, NOW, bot=True)]
    assert pair_waiting(bots, NOW + 60) == [] and rematch_due(bots, NOW) is None


def test_arena_standings_points_and_performance() -> None:
    ratings = {1: 1500.0, 2: 1700.0, 3: 1600.0, 4: 1500.0}
    results = [Result(1, 2, 1.0, 0.0), Result(3, 1, 0.5, 0.5), Result(2, 3, 0.0, 1.0)]
    rows = {r.entry: r for r in arena_standings(ratings, results)}
    assert (rows[1].points, rows[1].performance, rows[1].wins, rows[1].draws) == (3, (2100 + 1600) // 2, 1, 1)
    assert (rows[3].points, rows[3].performance) == (3, round((1500 + 2100) / 2))
    assert (rows[2].points, rows[2].performance, rows[2].losses) == (0, round((1100 + 1200) / 2), 2)
    assert (rows[4].games, rows[4].performance) == (0, None)
    # 1 and 3 tie on points: 1's performance (1850) is above 3's (1800); at 0 points, a
    # performance (2's) is above none (4 played no game).
    assert [r.entry for r in arena_standings(ratings, results)] == [1, 3, 2, 4]
