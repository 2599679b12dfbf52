"""The puzzles module: the shipped files load and replay, answers are judged by the line, the
Glicko-2 ratings move the right way, the generator finds and checks a puzzle in a stored game."""

from __future__ import annotations

import json
import random
from dataclasses import replace
from pathlib import Path

import pytest

import ludotheque
from ludotheque import puzzles
from ludotheque.core.errors import IllegalMoveError, InvalidMoveError
from ludotheque.core.records import Record

GAMES = ["pylos", "expion", "plimil", "imbrication"]
SHIPPED = [game for game in GAMES if puzzles.has_puzzles(game)]


def test_every_game_ships_at_least_200_puzzles() -> None:
    assert SHIPPED == GAMES
    assert all(len(puzzles.load_puzzles(game).puzzles) >= 200 for game in GAMES)


@pytest.mark.parametrize("game", SHIPPED)
def test_each_shipped_puzzle_replays_with_its_solver_to_move(game: str) -> None:
    found = puzzles.load_puzzles(game)
    assert found.game == game and found.puzzles
    assert puzzles.validate(found) == []
    hidden = ludotheque.load(game).has_hidden_information
    for puzzle in found.puzzles:
        assert puzzle.theme in (("gap",) if hidden else ("win", "save"))
        if hidden:  # the replies would depend on what the solver cannot see: one move
            assert len(puzzle.line) == 1
        state = puzzles.position(puzzle)
        assert state.to_move == puzzle.solver and len(state.legal_moves()) >= 2


def a_puzzle(theme: str, steps: int = 1) -> puzzles.Puzzle:
    return next(p for p in puzzles.load_puzzles("pylos").puzzles
                if p.theme == theme and puzzles.steps(p) >= steps)


def test_the_line_is_judged_step_by_step_and_a_wrong_move_ends_the_puzzle() -> None:
    puzzle = a_puzzle("win", steps=2)
    plies = puzzles.solver_plies(puzzle)
    first = puzzles.judge(puzzle, 0, puzzle.line[0])
    assert first.right and not first.done and first.step == 1
    assert first.replies == puzzle.line[1:plies[1]]
    last = len(plies) - 1
    assert puzzles.judge(puzzle, last, puzzle.line[plies[last]]) == puzzles.Verdict(
        True, puzzle.line[plies[last]], puzzle.line[plies[last] + 1:], True, last + 1)
    state = puzzles.position(puzzle)
    other = next(str(m) for m in state.legal_moves() if str(m) != puzzle.line[0]
                 and not state.play(m).is_over)
    wrong = puzzles.judge(puzzle, 0, other)
    assert not wrong.right and wrong.done and wrong.replies == ()
    with pytest.raises(InvalidMoveError):
        puzzles.judge(puzzle, 0, "zz")
    cells = [f"{level}{column}{row}" for level in (1, 2) for column in "abcd" for row in range(1, 5)]
    illegal = next(cell for cell in cells if cell not in {str(m) for m in state.legal_moves()})
    with pytest.raises(IllegalMoveError):
        puzzles.judge(puzzle, 0, illegal)
    with pytest.raises(puzzles.PuzzleError):
        puzzles.judge(puzzle, len(plies), puzzle.line[0])


def winning_blow() -> tuple[puzzles.Puzzle, int, str, str]:
    """A shipped puzzle, a step of it where a move ends the game won by the solver, that move,
    and another legal move."""
    for game in ("pylos", "expion"):
        for puzzle in puzzles.load_puzzles(game).puzzles if game in SHIPPED else ():
            for step in range(puzzles.steps(puzzle)):
                state = puzzles.state_at(puzzle, step)
                moves = [str(m) for m in state.legal_moves()]
                for move in moves:
                    after = state.play(move)
                    if after.is_over and puzzle.solver in after.result().winners and len(moves) > 1:
                        return puzzle, step, move, next(m for m in moves if m != move)
    raise AssertionError("no shipped puzzle has a winning blow among several moves")


def test_a_move_that_wins_at_once_is_right_even_off_the_line() -> None:
    """As lichess accepts another mate in one: a blow that ends the game won by the solver is
    right even where the line has another move (here a line whose move there was changed)."""
    puzzle, step, blow, other = winning_blow()
    index = puzzles.solver_plies(puzzle)[step]
    changed = replace(puzzle, id="changed", line=(*puzzle.line[:index], other))
    verdict = puzzles.judge(changed, step, blow)
    assert verdict.right and verdict.done and verdict.replies == ()
    assert puzzles.judge(changed, step, other).right


