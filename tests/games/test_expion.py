"""Ex*Pion: every clause of the game's ``RULES.md``, the rulebook's figures 1 to 5 rebuilt as
positions from its text, the view, JSON, errors, the evaluator and perft counts.

The positions live in ``tests/data/expion/positions.json``, by name, each with the reason it
matters: pieces such as ``"Ne6 Xe5 Wd5"`` (a North marble on e6, the EX*PION on e5, a West
marble on d5), built with ``ExpionGame.position``; the rulebook's worked examples also give the
move they play and the pieces after it. The perft counts (``perft.json``) were computed with
this engine.
"""

from __future__ import annotations

import json
import random
from itertools import takewhile
from pathlib import Path
from typing import Any

import pytest

import ludotheque
from ludotheque.core import IllegalMoveError, InvalidMoveError
from ludotheque.engines.expion import GAME, ExpionGame, ExpionState, Move
from ludotheque.engines.expion.board import (
    CAMP_CELLS,
    CELLS,
    FORWARD,
    INDEX,
    LAYOUT,
    NAMES,
    SPECIAL_CELLS,
)
from ludotheque.engines.expion.evaluate import evaluate
from ludotheque.engines.expion.rules import QUIET_LIMIT

DATA = Path(__file__).resolve().parents[1] / "data" / "expion"
KNOWN: dict[str, Any] = json.loads((DATA / "positions.json").read_text(encoding="utf-8"))
POSITIONS: dict[str, dict[str, Any]] = KNOWN["positions"]
PERFT: list[dict[str, Any]] = json.loads((DATA / "perft.json").read_text(encoding="utf-8"))["counts"]

START_ROWS = [
    " NNNNNNN ",
    "W.......E",
    "W.......E",
    "W.......E",
    "W...X...E",
    "W.......E",
    "W.......E",
    "W.......E",
    " SSSSSSS ",
]


def game(players: int = 4) -> ExpionGame:
    loaded = ludotheque.load("expion", players=players)
    assert isinstance(loaded, ExpionGame)
    return loaded


def rows_of(pieces: str) -> list[str]:
    """Nine rows (rank 9 first) holding ``pieces`` such as ``"Ne6 Xe5"``."""
    grid = [[" "] * 9 for _ in range(9)]
    for token in pieces.split():
        kind, cell = token[0], token[1:]
        file, rank = "abcdefghi".index(cell[0]), int(cell[1:])
        assert grid[9 - rank][file] == " ", f"two pieces on {cell}"
        grid[9 - rank][file] = kind
    return ["".join(row) for row in grid]


def place(pieces: str, camp: str = "N", *, players: int = 4, freed: bool = False) -> ExpionState:
    return game(players).position(rows_of(pieces), camp=camp, first_capture=freed)


def position(
    name: str, *, camp: str | None = None, players: int | None = None, freed: bool | None = None
) -> ExpionState:
    """The position ``name`` of ``positions.json``; a keyword changes that one fact of it."""
    entry = POSITIONS[name]
    return place(
        entry["pieces"],
        entry.get("camp", "N") if camp is None else camp,
        players=entry.get("players", 4) if players is None else players,
        freed=entry.get("first_capture", False) if freed is None else freed,
    )


def start(players: int) -> ExpionState:
    return game(players).new_state()


