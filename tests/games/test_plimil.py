"""Plimil: every clause of ``RULES.md`` beside this module and the rulebook's worked examples.

The positions played from, the rulebook's worked examples and the perft counts are data, each
with why it matters: ``tests/data/plimil/positions.json`` and ``perft.json``.
"""

from __future__ import annotations

import ast
import inspect
import json
import random
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

import ludotheque
from ludotheque.core import IllegalMoveError, InvalidMoveError
from ludotheque.engines.plimil import Move, PlimilState
from ludotheque.engines.plimil.board import (
    CCW,
    CELLS,
    CW,
    FIXED,
    FIXED_TALL,
    INDEX,
    NAMES,
    PLANTED,
    ROTATE,
    ZONE,
    ZONE_NAMES,
    file_of,
    rank_of,
    window_slot,
)


def names(text: str) -> list[str]:
    """Space-separated cells or moves, as a list."""
    return text.split()


STANDARD = ludotheque.load("plimil")
SETUP10 = ludotheque.load("plimil", variant="setup10")
OPEN = ludotheque.load("plimil", variant="open")
GAMES = {"standard": STANDARD, "setup10": SETUP10, "open": OPEN}
DATA = Path(__file__).resolve().parents[1] / "data" / "plimil"
KNOWN = json.loads((DATA / "positions.json").read_text(encoding="utf-8"))
POSITIONS: dict[str, dict[str, Any]] = KNOWN["positions"]
PERFT: dict[str, dict[str, Any]] = json.loads((DATA / "perft.json").read_text(encoding="utf-8"))["counts"]
# A 4-ply cycle found by search: after PREFIX, CYCLE twice makes a third occurrence.
REPETITION = KNOWN["sequences"]["repetition_cycle"]
PREFIX: list[str] = REPETITION["prefix"]
CYCLE: list[str] = REPETITION["cycle"]


def spec_of(name: str) -> dict[str, str]:
    """The blocks of the known position ``name`` (``PlimilGame.from_position``'s ``blocks``)."""
    known = POSITIONS[name]
    spec = spec_of(known["from"]) if "from" in known else dict(known["blocks"])
    for start, placed in known.get("moved", {}).items():
        cell, balls = placed.split(" ", 1)
        relocate(spec, start, cell, balls)
    return spec


def position(name: str, **changes: Any) -> PlimilState:
    """The known position ``name`` in the open variant; ``changes`` to ``from_position``'s
    options (``to_move``, ``stems``, ``quiet_plies``) override the data's."""
    known = POSITIONS[name]
    options = {key: known[key] for key in ("to_move", "stems", "quiet_plies") if key in known}
    return OPEN.from_position(spec_of(name), **(options | changes))


def relocate(spec: dict[str, str], start: str, cell: str, balls: str) -> None:
    """Put the block that starts on ``start`` on ``cell`` with ``balls`` (as they stand now,
    optionally followed by its flips)."""
    for where, text in list(spec.items()):
        if text.split()[0] == start:
            del spec[where]
    spec[cell] = f"{start} {balls}"


def texts(state: PlimilState) -> list[str]:
    return [str(m) for m in state.legal_moves()]


def random_setup(game: ludotheque.Game, rng: random.Random) -> PlimilState:
    state = game.new_state()
    assert isinstance(state, PlimilState)
    while state.in_setup:
        state = state.play(rng.choice(state.legal_moves()))
    return state


def random_game(game: ludotheque.Game, seed: int) -> list[PlimilState]:
    rng = random.Random(seed)
    state = game.new_state(seed)
    states = [state]
    while not state.is_over:
        state = state.play(rng.choice(state.legal_moves()))
        states.append(state)
    return states  # type: ignore[return-value]


