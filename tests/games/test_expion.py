"""Ex*Pion: every clause of ``shared/rules/expion.md``, the rulebook's figures 1 to 5 rebuilt as
positions from its text, the view, JSON, errors and the evaluator.

Positions are written as pieces, e.g. ``"Ne6 Xe5 Wd5"`` (a North marble on e6, the EX*PION on e5,
a West marble on d5), and built with ``ExpionGame.position``. The rulebook's colours are not tied
to camps (its photos are lost): in the figures, green stands for East and blue for West, the
captured team, and the capturing player is North.
"""

from __future__ import annotations

import json
import random

import pytest

import ludotheque
from ludotheque.core import IllegalMoveError, InvalidMoveError
from ludotheque.games.expion import GAME, ExpionGame, ExpionState, Move
from ludotheque.games.expion.board import (
    CAMP_CELLS,
    CELLS,
    FORWARD,
    INDEX,
    LAYOUT,
    NAMES,
    SPECIAL_CELLS,
)
from ludotheque.games.expion.evaluate import evaluate
from ludotheque.games.expion.rules import QUIET_LIMIT

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
    state = place("Ne9 Ee7 Xc5 Wd4 Sb4")
    assert from_cell(state, "e9") == ["e9-e8"]
    for text in ("e9-e7", "e9-e6", "e9-d9", "e9-d8", "e9-e5"):
        with pytest.raises(IllegalMoveError):
            state.play(text)


def test_a_marble_in_its_camp_may_push_the_expion_just_in_front() -> None:
    state = place("Ne9 Xe8 Wd4 Sb4")
    assert from_cell(state, "e9") == ["e9-e8"]
    after = state.play("e9-e8")
    assert after.expion == "e7" and after.marble_at("e8") == "N" and after.marble_at("e9") is None


def test_in_the_play_area_one_cell_forward_or_sideways() -> None:
    state = place("Nd4 Xg7 We8")
    assert from_cell(state, "d4") == ["d4-d3", "d4-c4", "d4-e4"]
    east = place("Ef4 Xb7 Nd8", camp="E")
    assert from_cell(east, "f4") == ["f4-f3", "f4-e4", "f4-f5"]


def test_never_diagonal_nor_two_cells_in_the_play_area() -> None:
    state = place("Nd4 Xg7 We8")
    for text in ("d4-c3", "d4-e5", "d4-d2"):
        with pytest.raises(IllegalMoveError, match=r"'d4-\w\d'.*ply 0"):
            state.play(text)


def test_backward_only_to_capture_until_the_first_capture() -> None:
    state = place("Nd4 Xg7 We8")
    assert "d4-d5" not in texts(state)
    with pytest.raises(IllegalMoveError, match="backward only to capture"):
        state.play("d4-d5")
    capturing = place("Nd4 Wd6 Sd7 Xg7")
    assert "d4-d5" in texts(capturing)
    after = capturing.play("d4-d5")
    assert after.marble_at("d6") is None and after.has_first_capture


def test_after_the_first_capture_every_marble_may_step_backward() -> None:
    state = place("Nd4 Xg7 We8", freed=True)
    assert from_cell(state, "d4") == ["d4-d3", "d4-c4", "d4-e4", "d4-d5"]


def test_the_first_capture_frees_backward_moves_for_everyone() -> None:
    pieces = "Ne7 Ee5 Se4 Xh5 Wc3 Ec6"
    assert "c6-d6" not in texts(place(pieces, camp="E"))  # East's backward step: not yet
    after = place(pieces).play("e7-e6")  # North captures e5 (figure 1)
    assert after.has_first_capture and after.camp_to_move == "E"
    assert "c6-d6" in texts(after)  # East's backward step is now free


def test_no_marble_ever_enters_a_camp() -> None:
    freed = place("Ne2 Nb5 Wb6 Sg3 Xe5", freed=True)
    assert from_cell(freed, "e2") == ["e2-d2", "e2-f2", "e2-e3"]  # not e1, South's camp
    assert "b5-a5" not in texts(freed)  # not into West's empty camp
    west = place("Wb6 Nd2 Xe5 Ec3", camp="W", freed=True)
    assert from_cell(west, "b6") == ["b6-b5", "b6-c6", "b6-b7"]  # never back into its own camp


