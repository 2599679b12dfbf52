"""Pylos: every clause of the game's RULES.md, on positions built for the purpose.

The positions live in ``tests/data/pylos/positions.json``, each with why it matters, and their
perft counts in ``perft.json``: ``known("square_ready")`` builds one by name.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

import ludotheque
from ludotheque.core import IllegalMoveError, InvalidMoveError
from ludotheque.engines.pylos.board import INDEX, LEVEL, NAMES
from ludotheque.engines.pylos.rules import PylosGame, PylosState

DATA = Path(__file__).parent.parent / "data" / "pylos"
POSITIONS: dict[str, dict[str, Any]] = json.loads((DATA / "positions.json").read_text())["positions"]
PERFT: list[dict[str, Any]] = json.loads((DATA / "perft.json").read_text())["perft"]


def known(name: str, *, mover: int | None = None, variant: str | None = None) -> PylosState:
    """The position ``name`` of ``positions.json`` (its player to move and rule set unless given)."""
    entry = POSITIONS[name]
    return position(entry["light"], entry["dark"], entry["mover"] if mover is None else mover,
                    variant or entry.get("variant", "standard"))


def position(light: str = "", dark: str = "", mover: int = 0, variant: str = "standard") -> PylosState:
    """A position with the given balls (cell names separated by spaces), ``mover`` to play."""
    game = ludotheque.load("pylos", variant=variant)
    light_mask = sum(1 << INDEX[c] for c in light.split())
    dark_mask = sum(1 << INDEX[c] for c in dark.split())
    key = light_mask | dark_mask << 30 | mover << 60
    return game.state_from_json({
        "game": "pylos", "variant": variant, "players": 2, "light": light_mask, "dark": dark_mask,
        "mover": mover, "ply": 0, "seen": [[key, 1]], "result": None,
    })


def texts(state: PylosState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


LEVEL1 = " ".join(f"1{f}{r}" for r in "1234" for f in "abcd")


# -- the start and the notation ---------------------------------------------------------------
def test_start_position_has_sixteen_placements_on_level_one_in_cell_order() -> None:
    state = ludotheque.load("pylos").new_state(seed=5)
    assert texts(state) == [f"1{f}{r}" for r in "1234" for f in "abcd"]
    assert state.to_move == 0 and state.view(None)["reserves"] == [15, 15]
    assert known("start") == state


# -- the data files: the positions are what they say, and perft ---------------------------------
@pytest.mark.parametrize("name", [n for n, entry in POSITIONS.items() if "moves" in entry])
def test_a_position_taken_from_a_game_is_reached_by_its_moves(name: str) -> None:
    entry = POSITIONS[name]
    state = PylosGame(entry["variant"]).new_state()
    for text in entry["moves"].split():
        state = state.play(text)
    built = known(name)
    assert (state.balls(0), state.balls(1), state.to_move) == (built.balls(0), built.balls(1), built.to_move)


def test_every_known_position_is_a_game_in_progress_with_legal_balls() -> None:
    for name, entry in POSITIONS.items():
        state = known(name)
        assert not state.is_over and state.legal_moves(), name
        cells = entry["light"].split() + entry["dark"].split()
        assert len(cells) == len(set(cells)) and all(c in INDEX for c in cells), name


def perft(state: PylosState, depth: int) -> int:
    """Sequences of exactly ``depth`` legal moves from ``state`` (a finished game has none)."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(after, depth - 1) for after in map(state.play, moves) if not after.is_over)


@pytest.mark.parametrize("entry", PERFT, ids=lambda entry: f"{entry['position']}-{entry['variant']}")
def test_perft_counts_of_the_data_file(entry: dict[str, Any]) -> None:
    state = known(entry["position"], variant=entry["variant"])
    assert [perft(state, depth) for depth in range(1, len(entry["counts"]) + 1)] == entry["counts"]


