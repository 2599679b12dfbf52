"""Monte Carlo tree search (UCT) for any number of players, and its information-set form.

Every node keeps, for each player, the sum of the values backed up through it; a node is
chosen by the player who moves at its parent, so one tree serves 2, 3 or 4 players. Leaves are
scored by an injected :data:`~ludotheque.ai.evaluators.LeafValues` (a static evaluator or a
random playout).

The information-set form (``determinize=True``, SO-ISMCTS of Cowling, Powley and Whitehouse
2012) starts every iteration from ``state.determinize(p, rng)`` for the searching player ``p``
and keys children by move text; a child's exploration term counts the iterations in which its
move was legal (its *availability*), not its parent's visits. The search then reads nothing of
the true state but ``legal_moves()`` at the root, ``ply`` and ``to_move``, all public: two states
with the same ``view(p)`` get the same move.

>>> import ludotheque, random
>>> from ludotheque.ai.evaluators import evaluator_for, heuristic_values
>>> game = ludotheque.load("pylos")
>>> bot = MCTSBot(game, rng=random.Random(0), iterations=50,
...               leaf=heuristic_values(evaluator_for(game)))
>>> analysis = bot.analyse(game.new_state())
>>> analysis.iterations, sum(analysis.visits.values())
(50, 50)
"""

from __future__ import annotations

import math
import random
from typing import Any

from ..core.contract import Game, Player, State
from .base import Analysis, Bot, Progress, report, terminal_values
from .evaluators import LeafValues, rollout_values

# How often (in iterations) the progress callback hears from the search.
_PROGRESS_EVERY = 64


class _Node:
    __slots__ = ("available", "children", "move", "mover", "totals", "visits")

    def __init__(self, move: Any, mover: Player | None, players: int) -> None:
        self.move = move  # the move that leads here (None at the root)
        self.mover = mover  # the player who made it
        self.visits = 0
        self.available = 0
        self.totals = [0.0] * players
        self.children: dict[str, _Node] = {}


class MCTSBot(Bot):
    """UCT search with a budget of ``iterations``; options are keyword-only.

    ``leaf`` scores the positions where the tree stops (default: random playouts of at most 200
    moves); ``exploration`` is UCT's constant for values in [-1, 1]; ``determinize`` makes it
    information-set MCTS; ``samples`` then caps the distinct determinizations drawn, reused in turn
    (for games whose ``determinize`` costs more than an iteration). Raises ``ValueError`` for a
    hidden-information game without ``determinize`` (plain MCTS would read secrets).
    """

    algorithm = "mcts"

    def __init__(
        self,
        game: Game,
        *,
        rng: random.Random | None = None,
        iterations: int = 1000,
        leaf: LeafValues | None = None,
        exploration: float = 1.0,
        determinize: bool = False,
        samples: int | None = None,
    ) -> None:
        if game.has_hidden_information and not determinize:
            raise ValueError(
                f"{game.id} hides information: use information-set MCTS (determinize=True)"
            )
        if iterations < 1:
            raise ValueError(f"MCTS needs at least one iteration, not {iterations!r}")
        super().__init__(game, rng=rng)
        self.iterations = iterations
        self.leaf = leaf if leaf is not None else rollout_values(200)
        self.exploration = exploration
        self.determinize = determinize
        self.samples = samples
        if determinize:
            self.algorithm = "ismcts"

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        player = self._check_playable(state)
        rng = self.rng_for(state)
        root = _Node(None, None, self.game.players)
        root_moves = state.legal_moves()
        if len(root_moves) == 1:
            # A forced move needs no search (and no secret is touched).
            report(progress, 1.0)
            return Analysis(0.0, root_moves[0], (str(root_moves[0]),), {str(root_moves[0]): 0},
                            0, 0, self.algorithm)
        pool: list[State] = []
        for done in range(self.iterations):
            start = state
            if self.determinize and (self.samples is None or len(pool) < self.samples):
                start = state.determinize(player, rng)
                if self.samples is not None:
                    pool.append(start)
            elif self.determinize:
                start = pool[done % len(pool)]
            self._iterate(root, start, root_moves, rng)
            if done % _PROGRESS_EVERY == 0:
                report(progress, done / self.iterations)
        report(progress, 1.0)
        return self._analysis(root, root_moves, player)

    # -- one iteration -------------------------------------------------------------------------
    def _iterate(self, root: _Node, state: State, root_moves: list[Any], rng: random.Random) -> None:
        path = [root]
        node = root
        moves: list[Any] = root_moves
        while not state.is_over:
            mover = state.to_move
            assert mover is not None
            by_text = {str(m): m for m in moves}
            for text in by_text:
                child = node.children.get(text)
                if child is not None:
                    child.available += 1
            untried = [text for text in by_text if text not in node.children]
            if untried:
                text = untried[rng.randrange(len(untried))]
                child = _Node(by_text[text], mover, self.game.players)
                child.available = 1
                node.children[text] = child
                state = state.play(by_text[text])
                path.append(child)
                break
            node = self._select(node, by_text)
            state = state.play(by_text[_text_of(node)])
            path.append(node)
            moves = state.legal_moves()
        values = terminal_values(state) if state.is_over else self.leaf(state, rng)
        for visited in path:
            visited.visits += 1
            for p, value in enumerate(values):
                visited.totals[p] += value

    def _select(self, node: _Node, legal: dict[str, Any]) -> _Node:
        best: _Node | None = None
        best_score = -math.inf
        for text in legal:
            child = node.children[text]
            assert child.mover is not None
            mean = child.totals[child.mover] / child.visits
            score = mean + self.exploration * math.sqrt(math.log(child.available) / child.visits)
            if score > best_score:
                best, best_score = child, score
        assert best is not None
        return best

    # -- the answer ----------------------------------------------------------------------------
    def _analysis(self, root: _Node, root_moves: list[Any], player: Player) -> Analysis:
        order = {str(m): i for i, m in enumerate(root_moves)}
        # Most visited wins; ties go to the better mean, then to canonical order.
        ranked = sorted(
            (child for text, child in root.children.items() if text in order),
            key=lambda c: (-c.visits, -c.totals[player] / max(1, c.visits), order[_text_of(c)]),
        )
        best = ranked[0]
        line = [_text_of(best)]
        node = best
        while node.children:
            node = max(node.children.values(), key=lambda c: c.visits)
            line.append(_text_of(node))
        return Analysis(
            value=max(-1.0, min(1.0, best.totals[player] / best.visits)),
            best_move=best.move if not self.determinize else root_moves[order[_text_of(best)]],
            principal_variation=tuple(line),
            visits={_text_of(c): c.visits for c in ranked},
            iterations=self.iterations,
            depth=len(line),
            algorithm=self.algorithm,
        )


def _text_of(node: _Node) -> str:
    return str(node.move)
