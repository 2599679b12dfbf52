"""Analysis of a finished game: for each ply, the evaluation of the position from the side to
move, the best move a search found (with its line), the value of the move played, its loss and
its mark (inaccuracy, mistake, blunder), and a chart of the evaluation over the game.

The searches are the game's compiled kernel's (``GameInfo.load_searches()``): alpha-beta within
``Budget.nodes`` positions for the games that hide nothing and have two sides (Pylos, Ex*Pion),
information-set MCTS with ``Budget.iterations`` iterations over ``Budget.worlds``
determinizations for those that hide information (Imbrication, Plimil). Where no kernel runs
(Numba missing, or ``engine="plain"``), the plain engine's bots search instead (alpha-beta with
the game's evaluator, or information-set MCTS). Everything is a budget of positions or
iterations, never of time, and each search is seeded from (``seed``, ply): an analysis is a pure
function of the record, the perspective, the budget and the seed.

The value of the move played is searched like the best move's: the position after it, searched
one ply shallower than the root search reached (alpha-beta) or with the same iterations (MCTS),
read from the mover's side; ``loss = max(0, best value - played value)``, 0 when the move played
is the best move found. Marks come from per-game thresholds on the loss (``thresholds_for``),
data in ``engines/<id>/analysis.json``, fitted by ``benchmarks/analysis_thresholds.py``
(``docs/analysis.md``).

Where the game is solved on this machine (its package's ``perfect`` module and tables,
:mod:`ludotheque.solved`: Pylos under the kids rules everywhere, the others where their tables
reach), each ply also carries the exact values of the position and of the move played ("wins in
12", "loses in 9"), beside the search's evaluation (which the marks still come from).

Hidden information: by default (``perspective=None``) each move is judged by what its mover knew,
searched over determinizations of ``view(mover)`` before the move; ``perspective=seat`` analyses
only that seat's moves, the same way; ``perspective="spectator"`` searches the true states, every
secret of the finished game revealed. A game that hides nothing is searched on the true states
whatever the perspective.

>>> import ludotheque
>>> from ludotheque import ai
>>> from ludotheque.core.records import Record
>>> game = ludotheque.load("pylos")
>>> record = Record.start(game, seed=0).with_moves(["1a1", "1b1"])
>>> analyse(record)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
ValueError: pylos: the game is not over (2 moves played): only a finished game can be analysed
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal
from xml.sax.saxutils import escape

from . import solved
from .core.contract import Game, Player, State
from .core.records import Record, replay

MARKS = ("inaccuracy", "mistake", "blunder")
"""The marks of a move, from the mildest; a move whose loss reaches none of them has none."""
MARK_WORDS: dict[str, dict[str, str]] = {
    "inaccuracy": {"en": "inaccuracy", "fr": "imprécision"},
    "mistake": {"en": "mistake", "fr": "erreur"},
    "blunder": {"en": "blunder", "fr": "gaffe"},
}
MARK_SYMBOLS = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
SPECTATOR = "spectator"
Perspective = Player | Literal["spectator"] | None
Progress = Callable[[int, int], None]
"""Told ``(plies analysed, plies to analyse)`` after each ply (and ``(0, total)`` first)."""

_SEED_BITS = 63
_MIX = 0x9E3779B97F4A7C15
_MASK = (1 << 64) - 1


@dataclass(frozen=True)
class Budget:
    """What one search may spend: ``nodes`` positions (alpha-beta, to ``depth`` plies at most),
    ``iterations`` (information-set MCTS) over ``worlds`` determinizations, and ``line`` plies
    of the better line kept. ``plain_depth`` and ``plain_iterations`` are the plain engine's
    (no kernel)."""

    nodes: int = 50_000
    depth: int = 64
    iterations: int = 2_000
    worlds: int = 16
    line: int = 6
    plain_depth: int = 2
    plain_iterations: int = 200

    def __post_init__(self) -> None:
        for name, value in asdict(self).items():
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise ValueError(f"analysis budget: {name} must be a positive integer, not {value!r}")

    def scaled(self, factor: float) -> Budget:
        """This budget with its positions and iterations times ``factor`` (at least 1 each)."""
        return replace(self, nodes=max(1, round(self.nodes * factor)),
                       iterations=max(1, round(self.iterations * factor)))


@dataclass(frozen=True)
class Thresholds:
    """The losses (on the [-1, 1] scale, so a loss is at most 2) from which a move is an
    inaccuracy, a mistake, a blunder.

    >>> Thresholds(0.1, 0.2, 0.4).mark(0.25), Thresholds(0.1, 0.2, 0.4).mark(0.05)
    ('mistake', None)
    """

    inaccuracy: float
    mistake: float
    blunder: float

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder <= 2:
            raise ValueError(f"analysis thresholds must rise within (0, 2]: {self}")

    def mark(self, loss: float | None) -> str | None:
        """The mark of a move that lost ``loss``, or ``None``."""
        if loss is None:
            return None
        for name in reversed(MARKS):
            if loss >= getattr(self, name):
                return name
        return None

    def to_json(self) -> dict[str, float]:
        return {name: getattr(self, name) for name in MARKS}


DEFAULT_THRESHOLDS = Thresholds(0.1, 0.25, 0.5)
"""For a game with no ``analysis.json`` (an added game before its thresholds are fitted)."""


@cache
def settings_for(game_id: str) -> Mapping[str, Any]:
    """The game's ``engines/<id>/analysis.json`` (budget and thresholds), ``{}`` when it has none."""
    from .core import info

    package = info(game_id).package
    if not package:
        return {}
    try:
        text = resources.files(package).joinpath("analysis.json").read_text("utf-8")
    except (FileNotFoundError, ModuleNotFoundError, OSError):
        return {}
    data: Mapping[str, Any] = json.loads(text)
    return data


