"""Ex*Pion searches inside the compiled kernel: the evaluator agrees with the plain one, alpha-beta
agrees with the plain alpha-beta where both search the same tree, and the bots built on them are
pure functions of (seed, position) that take their wins and stop the other team's.

Whether a move wins or loses at once is checked here by brute force on the plain engine,
independently of the searches.
"""

from __future__ import annotations

import random
import subprocess
import sys

import pytest

import ludotheque
from ludotheque import ai
from ludotheque.ai.alphabeta import AlphaBetaBot
from ludotheque.engines.expion import kernel, search
from ludotheque.engines.expion.evaluate import evaluate
from ludotheque.engines.expion.rules import ExpionGame, ExpionState

needs_numba = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")
PLAYERS = (4, 3, 2)
# South on g5 next to the EX*PION on h5, the East camp's i5 empty: g5-h5 wins at once.
PUSH_ROWS = [" NNNNNNN ", "W.......E", "W.......E", "W.......E", "W.....SX.",
             "W.......E", "W.......E", "W.......E", " SSSSS S "]


def positions(players: int, seed: int, every: int = 7) -> list[ExpionState]:
    """Every ``every``-th state of a seeded random game and the ten before its end, when the
    winning pushes stand ready."""
    rng = random.Random(seed)
    state = ExpionGame(players=players).new_state()
    trail = [state]
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        trail.append(state)
    chosen = trail[:-11:every] + trail[-11:-1]
    return [s for s in chosen if not s.is_over]


def winning_moves(state: ExpionState) -> list[str]:
    """The moves after which the team to move has won."""
    mover = state.to_move
    found = []
    for move in state.legal_moves():
        after = state.play(move)
        if after.is_over and mover in after.result().winners:
            found.append(str(move))
    return found


def loses_at_once(state: ExpionState, move: str) -> bool:
    """Whether after ``move`` the other team, moving next, can win at once."""
    after = state.play(move)
    if after.is_over:
        return False
    game = state.game
    assert state.to_move is not None and after.to_move is not None
    return game.team_of[after.to_move] != game.team_of[state.to_move] and bool(winning_moves(after))


@needs_numba
@pytest.mark.parametrize("players", PLAYERS)
def test_the_compiled_evaluator_agrees_with_the_plain_one(players: int) -> None:
    threats = 0
    for seed in range(4):
        for state in positions(players, seed):
            assert state.to_move is not None
            expected = evaluate(state, state.to_move)
            assert search.evaluate(state) == pytest.approx(expected, abs=1e-12), state.ply
            threats += abs(expected) == pytest.approx(0.9)
    assert threats > 0  # positions with a winning push ready were compared too


@needs_numba
@pytest.mark.parametrize("players", PLAYERS)
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_alphabeta_values_agree_with_the_plain_alpha_beta(players: int, depth: int) -> None:
    game = ExpionGame(players=players)
    plain = AlphaBetaBot(game, rng=random.Random(0), evaluate=evaluate, depth=depth)
    for state in positions(players, 10 + depth, every=40 if depth == 3 else 20)[-8:]:
        expected = plain.analyse(state).value
        found = search.alphabeta(state, depth=depth, nodes=10**7, seed=5)
        assert found.depth == depth or abs(found.value) == 1.0  # a proven result stops sooner
        if abs(expected) > 0.9 + 1e-9:  # a proven result (the plain one a little less per ply)
            assert found.value == (1.0 if expected > 0 else -1.0), state.ply
        else:
            assert found.value == pytest.approx(expected, abs=5e-4), state.ply


@needs_numba
def test_alphabeta_pushes_the_expion_home_and_says_it_won() -> None:
    state = ExpionGame(players=2).position(PUSH_ROWS, camp="S")
    found = search.alphabeta(state, depth=5, seed=0)
    assert kernel.move_text(found.move) == "g5-h5" and found.value == 1.0
    assert found.depth == 1  # a proven win ends the deepening
    assert found.scores[list(found.moves).index(found.move)] == 1.0


@needs_numba
@pytest.mark.parametrize("players", PLAYERS)
def test_alphabeta_takes_its_wins_and_never_leaves_one_to_the_other_team(players: int) -> None:
    checked = 0
    for seed in range(8):
        for state in positions(players, 20 + seed, every=60):
            move = kernel.move_text(search.alphabeta(state, depth=2, nodes=200_000, seed=seed).move)
            wins = winning_moves(state)
            if wins:
                assert move in wins
                continue
            safe = [str(m) for m in state.legal_moves() if not loses_at_once(state, str(m))]
            if safe and len(safe) < len(state.legal_moves()):
                assert move in safe, (state.ply, move)
                checked += 1
    assert checked > 0


