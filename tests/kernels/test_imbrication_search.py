"""Search inside the Imbrication kernel (``engines/imbrication/search.py``): the compiled evaluator
is the plain one, the values are the plain search's, and a search is a pure function of its seed
and worlds within its node budget."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest

from ludotheque.ai.alphabeta import SearchOptions, search_values
from ludotheque.engines.compiled import SearchResult
from ludotheque.engines.imbrication import kernel
from ludotheque.engines.imbrication.board import territories
from ludotheque.engines.imbrication.evaluate import evaluate
from ludotheque.engines.imbrication.rules import ImbricationGame, ImbricationState

needs_numba = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")
GAME = ImbricationGame()

if kernel.AVAILABLE:
    from ludotheque.engines.imbrication import search


def worlds_of(state: ImbricationState, samples: int, seed: int = 0) -> list[ImbricationState]:
    """What a bot hands the kernel: ``samples`` determinizations for the player to move."""
    rng = random.Random(seed)
    assert state.to_move is not None
    return [state.determinize(state.to_move, rng) for _ in range(samples)]


def by_text(found: object) -> dict[str, float]:
    assert isinstance(found, SearchResult)
    return {kernel.move_text(int(c)): float(v) for c, v in zip(found.moves, found.scores, strict=True)}


def turn_values(state: ImbricationState, turns: int) -> dict[str, float]:
    """Every root move's exact negamax value through the contract, ``turns`` whole turns deep
    (a placement whose action is pending costs nothing), on the plain search's scale."""

    def value(node: ImbricationState, left: int, ply: int) -> float:
        mover = node.to_move
        assert mover is not None
        if left <= 0:
            return 0.9 * evaluate(node, mover)
        return max(child_value(node.play(m), mover, left, ply + 1) for m in node.legal_moves())

    def child_value(child: ImbricationState, mover: int, left: int, ply: int) -> float:
        if child.is_over:
            winners = child.result().winners
            sign = 0.0 if not winners else 1.0 if mover in winners else -1.0
            return sign * (1.0 - 0.0005 * ply)
        below = left if child.phase == "act" else left - 1
        found = value(child, below, ply)
        return found if child.to_move == mover else -found

    mover = state.to_move
    assert mover is not None
    return {str(m): child_value(state.play(m), mover, turns, 1) for m in state.legal_moves()}


@needs_numba
def test_the_compiled_evaluator_is_the_plain_one() -> None:
    checked = 0
    for seed in range(150):
        state = kernel.random_position(seed, (seed * 7) % 110)
        for player in (0, 1):
            assert search.evaluate(state, player) == pytest.approx(evaluate(state, player), abs=1e-12)
            checked += 1
    ring = ["........", "........", "........", "........",
            "........", "..L.....", ".L.L....", "..L....."]
    state = GAME.position(ring, round=2, openings=0)
    assert search.evaluate(state, 0) == pytest.approx(evaluate(state, 0)) and evaluate(state, 0) > 0.1
    assert checked == 300


@needs_numba
def test_a_level_may_weigh_the_evaluator_s_terms_otherwise() -> None:
    assert search.weights_array().tolist() == [10, 5, 1] == list(search.WEIGHTS.values())
    with pytest.raises(ValueError, match="unknown evaluator weights"):
        search.weights_array({"mobility": 3})
    state = kernel.random_position(31, 70)
    found = search.pimc([state], depth=1, nodes=10**9, seed=0, exact_root=True,
                        weights={"pocket": 0, "piece": 0})
    mover = state.to_move
    assert mover is not None
    for move in state.legal_moves():
        after = state.play(move)
        if after.is_over:
            continue
        light, dark = after.pieces(0), after.pieces(1)
        balance = 10 * (sum(t.bit_count() for t in territories(light, dark))
                        - sum(t.bit_count() for t in territories(dark, light)))
        balance = balance if after.to_move == 0 else -balance
        value = 0.9 * balance / (abs(balance) + 60)
        assert by_text(found)[str(move)] == pytest.approx(value if after.to_move == mover else -value)