# -- board --------------------------------------------------------------------------------------
def test_the_board_is_the_disc_of_44_cells_with_the_zones_of_the_rules() -> None:
    assert len(CELLS) == 44
    for s in CELLS:
        assert (file_of(s) - 3.5) ** 2 + (rank_of(s) - 3.5) ** 2 <= 12.5
    by_rank = {r: "".join(NAMES[s][0] for s in CELLS if rank_of(s) == r) for r in range(8)}
    assert by_rank == {0: "de", 1: "bcdefg", 2: "bcdefg", 3: "abcdefgh", 4: "abcdefgh",
                       5: "bcdefg", 6: "bcdefg", 7: "de"}
    zones = {z: sorted(NAMES[s] for s in CELLS if ZONE[s] == z) for z in "BRbrWEC"}
    assert zones["B"] == sorted(names("d1 e1 c2 d2 e2 f2 d3 e3"))
    assert zones["R"] == sorted(names("d8 e8 c7 d7 e7 f7 d6 e6"))
    assert zones["W"] == sorted(names("a4 a5 b3 b4 b5 b6 c4 c5"))
    assert zones["E"] == sorted(names("h4 h5 g3 g4 g5 g6 f4 f5"))
    assert zones["b"] == sorted(names("b2 g2 c3 f3"))
    assert zones["r"] == sorted(names("b7 g7 c6 f6"))
    assert zones["C"] == sorted(names("d4 e4 d5 e5"))


def test_the_disc_maps_onto_itself_under_a_quarter_turn() -> None:
    for direction in (CW, CCW):
        assert sorted(ROTATE[direction][s] for s in CELLS) == list(CELLS)
        for s in CELLS:
            assert ROTATE[-direction][ROTATE[direction][s]] == s
    # Clockwise seen from above: the west side goes to the top.
    assert NAMES[ROTATE[CW][INDEX["a4"]]] == "d8"


@pytest.mark.parametrize(("variant", "fixed"), [("standard", 28), ("setup10", 24)])
def test_fixed_stems_follow_the_parity_rule_half_short_half_tall(variant: str, fixed: int) -> None:
    cells = [s for s in CELLS if FIXED[variant] >> s & 1]
    assert len(cells) == fixed
    tall = [s for s in cells if FIXED_TALL[variant] >> s & 1]
    assert len(tall) == fixed // 2
    assert all((file_of(s) + rank_of(s)) % 2 == 0 for s in tall)
    assert all(ZONE[s] not in "BR" for s in cells)


def test_setup10_plants_the_wedge_plus_two_diagonal_cells() -> None:
    assert [NAMES[s] for s in PLANTED["setup10"][0]] == names("d1 e1 b2 c2 d2 e2 f2 d3 e3 f3")
    assert [NAMES[s] for s in PLANTED["setup10"][1]] == names("c6 d6 e6 c7 d7 e7 f7 g7 d8 e8")


# -- the block mechanism ------------------------------------------------------------------------
def test_the_window_shows_middle_on_short_bottom_on_tall_and_turning_reverses() -> None:
    assert window_slot(is_tall=False, flips=0) == 1
    assert window_slot(is_tall=True, flips=0) == 0
    assert window_slot(is_tall=True, flips=1) == 2  # the built top now stands at the bottom
    assert window_slot(is_tall=False, flips=3) == 1  # the middle never moves
    assert window_slot(is_tall=True, flips=2) == 0


# -- notation -----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "canonical"),
    [("d2-d4", "d2-d4"), (" D3 - D4 X E4 ", "d3-d4xe4"), ("d3-d4@CCW", "d3-d4@ccw"),
     ("e5-d4xd5", "e5-d4xd5"), ("PASS", "pass"), ("stems ssss tttt", "stems SSSSTTTT"),
     ("Block D1 bnr", "block d1 BNR"), ("stems SSSSSTTTTT", "stems SSSSSTTTTT")],
)
def test_notation_ignores_case_and_spaces_and_round_trips(text: str, canonical: str) -> None:
    move = Move.from_text(text)
    assert str(move) == canonical
    assert Move.from_text(str(move)) == move
    assert eval(repr(move), {"Move": Move}) == move


@pytest.mark.parametrize(
    "text", ["", "d2", "d2-d9", "i1-d2", "d3-d4xe4@cw", "stems SST", "stems ????????",
             "block d1 ???", "block d1 BNRB", "d3-d4@up", "pas"],
)
def test_text_that_is_not_notation_raises_invalid_move(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="plimil"):
        Move.from_text(text)


def test_well_formed_moves_not_legal_here_raise_illegal_naming_the_input_and_ply() -> None:
    state = position("start")
    before = state.to_json()
    for text in ["a1-a3", "d3-d4", "pass", "stems SSSSTTTT", "d6-d4", "d2-d4@cw"]:
        with pytest.raises(IllegalMoveError, match=rf"{text!r}.*ply 0"):
            state.play(text)
    assert state.to_json() == before


