"""The arena: a round robin between bots, pair scores with 95% intervals and Elo ratings.

Each pair of bots plays ``games`` games. When the game has two sides (``Game.teams``: two players,
or Ex*Pion's two teams) each bot plays one whole side and the sides alternate, so a game always
sets one bot against the other. Otherwise the pair's bots fill the seats in every pattern that
seats both of them, in turn (a pattern and its mirror image follow each other). A game gives each
bot of the pair a score in [0, 1]: ½ plus half the difference between the mean results of its
seats and of the other bot's seats (win 1, draw ½, loss 0); with two sides that is simply win 1,
draw ½, loss 0.

Ratings are the maximum-likelihood Bradley–Terry (Elo) fit of those scores, centred on 0, with
one virtual draw per pair played so that a perfect score keeps a finite rating. A pair's score
interval is Wilson's; a rating's 95% interval is the Wilson interval of that bot's score against
everyone, turned into Elo points: the ratings at which its expected score would reach each end
(the others giving way so that the ratings stay centred). So the two intervals always agree; a
bot that lost every game has no lower bound (``-inf``), one that won every game no upper bound.

Results are appended to ``games.jsonl`` as they arrive, so a run can be resumed. The games are
played here (``jobs`` processes) or on Ray (``ray``: a local Ray or a cluster's address, see
:mod:`ludotheque.ai.remote`); a game's seeds alone decide it, so the results are the same.

Self-play (:func:`run_selfplay`) plays one bot against itself and writes each game as a record
(the format of ``ludotheque replay``), one JSON line per game, for training and research.

>>> [m.seats for m in schedule(["a", "b"], players=2, games=3, seed=0)]
[('a', 'b'), ('b', 'a'), ('a', 'b')]
>>> low, high = wilson(0.5, 100)
>>> round(low, 3), round(high, 3)
(0.404, 0.596)
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import multiprocessing
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from ..core.records import Record
from ..core.registry import load
from .levels import canonical_level
from .remote import RayExecutor, ray_running, unordered_results

Z95 = 1.959964
GAMES_FILE = "games.jsonl"
CONFIG_FILE = "arena.json"


@dataclass(frozen=True)
class Match:
    """One game to play: its index in the schedule, the bot name on each seat and its seed."""

    index: int
    seats: tuple[str, ...]
    seed: int


@dataclass(frozen=True)
class Outcome:
    """A finished game: who sat where, who won, how long it took."""

    index: int
    seats: tuple[str, ...]
    seed: int
    winners: tuple[int, ...]
    plies: int
    reason: str
    seconds: float

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Outcome:
        return cls(
            int(data["index"]),
            tuple(data["seats"]),
            int(data["seed"]),
            tuple(int(w) for w in data["winners"]),
            int(data["plies"]),
            str(data["reason"]),
            float(data["seconds"]),
        )


@dataclass(frozen=True)
class PairScore:
    """How ``first`` fared against ``second``: mean score in [0, 1] and its 95% interval."""

    first: str
    second: str
    games: int
    wins: int
    draws: int
    losses: int
    score: float
    low: float
    high: float


@dataclass(frozen=True)
class Rating:
    name: str
    elo: float
    low: float
    high: float
    games: int


@dataclass(frozen=True)
class ArenaReport:
    game: str
    variant: str
    players: int
    bots: tuple[str, ...]
    outcomes: tuple[Outcome, ...]
    pairs: tuple[PairScore, ...]
    ratings: tuple[Rating, ...]

    def to_json(self) -> dict[str, Any]:
        """JSON data; an unbounded end of a rating's interval is ``null`` (JSON has no infinity)."""
        return {
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "bots": list(self.bots),
            "games": len(self.outcomes),
            "pairs": [asdict(p) for p in self.pairs],
            "ratings": [
                {key: None if isinstance(value, float) and math.isinf(value) else value
                 for key, value in asdict(r).items()}
                for r in self.ratings
            ],
        }


