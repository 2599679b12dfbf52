"""Ex*Pion compiled kernel: it agrees with the plain engine (the reference) move for move.

The long agreement run (10,000 games per player count) is ``kernel.compare_with_plain`` called by
a benchmark; here a short one, perft (every count of ``tests/data/expion/perft.json`` and the plain
engine's own perft in the middle of games), every position of ``positions.json`` one move deep,
and the playouts' bookkeeping.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from ludotheque.engines.expion import kernel
from ludotheque.engines.expion.rules import ExpionGame, ExpionState

needs_numba = pytest.mark.skipif(not kernel.AVAILABLE, reason="numba is not installed")

DATA = Path(__file__).resolve().parents[1] / "data" / "expion"
POSITIONS: dict[str, dict[str, Any]] = json.loads((DATA / "positions.json").read_text("utf-8"))["positions"]
PERFT: list[dict[str, Any]] = json.loads((DATA / "perft.json").read_text("utf-8"))["counts"]
PLAYERS = (4, 3, 2)


def known(name: str) -> ExpionState:
    """The position ``name`` of ``positions.json`` (as ``tests/games/test_expion.py`` builds it)."""
    entry = POSITIONS[name]
    grid = [[" "] * 9 for _ in range(9)]
    for token in entry["pieces"].split():
        kind, cell = token[0], token[1:]
        grid[9 - int(cell[1:])]["abcdefghi".index(cell[0])] = kind
    game = ExpionGame(players=entry.get("players", 4))
    return game.position(["".join(row) for row in grid], camp=entry.get("camp", "N"),
                         first_capture=entry.get("first_capture", False))


def plain_perft(state: ExpionState, depth: int) -> int:
    """Perft through the contract (a game that ends sooner is counted nowhere deeper)."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(plain_perft(state.play(move), depth - 1) for move in moves)


def played(players: int, plies: int, seed: int, takebacks: float = 0.0) -> ExpionState:
    """A state after ``plies`` random moves (or the end, if sooner); with ``takebacks``, a camp
    prefers taking back its previous move, so that positions repeat."""
    rng = random.Random(seed)
    state = ExpionGame(players=players).new_state()
    last: dict[str | None, str] = {}
    while not state.is_over and state.ply < plies:
        texts = [str(m) for m in state.legal_moves()]
        back = "-".join(reversed(last.get(state.camp_to_move, "-").split("-")))
        text = back if back in texts and rng.random() < takebacks else rng.choice(texts)
        last[state.camp_to_move] = text
        state = state.play(text)
    return state


@needs_numba
@pytest.mark.parametrize("entry", PERFT, ids=lambda entry: f"{entry['position']}-{entry['players']}p")
def test_perft_counts_of_the_plain_engine(entry: dict[str, Any]) -> None:
    state = ExpionGame(players=entry["players"]).new_state() if entry["position"] == "start" else (
        known(entry["position"])
    )
    assert [kernel.perft(depth, state) for depth in range(len(entry["nodes"]))] == entry["nodes"]


@needs_numba
def test_perft_from_the_start_by_player_count() -> None:
    assert kernel.perft(3) == 8_505
    assert kernel.perft(3, players=3) == 33_894 and kernel.perft(3, players=2) == 67_788


@needs_numba
@pytest.mark.parametrize("players", PLAYERS)
def test_perft_agrees_with_the_plain_engine_in_the_middle_of_games(players: int) -> None:
    for seed in range(3):
        for takebacks in (0.0, 0.9):  # the second kind of game has positions seen twice
            state = played(players, 60 + 40 * seed, seed, takebacks)
            if not state.is_over:
                assert kernel.perft(3, state) == plain_perft(state, 3), (seed, takebacks)


@needs_numba
@pytest.mark.parametrize("name", sorted(POSITIONS))
def test_every_known_position_one_move_deep(name: str) -> None:
    state = known(name)
    position = kernel.from_state(state)
    codes = kernel.legal_moves(position)
    assert [kernel.move_text(code) for code in codes] == [str(m) for m in state.legal_moves()]
    for code in codes:
        after = kernel.play(position, code)
        plain = state.play(kernel.move_text(code))
        assert after == kernel.from_state(plain)
        assert after.is_over == plain.is_over
        if plain.is_over:
            assert after.result() == plain.result()


@needs_numba
def test_the_blocked_board_and_the_winning_push_end_alike() -> None:
    blocked = kernel.play(kernel.from_state(known("blocked_after_e4_e3")), kernel.move_code("e4-e3"))
    assert blocked.result().reason == "blocked" and blocked.result().winners == ()
    push = kernel.play(kernel.from_state(known("winning_push_into_north_camp")), kernel.move_code("e7-e8"))
    assert push.result().winners == (1, 2) and push.result().scores == (-1, 1, 1)


@needs_numba
@pytest.mark.parametrize("players", PLAYERS)
def test_short_agreement_on_random_games(players: int) -> None:
    uniform = kernel.compare_with_plain(players, 6, seed=100)
    assert uniform.configuration == f"expion/standard/{players}"
    assert uniform.games == 6 and uniform.plies > 6 * 100
    biased = kernel.compare_with_plain(ExpionGame(players=players), 12, seed=200, takebacks=0.5)
    assert sum(biased.endings.values()) == 12 and biased.endings.get("repetition", 0) >= 6