def thresholds_for(game_id: str) -> Thresholds:
    """The fitted thresholds of ``game_id`` (``DEFAULT_THRESHOLDS`` when none are stored)."""
    stored = settings_for(game_id).get("thresholds")
    return Thresholds(**{k: float(stored[k]) for k in MARKS}) if stored else DEFAULT_THRESHOLDS


def budget_for(game_id: str) -> Budget:
    """The default budget of ``game_id``: ``Budget()`` with what its ``analysis.json`` sets."""
    stored = settings_for(game_id).get("budget") or {}
    return Budget(**{key: int(value) for key, value in stored.items()})


@dataclass(frozen=True)
class PlyAnalysis:
    """One move of the game. ``ply`` counts from 0 (the move ``record.moves[ply]``); ``value`` is
    the evaluation of the position before it for the side to move, in [-1, 1]; ``best`` the best
    move found there and ``line`` the line it leads to (``best`` first); ``played_value`` the
    value of the move played for its mover; ``loss`` = best − played (≥ 0); ``mark`` one of
    :data:`MARKS` or ``None``. ``analysed`` is false for a ply the perspective leaves out (another
    seat's move): its numbers are then ``None``. Where the game is solved here (its package's
    tables, :mod:`ludotheque.solved`), ``exact`` is the position's exact value for the mover
    (``{"result": "win" | "loss" | "draw", "plies": n}``: that of its best moves), ``exact_best``
    a move of that value and ``exact_played`` the exact value of the move played (``None``
    where the position after it is not solved); elsewhere all three are ``None``."""

    ply: int
    mover: Player
    move: str
    analysed: bool
    value: float | None = None
    best: str | None = None
    line: tuple[str, ...] = ()
    played_value: float | None = None
    loss: float | None = None
    mark: str | None = None
    searched: int = 0
    exact: dict[str, Any] | None = None
    exact_played: dict[str, Any] | None = None
    exact_best: str | None = None

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["line"] = list(self.line)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> PlyAnalysis:
        """The entry :meth:`to_json` wrote (``KeyError``, ``TypeError``: not one)."""
        known = {name: data[name] for name in cls.__dataclass_fields__ if name in data}
        known["line"] = tuple(str(move) for move in data.get("line") or ())
        return cls(**known)


