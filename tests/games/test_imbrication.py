"""Imbrication: every clause of the game's ``RULES.md``, one test or more each.

The known positions live in ``tests/data/imbrication/``, by name, each with why it matters:
``positions.json`` (built with ``ImbricationGame.position``; their legal moves, outcomes and
results are checked here for every one, and tests below play on from some), ``territories.json``
(the rule page's examples) and ``perft.json`` (move counts of the plain engine).
"""

from __future__ import annotations

import ast
import itertools
import json
import random
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.core import IllegalMoveError, InvalidMoveError
from ludotheque.engines.imbrication import ImbricationGame, ImbricationState, Move
from ludotheque.engines.imbrication.board import (
    BIT,
    DIRECTIONS,
    FLANKS,
    FULL,
    INDEX,
    NAMES,
    TILE_TABLE,
    TILES,
    banned,
    bits,
    territories,
)

GAME = ludotheque.load("imbrication")
assert isinstance(GAME, ImbricationGame)
TABLE_ORDER = ("step", "dstep", "slide", "dslide", "jump", "djump", "ljump", "dljump", "blank")
DATA = Path(__file__).resolve().parents[1] / "data" / "imbrication"
POSITIONS: dict[str, dict[str, Any]] = json.loads((DATA / "positions.json").read_text())["positions"]
TERRITORIES: dict[str, dict[str, Any]] = json.loads((DATA / "territories.json").read_text())["cases"]
PERFT: dict[str, dict[str, Any]] = json.loads((DATA / "perft.json").read_text())["positions"]


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


def build(spec: Mapping[str, Any]) -> ImbricationState:
    """The position a ``positions.json`` entry describes (its ``about`` says how)."""
    if "board" in spec:
        cells = {f"{f}{8 - r}": c for r, row in enumerate(spec["board"])
                 for f, c in zip("abcdefgh", row, strict=True) if c != "."}
    else:
        cells = {**pieces(spec.get("light", ""), "L"), **pieces(spec.get("dark", ""), "D")}
    round_ = spec.get("round", 1)
    if spec["setup"] == "act":
        mover = "LD".index(cells[spec["placed"]])
        return acting(cells, spec["tile"], spec["placed"], round_=round_, mover=mover)
    if spec["setup"] == "place":
        return placing(cells, round_=round_, mover=spec["mover"], tile=spec.get("tile"))
    if spec["setup"] == "opening":
        return GAME.position(diagram(cells), round=round_, openings=spec["openings"])
    assert spec["setup"] == "over"
    return over_at(cells)


def known(name: str) -> ImbricationState:
    """The position called ``name`` in ``positions.json``."""
    return build(POSITIONS[name])


BUILT = [name for name, spec in POSITIONS.items() if "refused" not in spec]
REFUSED = [name for name, spec in POSITIONS.items() if "refused" in spec]


# -- the known positions -----------------------------------------------------------------------------
@pytest.mark.parametrize("name", BUILT)
def test_the_known_positions_list_their_moves_and_outcomes(name: str) -> None:
    spec = POSITIONS[name]
    state = build(spec)
    legal = texts(state)
    if "legal" in spec:
        assert legal == spec["legal"], spec["why"]
    if "legal_count" in spec:
        assert len(legal) == spec["legal_count"], spec["why"]
    assert set(spec.get("legal_has", [])) <= set(legal), spec["why"]
    assert not set(spec.get("legal_lacks", [])) & set(legal), spec["why"]
    for move, expected in spec.get("after", {}).items():
        after = state.play(move)
        assert after.phase == expected["phase"], spec["why"]
        if "legal" in expected:
            assert texts(after) == expected["legal"], spec["why"]
        if "outcome" in expected:
            assert after.outcomes[-1] == expected["outcome"], spec["why"]
    if "result" in spec:
        assert state.result().to_json() == spec["result"], spec["why"]
    else:
        assert not state.is_over, spec["why"]


@pytest.mark.parametrize("name", REFUSED)
def test_the_refused_positions_raise(name: str) -> None:
    with pytest.raises(ValueError, match=POSITIONS[name]["refused"]):
        known(name)


def perft(state: ImbricationState, depth: int) -> int:
    """Sequences of ``depth`` legal moves from ``state`` (nothing is counted past the end)."""
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(move), depth - 1) for move in moves)


