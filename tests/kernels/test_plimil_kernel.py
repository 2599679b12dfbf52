"""Plimil compiled kernel: it agrees with the plain engine (the reference) move for move.

The long agreement run (10,000 games per variant) is ``kernel.compare_with_plain`` called by the
benchmark; here a short one in every variant, games from the known positions of
``tests/data/plimil`` (every ending), perft against the plain engine's counts, the keys of the
positions seen, and the playouts' bookkeeping.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import ludotheque
from ludotheque.engines.compiled import seen_pop
from ludotheque.engines.plimil import GAME, kernel
from ludotheque.engines.plimil.board import VARIANTS
from ludotheque.engines.plimil.rules import PlimilGame, PlimilState
from tests.games.test_plimil import CYCLE, GAMES, PERFT, PREFIX, REPETITION, position

needs_numba = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")


def plain_perft(state: ludotheque.State, depth: int) -> int:
    """Perft through the contract (games that end sooner are not counted beyond their end)."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(plain_perft(after, depth - 1) for after in map(state.play, moves) if not after.is_over)


def played(variant: str, plies: int, seed: int) -> PlimilState:
    """A state after ``plies`` random moves from the new game (or its end, if sooner)."""
    rng = random.Random(seed)
    state = PlimilGame(variant).new_state()
    while not state.is_over and state.ply < plies:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def perft_start(name: str) -> PlimilState:
    """The start of the perft count ``name`` of ``tests/data/plimil/perft.json``."""
    start = PERFT[name]["start"]
    if "position" in start:
        return position(start["position"])
    state = GAMES[PERFT[name]["variant"]].new_state()
    for text in start["moves"]:
        state = state.play(text)
    assert isinstance(state, PlimilState)
    return state


def test_the_game_declares_its_kernel() -> None:
    assert GAME.kernel == "ludotheque.engines.plimil.kernel"
    assert GAME.load_kernel() is (kernel if kernel.AVAILABLE else None)


@needs_numba
@pytest.mark.parametrize("name", list(PERFT))
def test_perft_gives_the_plain_engine_s_counts(name: str) -> None:
    counts = PERFT[name]["perft"]
    state = perft_start(name)
    assert [kernel.perft(depth, state) for depth in range(1, len(counts) + 1)] == counts
    assert kernel.perft(0, state) == 1


@needs_numba
@pytest.mark.parametrize("variant", VARIANTS)
def test_perft_agrees_with_the_plain_engine_in_the_middle_of_games(variant: str) -> None:
    for seed, plies in ((1, 20), (2, 26), (3, 34), (4, 44)):
        state = played(variant, plies, seed)
        if not state.is_over:
            assert kernel.perft(3, state) == plain_perft(state, 3), (seed, plies)


@needs_numba
@pytest.mark.parametrize("variant", VARIANTS)
def test_short_agreement_on_random_games(variant: str) -> None:
    agreement = kernel.compare_with_plain(variant, 20, seed=100)
    assert agreement.games == 20 and agreement.plies > 20 * 40
    assert agreement.configuration == f"plimil/{variant}/2"


@needs_numba
@pytest.mark.parametrize(("variant", "seed", "reason"), [
    ("standard", 60, "repetition"), ("standard", 202, "two_passes"),
    ("setup10", 233, "repetition"), ("setup10", 1540, "two_passes"),
])
def test_random_games_that_end_in_a_draw_rule_agree(variant: str, seed: int, reason: str) -> None:
    # Seeds found to end so: 99% of random games end by the rule of 7.
    agreement = kernel.compare_with_plain(variant, 1, seed=seed)
    assert agreement.endings == {reason: 1}