def texts(state: ExpionState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def from_cell(state: ExpionState, cell: str) -> list[str]:
    return [t for t in texts(state) if t.startswith(cell + "-")]


def pieces_of(state: ExpionState) -> set[str]:
    return {
        f"{state.marble_at(NAMES[c])}{NAMES[c]}" for c in CELLS if state.marble_at(NAMES[c])
    }


# -- the board (Decision: reconstructed) ------------------------------------------------------
def test_the_board_is_the_9x9_grid_without_its_corners() -> None:
    assert len(CELLS) == 77
    for corner in ("a1", "i1", "a9", "i9"):
        assert corner not in INDEX
        with pytest.raises(InvalidMoveError, match="not a cell"):
            Move.from_text(f"{corner}-b2")


def test_four_camps_of_seven_cells_on_the_edges() -> None:
    names = [[NAMES[c] for c in camp] for camp in CAMP_CELLS]
    assert names == [
        [f"{f}9" for f in "bcdefgh"],  # North
        [f"i{r}" for r in range(2, 9)],  # East
        [f"{f}1" for f in "bcdefgh"],  # South
        [f"a{r}" for r in range(2, 9)],  # West
    ]


def test_special_cells_are_the_corners_of_the_play_area() -> None:
    assert sorted(NAMES[c] for c in SPECIAL_CELLS) == ["b2", "b8", "h2", "h8"]


def test_the_start_position_fills_the_camps_and_centres_the_expion() -> None:
    state = game().new_state()
    assert state.rows() == START_ROWS
    assert state.expion == "e5"
    assert [state.marbles(c) for c in "NESW"] == [7, 7, 7, 7]
    assert not state.has_first_capture and state.quiet_moves == 0 and state.repetitions == 1


def test_the_layout_table_is_the_one_place_of_the_geometry() -> None:
    assert [row.replace("+", ".") for row in LAYOUT] == START_ROWS
    # Forward, read from the layout: North toward rank 1, East toward file a, South toward
    # rank 9, West toward file i.
    assert FORWARD == (2, 3, 0, 1)


# -- camps, players and teams ------------------------------------------------------------------
def test_declared_facts() -> None:
    assert GAME.player_counts == (2, 3, 4) and GAME.default_players == 4
    assert GAME.variants == ("standard",) and GAME.default_variant == "standard"
    assert ludotheque.load("expion").players == 4
    for players in (2, 3, 4):
        loaded = game(players)
        assert not loaded.has_chance and not loaded.has_hidden_information


def test_the_seed_is_ignored() -> None:
    assert game().new_state(seed=0) == game().new_state(seed=123)


@pytest.mark.parametrize(
    ("players", "holders", "teams"),
    [
        (4, {"N": 0, "E": 1, "S": 2, "W": 3}, [[0, 2], [1, 3]]),
        (3, {"N": 0, "E": 1, "S": 0, "W": 2}, [[0], [1, 2]]),
        (2, {"N": 0, "E": 1, "S": 0, "W": 1}, [[0], [1]]),
    ],
)
def test_seatings_fix_who_holds_which_camp(
    players: int, holders: dict[str, int], teams: list[list[int]]
) -> None:
    view = game(players).new_state().view(None)
    assert view["holders"] == holders
    assert [t["camps"] for t in view["teams"]] == [["N", "S"], ["E", "W"]]
    assert [t["players"] for t in view["teams"]] == teams


@pytest.mark.parametrize(
    ("players", "order"), [(4, [0, 1, 2, 3, 0]), (3, [0, 1, 0, 2, 0]), (2, [0, 1, 0, 1, 0])]
)
def test_turn_order_is_north_east_south_west(players: int, order: list[int]) -> None:
    state = game(players).new_state()
    seen_players, seen_camps = [], []
    for _ in order:
        seen_players.append(state.to_move)
        seen_camps.append(state.camp_to_move)
        state = state.play(state.legal_moves()[0])
    assert seen_players == order
    assert seen_camps == ["N", "E", "S", "W", "N"]


def test_each_player_moves_only_marbles_of_the_colours_they_hold() -> None:
    four = game(4).new_state()
    assert {t[1] for t in texts(four)} == {"9"} and len(texts(four)) == 21
    # Two players: North's holder also holds South and may move either colour on North's turn.
    two = game(2).new_state()
    assert {t[1] for t in texts(two)} == {"1", "9"} and len(texts(two)) == 42
    three = game(3).new_state().play("e9-e8")
    assert three.to_move == 1 and {t[0] for t in texts(three)} == {"i"}


# -- moving a marble -----------------------------------------------------------------------------
def test_leaving_the_camp_one_to_three_cells_straight_forward() -> None:
    state = game().new_state()
    assert from_cell(state, "e9") == ["e9-e6", "e9-e7", "e9-e8"]
    assert from_cell(state, "b9") == ["b9-b6", "b9-b7", "b9-b8"]  # b8 is special: fine for marbles
    east = state.play("b9-b8")
    assert from_cell(east, "i5") == ["i5-f5", "i5-g5", "i5-h5"]
    south = east.play("i2-h2")
    assert from_cell(south, "e1") == ["e1-e2", "e1-e3", "e1-e4"]
    west = south.play("e1-e4")
    assert from_cell(west, "a5") == ["a5-b5", "a5-c5", "a5-d5"]


def test_a_camp_exit_needs_every_crossed_cell_empty() -> None:
    state = position("exit_blocked_at_e7")
    assert from_cell(state, "e9") == ["e9-e8"]
    for text in ("e9-e7", "e9-e6", "e9-d9", "e9-d8", "e9-e5"):
        with pytest.raises(IllegalMoveError):
            state.play(text)


def test_a_marble_in_its_camp_may_push_the_expion_just_in_front() -> None:
    state = position("expion_in_front_of_camp")
    assert from_cell(state, "e9") == ["e9-e8"]
    after = state.play("e9-e8")
    assert after.expion == "e7" and after.marble_at("e8") == "N" and after.marble_at("e9") is None


def test_in_the_play_area_one_cell_forward_or_sideways() -> None:
    state = position("north_d4_alone")
    assert from_cell(state, "d4") == ["d4-d3", "d4-c4", "d4-e4"]
    east = position("east_f4_alone")
    assert from_cell(east, "f4") == ["f4-f3", "f4-e4", "f4-f5"]


def test_never_diagonal_nor_two_cells_in_the_play_area() -> None:
    state = position("north_d4_alone")
    for text in ("d4-c3", "d4-e5", "d4-d2"):
        with pytest.raises(IllegalMoveError, match=r"'d4-\w\d'.*ply 0"):
            state.play(text)


def test_backward_only_to_capture_until_the_first_capture() -> None:
    state = position("north_d4_alone")
    assert "d4-d5" not in texts(state)
    with pytest.raises(IllegalMoveError, match="backward only to capture"):
        state.play("d4-d5")
    capturing = position("backward_step_captures")
    assert "d4-d5" in texts(capturing)
    after = capturing.play("d4-d5")
    assert after.marble_at("d6") is None and after.has_first_capture


def test_after_the_first_capture_every_marble_may_step_backward() -> None:
    state = position("north_d4_alone", freed=True)
    assert from_cell(state, "d4") == ["d4-d3", "d4-c4", "d4-e4", "d4-d5"]


def test_the_first_capture_frees_backward_moves_for_everyone() -> None:
    assert "c6-d6" not in texts(position("figure_1_with_east_c6", camp="E"))  # not yet
    after = position("figure_1_with_east_c6").play("e7-e6")  # North captures e5 (figure 1)
    assert after.has_first_capture and after.camp_to_move == "E"
    assert "c6-d6" in texts(after)  # East's backward step is now free


def test_no_marble_ever_enters_a_camp() -> None:
    freed = position("next_to_camps")
    assert from_cell(freed, "e2") == ["e2-d2", "e2-f2", "e2-e3"]  # not e1, South's camp
    assert "b5-a5" not in texts(freed)  # not into West's empty camp
    west = position("west_b6_next_to_its_camp")
    assert from_cell(west, "b6") == ["b6-b5", "b6-c6", "b6-b7"]  # never back into its own camp


def test_special_cells_are_open_to_marbles() -> None:
    state = position("north_b3_over_special_cell")
    assert "b3-b2" in texts(state)


# -- pushing the EX*PION ---------------------------------------------------------------------------
def test_a_push_moves_the_expion_one_cell_straight_on() -> None:
    state = position("push_from_d5")
    assert "d5-e5" in texts(state)
    after = state.play("d5-e5")
    assert after.expion == "f5" and after.marble_at("e5") == "N" and after.marble_at("d5") is None
    assert after.quiet_moves == 0


def test_no_push_onto_an_occupied_cell_or_a_special_cell() -> None:
    occupied = position("push_onto_occupied_f5")
    assert "d5-e5" not in texts(occupied)
    special = position("push_onto_special_b2")  # b2 below the EX*PION is special
    assert "b4-b3" not in texts(special)
    with pytest.raises(IllegalMoveError, match="EX\\*PION cannot be pushed"):
        special.play("b4-b3")


def test_no_push_into_a_camp_of_ones_own_team() -> None:
    # North pushing down toward South's empty camp cell e1: its own team's camp.
    state = position("push_into_south_camp")
    assert "e3-e2" not in texts(state)
    # East pushing toward file i (a backward push, free after the first capture): its own camp.
    east = position("push_into_east_camp")
    assert "g5-h5" not in texts(east) and "g5-g4" in texts(east)


def test_pushing_the_expion_into_an_enemy_camp_wins_for_the_whole_team() -> None:
    state = position("winning_push_into_west_camp")
    final = state.play("c5-b5")
    assert final.is_over and final.rows()[4][0] == "X"
    result = final.result()
    assert result.winners == (0, 2) and result.scores == (1, -1, 1, -1)
    assert result.reason == "expion_in_camp"
    assert final.legal_moves() == [] and final.to_move is None
    # Three players: East pushes sideways into North's camp; East and West (1 and 2) win.
    into_north = position("winning_push_into_north_camp").play("e7-e8")
    assert into_north.result().winners == (1, 2) and into_north.result().scores == (-1, 1, 1)


def test_no_push_into_a_camp_cell_that_holds_a_marble() -> None:
    state = position("push_into_occupied_camp_cell")
    assert "c5-b5" not in texts(state)


def test_a_push_goes_only_where_the_marble_may_move() -> None:
    # North pushing up (backward) before the first capture, capturing nothing: refused.
    state = position("backward_push")
    assert "e4-e5" not in texts(state)
    assert "e4-e5" in texts(position("backward_push", freed=True))
    # A backward push is allowed when the pushed EX*PION captures.
    capturing = position("backward_push_that_captures")
    assert "e4-e5" in texts(capturing)
    after = capturing.play("e4-e5")
    assert after.expion == "e6" and after.marble_at("e7") is None and after.has_first_capture


# -- captures (rulebook figures 1 to 5) ----------------------------------------------------------
WORKED_EXAMPLES = [name for name, entry in POSITIONS.items() if "play" in entry]


@pytest.mark.parametrize("name", WORKED_EXAMPLES)
def test_worked_examples_end_as_written(name: str) -> None:
    entry = POSITIONS[name]
    assert pieces_of(position(name)) == set(entry["pieces"].split())
    assert pieces_of(position(name).play(entry["play"])) == set(entry["after"].split())


def test_the_rulebook_figures_are_worked_examples() -> None:
    assert [f"figure_{n}" for n in range(1, 6)] == WORKED_EXAMPLES


def test_figure_1_a_marble_between_the_mover_and_a_friend_is_captured() -> None:
    after = position("figure_1").play("e7-e6")
    assert after.marbles("E") == 0 and after.has_first_capture and after.quiet_moves == 0


def test_figure_2_one_move_captures_two_marbles() -> None:
    after = position("figure_2").play("e7-e6")
    assert after.marble_at("e5") is None and after.marble_at("f6") is None
    assert after.marble_at("d6") == "W"


def test_captures_are_only_orthogonal() -> None:
    state = position("diagonal_flank")
    after = state.play("e7-e6")
    assert after.marble_at("d5") == "E" and not after.has_first_capture


def test_no_capture_of_a_friend() -> None:
    state = position("friend_between_north_marbles")
    after = state.play("e7-e6")
    assert after.marble_at("e5") == "S"


def test_a_marble_moved_between_two_enemies_is_safe() -> None:
    state = position("step_between_two_enemies")
    after = state.play("d6-e6")
    assert after.marble_at("e6") == "W" and after.marbles("W") == 1


def test_only_the_moved_marble_captures() -> None:
    # e5 already stands between two North marbles: an unrelated move does not capture it.
    state = position("already_flanked")
    after = state.play("b7-b6")
    assert after.marble_at("e5") == "E"


def test_figure_3_the_expion_as_chameleon_captures() -> None:
    after = position("figure_3").play("c6-c5")
    assert after.marble_at("d5") is None and after.marbles("W") == 0
    # Without a North marble beside the EX*PION, no capture.
    alone = position("figure_3_without_chameleon").play("c6-c5")
    assert alone.marble_at("d5") == "W"


def test_the_chameleon_needs_a_marble_of_the_movers_own_colours() -> None:
    # A team-mate's (South's) marble beside the EX*PION does not lend it to North...
    state = position("figure_3_with_south_e6")
    assert state.play("c6-c5").marble_at("d5") == "W"
    # ... but with two players South is North's holder's own colour.
    two = position("figure_3_with_south_e6", players=2)
    assert two.play("c6-c5").marble_at("d5") is None


def test_the_chameleon_serves_only_the_player_to_move() -> None:
    # North touches the EX*PION, but on West's move it is no friend of West's.
    state = position("chameleon_on_wests_move")
    assert state.play("c6-c5").marble_at("d5") == "N"
    # The same shape with colours swapped: on North's move it is North's friend.
    assert position("chameleon_on_norths_move").play("c6-c5").marble_at("d5") is None


@pytest.mark.parametrize(("players", "captured"), [(3, False), (2, True)])
def test_the_chameleon_ignores_a_west_team_mate_of_east(players: int, captured: bool) -> None:
    # West's e6 touches the EX*PION; East moves c6-c5 to flank North's d5 against it.
    state = position("chameleon_with_wests_e6_for_east", players=players)
    assert (state.play("c6-c5").marble_at("d5") is None) is captured


def test_figure_4_a_double_capture_with_the_expion() -> None:
    after = position("figure_4").play("c6-c5")
    assert after.marble_at("d5") is None and after.marble_at("c4") is None


def test_figure_5_the_pushed_expion_captures_too() -> None:
    after = position("figure_5").play("d5-e5")
    assert after.expion == "f5" and after.quiet_moves == 0
    assert after.marble_at("g5") is None and after.marble_at("e4") is None


# -- elimination, passes and the end ------------------------------------------------------------
def test_a_player_without_marbles_is_eliminated_and_skipped() -> None:
    state = position("west_eliminated")  # West has no marble
    assert state.view(None)["eliminated"] == [3]
    after = state.play("e2-e3")
    assert after.camp_to_move == "N" and after.to_move == 0


def test_a_player_holding_two_colours_plays_on_with_the_other() -> None:
    state = position("north_gone_with_two_players")  # no North marble left
    assert state.to_move == 0 and state.camp_to_move == "N"
    assert texts(state) == ["d2-c2", "d2-e2", "d2-d3"]
    assert state.view(None)["eliminated"] == []


def test_a_camp_whose_holder_cannot_move_passes() -> None:
    # East's only marble on b2 is walled in (camps, North's b3 and c2; no backward step yet).
    state = position("east_walled_in")
    after = state.play("f8-f7")
    assert after.camp_to_move == "S" and after.to_move == 2 and after.ply == 1
    assert after.quiet_moves == 1
    assert after.view(None)["eliminated"] == []  # passing is not elimination


def test_a_team_without_marbles_loses_and_eliminated_mates_win_too() -> None:
    state = position("last_east_marble")  # South and West are gone; East has one marble
    final = state.play("e7-e6")
    assert final.is_over
    assert final.result().winners == (0, 2) and final.result().reason == "no_marbles"
    assert final.result().scores == (1, -1, 1, -1)


def test_a_winning_push_is_tested_before_the_loss_of_every_marble() -> None:
    state = position("winning_push_and_last_capture")
    final = state.play("c5-b5")  # the EX*PION enters a5 and the pusher captures b4
    assert final.marbles("E") == 0
    assert final.result().reason == "expion_in_camp"


def test_draw_when_no_camp_can_move_after_a_move() -> None:
    state = position("blocked_after_e4_e3")
    final = state.play("e4-e3")
    assert final.is_over and final.result().winners == () and final.result().reason == "blocked"
    assert final.result().scores == (0, 0, 0, 0)


def with_quiet(state: ExpionState, quiet: int) -> ExpionState:
    data = state.to_json()
    data["quiet_moves"] = quiet
    return state.game.state_from_json(data)


def test_the_200_move_draw_is_tested_before_the_blocked_draw() -> None:
    final = with_quiet(position("blocked_after_e4_e3"), QUIET_LIMIT - 1).play("e4-e3")
    assert final.result().reason == "no_progress"


def test_draw_after_200_moves_without_capture_or_push() -> None:
    state = with_quiet(position("quiet_moves"), QUIET_LIMIT - 2)
    one = state.play("d7-d6")
    assert not one.is_over and one.quiet_moves == QUIET_LIMIT - 1
    final = one.play("g4-f4")
    assert final.is_over and final.result().reason == "no_progress"


def test_passes_do_not_count_and_pushes_and_captures_reset_the_count() -> None:
    walled = position("east_walled_in")  # East passes
    after = with_quiet(walled, QUIET_LIMIT - 2).play("f8-f7")
    assert after.camp_to_move == "S" and after.quiet_moves == QUIET_LIMIT - 1
    assert after.play("g5-g6").result().reason == "no_progress"
    push = with_quiet(position("push_resets_quiet_moves"), QUIET_LIMIT - 1).play("d6-e6")
    assert not push.is_over and push.quiet_moves == 0
    capture = with_quiet(position("figure_1"), QUIET_LIMIT - 1).play("e7-e6")
    assert not capture.is_over and capture.quiet_moves == 0


def test_draw_on_the_third_occurrence_of_a_position() -> None:
    state = position("two_marbles_cycle")  # South and West eliminated: North and East alternate
    cycle = ["c7-d7", "g4-g5", "d7-c7", "g5-g4"]
    for ply, text in enumerate(cycle * 2, start=1):
        assert not state.is_over
        state = state.play(text)
        if ply == 4:
            assert state.repetitions == 2  # the start position was the first occurrence
    assert state.is_over and state.ply == 8
    assert state.result().reason == "repetition" and state.result().winners == ()


def test_repetition_needs_the_same_camp_to_move() -> None:
    # Two players: North's holder also moves on South's turn, so after N, E, S, W moves the
    # same marbles may stand as at the start but with a different history of camps.
    state = position("two_marbles_cycle", players=2)
    for text in ["c7-d7", "g4-g5", "d7-c7"]:
        state = state.play(text)
    assert state.camp_to_move == "W" and state.repetitions == 1


# -- notation and errors -------------------------------------------------------------------------
def test_notation_round_trips_and_accepts_case_and_outer_spaces() -> None:
    state = game().new_state()
    move = state.legal_moves()[0]
    assert str(move) == "b9-b6" and repr(move) == "Move.from_text('b9-b6')"
    assert Move.from_text(" B9-B6\n") is move
    assert state.game.parse_move(state, "\tb9-B6 ") is move


@pytest.mark.parametrize("text", ["e9 -e8", "e9- e8", "e9e8", "e9-e8-e7", "e9-e9", "j1-j2", "e0-e1"])
def test_malformed_texts_are_invalid(text: str) -> None:
    with pytest.raises(InvalidMoveError, match=repr(text).replace("\\", "\\\\")):
        Move.from_text(text)


def test_illegal_moves_name_input_and_ply_and_change_nothing() -> None:
    state = game().new_state().play("e9-e7")
    before = state.to_json()
    with pytest.raises(IllegalMoveError, match=r"expion: 'e9-e8' is not legal at ply 1"):
        state.play("e9-e8")  # not East's marble
    with pytest.raises(IllegalMoveError):
        state.play(Move.from_text("b9-b8"))
    assert state.to_json() == before


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("d5-d4", "no marble on d5"),
        ("g2-g3", "is W, not one of yours"),
        ("e2-e1", "no marble may enter a camp"),
        ("e9-e5", "leaves its camp straight forward"),
        ("e9-d8", "leaves its camp straight forward"),
        ("e2-f3", "one cell, orthogonally"),
        ("f9-f6", "way to f6 is not free"),
        ("e2-d2", "way to d2 is not free"),
    ],
)
def test_illegal_moves_say_why(text: str, reason: str) -> None:
    state = position("illegal_moves")
    with pytest.raises(IllegalMoveError, match=reason):
        state.play(text)


