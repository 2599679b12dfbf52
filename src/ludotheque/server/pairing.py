"""Swiss pairing of one round, and the standings with their tie-breaks (pure: no database).

Rules (docs/tournaments.md):

- Each round pairs every player once, by a maximum-weight matching of maximum cardinality
  (``networkx.max_weight_matching``): a pair's weight prefers equal scores first (the squared
  difference of their scores), then close ratings. Two players never meet twice.
- Seats: a player's *balance* is their games in the first seat minus those in the second; it
  stays within one (−1, 0 or 1) after every round, so two players due the same seat are never
  paired. Between two players free to take either seat, the one who had the second seat more
  often (then most recently; else the better-ranked) takes the first.
- An odd field: the lowest-ranked player (least score, then lowest rating, then latest entry)
  who has not had a bye yet gets one, worth one point; nobody gets two.
- Look-ahead: a pairing is chosen only if the remaining rounds can still be paired under the same
  rules (no rematch, seats within one, one bye each), so that a short tournament of a small field
  (6 players over 5 rounds: a round robin) never runs out of pairings. Among such pairings, the
  heaviest matching is taken (matchings are tried heaviest first, Lawler's partition).
- Tie-breaks: **Buchholz** (the sum of the final scores of the opponents met; a bye adds nothing)
  and **Sonneborn-Berger** (the sum of the final scores of the opponents beaten, plus half those
  of the opponents drawn). Standings: score, Buchholz, Sonneborn-Berger, then the order given
  (the tournament's: rating at the start, then entry).

>>> field = [Standing(n, 0.0, 1500.0 + 10 * n) for n in range(4)]
>>> [(p.first, p.second) for p in pair_round(field, rounds_left=3)]
[(3, 2), (1, 0)]
>>> played = [Outcome(0, 1, 1.0, 0.0), Outcome(2, None, 1.0, 0.0)]
>>> [(row.entry, row.score, row.buchholz, row.sonneborn_berger) for row in standings([0, 1, 2], played)]
[(0, 1.0, 0.0, 0.0), (2, 1.0, 0.0, 0.0), (1, 0.0, 1.0, 0.0)]
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

import networkx as nx  # type: ignore[import-untyped]

# Ratings further apart than this weigh as this much (a rating difference never outweighs a
# difference of half a point in score).
RATING_SPREAD = 4000
# Work (pairs considered, about a second's) the look-ahead may do for one round before trusting
# that the rest can be paired: small fields over a few rounds are searched completely well
# within it, large ones find a way at once; a deep round robin of a mid-sized field is trusted.
LOOKAHEAD_BUDGET = 400_000
# Up to this many players left, the search pairs the most constrained player first.
MOST_CONSTRAINED_FIRST = 16
# Matchings tried (heaviest first) before pairing without look-ahead.
MATCHINGS_TRIED = 2_000

FIRST, SECOND = 0, 1
_Pairs = frozenset[frozenset[int]]


@dataclass(frozen=True)
class Standing:
    """One player before a round: ``entry`` (any distinct integer), score, rating, the entries
    met, the seats taken so far in order (``FIRST`` or ``SECOND``), whether a bye was had."""

    entry: int
    score: float
    rating: float
    opponents: frozenset[int] = frozenset()
    seats: tuple[int, ...] = ()
    had_bye: bool = False

    @property
    def balance(self) -> int:
        """Games in the first seat minus games in the second."""
        return self.seats.count(FIRST) - self.seats.count(SECOND)


@dataclass(frozen=True)
class Pairing:
    """One board: ``first`` takes the first seat (moves first); ``second`` is ``None`` for a bye."""

    first: int
    second: int | None


@dataclass(frozen=True)
class Outcome:
    """A board's result: the points of each side (a bye: ``second`` is ``None``)."""

    first: int
    second: int | None
    first_points: float
    second_points: float


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    entry: int
    score: float
    buchholz: float
    sonneborn_berger: float
    games: int
    byes: int


def max_rounds(players: int) -> int:
    """The most rounds a field can play without a rematch (a round robin; an odd field's players
    each sit out one round).

    >>> max_rounds(6), max_rounds(7)
    (5, 7)
    """
    return players - 1 if players % 2 == 0 else players


# -- the look-ahead: can the remaining rounds still be paired? ------------------------------------
@dataclass(frozen=True)
class _State:
    """What the rules of later rounds depend on (never the results)."""

    entries: tuple[int, ...]
    balance: tuple[int, ...]
    met: frozenset[frozenset[int]]
    byes: frozenset[int]

    def after(self, pairs: Sequence[tuple[int, int]], bye: int | None) -> _State:
        index = {entry: n for n, entry in enumerate(self.entries)}
        balance = list(self.balance)
        for first, second in pairs:
            balance[index[first]] += 1
            balance[index[second]] -= 1
        met = self.met | {frozenset(pair) for pair in pairs}
        byes = self.byes | {bye} if bye is not None else self.byes
        return _State(self.entries, tuple(balance), met, byes)