# -- the schedule -----------------------------------------------------------------------------
def seat_patterns(players: int, teams: Sequence[Sequence[int]] | None = None) -> list[tuple[int, ...]]:
    """Which of a pair's two bots (0 or 1) sits on each seat, each pattern followed by its mirror.

    With two sides, a bot holds every seat of one side:

    >>> seat_patterns(2)
    [(0, 1), (1, 0)]
    >>> seat_patterns(4, teams=((0, 2), (1, 3)))
    [(0, 1, 0, 1), (1, 0, 1, 0)]
    >>> seat_patterns(3, teams=((0,), (1, 2)))
    [(0, 1, 1), (1, 0, 0)]

    With more sides, every pattern that seats both bots:

    >>> seat_patterns(3)[:4]
    [(0, 0, 1), (1, 1, 0), (0, 1, 0), (1, 0, 1)]
    """
    if teams is None and players == 2:
        teams = ((0,), (1,))
    if teams is not None and len(teams) == 2:
        first = tuple(0 if seat in teams[0] else 1 for seat in range(players))
        return [first, tuple(1 - b for b in first)]
    patterns: list[tuple[int, ...]] = []
    for pattern in itertools.product((0, 1), repeat=players):
        if 0 < sum(pattern) < players and pattern[0] == 0:
            patterns.append(pattern)
            patterns.append(tuple(1 - b for b in pattern))
    return patterns


def schedule(
    bots: Sequence[str], *, players: int, games: int, seed: int,
    teams: Sequence[Sequence[int]] | None = None,
) -> list[Match]:
    """Every game of the round robin, ``games`` per pair, in a fixed order with fixed seeds."""
    matches: list[Match] = []
    patterns = seat_patterns(players, teams)
    for first, second in itertools.combinations(bots, 2):
        pair = (first, second)
        for k in range(games):
            seats = tuple(pair[b] for b in patterns[k % len(patterns)])
            index = len(matches)
            matches.append(Match(index, seats, game_seed(seed, index)))
    return matches


# -- playing ----------------------------------------------------------------------------------
def play_match(game_id: str, variant: str, players: int, match: Match) -> Outcome:
    """Play one scheduled game to its end; each seat's bot gets its own seed."""
    from . import bot

    game = load(game_id, variant=variant, players=players)
    bots = [bot(name, game, seed=match.seed * 8 + seat) for seat, name in enumerate(match.seats)]
    state = game.new_state(seed=match.seed)
    started = time.perf_counter()
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        state = state.play(bots[mover].choose(state))
    result = state.result()
    return Outcome(
        match.index, match.seats, match.seed, result.winners, state.ply, result.reason,
        time.perf_counter() - started,
    )


def run_arena(
    game_id: str,
    bots: Sequence[str],
    *,
    games: int,
    players: int | None = None,
    variant: str | None = None,
    jobs: int = 1,
    out: Path | None = None,
    resume: bool = False,
    seed: int = 0,
    on_result: Callable[[Outcome, int, int], None] | None = None,
    ray: str | None = None,
) -> ArenaReport:
    """Play the round robin (resuming from ``out`` when asked) and rate the bots, named in
    English or French (``difficile``); the report names them as docs/design.md does (``hard``).

    The games run in ``jobs`` processes, or on Ray when ``ray`` is given: ``"local"`` for a
    local Ray with ``jobs`` CPUs, otherwise a cluster's address (:class:`~.remote.RayExecutor`).

    ``on_result(outcome, done, total)`` hears of each game. Raises ``ValueError`` for fewer than
    two bots, an unknown bot or game, or a resume whose saved settings differ.
    """
    bots = [canonical_level(name) for name in bots]
    if len(set(bots)) < 2 or len(set(bots)) != len(bots):
        raise ValueError(f"the arena needs two or more distinct bots, not {list(bots)!r}")
    game = load(game_id, variant=variant, players=players)
    matches = schedule(bots, players=game.players, games=games, seed=seed, teams=game.teams)
    config = {"game": game.id, "variant": game.variant, "players": game.players,
              "bots": list(bots), "games": games, "seed": seed}
    done = _prepare(out, config, resume)
    results = {o.index: o for o in done if o.index < len(matches) and o.seats == matches[o.index].seats}
    todo = [m for m in matches if m.index not in results]
    calls = [(game.id, game.variant, game.players, m) for m in todo]
    for outcome in run_calls(play_match, calls, jobs=jobs, ray=ray):
        results[outcome.index] = outcome
        if out is not None:
            with (out / GAMES_FILE).open("a", encoding="utf-8") as handle:
                handle.write(json.dumps(asdict(outcome)) + "\n")
        if on_result is not None:
            on_result(outcome, len(results), len(matches))
    outcomes = tuple(results[i] for i in sorted(results))
    report = ArenaReport(
        game.id, game.variant, game.players, tuple(bots), outcomes,
        tuple(pair_scores(outcomes, bots)), tuple(fit_ratings(outcomes, bots)),
    )
    if out is not None:
        write_outputs(report, out)
    return report