def test_no_move_once_the_game_is_over() -> None:
    final = position("winning_push_into_west_camp").play("c5-b5")
    with pytest.raises(IllegalMoveError, match="over"):
        final.play("g7-f7")
    with pytest.raises(ValueError):
        game().new_state().result()


def test_legal_moves_are_ordered_by_source_then_target_rank_then_file() -> None:
    def key(move: Move) -> tuple[int, str, int, str]:
        source, target = str(move).split("-")
        return int(source[1:]), source[0], int(target[1:]), target[0]

    for players in (2, 4):
        rng = random.Random(players)
        state = game(players).new_state()
        for _ in range(150):
            if state.is_over:
                break
            moves = state.legal_moves()
            assert moves == sorted(moves, key=key)
            state = state.play(rng.choice(moves))


# -- random games keep the invariants -----------------------------------------------------------
def test_random_games_keep_the_invariants() -> None:
    for players, seed in ((2, 1), (3, 2), (4, 3)):
        rng = random.Random(seed)
        state = game(players).new_state()
        left_camp: set[str] = set()
        while not state.is_over:
            previous = state
            state = state.play(rng.choice(state.legal_moves()))
            counts = [state.marbles(c) for c in "NESW"]
            assert all(a <= b for a, b in zip(counts, [previous.marbles(c) for c in "NESW"], strict=True))
            for camp, cells in zip("NESW", CAMP_CELLS, strict=True):
                for cell in cells:
                    name = NAMES[cell]
                    if state.marble_at(name) in (None, "X"):
                        left_camp.add(name)
                    else:
                        assert name not in left_camp and state.marble_at(name) == camp
            if not state.is_over:
                assert state.expion not in {NAMES[c] for c in SPECIAL_CELLS}
                assert INDEX[state.expion] not in sum(CAMP_CELLS, ())


