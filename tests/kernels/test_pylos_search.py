"""Search inside the Pylos kernel (``engines/pylos/search.py``): the compiled evaluator against
``evaluate.py``, alpha-beta against the plain ``AlphaBetaBot``, UCT, their budgets and seeds."""

from __future__ import annotations

import math
import random
import subprocess
import sys

import numpy as np
import pytest

import ludotheque
from ludotheque.ai.alphabeta import SearchOptions, search_values
from ludotheque.ai.evaluators import evaluator_for
from ludotheque.core import State
from ludotheque.engines.compiled import partial_best
from ludotheque.engines.pylos import kernel
from ludotheque.engines.pylos.evaluate import LEVELS, SCALE, WEIGHTS, balls, evaluate
from ludotheque.engines.pylos.rules import VARIANTS, PylosState

needs_numba = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")
if kernel.AVAILABLE:
    from ludotheque.engines.pylos import search

PYLOS = ludotheque.load("pylos")


def random_states(variant: str, games: int, seed: int) -> list[PylosState]:
    """Every position of ``games`` seeded random games, the ends left out."""
    game = ludotheque.load("pylos", variant=variant)
    rng = random.Random(seed)
    found: list[PylosState] = []
    for _ in range(games):
        state = game.new_state()
        while not state.is_over:
            assert isinstance(state, PylosState)
            found.append(state)
            state = state.play(rng.choice(state.legal_moves()))
    return found


def compiled_balls(state: PylosState, weights: dict[str, float] | None = None) -> float:
    position = kernel.from_state(state)
    return float(search.evaluate_balls(position.light, position.dark, position.mover,
                                       kernel.VARIANT_CODES[position.variant], search.weights_array(weights)))


# -- the compiled evaluator -----------------------------------------------------------------------
@needs_numba
@pytest.mark.parametrize("variant", VARIANTS)
def test_the_compiled_evaluator_is_evaluate_py_s_on_random_positions(variant: str) -> None:
    tuned = dict(LEVELS[2]["hard"].options["kernel"].get("weights", {}))
    rng = random.Random(1)
    for state in random_states(variant, 12, seed=2):
        mover = state.to_move
        assert mover is not None
        assert compiled_balls(state) == pytest.approx(balls(state, mover), abs=1e-9)
        assert math.tanh(compiled_balls(state) / SCALE) == pytest.approx(evaluate(state, mover), abs=1e-9)
        drawn = {name: rng.uniform(-2.0, 2.0) for name in WEIGHTS}
        for weights in (tuned, drawn):
            assert compiled_balls(state, weights) == pytest.approx(balls(state, mover, WEIGHTS | weights),
                                                                   abs=1e-9)


@needs_numba
def test_unknown_weights_are_a_value_error() -> None:
    with pytest.raises(ValueError, match="unknown evaluator weights"):
        search.weights_array({"charm": 1.0})


# -- alpha-beta -----------------------------------------------------------------------------------
def plain_values(state: State, depth: int) -> dict[str, float]:
    """Every root move's exact value by the plain alpha-beta at ``depth`` (no node bound)."""
    options = SearchOptions(evaluator_for(PYLOS), depth=depth, exact_root=True)
    _, values = search_values(options, state, random.Random(0))
    return values


def same_value(compiled: float, plain: float) -> bool:
    """Equal values: heuristic ones to the kernel's rounding to thousandths of a ball, proven
    ones by their sign (the plain search counts a later win as slightly less)."""
    if abs(plain) > 0.95:
        return compiled == math.copysign(1.0, plain)
    return abs(compiled - plain) < 1e-3


@needs_numba
@pytest.mark.parametrize("depth", [1, 2])
def test_alphabeta_values_are_the_plain_alphabeta_s_at_small_depths(depth: int) -> None:
    # At two plies no position can come back at another depth: the table only orders moves.
    states = random_states("standard", 3, seed=5)[::4]
    for state in states:
        plain = plain_values(state, depth)
        found = search.alphabeta(state, depth=depth, nodes=10**7, seed=3)
        assert found.depth == depth or abs(found.value) == 1.0
        assert same_value(found.value, max(plain.values())), (state.ply, found, plain)
        assert same_value(found.value, plain[kernel.move_text(found.move)])


@needs_numba
def test_alphabeta_values_are_the_plain_alphabeta_s_three_plies_deep_near_the_end() -> None:
    states = [s for s in random_states("standard", 4, seed=8) if len(s.legal_moves()) <= 12][-12:]
    assert states
    for state in states:
        plain = plain_values(state, 3)
        found = search.alphabeta(state, depth=3, nodes=10**7, seed=1)
        assert same_value(found.value, max(plain.values())), (state.ply, found, plain)


@needs_numba
def test_alphabeta_finds_a_square_and_proves_a_won_ending() -> None:
    state = PYLOS.new_state()
    for text in ("1a1", "1c1", "1b1", "1c2", "1a2", "1d4"):  # Light to move: 1b2 closes a square
        state = state.play(text)
    found = search.alphabeta(state, depth=3, seed=0)
    assert "x" in kernel.move_text(found.move) and found.value > 0
    ending = random_states("standard", 1, seed=3)[-1]  # one move from the end: the top, or a win
    solved = search.alphabeta(ending, nodes=100_000, seed=0)
    assert abs(solved.value) == 1.0
    after = ending.play(kernel.move_text(solved.move))
    assert (solved.value == 1.0) == (after.is_over and after.result().winners == (ending.to_move,))