def test_special_cells_are_open_to_marbles() -> None:
    state = place("Nb3 Xe5 Wd8")
    assert "b3-b2" in texts(state)


# -- pushing the EX*PION ---------------------------------------------------------------------------
def test_a_push_moves_the_expion_one_cell_straight_on() -> None:
    state = place("Nd5 Xe5 Wg8")
    assert "d5-e5" in texts(state)
    after = state.play("d5-e5")
    assert after.expion == "f5" and after.marble_at("e5") == "N" and after.marble_at("d5") is None
    assert after.quiet_moves == 0


def test_no_push_onto_an_occupied_cell_or_a_special_cell() -> None:
    occupied = place("Nd5 Xe5 Ef5 Wg8")
    assert "d5-e5" not in texts(occupied)
    special = place("Nb4 Xb3 Wg8")  # b2 below the EX*PION is special
    assert "b4-b3" not in texts(special)
    with pytest.raises(IllegalMoveError, match="EX\\*PION cannot be pushed"):
        special.play("b4-b3")


def test_no_push_into_a_camp_of_ones_own_team() -> None:
    # North pushing down toward South's empty camp cell e1: its own team's camp.
    state = place("Ne3 Xe2 Wg8", freed=True)
    assert "e3-e2" not in texts(state)
    # East pushing toward file i (a backward push, free after the first capture): its own camp.
    east = place("Eg5 Xh5 Nb4", camp="E", freed=True)
    assert "g5-h5" not in texts(east) and "g5-g4" in texts(east)


def test_pushing_the_expion_into_an_enemy_camp_wins_for_the_whole_team() -> None:
    state = place("Nc5 Xb5 Eg7 Wd8 Sh3")
    final = state.play("c5-b5")
    assert final.is_over and final.rows()[4][0] == "X"
    result = final.result()
    assert result.winners == (0, 2) and result.scores == (1, -1, 1, -1)
    assert result.reason == "expion_in_camp"
    assert final.legal_moves() == [] and final.to_move is None
    # Three players: East pushes sideways into North's camp; East and West (1 and 2) win.
    into_north = place("Ee7 Xe8 Nb4 Sc3", camp="E", players=3).play("e7-e8")
    assert into_north.result().winners == (1, 2) and into_north.result().scores == (-1, 1, 1)


def test_no_push_into_a_camp_cell_that_holds_a_marble() -> None:
    state = place("Nc5 Xb5 Wa5 Eg7")
    assert "c5-b5" not in texts(state)


def test_a_push_goes_only_where_the_marble_may_move() -> None:
    # North pushing up (backward) before the first capture, capturing nothing: refused.
    state = place("Ne4 Xe5 Wg8")
    assert "e4-e5" not in texts(state)
    assert "e4-e5" in texts(place("Ne4 Xe5 Wg8", freed=True))
    # A backward push is allowed when the pushed EX*PION captures.
    capturing = place("Ne4 Xe5 We7 Ne8 Wg3")
    assert "e4-e5" in texts(capturing)
    after = capturing.play("e4-e5")
    assert after.expion == "e6" and after.marble_at("e7") is None and after.has_first_capture


# -- captures (rulebook figures 1 to 5) ----------------------------------------------------------
def test_figure_1_a_marble_between_the_mover_and_a_friend_is_captured() -> None:
    state = place("Ne7 Ee5 Se4 Xh5 Wc3")
    after = state.play("e7-e6")
    assert pieces_of(after) == {"Ne6", "Se4", "Xh5", "Wc3"}  # the green (East) marble left
    assert after.marbles("E") == 0 and after.has_first_capture and after.quiet_moves == 0


def test_figure_2_one_move_captures_two_marbles() -> None:
    state = place("Ne7 Ee5 Se4 Wf6 Ng6 Wd6 Xh3")
    after = state.play("e7-e6")
    # green (East) on e5 and blue (West) on f6 leave; d6 has no friend beyond and stays.
    assert pieces_of(after) == {"Ne6", "Se4", "Ng6", "Wd6", "Xh3"}