def _prepare(out: Path | None, config: dict[str, Any], resume: bool) -> list[Outcome]:
    if out is None:
        return []
    out.mkdir(parents=True, exist_ok=True)
    config_path, games_path = out / CONFIG_FILE, out / GAMES_FILE
    if resume and config_path.exists():
        saved = json.loads(config_path.read_text(encoding="utf-8"))
        if {k: v for k, v in saved.items() if k != "games"} != {
            k: v for k, v in config.items() if k != "games"
        }:
            raise ValueError(f"cannot resume {out}: it holds another arena ({saved!r})")
        config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
        if not games_path.exists():
            return []
        lines = games_path.read_text(encoding="utf-8").splitlines()
        # A line cut short by an interrupted run is dropped: that game is played again.
        outcomes = []
        for line in lines:
            try:
                outcomes.append(Outcome.from_json(json.loads(line)))
            except (ValueError, KeyError, TypeError):
                continue
        # Rewritten with the games kept, so that the next result does not run into a cut line.
        games_path.write_text("".join(json.dumps(asdict(o)) + "\n" for o in outcomes), encoding="utf-8")
        return outcomes
    config_path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    games_path.write_text("", encoding="utf-8")
    return []


def run_calls(
    fn: Callable[..., Any], calls: list[tuple[Any, ...]], *, jobs: int, ray: str | None
) -> Iterator[Any]:
    """``fn(*call)`` for each call, as each finishes: here (one job), in ``jobs`` processes or
    on Ray (``ray``: ``"local"`` or an address). Stopping early (an error, Ctrl-C) stops the
    processes, or cancels the Ray tasks left."""
    if ray is None:
        if jobs <= 1 or len(calls) <= 1:
            yield from (fn(*call) for call in calls)
            return
        # A pool's exit terminates its processes: Ctrl-C does not wait for the games in play.
        # Forking a process that runs Ray (its threads, its signal handlers) is unsafe: spawn then.
        context = multiprocessing.get_context("spawn" if ray_running() else None)
        with context.Pool(processes=min(jobs, len(calls))) as pool:
            yield from pool.imap_unordered(_apply, [(fn, call) for call in calls])
        return
    if not calls:
        return
    executor = RayExecutor(ray, num_cpus=jobs)
    finished = False
    try:
        yield from unordered_results(executor, fn, calls)
        finished = True
    finally:
        executor.shutdown(wait=finished, cancel_futures=not finished)


def _apply(call: tuple[Callable[..., Any], tuple[Any, ...]]) -> Any:
    fn, arguments = call
    return fn(*arguments)


