"""Pylos: every clause of ../shared/rules/pylos.md, on positions built for the purpose."""

from __future__ import annotations

import pytest

import ludotheque
from ludotheque.core import IllegalMoveError, InvalidMoveError
from ludotheque.games.pylos.board import INDEX, LEVEL, NAMES
from ludotheque.games.pylos.rules import PylosState


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
    three = position(light="1a1 1b1", dark="1a2")
    assert "2a1" not in texts(three)
    with pytest.raises(IllegalMoveError, match="not available"):
        three.play("2a1")
    four = position(light="1a1 1b1", dark="1a2 1b2")
    assert "2a1" in texts(four)


def test_an_occupied_cell_is_not_available() -> None:
    with pytest.raises(IllegalMoveError):
        position(light="1a1").play("1a1")


# -- raises --------------------------------------------------------------------------------------
def test_a_free_own_ball_may_be_raised_to_a_higher_available_cell() -> None:
    state = position(light="1a1 1b1 1d4", dark="1a2 1b2", mover=0)
    assert "1d4-2a1" in texts(state)
    after = state.play("1d4-2a1")
    assert after.owner(INDEX["2a1"]) == 0 and after.owner(INDEX["1d4"]) is None
    assert after.reserve(0) == 12


def test_a_ball_may_not_be_raised_onto_a_cell_it_supports() -> None:
    state = position(light="1a1 1b1", dark="1a2 1b2", mover=0)
    assert "1a1-2a1" not in texts(state)
    with pytest.raises(IllegalMoveError, match="supports"):
        state.play("1a1-2a1")


def test_only_own_free_balls_rise_and_only_to_a_strictly_higher_level() -> None:
    state = position(light="1a1 1b1 2a1 1d4", dark="1a2 1b2 1c4", mover=0)
    moves = texts(state)
    assert not any(m.startswith("1a1-") for m in moves), "1a1 carries 2a1: not free"
    assert not any(m.startswith("1c4-") for m in moves), "not one's own ball"
    with pytest.raises(IllegalMoveError):
        state.play("1d4-1c3")
    with pytest.raises(IllegalMoveError, match="not free"):
        state.play("1a1-2c3")


def test_the_top_is_never_reached_by_a_raise() -> None:
    state = position(
        light="1a1 1c1 1a3 1c3 1b2 1d2 1b4 1d4 2a1 2c1 2b2 2a3 2c3 3a1 3b2",
        dark="1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4 2b1 2a2 2c2 2b3 3b1 3a2",
        mover=0,
    )
    assert texts(state) == ["4a1"]


# -- squares and removals ------------------------------------------------------------------------
def test_completing_a_square_requires_one_or_two_removals() -> None:
    state = position(light="1a1 1b1 1a2 1d4", dark="1c1 1c2 1d1", mover=0)
    moves = texts(state)
    assert "1b2" not in moves
    assert "1b2x1b2" in moves, "the ball just played may be taken back"
    assert "1b2x1a1x1d4" in moves
    with pytest.raises(IllegalMoveError, match="take back"):
        state.play("1b2")
    after = state.play("1b2x1a1x1d4")
    assert after.reserve(0) == 15 - 3


def test_only_free_own_balls_are_taken_back() -> None:
    state = position(light="1a1 1b1 1a2 1c1 1c2", dark="1d1 1d2 2b1 1a3", mover=0)
    # 2b1 rests on 1b1, 1c1, 1b2, 1c2: once 1b2 is played those four are covered.
    moves = texts(state)
    assert "1b2x1a1" in moves
    assert not any("x1b1" in m or "x1c1" in m or "x1d1" in m for m in moves)
    with pytest.raises(IllegalMoveError):
        state.play("1b2x1d1")


def test_a_square_of_mixed_colours_saves_nothing() -> None:
    state = position(light="1a1 1b1", dark="1a2", mover=0)
    assert "1b2" in texts(state) and not any(m.startswith("1b2x") for m in texts(state))