# -- setup --------------------------------------------------------------------------------------
def test_setup_starts_with_the_70_stem_plantings_in_ascii_order() -> None:
    state = STANDARD.new_state()
    moves = texts(state)
    assert len(moves) == 70 and moves == sorted(moves)
    assert all(m.count("T") == 4 and m.count("S") == 4 for m in (t[6:] for t in moves))
    assert state.to_move == 0 and state.phase == "setup"


def test_setup10_plants_ten_stems_five_of_each() -> None:
    moves = texts(SETUP10.new_state())
    assert len(moves) == 252
    assert all(len(m) == 16 and m[6:].count("T") == 5 for m in moves)


def test_each_block_shows_its_builder_colour_in_the_window_of_its_stem() -> None:
    state = STANDARD.new_state().play("stems STSTSTST")  # d1 short, e1 tall
    d1 = texts(state)
    assert d1 and all(m.startswith("block d1 ") and m[10] == "B" for m in d1)
    assert d1 == sorted(d1)
    e1 = texts(state.play(d1[0]))
    assert e1 and all(m.startswith("block e1 ") and m[9] == "B" for m in e1)


def test_only_completable_setups_are_offered() -> None:
    state = STANDARD.new_state().play("stems SSSSTTTT")
    built = 0
    while state.to_move == 0 and state.in_setup:
        moves = texts(state)
        assert moves, "a setup that cannot be completed was offered"
        # Greedy: as many blue balls as possible, which must stop before blocks lack one.
        state = state.play(max(moves, key=lambda m: (m[-3:].count("B"), m)))
        built += 1
        blue_left = state.hand(0)[0]
        assert blue_left >= 12 - built
    assert built == 12 and state.hand(0) == (0, 0, 0)
    assert state.to_move == 1 and texts(state)[0].startswith("stems ")


def test_blue_sets_up_first_then_red_then_blue_plays_first() -> None:
    state = STANDARD.new_state()
    rng = random.Random(3)
    movers = []
    while state.in_setup:
        movers.append(state.to_move)
        state = state.play(rng.choice(state.legal_moves()))
        assert not state.is_over
    assert movers == [0] * 13 + [1] * 13
    assert state.ply == 26 and state.to_move == 0 and state.phase == "play"
    assert state.counts == (12, 12, 0)
    assert state.repetitions == 1  # the position when play begins is its first occurrence
    for player in (0, 1):
        assert state.hand(player) == (0, 0, 0)


# -- moves --------------------------------------------------------------------------------------
def test_two_stem_moves_go_forward_in_a_straight_line_over_a_free_cell() -> None:
    state = position("start")
    moves = texts(state)
    assert "d3-d5" in moves and "d3-b5" in moves and "d3-f5" in moves
    assert "b2-d4" not in moves  # c3 is not free
    red = position("start", to_move=1)
    red_moves = texts(red)
    assert "d6-d4" in red_moves and "e6-g4" in red_moves
    assert all(rank_of(Move.from_text(m).landing) < rank_of(Move.from_text(m).origin)
               for m in red_moves)


def test_a_plain_one_stem_move_does_not_exist() -> None:
    moves = [Move.from_text(m) for m in texts(position("start"))]
    for move in moves:
        distance = abs(rank_of(move.landing) - rank_of(move.origin))
        assert distance == 2 or move.captured >= 0 or move.turn


def test_one_stem_capture_takes_an_opponent_block_on_the_same_rank() -> None:
    moves = texts(position("red_on_f4"))
    assert "e3-e4xf4" in moves and "f3-e4xf4" in moves and "f3-g4xf4" in moves
    assert all(m.split("-")[1][:2] in ("e4", "g4") for m in moves if m.endswith("xf4"))
    # The destination d4 is no longer free.
    assert not any(m.endswith("e4xf4") for m in texts(position("red_on_f4_d4_taken")))


def test_rotation_needs_a_neutral_on_the_board() -> None:
    assert not any("@" in m for m in texts(position("start")))
    moves = texts(position("neutral_on_c6"))
    assert "d3-d4@ccw" in moves and "d3-d4@cw" in moves
    assert moves.index("d3-d4@ccw") + 1 == moves.index("d3-d4@cw")


