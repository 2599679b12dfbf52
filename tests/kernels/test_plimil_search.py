"""Search inside the Plimil kernel: its compiled evaluator is the plain one, its information-set
MCTS plays only the worlds it is given, is a pure function of (seed, worlds), and finds what a
search should find.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludotheque.engines.plimil import kernel, search
from ludotheque.engines.plimil.board import VARIANTS
from ludotheque.engines.plimil.evaluate import evaluate
from ludotheque.engines.plimil.rules import PlimilGame, PlimilState
from tests.games.test_plimil import position

pytestmark = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")


def played(variant: str, plies: int, seed: int) -> PlimilState:
    """A state after ``plies`` random moves from the new game (or its end, if sooner)."""
    rng = random.Random(seed)
    state = PlimilGame(variant).new_state()
    while not state.is_over and state.ply < plies:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def worlds_of(state: PlimilState, count: int, seed: int) -> list[PlimilState]:
    """What a bot draws at the root: ``count`` determinizations for the player to move."""
    rng = random.Random(seed)
    return [state.determinize(state.to_move, rng) for _ in range(count)]


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compiled_evaluator_is_the_plain_one(variant: str) -> None:
    from ludotheque.engines.plimil import search

    rng = random.Random(variant)
    buffer = np.empty(kernel.MAX_MOVES, dtype=np.int32)
    weights = search.weights_array()
    checked = 0
    for _ in range(6):
        state = PlimilGame(variant).new_state()
        while not state.is_over:
            value = search.leaf_value(kernel.array_of(state), buffer, weights)
            assert value == pytest.approx(evaluate(state, 0), abs=1e-12)
            assert -value == pytest.approx(evaluate(state, 1), abs=1e-12)
            checked += 1
            state = state.play(rng.choice(state.legal_moves()))
    assert checked > 300


def test_the_evaluator_s_weights_can_be_changed_by_name_only() -> None:
    from ludotheque.engines.plimil import search

    assert search.weights_array({"capture": 0.5})[1] == 0.5
    with pytest.raises(ValueError, match="unknown evaluator weights"):
        search.weights_array({"mobility": 1.0})


@pytest.mark.parametrize("leaf", ["heuristic", "playout"])
def test_ismcts_is_a_pure_function_of_the_seed_and_the_worlds(leaf: str) -> None:
    state = played("standard", 40, 1)
    worlds = worlds_of(state, 16, 2)
    first = search.ismcts(worlds, iterations=600, seed=5, leaf=leaf)
    again = search.ismcts(worlds_of(state, 16, 2), iterations=600, seed=5, leaf=leaf)
    assert first.move == again.move and first.line == again.line and first.value == again.value
    assert first.scores.tolist() == again.scores.tolist()
    codes = kernel.legal_moves(kernel.from_state(state))
    assert first.moves.tolist() == codes and first.move in codes
    assert first.nodes == 600 and int(first.scores.sum()) == 600
    assert first.line[0] == first.move and -1.0 <= first.value <= 1.0
    assert first.scores[codes.index(first.move)] == first.scores.max()
    other = search.ismcts(worlds, iterations=600, seed=6, leaf=leaf)
    assert other.scores.tolist() != first.scores.tolist()


def test_ismcts_sees_only_the_worlds_it_is_given() -> None:
    # Two states that Red cannot tell apart (Blue's secrets re-drawn) give Red the same worlds
    # with the same generator, hence the same search.
    state = played("standard", 41, 3)
    assert state.to_move == 1
    twin = state.determinize(1, random.Random(99))
    assert twin.view(1) == state.view(1) and twin.to_json() != state.to_json()
    ours = worlds_of(state, 12, 4)
    theirs = worlds_of(twin, 12, 4)
    assert [w.to_json() for w in ours] == [w.to_json() for w in theirs]
    found = search.ismcts(ours, iterations=500, seed=8, leaf="heuristic")
    again = search.ismcts(theirs, iterations=500, seed=8, leaf="heuristic")
    assert found.scores.tolist() == again.scores.tolist() and found.move == again.move


def test_ismcts_plays_a_move_that_wins_at_once() -> None:
    # The rulebook's example: f5-e4xe5 shows a seventh neutral, and Blue wins 9 to 8.
    state = position("rulebook_seventh_neutral")
    found = search.ismcts([state], iterations=3_000, seed=1, leaf="heuristic")
    after = state.play(kernel.move_text(found.move))
    assert after.is_over and after.result().winners == (0,)
    assert found.value > 0.9


def test_ismcts_answers_a_forced_move_at_once() -> None:
    state = position("blocked")
    found = search.ismcts([state], iterations=1_000, seed=1)
    assert kernel.move_text(found.move) == "pass" and found.nodes == 0


def test_ismcts_searches_the_setup_and_every_variant() -> None:
    for variant in VARIANTS:
        for plies in (0, 14, 30):
            state = played(variant, plies, 7)
            found = search.ismcts(worlds_of(state, 4, 1), iterations=300, seed=2, leaf="playout")
            assert kernel.move_text(found.move) in [str(m) for m in state.legal_moves()]


def test_ismcts_refuses_worlds_that_are_not_one_position() -> None:
    state = played("standard", 40, 1)
    with pytest.raises(ValueError, match="no world"):
        search.ismcts([], iterations=10)
    with pytest.raises(ValueError, match="determinizations"):
        search.ismcts([state, state.play(state.legal_moves()[0])], iterations=10)
    moved = played("standard", 40, 2)
    if kernel.legal_moves(kernel.from_state(moved)) != kernel.legal_moves(kernel.from_state(state)):
        with pytest.raises(ValueError, match="same legal moves"):
            search.ismcts([state, moved], iterations=10)
    with pytest.raises(ValueError, match="over"):
        search.ismcts([played("standard", 999, 1)], iterations=10)
    with pytest.raises(ValueError, match="a leaf"):
        search.ismcts([state], iterations=10, leaf="oracle")
    with pytest.raises(ValueError, match="iteration"):
        search.ismcts([state], iterations=0)


def test_ismcts_reports_its_progress() -> None:
    heard: list[float] = []
    search.ismcts(worlds_of(played("standard", 40, 1), 4, 1), iterations=400, seed=1, progress=heard.append)
    assert heard == sorted(heard) and heard[-1] == 1.0 and len(heard) == 20


def test_the_levels_search_in_the_kernel_and_hard_plain_does_not() -> None:
    from ludotheque import ai

    game = PlimilGame()
    for name in ("easy", "medium", "hard"):
        bot = ai.bot(name, game, seed=1)
        assert (bot.engine, bot.algorithm) == ("kernel", "ismcts"), name
    assert ai.bot("hard-plain", game, seed=1).engine == "plain"


def test_a_kernel_level_is_blind_to_the_secrets() -> None:
    from ludotheque import ai

    state = played("standard", 45, 4)
    player = state.to_move
    assert player is not None
    twin = state.determinize(player, random.Random(5))
    assert twin.view(player) == state.view(player) and twin.to_json() != state.to_json()
    for seed in range(3):
        bot = ai.bot("medium", state.game, seed=seed)
        assert str(bot.choose(state)) == str(bot.choose(twin))
