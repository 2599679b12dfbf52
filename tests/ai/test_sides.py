"""Alpha-beta over two *sides*: Ex*Pion with 3 or 4 players is North+South against East+West, so
a teammate's turn is the same side's and the search must not negate it."""

from __future__ import annotations

import random

import pytest

import ludotheque
from ludotheque import ai
from ludotheque.ai.alphabeta import AlphaBetaBot
from ludotheque.ai.base import terminal_values
from ludotheque.ai.evaluators import evaluator_for
from ludotheque.core import Game, State

from .conftest import played_states

HEURISTIC_SCALE, PER_PLY = 0.9, 0.0005


def minimax(game: Game, state: State, player: int, depth: int, ply: int = 0) -> float:
    """Plain minimax for ``player``'s side: every position searched, no pruning, no table."""
    if state.is_over:
        return terminal_values(state)[player] * (1.0 - PER_PLY * ply)
    if depth == 0:
        return HEURISTIC_SCALE * evaluator_for(game)(state, player)
    values = [minimax(game, state.play(m), player, depth - 1, ply + 1) for m in state.legal_moves()]
    side = next(members for members in game.teams if player in members)
    return max(values) if state.to_move in side else min(values)


@pytest.mark.parametrize("players", [3, 4])
def test_alphabeta_over_teams_agrees_with_plain_minimax(players: int) -> None:
    game = ludotheque.load("expion", players=players)
    # Three plies, so that a teammate moves inside the tree (a turn order of N, E, S, W).
    positions = played_states(game, seed=players, every=13)[:3]
    assert len(positions) == 3
    for state in positions:
        mover = state.to_move
        assert mover is not None
        bot = AlphaBetaBot(game, rng=random.Random(0), evaluate=evaluator_for(game), depth=3)
        assert bot.analyse(state).value == pytest.approx(minimax(game, state, mover, 3))


def test_the_search_would_differ_if_teammates_were_opponents() -> None:
    # With every player on their own side, the same positions get other values: the agreement
    # above depends on the team structure and is not true of every negamax.
    game = ludotheque.load("expion", players=4)
    differing = 0
    for state in played_states(game, seed=4, every=13)[:3]:
        mover = state.to_move
        assert mover is not None
        teams_value = minimax(game, state, mover, 3)
        all_against = _minimax_each_alone(game, state, mover, 3)
        differing += teams_value != pytest.approx(all_against)
    assert differing >= 1


def _minimax_each_alone(game: Game, state: State, player: int, depth: int, ply: int = 0) -> float:
    if state.is_over:
        return terminal_values(state)[player] * (1.0 - PER_PLY * ply)
    if depth == 0:
        return HEURISTIC_SCALE * evaluator_for(game)(state, player)
    values = [_minimax_each_alone(game, state.play(m), player, depth - 1, ply + 1)
              for m in state.legal_moves()]
    return max(values) if state.to_move == player else min(values)


@pytest.mark.parametrize("players", [3, 4])
def test_hard_pushes_the_expion_home_when_it_can(players: int) -> None:
    # A finished seeded game: the move that won it, replayed from the position before, is a
    # push into an enemy camp; hard finds a win there too.
    game = ludotheque.load("expion", players=players)
    rng = random.Random(1)
    for seed in range(40):
        states = played_states(game, seed=seed, every=1, final=True)
        final, before = states[-1], states[-2]
        if final.result().reason != "expion_in_camp":
            continue
        analysis = ai.bot("hard", game, seed=rng.randrange(100)).analyse(before)
        assert analysis.value > HEURISTIC_SCALE
        assert before.play(analysis.best_move).is_over
        return
    pytest.fail("no seeded random game ended with the EX*PION pushed home")