def test_seed_is_ignored_because_pylos_has_no_chance() -> None:
    game = ludotheque.load("pylos")
    assert game.new_state(seed=1).to_json() == game.new_state(seed=99).to_json()
    assert not game.has_chance and not game.has_hidden_information


@pytest.mark.parametrize("text", ["1e1", "5a1", "1a", "a1", "1a1-", "1a1x", "1a1 x1b1", "1a1x1b1x1c1x1d1"])
def test_malformed_text_is_invalid(text: str) -> None:
    state = ludotheque.load("pylos").new_state()
    with pytest.raises(InvalidMoveError, match="pylos"):
        state.play(text)


def test_parser_accepts_case_and_surrounding_spaces_and_prints_lower_case() -> None:
    state = ludotheque.load("pylos").new_state()
    assert str(ludotheque.load("pylos").parse_move(state, "  1B2 \n")) == "1b2"


def test_cell_names_cover_thirty_cells_on_four_levels() -> None:
    assert len(NAMES) == 30
    assert [NAMES.count(n) for n in ("1d4", "2c3", "3b2", "4a1")] == [1, 1, 1, 1]
    assert [LEVEL.count(level) for level in (1, 2, 3, 4)] == [16, 9, 4, 1]


# -- available cells ---------------------------------------------------------------------------
def test_an_upper_cell_is_available_only_on_four_occupied_supports_of_any_colour() -> None:
    three = known("three_supports")
    assert "2a1" not in texts(three)
    with pytest.raises(IllegalMoveError, match="not available"):
        three.play("2a1")
    assert "2a1" in texts(known("four_supports"))


def test_an_occupied_cell_is_not_available() -> None:
    with pytest.raises(IllegalMoveError):
        known("one_ball").play("1a1")


# -- raises --------------------------------------------------------------------------------------
def test_a_free_own_ball_may_be_raised_to_a_higher_available_cell() -> None:
    state = known("raise_ready")
    assert "1d4-2a1" in texts(state)
    after = state.play("1d4-2a1")
    assert after.owner(INDEX["2a1"]) == 0 and after.owner(INDEX["1d4"]) is None
    assert after.reserve(0) == 12


def test_a_ball_may_not_be_raised_onto_a_cell_it_supports() -> None:
    state = known("four_supports")
    assert "1a1-2a1" not in texts(state)
    with pytest.raises(IllegalMoveError, match="supports"):
        state.play("1a1-2a1")


def test_only_own_free_balls_rise_and_only_to_a_strictly_higher_level() -> None:
    state = known("covered_and_foreign")
    moves = texts(state)
    assert not any(m.startswith("1a1-") for m in moves), "1a1 carries 2a1: not free"
    assert not any(m.startswith("1c4-") for m in moves), "not one's own ball"
    with pytest.raises(IllegalMoveError):
        state.play("1d4-1c3")
    with pytest.raises(IllegalMoveError, match="not free"):
        state.play("1a1-2c3")


def test_the_top_is_never_reached_by_a_raise() -> None:
    assert texts(known("top_only")) == POSITIONS["top_only"]["legal_moves"] == ["4a1"]


# -- squares and removals ------------------------------------------------------------------------
def test_completing_a_square_requires_one_or_two_removals() -> None:
    state = known("square_ready")
    moves = texts(state)
    assert "1b2" not in moves
    assert "1b2x1b2" in moves, "the ball just played may be taken back"
    assert "1b2x1a1x1d4" in moves
    with pytest.raises(IllegalMoveError, match="take back"):
        state.play("1b2")
    after = state.play("1b2x1a1x1d4")
    assert after.reserve(0) == 15 - 3


def test_only_free_own_balls_are_taken_back() -> None:
    state = known("covered_supports")
    moves = texts(state)
    assert "1b2x1a1" in moves
    assert not any("x1b1" in m or "x1c1" in m or "x1d1" in m for m in moves)
    with pytest.raises(IllegalMoveError):
        state.play("1b2x1d1")