@needs_numba
def test_alphabeta_is_a_pure_function_of_the_seed_within_its_budget() -> None:
    state = positions(4, 30)[3]
    first = search.alphabeta(state, nodes=20_000, seed=1)
    again = search.alphabeta(state, nodes=20_000, seed=1)
    assert (first.move, first.value, first.depth, first.nodes, first.line) == (
        again.move, again.value, again.depth, again.nodes, again.line)
    assert first.depth >= 2 and first.nodes <= 20_001
    assert list(first.moves) == kernel.legal_moves(kernel.from_state(state))
    position = kernel.from_state(state)
    for move in first.line:  # the expected line is legal, the chosen move first
        assert move in kernel.legal_moves(position)
        position = kernel.play(position, move)
    assert first.line[0] == first.move
    seeds = {search.alphabeta(ExpionGame().new_state(), depth=1, seed=s).move for s in range(8)}
    assert len(seeds) > 1  # equal moves: the seed breaks ties


@needs_numba
def test_a_budget_too_small_for_one_ply_still_searches_every_root_move() -> None:
    state = ExpionGame(players=2).new_state()
    found = search.alphabeta(state, nodes=3, seed=0)
    assert found.depth == 1 and found.nodes <= 3 + len(found.moves) + 1


@needs_numba
def test_a_margin_picks_among_moves_close_to_the_best() -> None:
    state = positions(4, 40)[4]
    exact = search.alphabeta(state, depth=1, seed=0)
    best = max(exact.scores)
    values = dict(zip(exact.moves.tolist(), exact.scores.tolist(), strict=True))
    chosen = {search.alphabeta(state, depth=1, margin=0.08, seed=s).move for s in range(12)}
    assert all(values[move] >= best - 0.08 - 1e-9 for move in chosen)


@needs_numba
@pytest.mark.parametrize("players", PLAYERS)
def test_uct_is_a_pure_function_of_the_seed(players: int) -> None:
    state = positions(players, 50)[2]
    first = search.uct(state, iterations=300, seed=4)
    again = search.uct(state, iterations=300, seed=4)
    assert (first.move, first.value, first.line, first.scores.tolist()) == (
        again.move, again.value, again.line, again.scores.tolist())
    assert first.nodes == 300 and first.scores.sum() == 300
    assert first.scores[list(first.moves).index(first.move)] == first.scores.max()
    assert -1.0 <= first.value <= 1.0 and first.line[0] == first.move


@needs_numba
def test_uct_finds_the_winning_push() -> None:
    state = ExpionGame(players=2).position(PUSH_ROWS, camp="S")
    found = search.uct(state, iterations=2_000, seed=0)
    assert kernel.move_text(found.move) == "g5-h5" and found.value == 1.0


@needs_numba
def test_the_bots_search_in_the_kernel_and_replay_alike() -> None:
    game = ludotheque.load("expion")
    state = positions(4, 60)[2]
    for name in ("easy", "medium", "hard", "uct10k"):
        assert ai.bot(name, game).engine == "kernel"
    assert ai.bot("hard-plain", game).engine == "plain"
    medium, plain = ai.bot("medium", game, seed=2), ai.bot("medium-plain", game, seed=2)
    assert medium.analyse(state).value == pytest.approx(plain.analyse(state).value, abs=5e-4)
    assert medium.choose(state) == ai.bot("medium", game, seed=2).choose(state)
    assert medium.choose(state) in state.legal_moves()


def test_bad_requests_are_refused() -> None:
    if not kernel.AVAILABLE:
        with pytest.raises(RuntimeError):
            search.alphabeta(ExpionGame().new_state())
        return
    with pytest.raises(ValueError, match="weights"):
        search.weights_array({"tempo": 1.0})
    with pytest.raises(ValueError, match="iteration"):
        search.uct(ExpionGame().new_state(), iterations=0)
    over = ExpionGame(players=2).position(PUSH_ROWS, camp="S").play("g5-h5")
    for run in (search.alphabeta, search.uct):
        with pytest.raises(ValueError, match="over"):
            run(over)


@needs_numba
def test_the_searches_run_when_loaded_from_numba_s_cache() -> None:
    # A compiled function calling a self-recursive one breaks once loaded from the cache (Numba
    # 0.68): the searches, compiled by the tests above, run again in a fresh interpreter.
    code = (
        "from ludotheque.engines.expion import search\n"
        "from ludotheque.engines.expion.rules import ExpionGame\n"
        "state = ExpionGame(players=3).new_state()\n"
        "found = search.alphabeta(state, depth=3, nodes=50_000), search.uct(state, iterations=20)\n"
        "print(found[0].depth, found[1].nodes)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["3", "20"]