@pytest.mark.parametrize("name", list(PERFT))
def test_perft_counts(name: str) -> None:
    entry = PERFT[name]
    state = GAME.new_state(entry["seed"])
    for move in entry["moves"]:
        state = state.play(move)
    assert [perft(state, depth) for depth in range(1, len(entry["counts"]) + 1)] == entry["counts"]


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
    state = known("a jump to come")
    assert state.phase == "place" and texts(state)[:2] == ["a1", "b1"]
    after = state.play("d4")
    assert after.phase == "act" and after.to_move == state.to_move
    assert after.current_tile == "jump" and after.placed == INDEX["d4"]
    done = after.play("d4xd6")
    assert done.to_move == 1 - state.to_move and done.phase == "place"
    assert done.outcomes[-1] == "action" and done.ply == state.ply + 2


def test_a_blank_tile_needs_no_action_move() -> None:
    state = known("a blank to come")
    after = state.play("d4")
    assert after.to_move == 1 - state.to_move and after.owner(INDEX["d4"]) == state.to_move
    assert after.ply == state.ply + 1


def test_the_placed_piece_is_removed_when_it_cannot_perform_the_action() -> None:
    state = known("a jump to come, nothing to take")
    after = state.play("d4")
    assert after.owner(INDEX["d4"]) is None and after.outcomes[-1] == "removed"
    assert after.to_move == 1 - state.to_move and after.ply == state.ply + 1


def test_in_rounds_1_to_3_only_the_piece_just_placed_acts() -> None:
    state = known("round 3: only d4 steps")
    with pytest.raises(IllegalMoveError, match="only the piece just placed"):
        state.play("a1-a2")
    # The other pieces could move, yet a stuck placed piece is removed.
    after = known("round 3: a step to come, d4 boxed in").play("d4")
    assert after.owner(INDEX["d4"]) is None and after.owner(INDEX["a1"]) == 0


def test_in_rounds_4_and_5_any_own_piece_may_act() -> None:
    after = known("round 4: any piece steps").play("a1-a2")
    assert after.owner(INDEX["a2"]) == 0 and after.owner(INDEX["d4"]) == 0
    assert after.owner(INDEX["a1"]) is None


def test_in_rounds_4_and_5_the_placed_piece_stays_when_another_piece_can_act() -> None:
    after = known("round 5: a jump to come, a1 can take").play("d4")
    assert after.owner(INDEX["d4"]) == 0 and after.placed == INDEX["d4"]


def test_in_rounds_4_and_5_the_placed_piece_goes_when_no_own_piece_can_act() -> None:
    after = known("round 4: a jump to come, nothing to take").play("d4")
    assert after.owner(INDEX["d4"]) is None
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
    state = known("a lone step")
    assert all(not m.is_placement for m in state.legal_moves())
    with pytest.raises(IllegalMoveError, match="revealed"):
        state.play("a1")


# -- the placement ban (§4.1) ------------------------------------------------------------------------
# The positions of the ban ("d4 and g3 between dark pieces", "flanks that do not ban", "d4
# between light pieces", "the ban in the opening") are checked with every known position.
def test_a_placement_between_two_enemy_pieces_is_refused_with_the_reason() -> None:
    with pytest.raises(IllegalMoveError, match="between two enemy pieces"):
        known("d4 and g3 between dark pieces").play("d4")


def test_the_ban_applies_to_opening_placements() -> None:
    state = known("the ban in the opening")
    assert state.phase == "opening" and state.to_move == 0


def test_a_piece_may_move_between_two_enemy_pieces() -> None:
    after = known("a step between dark pieces").play("d3-d4")
    assert after.owner(INDEX["d4"]) == 0


def test_the_shifted_ban_agrees_with_the_flank_table() -> None:
    rng = random.Random(1)
    for _ in range(200):
        enemy = rng.getrandbits(64) & FULL
        by_table = {c for c in range(64) if any(enemy & f == f for f in FLANKS[c])}
        assert set(bits(banned(enemy))) == by_table


# -- the actions (§4.2) ----------------------------------------------------------------------------------
# Which steps, slides and captures each tile allows (§4.2.1-4.2.8): the legal moves of the known
# positions ("steps from d4", "slides from d4", "a jump over d5", "a long diagonal chain", ...).
def test_a_short_capture_jumps_an_adjacent_enemy_and_removes_it() -> None:
    after = known("a jump over d5").play("d4xd6")
    assert after.owner(INDEX["d5"]) is None and after.owner(INDEX["d6"]) == 0
    assert after.owner(INDEX["d4"]) is None


