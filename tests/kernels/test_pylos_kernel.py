"""Pylos compiled kernel: it agrees with the plain engine (the reference) move for move.

The long agreement run (10,000 games per rule set) is ``benchmarks/kernel_speed.py --agreement``;
here a short one, perft, the geometry and the playouts' bookkeeping.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from ludotheque.engines.pylos import kernel
from ludotheque.engines.pylos.board import ALL, LEVEL_MASK, available, covered
from ludotheque.engines.pylos.rules import VARIANTS, PylosGame, PylosState

needs_numba = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")


def plain_perft(state: PylosState, depth: int) -> int:
    """Perft through the contract (games that end sooner are not counted beyond their end)."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(plain_perft(after, depth - 1) for after in map(state.play, moves) if not after.is_over)


def played(variant: str, plies: int, seed: int, takebacks: float = 0.95) -> PylosState:
    """A state after ``plies`` random moves preferring to take back the ball just played, so that
    positions repeat (or the end, if sooner)."""
    rng = random.Random(seed)
    state = PylosGame(variant).new_state()
    while not state.is_over and state.ply < plies:
        moves = state.legal_moves()
        back = [m for m in moves if m.target in m.removals]
        state = state.play(rng.choice(back if back and rng.random() < takebacks else moves))
    return state


@needs_numba
def test_perft_from_the_start_matches_the_rules_file() -> None:
    counts = [kernel.perft(depth) for depth in range(1, 7)]
    assert counts == [16, 240, 3_360, 43_680, 524_376, 5_786_496]
    assert kernel.perft(0) == 1


@needs_numba
@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_agrees_with_the_plain_engine_in_the_middle_of_games(variant: str) -> None:
    for seed in range(3):
        state = played(variant, 24 + 6 * seed, seed)
        if not state.is_over:
            assert kernel.perft(3, state) == plain_perft(state, 3)


@needs_numba
def test_available_and_covered_are_board_py_s_on_every_shape_of_pyramid() -> None:
    rng = random.Random(1)
    masks = [rng.getrandbits(30) for _ in range(20_000)]
    # Every pattern of level 1 under an empty top, and of each upper level on full lower ones.
    masks += list(range(1 << 16))
    masks += [LEVEL_MASK[1] | pattern << 16 for pattern in range(1 << 9)]
    masks += [LEVEL_MASK[1] | LEVEL_MASK[2] | pattern << 25 for pattern in range(1 << 5)]
    for mask in masks:
        assert kernel.available(mask) == available(mask) & ALL, mask
        assert kernel.covered(mask) == covered(mask), mask


@needs_numba
@pytest.mark.parametrize("variant", VARIANTS)
def test_short_agreement_on_random_games(variant: str) -> None:
    games = 8 if variant == "advanced" else 25  # advanced games are three times longer
    uniform = kernel.compare_with_plain(variant, games, seed=100)
    assert uniform.games == games and uniform.plies > games * 30
    biased = kernel.compare_with_plain(variant, games, seed=200, takebacks=0.95)
    assert sum(biased.endings.values()) == games


@needs_numba
def test_games_that_take_back_balls_reach_repetition_draws_alike() -> None:
    # Seeds found to end in a repetition draw in one of their two games.
    for variant, seed in (("standard", 30), ("advanced", 36)):
        agreement = kernel.compare_with_plain(variant, 2, seed=seed, takebacks=0.95)
        assert agreement.endings.get("repetition") == 1


@needs_numba
@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_playouts_from_the_middle_of_games_are_legal_and_end_alike(variant: str) -> None:
    for seed in range(6):
        state = played(variant, 20 + 5 * seed, seed)
        trail, final = kernel.trace_playout(state, seed)
        for move in trail:
            state = state.play(kernel.move_text(move))
        assert state.is_over and final.is_over
        assert state.result() == final.result()
        assert kernel.from_state(state) == final


@needs_numba
def test_move_codes_round_trip_through_the_plain_moves_and_text() -> None:
    for variant in VARIANTS:
        for state in (PylosGame(variant).new_state(), played(variant, 30, 4), played(variant, 60, 5)):
            for move in state.legal_moves():
                code = kernel.from_plain_move(move)
                assert kernel.to_plain_move(code) == move
                assert kernel.move_code(str(move)) == code
                assert kernel.move_text(code) == str(move)


@needs_numba
def test_positions_convert_to_and_from_plain_states() -> None:
    for variant in VARIANTS:
        for state in (PylosGame(variant).new_state(), played(variant, 40, 2), played(variant, 999, 5)):
            position = kernel.from_state(state)
            assert kernel.to_state(position).to_json() == state.to_json()
            assert position.is_over == state.is_over


@needs_numba
def test_a_playout_longer_than_its_room_is_played_again_the_same_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = PylosGame("advanced").new_state()
    roomy = kernel.playouts(state, 100, seed=3)
    trail, final = kernel.trace_playout(state, seed=3)
    monkeypatch.setattr(kernel, "PLAYOUT_ROOM", 8)
    cramped = kernel.playouts(state, 100, seed=3)
    assert cramped.lengths.tolist() == roomy.lengths.tolist() and roomy.lengths.max() > 8
    assert cramped.wins.tolist() == roomy.wins.tolist() and cramped.draws == roomy.draws
    assert kernel.trace_playout(state, seed=3) == (trail, final)


@needs_numba
def test_random_playouts_end_like_the_plain_engine_s_on_average() -> None:
    # Mean lengths of 300 plain random games (seed 1): kids 34.2, standard 45.4, advanced 129.
    for variant, mean in (("kids", 34.2), ("standard", 45.4), ("advanced", 129.0)):
        lengths = kernel.playouts(PylosGame(variant).new_state(), 5_000, seed=1).lengths
        assert abs(float(lengths.mean()) - mean) < 0.1 * mean


@needs_numba
def test_a_full_move_buffer_raises_instead_of_overflowing() -> None:
    moves = np.empty(3, dtype=np.int32)
    with pytest.raises(IndexError, match="buffer"):
        kernel.generate(0, 0, 0, kernel.VARIANT_CODES["standard"], moves)


@needs_numba
def test_play_refuses_an_illegal_move() -> None:
    position = kernel.from_state(PylosGame().new_state())
    with pytest.raises(ValueError, match="not legal"):
        kernel.play(position, kernel.move_code("2a1"))