@dataclass(frozen=True)
class Analysis:
    """A finished game's analysis (:func:`analyse`): one :class:`PlyAnalysis` per move."""

    game: str
    variant: str
    players: int
    teams: tuple[tuple[Player, ...], ...]
    perspective: Perspective
    engine: str
    budget: Budget
    thresholds: Thresholds
    seed: int
    plies: tuple[PlyAnalysis, ...]
    winners: tuple[Player, ...] = ()
    final: float = 0.0  # the end's value for the first side (1 won, -1 lost, 0 drawn)
    extra: dict[str, Any] = field(default_factory=dict)

    def side_of(self, player: Player) -> int:
        return next(i for i, members in enumerate(self.teams) if player in members)

    def for_first_side(self, entry: PlyAnalysis) -> float | None:
        """``entry.value`` read from the first side's point of view (seat 0's team): the chart's."""
        if entry.value is None:
            return None
        return entry.value if self.side_of(entry.mover) == 0 else -entry.value

    def curve(self) -> list[tuple[int, float]]:
        """The chart's points: (ply, evaluation for the first side) of every analysed ply, then
        the end (the ply after the last move)."""
        points = [(e.ply, v) for e in self.plies if (v := self.for_first_side(e)) is not None]
        points.append((len(self.plies), self.final))
        return points

    def summary(self) -> dict[Player, dict[str, float]]:
        """Per player (seat): moves analysed, count of each mark, average loss."""
        out: dict[Player, dict[str, float]] = {}
        for player in range(self.players):
            mine = [e for e in self.plies if e.mover == player and e.analysed and e.loss is not None]
            row: dict[str, float] = {"moves": len(mine)}
            for name in MARKS:
                row[name] = sum(1 for e in mine if e.mark == name)
            row["average_loss"] = round(sum(e.loss or 0.0 for e in mine) / len(mine), 4) if mine else 0.0
            out[player] = row
        return out

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "variant": self.variant,
            "players": self.players,
            "perspective": self.perspective,
            "engine": self.engine,
            "budget": asdict(self.budget),
            "thresholds": self.thresholds.to_json(),
            "seed": self.seed,
            "winners": list(self.winners),
            "teams": [list(team) for team in self.teams],
            "final": self.final,
            "plies": [entry.to_json() for entry in self.plies],
            "summary": {str(k): v for k, v in self.summary().items()},
        }

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Analysis:
        """The analysis :meth:`to_json` wrote (a stored one: the server keeps them as JSON)."""
        perspective = data.get("perspective")
        return cls(
            game=str(data["game"]), variant=str(data["variant"]), players=int(data["players"]),
            teams=tuple(tuple(int(p) for p in team) for team in data["teams"]),
            perspective=perspective if perspective in (None, SPECTATOR) else int(perspective),
            engine=str(data["engine"]), budget=Budget(**data["budget"]),
            thresholds=Thresholds(**{name: float(data["thresholds"][name]) for name in MARKS}),
            seed=int(data["seed"]), plies=tuple(PlyAnalysis.from_json(entry) for entry in data["plies"]),
            winners=tuple(int(p) for p in data.get("winners", ())), final=float(data.get("final", 0.0)),
        )

    def svg(self, lang: str = "en", *, width: int = 640, height: int = 240) -> str:
        """The evaluation over the game as a small SVG document (see :func:`chart_svg`)."""
        return chart_svg(self, lang, width=width, height=height)

    def png(self, path: Path, lang: str = "en") -> Path:
        """The chart as a PNG file at ``path`` (matplotlib); returns ``path``."""
        return chart_png(self, path, lang)


# -- the searches ---------------------------------------------------------------------------------
@dataclass(frozen=True)
class Found:
    """One search's answer: the value for the side to move, the best move and its line (texts),
    the depth reached (alpha-beta) and the positions or iterations spent."""

    value: float
    move: str
    line: tuple[str, ...]
    depth: int
    searched: int


class _Searcher:
    """The searches of one game with one budget: ``root`` (the position before a move, as a state
    or as worlds) and ``after`` (the value of the position after the move played)."""

    engine = ""

    def __init__(self, game: Game, budget: Budget) -> None:
        self.game = game
        self.budget = budget

    def root(self, worlds: Sequence[State], seed: int) -> Found:
        raise NotImplementedError

    def child(self, worlds: Sequence[State], seed: int, depth: int, share: float = 1.0) -> tuple[float, int]:
        """The value for the side to move of ``worlds`` (one position's worlds, all going on,
        with the same legal moves), searched ``depth`` plies (alpha-beta), or with ``share`` of the
        iterations (MCTS: the part of the worlds these are), and the work spent."""
        raise NotImplementedError


class _KernelAlphaBeta(_Searcher):
    engine = "kernel alpha-beta"

    def __init__(self, game: Game, budget: Budget, searches: Any, kernel: Any) -> None:
        super().__init__(game, budget)
        self.searches = searches
        self.kernel = kernel

    def root(self, worlds: Sequence[State], seed: int) -> Found:
        (state,) = worlds
        found = self.searches.alphabeta(state, depth=self.budget.depth, nodes=self.budget.nodes, seed=seed)
        line = tuple(self.kernel.move_text(int(code)) for code in found.line[: self.budget.line])
        return Found(_clamp(found.value), self.kernel.move_text(int(found.move)), line,
                     int(found.depth), int(found.nodes))

    def child(self, worlds: Sequence[State], seed: int, depth: int, share: float = 1.0) -> tuple[float, int]:
        (state,) = worlds
        found = self.searches.alphabeta(state, depth=max(1, depth), nodes=self.budget.nodes, seed=seed)
        return _clamp(found.value), int(found.nodes)