# -- self-play ----------------------------------------------------------------------------------
@dataclass(frozen=True)
class SelfPlayGame:
    """One self-play game: its index and seed, the bot on every seat, the record to replay it,
    and how long it took (the only figures, with the record's times, that vary between runs)."""

    index: int
    seed: int
    level: str
    record: Record
    seconds: float

    def to_json(self) -> dict[str, Any]:
        assert self.record.result is not None
        return {"index": self.index, "seed": self.seed, "level": self.level,
                "winners": list(self.record.result.winners), "plies": len(self.record.moves),
                "seconds": round(self.seconds, 4), "record": self.record.to_json()}

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> SelfPlayGame:
        """Read a line; raises ``ValueError`` (or ``KeyError``, ``TypeError``) when malformed."""
        record = Record.from_json(data["record"])
        if record.result is None:
            raise ValueError("an unfinished game")
        return cls(int(data["index"]), int(data["seed"]), str(data["level"]), record,
                   float(data["seconds"]))


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed`` (the arena's and self-play's)."""
    return seed * 1_000_003 + index


def play_selfplay(game_id: str, variant: str, players: int, level: str, index: int, seed: int
                  ) -> SelfPlayGame:
    """Play one game of ``level`` on every seat (seat ``s`` seeded ``seed * 8 + s``, as in the
    arena) and record it."""
    from . import bot

    game = load(game_id, variant=variant, players=players)
    bots = [bot(level, game, seed=seed * 8 + seat) for seat in range(game.players)]
    state = game.new_state(seed=seed)
    record = Record.start(game, seed)
    moves: list[str] = []
    started = time.perf_counter()
    while not state.is_over:
        mover = state.to_move
        assert mover is not None
        move = bots[mover].choose(state)
        moves.append(str(move))
        state = state.play(move)
    seconds = time.perf_counter() - started
    return SelfPlayGame(index, seed, level, record.with_moves(moves).finished(state.result()), seconds)


def run_selfplay(
    game_id: str,
    level: str,
    *,
    games: int,
    out: Path,
    players: int | None = None,
    variant: str | None = None,
    seed: int = 0,
    jobs: int = 1,
    resume: bool = False,
    ray: str | None = None,
    on_result: Callable[[SelfPlayGame, int, int], None] | None = None,
) -> list[SelfPlayGame]:
    """Play ``games`` games of ``level`` against itself, appending each as a JSON line to
    ``out`` as it ends (in the order they end); with ``resume``, the games already in ``out``
    are kept and only the others played. Returns every game, by index.

    ``jobs`` and ``ray`` as for :func:`run_arena`. Raises ``ValueError`` for an unknown game or
    level, or a resume from a file of another self-play.
    """
    level = canonical_level(level)
    game = load(game_id, variant=variant, players=players)
    from . import bot

    bot(level, game, seed=0)  # an unknown level fails here, not in every task
    settings = (game.id, game.variant, game.players, level)
    done = _saved_selfplay(out, settings, seed) if resume else {}
    out.parent.mkdir(parents=True, exist_ok=True)
    # Rewritten with the games kept: a line cut short must not run into the next one.
    out.write_text("".join(json.dumps(g.to_json(), ensure_ascii=False) + "\n" for g in done.values()),
                   encoding="utf-8")
    results = {i: g for i, g in done.items() if i < games}
    calls = [(*settings, i, game_seed(seed, i)) for i in range(games) if i not in results]
    with out.open("a", encoding="utf-8") as handle:
        for played in run_calls(play_selfplay, calls, jobs=jobs, ray=ray):
            results[played.index] = played
            handle.write(json.dumps(played.to_json(), ensure_ascii=False) + "\n")
            handle.flush()
            if on_result is not None:
                on_result(played, len(results), games)
    return [results[i] for i in sorted(results)]


def _saved_selfplay(out: Path, settings: tuple[str, str, int, str], seed: int) -> dict[int, SelfPlayGame]:
    """The games ``out`` holds; a line cut short by an interrupted run is dropped (that game is
    played again). Raises ``ValueError`` when a game comes from other settings."""
    if not out.exists():
        return {}
    saved: dict[int, SelfPlayGame] = {}
    for line in out.read_text(encoding="utf-8").splitlines():
        try:
            played = SelfPlayGame.from_json(json.loads(line))
        except (ValueError, KeyError, TypeError):
            continue
        record = played.record
        if ((record.game, record.variant, record.players, played.level) != settings
                or played.seed != game_seed(seed, played.index)):
            raise ValueError(f"cannot resume {out}: it holds another self-play "
                             f"({record.game}, {record.variant}, {record.players} players, "
                             f"{played.level}, game seed {played.seed})")
        saved[played.index] = played
    return saved


# -- scores and ratings -----------------------------------------------------------------------
def seat_score(outcome: Outcome, name: str, other: str) -> float:
    """``name``'s score against ``other`` in one game, in [0, 1] (see the module docstring).

    >>> seat_score(Outcome(0, ("a", "b"), 0, (1,), 10, "top", 0.1), "b", "a")
    1.0
    """
    def mean_result(bot: str) -> float:
        seats = [s for s, n in enumerate(outcome.seats) if n == bot]
        if not outcome.winners:
            return 0.5
        return sum(1.0 if s in outcome.winners else 0.0 for s in seats) / len(seats)

    return 0.5 + (mean_result(name) - mean_result(other)) / 2


def wilson(score: float, games: int) -> tuple[float, float]:
    """Wilson's 95% interval for a mean score over ``games`` games."""
    if games == 0:
        return 0.0, 1.0
    z2 = Z95 * Z95
    centre = (score + z2 / (2 * games)) / (1 + z2 / games)
    half = Z95 * math.sqrt(score * (1 - score) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)