# -- state building, JSON and the view -------------------------------------------------------------
@pytest.mark.parametrize("entry", KNOWN["refused"], ids=lambda entry: entry["pieces"])
def test_impossible_positions_are_refused(entry: dict[str, Any]) -> None:
    with pytest.raises(ValueError, match=entry["error"]):
        place(entry["pieces"], entry.get("camp", "N"))


def test_json_round_trips_and_refuses_bad_data() -> None:
    state = position("figure_1").play("e7-e6")
    data = json.loads(json.dumps(state.to_json()))
    assert state.game.state_from_json(data) == state
    broken = [
        {**data, "board": data["board"][:8]},
        {**data, "camp": "Q"},
        {**data, "players": 2},
        {**data, "game": "pylos"},
        {**data, "quiet_moves": -1},
        {**data, "first_capture": "yes"},
        {**data, "seen": [["short", 1]]},
        {k: v for k, v in data.items() if k != "board"},
        {k: v for k, v in data.items() if k != "players"},
        ["not", "a", "state"],
    ]
    for bad in broken:
        with pytest.raises(ValueError, match=r"^expion: "):
            state.game.state_from_json(bad)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"game": "pylos"}, r"state of pylos/standard/4 given to"),
        ({"variant": "kids"}, r"state of expion/kids/4 given to"),
        ({"players": 2}, r"state of expion/standard/2 given to"),
    ],
)
def test_a_state_of_another_game_variant_or_player_count_is_refused(
    change: dict[str, Any], message: str
) -> None:
    data = {**game(4).new_state().to_json(), **change}
    with pytest.raises(ValueError, match=message):
        game(4).state_from_json(data)