class _KernelISMCTS(_Searcher):
    engine = "kernel information-set MCTS"

    def __init__(self, game: Game, budget: Budget, searches: Any, kernel: Any) -> None:
        super().__init__(game, budget)
        self.searches = searches
        self.kernel = kernel

    def root(self, worlds: Sequence[State], seed: int) -> Found:
        found = self.searches.ismcts(list(worlds), iterations=self.budget.iterations, seed=seed)
        line = tuple(self.kernel.move_text(int(code)) for code in found.line[: self.budget.line])
        return Found(_clamp(found.value), self.kernel.move_text(int(found.move)), line, len(found.line),
                     int(found.nodes))

    def child(self, worlds: Sequence[State], seed: int, depth: int, share: float = 1.0) -> tuple[float, int]:
        iterations = max(min(100, self.budget.iterations), round(self.budget.iterations * share))
        found = self.searches.ismcts(list(worlds), iterations=iterations, seed=seed)
        return _clamp(found.value), int(found.nodes)


class _PlainAlphaBeta(_Searcher):
    engine = "plain alpha-beta"

    def _bot(self, depth: int, seed: int) -> Any:
        from .ai import AlphaBetaBot, evaluator_for

        return AlphaBetaBot(self.game, rng=random.Random(seed), evaluate=evaluator_for(self.game),
                            depth=max(1, depth), nodes=self.budget.nodes)

    def root(self, worlds: Sequence[State], seed: int) -> Found:
        (state,) = worlds
        answer = self._bot(self.budget.plain_depth, seed).analyse(state)
        line = tuple(answer.principal_variation[: self.budget.line]) or (str(answer.best_move),)
        return Found(_clamp(answer.value), str(answer.best_move), line,
                     answer.depth or self.budget.plain_depth, answer.iterations)

    def child(self, worlds: Sequence[State], seed: int, depth: int, share: float = 1.0) -> tuple[float, int]:
        (state,) = worlds
        answer = self._bot(depth, seed).analyse(state)
        return _clamp(answer.value), answer.iterations


class _PlainMCTS(_Searcher):
    """The plain engine's information-set MCTS (evaluator at the leaves), on one of the worlds:
    it determinizes again for the player to move there, so it reads nothing the worlds hide."""

    engine = "plain information-set MCTS"

    def _bot(self, seed: int) -> Any:
        from .ai import MCTSBot, evaluator_for
        from .ai.evaluators import has_evaluator, heuristic_values, rollout_values

        leaf = (heuristic_values(evaluator_for(self.game)) if has_evaluator(self.game)
                else rollout_values(60))
        return MCTSBot(self.game, rng=random.Random(seed), iterations=self.budget.plain_iterations,
                       leaf=leaf, determinize=True)

    def root(self, worlds: Sequence[State], seed: int) -> Found:
        answer = self._bot(seed).analyse(worlds[0])
        line = tuple(answer.principal_variation[: self.budget.line]) or (str(answer.best_move),)
        return Found(_clamp(answer.value), str(answer.best_move), line, len(line), answer.iterations)

    def child(self, worlds: Sequence[State], seed: int, depth: int, share: float = 1.0) -> tuple[float, int]:
        answer = self._bot(seed).analyse(worlds[0])
        return _clamp(answer.value), answer.iterations


def searcher_for(game: Game, budget: Budget, engine: str | None = None) -> _Searcher:
    """The searches an analysis of ``game`` uses: the kernel's where it runs and ``engine`` is not
    ``"plain"``, else the plain engine's. Raises ``ValueError`` for ``engine="kernel"`` where no
    kernel runs, or a game neither can analyse (more than two sides and no hidden information)."""
    if engine not in (None, "kernel", "plain"):
        raise ValueError(f"unknown analysis engine {engine!r}: kernel or plain")
    two_sides = len(game.teams) == 2
    if engine != "plain":
        searches, kernel = game.info.load_searches(), game.info.load_kernel()
        if searches is not None and kernel is not None:
            if game.has_hidden_information and callable(getattr(searches, "ismcts", None)):
                return _KernelISMCTS(game, budget, searches, kernel)
            alphabeta = callable(getattr(searches, "alphabeta", None))
            if not game.has_hidden_information and two_sides and alphabeta:
                return _KernelAlphaBeta(game, budget, searches, kernel)
        if engine == "kernel":
            raise ValueError(f"{game.id}: no compiled kernel search for an analysis here")
    if game.has_hidden_information:
        return _PlainMCTS(game, budget)
    if two_sides and game.info.evaluator is not None:
        return _PlainAlphaBeta(game, budget)
    raise ValueError(f"{game.id}: no search can analyse this game ({len(game.teams)} sides)")


def _clamp(value: float) -> float:
    return max(-1.0, min(1.0, float(value))) if math.isfinite(value) else 0.0


def seed_for(seed: int, ply: int, salt: int) -> int:
    """The seed of one search: a function of the analysis's ``seed``, the ply and which search."""
    mixed = (seed * _MIX + (2 * ply + salt + 1) * 0xBF58476D1CE4E5B9) & _MASK
    mixed ^= mixed >> 31
    return (mixed * 0x94D049BB133111EB & _MASK) >> (64 - _SEED_BITS)


