"""Imbrication's evaluator and terminal board."""

from __future__ import annotations

import json
import random
from pathlib import Path

from rich.console import Console

import ludotheque
from ludotheque.cli.boards import board_module
from ludotheque.engines.imbrication import ImbricationState
from ludotheque.engines.imbrication.board import TILE_TABLE
from ludotheque.engines.imbrication.evaluate import evaluate

GAME = ludotheque.load("imbrication")
POSITIONS = json.loads(
    (Path(__file__).resolve().parents[1] / "data" / "imbrication" / "positions.json").read_text()
)["positions"]


def known(name: str) -> ImbricationState:
    """An opening position of ``positions.json`` (the evaluator's cases are all of that setup)."""
    spec = POSITIONS[name]
    assert spec["setup"] == "opening"
    state = GAME.position(spec["board"], round=spec["round"], openings=spec["openings"])
    assert isinstance(state, ImbricationState)
    return state


def states_of(seed: int) -> list[ImbricationState]:
    rng = random.Random(seed)
    state = GAME.new_state(seed)
    assert isinstance(state, ImbricationState)
    found = [state]
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        found.append(state)
    return found


def printed(renderable: object) -> str:
    console = Console(width=120, color_system=None)
    with console.capture() as captured:
        console.print(renderable)
    return captured.get()


def test_evaluate_is_bounded_antisymmetric_and_exact_at_the_end() -> None:
    for seed in range(3):
        states = states_of(seed)
        for state in states[:-1:7]:
            value = evaluate(state, 0)
            assert -1 < value < 1 and evaluate(state, 1) == -value
        final = states[-1]
        winners = final.result().winners
        expected = 0.0 if not winners else (1.0 if winners == (0,) else -1.0)
        assert evaluate(final, 0) == expected


def test_evaluate_prefers_territory_and_near_territory() -> None:
    names = ("round 2, an empty board", "round 2, three sides of a ring", "round 2, a ring around c2")
    values = [evaluate(known(name), 0) for name in names]
    assert values[0] == 0.0 < values[1] < values[2]


def test_the_board_shows_coordinates_letters_and_hidden_tiles_as_question_marks() -> None:
    board = board_module("imbrication")
    start = GAME.new_state(4).view(None)
    for lang, word in (("fr", "Manche 1/5"), ("en", "Round 1/5")):
        text = printed(board.render(start, lang=lang))
        assert word in text and "a  b  c  d  e  f  g  h" in text
        assert text.count("?") >= 9
        assert not any(TILE_TABLE[t].en in text or TILE_TABLE[t].fr in text for t in TILE_TABLE)


def test_the_board_marks_the_pending_piece_and_the_tile() -> None:
    board = board_module("imbrication")
    state = next(s for s in states_of(2) if s.phase == "act")
    view = state.view(0)
    text = printed(board.render(view, lang="en"))
    assert f"[{'LD'[state.to_move or 0]}]" in text
    assert TILE_TABLE[view["current_tile"]].en in text


def test_details_list_scores_pieces_and_the_winner() -> None:
    board = board_module("imbrication")
    final = states_of(1)[-1].view(None)
    text = printed(board.details(final, lang="en"))
    assert "Territory" in text and "Pieces" in text
    assert (" wins: " in text) == bool(final["result"]["winners"])
    assert str(final["pieces"][0]) in text
    assert "Territoire" in printed(board.details(final, lang="fr"))