def test_the_full_state_starts_with_the_common_header() -> None:
    data = game(3).new_state().to_json()
    assert list(data)[:3] == ["game", "variant", "players"]
    assert (data["game"], data["variant"], data["players"]) == ("expion", "standard", 3)


def test_determinize_returns_an_equal_state() -> None:
    state = game(3).new_state().play("e9-e7")
    for viewer in (None, 0, 1, 2):
        assert state.determinize(viewer, random.Random(1)) == state


def test_the_view_shows_everything_to_everyone() -> None:
    state = position("figure_1_with_west_c4").play("e7-e6")
    view = state.view(1)
    assert view["cells"] == {"e6": "N", "e4": "S", "c3": "W", "c4": "W"}
    # East has no marble left: its turn is skipped.
    assert view["expion"] == "h5" and view["camp_to_move"] == "S" and view["to_move"] == 2
    assert view["eliminated"] == [1] and view["first_capture"] is True
    assert view["marbles"] == {"N": 1, "E": 0, "S": 1, "W": 2}
    assert view["quiet_moves"] == 0 and view["quiet_limit"] == QUIET_LIMIT
    assert view["repetitions"] == 1 and view["layout"] == list(LAYOUT)
    assert view["special_cells"] == ["b2", "h2", "b8", "h8"]
    assert {k: v for k, v in state.view(None).items() if k != "viewer"} == {
        k: v for k, v in view.items() if k != "viewer"
    }