def test_the_second_removal_may_be_freed_by_the_first() -> None:
    # Light's 2a1 rests on 1a1 (light): taking 2a1 back first frees 1a1.
    state = position(light="1a1 2a1 1c3 1d3 1c4", dark="1b1 1a2 1b2", mover=0)
    moves = texts(state)
    assert "1d4x2a1x1a1" in moves
    assert "1d4x1a1x2a1" not in moves
    with pytest.raises(IllegalMoveError):
        state.play("1d4x1a1x2a1")
    assert str(ludotheque.load("pylos").parse_move(state, "1d4x2a1x1a1")) == "1d4x2a1x1a1"


def test_a_pair_that_works_in_both_orders_is_listed_once_in_cell_order() -> None:
    state = position(light="1a1 1b1 1a2 1d4", dark="1c1", mover=0)
    moves = texts(state)
    assert moves.count("1b2x1a1x1d4") == 1 and "1b2x1d4x1a1" not in moves
    game = ludotheque.load("pylos")
    assert str(game.parse_move(state, "1b2x1d4x1a1")) == "1b2x1a1x1d4"


def test_removal_variants_replace_the_placement_in_canonical_order() -> None:
    state = position(light="1a1 1b1 1a2", dark="1c1", mover=0)
    moves = texts(state)
    start = moves.index("1b2x1a1")
    expected = ["1b2x1a1", "1b2x1a1x1b1", "1b2x1a1x1a2", "1b2x1a1x1b2", "1b2x1b1", "1b2x1b1x1a2",
                "1b2x1b1x1b2", "1b2x1a2", "1b2x1a2x1b2", "1b2x1b2"]
    assert moves[start : start + len(expected)] == expected
    assert moves[start - 1] == "1d1" and moves[start + len(expected)] == "1c2"


def test_squares_count_on_levels_two_and_three() -> None:
    level2 = position(
        light="2a1 2b1 2a2 1a1 1c1 1a3 1c3 1d4",
        dark="1b1 1d1 1a2 1c2 1b3 1d3 1b2",
        mover=0,
    )
    assert "2b2" not in texts(level2) and "2b2x1d4" in texts(level2)
    level3 = position(
        light="1a1 1c1 1a3 1c3 1b4 1d4 2a1 2c1 2a3 2c3 3a1 3b1 3a2",
        dark="1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4 1b2 1d2 2b1 2a2 2b2 2c2 2b3",
        mover=0,
    )
    assert "3b2" not in texts(level3) and "3b2x3b2" in texts(level3)


def test_several_figures_at_once_still_allow_at_most_two_removals() -> None:
    state = position(light="1a1 1b1 1c1 1a2 1c2 1d4", dark="1d1 1d2 1d3", mover=0)
    assert all(m.count("x") <= 2 for m in texts(state))
    assert "1b2x1a1x1c1" in texts(state)


def test_a_raise_that_completes_a_square_also_takes_back() -> None:
    state = position(
        light="2a1 2b1 2a2 1a1 1c1 1a3 1c3 1d4 1a4", dark="1b1 1d1 1a2 1c2 1b3 1d3 1b2", mover=0
    )
    assert "1a4-2b2" not in texts(state)
    assert "1a4-2b2x1d4" in texts(state)


# -- lines: advanced rules only ----------------------------------------------------------------
def test_lines_of_four_on_level_one_count_only_under_advanced_rules() -> None:
    standard = position(light="1a1 1b1 1c1", dark="1a2 1b2", mover=0)
    advanced = position(light="1a1 1b1 1c1", dark="1a2 1b2", mover=0, variant="advanced")
    assert "1d1" in texts(standard)
    assert "1d1" not in texts(advanced) and "1d1x1d1" in texts(advanced)
    column = position(light="1a1 1a2 1a3", dark="1b1", mover=0, variant="advanced")
    assert "1a4x1a4" in texts(column)