def test_rotation_turns_blocks_and_stems_but_never_the_players_frame() -> None:
    state = position("neutral_on_c6")
    after = state.play("d3-d4@cw")
    assert after.rotation == 1
    assert after.block_at("d5") == "d3"  # d3 -> d4, then d4 turns to d5
    assert after.block_at("h4") == "e8"  # e8 (4,7) turns to (7,3)
    for s in CELLS:
        assert after.is_tall(NAMES[ROTATE[CW][s]]) == state.is_tall(NAMES[s])
    # Red still moves toward rank 1 and Blue toward rank 8 in the table's frame.
    for mover_state in (after, after.play(after.legal_moves()[0])):
        for move in mover_state.legal_moves():
            if move.kind == "play" and mover_state.colour_at(NAMES[move.origin]) != "N":
                step = rank_of(move.landing) - rank_of(move.origin)
                assert step > 0 if mover_state.to_move == 0 else step < 0


def test_neutral_captures_diagonally_toward_oneself_along_the_file() -> None:
    moves = texts(position("neutral_capture"))
    assert "e4-d3xd4" in moves
    assert not any(m.startswith("e4-") and m != "e4-d3xd4" for m in moves)
    # Red may move the same neutral toward Red (upward), to capture a blue block.
    red = position("neutral_capture", to_move=1)
    assert not any(m.startswith("e4-") for m in texts(red))


def test_neutral_blocks_are_never_captured() -> None:
    moves = texts(position("neutral_on_f4"))
    assert not any(m.endswith("xf4") for m in moves)


def test_legal_moves_follow_the_canonical_order() -> None:
    for states in (random_game(OPEN, 5), random_game(STANDARD, 6)):
        for state in states:
            moves = state.legal_moves()
            if not moves or moves[0].kind != "play":
                continue
            keys = [(m.origin, m.landing, 0 if m.captured >= 0 else 1, m.captured, m.turn)
                    for m in moves]
            assert keys == sorted(keys) and len(set(keys)) == len(keys)


# -- the rulebook's worked examples (positions.json: "rulebook") -------------------------------
RULEBOOK = [name for name, known in POSITIONS.items() if "rulebook" in known]


def check_facts(state: PlimilState, facts: dict[str, Any]) -> None:
    """The ``facts`` of a worked example hold in ``state``: the block on each cell with the
    colour it shows (``"<start cell> <colour>"``, or ``None``), the counts, the plies without a
    colour change, the result (``None``: the game goes on)."""
    for cell, expected in facts.get("cells", {}).items():
        block = state.block_at(cell)
        assert (None if block is None else f"{block} {state.colour_at(cell)}") == expected, cell
    if "counts" in facts:
        assert list(state.counts) == facts["counts"]
    if "quiet_plies" in facts:
        assert state.quiet_plies == facts["quiet_plies"]
    if "result" in facts and facts["result"] is None:
        assert not state.is_over
    elif "result" in facts:
        assert state.result().to_json() == facts["result"]
        assert state.legal_moves() == [] and state.to_move is None


@pytest.mark.parametrize("name", RULEBOOK)
def test_the_rulebook_worked_examples(name: str) -> None:
    example = POSITIONS[name]["rulebook"]
    state = position(name)
    check_facts(state, example.get("before", {}))
    after = state.play(example["move"])
    check_facts(after, example["after"])
    assert str(after.history[-1]) == example["move"]  # recorded as announced, even when stopped


def test_the_rulebook_examples_are_all_there() -> None:
    assert RULEBOOK == ["rulebook_capture", "rulebook_neutral_turns_blue", "rulebook_seventh_neutral"]


def test_a_colour_change_also_cancels_the_announced_rotation() -> None:
    after = position("rotation_cancelled").play("e3-e4@cw")  # tall e3 shows B, short e4 R
    assert after.rotation == 0 and after.block_at("e4") == "e3" and after.colour_at("e4") == "R"
    assert after.block_at("c6") == "c6"  # nothing turned


# -- end of the game ----------------------------------------------------------------------------
def test_a_player_without_a_move_passes_and_two_passes_end_the_game() -> None:
    state = position("blocked")
    assert texts(state) == ["pass"]
    after = state.play("pass")
    assert not after.is_over and texts(after) == ["pass"]
    final = after.play("pass")
    assert final.is_over
    assert final.result().reason == "two_passes"
    assert final.result().winners == (1,) and final.result().scores == (8, 16)