def test_captures_are_only_orthogonal() -> None:
    state = place("Ne7 Ed5 Sc4 Xh3 Wg2")
    after = state.play("e7-e6")
    assert after.marble_at("d5") == "E" and not after.has_first_capture


def test_no_capture_of_a_friend() -> None:
    state = place("Ne7 Se5 Ne4 Xh3 Wg2")
    after = state.play("e7-e6")
    assert after.marble_at("e5") == "S"


def test_a_marble_moved_between_two_enemies_is_safe() -> None:
    state = place("Wd6 Ne7 Ne5 Xh3 Sg2", camp="W")
    after = state.play("d6-e6")
    assert after.marble_at("e6") == "W" and after.marbles("W") == 1


def test_only_the_moved_marble_captures() -> None:
    # e5 already stands between two North marbles: an unrelated move does not capture it.
    state = place("Ne6 Ee5 Ne4 Nb7 Xh3 Wg2")
    after = state.play("b7-b6")
    assert after.marble_at("e5") == "E"


def test_figure_3_the_expion_as_chameleon_captures() -> None:
    # North's e6 touches the EX*PION, which then counts as North's: c5-d5(blue)-e5(EX*PION).
    state = place("Ne6 Xe5 Wd5 Nc6 Eh8")
    after = state.play("c6-c5")
    assert after.marble_at("d5") is None and after.marbles("W") == 0
    # Without a North marble beside the EX*PION, no capture.
    alone = place("Ng7 Xe5 Wd5 Nc6 Eh8").play("c6-c5")
    assert alone.marble_at("d5") == "W"


def test_the_chameleon_needs_a_marble_of_the_movers_own_colours() -> None:
    # A team-mate's (South's) marble beside the EX*PION does not lend it to North...
    state = place("Se6 Xe5 Wd5 Nc6 Eh8")
    assert state.play("c6-c5").marble_at("d5") == "W"
    # ... but with two players South is North's holder's own colour.
    two = place("Se6 Xe5 Wd5 Nc6 Eh8", players=2)
    assert two.play("c6-c5").marble_at("d5") is None


def test_the_chameleon_serves_only_the_player_to_move() -> None:
    # North touches the EX*PION, but on West's move it is no friend of West's.
    state = place("Nf5 Xe5 Nd5 Wc6 Ng8 Eb3", camp="W")
    assert state.play("c6-c5").marble_at("d5") == "N"
    # The same shape with colours swapped: on North's move it is North's friend.
    assert place("Nf5 Xe5 Wd5 Nc6 Eb3").play("c6-c5").marble_at("d5") is None


@pytest.mark.parametrize(("players", "captured"), [(3, False), (2, True)])
def test_the_chameleon_ignores_a_west_team_mate_of_east(players: int, captured: bool) -> None:
    # West's e6 touches the EX*PION; East moves c6-c5 to flank North's d5 against it.
    state = place("We6 Xe5 Nd5 Ec6 Sh3", camp="E", players=players)
    assert (state.play("c6-c5").marble_at("d5") is None) is captured


def test_figure_4_a_double_capture_with_the_expion() -> None:
    # c6-c5: blue d5 is between c5 and the EX*PION (chameleon thanks to e6), green c4 between
    # c5 and South's c3.
    state = place("Ne6 Xe5 Wd5 Nc6 Ec4 Sc3 Eh8")
    after = state.play("c6-c5")
    assert after.marble_at("d5") is None and after.marble_at("c4") is None


def test_figure_5_the_pushed_expion_captures_too() -> None:
    # d5 pushes the EX*PION to f5: it captures green g5 against North's h5, and the pusher on
    # e5 captures blue e4 against South's e3.
    state = place("Nd5 Xe5 Eg5 Nh5 We4 Se3 Wb8")
    after = state.play("d5-e5")
    assert after.expion == "f5"
    assert after.marble_at("g5") is None and after.marble_at("e4") is None
    assert pieces_of(after) == {"Ne5", "Xf5", "Nh5", "Se3", "Wb8"}


