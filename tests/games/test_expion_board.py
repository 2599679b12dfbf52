"""The Ex*Pion terminal board: coordinates, letters for marbles, the EX*PION and special cells,
both languages, and the ``info`` details; and the page board's seating before a game, the rules' one."""

from __future__ import annotations

import re

import pytest
from rich.console import Console

import ludotheque
from ludotheque.cli.boards import board_module
from ludotheque.engines.expion.terminal_board import details, render

from .test_expion import position


def plain(renderable: object) -> str:
    console = Console(width=100, color_system=None)
    with console.capture() as capture:
        console.print(renderable)
    return capture.get()


def test_the_registry_finds_the_board() -> None:
    assert board_module("expion").render is render


@pytest.mark.parametrize(("lang", "to_move"), [("fr", "au trait : E Est"), ("en", "to move: E East")])
def test_render_draws_the_board_with_coordinates_letters_and_symbols(lang: str, to_move: str) -> None:
    state = ludotheque.load("expion").new_state().play("e9-e6")
    lines = plain(render(state.view(None), lang=lang)).splitlines()
    assert lines[0].split() == list("abcdefghi")
    rows = {line.split()[0]: line.split()[1:-1] for line in lines[1:10]}
    assert rows["9"] == ["N", "N", "N", "□", "N", "N", "N"]  # e9 left its camp
    assert rows["8"] == ["W", "◇", "·", "·", "·", "·", "·", "◇", "E"]
    assert rows["6"][4] == "N" and rows["5"][4] == "✱"
    assert rows["1"] == ["S"] * 7
    assert to_move in plain(render(state.view(2), lang=lang))


def test_render_says_when_the_game_is_over() -> None:
    final = position("small_winning_push").play("c5-b5")
    assert final.is_over
    assert "game over" in plain(render(final.view(None), lang="en"))
    assert "partie finie" in plain(render(final.view(None), lang="fr"))


def test_details_list_marbles_teams_eliminated_and_counters() -> None:
    state = ludotheque.load("expion", players=3).new_state().play("e9-e7")
    text = plain(details(state.view(1), lang="en"))
    assert "Team 1 (player 0): North has 7 marbles, South 7." in text
    assert "Team 2 (players 1, 2): East has 7 marbles, West 7." in text
    assert "1 move in a row without a capture or a push (a draw at 200)." in text
    assert "This position has occurred 1 time (a draw at 3)." in text and "No capture yet" in text
    assert "billes" in plain(details(state.view(1), lang="fr"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_pages_seating_before_a_game_is_the_rules_seating(players: int) -> None:
    # The page board names the lobby form's seats from its own table before any game (and view)
    # exists; it must seat the camps as the rules do.
    found = ludotheque.load("expion").info.resource("page_board.js")
    assert found is not None
    table = re.search(r"const SEATING = \{(.*?)\n\};", found.read_text(encoding="utf-8"), re.DOTALL)
    assert table is not None, "page_board.js lost its SEATING table"
    row = re.search(rf"^\s*{players}: \{{(.*?)\}},$", table.group(1), re.MULTILINE)
    assert row is not None, f"page_board.js seats no {players}-player game"
    seating = {camp: int(holder) for camp, holder in re.findall(r"([NESW]): (\d)", row.group(1))}
    state = ludotheque.load("expion", players=players).new_state()
    assert seating == state.view(None)["holders"]