def test_views_read_positions_through_a_read_only_interface() -> None:
    """``view.py`` imports nothing from ``rules.py``, and no module but ``rules.py`` reads a
    state's private fields: views and the evaluator read ``ExpionPosition``'s public facts."""
    import ast
    import inspect

    from ludotheque.engines.expion import evaluate as evaluate_module
    from ludotheque.engines.expion import view as view_module

    tree = ast.parse(inspect.getsource(view_module))
    imported = {
        node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module
    } | {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {name for name in imported if name.split(".")[-1] == "rules"}
    for module in (view_module, evaluate_module):
        private = [
            node.attr
            for node in ast.walk(ast.parse(inspect.getsource(module)))
            if isinstance(node, ast.Attribute) and node.attr[:1] == "_" and node.attr[:2] != "__"
        ]
        assert private == [], module.__name__
    names = {name for name, value in vars(view_module.ExpionPosition).items() if not name.startswith("_")}
    for name in names:
        assert hasattr(position("figure_1"), name), name


# -- the evaluator ---------------------------------------------------------------------------------
def test_evaluate_is_in_range_and_sees_material_threats_and_results() -> None:
    up = position("north_up_material")
    assert 0 < evaluate(up, 0) <= 1 and -1 <= evaluate(up, 1) < 0
    threat = position("winning_push_into_west_camp")
    assert evaluate(threat, 0) == pytest.approx(0.9) and evaluate(threat, 1) == pytest.approx(-0.9)
    final = threat.play("c5-b5")
    assert evaluate(final, 2) == 1.0 and evaluate(final, 3) == -1.0
    rng = random.Random(5)
    state = game(2).new_state()
    while not state.is_over:
        assert -1 <= evaluate(state, 0) <= 1
        state = state.play(rng.choice(state.legal_moves()))


# -- the rules page ---------------------------------------------------------------------------------
def test_the_rules_page_has_both_languages_the_board_and_every_decision() -> None:
    import inspect
    from pathlib import Path

    text = (Path(inspect.getfile(ExpionGame)).parent / "RULES.md").read_text(encoding="utf-8")
    french, english = text.split("## English")
    assert "## Français" in french
    for part, word in ((french, "**Décision"), (english, "**Decision")):
        assert part.count(word) == 6
        assert "```" in part and "✱" in part and "◇" in part
        for row in LAYOUT:
            shape = "  ".join(row).replace("X", "✱").replace("+", "◇").replace(".", "·")
            assert shape.strip() in part


def test_a_resignation_loses_for_the_whole_team() -> None:
    four = ludotheque.load("expion", players=4)
    assert four.resignation(1).winners == (0, 2)
    assert four.resignation(2).winners == (1, 3)
    three = ludotheque.load("expion", players=3)
    assert three.resignation(2).winners == (0,) and three.resignation(0).winners == (1, 2)


# -- clauses of issue 19: orthogonal contact, the capture flag, the order of the draws -----------
def test_the_chameleon_needs_orthogonal_contact_with_the_expion() -> None:
    # North's f6 touches the EX*PION on e5 only by a corner: the EX*PION stays neutral.
    diagonal = position("figure_3_diagonal_contact").play("c6-c5")
    assert diagonal.marble_at("d5") == "W" and not diagonal.has_first_capture
    # The same marble one cell over, beside the EX*PION: d5 is captured.
    beside = position("figure_3").play("c6-c5")
    assert beside.marble_at("d5") is None


CYCLE = ["c7-d7", "g4-g5", "d7-c7", "g5-g4"]


def test_the_repetition_key_includes_whether_a_capture_has_happened() -> None:
    # The flag turns on only with a capture, which also removes marbles, so in play the same
    # marbles never stand under both flags: the flagless occurrences are written into ``seen``.
    before_capture = position("two_marbles_cycle")
    for text in CYCLE:
        before_capture = before_capture.play(text)
    assert before_capture.repetitions == 2  # these marbles, North to move, no capture yet
    after_capture = position("two_marbles_cycle", freed=True)
    data = after_capture.to_json()
    data["seen"] = data["seen"] + before_capture.to_json()["seen"]
    state = after_capture.game.state_from_json(data)
    assert state.repetitions == 1, "the same marbles after a capture are another position"
    for text in CYCLE:
        state = state.play(text)
    assert not state.is_over and state.repetitions == 2


def test_the_200_move_draw_is_tested_before_the_third_occurrence() -> None:
    def after_two_cycles(state: ExpionState) -> ExpionState:
        for text in CYCLE * 2:
            assert not state.is_over
            state = state.play(text)
        return state

    # The eighth move makes the third occurrence (see the repetition test above) ...
    assert after_two_cycles(position("two_marbles_cycle")).result().reason == "repetition"
    # ... and, 192 quiet moves in, the 200th move without capture or push too.
    final = after_two_cycles(with_quiet(position("two_marbles_cycle"), QUIET_LIMIT - 2 * len(CYCLE)))
    assert final.quiet_moves == QUIET_LIMIT
    assert final.result().reason == "no_progress"


# -- perft (tests/data/expion/perft.json) ----------------------------------------------------------
PERFT_CHECKED = 1_000_000  # deeper counts take longer than a test should: they are for the record


def perft(state: ExpionState, depth: int) -> int:
    """The number of move sequences of exactly ``depth`` moves from ``state``."""
    if depth <= 1:
        return len(state.legal_moves()) if depth else 1
    return sum(perft(state.play(move), depth - 1) for move in state.legal_moves())


@pytest.mark.parametrize("entry", PERFT, ids=lambda entry: f"{entry['position']}-{entry['players']}p")
def test_perft_counts(entry: dict[str, Any]) -> None:
    name, players = entry["position"], entry["players"]
    state = start(players) if name == "start" else position(name)
    assert state.game.players == players
    checked = list(takewhile(lambda count: count <= PERFT_CHECKED, entry["nodes"]))
    assert [perft(state, depth) for depth in range(len(checked))] == checked
