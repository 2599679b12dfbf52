"""The analysis of finished games: its numbers, marks, determinism and the blunders it finds."""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from dataclasses import asdict

import pytest

import ludotheque
from ludotheque.analysis import (
    MARKS,
    Analysis,
    Budget,
    PlyAnalysis,
    Thresholds,
    analyse,
    analyse_move,
    analyse_part,
    assemble,
    budget_for,
    plies_to_analyse,
    thresholds_for,
)
from ludotheque.core.contract import Result, State
from ludotheque.core.records import Record, replay

from .games import SMALL, finished

GAMES = ("pylos", "expion", "imbrication", "plimil")


@pytest.mark.parametrize("game_id", GAMES)
def test_every_ply_is_analysed_within_the_rules(game_id: str) -> None:
    record = finished(game_id, 1)
    states = replay(record)
    analysis = analyse(record, budget=SMALL)
    thresholds = thresholds_for(game_id)
    assert analysis.thresholds == thresholds
    assert len(analysis.plies) == len(record.moves)
    for entry, state, text in zip(analysis.plies, states, record.moves, strict=False):
        assert entry.analysed and entry.move == text and entry.mover == state.to_move
        assert entry.value is not None and -1.0 <= entry.value <= 1.0
        assert entry.played_value is not None and -1.0 <= entry.played_value <= 1.0
        assert entry.loss is not None and entry.loss >= 0.0
        legal = [str(move) for move in state.legal_moves()]
        assert entry.best in legal
        assert entry.line and entry.line[0] == entry.best
        if entry.best == text:
            assert entry.loss == 0.0
        assert entry.mark == (thresholds.mark(entry.loss) if entry.loss > 0 else None)
    summary = analysis.summary()
    assert sum(int(row["moves"]) for row in summary.values()) == len(record.moves)
    for row in summary.values():
        assert row["average_loss"] >= 0.0
        assert all(row[name] >= 0 for name in MARKS)


def test_the_analysis_is_a_function_of_its_seed() -> None:
    record = finished("pylos", 2)
    first = analyse(record, budget=SMALL, seed=5)
    assert analyse(record, budget=SMALL, seed=5) == first
    hidden = finished("imbrication", 2)
    assert analyse(hidden, budget=SMALL, seed=3) == analyse(hidden, budget=SMALL, seed=3)


def test_progress_counts_the_plies() -> None:
    record = finished("pylos", 1)
    told: list[tuple[int, int]] = []
    analyse(record, budget=SMALL, progress=lambda done, total: told.append((done, total)))
    total = len(record.moves)
    assert told[0] == (0, total) and told[-1] == (total, total) and len(told) == total + 1


def test_a_game_not_over_is_refused() -> None:
    record = finished("pylos", 1)
    unfinished = Record(record.game, record.variant, record.players, record.seed, record.rules_version,
                        record.moves[:-3], None, record.started)
    with pytest.raises(ValueError, match="not over"):
        analyse(unfinished, budget=SMALL)


def test_bad_perspective_is_refused() -> None:
    with pytest.raises(ValueError, match="perspective"):
        analyse(finished("pylos", 1), budget=SMALL, perspective=5)


def test_a_seat_perspective_analyses_that_seats_moves_only() -> None:
    record = finished("pylos", 1)
    analysis = analyse(record, budget=SMALL, perspective=1)
    assert all(entry.analysed == (entry.mover == 1) for entry in analysis.plies)
    assert all(entry.value is None for entry in analysis.plies if not entry.analysed)
    assert analysis.summary()[0]["moves"] == 0


def _moves_that_lose_at_once(game_id: str) -> Iterator[tuple[State, str]]:
    """From the end of random games (fixed seeds): positions where one move lets the opponent
    win on the next ply while another move does not."""
    game = ludotheque.load(game_id, players=2)
    for seed in range(20):
        rng = random.Random(seed)
        state = game.new_state(seed=seed)
        path = [state]
        while not state.is_over:
            state = state.play(rng.choice(state.legal_moves()))
            path.append(state)
        for position in reversed(path[:-1][-20:]):
            mover = position.to_move
            bad = safe = None
            for move in position.legal_moves():
                child = position.play(move)
                if child.is_over:
                    continue
                lost = any((after := child.play(reply)).is_over and after.result().winners
                           and mover not in after.result().winners for reply in child.legal_moves())
                if lost and bad is None:
                    bad = str(move)
                safe = safe or (None if lost else str(move))
            if bad and safe:
                yield position, bad