# -- the analysis -----------------------------------------------------------------------------------
def finished_states(record: Record) -> tuple[list[State], tuple[Player, ...]]:
    """Every state of the finished game ``record`` and its winners. A game is finished when its
    last position is over, or when the record has a result although the position goes on (a
    resignation, a flag fallen, a draw agreed: the server's games end so too). Raises
    ``ValueError`` otherwise, and for a record that does not replay (``RecordError``)."""
    states = replay(record)
    final = states[-1]
    if final.is_over:
        return states, tuple(final.result().winners)
    if record.result is not None:
        return states, tuple(record.result.winners)
    raise ValueError(f"{record.game}: the game is not over ({len(record.moves)} moves played): "
                     "only a finished game can be analysed")


def check_perspective(game: Game, perspective: Perspective) -> None:
    """Raise ``ValueError`` unless ``perspective`` is ``None``, ``"spectator"`` or a seat of ``game``."""
    if perspective is not None and perspective != SPECTATOR and (
            isinstance(perspective, bool) or not isinstance(perspective, int)
            or not 0 <= perspective < game.players):
        raise ValueError(f"{game.id}: unknown perspective {perspective!r}: a seat "
                         f"0…{game.players - 1} or {SPECTATOR!r}")


def plies_to_analyse(record: Record, perspective: Perspective = None) -> list[int]:
    """The plies an analysis of ``record`` from ``perspective`` searches (every ply, or only one
    seat's); raises ``ValueError`` as :func:`analyse` does."""
    states, _ = finished_states(record)
    check_perspective(states[0].game, perspective)
    return [ply for ply in range(len(record.moves)) if _wanted(states[ply], perspective)]


def _wanted(before: State, perspective: Perspective) -> bool:
    return perspective in (None, SPECTATOR) or before.to_move == perspective


def analyse(
    record: Record,
    *,
    budget: Budget | None = None,
    perspective: Perspective = None,
    progress: Progress | None = None,
    seed: int = 0,
    engine: str | None = None,
    thresholds: Thresholds | None = None,
) -> Analysis:
    """The analysis of the finished game ``record`` (see the module's text).

    ``budget`` defaults to the game's (``budget_for``), ``thresholds`` to its fitted ones;
    ``perspective`` is ``None`` (each move by what its mover knew), a seat (only that seat's
    moves, by what it knew) or ``"spectator"`` (the true states); ``progress(done, total)`` is
    told after each ply; ``engine`` ``"kernel"`` or ``"plain"`` forces one (default: the kernel
    where it runs). Raises ``ValueError`` for a game not over, a record that does not replay
    (``RecordError``) or a bad perspective.

    It is :func:`analyse_plies` of every ply then :func:`assemble`: each ply's search is seeded
    from the ply alone, so an analysis made in parts (the server's, in its worker processes)
    is this one."""
    states, _ = finished_states(record)
    check_perspective(states[0].game, perspective)
    plies = [ply for ply in range(len(record.moves)) if _wanted(states[ply], perspective)]
    name, entries = analyse_plies(record, plies, budget=budget, perspective=perspective, progress=progress,
                                  seed=seed, engine=engine, thresholds=thresholds, states=states)
    return assemble(record, entries, engine=name, budget=budget, perspective=perspective, seed=seed,
                    thresholds=thresholds)


def analyse_plies(
    record: Record,
    plies: Sequence[int],
    *,
    budget: Budget | None = None,
    perspective: Perspective = None,
    progress: Progress | None = None,
    seed: int = 0,
    engine: str | None = None,
    thresholds: Thresholds | None = None,
    states: Sequence[State] | None = None,
) -> tuple[str, list[PlyAnalysis]]:
    """The searcher's name and the entries of ``plies`` (indices of ``record.moves``) of the
    analysis of ``record`` (same arguments as :func:`analyse`; ``states``: the record replayed,
    when the caller has it). A ply the perspective leaves out is listed, not analysed."""
    if states is None:
        states, _ = finished_states(record)
    game = states[0].game
    check_perspective(game, perspective)
    for ply in plies:
        if isinstance(ply, bool) or not 0 <= ply < len(record.moves):
            raise ValueError(f"{record.game}: no ply {ply!r} to analyse ({len(record.moves)} moves)")
    budget = budget or budget_for(game.id)
    thresholds = thresholds or thresholds_for(game.id)
    searcher = searcher_for(game, budget, engine)
    side = {player: index for index, members in enumerate(game.teams) for player in members}
    hidden = game.has_hidden_information and perspective != SPECTATOR
    todo = sum(1 for ply in plies if _wanted(states[ply], perspective))
    done = 0
    if progress is not None:
        progress(0, todo)
    entries = []
    for ply in plies:
        before, text = states[ply], record.moves[ply]
        mover = before.to_move
        assert mover is not None
        if not _wanted(before, perspective):
            entries.append(PlyAnalysis(ply, mover, text, analysed=False))
            continue
        entries.append(_analyse_ply(searcher, before, text, ply, seed=seed, hidden=hidden,
                                    budget=budget, side=side, thresholds=thresholds))
        done += 1
        if progress is not None:
            progress(done, todo)
    return searcher.engine, entries


