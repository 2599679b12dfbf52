"""Alpha-beta search (negamax) for games of perfect information played by two sides.

A side is a player, or a team whose members win and lose together (``Game.teams``: Ex*Pion with
3 or 4 players is North+South against East+West): the search negates a value only when the move
passes to the other side, and the evaluator scores a position for a player's whole side.

Iterative deepening up to ``depth``, a transposition table keyed by the full state's JSON
(see :func:`~ludotheque.ai.evaluators.position_key`), and move ordering by the table's best move,
killer moves and a history table. The budget is a depth and a node count, never wall time: the
deepest iteration that overruns ``nodes`` is abandoned and the previous one answers, so a search
is the same on every machine. Every position a search reaches counts, those that end the game
included (a last turn may offer thousands of them). When not even the first iteration fits, the
bot still answers with a searched move: each root move's position is evaluated, one ply deep.

>>> import ludotheque, random
>>> from ludotheque.ai.evaluators import evaluator_for
>>> game = ludotheque.load("pylos")
>>> bot = AlphaBetaBot(game, rng=random.Random(0), evaluate=evaluator_for(game), depth=2)
>>> analysis = bot.analyse(game.new_state())
>>> analysis.depth, analysis.best_move in game.new_state().legal_moves()
(2, True)
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from ..core.contract import Game, Player, State
from .base import Analysis, Bot, Evaluator, Progress, has_two_sides, report, terminal_values
from .evaluators import GainDetector, position_key

# Evaluations are scaled below every proven result so that a win always outranks a good position.
_HEURISTIC_SCALE = 0.9
_WIN = 1.0
# A win found sooner scores higher (and a loss later): one step per ply of distance.
_PER_PLY = 0.0005
_EXACT, _LOWER, _UPPER = 0, 1, 2
# How often (in nodes) a search with a node budget tells its progress callback.
_PROGRESS_EVERY = 1024


@dataclass(frozen=True)
class SearchOptions:
    """What one alpha-beta search reads: the options of :class:`AlphaBetaBot` (see there)."""

    evaluate: Evaluator
    depth: int = 4
    nodes: int | None = None
    margin: float = 0.0
    depth_step: int = 1
    deny: GainDetector | None = None
    algorithm: str = "alphabeta"
    exact_root: bool = False

    def __post_init__(self) -> None:
        if self.depth < 1 or self.depth_step < 1:
            raise ValueError(
                f"alpha-beta depth and depth_step must be at least 1, not {self.depth!r}, {self.depth_step!r}"
            )


class _OutOfBudget(Exception):
    """The node budget ran out in the middle of an iteration."""


@dataclass(slots=True)
class _Entry:
    depth: int
    value: float
    bound: int
    best: str | None


class AlphaBetaBot(Bot):
    """Negamax with alpha-beta pruning; options are keyword-only.

    ``evaluate(state, player)`` scores leaves; ``depth`` is the deepest iteration; ``nodes``
    bounds the positions visited in all (``None``: no bound); ``margin`` > 0 makes the bot pick
    at random among root moves within ``margin`` of the best (exact root values are then
    searched), a weaker and more varied play for easy levels; ``depth_step`` > 1 deepens by that
    many plies at a time, so that a search cut short by ``nodes`` still ends on a whole turn
    (games whose turn is two moves of one player). ``deny(state)`` (the game's
    ``immediate_gain``), when given, makes the root prefer the best move after which the opponent
    has no immediate gain, unless a proven win is found or every such move is a proven loss: a
    search horizon may rate a conceded square as an even trade, a strong player does not.
    Raises ``ValueError`` unless the game has two sides (``Game.teams``) and no hidden information.
    """

    algorithm = "alphabeta"

    def __init__(
        self,
        game: Game,
        *,
        rng: random.Random | None = None,
        evaluate: Evaluator,
        depth: int = 4,
        nodes: int | None = None,
        margin: float = 0.0,
        depth_step: int = 1,
        deny: GainDetector | None = None,
    ) -> None:
        if not has_two_sides(game) or game.has_hidden_information:
            raise ValueError(
                f"{game.id}: alpha-beta needs two players (or two teams) and perfect information "
                f"({game.players} players in {len(game.teams)} sides, "
                f"hidden information: {game.has_hidden_information})"
            )
        super().__init__(game, rng=rng)
        self.options = SearchOptions(evaluate, depth, nodes, margin, depth_step, deny, self.algorithm)

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        self._check_playable(state)
        return search(self.options, state, self.rng_for(state), progress)


def search(
    options: SearchOptions, state: State, rng: random.Random, progress: Progress | None = None
) -> Analysis:
    """One iterative-deepening search of ``state`` (a full state: the caller answers for what it
    may know, e.g. a determinization), with ``rng`` breaking ties."""
    return _Search(options, state, rng, progress).run()


def search_values(
    options: SearchOptions, state: State, rng: random.Random
) -> tuple[Analysis, dict[str, float]]:
    """:func:`search`, and the value of every root move (text → value for the player to move) at
    the deepest depth completed; exact for all of them when ``options.exact_root``, otherwise
    only for the best (the others are bounds)."""
    run = _Search(options, state, rng, None)
    analysis = run.run()
    return analysis, run.values


class _Search:
    """One decision: its table, counters and ordering heuristics live and die with it, which keeps
    ``choose`` a pure function of (seed, state)."""

    def __init__(
        self, options: SearchOptions, root: State, rng: random.Random, progress: Progress | None
    ) -> None:
        self.options = options
        self.root = root
        self.rng = rng
        self.progress = progress
        self.side_of: dict[Player, int] = {
            player: side for side, members in enumerate(root.game.teams) for player in members
        }
        self.table: dict[str, _Entry] = {}
        self.history: dict[str, int] = {}
        self.killers: dict[int, list[str]] = {}
        self.values: dict[str, float] = {}
        self.count = 0
        self.bounded = options.nodes is not None
        self.reported = 0.0

    # -- iterative deepening -------------------------------------------------------------------
    def run(self) -> Analysis:
        moves = self.root.legal_moves()
        # Ties are broken by a seeded shuffle, so different seeds play different games.
        self.rng.shuffle(moves)
        best_move: Any = moves[0]
        best_value = 0.0
        values: dict[str, float] = {}
        completed = 0
        for depth in range(self.options.depth_step, self.options.depth + 1, self.options.depth_step):
            try:
                values = self._root_values(moves, depth)
            except _OutOfBudget:
                break
            completed = depth
            moves.sort(key=lambda m: -values[str(m)])
            best_move, best_value = self._pick(moves, values)
            if self.options.nodes is None:
                self._report(depth / self.options.depth)
            if abs(best_value) >= _WIN - _PER_PLY * (depth + 1):
                break  # a proven result: deeper search cannot change it
        if not completed:
            best_move, best_value, values = self._one_ply(moves)
            completed = 1
        if self.options.deny is not None:
            best_move, best_value = self._deny_gains(moves, values, best_move, best_value)
        report(self.progress, 1.0)
        self.values = values
        return Analysis(
            value=max(-1.0, min(1.0, best_value)),
            best_move=best_move,
            principal_variation=self._principal_variation(best_move),
            iterations=self.count,
            depth=completed,
            algorithm=self.options.algorithm,
        )

    def _root_values(self, moves: list[Any], depth: int) -> dict[str, float]:
        """Each root move's value: exact for the best, and for every move with ``exact_root``
        (or for those within ``margin`` of the best)."""
        mover = self.root.to_move
        assert mover is not None
        alpha = -2 * _WIN
        values: dict[str, float] = {}
        for move in moves:
            child = self.root.play(move)
            window = -2 * _WIN if self.options.exact_root else alpha - self.options.margin
            value = self._child_value(child, mover, depth - 1, window, 2 * _WIN, 1)
            values[str(move)] = value
            alpha = max(alpha, value)
        best = max(moves, key=lambda m: values[str(m)])
        self.table[position_key(self.root)] = _Entry(depth, values[str(best)], _EXACT, str(best))
        return values

    def _one_ply(self, moves: list[Any]) -> tuple[Any, float, dict[str, float]]:
        """The answer when the budget cannot hold one whole iteration: every root move's position
        evaluated, beyond the budget (as many positions as root moves)."""
        self.bounded = False
        values = self._root_values(moves, 1)
        moves.sort(key=lambda m: -values[str(m)])
        best_move, best_value = self._pick(moves, values)
        return best_move, best_value, values

    def _deny_gains(
        self, ordered: list[Any], values: dict[str, float], best_move: Any, best_value: float
    ) -> tuple[Any, float]:
        """The best root move that leaves the opponent no immediate gain, if one exists that is
        not a proven loss; the search's own choice when it proved a win."""
        assert self.options.deny is not None
        if best_value > _HEURISTIC_SCALE:
            return best_move, best_value
        mover = self.root.to_move
        assert mover is not None
        for move in ordered:  # best first
            value = values[str(move)]
            if value < -_HEURISTIC_SCALE:
                break
            child = self.root.play(move)
            if child.is_over or self._same_side(child, mover) or not self.options.deny(child):
                return move, value
        return best_move, best_value

    def _pick(self, ordered: list[Any], values: dict[str, float]) -> tuple[Any, float]:
        best_value = values[str(ordered[0])]
        if self.options.margin <= 0:
            return ordered[0], best_value
        close = [m for m in ordered if values[str(m)] >= best_value - self.options.margin]
        chosen = self.rng.choice(close)
        return chosen, values[str(chosen)]

    # -- negamax ------------------------------------------------------------------------------
    def _child_value(
        self, child: State, mover: Player, depth: int, alpha: float, beta: float, ply: int
    ) -> float:
        """The value of ``child`` for ``mover`` (who just moved): the child's negamax value,
        negated when the turn passed to the other side (a game may give one player two turns,
        and a teammate's turn is the same side's)."""
        self._count_node()
        if child.is_over:
            return self._terminal(child, mover, ply)
        if self._same_side(child, mover):
            return self._negamax(child, depth, alpha, beta, ply)
        return -self._negamax(child, depth, -beta, -alpha, ply)

    def _same_side(self, state: State, player: Player) -> bool:
        """Whether the player to move in ``state`` plays on ``player``'s side."""
        assert state.to_move is not None
        return self.side_of[state.to_move] == self.side_of[player]

    def _count_node(self) -> None:
        self.count += 1
        if self.bounded:
            assert self.options.nodes is not None
            if self.count > self.options.nodes:
                raise _OutOfBudget
            if self.count % _PROGRESS_EVERY == 0:
                self._report(self.count / self.options.nodes)

    def _negamax(self, state: State, depth: int, alpha: float, beta: float, ply: int) -> float:
        mover = state.to_move
        assert mover is not None
        if depth <= 0:
            return _HEURISTIC_SCALE * self.options.evaluate(state, mover)
        key = position_key(state)
        entry = self.table.get(key)
        if entry is not None and entry.depth >= depth:
            if entry.bound == _EXACT:
                return entry.value
            if entry.bound == _LOWER and entry.value >= beta:
                return entry.value
            if entry.bound == _UPPER and entry.value <= alpha:
                return entry.value
        original_alpha = alpha
        best_value = -2 * _WIN
        best_text: str | None = None
        for move in self._ordered(state.legal_moves(), entry, ply):
            value = self._child_value(state.play(move), mover, depth - 1, alpha, beta, ply + 1)
            if value > best_value:
                best_value, best_text = value, str(move)
            if value > alpha:
                alpha = value
            if alpha >= beta:
                self._reward(best_text, depth, ply)
                break
        bound = _UPPER if best_value <= original_alpha else _LOWER if best_value >= beta else _EXACT
        self.table[key] = _Entry(depth, best_value, bound, best_text)
        return best_value

    def _report(self, fraction: float) -> None:
        """Progress, by nodes spent when the budget is in nodes, else by depths done; never back."""
        if fraction > self.reported:
            self.reported = fraction
            report(self.progress, fraction)

    def _terminal(self, state: State, mover: Player, ply: int) -> float:
        value = terminal_values(state)[mover]
        return value * (_WIN - _PER_PLY * ply)

    # -- move ordering ----------------------------------------------------------------------------
    def _ordered(self, moves: list[Any], entry: _Entry | None, ply: int) -> list[Any]:
        first = entry.best if entry is not None else None
        killers = self.killers.get(ply, [])
        history = self.history

        def rank(move: Any) -> tuple[int, int]:
            text = str(move)
            if text == first:
                return (0, 0)
            if text in killers:
                return (1, 0)
            return (2, -history.get(text, 0))

        return sorted(moves, key=rank)

    def _reward(self, text: str | None, depth: int, ply: int) -> None:
        if text is None:
            return
        self.history[text] = self.history.get(text, 0) + depth * depth
        killers = self.killers.setdefault(ply, [])
        if text not in killers:
            killers.insert(0, text)
            del killers[2:]

    def _principal_variation(self, best_move: Any) -> tuple[str, ...]:
        line = [str(best_move)]
        state = self.root.play(best_move)
        while not state.is_over and len(line) < self.options.depth:
            entry = self.table.get(position_key(state))
            if entry is None or entry.best is None:
                break
            line.append(entry.best)
            state = state.play(entry.best)
        return tuple(line)