@needs_numba
@pytest.mark.parametrize(("seed", "plies", "depth"), [
    (1, 20, 2), (2, 45, 2), (3, 60, 2), (4, 70, 3), (5, 85, 2), (6, 23, 3), (7, 41, 3), (8, 96, 3),
])
def test_values_are_the_plain_search_s(seed: int, plies: int, depth: int) -> None:
    state = kernel.random_position(seed, plies)
    assert not state.is_over
    options = SearchOptions(evaluate, depth=depth, exact_root=True)
    analysis, plain = search_values(options, state, random.Random(0))
    found = search.pimc([state], depth=depth, nodes=10**9, seed=seed, exact_root=True)
    values = by_text(found)
    assert values.keys() == plain.keys()
    for text, value in plain.items():
        assert values[text] == pytest.approx(value, abs=1e-12), text
    # The plain search stops once its best move is a proven result; the kernel's goes on while
    # some root move is not proven (each world's values are averaged, each must be exact).
    assert found.depth == depth and (analysis.depth == depth or analysis.value > 0.9)
    assert found.value == pytest.approx(max(plain.values()), abs=1e-12)
    assert values[kernel.move_text(found.move)] == found.value


@needs_numba
def test_one_world_is_searched_by_plain_alpha_beta_with_the_same_best_value() -> None:
    for seed, plies in ((1, 20), (3, 60), (4, 70), (9, 14), (12, 62)):
        state = kernel.random_position(seed, plies)
        exact = search.pimc([state], depth=4, nodes=10**9, seed=seed, depth_step=2, exact_root=True)
        found = search.pimc([state], depth=4, nodes=10**9, seed=seed, depth_step=2)
        assert found.value == pytest.approx(exact.value, abs=1e-12)
        assert by_text(exact)[kernel.move_text(found.move)] == pytest.approx(found.value, abs=1e-12)
        assert all(b >= v - 1e-12 for v, b in zip(exact.scores, found.scores, strict=True))
        assert found.nodes < exact.nodes
        assert found.line[0] == found.move and 1 < len(found.line) <= 4
        after = state
        for code in found.line:  # the line expected is legal, move after move
            after = after.play(kernel.move_text(code))


@needs_numba
@pytest.mark.parametrize(("seed", "plies", "turns"), [(11, 33, 1), (12, 62, 1), (13, 88, 2), (14, 30, 1)])
def test_whole_turns_count_a_placement_and_its_action_as_one(seed: int, plies: int, turns: int) -> None:
    state = kernel.random_position(seed, plies)
    assert not state.is_over
    found = search.pimc([state], depth=turns, nodes=10**9, seed=0, whole_turns=True,
                        exact_root=True)
    reference = turn_values(state, turns)
    values = by_text(found)
    assert values.keys() == reference.keys()
    for text, value in reference.items():
        assert values[text] == pytest.approx(value, abs=1e-12), text


@needs_numba
def test_the_worlds_values_are_averaged() -> None:
    state = kernel.random_position(21, 14)  # round 1: tiles unseen
    first, second = worlds_of(state, 2, seed=3)
    assert first.to_json() != second.to_json()
    one = search.pimc([first], depth=2, nodes=10**9, seed=5, exact_root=True)
    other = search.pimc([second], depth=2, nodes=10**9, seed=5, exact_root=True)
    both = search.pimc([first, second, first], depth=2, nodes=10**9, seed=5)
    assert np.allclose(both.scores, (2 * one.scores + other.scores) / 3, atol=1e-12)
    assert both.value == pytest.approx(float(both.scores.max()))
    assert both.nodes == one.nodes + other.nodes


@needs_numba
def test_a_search_is_a_pure_function_of_seed_and_worlds() -> None:
    state = kernel.random_position(4, 30)
    worlds = worlds_of(state, 6, seed=1)
    found = search.pimc(worlds, depth=4, nodes=60_000, seed=7, depth_step=2)
    again = search.pimc(worlds, depth=4, nodes=60_000, seed=7, depth_step=2)
    assert found.move == again.move and found.nodes == again.nodes and found.line == again.line
    assert found.scores.tolist() == again.scores.tolist()
    assert kernel.move_text(found.move) in [str(m) for m in state.legal_moves()]
    # The seed orders the root: among equal moves, seeds choose differently.
    start = [GAME.new_state(seed=0)]
    chosen = {search.pimc(start, depth=1, nodes=1_000, seed=s).move for s in range(12)}
    assert len(chosen) > 1