def pair_scores(outcomes: Iterable[Outcome], bots: Sequence[str]) -> list[PairScore]:
    """Each pair's score, from the first-named bot's side."""
    table = []
    outcomes = list(outcomes)
    for first, second in itertools.combinations(bots, 2):
        scores = [seat_score(o, first, second) for o in outcomes if set(o.seats) == {first, second}]
        n = len(scores)
        mean = sum(scores) / n if n else 0.5
        low, high = wilson(mean, n)
        table.append(PairScore(
            first, second, n,
            sum(1 for s in scores if s > 0.5), sum(1 for s in scores if s == 0.5),
            sum(1 for s in scores if s < 0.5), mean, low, high,
        ))
    return table


def _fit(scores: list[tuple[int, int, float]], count: int, iterations: int = 300) -> list[float]:
    """Bradley–Terry strengths by Hunter's MM algorithm, as Elo points centred on 0."""
    wins = [0.0] * count
    pairs: dict[tuple[int, int], float] = {}
    for i, j, s in scores:
        wins[i] += s
        wins[j] += 1 - s
        key = (min(i, j), max(i, j))
        pairs[key] = pairs.get(key, 0) + 1
    for i, j in list(pairs):  # one virtual draw per pair played
        wins[i] += 0.5
        wins[j] += 0.5
        pairs[i, j] += 1
    strength = [1.0] * count
    for _ in range(iterations):
        updated = []
        for i in range(count):
            denominator = sum(
                n / (strength[i] + strength[j if i == a else a])
                for (a, j), n in pairs.items() if i in (a, j)
            )
            updated.append(wins[i] / denominator if denominator else strength[i])
        log_mean = sum(math.log(s) for s in updated) / count
        strength = [s / math.exp(log_mean) for s in updated]
    return [400 * math.log10(s) for s in strength]


def expected_score(difference: float) -> float:
    """The expected score of a bot rated ``difference`` Elo points above its opponent.

    >>> expected_score(0.0), round(expected_score(400.0), 3)
    (0.5, 0.909)
    """
    return 1 / (1 + 10 ** (-difference / 400))


def fit_ratings(outcomes: Iterable[Outcome], bots: Sequence[str]) -> list[Rating]:
    """Elo ratings (mean 0) with 95% intervals from Wilson's (module docstring), best first."""
    index = {name: i for i, name in enumerate(bots)}
    scores: list[tuple[int, int, float]] = []
    counts = [0] * len(bots)
    for outcome in outcomes:
        present = sorted(set(outcome.seats), key=index.__getitem__)
        for first, second in itertools.combinations(present, 2):
            scores.append((index[first], index[second], seat_score(outcome, first, second)))
        for name in present:
            counts[index[name]] += 1
    elo = _fit(scores, len(bots))
    ratings = []
    for i, name in enumerate(bots):
        low, high = _rating_interval(i, elo, scores)
        ratings.append(Rating(name, elo[i], min(low, elo[i]), max(high, elo[i]), counts[i]))
    return sorted(ratings, key=lambda r: -r.elo)