def test_pass_is_illegal_while_another_move_exists() -> None:
    with pytest.raises(IllegalMoveError, match="pass"):
        position("start").play("pass")


def test_the_hundredth_ply_without_a_colour_change_is_a_draw() -> None:
    state = position("start", quiet_plies=98)
    state = state.play("d3-d5")
    assert state.quiet_plies == 99 and not state.is_over
    final = state.play("e6-e4")
    assert final.is_over and final.result().reason == "hundred_plies"
    assert final.result().winners == () and final.result().scores == (12, 12)


def test_a_colour_change_resets_the_quiet_count() -> None:
    after = position("rulebook_capture", quiet_plies=99).play("e3-e4xf4")
    assert after.quiet_plies == 0 and not after.is_over


def position_key(state: PlimilState) -> str:
    """The position as the rules define it, read from the public view (Blue moved first)."""
    view = state.view(None)
    cells = [(e["cell"], e["block"]["id"], e["block"]["flips"] % 2)
             for e in view["board"] if e["block"]]
    return json.dumps([state.ply % 2, view["rotation"], cells])


def test_the_third_occurrence_of_a_position_is_a_draw() -> None:
    state = position(REPETITION["from"])
    for text in PREFIX:
        state = state.play(text)
    seen: dict[str, int] = {position_key(state): 1}
    for number, text in enumerate(CYCLE * 2, start=1):
        assert not state.is_over
        state = state.play(text)
        key = position_key(state)
        seen[key] = seen.get(key, 0) + 1
        assert state.repetitions == seen[key]
        assert state.is_over == (number == 8)
    assert max(seen.values()) == 3
    assert state.result().reason == "repetition" and state.result().winners == ()


def test_random_games_end_with_a_result_by_the_counts() -> None:
    for seed in range(6):
        final = random_game(STANDARD, seed)[-1]
        blue, red, neutral = final.counts
        result = final.result()
        assert result.scores == (blue, red)
        if result.reason == "rule_of_7":
            assert blue <= 7 or red <= 7 or neutral >= 7
            assert result.winners == ((0,) if blue > red else (1,))


# -- hidden information -------------------------------------------------------------------------
def test_the_opponent_sees_only_masked_setup_moves_and_no_hidden_stem_or_ball() -> None:
    rng = random.Random(11)
    state = random_setup(STANDARD, rng)
    red_view = state.view(1)
    dumped = json.dumps(red_view["moves"][:13])
    assert red_view["moves"][0] == "stems ????????"
    assert red_view["moves"][1] == "block d1 ???"
    assert "S" not in dumped.replace("stems", "") and "BNR" not in dumped
    assert state.view(0)["moves"][:13] == [str(m) for m in state.history[:13]]
    for entry in red_view["board"]:
        block = entry["block"]
        if entry["planted_by"] == 0:
            assert entry["stem"] is None and block["balls"] == [None, None, None]
        if entry["planted_by"] == 1:
            assert entry["stem"] in ("S", "T")
            assert None not in block["balls"]
    spectator = state.view(None)
    assert all(e["stem"] is None for e in spectator["board"] if e["planted_by"] is not None)
    assert spectator["hands"] == [None, None]


def test_fixed_stem_blocks_show_their_window_ball_to_everyone() -> None:
    state = random_setup(STANDARD, random.Random(2))
    view = state.view(1)
    b2 = next(e for e in view["board"] if e["cell"] == "b2")
    assert b2["stem"] == "T" and b2["block"]["balls"][0] == "B"
    assert b2["block"]["balls"][1:] == [None, None]


def test_leaving_a_hidden_stem_reveals_its_height_and_the_ball_shown_there() -> None:
    for seed in range(4):
        states = random_game(STANDARD, seed)
        for before, after in pairwise(states[26:]):
            move = after.history[-1]
            if move.kind != "play":
                continue
            origin = NAMES[move.origin]
            cell = next(e for e in before.view(None)["board"] if e["cell"] == origin)
            if cell["stem"] is None and after.rotation == before.rotation:
                shown = next(e for e in after.view(None)["board"] if e["cell"] == origin)
                assert shown["stem"] == ("T" if before.is_tall(origin) else "S")