def assemble(
    record: Record,
    entries: Iterable[PlyAnalysis],
    *,
    engine: str,
    budget: Budget | None = None,
    perspective: Perspective = None,
    seed: int = 0,
    thresholds: Thresholds | None = None,
) -> Analysis:
    """The :class:`Analysis` of ``record`` made of ``entries`` (from :func:`analyse_plies`, in
    any order, in parts); a ply missing from them is listed as not analysed."""
    states, winners = finished_states(record)
    game = states[0].game
    check_perspective(game, perspective)
    by_ply = {entry.ply: entry for entry in entries}
    plies = []
    for ply, text in enumerate(record.moves):
        mover = states[ply].to_move
        assert mover is not None
        plies.append(by_ply.get(ply) or PlyAnalysis(ply, mover, text, analysed=False))
    teams = tuple(tuple(team) for team in game.teams)
    first = teams[0]
    end = 0.0 if not winners else (1.0 if any(p in first for p in winners) else -1.0)
    return Analysis(game.id, game.variant, game.players, teams, perspective, engine,
                    budget or budget_for(game.id), thresholds or thresholds_for(game.id), seed,
                    tuple(plies), winners, end)


def analyse_part(record_json: Mapping[str, Any], plies: Sequence[int], perspective: Perspective,
                 budget: Mapping[str, int], seed: int = 0, engine: str | None = None) -> dict[str, Any]:
    """:func:`analyse_plies` in JSON, for a worker process or a Ray task (the server's analyses
    run in its bot pool): ``{"engine": name, "plies": [entry, ...]}``."""
    record = Record.from_json(record_json)
    name, entries = analyse_plies(record, list(plies), budget=Budget(**budget), perspective=perspective,
                                  seed=seed, engine=engine)
    return {"engine": name, "plies": [entry.to_json() for entry in entries]}


def analyse_move(state: State, move: str, *, ply: int | None = None, budget: Budget | None = None,
                 spectator: bool = False, seed: int = 0, engine: str | None = None,
                 thresholds: Thresholds | None = None) -> PlyAnalysis:
    """The analysis of one move ``move`` played from ``state`` (ply ``ply``, by default
    ``state.ply``), as :func:`analyse` makes it for each ply: for a game that hides information,
    over determinizations of ``view(mover)`` (so two states that player cannot tell apart give the
    same answer), or over ``state`` itself with ``spectator``."""
    game = state.game
    if state.is_over or state.to_move is None:
        raise ValueError(f"{game.id}: no move to analyse, the game is over (ply {state.ply})")
    budget = budget or budget_for(game.id)
    side = {player: index for index, members in enumerate(game.teams) for player in members}
    return _analyse_ply(searcher_for(game, budget, engine), state, move, state.ply if ply is None else ply,
                        seed=seed, hidden=game.has_hidden_information and not spectator, budget=budget,
                        side=side, thresholds=thresholds or thresholds_for(game.id))


def _analyse_ply(searcher: _Searcher, before: State, text: str, ply: int, *,
                 seed: int, hidden: bool, budget: Budget, side: Mapping[Player, int],
                 thresholds: Thresholds) -> PlyAnalysis:
    mover = before.to_move
    assert mover is not None
    legal = [str(move) for move in before.legal_moves()]
    played = str(before.game.parse_move(before, text))
    if hidden:
        rng = random.Random(seed_for(seed, ply, 2))
        worlds = [before.determinize(mover, rng) for _ in range(budget.worlds)]
    else:
        worlds = [before]
    found = searcher.root(worlds, seed_for(seed, ply, 0))
    if found.move not in legal:
        raise AssertionError(f"{before.game.id}: the analysis's best move {found.move!r} at ply {ply} "
                             "is not legal")
    searched = found.searched
    paired = isinstance(searcher, (_KernelISMCTS, _PlainMCTS))
    base = found.value
    if found.move == played:
        played_value = found.value
    else:
        children = worlds if hidden else [before.play(text)]
        played_value, spent = _value_after(searcher, children, text, mover, ply, seed=seed, salt=3,
                                           depth=found.depth - 1, side=side, hidden=hidden)
        searched += spent
        if paired:  # MCTS: the best move's value searched alike, so that both carry the same bias
            best_after = worlds if hidden else [before.play(found.move)]
            base, spent = _value_after(searcher, best_after, found.move, mover, ply, seed=seed, salt=4,
                                       depth=found.depth - 1, side=side, hidden=hidden)
            searched += spent
    loss = 0.0 if found.move == played else max(0.0, base - played_value)
    loss = round(loss, 4)
    exact = solved.exact_of_move(before, played)
    return PlyAnalysis(ply, mover, text, True, round(found.value, 4), found.move, found.line,
                       round(played_value, 4), loss, thresholds.mark(loss) if loss > 0 else None, searched,
                       *(exact or (None, None, None)))