class _OutOfBudget(Exception):
    pass


@dataclass
class _Search:
    """A depth-first search for a way to pair the remaining rounds (failures remembered)."""

    budget: int = LOOKAHEAD_BUDGET
    failed: set[tuple[_State, int]] = field(default_factory=set)

    def feasible(self, state: _State, rounds: int) -> bool:
        """Whether ``rounds`` more rounds can be paired from ``state``; ``True`` when the budget
        runs out first (large fields, where a way is almost always found at once)."""
        try:
            return self._feasible(state, rounds)
        except _OutOfBudget:
            return True

    def _feasible(self, state: _State, rounds: int) -> bool:
        if rounds <= 0:
            return True
        if (state, rounds) in self.failed:
            return False
        for pairs, bye in self._rounds(state):
            if self._feasible(state.after(pairs, bye), rounds - 1):
                return True
        self.failed.add((state, rounds))
        return False

    def _spend(self, work: int = 1) -> None:
        self.budget -= work
        if self.budget < 0:
            raise _OutOfBudget

    def _rounds(self, state: _State) -> Iterator[tuple[list[tuple[int, int]], int | None]]:
        balance = dict(zip(state.entries, state.balance, strict=True))
        if len(state.entries) % 2:
            options: list[int | None] = [e for e in reversed(state.entries) if e not in state.byes]
        else:
            options = [None]
        for bye in options:
            left = [entry for entry in state.entries if entry != bye]
            for pairs in self._matchings(left, balance, state.met):
                yield pairs, bye

    def _matchings(self, left: list[int], balance: dict[int, int], met: frozenset[frozenset[int]]
                   ) -> Iterator[list[tuple[int, int]]]:
        """Every complete oriented pairing of ``left`` under the rules (most constrained first)."""
        if not left:
            yield []
            return
        self._spend(len(left) * len(left) if len(left) <= MOST_CONSTRAINED_FIRST else len(left))
        if len(left) <= MOST_CONSTRAINED_FIRST:
            choices = {a: [b for b in left if b != a and seats_for(a, b, balance, met)] for a in left}
            player = min(left, key=lambda a: len(choices[a]))
            partners = choices[player]
        else:  # a large field: the next player, whose partners are many
            player = left[0]
            partners = [b for b in left[1:] if seats_for(player, b, balance, met)]
        for partner in partners:
            rest = [entry for entry in left if entry not in (player, partner)]
            for first, second in seats_for(player, partner, balance, met):
                balance[first] += 1
                balance[second] -= 1
                try:
                    for pairs in self._matchings(rest, balance, met):
                        yield [(first, second), *pairs]
                finally:
                    balance[first] -= 1
                    balance[second] += 1


def seats_for(a: int, b: int, balance: dict[int, int], met: frozenset[frozenset[int]] | set[frozenset[int]]
              ) -> list[tuple[int, int]]:
    """The ways ``a`` and ``b`` may sit (first, second) this round: none if they met, or if
    both are due the same seat.

    >>> seats_for(1, 2, {1: 1, 2: 0}, frozenset())
    [(2, 1)]
    >>> seats_for(1, 2, {1: 1, 2: 1}, frozenset())
    []
    """
    if frozenset((a, b)) in met:
        return []
    return [(x, y) for x, y in ((a, b), (b, a)) if balance[x] <= 0 <= balance[y]]


def schedule_possible(players: int, rounds: int) -> bool:
    """Whether ``players`` can play ``rounds`` rounds under the rules (no rematch, seats within
    one, one bye each).

    >>> schedule_possible(6, 5), schedule_possible(4, 4)
    (True, False)
    """
    if players < 2 or rounds > max_rounds(players):
        return False
    entries = tuple(range(players))
    state = _State(entries, (0,) * players, frozenset(), frozenset())
    return _Search().feasible(state, rounds)


# -- one round ------------------------------------------------------------------------------------
def _rank_key(player: Standing) -> tuple[float, float, int]:
    """Best first: score, rating, earlier entry."""
    return (-player.score, -player.rating, player.entry)