# -- elimination, passes and the end ------------------------------------------------------------
def test_a_player_without_marbles_is_eliminated_and_skipped() -> None:
    state = place("Nd8 Se2 Eh4 Xe5", camp="S")  # West has no marble
    assert state.view(None)["eliminated"] == [3]
    after = state.play("e2-e3")
    assert after.camp_to_move == "N" and after.to_move == 0


def test_a_player_holding_two_colours_plays_on_with_the_other() -> None:
    state = place("Sd2 Eh4 Wb7 Xe5", players=2)  # no North marble left
    assert state.to_move == 0 and state.camp_to_move == "N"
    assert texts(state) == ["d2-c2", "d2-e2", "d2-d3"]
    assert state.view(None)["eliminated"] == []


def test_a_camp_whose_holder_cannot_move_passes() -> None:
    # East's only marble on b2 is walled in (camps, North's b3 and c2; no backward step yet).
    state = place("Nb3 Nc2 Eb2 Sg5 Wh7 Xe6 Nf8")
    after = state.play("f8-f7")
    assert after.camp_to_move == "S" and after.to_move == 2 and after.ply == 1
    assert after.quiet_moves == 1
    assert after.view(None)["eliminated"] == []  # passing is not elimination


def test_a_team_without_marbles_loses_and_eliminated_mates_win_too() -> None:
    state = place("Ne7 Ee5 Ne4 Xh5")  # South and West are gone; East has one marble
    final = state.play("e7-e6")
    assert final.is_over
    assert final.result().winners == (0, 2) and final.result().reason == "no_marbles"
    assert final.result().scores == (1, -1, 1, -1)


def test_a_winning_push_is_tested_before_the_loss_of_every_marble() -> None:
    state = place("Nc5 Xb5 Eb4 Nb3")
    final = state.play("c5-b5")  # the EX*PION enters a5 and the pusher captures b4
    assert final.marbles("E") == 0
    assert final.result().reason == "expion_in_camp"


def test_draw_when_no_camp_can_move_after_a_move() -> None:
    pieces = "Nb3 Nc3 Nd3 Ne4 Nf3 Ng3 Nh3 Eb2 Ec2 Ed2 Ee2 Wf2 Wg2 Wh2 Xe7"
    state = place(pieces)
    final = state.play("e4-e3")
    assert final.is_over and final.result().winners == () and final.result().reason == "blocked"
    assert final.result().scores == (0, 0, 0, 0)


def with_quiet(state: ExpionState, quiet: int) -> ExpionState:
    data = state.to_json()
    data["quiet_moves"] = quiet
    return state.game.state_from_json(data)


def test_the_200_move_draw_is_tested_before_the_blocked_draw() -> None:
    pieces = "Nb3 Nc3 Nd3 Ne4 Nf3 Ng3 Nh3 Eb2 Ec2 Ed2 Ee2 Wf2 Wg2 Wh2 Xe7"
    final = with_quiet(place(pieces), QUIET_LIMIT - 1).play("e4-e3")
    assert final.result().reason == "no_progress"


def test_draw_after_200_moves_without_capture_or_push() -> None:
    state = with_quiet(place("Nd7 Eg4 Xb5 Sc2 Wh7"), QUIET_LIMIT - 2)
    one = state.play("d7-d6")
    assert not one.is_over and one.quiet_moves == QUIET_LIMIT - 1
    final = one.play("g4-f4")
    assert final.is_over and final.result().reason == "no_progress"


def test_passes_do_not_count_and_pushes_and_captures_reset_the_count() -> None:
    walled = place("Nb3 Nc2 Eb2 Sg5 Wh7 Xe6 Nf8")  # East passes
    after = with_quiet(walled, QUIET_LIMIT - 2).play("f8-f7")
    assert after.camp_to_move == "S" and after.quiet_moves == QUIET_LIMIT - 1
    assert after.play("g5-g6").result().reason == "no_progress"
    push = with_quiet(place("Nd6 Xe6 Sc2 Eh3 Wg8"), QUIET_LIMIT - 1).play("d6-e6")
    assert not push.is_over and push.quiet_moves == 0
    capture = with_quiet(place("Ne7 Ee5 Se4 Xh5 Wc3"), QUIET_LIMIT - 1).play("e7-e6")
    assert not capture.is_over and capture.quiet_moves == 0