def _value_after(searcher: _Searcher, worlds: Sequence[State], text: str, mover: Player, ply: int, *,
                 seed: int, salt: int, depth: int, side: Mapping[Player, int],
                 hidden: bool) -> tuple[float, int]:
    """The value for ``mover`` of the move ``text``: from ``worlds`` after it (``hidden``: the
    worlds before it, each played on), ended ones scored exactly, the others searched in groups
    that share the player to move and the legal moves (split by the public view where the
    search finds they hold different positions: what a move drew can differ between worlds),
    weighted by their number."""
    children = [world.play(text) for world in worlds] if hidden else list(worlds)
    total = 0.0
    spent = 0
    groups: dict[tuple[Player, tuple[str, ...]], list[State]] = {}
    for child in children:
        if child.is_over:
            winners = child.result().winners
            total += 0.0 if not winners else (1.0 if any(side[p] == side[mover] for p in winners) else -1.0)
            continue
        assert child.to_move is not None
        groups.setdefault((child.to_move, tuple(str(m) for m in child.legal_moves())), []).append(child)
    number = 0
    for (to_move, _), group in sorted(groups.items(), key=lambda item: item[0]):
        try:
            parts = [group]
            found = [searcher.child(group, seed_for(seed, ply, salt + 4 * number), depth,
                                    len(group) / len(children))]
        except ValueError:  # the worlds do not hold one position (a move drew different things)
            by_view: dict[str, list[State]] = {}
            for child in group:
                public = json.dumps(child.view(None), sort_keys=True, default=str)
                by_view.setdefault(public, []).append(child)
            parts = [by_view[key] for key in sorted(by_view)]
            found = [searcher.child(part, seed_for(seed, ply, salt + 4 * (number + index)), depth,
                                    len(part) / len(children)) for index, part in enumerate(parts)]
        number += len(parts)
        for part, (value, work) in zip(parts, found, strict=True):
            spent += work
            total += len(part) * (value if side[to_move] == side[mover] else -value)
    return total / len(children), spent


# -- the chart --------------------------------------------------------------------------------------
_CHART_WORDS = {
    "title": {"en": "Evaluation over the game", "fr": "Évaluation au fil de la partie"},
    "desc": {
        "en": "{game}: evaluation for {first} after each ply, from -1 (lost) to +1 (won); "
              "{counts}.",
        "fr": "{game} : évaluation pour {first} à chaque coup, de -1 (perdu) à +1 (gagné) ; "
              "{counts}.",
    },
    "first": {"en": "the first player", "fr": "le premier joueur"},
    "ply": {"en": "ply", "fr": "coup"},
    "loss": {"en": "loss", "fr": "perte"},
    "best": {"en": "best", "fr": "meilleur"},
}
_SHAPES = {"inaccuracy": "circle", "mistake": "square", "blunder": "triangle"}
_COLOURS = {"inaccuracy": "#e6a000", "mistake": "#d55e00", "blunder": "#9e0059"}  # Okabe–Ito-like


def _word(key: str, lang: str) -> str:
    words = _CHART_WORDS[key]
    return words.get(lang, words["en"])


def mark_word(mark: str, lang: str) -> str:
    """A mark's word in ``lang`` (``fr`` or ``en``)."""
    return MARK_WORDS[mark].get(lang, MARK_WORDS[mark]["en"])