def test_forced_moves_of_the_solver_are_played_for_them() -> None:
    for puzzle in puzzles.load_puzzles("pylos").puzzles:
        states = puzzles.states_of(puzzle)
        for index in puzzles.solver_plies(puzzle)[1:]:
            assert len(states[index].legal_moves()) > 1
        plies = puzzles.solver_plies(puzzle)
        last = puzzles.judge(puzzle, len(plies) - 1, puzzle.line[plies[-1]])
        assert last.done and (*puzzle.line[:plies[-1] + 1], *last.replies) == puzzle.line


def test_ratings_move_the_right_way() -> None:
    person, puzzle = puzzles.Rating(1500, 200), puzzles.Rating(1600, 150)
    solved_me, solved_it = puzzles.rate(person, puzzle, solved=True)
    failed_me, failed_it = puzzles.rate(person, puzzle, solved=False)
    assert solved_me.rating > 1500 > failed_me.rating
    assert solved_it.rating < 1600 < failed_it.rating
    assert solved_me.deviation < 200 and solved_me.attempts == failed_it.attempts == 1
    # A harder puzzle solved is worth more than an easier one.
    easy = puzzles.rate(person, puzzles.Rating(1200, 150), solved=True)[0]
    assert solved_me.rating > easy.rating


def test_the_next_puzzle_is_near_the_rating_and_not_tried() -> None:
    found = puzzles.load_puzzles("pylos").puzzles
    rng = random.Random(1)
    target = 1500.0
    chosen = puzzles.nearest(found, {}, target, [], rng, choices=1)
    assert chosen is not None
    assert abs(chosen.rating - target) == min(abs(p.rating - target) for p in found)
    moved = {chosen.id: 9999.0}
    assert puzzles.nearest(found, moved, target, [], rng, choices=1) != chosen
    assert puzzles.nearest(found, {}, target, [p.id for p in found], rng) is None


def test_a_puzzles_file_with_a_bad_shape_is_refused() -> None:
    with pytest.raises(puzzles.PuzzleError, match="not JSON"):
        puzzles.read_puzzles("{", "x.json")
    with pytest.raises(puzzles.PuzzleError, match="theme"):
        bad = {"format": 1, "game": "pylos", "puzzles": [{**a_puzzle("win").to_json(), "theme": "mate"}]}
        puzzles.read_puzzles(json.dumps(bad))


def test_the_generator_finds_a_checked_puzzle_in_a_stored_game_and_writes_it(tmp_path: Path) -> None:
    """A finished game from a stored record (a shipped puzzle played out): the generator searches
    its last positions, keeps a puzzle the deeper search agrees with, and writes a file that reads
    back the same."""
    source = a_puzzle("win", steps=2)
    game = ludotheque.load("pylos")
    record = Record.start(game, source.seed).with_moves((*source.moves, *source.line))
    path = tmp_path / "game.json"
    record.save(path)
    stored = puzzles.read_records([tmp_path], game)
    assert [r.moves for r in stored] == [record.moves]
    seen: list[tuple[int, int]] = []
    found = puzzles.generate(game, 1, seed=5, records=stored,
                             progress=lambda done, total: seen.append((done, total)))
    assert len(found.puzzles) == 1 and seen[0] == (0, 1) and seen[-1] == (1, 1)
    puzzle = found.puzzles[0]
    assert puzzle.source == "record" and puzzle.theme == "win"
    assert (*puzzle.moves, *puzzle.line) == record.moves[:len(puzzle.moves) + len(puzzle.line)]
    assert puzzles.check(puzzle, found.budget.deeper(), seed=9).ok
    out = tmp_path / "puzzles.json"
    puzzles.write_puzzles(found, out)
    assert puzzles.read_puzzles(out.read_text("utf-8")) == found


def test_runs_merge_into_one_file_each_position_once() -> None:
    found = puzzles.load_puzzles("pylos")
    half = replace(found, puzzles=found.puzzles[: len(found.puzzles) // 2], seed=3)
    merged = puzzles.merge([half, found])
    assert len(merged.puzzles) == len(found.puzzles) and merged.seed == 3
    assert [p.id for p in merged.puzzles] == [f"pylos-{n:04d}" for n in range(1, len(found.puzzles) + 1)]
    with pytest.raises(puzzles.PuzzleError):
        puzzles.merge([found, replace(found, budget=puzzles.Budget(plies=3))])
    assert puzzles.parse_pairs("easy:medium,random") == [("easy", "medium"), ("random", "random")]


def test_a_wrong_line_fails_the_deeper_check() -> None:
    puzzle = a_puzzle("win", steps=2)
    state = puzzles.position(puzzle)
    other = next(str(m) for m in state.legal_moves() if str(m) != puzzle.line[0])
    broken = replace(puzzle, id="broken", line=(other,))
    assert not puzzles.check(broken, puzzles.Budget(plies=5, nodes=50_000)).ok
