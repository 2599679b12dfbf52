"""Determinized alpha-beta (perfect-information Monte Carlo) for two-player hidden-information games.

The bot draws ``samples`` full states with ``state.determinize(p, rng)`` for its player ``p``, runs
an alpha-beta search on each, and plays the move whose value, averaged over the samples, is best
(ties: canonical order). Each search of several distinct samples values every root move exactly:
a vote among each sample's favourite would pick the move best for most secrets, where a player
wants the move best on average (a placement that keeps its piece whatever tile comes, rather than
one that shines under most tiles and is lost under the others). It reads nothing of the true
state but ``legal_moves()``, ``ply`` and ``to_move``, so two states with the same ``view(p)`` get
the same move. It suits games whose secrets are few or unknown to both players (Imbrication's
tile order), where information-set MCTS with a static evaluator spreads its visits too thin over
many placements.

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
from dataclasses import replace

from ..core.contract import Game, Player, State
from .alphabeta import SearchOptions, search_values
from .base import Analysis, Bot, Evaluator, Progress, has_two_sides, report
from .evaluators import position_key


class DeterminizedAlphaBetaBot(Bot):
    """Alpha-beta over ``samples`` determinizations; ``depth``, ``margin`` and ``depth_step`` as
    for :class:`~ludotheque.ai.alphabeta.AlphaBetaBot`. ``nodes`` bounds a whole decision: the
    distinct determinizations share it equally, so a move costs about the same whether the
    samples differ (hidden tiles) or coincide (nothing hidden: one search gets it all).

    Raises ``ValueError`` unless the game has two sides.
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
        if samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples!r}")
        super().__init__(game, rng=rng)
        self.samples = samples
        # No root filter (deny): the samples' values are averaged, not one search's choice kept.
        self.options = SearchOptions(evaluate, depth, nodes, margin, depth_step, None, self.algorithm)

    def analyse(self, state: State, progress: Progress | None = None) -> Analysis:
        player = self._check_playable(state)
        rng = self.rng_for(state)
        moves = {str(m): m for m in state.legal_moves()}
        samples = [self._sample(state, player, rng) for _ in range(self.samples)]
        keys = [position_key(sample) for sample in samples]
        distinct = dict(zip(keys, samples, strict=True))
        options = self._options_for(len(distinct))
        answers: dict[str, Analysis] = {}
        values: dict[str, dict[str, float]] = {}
        for done, (key, sample) in enumerate(distinct.items(), start=1):
            answers[key], values[key] = search_values(options, sample, rng)
            report(progress, done / len(distinct))
        if len(distinct) == 1:  # one search: its own choice (and its margin, if any)
            best, value = str(answers[keys[0]].best_move), answers[keys[0]].value
        else:
            average = {text: sum(values[key][text] for key in keys) / len(keys) for text in moves}
            best = max(moves, key=average.__getitem__)  # the first of equals: canonical order
            value = average[best]
        # Visits, for people: how many samples had each move as their own best.
        votes = Counter(str(answers[key].best_move) for key in keys)
        return Analysis(
            value=value,
            best_move=moves[best],
            principal_variation=(best,),
            visits=dict(votes.most_common()),
            iterations=sum(answer.iterations for answer in answers.values()),
            depth=min(answer.depth for answer in answers.values()),  # reached by every search
            algorithm=self.algorithm,
        )

    def _sample(self, state: State, player: Player, rng: random.Random) -> State:
        return state.determinize(player, rng) if self.game.has_hidden_information else state

    def _options_for(self, searches: int) -> SearchOptions:
        """The options of each of ``searches`` searches: an equal share of the node budget, and
        exact values for every root move (to be averaged) when there are several."""
        if searches == 1:
            return self.options
        nodes = None if self.options.nodes is None else self.options.nodes // searches
        return replace(self.options, nodes=nodes, exact_root=True)