def chart_svg(analysis: Analysis, lang: str = "en", *, width: int = 640, height: int = 240) -> str:
    """The evaluation for the first side over the plies as an SVG document: a line from -1 to +1,
    each marked move a shape (inaccuracy a circle, mistake a square, blunder a triangle) with
    its own title, and an accessible ``title`` and ``desc``. Each point carries ``data-ply`` for a
    page to show that ply's better line."""
    pad = 28
    points = analysis.curve()
    last = max(1, len(analysis.plies))

    def x(ply: float) -> float:
        return round(pad + (width - 2 * pad) * ply / last, 1)

    def y(value: float) -> float:
        return round(height / 2 - (height / 2 - pad) * value, 1)

    counts = ", ".join(f"{sum(1 for e in analysis.plies if e.mark == m)} {mark_word(m, lang)}"
                       for m in MARKS)
    desc = _word("desc", lang).format(game=analysis.game, first=_word("first", lang), counts=counts)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
        f'height="{height}" role="img" aria-labelledby="evaluation-chart-title evaluation-chart-desc" '
        'class="analysis-chart">',
        f'<title id="evaluation-chart-title">{escape(_word("title", lang))}</title>',
        f'<desc id="evaluation-chart-desc">{escape(desc)}</desc>',
        f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>',
        f'<line x1="{pad}" y1="{y(0)}" x2="{width - pad}" y2="{y(0)}" stroke="#888888" '
        'stroke-dasharray="4 3"/>',
        f'<line x1="{pad}" y1="{y(1)}" x2="{pad}" y2="{y(-1)}" stroke="#888888"/>',
        f'<text x="{pad - 4}" y="{y(1) + 4}" font-size="10" text-anchor="end">+1</text>',
        f'<text x="{pad - 4}" y="{y(0) + 4}" font-size="10" text-anchor="end">0</text>',
        f'<text x="{pad - 4}" y="{y(-1) + 4}" font-size="10" text-anchor="end">-1</text>',
        f'<text x="{width - pad}" y="{height - 6}" font-size="10" text-anchor="end">'
        f'{escape(_word("ply", lang))} {last}</text>',
    ]
    if points:
        path = " ".join(f"{x(p)},{y(v)}" for p, v in points)
        parts.append(f'<polyline points="{path}" fill="none" stroke="#0072b2" stroke-width="1.5"/>')
    for entry in analysis.plies:
        value = analysis.for_first_side(entry)
        if value is None:
            continue
        cx, cy = x(entry.ply), y(value)
        label = f"{_word('ply', lang)} {entry.ply + 1}: {entry.move}"
        if entry.mark:
            label += (f" — {mark_word(entry.mark, lang)} ({_word('loss', lang)} {entry.loss:.2f}, "
                      f"{_word('best', lang)} {entry.best})")
        tip = f"<title>{escape(label)}</title>"
        attrs = f'data-ply="{entry.ply}" class="ply{" " + entry.mark if entry.mark else ""}"'
        if entry.mark is None:
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="2" fill="#0072b2" {attrs}>{tip}</circle>')
            continue
        colour = _COLOURS[entry.mark]
        shape = _SHAPES[entry.mark]
        if shape == "circle":
            parts.append(f'<circle cx="{cx}" cy="{cy}" r="4.5" fill="{colour}" {attrs}>{tip}</circle>')
        elif shape == "square":
            parts.append(f'<rect x="{cx - 4.5}" y="{cy - 4.5}" width="9" height="9" fill="{colour}" '
                         f'{attrs}>{tip}</rect>')
        else:
            parts.append(f'<polygon points="{cx},{cy - 6} {cx - 6},{cy + 5} {cx + 6},{cy + 5}" '
                         f'fill="{colour}" {attrs}>{tip}</polygon>')
    parts.append("</svg>")
    return "\n".join(parts)


def chart_png(analysis: Analysis, path: Path, lang: str = "en") -> Path:
    """The chart of :func:`chart_svg` drawn by matplotlib (``Agg``) into the PNG file ``path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(8, 3), dpi=100)
    try:
        points = analysis.curve()
        axes.plot([p for p, _ in points], [v for _, v in points], color="#0072b2", linewidth=1.5)
        axes.axhline(0, color="#888888", linestyle="--", linewidth=0.8)
        markers = {"inaccuracy": "o", "mistake": "s", "blunder": "^"}
        for name in MARKS:
            marked = [(e.ply, v) for e in analysis.plies
                      if e.mark == name and (v := analysis.for_first_side(e)) is not None]
            if marked:
                axes.scatter([p for p, _ in marked], [v for _, v in marked], marker=markers[name],
                             color=_COLOURS[name], label=mark_word(name, lang), zorder=3)
        axes.set_ylim(-1.05, 1.05)
        axes.set_xlim(0, max(1, len(analysis.plies)))
        axes.set_xlabel(_word("ply", lang))
        axes.set_title(f"{analysis.game} — {_word('title', lang)}")
        if any(e.mark for e in analysis.plies):
            axes.legend(loc="lower left", fontsize="small")
        figure.tight_layout()
        figure.savefig(path, format="png")
    finally:
        plt.close(figure)
    return path


__all__ = [
    "MARKS",
    "MARK_WORDS",
    "SPECTATOR",
    "Analysis",
    "Budget",
    "PlyAnalysis",
    "Thresholds",
    "analyse",
    "analyse_move",
    "analyse_part",
    "analyse_plies",
    "assemble",
    "budget_for",
    "chart_png",
    "chart_svg",
    "check_perspective",
    "finished_states",
    "mark_word",
    "plies_to_analyse",
    "searcher_for",
    "seed_for",
    "thresholds_for",
]