def test_a_move_that_lets_the_opponent_win_next_ply_is_a_blunder() -> None:
    game_id = "expion"
    blunder = thresholds_for(game_id).blunder
    for number, (position, bad) in enumerate(_moves_that_lose_at_once(game_id)):
        entry = analyse_move(position, bad, budget=SMALL)
        assert entry.played_value == -1.0  # the search sees the win that follows
        if entry.value is not None and entry.value > -1.0 + blunder:  # a safer move was there
            assert entry.best != bad and entry.mark == "blunder", entry
            return
        assert number < 30, "no position with a safer move among the first 30"
    raise AssertionError(f"{game_id}: no position with a safer move")


def test_the_worst_move_of_a_pylos_position_is_a_blunder() -> None:
    """Pylos's immediate wins come only once the game is decided; a deliberately bad move there
    is the worst move of a position by a search of each move (one that gives the opponent a
    square to close, or a ball), in a position where it loses much."""
    game = ludotheque.load("pylos")
    searches = game.info.load_searches()
    assert searches is not None
    blunder = thresholds_for("pylos").blunder
    states = replay(finished("pylos", 3))
    for position in states[6:-4]:
        values = {}
        for move in position.legal_moves():
            child = position.play(move)
            values[str(move)] = -1.0 if child.is_over else -searches.alphabeta(child, nodes=60_000).value
        worst = min(values, key=lambda text: values[text])
        if max(values.values()) - values[worst] < 2 * blunder + 0.5:
            continue
        entry = analyse_move(position, worst)  # the default budget: one position
        assert entry.mark == "blunder", (entry, values[worst], max(values.values()))
        return
    raise AssertionError("no Pylos position with a move that loses much")


def test_thresholds_and_budgets_are_data_per_game() -> None:
    for game_id in GAMES:
        thresholds = thresholds_for(game_id)
        assert 0 < thresholds.inaccuracy <= thresholds.mistake <= thresholds.blunder <= 2
        assert isinstance(budget_for(game_id), Budget)
    limits = Thresholds(0.1, 0.2, 0.4)
    assert [limits.mark(x) for x in (0.0, 0.1, 0.19, 0.2, 0.4, 2.0)] == [
        None, "inaccuracy", "inaccuracy", "mistake", "blunder", "blunder"]
    with pytest.raises(ValueError):
        Thresholds(0.3, 0.2, 0.4)
    with pytest.raises(ValueError):
        Budget(nodes=0)


def test_the_plain_engine_analyses_where_no_kernel_runs() -> None:
    record = finished("pylos", 1)
    analysis = analyse(record, budget=Budget(nodes=500, plain_depth=1), engine="plain")
    assert analysis.engine == "plain alpha-beta"
    states = replay(record)
    for entry, state in zip(analysis.plies, states, strict=False):
        assert entry.best in [str(m) for m in state.legal_moves()]
        assert entry.loss is not None and entry.loss >= 0


def test_an_analysis_made_in_parts_is_the_whole_one() -> None:
    """The server analyses a game in parts (analyse_part in its workers), in any order."""
    record = finished("pylos", 1)
    whole = analyse(record, budget=SMALL)
    plies = list(range(len(record.moves)))
    parts = [analyse_part(record.to_json(), plies[start:start + 7], None, asdict(SMALL))
             for start in range(0, len(plies), 7)]
    entries = [PlyAnalysis.from_json(entry) for part in reversed(parts) for entry in part["plies"]]
    rebuilt = assemble(record, entries, engine=parts[0]["engine"], budget=SMALL)
    assert rebuilt == whole
    assert Analysis.from_json(json.loads(json.dumps(whole.to_json()))) == whole


def test_a_game_ended_by_resignation_is_analysed_up_to_its_last_move() -> None:
    record = finished("pylos", 1)
    resigned = Record(record.game, record.variant, record.players, record.seed, record.rules_version,
                      record.moves[:6], Result((1,), (0.0, 1.0), "resignation"), record.started)
    analysis = analyse(resigned, budget=SMALL, perspective=0)
    assert len(analysis.plies) == 6 and analysis.winners == (1,) and analysis.final == -1.0
    assert [entry.analysed for entry in analysis.plies] == [True, False] * 3
    assert plies_to_analyse(resigned, 1) == [1, 3, 5]