def test_capture_chains_are_optional_and_listed_before_their_extensions() -> None:
    state = known("a chain and its extension")
    after = state.play("d4xf4xf6")
    assert after.owner(INDEX["e4"]) is None and after.owner(INDEX["f5"]) is None
    assert after.owner(INDEX["d5"]) == 1 and after.owner(INDEX["f6"]) == 0


def test_a_chain_may_end_on_its_start_cell() -> None:
    after = known("a chain back to its start").play("d4xd6xf6xf4xd4")
    assert after.owner(INDEX["d4"]) == 0 and after.pieces(1) == 0


def test_a_long_list_of_actions_accepts_equal_moves_and_refuses_others() -> None:
    # Over 1,024 legal moves a move is looked up in a set instead of the list. Equal moves
    # still play, anything else is still illegal.
    state = known("a checkerboard of dark pieces")
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
    # The placed piece goes when nothing can be taken ("a jump to come, nothing to take", ...);
    # a capture move that lands on the enemy piece, taking nothing, is no move.
    with pytest.raises(IllegalMoveError):
        known("a jump to take d5").play("d4xd5")


def test_a_long_capture_lands_on_any_empty_cell_beyond_and_removes_the_piece() -> None:
    after = known("a long jump down the d file").play("d2xd7")
    assert after.owner(INDEX["d5"]) is None and after.owner(INDEX["d7"]) == 0


FAMILIES = [name for name, spec in POSITIONS.items() if "family" in spec]


@pytest.mark.parametrize("name", FAMILIES)
def test_a_chain_stays_in_its_tiles_family(name: str) -> None:
    spec = POSITIONS[name]
    start, chains = spec["placed"], spec["legal"]
    landing, taken = spec["family"]["landing"], spec["family"]["taken"]
    # From the first landing, tiles of the other families would capture more: not this one.
    cells = {**pieces(spec.get("light", ""), "L"), **pieces(spec.get("dark", ""), "D")}
    after_first_hop = {c: p for c, p in cells.items() if c not in (start, taken)} | {landing: "L"}
    for other_tile, hop in spec["family"]["other_tiles"]:
        assert hop in texts(acting(after_first_hop, other_tile, landing)), other_tile
        assert not any(chain.startswith(f"{start}x{landing}x{hop.split('x')[1]}") for chain in chains)


# -- territories and scoring (§5, §6) -----------------------------------------------------------------
def mask(names: str) -> int:
    return sum((BIT[INDEX[n]] for n in names.split()), 0)


def named(regions: list[int]) -> list[list[str]]:
    return [[NAMES[c] for c in bits(r)] for r in regions]


@pytest.mark.parametrize("name", list(TERRITORIES))
def test_the_territory_cases(name: str) -> None:
    case = TERRITORIES[name]
    light, dark = mask(case["light"]), mask(case["dark"])
    assert named(territories(light, dark)) == case["light_territories"], case["why"]
    assert named(territories(dark, light)) == case["dark_territories"], case["why"]
    cells = {**pieces(case["light"], "L"), **pieces(case["dark"], "D")}
    scores = (sum(map(len, case["light_territories"])), sum(map(len, case["dark_territories"])))
    assert over_at(cells).result().scores == scores


def over_at(cells: Mapping[str, str]) -> ImbricationState:
    state = GAME.position(diagram(cells), round=5, drawn=9)
    assert state.is_over and state.to_move is None and state.legal_moves() == []
    return state


# Who wins (more territory, then more pieces, then a draw): the results of the known positions
# "a light territory of one cell", "no territory, more light pieces", "no territory, as many pieces".
def test_the_game_ends_after_the_ninth_tile_of_round_five() -> None:
    states = random_game(11)
    final = states[-1]
    assert final.round == 5 and final.tiles_drawn == 9 and len(final.outcomes) == 45
    before_last = [s for s in states if not s.is_over][-1]
    assert before_last.round == 5 and before_last.tiles_drawn >= 8
    with pytest.raises(ValueError):
        before_last.result()


def test_the_game_ends_at_once_when_the_player_to_place_cannot() -> None:
    state = known("a full board, Light barred from d4")  # seat 0 must place
    assert state.to_move is None and state.is_over
    # Only the player who must place is checked: seat 1 could still place on d4.
    other = known("a full board, Dark to place on d4")
    assert other.to_move == 1 and texts(other) == ["d4"]