def pair_round(players: Sequence[Standing], rounds_left: int = 1) -> list[Pairing]:
    """Pair one round of ``players`` (``rounds_left``: this one and those after it, which must
    stay pairable). Boards come best-ranked first, the bye last.

    >>> field = [Standing(n, float(n % 2), 1500.0) for n in range(3)]
    >>> pair_round(field)
    [Pairing(first=1, second=0), Pairing(first=2, second=None)]
    """
    ranked = sorted(players, key=_rank_key)
    by_entry = {p.entry: p for p in ranked}
    state = _State(tuple(p.entry for p in ranked), tuple(p.balance for p in ranked),
                   frozenset(frozenset((p.entry, o)) for p in ranked for o in p.opponents),
                   frozenset(p.entry for p in ranked if p.had_bye))
    search = _Search()
    candidates: list[int | None] = [None]
    if len(ranked) % 2:
        candidates = [p.entry for p in reversed(ranked) if not p.had_bye] or [ranked[-1].entry]
    for bye in candidates:
        rest = [p for p in ranked if p.entry != bye]
        if not _some_round(search, state, bye, rounds_left):
            continue
        pairs = _best_feasible(rest, by_entry, state, bye, rounds_left, search)
        if pairs is not None:
            return _boards(pairs, bye, by_entry)
    return _relaxed(ranked)


def _some_round(search: _Search, state: _State, bye: int | None, rounds_left: int) -> bool:
    """Whether this round can be paired with ``bye`` sitting out, the later rounds too."""
    try:
        balance = dict(zip(state.entries, state.balance, strict=True))
        left = [entry for entry in state.entries if entry != bye]
        for pairs in search._matchings(left, balance, state.met):
            if search._feasible(state.after(pairs, bye), rounds_left - 1):
                return True
        return False
    except _OutOfBudget:
        return True


def _weight(a: Standing, b: Standing, top: int, pairs: int) -> int:
    """Heavier for closer scores (half points, squared), then for closer ratings."""
    scores = round(2 * abs(a.score - b.score))
    ratings = min(round(abs(a.rating - b.rating)), RATING_SPREAD)
    return (top * top - scores * scores) * (RATING_SPREAD + 1) * (pairs + 1) + (RATING_SPREAD - ratings)


def _preferred(a: Standing, b: Standing, ways: list[tuple[int, int]], by_entry: dict[int, Standing]
               ) -> list[tuple[int, int]]:
    """The allowed seatings of ``a`` and ``b``, the preferred one first: whoever had the second
    seat more often, then more recently (else the better-ranked), takes the first."""
    def claim(player: Standing) -> tuple[int, int]:
        last = player.seats[-1] if player.seats else FIRST
        return (player.seats.count(SECOND) - player.seats.count(FIRST), last)

    first = min(a, b, key=_rank_key).entry if claim(a) == claim(b) else max(a, b, key=claim).entry
    return sorted(ways, key=lambda way: way[0] != first)