@needs_numba
@pytest.mark.parametrize(("name", "quiet", "ending"), [
    ("blocked", 0, "two_passes"), ("swapped", 0, "two_passes"), ("start", 90, "hundred_plies"),
    ("neutral_on_c6", 0, None), ("rulebook_seventh_neutral", 0, None), ("rulebook_capture", 0, None),
    ("red_neutral_capture", 0, None), ("rotation_cancelled", 0, None),
])
def test_games_from_the_known_positions_agree(name: str, quiet: int, ending: str | None) -> None:
    state = position(name, quiet_plies=quiet)
    agreement = kernel.compare_with_plain(GAMES["open"], 6, seed=7, start=state)
    assert sum(agreement.endings.values()) == 6
    if ending is not None:
        assert agreement.endings.get(ending, 0) > 0


@needs_numba
def test_the_known_repetition_cycle_is_a_draw_in_the_kernel_too() -> None:
    state = position(REPETITION["from"])
    current = kernel.from_state(state)
    for text in PREFIX + CYCLE * 2:
        assert not current.is_over
        state = state.play(text)
        current = kernel.play(current, kernel.move_code(text))
        assert kernel.from_state(state) == current
        pos = current.array()
        assert kernel.position_key(pos) == kernel.hash_of_plain_key(
            kernel.plain_key(current.cells, current.flips, current.rotation, current.mover))
    assert current.result() == state.result() and current.result().reason == "repetition"
    assert kernel.to_state(current).to_json() == state.to_json()


@needs_numba
def test_perft_stops_at_the_third_occurrence() -> None:
    state = position(REPETITION["from"])
    for text in PREFIX + CYCLE + CYCLE[:3]:
        state = state.play(text)
    assert not state.is_over
    # The last move of the cycle ends the game: no move follows it in the count.
    assert kernel.perft(2, state) == plain_perft(state, 2)
    assert kernel.perft(3, state) == plain_perft(state, 3)


@needs_numba
@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_playouts_from_the_middle_of_games_are_legal_and_end_alike(variant: str) -> None:
    for seed in range(6):
        state = played(variant, 10 + 8 * seed, seed)
        trail, final = kernel.trace_playout(state, seed)
        for move in trail:
            state = state.play(kernel.move_text(move))
        assert state.is_over and final.is_over
        assert state.result() == final.result()
        assert kernel.from_state(state) == final


@needs_numba
def test_move_codes_round_trip_through_the_plain_moves_and_text() -> None:
    for variant in VARIANTS:
        states = [played(variant, plies, seed) for seed, plies in ((0, 0), (1, 5), (2, 20), (3, 40))]
        states.append(position("neutral_on_c6"))
        for state in states:
            codes = kernel.legal_moves(kernel.from_state(state))
            for move, code in zip(state.legal_moves(), codes, strict=True):
                assert kernel.from_plain_move(move) == code
                assert kernel.to_plain_move(code) == move
                assert kernel.move_code(str(move)) == code
                assert kernel.move_text(code) == str(move)


@needs_numba
def test_positions_convert_to_and_from_plain_states() -> None:
    for variant in VARIANTS:
        for state in (played(variant, 0, 0), played(variant, 7, 1), played(variant, 26, 2),
                      played(variant, 45, 3), played(variant, 999, 4), position("blocked").play("pass")):
            current = kernel.from_state(state)
            assert kernel.to_state(current).to_json() == state.to_json()
            assert current.is_over == state.is_over and current.in_setup == state.in_setup
            assert current.counts == state.counts and current.colours == state.colours


@needs_numba
def test_the_kernel_s_key_is_a_hash_of_the_plain_engine_s() -> None:
    state = played("standard", 26, 5)
    current = kernel.from_state(state)
    ((plain, occurrences),) = current.seen.items()
    assert occurrences == 1
    keys, counts = kernel.seen_table(current.seen, spare=8)
    pos = current.array()
    assert kernel.position_key(pos) == kernel.hash_of_plain_key(plain)
    assert 0 <= kernel.position_key(pos) < 2**63
    assert counts[keys == kernel.position_key(pos)].tolist() == [1]
    # Mover and rotation are part of the key.
    turned = kernel.Position(**{**current.__dict__, "rotation": 1})
    assert kernel.position_key(turned.array()) != kernel.position_key(pos)


