"""Swiss pairing properties (Hypothesis): whole tournaments of random results never repeat a
pairing, keep every player's seats balanced within one, give each player a bye at most once
(exactly one bye a round when the field is odd) and pair everyone else; any standings give a
maximal matching without rematches; scores then ratings decide who meets whom; tie-breaks."""

from __future__ import annotations

import itertools
import random

from hypothesis import given, settings
from hypothesis import strategies as st

from ludotheque.server.pairing import (
    FIRST,
    SECOND,
    Outcome,
    Pairing,
    Standing,
    max_rounds,
    pair_round,
    schedule_possible,
    standings,
)


def standings_before(entries: list[int], ratings: dict[int, float], played: list[Outcome]) -> list[Standing]:
    score = dict.fromkeys(entries, 0.0)
    met: dict[int, set[int]] = {e: set() for e in entries}
    seats: dict[int, list[int]] = {e: [] for e in entries}
    byes = set()
    for o in played:
        score[o.first] += o.first_points
        if o.second is None:
            byes.add(o.first)
            continue
        score[o.second] += o.second_points
        met[o.first].add(o.second)
        met[o.second].add(o.first)
        seats[o.first].append(FIRST)
        seats[o.second].append(SECOND)
    return [Standing(e, score[e], ratings[e], frozenset(met[e]), tuple(seats[e]), e in byes) for e in entries]


def check_round(boards: list[Pairing], field: list[Standing]) -> None:
    by_entry = {p.entry: p for p in field}
    seen = [p.first for p in boards] + [p.second for p in boards if p.second is not None]
    assert sorted(seen) == sorted(by_entry), "every player once"
    byes = [p.first for p in boards if p.second is None]
    assert len(byes) == len(field) % 2
    for bye in byes:
        assert not by_entry[bye].had_bye, "a second bye"
    for board in boards:
        if board.second is not None:
            assert board.second not in by_entry[board.first].opponents, "a rematch"


@settings(max_examples=60, deadline=None)
@given(players=st.integers(2, 10), rng=st.randoms(use_true_random=False), data=st.data())
def test_whole_tournaments_keep_every_rule(players: int, rng: random.Random, data: st.DataObject) -> None:
    rounds = data.draw(st.integers(1, min(max_rounds(players), 7)), label="rounds")
    entries = list(range(10, 10 + players))
    ratings = {e: float(rng.choice([1500, rng.uniform(800, 2400)])) for e in entries}
    played: list[Outcome] = []
    for number in range(rounds):
        field = standings_before(entries, ratings, played)
        boards = pair_round(field, rounds - number)
        check_round(boards, field)
        for board in boards:
            if board.second is None:
                played.append(Outcome(board.first, None, 1.0, 0.0))
            else:
                points = rng.choice([1.0, 0.5, 0.0])
                played.append(Outcome(board.first, board.second, points, 1.0 - points))
        for standing in standings_before(entries, ratings, played):
            assert abs(standing.balance) <= 1, "seats balanced within one"


@st.composite
def any_standings(draw: st.DrawFn) -> list[Standing]:
    """Standings of no particular history: random opponents met, seats, byes and scores."""
    players = draw(st.integers(1, 12))
    entries = list(range(players))
    met: dict[int, set[int]] = {e: set() for e in entries}
    for a, b in itertools.combinations(entries, 2):
        if draw(st.booleans()):
            met[a].add(b)
            met[b].add(a)
    field = []
    for e in entries:
        seats = draw(st.sampled_from([(), (FIRST,), (SECOND,), (FIRST, SECOND), (SECOND, FIRST, FIRST)]))
        field.append(Standing(e, draw(st.integers(0, 10)) / 2, draw(st.floats(0, 3000)), frozenset(met[e]),
                              seats, draw(st.booleans())))
    return field


@settings(max_examples=150, deadline=None)
@given(field=any_standings())
def test_any_standings_get_a_maximal_matching_without_rematches(field: list[Standing]) -> None:
    by_entry = {p.entry: p for p in field}
    boards = pair_round(field)
    seen = [p.first for p in boards] + [p.second for p in boards if p.second is not None]
    assert sorted(seen) == sorted(by_entry)
    for board in boards:
        if board.second is not None:
            assert board.second not in by_entry[board.first].opponents
    unpaired = [p.first for p in boards if p.second is None]
    for a, b in itertools.combinations(unpaired, 2):
        assert b in by_entry[a].opponents, f"{a} and {b} could have been paired"


def test_equal_scores_meet_first_then_close_ratings() -> None:
    field = [Standing(0, 2.0, 2000.0), Standing(1, 2.0, 1200.0), Standing(2, 2.0, 1950.0),
             Standing(3, 2.0, 1250.0), Standing(4, 0.0, 2000.0), Standing(5, 0.0, 1990.0)]
    pairs = {frozenset((p.first, p.second)) for p in pair_round(field)}
    assert pairs == {frozenset((0, 2)), frozenset((1, 3)), frozenset((4, 5))}


def test_the_bye_goes_to_the_lowest_ranked_without_one() -> None:
    field = [Standing(0, 1.0, 1500.0), Standing(1, 0.0, 1600.0), Standing(2, 0.0, 1400.0, had_bye=True)]
    assert pair_round(field)[-1] == Pairing(1, None)


def test_seats_alternate_and_due_seats_never_meet() -> None:
    field = [Standing(0, 1.0, 1500.0, seats=(FIRST,)), Standing(1, 1.0, 1500.0, seats=(FIRST,)),
             Standing(2, 0.0, 1500.0, seats=(SECOND,)), Standing(3, 0.0, 1500.0, seats=(SECOND,))]
    boards = pair_round(field)
    assert {(p.first, p.second) for p in boards} <= {(2, 0), (2, 1), (3, 0), (3, 1)}


def test_small_fields_play_a_whole_round_robin() -> None:
    assert all(schedule_possible(n, max_rounds(n)) for n in range(2, 11))
    assert not schedule_possible(6, 6) and not schedule_possible(1, 1)


def test_buchholz_and_sonneborn_berger_by_hand() -> None:
    # A beats B, B draws C, C beats A, D has a bye then loses to A.
    a, b, c, d = 1, 2, 3, 4
    played = [Outcome(a, b, 1.0, 0.0), Outcome(c, None, 1.0, 0.0), Outcome(b, c, 0.5, 0.5),
              Outcome(d, None, 1.0, 0.0), Outcome(c, a, 1.0, 0.0), Outcome(a, d, 1.0, 0.0)]
    rows = {r.entry: r for r in standings([a, b, c, d], played)}
    # Scores: A 2, B 0.5, C 2.5 (a bye), D 1 (a bye).
    assert [rows[e].score for e in (a, b, c, d)] == [2.0, 0.5, 2.5, 1.0]
    assert rows[a].buchholz == 0.5 + 2.5 + 1.0 and rows[a].sonneborn_berger == 0.5 + 1.0
    assert rows[b].buchholz == 2.0 + 2.5 and rows[b].sonneborn_berger == 0.5 * 2.5
    assert rows[c].buchholz == 0.5 + 2.0 and rows[c].sonneborn_berger == 0.5 * 0.5 + 2.0
    assert rows[d].buchholz == 2.0 and rows[d].sonneborn_berger == 0.0
    assert [r.entry for r in standings([a, b, c, d], played)] == [c, a, d, b]