def _rating_interval(bot: int, elo: Sequence[float], scores: Sequence[tuple[int, int, float]]
                     ) -> tuple[float, float]:
    """The ratings of ``bot`` at which its expected score against the opponents it met reaches
    the ends of the Wilson interval of the score it made against them."""
    # Each comparison from ``bot``'s side: (opponent, score).
    met = [(j, s) for i, j, s in scores if i == bot] + [(i, 1 - s) for i, j, s in scores if j == bot]
    low_score, high_score = wilson(sum(s for _, s in met) / len(met) if met else 0.5, len(met))
    # Raising ``bot`` by ``shift`` while the others give way evenly (the mean stays 0) widens
    # each difference by shift * n / (n - 1).
    spread = len(elo) / (len(elo) - 1)

    def rating_for(target: float) -> float:
        if not met or target <= 0.0:
            return -math.inf
        if target >= 1.0:
            return math.inf
        lowest, highest = -8000.0, 8000.0
        for _ in range(100):  # bisection: the expected score rises with the rating
            middle = (lowest + highest) / 2
            expected = sum(expected_score(elo[bot] - elo[j] + middle * spread) for j, _ in met) / len(met)
            lowest, highest = (middle, highest) if expected < target else (lowest, middle)
        return elo[bot] + (lowest + highest) / 2

    return rating_for(low_score), rating_for(high_score)


# -- files --------------------------------------------------------------------------------------
def write_outputs(report: ArenaReport, out: Path) -> None:
    """``summary.json``, ``games.csv``, ``pairs.csv``, ``ratings.csv`` and ``ratings.png``."""
    (out / "summary.json").write_text(json.dumps(report.to_json(), indent=2), encoding="utf-8")
    with (out / "games.csv").open("w", newline="", encoding="utf-8") as handle:
        writer = csv.writer(handle)
        writer.writerow(["index", "seed", *[f"seat{s}" for s in range(report.players)],
                         "winners", "plies", "reason", "seconds"])
        for o in report.outcomes:
            writer.writerow([o.index, o.seed, *o.seats, " ".join(map(str, o.winners)), o.plies,
                             o.reason, f"{o.seconds:.3f}"])
    _write_rows(out / "pairs.csv", [asdict(p) for p in report.pairs], list(PairScore.__annotations__))
    _write_rows(out / "ratings.csv", [asdict(r) for r in report.ratings], list(Rating.__annotations__))
    plot_ratings(report, out / "ratings.png")


def _write_rows(path: Path, rows: list[dict[str, Any]], header: list[str]) -> None:
    with path.open("w", newline="", encoding="utf-8") as handle:
        writer = csv.DictWriter(handle, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)


def plot_ratings(report: ArenaReport, path: Path) -> None:
    """A PNG of the ratings with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    ratings = list(reversed(report.ratings))
    figure, axes = plt.subplots(figsize=(6, 1 + 0.5 * len(ratings)))
    positions = range(len(ratings))
    # An unbounded end is drawn to the plot's edge, beyond every finite figure.
    finite = [x for r in ratings for x in (r.low, r.elo, r.high) if math.isfinite(x)]
    edge = max(abs(x) for x in finite) + 200
    axes.errorbar(
        [r.elo for r in ratings], list(positions),
        xerr=[[r.elo - max(r.low, -edge) for r in ratings], [min(r.high, edge) - r.elo for r in ratings]],
        fmt="o", capsize=4,
    )
    axes.set_yticks(list(positions), [r.name for r in ratings])
    axes.set_xlabel("Elo (95% interval)")
    axes.set_title(f"{report.game} ({report.variant}, {report.players} players): "
                   f"{len(report.outcomes)} games")
    figure.tight_layout()
    figure.savefig(path, dpi=100)
    plt.close(figure)