def _best_feasible(rest: list[Standing], by_entry: dict[int, Standing], state: _State, bye: int | None,
                   rounds_left: int, search: _Search) -> list[tuple[int, int]] | None:
    """The heaviest complete pairing of ``rest`` whose seating leaves the later rounds pairable
    (matchings tried heaviest first: Lawler's partition of the solutions)."""
    balance = dict(zip(state.entries, state.balance, strict=True))
    scores = [p.score for p in rest] or [0.0]
    top = round(2 * (max(scores) - min(scores))) + 1  # above any difference, in half points
    weights: dict[frozenset[int], int] = {}
    for a, b in itertools.combinations(rest, 2):
        if seats_for(a.entry, b.entry, balance, state.met):
            weights[frozenset((a.entry, b.entry))] = _weight(a, b, top, len(rest) // 2)
    entries = [p.entry for p in rest]

    def solve(forced: frozenset[frozenset[int]], banned: frozenset[frozenset[int]]
              ) -> tuple[int, list[frozenset[int]]] | None:
        taken = {entry for pair in forced for entry in pair}
        graph = nx.Graph()
        graph.add_nodes_from(e for e in entries if e not in taken)
        for pair, weight in weights.items():
            if pair not in banned and not pair & taken:
                a, b = sorted(pair)
                graph.add_edge(a, b, weight=weight)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        chosen = [frozenset(edge) for edge in matching]
        if 2 * (len(chosen) + len(forced)) != len(entries):
            return None
        return sum(weights[pair] for pair in [*forced, *chosen]), sorted(chosen, key=sorted)

    queue: list[tuple[int, int, _Pairs, _Pairs, list[frozenset[int]]]] = []
    counter = itertools.count()
    first = solve(frozenset(), frozenset())
    if first is None:
        return None
    heapq.heappush(queue, (-first[0], next(counter), frozenset(), frozenset(), first[1]))
    for _ in range(MATCHINGS_TRIED):
        if not queue:
            return None
        _, _, forced, banned, free = heapq.heappop(queue)
        seating = _seating([*forced, *free], by_entry, balance, state, bye, rounds_left, search)
        if seating is not None:
            return seating
        fixed = set(forced)
        for pair in free:
            child = solve(frozenset(fixed), banned | {pair})
            if child is not None:
                heapq.heappush(queue, (-child[0], next(counter), frozenset(fixed), banned | {pair},
                                       [p for p in child[1] if p not in fixed]))
            fixed.add(pair)
    first_pairs = [*first[1]]
    return [_preferred(by_entry[min(p)], by_entry[max(p)], seats_for(min(p), max(p), balance, state.met),
                       by_entry)[0] for p in first_pairs]


def _seating(pairs: list[frozenset[int]], by_entry: dict[int, Standing], balance: dict[int, int],
             state: _State, bye: int | None, rounds_left: int, search: _Search
             ) -> list[tuple[int, int]] | None:
    """The preferred seating of ``pairs`` that leaves the later rounds pairable, or ``None``."""
    options = []
    for pair in pairs:
        a, b = sorted(pair)
        options.append(_preferred(by_entry[a], by_entry[b], seats_for(a, b, balance, state.met), by_entry))
    try:
        for seating in itertools.product(*options):
            search._spend()
            if search._feasible(state.after(list(seating), bye), rounds_left - 1):
                return list(seating)
    except _OutOfBudget:
        return [ways[0] for ways in options]
    return None


def _boards(pairs: list[tuple[int, int]], bye: int | None, by_entry: dict[int, Standing]) -> list[Pairing]:
    def rank(pair: tuple[int, int]) -> tuple[float, float, int]:
        return min(_rank_key(by_entry[pair[0]]), _rank_key(by_entry[pair[1]]))

    boards = [Pairing(first, second) for first, second in sorted(pairs, key=rank)]
    return boards + ([Pairing(bye, None)] if bye is not None else [])


def _relaxed(ranked: list[Standing]) -> list[Pairing]:
    """No pairing keeps every rule (standings of no real history, or a field too small for its
    rounds): never a rematch, as many boards as possible, seats as balanced as possible, the bye
    of an odd field to the lowest-ranked without one; whoever is left unpaired gets a bye too."""
    balance = {p.entry: p.balance for p in ranked}
    count = len(ranked)
    # Who should rather play: the better-ranked, and above all those who had a bye.
    bonus = {p.entry: (count if p.had_bye else 0) + count - rank for rank, p in enumerate(ranked)}
    unit = 4 * count + 4
    graph = nx.Graph()
    graph.add_nodes_from(p.entry for p in ranked)
    for a, b in itertools.combinations(ranked, 2):
        if b.entry not in a.opponents:
            imbalance = min(abs(balance[a.entry] + 1) + abs(balance[b.entry] - 1),
                            abs(balance[a.entry] - 1) + abs(balance[b.entry] + 1))
            weight = unit * (unit - imbalance) + bonus[a.entry] + bonus[b.entry]
            graph.add_edge(a.entry, b.entry, weight=weight)
    pairs = []
    for edge in nx.max_weight_matching(graph, maxcardinality=True):
        a, b = sorted(edge)
        pairs.append((a, b) if balance[a] <= balance[b] else (b, a))
    by_entry = {p.entry: p for p in ranked}
    boards = _boards(pairs, None, by_entry)
    paired = {e for pair in pairs for e in pair}
    unpaired = [p for p in ranked if p.entry not in paired]
    return boards + [Pairing(p.entry, None) for p in sorted(unpaired, key=lambda p: p.had_bye)]


# -- standings --------------------------------------------------------------------------------------
def standings(entries: Sequence[int], outcomes: Sequence[Outcome]) -> list[Row]:
    """Every entry's score, Buchholz and Sonneborn-Berger from the boards played so far (boards
    without a result are left out), best first (ties: the order of ``entries``)."""
    score = dict.fromkeys(entries, 0.0)
    games = dict.fromkeys(entries, 0)
    byes = dict.fromkeys(entries, 0)
    met: dict[int, list[tuple[int, float]]] = {entry: [] for entry in entries}
    for outcome in outcomes:
        score[outcome.first] += outcome.first_points
        if outcome.second is None:
            byes[outcome.first] += 1
            continue
        score[outcome.second] += outcome.second_points
        games[outcome.first] += 1
        games[outcome.second] += 1
        met[outcome.first].append((outcome.second, outcome.first_points))
        met[outcome.second].append((outcome.first, outcome.second_points))
    rows = [Row(entry, score[entry], sum((score[o] for o, _ in met[entry]), 0.0),
                sum((points * score[o] for o, points in met[entry]), 0.0), games[entry], byes[entry])
            for entry in entries]
    order = {entry: n for n, entry in enumerate(entries)}
    return sorted(rows, key=lambda r: (-r.score, -r.buchholz, -r.sonneborn_berger, order[r.entry]))