def test_draw_on_the_third_occurrence_of_a_position() -> None:
    state = place("Nc7 Eg4 Xe2")  # South and West eliminated: North and East alternate
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
    state = place("Nc7 Eg4 Xe2", players=2)
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
    state = place("Ne9 Ne2 Nd2 Nf9 Ef7 Wg2 Xc5", freed=True)
    with pytest.raises(IllegalMoveError, match=reason):
        state.play(text)


def test_no_move_once_the_game_is_over() -> None:
    final = place("Nc5 Xb5 Eg7 Wd8 Sh3").play("c5-b5")
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
@pytest.mark.parametrize(
    ("pieces", "message"),
    [
        ("Nd4 Xb2 We8", "cannot stand on b2"),
        ("Nd4 Xa5 We8", "cannot stand on a5"),
        ("Nd4 We8", "exactly one EX"),
        ("Nd4 Xe5 Xe6 We8", "exactly one EX"),
        ("Nd4 Xe5 Wb9", "cannot stand in camp N"),
        ("Nd4 Xe5", "team without marbles"),
        ("Nd1 Xe5 We8", "cannot stand in camp S"),
    ],
)
def test_impossible_positions_are_refused(pieces: str, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        place(pieces)


def test_a_camp_without_legal_move_cannot_be_the_camp_to_move() -> None:
    with pytest.raises(ValueError, match="no legal move"):
        place("Nb3 Nc2 Eb2 Sg5 Wh7 Xe6", camp="E")


def test_json_round_trips_and_refuses_bad_data() -> None:
    state = place("Ne7 Ee5 Se4 Xh5 Wc3").play("e7-e6")
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
    ]
    for bad in broken:
        with pytest.raises(ValueError):
            state.game.state_from_json(bad)


def test_determinize_returns_an_equal_state() -> None:
    state = game(3).new_state().play("e9-e7")
    for viewer in (None, 0, 1, 2):
        assert state.determinize(viewer, random.Random(1)) == state


def test_the_view_shows_everything_to_everyone() -> None:
    state = place("Ne7 Ee5 Se4 Xh5 Wc3 Wc4").play("e7-e6")
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


# -- the evaluator ---------------------------------------------------------------------------------
def test_evaluate_is_in_range_and_sees_material_threats_and_results() -> None:
    up = place("Ne7 Nd7 Nc7 Ee5 Xb5 Wb4")
    assert 0 < evaluate(up, 0) <= 1 and -1 <= evaluate(up, 1) < 0
    threat = place("Nc5 Xb5 Eg7 Wd8 Sh3")
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
    diagonal = place("Nf6 Xe5 Wd5 Nc6 Eh8").play("c6-c5")
    assert diagonal.marble_at("d5") == "W" and not diagonal.has_first_capture
    # The same marble one cell over, beside the EX*PION: d5 is captured.
    beside = place("Ne6 Xe5 Wd5 Nc6 Eh8").play("c6-c5")
    assert beside.marble_at("d5") is None


CYCLE = ["c7-d7", "g4-g5", "d7-c7", "g5-g4"]
CYCLE_PIECES = "Nc7 Eg4 Xe2"  # South and West eliminated: North and East alternate


def test_the_repetition_key_includes_whether_a_capture_has_happened() -> None:
    # The flag turns on only with a capture, which also removes marbles, so in play the same
    # marbles never stand under both flags: the flagless occurrences are written into ``seen``.
    before_capture = place(CYCLE_PIECES)
    for text in CYCLE:
        before_capture = before_capture.play(text)
    assert before_capture.repetitions == 2  # these marbles, North to move, no capture yet
    after_capture = place(CYCLE_PIECES, freed=True)
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
    assert after_two_cycles(place(CYCLE_PIECES)).result().reason == "repetition"
    # ... and, 192 quiet moves in, the 200th move without capture or push too.
    final = after_two_cycles(with_quiet(place(CYCLE_PIECES), QUIET_LIMIT - 2 * len(CYCLE)))
    assert final.quiet_moves == QUIET_LIMIT
    assert final.result().reason == "no_progress"
