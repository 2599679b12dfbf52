"""The ``perfect`` level: exact play where the tables reach (a small game of the kids rules, 3
balls a player), the ``hard`` level elsewhere, said so in its analysis."""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import pytest

import ludotheque
from ludotheque import ai
from ludotheque.engines.pylos import rules
from ludotheque.engines.pylos.perfect import (
    FALLBACK_NOTE,
    Exact,
    PerfectBot,
    exact_words,
    move_values,
    position_value,
    win_in_puzzles,
)
from ludotheque.engines.pylos.rules import PylosState
from ludotheque.engines.pylos.solver import KidsSolver, KidsTable


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    found = tmp_path_factory.mktemp("perfect3")
    KidsSolver(found, balls=3).run()
    return found


@pytest.fixture()
def three(folder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[KidsTable]:
    """The engine plays with 3 balls a player, and its tables are solved."""
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", 3)
    yield KidsTable(folder)


def _random_position(rng: random.Random, plies: int) -> PylosState:
    state = ludotheque.load("pylos", variant="kids").new_state()
    for _ in range(plies):
        if state.is_over:
            break
        state = state.play(rng.choice(state.legal_moves()))
    return state  # type: ignore[return-value]


def test_the_best_move_keeps_the_exact_value_of_the_position(three: KidsTable) -> None:
    game = ludotheque.load("pylos", variant="kids")
    bot, rng = PerfectBot(game, fallback=ai.bot("easy", game), table=three), random.Random(3)
    checked = 0
    while checked < 60:
        state = _random_position(rng, rng.randrange(0, 5))
        if state.is_over:
            continue
        value = position_value(state, three)
        said = bot.analyse(state)
        assert value is not None and said.algorithm == "perfect"
        assert said.value == value.score and said.depth == value.plies
        assert move_values(state, three)[said.best_move] == value  # type: ignore[index]
        checked += 1


def test_perfect_wins_every_won_position_against_medium(three: KidsTable) -> None:
    game = ludotheque.load("pylos", variant="kids")
    rng, games = random.Random(8), 0
    while games < 12:
        state = _random_position(rng, rng.randrange(0, 4))
        value = position_value(state, three)
        if value is None or not value.wins:
            continue
        perfect = PerfectBot(game, fallback=ai.bot("easy", game), table=three, rng=random.Random(games))
        other = ai.bot("medium", game, seed=games)
        winner, plies = state.to_move, 0
        while not state.is_over:
            mover = perfect if state.to_move == winner else other
            state = state.play(mover.choose(state))
            plies += 1
        assert state.result().winners == (winner,) and plies == value.plies
        games += 1


def test_where_nothing_is_solved_it_plays_hard_and_says_so(tmp_path: Path) -> None:
    game, rng = ludotheque.load("pylos", variant="standard"), random.Random(2)
    state = game.new_state()
    # Near the end of a standard game (few balls left): the hard level's search is short.
    while state.is_over or state.reserve(0) + state.reserve(1) > 5:  # type: ignore[attr-defined]
        state = game.new_state() if state.is_over else state.play(rng.choice(state.legal_moves()))
    # The hard level as it plays on the plain engine: its kernel form compiles for half a
    # minute on first use, and the bot passes the position on the same way to either.
    hard = ai.bot("hard-plain", game, seed=1)
    bot = PerfectBot(game, fallback=hard, table=KidsTable(tmp_path))
    said = bot.analyse(state)
    assert said.algorithm.endswith(f"({FALLBACK_NOTE})") and said.algorithm.startswith(hard.algorithm)
    assert said.best_move in state.legal_moves() and said.best_move == hard.choose(state)


def test_tables_not_yet_solved_that_far_fall_back(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules, "BALLS_PER_PLAYER", 3)
    KidsSolver(tmp_path, balls=3, stretch=50, checkpoint_s=0.0).run(max_stretches=3)
    game = ludotheque.load("pylos", variant="kids")
    bot = PerfectBot(game, fallback=ai.bot("easy", game), table=KidsTable(tmp_path))
    said = bot.analyse(game.new_state())
    assert FALLBACK_NOTE in said.algorithm and position_value(game.new_state(), KidsTable(tmp_path)) is None


def test_tables_of_another_game_size_are_not_used(folder: Path) -> None:
    # The engine plays with 15 balls; the tables hold 3: nothing is taken from them.
    assert move_values(ludotheque.load("pylos", variant="kids").new_state(), KidsTable(folder)) is None


def test_exact_values_in_words() -> None:
    assert [exact_words(Exact(True, 1), "en"), exact_words(Exact(False, 36), "en")] == [
        "wins in 1", "loses in 36"]
    assert exact_words(Exact(True, 12), "fr") == "gagne en 12"
    assert Exact(True, 3).key() < Exact(True, 5).key() < Exact(False, 9).key() < Exact(False, 2).key()


def test_win_in_n_puzzles_come_from_the_tables(three: KidsTable) -> None:
    puzzles = win_in_puzzles(3, 5, seed=4, table=three)
    assert len(puzzles) == 5
    for state in puzzles:
        values = move_values(state, three)
        assert values is not None and min(v.key() for v in values.values()) == (0, 3)
    assert win_in_puzzles(7, 3, seed=4, table=three, tries=200) == []  # 3 balls: 6 plies at most


def test_the_perfect_level_is_the_games_own_bot_where_it_ships_one() -> None:
    assert isinstance(ai.bot("perfect", ludotheque.load("pylos", variant="kids"), seed=1), PerfectBot)
    assert isinstance(ai.bot("parfait", ludotheque.load("pylos"), seed=1), PerfectBot)
    elsewhere = ai.bot("perfect", ludotheque.load("expion"), seed=1)  # no solver: its hard level
    assert not isinstance(elsewhere, PerfectBot)
    assert type(elsewhere) is type(ai.bot("hard", ludotheque.load("expion"), seed=1))