@needs_numba
@pytest.mark.parametrize("variant", VARIANTS)
def test_determinizations_become_arrays_without_json(variant: str) -> None:
    rng = random.Random(3)
    for plies in (5, 20, 40):
        state = played(variant, plies, plies)
        if state.is_over:
            continue
        for player in (0, 1, None):
            drawn = state.determinize(player, rng)
            assert np.array_equal(kernel.array_of(drawn), kernel.from_state(drawn).array())
            # Their keys hold no secret: every determinization has the same positions seen.
            assert kernel.from_state(drawn).seen == kernel.from_state(state).seen
    with pytest.raises(ValueError, match="over"):
        kernel.array_of(played(variant, 999, 1))


@needs_numba
def test_a_search_steps_and_takes_back_with_the_table_of_positions_seen() -> None:
    # Through the setup's last move (the first occurrence of the position when play begins),
    # then play: each step counts its position, and popping its slot leaves the table as it was.
    state = played("standard", 25, 6)
    current = kernel.from_state(state)
    keys, counts = kernel.seen_table(current.seen, spare=64)
    pos = current.array()
    assert kernel.in_setup(pos) and kernel.to_move(pos) == 1
    slots = []
    for _ in range(12):
        move = kernel.legal_moves(current)[0]
        outcome, slot = kernel.step(pos, move, keys, counts)
        current = kernel.play(current, move)
        assert slot >= 0 and outcome == current.outcome and not kernel.in_setup(pos)
        assert np.array_equal(pos, current.array()) and kernel.to_move(pos) == current.mover
        assert sorted(counts[counts > 0].tolist()) == sorted(current.seen.values())
        slots.append(slot)
        if current.is_over:
            break
    for slot in reversed(slots):
        seen_pop(keys, counts, slot)
    assert counts.sum() == 0 and (keys == -1).all()


@needs_numba
def test_a_playout_longer_than_its_room_is_played_again_the_same_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = PlimilGame("setup10").new_state()
    roomy = kernel.playouts(state, 100, seed=3)
    trail, final = kernel.trace_playout(state, seed=3)
    monkeypatch.setattr(kernel, "PLAYOUT_ROOM", 8)
    cramped = kernel.playouts(state, 100, seed=3)
    assert cramped.lengths.tolist() == roomy.lengths.tolist() and roomy.lengths.max() > 8
    assert cramped.wins.tolist() == roomy.wins.tolist() and cramped.draws == roomy.draws
    assert kernel.trace_playout(state, seed=3) == (trail, final)


@needs_numba
def test_playouts_of_a_finished_game_repeat_its_result() -> None:
    won = played("standard", 999, 1)
    wins, draws, lengths = kernel.playouts(won, 5)
    assert wins.tolist()[won.result().winners[0]] == 5 and draws == 0 and lengths.sum() == 0
    drawn = position("swapped").play("pass").play("pass")
    wins, draws, _ = kernel.playouts(drawn, 5)
    assert drawn.result().winners == () and wins.tolist() == [0, 0] and draws == 5


@needs_numba
def test_random_playouts_end_like_the_plain_engine_s_on_average() -> None:
    # Mean lengths of 1,000 plain random games (seed 1): standard 62.5, setup10 59.6 plies.
    for variant, mean in (("standard", 62.5), ("setup10", 59.6)):
        lengths = kernel.playouts(PlimilGame(variant).new_state(), 5_000, seed=1).lengths
        assert abs(float(lengths.mean()) - mean) < 0.05 * mean


@needs_numba
def test_a_full_move_buffer_raises_instead_of_overflowing() -> None:
    moves = np.empty(3, dtype=np.int32)
    with pytest.raises(IndexError, match="buffer"):
        kernel.generate(kernel.from_state(PlimilGame().new_state()).array(), moves)


@needs_numba
def test_play_refuses_an_illegal_move() -> None:
    current = kernel.from_state(PlimilGame().new_state())
    with pytest.raises(ValueError, match="not legal"):
        kernel.play(current, kernel.move_code("d2-d4"))
    with pytest.raises(ValueError, match="not legal"):
        kernel.play(kernel.from_state(position("start")), kernel.PASS)