@needs_numba
def test_the_node_budget_is_honoured() -> None:
    state = kernel.random_position(9, 14)  # round 1
    worlds = worlds_of(state, 4, seed=2)
    distinct = len({tuple(kernel.from_state(w).line.tolist()) for w in worlds})
    assert distinct > 1
    for budget in (3_000, 20_000, 100_000):
        found = search.pimc(worlds, depth=8, nodes=budget, seed=0, depth_step=2)
        assert found.nodes <= budget
        assert found.depth >= 2
    unbounded = search.pimc(worlds[:1], depth=2, nodes=10**9, seed=0)
    assert search.pimc(worlds[:1], depth=2, nodes=unbounded.nodes, seed=0).depth == 2
    assert search.pimc(worlds[:1], depth=2, nodes=unbounded.nodes - 1, seed=0).depth == 1
    # Not even one iteration fits: every root move is searched one ply deep all the same.
    tiny = search.pimc(worlds[:1], depth=4, nodes=5, seed=0, depth_step=2)
    assert tiny.depth == 1 and tiny.nodes == 5 + len(tiny.moves)  # the abandoned five, then those
    assert by_text(tiny) == by_text(search.pimc(worlds[:1], depth=1, nodes=10**9, seed=0))


@needs_numba
def test_progress_goes_forward_to_the_end() -> None:
    state = kernel.random_position(21, 14)
    heard: list[float] = []
    search.pimc(worlds_of(state, 3), depth=4, nodes=30_000, seed=0, depth_step=2,
                progress=heard.append)
    assert heard and heard == sorted(heard) and heard[-1] == 1.0 and heard[0] > 0.0


@needs_numba
def test_alike_worlds_are_searched_once_with_the_whole_budget() -> None:
    state = kernel.random_position(5, 70)  # round 4 and later: nothing left hidden
    worlds = worlds_of(state, 8)
    assert len({w.to_json()["order1"].__repr__() for w in worlds}) == 1
    found = search.pimc(worlds, depth=4, nodes=200_000, seed=1, samples=8)
    alone = search.pimc(worlds[:1], depth=4, nodes=200_000, seed=1)
    assert (found.move, found.nodes, found.scores.tolist()) == (alone.move, alone.nodes,
                                                                alone.scores.tolist())


@needs_numba
def test_the_worlds_must_hold_one_position() -> None:
    state = kernel.random_position(2, 20)
    with pytest.raises(ValueError, match="same position"):
        search.pimc([state, state.play(state.legal_moves()[0])], depth=1, nodes=100)
    with pytest.raises(ValueError, match="at least one world"):
        search.pimc([], depth=1, nodes=100)
    with pytest.raises(ValueError, match="samples"):
        search.pimc([state], depth=1, nodes=100, samples=2)
    with pytest.raises(ValueError, match="over"):
        search.pimc([kernel.random_position(1, 999)], depth=1, nodes=100)


@needs_numba
def test_a_position_with_more_moves_than_the_buffers_is_searched_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = kernel.random_position(3, 60)  # round 4, a long orthogonal capture: 60 actions
    wide = search.pimc([state], depth=3, nodes=500_000, seed=0)
    monkeypatch.setattr(search, "MOVE_ROOM", 8)
    narrow = search.pimc([state], depth=3, nodes=500_000, seed=0)
    assert by_text(narrow) == by_text(wide) and narrow.move == wide.move


@needs_numba
def test_the_kernel_offers_pimc() -> None:
    state = kernel.random_position(6, 12)
    worlds = worlds_of(state, 3)
    found = search.pimc(worlds, depth=2, nodes=30_000, seed=3)
    direct = search.pimc(worlds, depth=2, nodes=30_000, seed=3)
    assert (found.move, found.nodes, found.scores.tolist()) == (direct.move, direct.nodes,
                                                                direct.scores.tolist())
    assert found.line[0] == found.move and -1.0 <= found.value <= 1.0
    assert [int(c) for c in found.moves] == kernel.legal_moves(kernel.from_state(state))