@needs_numba
def test_compiled_playouts_count_repetitions_like_the_plain_engine() -> None:
    # North's c7 and East's g4 alone: random moves go round in circles and repeat positions.
    state = known("two_marbles_cycle")
    reasons = set()
    for seed in range(30):
        trail, final = kernel.trace_playout(state, seed)  # raises if its own replay ends elsewhere
        plain = state
        for move in trail:
            plain = plain.play(kernel.move_text(move))
        assert plain.is_over and plain.result() == final.result()
        assert kernel.from_state(plain) == final
        reasons.add(final.result().reason)
    assert "repetition" in reasons


@needs_numba
@pytest.mark.parametrize("players", PLAYERS)
def test_compiled_playouts_from_the_middle_of_games_are_legal_and_end_alike(players: int) -> None:
    for seed in range(4):
        state = played(players, 50 + 30 * seed, seed, takebacks=0.6)
        trail, final = kernel.trace_playout(state, seed)
        for move in trail:
            state = state.play(kernel.move_text(move))
        assert state.is_over and final.is_over
        assert state.result() == final.result()
        assert kernel.from_state(state) == final


@needs_numba
def test_move_codes_round_trip_through_the_plain_moves_and_text() -> None:
    for players in PLAYERS:
        starting = ExpionGame(players=players).new_state()
        for state in (starting, played(players, 80, 4), played(players, 300, 5)):
            for move in state.legal_moves():
                code = kernel.from_plain_move(move)
                assert kernel.to_plain_move(code) == move
                assert kernel.move_code(str(move)) == code
                assert kernel.move_text(code) == str(move)
            codes = kernel.legal_moves(kernel.from_state(state))
            assert codes == sorted(codes)  # ascending codes: the canonical order


@needs_numba
def test_positions_convert_to_and_from_plain_states() -> None:
    for players in PLAYERS:
        for state in (
            ExpionGame(players=players).new_state(), played(players, 120, 2), played(players, 90, 3, 0.9),
            played(players, 9_999, 5),
        ):
            position = kernel.from_state(state)
            assert kernel.to_state(position).to_json() == state.to_json()
            assert position.is_over == state.is_over
            assert position.to_move == state.to_move
            if state.is_over:
                assert position.result() == state.result()
            pos = kernel.position_array(position)
            assert pos[kernel.KEY] == kernel.plain_key_hash(position.key()) >= 0


@needs_numba
@pytest.mark.parametrize("players", PLAYERS)
def test_every_player_of_the_winning_team_wins_the_playout(players: int) -> None:
    wins, draws, _ = kernel.playouts(ExpionGame(players=players).new_state(), 300, seed=4)
    teams = ExpionGame(players=players).teams
    for team in teams:  # team-mates win together
        assert len({int(wins[p]) for p in team}) == 1
    assert sum(int(wins[team[0]]) for team in teams) + draws == 300


@needs_numba
def test_a_playout_longer_than_its_room_is_played_again_the_same_way(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = ExpionGame().new_state()
    roomy = kernel.playouts(state, 50, seed=3)
    trail, final = kernel.trace_playout(state, seed=3)
    monkeypatch.setattr(kernel, "PLAYOUT_ROOM", 8)
    cramped = kernel.playouts(state, 50, seed=3)
    assert cramped.lengths.tolist() == roomy.lengths.tolist() and roomy.lengths.max() > 8
    assert cramped.wins.tolist() == roomy.wins.tolist() and cramped.draws == roomy.draws
    assert kernel.trace_playout(state, seed=3) == (trail, final)


@needs_numba
def test_random_playouts_end_like_the_plain_engine_s_on_average() -> None:
    # Mean lengths of 150 plain random games (seed 1): 667 (4 players), 684 (3), 656 (2).
    for players, mean in ((4, 667.0), (3, 684.0), (2, 656.0)):
        lengths = kernel.playouts(ExpionGame(players=players).new_state(), 2_000, seed=1).lengths
        assert abs(float(lengths.mean()) - mean) < 0.1 * mean


@needs_numba
def test_a_search_can_copy_play_and_key_positions() -> None:
    position = kernel.from_state(played(4, 30, 7))
    stack = np.empty((2, kernel.POSITION_SIZE), dtype=np.int64)
    stack[0] = kernel.position_array(position)
    moves = np.empty(kernel.MAX_MOVES, dtype=np.int32)
    n = kernel.generate(stack[0], 4, moves)
    assert kernel.player_to_move(stack[0], 4) == position.to_move
    assert kernel.team_to_move(stack[0]) == position.camp % 2
    for code in moves[:n]:
        stack[1] = stack[0]
        outcome, _ = kernel.step(stack[1], 4, int(code), np.empty(kernel.MAX_MOVES, dtype=np.int32))
        after = kernel.play(position, int(code))
        assert np.array_equal(stack[1], kernel.position_array(after))  # the key kept move by move
        assert outcome == after.outcome
    assert np.array_equal(stack[0], kernel.position_array(position))  # the row above is untouched


@needs_numba
def test_a_full_move_buffer_raises_instead_of_overflowing() -> None:
    pos = kernel.position_array(kernel.from_state(ExpionGame().new_state()))
    with pytest.raises(IndexError, match="buffer"):
        kernel.generate(pos, 4, np.empty(3, dtype=np.int32))


@needs_numba
def test_play_refuses_an_illegal_move() -> None:
    position = kernel.from_state(ExpionGame().new_state())
    with pytest.raises(ValueError, match="not legal"):
        kernel.play(position, kernel.move_code("e9-e5"))
