"""Determinized alpha-beta (perfect-information Monte Carlo) for two-player hidden-information games.

The bot draws ``samples`` full states with ``state.determinize(p, rng)`` for its player ``p``, runs
an alpha-beta search on each, and plays the move most searches chose (ties: the larger summed
value, then canonical order). It reads nothing of the true state but ``legal_moves()``, ``ply``
and ``to_move``, so two states with the same ``view(p)`` get the same move. It suits games whose
secrets are few or unknown to both players (Imbrication's tile order), where information-set
MCTS with a static evaluator spreads its visits too thin over many placements.

>>> import ludotheque, random
>>> from ludotheque.ai.evaluators import evaluator_for
>>> game = ludotheque.load("imbrication")
>>> bot = DeterminizedAlphaBetaBot(game, rng=random.Random(0), evaluate=evaluator_for(game),
...                                samples=2, depth=1)
>>> bot.choose(game.new_state(seed=1)) in game.new_state(seed=1).legal_moves()
True
"""

from __future__ import annotations

import random
from collections import Counter

from ..core.contract import Game, State
from .alphabeta import has_two_sides, search
from .base import Analysis, Bot, Evaluator, Progress, report
from .evaluators import GainDetector, position_key


class DeterminizedAlphaBetaBot(Bot):
    """Alpha-beta over ``samples`` determinizations; ``depth``, ``nodes`` (per sample), ``margin``
    and ``depth_step`` as for :class:`~ludotheque.ai.alphabeta.AlphaBetaBot`.

    Raises ``ValueError`` unless the game has two players.
    """

    algorithm = "pimc"

    def __init__(
        self,
        game: Game,
        *,
        rng: random.Random | None = None,
        evaluate: Evaluator,
        samples: int = 4,
        depth: int = 2,
        nodes: int | None = None,
        margin: float = 0.0,
        depth_step: int = 1,
    ) -> None:
        if not has_two_sides(game):
            raise ValueError(
                f"{game.id}: determinized alpha-beta needs two players (or two teams), "
                f"not {len(game.teams)} sides"
            )
        if samples < 1 or depth < 1:
            raise ValueError(f"samples and depth must be at least 1, not {samples!r}, {depth!r}")
        super().__init__(game, rng=rng)
        self.evaluate = evaluate
        self.samples = samples
        self.depth = depth
        self.nodes = nodes
        self.margin = margin
        self.depth_step = depth_step
        self.deny: GainDetector | None = None  # determinized searches vote; no root filter

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        player = self._check_playable(state)
        rng = self.rng_for(state)
        moves = {str(m): m for m in state.legal_moves()}
        order = {text: i for i, text in enumerate(moves)}
        votes: Counter[str] = Counter()
        totals: dict[str, float] = dict.fromkeys(moves, 0.0)
        iterations = 0
        # Once nothing is hidden any more (Imbrication from round 4) every sample is the same
        # state: its search is made once and counts for each sample.
        answers: dict[str, Analysis] = {}
        for k in range(self.samples):
            sample = state.determinize(player, rng) if self.game.has_hidden_information else state
            key = position_key(sample)
            if key not in answers:
                answers[key] = search(self, sample, rng)
                iterations += answers[key].iterations
            answer = answers[key]
            text = str(answer.best_move)
            votes[text] += 1
            totals[text] += answer.value
            report(progress, (k + 1) / self.samples)
        best = min(votes, key=lambda t: (-votes[t], -totals[t], order[t]))
        return Analysis(
            value=totals[best] / votes[best],
            best_move=moves[best],
            principal_variation=(best,),
            visits=dict(votes.most_common()),
            iterations=iterations,
            depth=self.depth,
            algorithm=self.algorithm,
        )