@needs_numba
def test_alphabeta_honours_its_budgets_and_is_a_pure_function_of_seed_and_position() -> None:
    state = random_states("standard", 1, seed=4)[10]
    for nodes in (500, 5_000, 50_000):
        found = search.alphabeta(state, nodes=nodes, seed=2)
        assert found.nodes <= nodes and found.depth >= 1
        # The move chosen carries the value answered (after an abandoned iteration too, whose
        # moves proved better than the last best are taken).
        assert found.scores[list(found.moves).index(found.move)] == found.value == found.scores.max()
        again = search.alphabeta(state, nodes=nodes, seed=2)
        assert (again.move, again.value, again.nodes, again.line) == (found.move, found.value, found.nodes,
                                                                      found.line)
        assert np.array_equal(again.scores, found.scores)
    assert search.alphabeta(state, depth=2, nodes=10**6, seed=0).depth == 2
    # Not even one ply within the budget: every root move all the same, one ply deep.
    tiny = search.alphabeta(state, nodes=1, seed=0)
    assert tiny.depth == 1 and tiny.nodes <= 1 + len(state.legal_moves())  # each, beyond the budget
    assert list(tiny.moves) == kernel.legal_moves(kernel.from_state(state))
    assert tiny.line[0] == tiny.move and -1.0 <= tiny.value <= 1.0


@needs_numba
def test_alphabeta_reports_its_progress_and_refuses_a_finished_game() -> None:
    seen: list[float] = []
    search.alphabeta(PYLOS.new_state(), depth=4, nodes=10**6, progress=seen.append)
    assert seen == sorted(seen) and seen[-1] == 1.0
    over = PYLOS.new_state()
    rng = random.Random(0)
    while not over.is_over:
        over = over.play(rng.choice(over.legal_moves()))
    with pytest.raises(ValueError, match="over"):
        search.alphabeta(over)
    with pytest.raises(ValueError, match="over"):
        search.uct(over)


# -- UCT --------------------------------------------------------------------------------------------
@needs_numba
def test_uct_runs_its_iterations_and_is_a_pure_function_of_seed_and_position() -> None:
    state = random_states("standard", 1, seed=6)[8]
    found = search.uct(state, iterations=3_000, seed=4)
    assert found.nodes == 3_000 and int(found.scores.sum()) == 3_000
    assert list(found.moves) == kernel.legal_moves(kernel.from_state(state))
    assert found.scores[list(found.moves).index(found.move)] == found.scores.max()
    again = search.uct(state, iterations=3_000, seed=4)
    assert (again.move, again.value, again.line) == (found.move, found.value, found.line)
    assert np.array_equal(again.scores, found.scores)
    other = search.uct(state, iterations=3_000, seed=5)
    assert not np.array_equal(other.scores, found.scores)


@needs_numba
def test_uct_stops_at_its_budget_of_plies_and_proves_wins_with_the_solver() -> None:
    state = random_states("standard", 1, seed=6)[4]
    short = search.uct(state, iterations=100_000, plies=20_000, seed=1)
    assert 0 < short.nodes < 100_000
    ending = random_states("standard", 1, seed=3)[-1]
    solved = search.uct(ending, iterations=5_000, solver=True, seed=0)
    assert abs(solved.value) == 1.0 or solved.nodes == 5_000


@needs_numba
def test_pimc_and_ismcts_search_the_one_world_a_pylos_state_has() -> None:
    state = random_states("standard", 1, seed=2)[12]
    found = search.pimc([state, state], nodes=20_000, seed=3)
    direct = search.alphabeta(state, nodes=20_000, seed=3)
    assert (found.move, found.value, found.line) == (direct.move, direct.value, direct.line)
    searched = search.ismcts([state], iterations=300, seed=1)
    assert searched.line == search.uct(state, iterations=300, seed=1).line
    with pytest.raises(ValueError, match="one position"):
        search.pimc([state, state.play(state.legal_moves()[0])], nodes=10)


def test_without_numba_the_searches_say_so() -> None:
    code = (
        "import sys; sys.modules['numba'] = None\n"
        "from ludotheque.engines.pylos import search, PylosGame\n"
        "for run in (search.alphabeta, search.uct):\n"
        "    try:\n        run(PylosGame().new_state())\n"
        "    except RuntimeError as error:\n        print(error)\n"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Numba, which cannot be imported") == 2


@needs_numba
def test_an_abandoned_iteration_keeps_a_move_it_proved_better_than_the_last_best() -> None:
    root = np.array([10, 20, 30, 40])
    last = np.array([50, 40, 30, 20])  # the last whole iteration's values, best first
    deeper = np.array([35, 60, 25, 999])  # the abandoned one: 20 beat 10; 40 was never reached
    moves, values = partial_best(root, deeper, last, searched=3)
    assert list(moves) == [20, 10, 30, 40] and list(values) == [60, 50, 30, 20]
    for searched, worse in ((1, deeper), (3, np.array([35, 30, 25, 0]))):
        moves, values = partial_best(root, worse, last, searched=searched)
        assert list(moves) == list(root) and list(values) == list(last)