def test_mask_move_text_hides_only_other_players_setup_moves() -> None:
    assert STANDARD.mask_move_text("stems SSSSTTTT", 0, 1) == "stems ????????"
    assert STANDARD.mask_move_text("block d1 BNR", 0, None) == "block d1 ???"
    assert STANDARD.mask_move_text("block d1 BNR", 0, 0) == "block d1 BNR"
    assert STANDARD.mask_move_text("d2-d4", 0, 1) == "d2-d4"
    assert SETUP10.mask_move_text("stems SSSSSTTTTT", 1, 0) == "stems ??????????"
    assert OPEN.mask_move_text("block d1 BNR", 0, 1) == "block d1 BNR"


def test_open_hides_nothing_and_determinizes_to_an_equal_state() -> None:
    assert not OPEN.has_hidden_information and STANDARD.has_hidden_information
    state = random_game(OPEN, 1)[30]
    assert state.view(None)["moves"] == [str(m) for m in state.history]
    assert all(e["stem"] for e in state.view(None)["board"])
    assert state.determinize(0, random.Random(1)).to_json() == state.to_json()


def secrets(state: PlimilState, owner: int) -> list[str]:
    """What ``owner`` built: their setup moves, which name their stems and balls."""
    return [str(m) for m in state.history[13 * owner: 13 * owner + 13]]


@pytest.mark.parametrize("game", [STANDARD, SETUP10], ids=["standard", "setup10"])
def test_determinize_keeps_the_view_replays_and_changes_only_the_unknown(
    game: ludotheque.Game,
) -> None:
    rng = random.Random(4)
    changed = 0
    for seed in range(3):
        states = random_game(game, seed)
        for state in states[::4]:
            for viewer in (None, 0, 1):
                guess = state.determinize(viewer, rng)
                assert guess.view(viewer) == state.view(viewer)
                replayed = game.new_state()
                for move in guess.history:
                    replayed = replayed.play(str(move))
                assert replayed.to_json() == guess.to_json()
                if viewer is not None:
                    assert secrets(guess, viewer) == secrets(state, viewer)
                    changed += secrets(guess, 1 - viewer) != secrets(state, 1 - viewer)
    assert changed > 10


def test_states_a_player_cannot_tell_apart_determinize_alike() -> None:
    state = random_game(STANDARD, 8)[40]
    for viewer in (0, 1):
        twin = state.determinize(viewer, random.Random(99))
        assert twin.view(viewer) == state.view(viewer)
        first = state.determinize(viewer, random.Random(5))
        second = twin.determinize(viewer, random.Random(5))
        assert first.to_json() == second.to_json()


def test_view_carries_what_a_web_page_needs() -> None:
    state = random_game(STANDARD, 3)[35]
    view = state.view(0)
    assert view["phase"] == "play" and view["rotation"] in range(4)
    assert set(view["counts"]) == {"blue", "red", "neutral"}
    assert set(view["draw"]) == {"quiet_plies", "repetitions", "passes"}
    assert len(view["board"]) == 44
    block = next(e["block"] for e in view["board"] if e["block"])
    assert set(block) == {"id", "owner", "colour", "flips", "balls"}
    assert set(view["board"][0]) == {"cell", "stem", "planted_by", "block", "window", "zone"}
    assert view["quiet_limit"] == 100
    assert json.loads(json.dumps(view)) == view


def test_each_cell_names_its_zone_wherever_the_board_turned_it() -> None:
    state = position("neutral_on_c6")
    zones = {e["cell"]: e["zone"] for e in state.view(None)["board"]}
    assert {zone: sorted(c for c, z in zones.items() if z == zone) for zone in ("centre", "blue_diagonal")} \
        == {"centre": names("d4 d5 e4 e5"), "blue_diagonal": names("b2 c3 f3 g2")}
    assert {zones[NAMES[s]] for s in CELLS} == {z.replace(" ", "_") for z in ZONE_NAMES.values()}
    turned = state.play("d3-d4@cw").view(None)
    assert turned["rotation"] == 1
    for entry in turned["board"]:
        # A cell shows the zone of the board's cell that the quarter turn brought there.
        assert entry["zone"] == zones[NAMES[ROTATE[CCW][INDEX[entry["cell"]]]]]
    assert next(e["zone"] for e in turned["board"] if e["cell"] == "d8") == "west_wedge"  # from a4


