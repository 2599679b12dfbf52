"""Imbrication: every clause of ``shared/rules/imbrication.md``, one test or more each.

Positions are built with ``ImbricationGame.position`` from a few named cells (see ``diagram``).
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Mapping

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import IllegalMoveError, InvalidMoveError
from ludotheque.games.imbrication import ImbricationGame, ImbricationState, Move
from ludotheque.games.imbrication.board import (
    BIT,
    FLANKS,
    FULL,
    INDEX,
    NAMES,
    TILES,
    banned,
    bits,
    territories,
)

GAME = ludotheque.load("imbrication")
assert isinstance(GAME, ImbricationGame)
TABLE_ORDER = ("step", "dstep", "slide", "dslide", "jump", "djump", "ljump", "dljump", "blank")


def diagram(cells: Mapping[str, str]) -> list[str]:
    """Eight rows, rank 8 first, from ``{"d4": "L", "e5": "D"}``."""
    rows = []
    for rank in range(8, 0, -1):
        rows.append("".join(cells.get(f"{f}{rank}", ".") for f in "abcdefgh"))
    return rows


def pieces(spec: str, owner: str) -> dict[str, str]:
    return dict.fromkeys(spec.split(), owner)


def acting(cells: Mapping[str, str], tile: str, placed: str, *, round_: int = 1,
           mover: int = 0) -> ImbricationState:
    """``mover`` has placed ``placed`` and revealed ``tile``; the action is pending."""
    drawn = next(d for d in range(1, 10) if (round_ + d) % 2 == mover)
    return GAME.position(diagram(cells), round=round_, drawn=drawn, placed=placed, tile=tile)


def placing(cells: Mapping[str, str], *, round_: int = 1, mover: int = 0,
            tile: str | None = None) -> ImbricationState:
    """``mover`` must place the piece of an action turn; ``tile`` will be revealed next."""
    drawn = next(d for d in range(0, 9) if (round_ - 1 + d) % 2 == mover)
    return GAME.position(diagram(cells), round=round_, drawn=drawn, tile=tile)


def texts(state: ImbricationState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def random_game(seed: int) -> list[ImbricationState]:
    rng = random.Random(seed)
    state = GAME.new_state(seed)
    states = [state]
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states


# -- material and chance ---------------------------------------------------------------------------
def test_the_nine_tiles_are_in_the_rules_table_order() -> None:
    assert TILES == TABLE_ORDER


def test_new_state_draws_both_orders_exactly_as_the_rules_file_says() -> None:
    for seed in (0, 1, 42, 2024):
        r = random.Random(seed)
        order1 = list(TABLE_ORDER)
        r.shuffle(order1)
        order4 = list(TABLE_ORDER)
        r.shuffle(order4)
        data = GAME.new_state(seed).to_json()
        assert data["order1"] == order1 and data["order4"] == order4


def test_the_seed_changes_the_orders_and_the_game_declares_chance_and_secrets() -> None:
    orders = {tuple(GAME.new_state(seed).to_json()["order1"]) for seed in range(20)}
    assert len(orders) > 10
    assert GAME.has_chance and GAME.has_hidden_information
    assert GAME.info.player_counts == (2,) and GAME.info.variants == ("standard",)


def test_rounds_draw_order1_its_reverse_order1_order4_and_its_reverse() -> None:
    states = random_game(5)
    final = states[-1].to_json()
    order1, order4 = final["order1"], final["order4"]
    expected = [order1, order1[::-1], order1, order4, order4[::-1]]
    drawn = final_tiles_by_round(states[-1])
    assert final["round"] == 5 and len(final["outcomes"]) == 45
    assert drawn == expected


def final_tiles_by_round(state: ImbricationState) -> list[list[str]]:
    by_round: list[list[str]] = [[] for _ in range(5)]
    for entry in state.view(None)["revealed"]:
        by_round[entry["round"] - 1].append(entry["tile"])
    return by_round


# -- turn structure ----------------------------------------------------------------------------------
def test_each_round_opens_with_four_alternate_placements_and_openers_alternate() -> None:
    states = random_game(3)
    openers = {}
    for before, after in itertools.pairwise(states):
        if before.phase == "opening":
            assert after.to_move == 1 - before.to_move or after.is_over
            if before.opening_placements == 0:
                openers[before.round] = before.to_move
            assert before.legal_moves()[0].is_placement
    assert openers == {1: 0, 2: 1, 3: 0, 4: 1, 5: 0}


def test_players_alternate_strictly_turn_by_turn_across_the_whole_game() -> None:
    states = random_game(8)
    turn_players = []
    for state in states[:-1]:
        if state.phase in ("opening", "place"):
            turn_players.append(state.to_move)
    assert all(a != b for a, b in itertools.pairwise(turn_players))
    assert turn_players[0] == 0 and len(turn_players) == 5 * 13


def test_an_action_turn_is_a_placement_then_an_action_by_the_same_player() -> None:
    state = placing(pieces("d5", "D"), tile="jump")
    assert state.phase == "place" and texts(state)[:2] == ["a1", "b1"]
    after = state.play("d4")
    assert after.phase == "act" and after.to_move == state.to_move
    assert after.current_tile == "jump" and after.placed == INDEX["d4"]
    assert texts(after) == ["d4xd6"]
    done = after.play("d4xd6")
    assert done.to_move == 1 - state.to_move and done.phase == "place"
    assert done.outcomes[-1] == "action" and done.ply == state.ply + 2


def test_a_blank_tile_needs_no_action_move() -> None:
    state = placing({}, tile="blank")
    after = state.play("d4")
    assert after.phase == "place" and after.to_move == 1 - state.to_move
    assert after.owner(INDEX["d4"]) == state.to_move
    assert after.outcomes[-1] == "blank" and after.ply == state.ply + 1


def test_the_placed_piece_is_removed_when_it_cannot_perform_the_action() -> None:
    state = placing(pieces("a8", "D"), tile="jump")
    after = state.play("d4")
    assert after.owner(INDEX["d4"]) is None and after.outcomes[-1] == "removed"
    assert after.to_move == 1 - state.to_move and after.ply == state.ply + 1


def test_in_rounds_1_to_3_only_the_piece_just_placed_acts() -> None:
    cells = {**pieces("a1", "L"), **pieces("h8", "D")}
    state = acting({**cells, "d4": "L"}, "step", "d4", round_=3)
    assert {m.source for m in state.legal_moves()} == {INDEX["d4"]}
    with pytest.raises(IllegalMoveError, match="only the piece just placed"):
        state.play("a1-a2")
    # The other pieces could move, yet a stuck placed piece is removed.
    stuck = placing({**cells, **pieces("c4 e4 d3 d5", "L")}, round_=3, tile="step")
    after = stuck.play("d4")
    assert after.owner(INDEX["d4"]) is None and after.outcomes[-1] == "removed"


def test_in_rounds_4_and_5_any_own_piece_may_act() -> None:
    cells = {**pieces("a1 d4", "L"), **pieces("h8", "D")}
    state = acting(cells, "step", "d4", round_=4)
    assert {NAMES[m.source] for m in state.legal_moves()} == {"a1", "d4"}
    after = state.play("a1-a2")
    assert after.owner(INDEX["a2"]) == 0 and after.owner(INDEX["d4"]) == 0
    assert after.owner(INDEX["a1"]) is None


def test_in_rounds_4_and_5_the_placed_piece_stays_when_another_piece_can_act() -> None:
    cells = {**pieces("c4 e4 d3 d5 a1", "L"), **pieces("b1", "D")}
    state = placing(cells, round_=5, tile="jump")
    # a1 cannot take b1 (c1 would be beyond it: it is empty, so a1xc1 exists); d4 is boxed in.
    after = state.play("d4")
    assert after.phase == "act" and texts(after) == ["a1xc1"]


def test_in_rounds_4_and_5_the_placed_piece_goes_when_no_own_piece_can_act() -> None:
    cells = {**pieces("a1 h1", "L"), **pieces("h8", "D")}
    state = placing(cells, round_=4, tile="jump")
    after = state.play("d4")
    assert after.owner(INDEX["d4"]) is None and after.outcomes[-1] == "removed"
    assert after.owner(INDEX["a1"]) == 0 and after.owner(INDEX["h1"]) == 0


@settings(max_examples=300, deadline=None)
@given(
    board=st.lists(st.sampled_from("LD..."), min_size=64, max_size=64),
    tile=st.sampled_from([t for t in TABLE_ORDER if t != "blank"]),
    round_=st.sampled_from([1, 4]),
    cell=st.integers(0, 63),
)
def test_the_placed_piece_stays_exactly_when_some_action_exists(
    board: list[str], tile: str, round_: int, cell: int
) -> None:
    # A placement only checks that a first step or hop exists (the actions are listed when
    # asked); the outcome must agree with the full list of actions in every position.
    cells = {NAMES[i]: c for i, c in enumerate(board) if c != "." and i != cell}
    state = placing(cells, round_=round_, tile=tile)
    if NAMES[cell] not in texts(state):
        return  # banned by the flanking rule
    after = state.play(NAMES[cell])
    mover = state.to_move or 0
    placed = {**cells, NAMES[cell]: "LD"[mover]}
    if after.outcomes[-1] == "removed":
        # A pending action with no way to perform it is not a position (its actions are listed).
        with pytest.raises(ValueError, match="cannot act"):
            acting(placed, tile, NAMES[cell], round_=round_, mover=mover)
    else:
        pending = acting(placed, tile, NAMES[cell], round_=round_, mover=mover)
        assert after.phase == "act" and after.legal_moves() == pending.legal_moves() != []


def test_the_action_is_compulsory_no_other_move_is_listed() -> None:
    state = acting(pieces("d4", "L"), "step", "d4")
    assert all(not m.is_placement for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="revealed"):
        state.play("a1")


# -- the placement ban (§4.1) ------------------------------------------------------------------------
def test_no_placement_between_two_enemy_pieces_on_a_row_or_a_column() -> None:
    state = placing(pieces("c4 e4 g2 g4", "D"))
    legal = set(texts(state))
    assert "d4" not in legal and "g3" not in legal
    with pytest.raises(IllegalMoveError, match="between two enemy pieces"):
        state.play("d4")


def test_the_ban_ignores_diagonals_own_pieces_and_the_edge() -> None:
    state = placing({**pieces("c3 e5 b1 a2 b4 h3 h5", "D"), **pieces("c5 e3", "L")})
    legal = set(texts(state))
    assert "d4" in legal  # diagonal enemies and own pieces do not ban
    assert "a1" in legal and "a4" in legal  # one neighbour only on each line
    assert "h4" not in legal  # on the edge, yet flanked along its column
    own_flanks = placing(pieces("c4 e4", "L"))
    assert "d4" in texts(own_flanks)


def test_the_ban_applies_to_opening_placements() -> None:
    state = GAME.position(diagram(pieces("c4 e4", "D")), round=1, openings=0)
    assert state.phase == "opening" and state.to_move == 0
    assert "d4" not in texts(state)


def test_a_piece_may_move_between_two_enemy_pieces() -> None:
    state = acting({**pieces("c4 e4", "D"), "d3": "L"}, "step", "d3")
    assert "d3-d4" in texts(state)
    after = state.play("d3-d4")
    assert after.owner(INDEX["d4"]) == 0


def test_the_shifted_ban_agrees_with_the_flank_table() -> None:
    rng = random.Random(1)
    for _ in range(200):
        enemy = rng.getrandbits(64) & FULL
        by_table = {c for c in range(64) if any(enemy & f == f for f in FLANKS[c])}
        assert set(bits(banned(enemy))) == by_table


# -- the actions (§4.2) ----------------------------------------------------------------------------------
def test_orthogonal_and_diagonal_steps_go_to_an_empty_neighbour() -> None:
    cells = {"d4": "L", "d5": "D", "c3": "L"}
    assert texts(acting(cells, "step", "d4")) == ["d4-d3", "d4-c4", "d4-e4"]
    assert texts(acting(cells, "dstep", "d4")) == ["d4-e3", "d4-c5", "d4-e5"]


def test_slides_cross_only_empty_cells_and_stop_anywhere() -> None:
    cells = {"d4": "L", "d6": "D", "f4": "L", "b2": "D"}
    assert texts(acting(cells, "slide", "d4")) == [
        "d4-d1", "d4-d2", "d4-d3", "d4-a4", "d4-b4", "d4-c4", "d4-e4", "d4-d5",
    ]
    assert texts(acting(cells, "dslide", "d4")) == [
        "d4-g1", "d4-f2", "d4-c3", "d4-e3", "d4-c5", "d4-e5", "d4-b6", "d4-f6", "d4-a7",
        "d4-g7", "d4-h8",
    ]


def test_a_short_capture_jumps_an_adjacent_enemy_and_removes_it() -> None:
    state = acting({"d4": "L", "d5": "D", "e4": "D", "c4": "L", "f4": "D"}, "jump", "d4")
    assert texts(state) == ["d4xd6"]  # e4 is backed by f4; c4 is own
    after = state.play("d4xd6")
    assert after.owner(INDEX["d5"]) is None and after.owner(INDEX["d6"]) == 0
    assert after.owner(INDEX["d4"]) is None


def test_a_diagonal_short_capture() -> None:
    state = acting({"d4": "L", "e5": "D", "c3": "D"}, "djump", "d4")
    assert texts(state) == ["d4xb2", "d4xf6"]


def test_capture_chains_are_optional_and_listed_before_their_extensions() -> None:
    state = acting({"d4": "L", "e4": "D", "f5": "D", "d5": "D"}, "jump", "d4")
    assert texts(state) == ["d4xf4", "d4xf4xf6", "d4xd6"]
    after = state.play("d4xf4xf6")
    assert after.owner(INDEX["e4"]) is None and after.owner(INDEX["f5"]) is None
    assert after.owner(INDEX["d5"]) == 1 and after.owner(INDEX["f6"]) == 0


def test_a_chain_may_end_on_its_start_cell() -> None:
    state = acting({"d4": "L", "d5": "D", "e6": "D", "f5": "D", "e4": "D"}, "jump", "d4")
    assert "d4xd6xf6xf4xd4" in texts(state)
    after = state.play("d4xd6xf6xf4xd4")
    assert after.owner(INDEX["d4"]) == 0 and after.pieces(1) == 0


def test_a_long_list_of_actions_accepts_equal_moves_and_refuses_others() -> None:
    # Over 1,024 legal moves a move is looked up in a set instead of the list: long capture
    # chains through a checkerboard of enemy pieces run to tens of thousands. Equal moves
    # still play, anything else is still illegal.
    rows = ["........", ".D.D.D..", "D.D.D.D.", "DD.D.D.D", "D.D.D.D.", "DD.D.LLL", "D.D.L..L",
            "LLD.L..D"]
    cells = {f"{file}{8 - r}": c
             for r, row in enumerate(rows) for file, c in zip("abcdefgh", row, strict=True) if c != "."}
    state = acting(cells, "ljump", "e1", round_=5)
    moves = state.legal_moves()
    assert len(moves) > 1024
    for move in moves[::997]:
        equal = Move(tuple(move.cells), move.is_capture)
        assert equal is not move
        assert state.play(equal).to_json() == state.play(move).to_json()
    before = state.to_json()
    for foreign in (Move((INDEX["a1"], INDEX["b2"])), Move((INDEX["e1"], INDEX["e2"]), True), ["e1"], 7):
        with pytest.raises(IllegalMoveError):
            state.play(foreign)  # type: ignore[arg-type]
    assert state.to_json() == before


def test_a_capture_tile_never_moves_without_capturing() -> None:
    for tile in ("jump", "djump", "ljump", "dljump"):
        after = placing({"a8": "D"}, tile=tile).play("d4")
        assert after.outcomes[-1] == "removed"
    with pytest.raises(IllegalMoveError):
        acting({"d4": "L", "d5": "D"}, "jump", "d4").play("d4xd5")


def test_a_long_capture_crosses_empty_cells_and_lands_on_any_empty_cell_beyond() -> None:
    state = acting({"d2": "L", "d5": "D", "h8": "D"}, "ljump", "d2")
    assert texts(state) == ["d2xd6", "d2xd7", "d2xd8"]
    after = state.play("d2xd7")
    assert after.owner(INDEX["d5"]) is None and after.owner(INDEX["d7"]) == 0


def test_a_long_capture_may_take_an_adjacent_piece() -> None:
    state = acting({"d4": "L", "d5": "D"}, "ljump", "d4")
    assert texts(state)[0] == "d4xd6"


def test_a_long_capture_cannot_pass_an_own_piece() -> None:
    state = acting({"d2": "L", "d4": "L", "d6": "D", "f2": "D"}, "ljump", "d2")
    assert texts(state) == ["d2xg2", "d2xh2"]
    alone = placing({"d4": "L", "d6": "D"}, tile="ljump").play("d2")
    assert alone.outcomes[-1] == "removed"


def test_a_long_capture_cannot_pass_two_adjacent_enemy_pieces() -> None:
    state = acting({"d2": "L", "d5": "D", "d6": "D", "f2": "D"}, "ljump", "d2")
    assert texts(state) == ["d2xg2", "d2xh2"]
    alone = placing({"d5": "D", "d6": "D"}, tile="ljump").play("d2")
    assert alone.outcomes[-1] == "removed"
    spaced = acting({"d2": "L", "d5": "D", "d7": "D"}, "ljump", "d2")
    assert texts(spaced) == ["d2xd6", "d2xd6xd8"]


def test_a_long_capture_takes_one_piece_and_chains_for_the_next() -> None:
    state = acting({"d1": "L", "d3": "D", "d6": "D"}, "ljump", "d1")
    assert texts(state) == [
        "d1xd4", "d1xd4xd7", "d1xd4xd8", "d1xd5", "d1xd5xd7", "d1xd5xd8",
    ]


def test_a_long_diagonal_capture_chain() -> None:
    state = acting({"b2": "L", "d4": "D", "f4": "D", "g1": "L"}, "dljump", "b2")
    # h2 comes before g3: board order is rank first.
    assert texts(state) == ["b2xe5", "b2xe5xh2", "b2xe5xg3", "b2xf6", "b2xg7", "b2xh8"]


# Each case: a capture tile, the board, the acting piece, every chain the tile allows, then the
# first hop's landing and the piece it took, and the hops a tile of another family would make
# from that landing (orthogonal vs diagonal, short vs long): the chains never include them.
FAMILY_CASES = [
    ("jump", {"d4": "L", "d5": "D", "e7": "D", "f6": "D", "c6": "D"}, "d4",
     ["d4xd6", "d4xd6xb6"], "d6", "d5", [("djump", "d6xf8"), ("ljump", "d6xg6")]),
    ("djump", {"d4": "L", "e5": "D", "f7": "D", "b2": "D", "g7": "D"}, "d4",
     ["d4xf6", "d4xf6xh8"], "f6", "e5", [("jump", "f6xf8"), ("dljump", "f6xa1")]),
    ("ljump", {"d2": "L", "d5": "D", "c5": "D", "c7": "D"}, "d2",
     ["d2xd6", "d2xd7", "d2xd7xa7", "d2xd7xb7", "d2xd8"], "d6", "d5",
     [("djump", "d6xb4"), ("dljump", "d6xb8")]),
    ("dljump", {"b2": "L", "d4": "D", "e7": "D", "b5": "D"}, "b2",
     ["b2xe5", "b2xf6", "b2xf6xd8", "b2xg7", "b2xh8"], "e5", "d4",
     [("ljump", "e5xa5"), ("ljump", "e5xe8")]),
]


@pytest.mark.parametrize(("tile", "cells", "start", "chains", "landing", "taken", "others"),
                         FAMILY_CASES, ids=[case[0] for case in FAMILY_CASES])
def test_a_chain_stays_in_its_tiles_family(tile: str, cells: dict[str, str], start: str,
                                           chains: list[str], landing: str, taken: str,
                                           others: list[tuple[str, str]]) -> None:
    assert texts(acting(cells, tile, start)) == chains
    # From the first landing, tiles of the other families would capture more: not this one.
    after_first_hop = {c: p for c, p in cells.items() if c not in (start, taken)} | {landing: "L"}
    for other_tile, hop in others:
        assert hop in texts(acting(after_first_hop, other_tile, landing)), other_tile
        assert not any(chain.startswith(f"{start}x{landing}x{hop.split('x')[1]}") for chain in chains)


def test_captured_pieces_leave_at_once_so_a_chain_may_cross_their_cells() -> None:
    # After d4xd6 (taking d5), the long hop back down crosses d5 and d4, now empty, to take d2.
    state = acting({"d4": "L", "d5": "D", "d2": "D"}, "ljump", "d4")
    assert "d4xd6xd1" in texts(state)


# -- territories and scoring (§5, §6) -----------------------------------------------------------------
def mask(names: str) -> int:
    return sum((BIT[INDEX[n]] for n in names.split()), 0)


def named(regions: list[int]) -> list[list[str]]:
    return [[NAMES[c] for c in bits(r)] for r in regions]


# The rule page's territory examples (§5). Its pictures are lost, so these boards are
# reconstructed from the captions; they live in this one table so that a better reconstruction
# changes one place: (caption, light pieces, dark pieces, light territories, dark territories).
RULEBOOK_EXAMPLES = [
    ("the light pieces have made a territory of one cell",
     "c2 b3 d3 c4", "", [["c3"]], []),
    ("a dark piece common to two territories of 1 and 4 cells (d3)",
     "", "c2 b3 d3 c4 e2 f2 g3 g4 e5 f5 d4", [], [["c3"], ["e3", "f3", "e4", "f4"]]),
    ("a dark ring holding light pieces is no territory; the light ones close one cell",
     "d3 c4 e4 d5", "c2 d2 e2 b3 f3 b4 f4 b5 f5 c6 d6 e6", [["d4"]], []),
    ("a region resting on the edge of the board is no territory",
     "a2 b2 c2 c1", "", [], []),
]


@pytest.mark.parametrize(("caption", "light", "dark", "light_regions", "dark_regions"),
                         RULEBOOK_EXAMPLES, ids=[e[0][:40] for e in RULEBOOK_EXAMPLES])
def test_the_rule_page_territory_examples(caption: str, light: str, dark: str,
                                          light_regions: list[list[str]],
                                          dark_regions: list[list[str]]) -> None:
    light_mask, dark_mask = mask(light), mask(dark)
    assert named(territories(light_mask, dark_mask)) == light_regions, caption
    assert named(territories(dark_mask, light_mask)) == dark_regions, caption
    cells = {**pieces(light, "L"), **pieces(dark, "D")}
    result = over_at(cells).result()
    assert result.scores == (sum(map(len, light_regions)), sum(map(len, dark_regions)))


def test_a_region_touching_the_edge_is_no_territory() -> None:
    assert territories(mask("a2 b1 b2"), 0) == []
    assert named(territories(mask("b1 a2 c2 b3"), 0)) == [["b2"]]


def over_at(cells: Mapping[str, str]) -> ImbricationState:
    state = GAME.position(diagram(cells), round=5, drawn=9)
    assert state.is_over and state.to_move is None and state.legal_moves() == []
    return state


def test_more_territory_wins_and_scores_are_territory_cells() -> None:
    cells = {**pieces("c2 b3 d3 c4", "L"), **pieces("a8 b8 c8 d8 e8 f8 g8", "D")}
    result = over_at(cells).result()
    assert result.winners == (0,) and result.scores == (1, 0) and result.reason == "territory"


def test_equal_territory_goes_to_more_pieces_then_a_draw() -> None:
    result = over_at({**pieces("a1 a2", "L"), **pieces("h8", "D")}).result()
    assert result.winners == (0,) and result.scores == (0, 0) and result.reason == "pieces"
    result = over_at({**pieces("a1", "L"), **pieces("h8", "D")}).result()
    assert result.winners == () and result.reason == "draw"


def test_the_game_ends_after_the_ninth_tile_of_round_five() -> None:
    states = random_game(11)
    final = states[-1]
    assert final.round == 5 and final.tiles_drawn == 9 and len(final.outcomes) == 45
    before_last = [s for s in states if not s.is_over][-1]
    assert before_last.round == 5 and before_last.tiles_drawn >= 8
    with pytest.raises(ValueError):
        before_last.result()


def full_board_but(free: str, cells: Mapping[str, str]) -> dict[str, str]:
    board = {name: ("L" if (INDEX[name] // 8 + INDEX[name]) % 3 else "D") for name in NAMES}
    board.update(cells)
    del board[free]
    return board


def test_the_game_ends_at_once_when_the_player_to_place_cannot() -> None:
    cells = full_board_but("d4", {"c4": "D", "e4": "D", "d3": "L", "d5": "D"})
    state = GAME.position(diagram(cells), round=2, openings=1)  # seat 0 must place
    assert state.to_move is None and state.is_over and state.result().reason in (
        "territory", "pieces", "draw")
    # Only the player who must place is checked: seat 1 could still place on d4.
    other = GAME.position(diagram(cells), round=2, openings=0)
    assert other.to_move == 1 and texts(other) == ["d4"]


def test_a_filled_board_ends_the_game_after_a_placement() -> None:
    cells = full_board_but("d4", {"c4": "D", "e4": "L"})
    state = GAME.position(diagram(cells), round=2, openings=0)
    after = state.play("d4")
    assert after.is_over and after.result().scores == (0, 0)


def test_random_games_last_five_rounds_or_end_early_with_a_result() -> None:
    for seed in range(6):
        final = random_game(seed)[-1]
        assert final.is_over and final.ply <= GAME.info.max_plies
        assert final.result().scores == tuple(final.view(None)["scores"])


# -- notation and errors ---------------------------------------------------------------------------------
@pytest.mark.parametrize("text", ["d4", "d4-d7", "d4xf6xd8", "a1xa3", "h8-a1"])
def test_notation_round_trips(text: str) -> None:
    move = Move.from_text(text)
    assert str(move) == text
    assert repr(move) == f"Move.from_text({text!r})"
    assert Move.from_text(f"  {text.upper()} ") == move


def test_the_parser_accepts_spaces_inside_and_tells_kinds_apart() -> None:
    assert Move.from_text("D4 x F6 x d8") == Move((27, 45, 59), True)
    assert Move.from_text("d4 - d7").is_capture is False
    assert Move.from_text("d4-d6") != Move.from_text("d4xd6")


@pytest.mark.parametrize("text", ["", "d", "d9", "i1", "d4-", "d4-d5-d6", "d4xd6-d8", "d4d5",
                                  "d4x", "x", "pass", "4d"])
def test_malformed_text_is_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="imbrication"):
        Move.from_text(text)


def test_errors_name_the_input_and_the_ply_and_change_nothing() -> None:
    state = placing(pieces("d5", "D"), tile="jump")
    before = state.to_json()
    with pytest.raises(IllegalMoveError) as error:
        GAME.parse_move(state, "d5")
    assert "'d5'" in str(error.value) and f"ply {state.ply}" in str(error.value)
    with pytest.raises(IllegalMoveError, match="place a piece first"):
        state.play("d4-d5")
    with pytest.raises(InvalidMoveError):
        state.play("zz")
    with pytest.raises(IllegalMoveError):
        state.play(Move((INDEX["d4"], INDEX["d6"]), True))
    assert state.to_json() == before


def test_parse_move_returns_the_listed_move() -> None:
    state = acting({"d4": "L", "e4": "D", "f5": "D", "d5": "D"}, "jump", "d4")
    move = GAME.parse_move(state, " D4XF4xF6 ")
    assert any(move is m for m in state._legal or [])


def test_no_move_once_over() -> None:
    final = random_game(2)[-1]
    with pytest.raises(IllegalMoveError, match="over"):
        GAME.parse_move(final, "a1")


# -- what each reader sees --------------------------------------------------------------------------------
def secret_twin(state: ImbricationState) -> ImbricationState:
    """The same state with every tile the players cannot know arranged otherwise."""
    data = state.to_json()
    seen = state.revealed_in_round_one()
    data["order1"] = data["order1"][:seen] + data["order1"][seen:][::-1]
    if seen < 8:
        data["order1"][seen], data["order1"][seen + 1] = data["order1"][seen + 1], data["order1"][seen]
    if not state.is_round_four_order_known():
        data["order4"] = data["order4"][1:] + data["order4"][:1]
    twin = GAME.state_from_json(data)
    assert isinstance(twin, ImbricationState)
    return twin


def interesting_states() -> list[ImbricationState]:
    states = random_game(4)
    return [s for s in states if s.round <= 4][::3]


def test_states_differing_only_in_unrevealed_tiles_look_the_same_to_everyone() -> None:
    differing = 0
    for state in interesting_states():
        twin = secret_twin(state)
        differing += twin.to_json() != state.to_json()
        for viewer in (None, 0, 1):
            assert twin.view(viewer) == state.view(viewer)
    assert differing > 10


def test_views_differ_only_in_the_viewer_and_hold_no_secret() -> None:
    for state in interesting_states():
        views = [state.view(v) for v in (None, 0, 1)]
        for view in views:
            view.pop("viewer")
        assert views[0] == views[1] == views[2]
        text = json.dumps(views[0])
        assert "order" not in text and "seed" not in text


def test_round_one_tiles_appear_only_once_revealed_even_the_ninth() -> None:
    states = random_game(6)
    for state in states:
        if state.round == 1 and state.opening_placements == 4:
            line = state.view(0)["line"]
            shown = sum(t is not None for t in line)
            assert shown == state.tiles_drawn
            assert line[: state.tiles_drawn] == [state.tile_at(1, k) for k in range(shown)]
    eighth = next(s for s in states if s.round == 1 and s.tiles_drawn == 8 and s.phase == "place")
    assert eighth.view(None)["line"][8] is None


def test_the_round_four_order_shows_from_the_end_of_round_three_only() -> None:
    states = random_game(7)
    for state in states:
        fourth = state.view(1)["lines"][3]
        if state.round <= 3:
            assert fourth == [None] * 9
        else:
            assert fourth == [state.tile_at(4, k) for k in range(9)]
    before, after = next((a, b) for a, b in itertools.pairwise(states) if b.round == 4)
    assert before.round == 3 and before.view(0)["lines"][3] == [None] * 9
    assert None not in after.view(0)["lines"][3] and after.phase == "opening"
    assert after.view(0)["lines"][4] == after.view(0)["lines"][3][::-1]


def test_the_view_lists_revealed_tiles_with_turn_player_and_outcome() -> None:
    state = acting({"d5": "D", "d4": "L"}, "jump", "d4")
    view = state.view(None)
    assert view["current_tile"] == "jump" and view["placed"] == "d4" and view["phase"] == "act"
    assert view["revealed"][-1] == {"round": 1, "turn": 1, "player": 0, "tile": "jump",
                                    "outcome": "pending"}
    assert view["cells"] == {"d4": 0, "d5": 1} and view["placeable"] == []
    after = state.play("d4xd6").view(None)
    assert after["revealed"][-1]["outcome"] == "action" and after["current_tile"] is None
    assert after["tiles_played"] == 1 and after["opening_placements"] == 4


def test_the_view_counts_territories_and_scores() -> None:
    view = placing(pieces("c2 b3 d3 c4", "L"), mover=1).view(None)
    assert view["territories"] == [[["c3"]], []] and view["scores"] == [1, 0]
    assert view["pieces"] == [4, 0]


# -- determinize ------------------------------------------------------------------------------------------
def test_determinize_keeps_the_view_and_depends_only_on_it() -> None:
    for state in interesting_states():
        for viewer in (None, 0, 1):
            guess = state.determinize(viewer, random.Random(3))
            assert guess.view(viewer) == state.view(viewer)
            assert texts(guess) == texts(state)
            twin_guess = secret_twin(state).determinize(viewer, random.Random(3))
            assert twin_guess.to_json() == guess.to_json()


def test_determinize_draws_unknown_tiles_from_table_order() -> None:
    state = GAME.new_state(9)
    for move in ["a1", "h8", "a8", "h1", "d4"]:
        state = state.play(move)
    seen = state.revealed_in_round_one()
    known = state.to_json()["order1"][:seen]
    rng = random.Random(12)
    unknown = [t for t in TABLE_ORDER if t not in known]
    rng.shuffle(unknown)
    order4 = list(TABLE_ORDER)
    rng.shuffle(order4)
    guess = state.determinize(0, random.Random(12)).to_json()
    assert guess["order1"] == known + unknown and guess["order4"] == order4


def test_determinize_changes_nothing_once_nothing_is_hidden() -> None:
    state = next(s for s in random_game(1) if s.round == 4)
    assert state.determinize(1, random.Random(0)) == state


# -- the full state -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("change", [
    {"order1": [*TABLE_ORDER[:-1], "step"]},
    {"board": ["L" * 8] * 7},
    {"round": 6},
    {"ply": 3},
    {"outcomes": ["action"]},
    {"placed": "z9"},
    {"result": {"winners": [0], "scores": [1, 0], "reason": "territory"}},
])
def test_state_from_json_refuses_inconsistent_data(change: dict[str, object]) -> None:
    data = random_game(3)[30].to_json()
    data.update(change)
    with pytest.raises(ValueError, match="imbrication"):
        GAME.state_from_json(data)


def test_a_blank_outcome_must_match_a_blank_tile() -> None:
    state = placing({}, tile="blank").play("d4")
    data = state.to_json()
    data["outcomes"][-1] = "action"
    data["ply"] += 1
    with pytest.raises(ValueError, match="does not fit"):
        GAME.state_from_json(data)


def test_placements_are_listed_in_board_order_rank_then_file() -> None:
    expected = [f"{f}{r}" for r in range(1, 9) for f in "abcdefgh"]
    assert texts(GAME.new_state(0)) == expected
    assert texts(placing({"b1": "D", "a2": "L"})) == [t for t in expected if t not in ("b1", "a2")]


def test_actions_are_listed_by_start_cell_in_board_order() -> None:
    cells = {**pieces("h1 a2 d4", "L"), **pieces("h8", "D")}
    state = acting(cells, "step", "d4", round_=4)
    starts = [NAMES[m.source] for m in state.legal_moves()]
    assert starts == sorted(starts, key=lambda n: INDEX[n]) and starts[0] == "h1"


def test_a_position_whose_pending_piece_cannot_act_is_refused() -> None:
    with pytest.raises(ValueError, match="cannot act"):
        acting({"d4": "L"}, "jump", "d4")