def test_a_square_of_mixed_colours_saves_nothing() -> None:
    state = known("mixed_square")
    assert "1b2" in texts(state) and not any(m.startswith("1b2x") for m in texts(state))


def test_the_second_removal_may_be_freed_by_the_first() -> None:
    state = known("freed_by_first")
    moves = texts(state)
    assert "1d4x2a1x1a1" in moves
    assert "1d4x1a1x2a1" not in moves
    with pytest.raises(IllegalMoveError):
        state.play("1d4x1a1x2a1")
    assert str(ludotheque.load("pylos").parse_move(state, "1d4x2a1x1a1")) == "1d4x2a1x1a1"


def test_a_pair_that_works_in_both_orders_is_listed_once_in_cell_order() -> None:
    state = known("pair_either_order")
    moves = texts(state)
    assert moves.count("1b2x1a1x1d4") == 1 and "1b2x1d4x1a1" not in moves
    game = ludotheque.load("pylos")
    assert str(game.parse_move(state, "1b2x1d4x1a1")) == "1b2x1a1x1d4"


def test_removal_variants_replace_the_placement_in_canonical_order() -> None:
    moves = texts(known("removal_order"))
    start = moves.index("1b2x1a1")
    expected = ["1b2x1a1", "1b2x1a1x1b1", "1b2x1a1x1a2", "1b2x1a1x1b2", "1b2x1b1", "1b2x1b1x1a2",
                "1b2x1b1x1b2", "1b2x1a2", "1b2x1a2x1b2", "1b2x1b2"]
    assert moves[start : start + len(expected)] == expected
    assert moves[start - 1] == "1d1" and moves[start + len(expected)] == "1c2"


def test_squares_count_on_levels_two_and_three() -> None:
    level2 = known("square_on_level_two")
    assert "2b2" not in texts(level2) and "2b2x1d4" in texts(level2)
    level3 = known("square_on_level_three")
    assert "3b2" not in texts(level3) and "3b2x3b2" in texts(level3)


def test_several_figures_at_once_still_allow_at_most_two_removals() -> None:
    state = known("two_squares_at_once")
    assert all(m.count("x") <= 2 for m in texts(state))
    assert "1b2x1a1x1c1" in texts(state)


def test_a_raise_that_completes_a_square_also_takes_back() -> None:
    state = known("raise_completes_square")
    assert "1a4-2b2" not in texts(state)
    assert "1a4-2b2x1d4" in texts(state)


# -- lines: advanced rules only ----------------------------------------------------------------
def test_lines_of_four_on_level_one_count_only_under_advanced_rules() -> None:
    standard = known("row_of_three")
    advanced = known("row_of_three", variant="advanced")
    assert "1d1" in texts(standard)
    assert "1d1" not in texts(advanced) and "1d1x1d1" in texts(advanced)
    assert "1a4x1a4" in texts(known("column_of_three"))


def test_lines_of_three_on_level_two_count_under_advanced_rules() -> None:
    assert "2c1x2c1" in texts(known("level_two_row", variant="advanced"))
    assert "2c1" in texts(known("level_two_row"))


def test_diagonals_never_count_as_lines() -> None:
    assert "1d4" in texts(known("diagonal"))


# -- kids rules --------------------------------------------------------------------------------
def test_kids_rules_have_no_squares_and_no_lines() -> None:
    square = known("removal_order", variant="kids")
    assert "1b2" in texts(square) and not any("x" in m for m in texts(square))
    with pytest.raises(IllegalMoveError):
        square.play("1b2x1b2")


# -- the end -----------------------------------------------------------------------------------
def test_placing_the_top_wins() -> None:
    final = known("top_only").play("4a1")
    assert final.is_over and final.to_move is None
    assert final.result().winners == (0,) and final.result().scores == (1, -1)
    assert final.result().reason == "top"