def test_lines_of_three_on_level_two_count_under_advanced_rules() -> None:
    base_light = "1a1 1c1 1a3 1c3 1b2 1d2 1b4 1d4"
    base_dark = "1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4"
    advanced = position(light=base_light + " 2a1 2b1", dark=base_dark + " 2a2", variant="advanced")
    standard = position(light=base_light + " 2a1 2b1", dark=base_dark + " 2a2")
    assert "2c1x2c1" in texts(advanced)
    assert "2c1" in texts(standard)


def test_diagonals_never_count_as_lines() -> None:
    state = position(light="1a1 1b2 1c3", dark="1b1 1c1", mover=0, variant="advanced")
    assert "1d4" in texts(state)


# -- kids rules --------------------------------------------------------------------------------
def test_kids_rules_have_no_squares_and_no_lines() -> None:
    square = position(light="1a1 1b1 1a2", dark="1c1", mover=0, variant="kids")
    assert "1b2" in texts(square) and not any("x" in m for m in texts(square))
    with pytest.raises(IllegalMoveError):
        square.play("1b2x1b2")


# -- the end -----------------------------------------------------------------------------------
def test_placing_the_top_wins() -> None:
    state = position(
        light="1a1 1c1 1a3 1c3 1b2 1d2 1b4 1d4 2a1 2c1 2b2 2a3 2c3 3a1 3b2",
        dark="1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4 2b1 2a2 2c2 2b3 3b1 3a2",
        mover=0,
    )
    final = state.play("4a1")
    assert final.is_over and final.to_move is None
    assert final.result().winners == (0,) and final.result().scores == (1, -1)
    assert final.result().reason == "top"


def test_an_empty_reserve_at_the_start_of_a_turn_loses_even_with_a_raise_possible() -> None:
    fourteen_dark = "1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4 2b1 2a2 2c2 2b3 2a1 2c1"
    state = position(light="1a1 1c1 1a3 1c3 1b2 1d2 1b4", dark=fourteen_dark, mover=1)
    dark_spent = state.play("1d4")
    assert not dark_spent.is_over and dark_spent.reserve(1) == 0, "Light's turn comes first"
    final = dark_spent.play("2b2")
    assert final.is_over and final.result().winners == (0,)
    assert final.result().reason == "empty_reserve"
    raises_left = position(light="1a1 1c1 1a3 1c3 1b2 1d2 1b4 2b2",
                           dark=fourteen_dark + " 1d4", mover=1)
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
    state = position(light="1a1 1b1 1a2", dark="1c3 1d3 1c4", mover=0)
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
    state = position(
        light="1a1 1c1 1a3 1c3 1b2 1d2 1b4 1d4 2a1 2c1 2b2 2a3 2c3 3a1 3b2",
        dark="1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4 2b1 2a2 2c2 2b3 3b1 3a2",
        mover=1,
    )
    final = state.play("4a1")
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


def test_every_line_of_level_one_is_a_figure_in_advanced() -> None:
    for row in "1234":
        cells = [f"1{f}{row}" for f in "abcd"]
        state = position(light=" ".join(cells[:3]), dark="", mover=0, variant="advanced")
        assert f"{cells[3]}x{cells[3]}" in texts(state)
    assert LEVEL1.count("1") >= 16


# -- clauses of issue 19: lines on level 3, standing figures, the order of the endings --------
FULL_LEVEL1_LIGHT = "1a1 1c1 1a3 1c3 1b2 1d2 1b4 1d4"
FULL_LEVEL1_DARK = "1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4"


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
    state = position(
        light=FULL_LEVEL1_LIGHT + " 2a1 2c1 2b2 2a3 2c3 3a1",
        dark=FULL_LEVEL1_DARK + " 2b1 2a2 2c2 2b3",
        mover=0, variant="advanced",
    )
    moves = texts(state)
    assert "3b1" in moves and "3a2" in moves, "a row and a column of level 3 complete nothing"
    assert not any(m.startswith(("3b1x", "3a2x")) for m in moves)
    after = state.play("3b1")
    assert after.reserve(0) == 0 and not after.is_over and after.to_move == 1