@needs_numba
def test_ismcts_runs_its_iterations_in_the_worlds_and_is_a_pure_function_of_its_seed() -> None:
    state = kernel.random_position(9, 14)  # round 1, a placement: the next tile unknown
    worlds = worlds_of(state, 10, seed=4)
    found = search.ismcts(worlds, iterations=3_000, seed=2)
    again = search.ismcts(worlds, iterations=3_000, seed=2)
    assert (found.move, found.nodes, found.scores.tolist()) == (again.move, again.nodes,
                                                                again.scores.tolist())
    assert found.nodes == 3_000 and found.scores.sum() == 3_000
    assert found.scores[[int(c) for c in found.moves].index(found.move)] == found.scores.max()
    assert kernel.move_text(found.move) in [str(m) for m in state.legal_moves()]
    assert -1.0 <= found.value <= 1.0 and found.depth == 0
    other = search.ismcts(worlds, iterations=3_000, seed=3)
    assert other.scores.tolist() != found.scores.tolist()
    # Alike worlds are one world; the evaluator may stand for the playouts.
    alike = search.ismcts([worlds[0]] * 3, iterations=500, seed=1)
    assert alike.scores.tolist() == search.ismcts(worlds[:1], iterations=500, seed=1).scores.tolist()
    scored = search.ismcts(worlds, iterations=500, seed=1, use_evaluator=True)
    assert scored.nodes == 500 and scored.scores.sum() == 500
    keeping = search.ismcts(worlds, iterations=500, seed=1, keeps_territory=True)
    assert keeping.nodes == 500 and keeping.scores.sum() == 500
    with pytest.raises(ValueError, match="iteration"):
        search.ismcts(worlds, iterations=0)


@needs_numba
def test_ismcts_grows_its_buffers_when_a_position_needs_more_room(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = kernel.random_position(3, 60)  # round 4, a long orthogonal capture: 60 actions
    monkeypatch.setattr(search, "MOVE_ROOM", 8)
    found = search.ismcts([state], iterations=300, seed=0)
    assert found.nodes == 300 and found.scores.sum() == 300


@needs_numba
def test_playouts_may_keep_their_own_territory() -> None:
    # The last turn of the game, a blank tile: light places once, and c2 is light's territory.
    rows = ["........", "........", "........", "......D.", "........", "..L.....",
            ".L.L....", "..L....."]
    state = GAME.position(rows, round=5, drawn=8, tile="blank")
    assert state.to_move == 0 and "c2" in [str(m) for m in state.legal_moves()]
    position = kernel.from_state(state)
    moves = np.empty((kernel.MOVE_ROOM, 2), dtype=np.int64)
    paths = np.empty((0, kernel.PATH_WIDTH), dtype=np.int8)
    trail = np.empty(kernel.MAX_PLIES, dtype=np.int64)
    kept: set[int] = set()
    filled: set[int] = set()
    for seed in range(300):
        for keeps, ends in ((True, kept), (False, filled)):
            rng = np.array([seed], dtype=np.uint64)
            plies, light, dark, _ = kernel.playout(*position.words, position.line, moves, paths, trail,
                                                   rng, keeps)
            assert plies == 1
            ends.add(int(kernel.score(light, dark)[0]))
    assert kept == {1} and filled == {0, 1}
    # Without it, the playout is the kernel's own, move for move.
    state = kernel.random_position(8, 30)
    position = kernel.from_state(state)
    rng = np.array([5], dtype=np.uint64)
    end = kernel.playout(*position.words, position.line, moves, paths, trail, rng, False)
    _, final = kernel.trace_playout(state, seed=5)
    assert end[1:] == final.words and end[0] == final.ply - state.ply


def test_importing_the_kernel_compiles_no_search() -> None:
    code = ("import sys\nfrom ludotheque.engines.imbrication import kernel\n"
            "assert 'ludotheque.engines.imbrication.search' not in sys.modules\n"
            "from ludotheque.engines.imbrication import search\n"
            "assert callable(search.pimc) and callable(search.ismcts)\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