def test_an_empty_reserve_at_the_start_of_a_turn_loses_even_with_a_raise_possible() -> None:
    dark_spent = known("dark_last_ball").play("1d4")
    assert not dark_spent.is_over and dark_spent.reserve(1) == 0, "Light's turn comes first"
    final = dark_spent.play("2b2")
    assert final.is_over and final.result().winners == (0,)
    assert final.result().reason == "empty_reserve"
    raises_left = known("dark_empty_with_a_raise")
    assert raises_left.reserve(1) == 0
    assert any(m.is_raise for m in raises_left.legal_moves()), "Dark could still raise"


def test_a_game_in_which_nobody_saves_a_ball_is_won_by_the_second_player() -> None:
    for variant in ("kids", "standard", "advanced"):
        state = ludotheque.load("pylos", variant=variant).new_state()
        while not state.is_over:
            placements = [m for m in state.legal_moves() if not m.is_raise and not m.removals]
            state = state.play(placements[0])
        assert state.ply == 30 and state.result().winners == (1,), variant
        assert state.result().reason == "top"


def test_the_third_occurrence_of_a_position_is_a_draw() -> None:
    state = known("take_back_loop")
    moves = ["1b2x1b2", "1d4x1d4", "1b2x1b2"]
    for text in moves:
        state = state.play(text)
        assert not state.is_over
    assert state.repetitions == 2
    final = state.play("1d4x1d4")
    assert final.is_over and final.result().winners == () and final.result().scores == (0, 0)
    assert final.result().reason == "repetition"
    assert any(count == 3 for _, count in final.to_json()["seen"])


def test_the_top_is_tested_before_the_empty_reserve() -> None:
    final = known("top_only", mover=1).play("4a1")
    assert final.result().reason == "top" and final.result().winners == (1,)


def test_result_before_the_end_raises_and_nothing_changes_on_errors() -> None:
    state = ludotheque.load("pylos").new_state()
    with pytest.raises(ValueError, match="not over"):
        state.result()
    before = state.to_json()
    for bad in ("2a1", "zz", "1a1-2a1"):
        with pytest.raises(ValueError):
            state.play(bad)
    assert state.to_json() == before


def test_state_from_json_refuses_inconsistent_data() -> None:
    game = ludotheque.load("pylos")
    data = game.new_state().to_json()
    with pytest.raises(ValueError):
        game.state_from_json(data | {"light": 1, "dark": 1})
    with pytest.raises(ValueError):
        game.state_from_json(data | {"light": (1 << 16) - 1})
    with pytest.raises(ValueError):
        game.state_from_json({"game": "pylos"})
    kids = ludotheque.load("pylos", variant="kids").new_state().to_json()
    with pytest.raises(ValueError, match="state of pylos/kids/2 given to"):
        game.state_from_json(kids)
    assert list(data)[:3] == ["game", "variant", "players"], "the shared header comes first"


def test_every_line_of_level_one_is_a_figure_in_advanced() -> None:
    for row in "1234":
        cells = [f"1{f}{row}" for f in "abcd"]
        state = position(light=" ".join(cells[:3]), dark="", mover=0, variant="advanced")
        assert f"{cells[3]}x{cells[3]}" in texts(state)
    assert LEVEL1.count("1") >= 16


# -- clauses of issue 19: lines on level 3, standing figures, the order of the endings --------
def key(light: str, dark: str, mover: int) -> int:
    """The position key of ``seen`` (``to_json``): both masks and the player to move."""
    light_mask = sum(1 << INDEX[c] for c in light.split())
    dark_mask = sum(1 << INDEX[c] for c in dark.split())
    return light_mask | dark_mask << 30 | mover << 60


def seen_before(state: PylosState, light: str, dark: str, mover: int, count: int) -> PylosState:
    """``state`` with the position (``light``, ``dark``, ``mover``) already seen ``count`` times."""
    data = state.to_json()
    data["seen"] = [*data["seen"], [key(light, dark, mover), count]]
    return ludotheque.load("pylos", variant=data["variant"]).state_from_json(data)


