"""Every registered game with every level, through the contract only (parametrised on the
registry and branching on declared facts, never on names)."""

from __future__ import annotations

import random

import pytest

import ludotheque
from ludotheque import ai
from ludotheque.ai import kind_of
from ludotheque.ai.evaluators import evaluator_for
from ludotheque.core import Game, State, info

from ..conftest import game_configurations
from .conftest import played_states

CONFIGURATIONS = [c for c in game_configurations() if c[1] == info(c[0]).default_variant]
IDS = [f"{g}-{p}p" for g, _, p in CONFIGURATIONS]
HIDDEN = [c for c in CONFIGURATIONS if ludotheque.load(c[0], c[1], c[2]).has_hidden_information]


def sample_states(game: Game, count: int) -> list[State]:
    states = played_states(game, seed=11, every=1)
    step = max(1, len(states) // count)
    return states[::step][:count]


@pytest.fixture(params=CONFIGURATIONS, ids=IDS)
def game(request: pytest.FixtureRequest) -> Game:
    game_id, variant, players = request.param
    return ludotheque.load(game_id, variant=variant, players=players)


def test_easy_and_random_play_legal_moves_reproducibly(game: Game) -> None:
    for state in sample_states(game, 4):
        for name in ("random", "easy"):
            move = ai.bot(name, game, seed=5).choose(state)
            assert move in state.legal_moves()
            assert move == ai.bot(name, game, seed=5).choose(state)


def test_the_evaluator_scores_within_range(game: Game) -> None:
    evaluate = evaluator_for(game)
    for state in sample_states(game, 6):
        for player in range(game.players):
            assert -1.0 <= evaluate(state, player) <= 1.0


def test_levels_use_the_algorithm_the_facts_call_for(game: Game) -> None:
    algorithms = {ai.bot(level, game).algorithm for level in ("easy", "medium", "hard")}
    if game.has_hidden_information:
        # Determinized search only: information-set MCTS, or alpha-beta over determinizations.
        assert algorithms <= ({"ismcts", "pimc"} if len(game.teams) == 2 else {"ismcts"})
    elif len(game.teams) == 2:
        # Two players, or two teams (Ex*Pion with 3 or 4 players): alpha-beta over the sides.
        assert algorithms == {"alphabeta"}
    else:
        assert algorithms == {"mcts"}
    assert kind_of(game)


@pytest.mark.parametrize("configuration", HIDDEN, ids=[c[0] for c in HIDDEN])
def test_a_bot_cannot_tell_apart_states_with_the_same_view(
    configuration: tuple[str, str, int],
) -> None:
    game = ludotheque.load(*configuration)
    # The cheapest level of each algorithm the levels use for this game.
    by_algorithm: dict[str, ai.Bot] = {}
    for level in ("easy", "medium", "hard"):
        candidate = ai.bot(level, game, seed=3)
        by_algorithm.setdefault(candidate.algorithm, candidate)
    bots = list(by_algorithm.values())
    rng = random.Random(0)
    compared = 0
    for state in sample_states(game, 8):
        player = state.to_move
        assert player is not None
        twin = state.determinize(player, rng)
        assert twin.view(player) == state.view(player)
        if twin.to_json() == state.to_json():
            continue
        compared += 1
        for bot in bots:
            first, second = bot.analyse(state), bot.analyse(twin)
            assert str(first.best_move) == str(second.best_move)
            assert first.visits == second.visits and first.value == second.value
    assert compared > 0  # the secrets did differ somewhere, so the test checked something