def test_a_filled_board_ends_the_game_after_a_placement() -> None:
    after = known("a full board but d4, open to Dark").play("d4")
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
    state = known("a jump to come")
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
    state = known("a chain and its extension")
    move = GAME.parse_move(state, " D4XF4xF6 ")
    assert any(move is m for m in state.legal_moves())


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


def test_the_view_carries_the_tile_table_and_the_counts_a_board_draws_from() -> None:
    view = GAME.new_state(0).view(None)
    assert list(view["tile_table"]) == list(TABLE_ORDER)
    for tile, facts in view["tile_table"].items():
        table = TILE_TABLE[tile]
        assert (facts["fr"], facts["en"], facts["motion"]) == (table.fr, table.en, table.motion)
        assert [tuple(d) for d in facts["directions"]] == [DIRECTIONS[d] for d in table.directions]
    assert view["tile_table"]["dslide"]["directions"] == [[1, 1], [-1, 1], [1, -1], [-1, -1]]
    assert view["tile_table"]["blank"]["directions"] == []
    assert (view["round_count"], view["turns_per_round"], view["opening_placements_per_round"]) == (5, 9, 4)
    assert len(view["lines"]) == view["round_count"] and len(view["line"]) == view["turns_per_round"]


def test_hidden_facts_count_the_tiles_nobody_has_seen() -> None:
    counts = [state.hidden_facts(0) for state in random_game(4)]
    assert counts[0] == 18 and counts[-1] == 0
    assert all(later <= earlier for earlier, later in itertools.pairwise(counts))
    for state in random_game(5)[::5]:
        unseen = 9 - state.revealed_in_round_one() + (0 if state.is_round_four_order_known() else 9)
        assert state.hidden_facts(None) == state.hidden_facts(1) == unseen


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
    state = known("a jump to take d5")
    view = state.view(None)
    assert view["current_tile"] == "jump" and view["placed"] == "d4" and view["phase"] == "act"
    assert view["revealed"][-1] == {"round": 1, "turn": 1, "player": 0, "tile": "jump",
                                    "outcome": "pending"}
    assert view["cells"] == {"d4": 0, "d5": 1} and view["placeable"] == []
    after = state.play("d4xd6").view(None)
    assert after["revealed"][-1]["outcome"] == "action" and after["current_tile"] is None
    assert after["tiles_played"] == 1 and after["opening_placements"] == 4


def test_the_view_counts_territories_and_scores() -> None:
    view = known("a light ring around c3").view(None)
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


@pytest.mark.parametrize(("change", "said"), [
    ({"game": "pylos"}, "state of pylos/standard/2 given to"),
    ({"variant": "kids"}, "state of imbrication/kids/2 given to"),
    ({"players": 3}, "state of imbrication/standard/3 given to"),
])
def test_state_from_json_refuses_the_state_of_another_game(change: dict[str, object], said: str) -> None:
    data = random_game(3)[30].to_json()
    assert list(data)[:3] == ["game", "variant", "players"]
    with pytest.raises(ValueError, match=rf"^imbrication: {said}"):
        GAME.state_from_json(data | change)
    with pytest.raises(ValueError, match=r"^imbrication: malformed state"):
        GAME.state_from_json({"board": data["board"]})


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
    starts = [NAMES[m.source] for m in known("round 4: steps by start cell").legal_moves()]
    assert starts == sorted(starts, key=lambda n: INDEX[n]) and starts[0] == "h1"


# -- the package's shape -------------------------------------------------------------------------------------
PACKAGE = Path(ludotheque.__file__).parent / "engines" / "imbrication"


def test_the_view_imports_nothing_from_the_rules() -> None:
    tree = ast.parse((PACKAGE / "view.py").read_text())
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert "rules" not in imported and all(not (m or "").endswith(".rules") for m in imported)


@pytest.mark.parametrize("module", sorted(p.name for p in PACKAGE.glob("*.py") if p.name != "rules.py"))
def test_only_the_rules_read_a_state_s_private_fields(module: str) -> None:
    tree = ast.parse((PACKAGE / module).read_text())
    private = [
        ast.unparse(node) for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and node.attr.startswith("_") and not node.attr.startswith("__")
        and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"))
    ]
    assert private == []
