"""Hidden information: a player's move is analysed over what that player knew; a spectator's
analysis of a finished game may use every secret."""

from __future__ import annotations

import random

import pytest

from ludotheque.analysis import analyse, analyse_move
from ludotheque.core.contract import State
from ludotheque.core.records import replay

from .games import SMALL, finished


def _other_worlds(game_id: str, seed: int) -> list[tuple[State, State, str, int]]:
    """(true state, another state its mover cannot tell from it, the move played, ply)."""
    record = finished(game_id, seed)
    states = replay(record)
    rng = random.Random(seed)
    pairs = []
    for ply in range(0, len(record.moves), max(1, len(record.moves) // 6)):
        state = states[ply]
        mover = state.to_move
        assert mover is not None
        other = state.determinize(mover, rng)
        assert other.view(mover) == state.view(mover)
        pairs.append((state, other, record.moves[ply], ply))
    return pairs


@pytest.mark.parametrize("game_id", ["imbrication", "plimil"])
def test_a_players_move_is_judged_by_what_that_player_knew(game_id: str) -> None:
    differs = False
    for state, other, move, ply in _other_worlds(game_id, 4):
        mine = analyse_move(state, move, ply=ply, budget=SMALL, seed=1)
        assert mine == analyse_move(other, move, ply=ply, budget=SMALL, seed=1)
        if state.to_json() != other.to_json():
            spectator = analyse_move(state, move, ply=ply, budget=SMALL, seed=1, spectator=True)
            elsewhere = analyse_move(other, move, ply=ply, budget=SMALL, seed=1, spectator=True)
            differs = differs or spectator != elsewhere
    assert differs, "the spectator's analysis never used the secrets"


@pytest.mark.parametrize("game_id", ["imbrication", "plimil"])
def test_perspectives_of_a_finished_hidden_game(game_id: str) -> None:
    record = finished(game_id, 5)
    players = analyse(record, budget=SMALL)
    spectator = analyse(record, budget=SMALL, perspective="spectator")
    seat = analyse(record, budget=SMALL, perspective=0)
    assert players.perspective is None and spectator.perspective == "spectator"
    assert [e.value for e in players.plies] != [e.value for e in spectator.plies]
    for mine, everyone in zip(seat.plies, players.plies, strict=True):
        assert mine.analysed == (mine.mover == 0)
        if mine.analysed:  # the seat's moves, by what it knew: as in the players' analysis
            assert mine == everyone