def test_each_cell_says_which_ball_its_window_shows_once_its_stem_is_known() -> None:
    state = random_game(STANDARD, 3)[35]
    for viewer in (None, 0, 1):
        for entry in state.view(viewer)["board"]:
            # ``balls`` stand as they are now, bottom first: a tall stem shows the bottom one.
            assert entry["window"] == {"T": 0, "S": 1, None: None}[entry["stem"]]
            block = entry["block"]
            if block and entry["window"] is not None and None not in block["balls"]:
                assert block["balls"][entry["window"]] == block["colour"]


def test_views_and_the_evaluator_read_the_state_through_its_public_interface() -> None:
    source = Path(inspect.getfile(PlimilState)).parent
    view_imports = {node.module for node in ast.walk(ast.parse((source / "view.py").read_text()))
                    if isinstance(node, ast.ImportFrom)}
    assert "rules" not in view_imports  # rules imports view, never the other way round
    for name in ("view.py", "evaluate.py", "board.py", "notation.py", "__init__.py"):
        private = [
            f"{name}:{node.lineno} .{node.attr}"
            for node in ast.walk(ast.parse((source / name).read_text()))
            if isinstance(node, ast.Attribute) and node.attr.startswith("_")
            and not node.attr.startswith("__")
        ]
        assert private == []
    assert "hidden_facts" in vars(PlimilState)  # not found by the view module's file name


def test_state_from_json_refuses_altered_data() -> None:
    state = random_game(STANDARD, 2)[30]
    data = json.loads(json.dumps(state.to_json()))
    assert STANDARD.state_from_json(data).to_json() == state.to_json()
    for field, value in [("mover", 5), ("blocks", []), ("tall", ["z9"]), ("moves", ["nope"])]:
        broken = dict(data, **{field: value})
        with pytest.raises(ValueError):
            STANDARD.state_from_json(broken)
    with pytest.raises(ValueError):
        SETUP10.state_from_json(data)


# -- clauses of issue 19: the replant cell, Red's neutral, the 100 plies, the order of endings ----
def test_a_capture_needs_a_replant_cell_on_the_board() -> None:
    # A red block on c3: a blue block landing on b3 would plant it on a3, which is no cell.
    state = position("replant_off_board")
    assert "b2-b3" not in texts(state) and not any(m.endswith("xc3") for m in texts(state))
    # One rank up the same capture plants the red block on a4, a cell: it is offered.
    assert "c3-b4xc4" in texts(position("replant_on_board"))


def test_a_capture_needs_a_free_replant_cell() -> None:
    moves = texts(position("replant_taken"))  # a4, where c3-b4xc4 would plant, holds a block
    assert "c3-b4xc4" not in moves and "c3-d4xc4" in moves  # d4xc4 plants it on b4, free


def test_a_neutral_capture_needs_a_replant_cell_on_the_board_and_free() -> None:
    # The neutral on e2 would land on d1 and plant the red block of d2 on "d0": no such cell.
    assert not any(m.startswith("e2-") for m in texts(position("neutral_replant_off_board")))
    # One rank up, the red block of d3 goes to d1: a cell, free.
    moves = texts(position("neutral_replant_on_board"))
    assert [m for m in moves if m.startswith("e3-")] == ["e3-d2xd3"]
    # The rulebook's capture e4-d3xd4 plants the red block on d2: not while d2 holds a block.
    assert not any(m.startswith("e4-") for m in texts(position("neutral_replant_taken")))


def test_red_captures_with_a_neutral_moved_diagonally_toward_red() -> None:
    state = position("red_neutral_capture")  # a neutral on d4, a blue block on e4, e6 free
    assert [m for m in texts(state) if m.startswith("d4-")] == ["d4-e5xe4"]
    after = state.play("d4-e5xe4")
    assert after.block_at("e5") == "e6" and after.colour_at("e5") == "N"
    assert after.block_at("e4") is None
    assert after.block_at("e6") == "e3" and after.colour_at("e6") == "B"  # BBB turned over
    assert next(b for b in after.to_json()["blocks"] if b["start"] == "e3")["flips"] == 1
    # Blue may not move that neutral toward Red: from d4, Blue's neutral goes to c3 or e3 only.
    assert not any(m.startswith("d4-e5") or m.startswith("d4-c5")
                   for m in texts(position("red_neutral_capture", to_move=0)))


