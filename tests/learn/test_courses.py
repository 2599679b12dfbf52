"""Every game's course: at least 8 steps in French and English, ending with a game against
``easy``; every step's position replays, its answer is judged right, a legal wrong move is judged
wrong, each with the step's explanation in both languages."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque import lessons

GAMES = ["expion", "imbrication", "plimil", "pylos"]
STEPS = [(game, step.id) for game in GAMES for step in lessons.load_course(game).steps]


def test_every_registered_game_has_a_course() -> None:
    assert sorted(lessons.courses()) == sorted(set(ludotheque.games()) & set(GAMES))
    assert set(GAMES) <= set(ludotheque.games())


@pytest.mark.parametrize("game_id", GAMES)
def test_a_course_has_eight_steps_and_ends_with_a_game_against_easy(game_id: str) -> None:
    course = lessons.load_course(game_id)
    assert len(course.steps) >= 8
    last = course.steps[-1]
    assert last.is_game and last.opponent == "easy"
    assert not any(step.is_game for step in course.steps[:-1])
    assert course.steps[0].position.moves == ()  # the course starts from the setup
    for step in course.steps:
        for key in ("title", "text", "task", "right", "wrong"):
            assert step.words(key, "fr").strip() and step.words(key, "en").strip(), (step.id, key)
            assert step.words(key, "fr") != step.words(key, "en"), (step.id, key)


def _step(game_id: str, step_id: str) -> lessons.Step:
    course = lessons.load_course(game_id)
    return course.steps[course.index(step_id)]


@pytest.mark.parametrize(("game_id", "step_id"), STEPS)
def test_each_step_judges_its_answer_right_and_a_wrong_move_wrong(game_id: str, step_id: str) -> None:
    step = _step(game_id, step_id)
    game, state = lessons.rebuild(step)
    assert game.id == game_id
    if step.is_game:
        assert state.to_move is not None and not state.is_over
        return
    legal = [str(move) for move in state.legal_moves()]
    right = lessons.right_moves(step, state)
    assert right, f"{step_id}: no legal move is right"
    wrong = [move for move in legal if move not in right]
    assert wrong, f"{step_id}: every legal move is right: the step teaches nothing"
    expected = list(step.answer.moves) or right
    for lang in ("fr", "en"):
        verdict = lessons.check(step, state, expected[0], lang)
        assert verdict.right and verdict.move == expected[0]
        assert verdict.explanation == step.right[lang]
        verdict = lessons.check(step, state, wrong[0], lang)
        assert not verdict.right and verdict.move == wrong[0]
        assert verdict.explanation == step.wrong[lang]
    # An answer typed in upper case with spaces is the same move.
    assert lessons.check(step, state, f"  {expected[0].upper()} ", "en").right


@pytest.mark.parametrize(("game_id", "step_id"), STEPS)
def test_a_step_position_replays_the_same_every_time(game_id: str, step_id: str) -> None:
    step = _step(game_id, step_id)
    first, second = lessons.rebuild(step)[1], lessons.rebuild(step)[1]
    assert first.to_json() == second.to_json()
    assert first.view(first.to_move) == second.view(second.to_move)


def test_an_illegal_or_malformed_answer_is_no_verdict() -> None:
    step = lessons.load_course("pylos").steps[0]
    _, state = lessons.rebuild(step)
    with pytest.raises(ValueError, match="4a1"):
        lessons.check(step, state, "4a1", "en")
    with pytest.raises(ValueError):
        lessons.check(step, state, "zz", "en")


@pytest.mark.parametrize("game_id", GAMES)
def test_the_final_game_is_judged_on_its_result(game_id: str) -> None:
    from .support import winning_line

    step = lessons.load_course(game_id).steps[-1]
    game, state = lessons.rebuild(step)
    mine = iter(winning_line(step, levels=("easy",)))
    from ludotheque import ai

    bots = {p: ai.bot(step.opponent, game, seed=step.position.seed + p) for p in range(game.players)}
    while not state.is_over:
        player = state.to_move
        assert player is not None
        state = state.play(next(mine) if player == step.seat else bots[player].choose(state))
    verdict = lessons.judge_game(step, state, "fr")
    assert verdict.right and verdict.explanation == step.right["fr"]
    lost = game.resignation(step.seat)
    assert step.seat not in lost.winners


def test_what_a_page_shows_of_a_step_gives_no_answer_away() -> None:
    import json

    course = lessons.load_course("pylos")
    shown = lessons.public(course.steps[1], "fr")
    assert shown["title"] == "Bloquer un carré" and shown["game"] is False
    assert "1c3" not in json.dumps(shown["position"]) and "answer" not in shown
    last = lessons.public(course.steps[-1], "en")
    assert last["game"] is True and last["opponent"] == "easy" and last["seat"] == 0
    json.dumps(last)


@pytest.mark.parametrize(("game_id", "step_id", "near_miss"), [
    ("pylos", "take-two", "1c3x1c3"),  # a square, but only one ball back
    ("pylos", "raise-square", "2b2x2b1x2c1"),  # the square by a placement: one ball gained, not two
    ("expion", "push", "e6-d6"),  # the marble next to it moves, but the EX*PION stays
    ("expion", "step-back", "d1-d3"),  # a capture, but not the step back the task asks for
    ("imbrication", "chain-captures", "g2xg8"),  # one capture only
    ("plimil", "colour-change", "f3-f4xe4"),  # announced, but the block turns red and stops
])
def test_a_near_miss_is_judged_wrong(game_id: str, step_id: str, near_miss: str) -> None:
    step = _step(game_id, step_id)
    _, state = lessons.rebuild(step)
    assert near_miss in [str(move) for move in state.legal_moves()]
    assert not lessons.check(step, state, near_miss, "en").right