def test_level_three_has_no_lines_under_advanced_rules() -> None:
    # Level 3 is 2 x 2: two light balls side by side, or one above the other, are no line.
    state = known("level_three_rows")
    moves = texts(state)
    assert "3b1" in moves and "3a2" in moves, "a row and a column of level 3 complete nothing"
    assert not any(m.startswith(("3b1x", "3a2x")) for m in moves)
    after = state.play("3b1")
    assert after.reserve(0) == 0 and not after.is_over and after.to_move == 1


def test_a_standing_square_does_not_trigger_again() -> None:
    state = known("square_to_stand").play("1b2x1d4").play("1c4")  # Light's square 1a1 1b1 1a2 1b2 stands
    assert {state.owner(INDEX[c]) for c in ("1a1", "1b1", "1a2", "1b2")} == {0}
    moves = texts(state)
    assert "1c1" in moves and "1c2" in moves, "next to the square, completing nothing"
    assert not any("x" in m for m in moves), "the standing square gives no removal"
    with pytest.raises(IllegalMoveError):
        state.play("1c1x1c1")
    # A later ball that completes a new square (1b1 1c1 1b2 1c2) does trigger.
    later = state.play("1c1").play("1a3")
    assert "1c2" not in texts(later) and "1c2x1c2" in texts(later)


def test_a_standing_line_does_not_trigger_again_under_advanced_rules() -> None:
    moves = texts(known("standing_row"))
    assert "1a2" in moves and "1d2" in moves
    assert not any("x" in m for m in moves)


def test_a_square_and_a_line_at_once_still_allow_at_most_two_removals() -> None:
    with_d1 = [m for m in texts(known("square_and_row")) if m.startswith("1d1")]
    assert with_d1 and "1d1" not in with_d1
    assert max(m.count("x") for m in with_d1) == 2


def test_the_start_position_is_the_first_occurrence() -> None:
    assert ludotheque.load("pylos").new_state().repetitions == 1


def test_a_dark_win_scores_minus_one_for_light() -> None:
    result = known("top_only", mover=1).play("4a1").result()
    assert result.winners == (1,) and result.scores == (-1, 1) and result.reason == "top"


def test_raises_come_after_placements_by_source_then_destination() -> None:
    assert texts(known("raises_after_placements")) == POSITIONS["raises_after_placements"]["legal_moves"]


# The top and an empty reserve end the game at their first occurrence, so in a real game a
# position holding either can never be a third occurrence: the earlier occurrences are written
# into the state's ``seen`` to make the endings hold at once.
def test_the_top_is_tested_before_the_third_occurrence() -> None:
    # The 30th ball fills the pyramid, so the top also empties the opponent's reserve.
    top = POSITIONS["top_only"]
    state = seen_before(known("top_only", mover=1), top["light"], top["dark"] + " 4a1", 0, 2)
    final = state.play("4a1")
    assert final.reserve(0) == 0 and final.reserve(1) == 0
    assert any(count == 3 for _, count in final.to_json()["seen"]), "all three endings hold"
    assert final.result().reason == "top" and final.result().winners == (1,)


def test_the_empty_reserve_is_tested_before_the_third_occurrence() -> None:
    empty = POSITIONS["dark_empty"]
    state = seen_before(known("dark_empty"), empty["light"] + " 2b2", empty["dark"], 1, 2)
    final = state.play("2b2")
    assert any(count == 3 for _, count in final.to_json()["seen"]), "both endings hold"
    assert final.result().reason == "empty_reserve" and final.result().winners == (0,)


def test_kids_rules_still_allow_raises() -> None:
    # "Only raising saves balls": under the kids rules a raise is the one way to keep a ball.
    state = known("raise_ready", variant="kids")
    assert "1d4-2a1" in texts(state)
    assert state.play("1d4-2a1").reserve(0) == 12
