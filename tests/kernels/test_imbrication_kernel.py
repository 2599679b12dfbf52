"""Imbrication compiled kernel: it agrees with the plain engine (the reference) move for move.

The long agreement run (10,000 games) is ``kernel.compare_with_plain("standard", 10_000)``, which
the benchmark calls; here a short one, perft, hand-built capture chains, the geometry and the
playouts' bookkeeping.
"""

from __future__ import annotations

import dataclasses
import random

import numpy as np
import pytest

from ludotheque.engines.imbrication import kernel
from ludotheque.engines.imbrication.board import BIT, EDGE, FULL, INDEX, banned, territories
from ludotheque.engines.imbrication.board import TILES as TILE_NAMES
from ludotheque.engines.imbrication.rules import ImbricationGame, ImbricationState

needs_numba = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")
GAME = ImbricationGame()


def plain_perft(state: ImbricationState, depth: int) -> int:
    """Perft through the contract (games that end sooner are not counted beyond their end)."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(plain_perft(after, depth - 1) for after in map(state.play, moves) if not after.is_over)


def signed(mask: int) -> int:
    return mask - (1 << 64) if mask >> 63 else mask


def board(light: list[str], dark: list[str]) -> list[str]:
    """A diagram (rank 8 first) with ``light`` and ``dark`` pieces on the named cells."""
    rows = []
    for rank in range(8, 0, -1):
        rows.append("".join(
            "L" if f"{file}{rank}" in light else "D" if f"{file}{rank}" in dark else "."
            for file in "abcdefgh"
        ))
    return rows


def kernel_texts(state: ImbricationState) -> list[str]:
    return [kernel.move_text(code) for code in kernel.legal_moves(kernel.from_state(state))]


def test_the_game_declares_its_kernel() -> None:
    assert GAME.info.kernel == "ludotheque.engines.imbrication.kernel"
    assert GAME.info.load_kernel() is (kernel if kernel.AVAILABLE else None)


@needs_numba
def test_perft_from_the_start() -> None:
    # Depths 1-4 are the opening placements; the ban (two enemy pieces around) first bites at 4.
    assert [kernel.perft(depth) for depth in range(5)] == [1, 64, 4_032, 249_984, 15_237_312]
    # The plain engine's perft(4) is the same 15,237,312 (2 s; run once, not here).
    assert kernel.perft(3) == plain_perft(GAME.new_state(), 3)


@needs_numba
@pytest.mark.parametrize("plies", [17, 40, 60, 75, 85, 95])
def test_perft_agrees_with_the_plain_engine_in_the_middle_of_games(plies: int) -> None:
    for seed in range(2):
        state = kernel.random_position(seed + plies, plies)
        if not state.is_over:
            assert kernel.perft(3, state) == plain_perft(state, 3), (seed + plies, plies)


@needs_numba
def test_perft_through_a_round_four_capture_turn() -> None:
    state = kernel.random_position(3, 60)  # round 4, a long orthogonal capture pending
    assert (state.round, state.current_tile) == (4, "ljump")
    assert kernel.perft(3, state) == plain_perft(state, 3) == 80_049


@needs_numba
def test_short_agreement_on_random_games() -> None:
    agreement = kernel.compare_with_plain("standard", 40, seed=1_000)
    assert agreement.configuration == "imbrication/standard/2"
    assert agreement.games == 40 and agreement.plies > 40 * 60
    assert sum(agreement.endings.values()) == 40


@needs_numba
@pytest.mark.parametrize("tile", TILE_NAMES)
@pytest.mark.parametrize("round_", [1, 4])
def test_every_tile_s_actions_agree_in_random_positions(tile: str, round_: int) -> None:
    rng = random.Random(f"{tile} {round_}")
    checked = 0
    for pieces in [12, 24, 40] * 20:
        cells = rng.sample(sorted(INDEX), pieces)
        own, enemy = cells[: pieces // 3], cells[pieces // 3 :]
        rows = board(own, enemy) if round_ % 2 else board(enemy, own)  # the mover's turn 1
        try:
            state = GAME.position(rows, round=round_, drawn=1, placed=own[0], tile=tile)
        except ValueError:
            continue  # the placed piece cannot perform this tile: no such position
        assert kernel_texts(state) == [str(m) for m in state.legal_moves()]
        checked += 1
    assert checked > 10 or tile == "blank"


@needs_numba
def test_a_chain_may_end_on_its_start_cell() -> None:
    rows = board(["d4"], ["d5", "e6", "f5", "e4"])
    state = GAME.position(rows, drawn=1, placed="d4", tile="jump")
    texts = kernel_texts(state)
    assert texts == [str(m) for m in state.legal_moves()]
    assert "d4xd6xf6xf4xd4" in texts and "d4xf4xf6xd6xd4" in texts


@needs_numba
def test_a_chain_longer_than_64_bits_of_code_round_trips() -> None:
    # Ten short hops from a1 through the pieces between c1, e1, g1, g3, e3, c3, a3, a5, c5, e5.
    dark = ["b1", "d1", "f1", "g2", "f3", "d3", "b3", "a4", "b5", "d5"]
    state = GAME.position(board(["a1"], dark), drawn=1, placed="a1", tile="jump")
    longest = "a1xc1xe1xg1xg3xe3xc3xa3xa5xc5xe5"
    codes = kernel.legal_moves(kernel.from_state(state))
    assert [kernel.move_text(c) for c in codes] == [str(m) for m in state.legal_moves()]
    assert kernel.move_code(longest) in codes and kernel.move_code(longest) >= 1 << 64
    after = kernel.play(kernel.from_state(state), kernel.move_code(longest))
    assert kernel.from_state(state.play(longest)) == after
    assert after.dark == 0 and after.light == BIT[INDEX["e5"]]


@needs_numba
def test_move_codes_round_trip_through_the_plain_moves_and_text() -> None:
    for seed, plies in ((0, 0), (1, 30), (2, 60), (3, 60), (4, 87)):
        state = kernel.random_position(seed, plies)
        for move in state.legal_moves():
            code = kernel.from_plain_move(move)
            assert kernel.to_plain_move(code) == move
            assert kernel.move_code(str(move)) == code
            assert kernel.move_text(code) == str(move)


@needs_numba
def test_positions_convert_to_and_from_plain_states() -> None:
    for seed, plies in ((0, 0), (1, 17), (2, 40), (3, 61), (4, 999)):
        state = kernel.random_position(seed, plies)
        position = kernel.from_state(state)
        assert kernel.to_state(position).to_json() == state.to_json()
        assert position.is_over == state.is_over and position.to_move == state.to_move
        if state.is_over:
            assert position.result() == state.result()
    determinized = kernel.random_position(5, 20).determinize(0, random.Random(1))
    assert kernel.to_state(kernel.from_state(determinized)).to_json() == determinized.to_json()


@needs_numba
def test_placement_ban_and_territories_are_board_py_s() -> None:
    rng = random.Random(2)
    for density in (0.1, 0.3, 0.5, 0.7):
        for _ in range(2_000):
            light = dark = 0
            for cell in range(64):
                if rng.random() < density:
                    if rng.random() < 0.5:
                        light |= 1 << cell
                    else:
                        dark |= 1 << cell
            for mover, enemy in ((0, dark), (1, light)):
                expected = FULL & ~(light | dark) & ~banned(enemy)
                assert kernel.placeable(signed(light), signed(dark), mover) & FULL == expected
            first, second, _, _ = kernel.score(signed(light), signed(dark))
            assert first == sum(t.bit_count() for t in territories(light, dark))
            assert second == sum(t.bit_count() for t in territories(dark, light))
    ring = FULL & ~EDGE  # every edge cell empty: no territory at all
    assert kernel.score(signed(ring), 0)[:2] == (0, 0)


@needs_numba
def test_a_position_with_more_moves_than_the_buffer_is_played_again_the_same_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = kernel.random_position(3, 60)
    roomy = kernel.playouts(state, 50, seed=3)
    codes, final = kernel.trace_playout(state, seed=3)
    monkeypatch.setattr(kernel, "MOVE_ROOM", 4)
    cramped = kernel.playouts(state, 50, seed=3)
    assert cramped.lengths.tolist() == roomy.lengths.tolist()
    assert cramped.wins.tolist() == roomy.wins.tolist() and cramped.draws == roomy.draws
    assert kernel.trace_playout(state, seed=3) == (codes, final)
    assert len(kernel.legal_moves(kernel.from_state(state))) == 60


@needs_numba
def test_generate_counts_the_moves_past_a_full_buffer() -> None:
    position = kernel.from_state(GAME.new_state())
    moves = np.empty((3, 2), dtype=np.int64)
    paths = np.empty((0, kernel.PATH_WIDTH), dtype=np.int8)
    assert kernel.generate(*position.words, position.line, moves, paths) == 64
    assert moves[:, 0].tolist() == [0, 1, 2]


@needs_numba
def test_random_playouts_end_like_the_plain_engine_s_on_average() -> None:
    # 2,000 plain random games from new_state(0 ... 1999) (seed 0): mean length 96.4 plies,
    # 8.3% draws.
    lengths = []
    draws = 0
    for seed in range(20):
        done = kernel.playouts(GAME.new_state(seed=seed), 250, seed=seed)
        lengths.extend(done.lengths.tolist())
        draws += done.draws
    assert abs(float(np.mean(lengths)) - 96.4) < 1.5
    assert 0.04 < draws / 5_000 < 0.13


@needs_numba
def test_redrawn_lines_keep_what_was_seen_and_ignore_the_rest() -> None:
    for seed, plies in ((0, 0), (1, 7), (2, 12), (3, 20), (4, 40), (5, 60), (6, 95)):
        state = kernel.random_position(seed, plies)
        position = kernel.from_state(state)
        clock = position.words[2]
        redrawn = kernel.redraw_line(position.line, clock, np.array([seed], dtype=np.uint64))
        orders = (tuple(redrawn[:9].tolist()), tuple(redrawn[27:36].tolist()))
        assert sorted(orders[0]) == sorted(orders[1]) == list(range(9))
        assert redrawn.tolist() == dataclasses.replace(position, orders=orders).line.tolist()
        seen = state.revealed_in_round_one()
        assert orders[0][:seen] == position.orders[0][:seen]
        assert state.is_round_four_order_known() == (orders[1] == position.orders[1])
        # A state the players cannot tell apart from this one redraws alike.
        other = kernel.from_state(state.determinize(None, random.Random(seed)))
        again = kernel.redraw_line(other.line, clock, np.array([seed], dtype=np.uint64))
        assert again.tolist() == redrawn.tolist()
    start = kernel.from_state(GAME.new_state())
    rng = np.array([1], dtype=np.uint64)
    firsts = [int(kernel.redraw_line(start.line, start.words[2], rng)[0]) for _ in range(900)]
    assert all(60 < firsts.count(tile) < 140 for tile in range(9))


@needs_numba
def test_position_keys_tell_positions_apart() -> None:
    keys: dict[int, tuple[int, int, int]] = {}
    for seed in range(30):
        codes, _ = kernel.trace_playout(GAME.new_state(seed=seed), seed)
        position = kernel.from_state(GAME.new_state(seed=seed))
        for code in codes:
            position = kernel.play(position, code)
            words = position.words
            assert keys.setdefault(kernel.position_key(*words), words) == words


@needs_numba
def test_play_refuses_an_illegal_move() -> None:
    position = kernel.from_state(GAME.new_state())
    with pytest.raises(ValueError, match="not legal"):
        kernel.play(position, kernel.move_code("d4-d5"))
    after = kernel.play(position, kernel.move_code("d4"))
    with pytest.raises(ValueError, match="not legal"):
        kernel.play(after, kernel.move_code("d4"))