def test_a_standing_square_does_not_trigger_again() -> None:
    state = position(light="1a1 1b1 1a2 1d4", dark="1c3 1d3", mover=0)
    state = state.play("1b2x1d4").play("1c4")  # Light's square 1a1 1b1 1a2 1b2 stands
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
    state = position(light="1a1 1b1 1c1 1d1", dark="1a3 1b3", mover=0, variant="advanced")
    moves = texts(state)
    assert "1a2" in moves and "1d2" in moves
    assert not any("x" in m for m in moves)


def test_a_square_and_a_line_at_once_still_allow_at_most_two_removals() -> None:
    # 1d1 completes the row 1a1-1d1 and the square 1c1 1d1 1c2 1d2.
    state = position(light="1a1 1b1 1c1 1c2 1d2", dark="1a3 1b3", mover=0, variant="advanced")
    with_d1 = [m for m in texts(state) if m.startswith("1d1")]
    assert with_d1 and "1d1" not in with_d1
    assert max(m.count("x") for m in with_d1) == 2


def test_the_start_position_is_the_first_occurrence() -> None:
    assert ludotheque.load("pylos").new_state().repetitions == 1


def test_a_dark_win_scores_minus_one_for_light() -> None:
    final = position(light=TOP_LIGHT, dark=TOP_DARK, mover=1).play("4a1")
    result = final.result()
    assert result.winners == (1,) and result.scores == (-1, 1) and result.reason == "top"


def test_raises_come_after_placements_by_source_then_destination() -> None:
    state = position(light="1a1 1b1 1c1 1c4 1d4", dark="1a2 1b2 1c2", mover=0)
    assert texts(state) == [
        "1d1", "1d2", "1a3", "1b3", "1c3", "1d3", "1a4", "1b4",  # level 1, rank then file
        "2a1", "2b1",
        "1a1-2b1", "1c1-2a1", "1c4-2a1", "1c4-2b1", "1d4-2a1", "1d4-2b1",
    ]


# The top and an empty reserve end the game at their first occurrence, so in a real game a
# position holding either can never be a third occurrence: the earlier occurrences are written
# into the state's ``seen`` to make the endings hold at once.
TOP_LIGHT = "1a1 1c1 1a3 1c3 1b2 1d2 1b4 1d4 2a1 2c1 2b2 2a3 2c3 3a1 3b2"
TOP_DARK = "1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4 2b1 2a2 2c2 2b3 3b1 3a2"


def test_the_top_is_tested_before_the_third_occurrence() -> None:
    # The 30th ball fills the pyramid, so the top also empties the opponent's reserve.
    state = seen_before(position(light=TOP_LIGHT, dark=TOP_DARK, mover=1),
                        TOP_LIGHT, TOP_DARK + " 4a1", 0, 2)
    final = state.play("4a1")
    assert final.reserve(0) == 0 and final.reserve(1) == 0
    assert any(count == 3 for _, count in final.to_json()["seen"]), "all three endings hold"
    assert final.result().reason == "top" and final.result().winners == (1,)


def test_the_empty_reserve_is_tested_before_the_third_occurrence() -> None:
    light = "1a1 1c1 1a3 1c3 1b2 1d2 1b4"
    dark = "1b1 1d1 1a2 1c2 1b3 1d3 1a4 1c4 2b1 2a2 2c2 2b3 2a1 2c1 1d4"  # 15: reserve empty
    state = seen_before(position(light=light, dark=dark, mover=0), light + " 2b2", dark, 1, 2)
    final = state.play("2b2")
    assert any(count == 3 for _, count in final.to_json()["seen"]), "both endings hold"
    assert final.result().reason == "empty_reserve" and final.result().winners == (0,)


def test_kids_rules_still_allow_raises() -> None:
    # "Only raising saves balls": under the kids rules a raise is the one way to keep a ball.
    state = position(light="1a1 1b1 1d4", dark="1a2 1b2", mover=0, variant="kids")
    assert "1d4-2a1" in texts(state)
    assert state.play("1d4-2a1").reserve(0) == 12
