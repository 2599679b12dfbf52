"""Exact values in the analysis where the game is solved here (a small game of the kids rules, 3
balls a player, solved for the test): each ply carries the position's exact value, a move of
that value and the move played's, read from the tables; none where the tables are missing."""

from __future__ import annotations

from pathlib import Path

import pytest

import ludotheque
from ludotheque import ai, solved
from ludotheque.analysis import Analysis, analyse
from ludotheque.core.records import Record
from ludotheque.engines.pylos import perfect, rules
from ludotheque.engines.pylos.solver import KidsSolver

from .games import SMALL


@pytest.fixture
def small_game(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Record:
    """A finished kids game of 3 balls a player (easy bots), the engine playing with 3 balls."""
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", 3)
    KidsSolver(tmp_path / "pylos-kids", balls=3).run()
    monkeypatch.setenv("LUDOTHEQUE_TABLES", str(tmp_path))
    game = ludotheque.load("pylos", variant="kids")
    state, moves = game.new_state(), []
    bots = [ai.bot("random", game, seed=4), ai.bot("random", game, seed=5)]
    while not state.is_over:
        assert state.to_move is not None
        moves.append(str(bots[state.to_move].choose(state)))
        state = state.play(moves[-1])
    return Record.start(game, 0).with_moves(moves).finished(state.result())


def test_each_ply_has_its_exact_values_from_the_tables(small_game: Record) -> None:
    analysis = analyse(small_game, budget=SMALL, engine="plain")
    state = ludotheque.load("pylos", variant="kids").new_state()
    for entry in analysis.plies:
        assert entry.exact == solved.exact_json(perfect.position_value(state))
        assert entry.exact_played == solved.exact_json(perfect.move_value(state, entry.move))
        values = perfect.move_values(state)
        assert values is not None and entry.exact_best is not None
        assert solved.exact_json(values[state.game.parse_move(state, entry.exact_best)]) == entry.exact
        state = state.play(entry.move)
    last = analysis.plies[-1]
    assert last.exact_played == {"result": "win", "plies": 1}  # the last move ends the game
    assert Analysis.from_json(analysis.to_json()).plies == analysis.plies
    assert solved.words_of(analysis.plies[0].exact, "fr").startswith(("gagne en ", "perd en "))


def test_without_tables_no_exact_value_is_given(small_game: Record, tmp_path: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("LUDOTHEQUE_TABLES", str(tmp_path / "none"))
    analysis = analyse(small_game, budget=SMALL, engine="plain")
    assert all(e.exact is None and e.exact_played is None and e.exact_best is None for e in analysis.plies)
    assert all(e.analysed for e in analysis.plies)