def test_a_stopped_move_resets_the_hundred_ply_count() -> None:
    after = position("rulebook_neutral_turns_blue", quiet_plies=99).play("e4-d3xd4")
    assert after.colour_at("d3") == "B" and after.block_at("d4") == "d6"  # stopped
    assert after.quiet_plies == 0 and not after.is_over


def test_setup_moves_are_outside_the_draw_counters() -> None:
    state = random_setup(STANDARD, random.Random(7))
    assert state.ply == 26 and state.quiet_plies == 0 and state.repetitions == 1


def test_passes_count_as_plies_toward_the_hundred() -> None:
    state = position("blocked", quiet_plies=98)
    after = state.play("pass")
    assert after.quiet_plies == 99 and not after.is_over
    final = after.play("pass")
    assert final.quiet_plies == 100, "the 100th ply holds too"
    assert final.result().reason == "two_passes"


def test_two_passes_with_equal_counts_are_a_draw() -> None:
    state = position("swapped")  # every block walled in
    assert texts(state) == ["pass"] and state.counts == (12, 12, 0)
    final = state.play("pass").play("pass")
    assert final.result().winners == () and final.result().scores == (12, 12)
    assert final.result().reason == "two_passes"


def test_the_third_occurrence_is_tested_before_the_hundredth_ply() -> None:
    state = position(REPETITION["from"])
    for text in PREFIX:
        state = state.play(text)
    data = state.to_json()
    data["quiet"] = 100 - len(CYCLE) * 2
    state = OPEN.state_from_json(data)
    for text in CYCLE * 2:
        assert not state.is_over
        state = state.play(text)
    assert state.quiet_plies == 100 and state.repetitions == 3, "both endings hold"
    assert state.result().reason == "repetition"


def test_the_endings_are_tested_in_the_order_of_the_rules() -> None:
    # One pass in a walled-in position, with the counters set so that after it the rule of 7,
    # the second pass in a row, the third occurrence and the 100th ply hold, then each of them
    # taken away in turn: the first that still holds ends the game. (In play a pass never
    # changes a colour, so the rule of 7 cannot hold then: those states are written directly.)
    walled = position("blocked")
    following = [key for key, _ in walled.play("pass").to_json()["seen"]
                 if key not in dict(walled.to_json()["seen"])]

    def after_a_pass(*, seventh: bool, passes: int, seen: int, quiet: int) -> PlimilState:
        data = position("blocked_seventh" if seventh else "blocked").to_json()
        earlier = [[following[0], seen]] if seen else []
        data |= {"passes": passes, "quiet": quiet, "seen": data["seen"] + earlier}
        return OPEN.state_from_json(data).play("pass")

    every = after_a_pass(seventh=True, passes=1, seen=2, quiet=99)
    assert every.counts[0] == 7 and every.repetitions == 3 and every.quiet_plies == 100
    assert every.result().reason == "rule_of_7"
    assert after_a_pass(seventh=False, passes=1, seen=2, quiet=99).result().reason == "two_passes"
    assert after_a_pass(seventh=False, passes=0, seen=2, quiet=99).result().reason == "repetition"
    assert after_a_pass(seventh=False, passes=0, seen=0, quiet=99).result().reason == "hundred_plies"
    assert not after_a_pass(seventh=False, passes=0, seen=0, quiet=0).is_over


# -- perft (perft.json) -------------------------------------------------------------------------
def perft(state: ludotheque.State, depth: int) -> int:
    """The number of move sequences of ``depth`` moves from ``state`` (none past a game's end)."""
    if depth == 0:
        return 1
    moves = state.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(state.play(move), depth - 1) for move in moves)


@pytest.mark.parametrize("name", list(PERFT))
def test_perft_counts(name: str) -> None:
    known = PERFT[name]
    start = known["start"]
    state: ludotheque.State
    if "position" in start:
        assert known["variant"] == "open"
        state = position(start["position"])
    else:
        state = GAMES[known["variant"]].new_state()
        for text in start["moves"]:
            state = state.play(text)
    assert [perft(state, depth) for depth in range(1, len(known["perft"]) + 1)] == known["perft"]
