"""The move list names who moved, groups a player's turn and a round of turns, and wraps long
capture chains instead of overflowing its panel."""

from __future__ import annotations

import random
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from .helpers import create, document, hop_count, open_seat, play_moves

TURNS = """() => [...document.querySelectorAll('#moves li.round')].map(round =>
  [...round.querySelectorAll('.play-turn')].map(turn => ({
    mover: turn.querySelector('.mover').textContent,
    plies: [...turn.querySelectorAll('[data-ply]')].map(ply => ply.textContent),
  })))"""


def imbrication_turns(moves: list[str]) -> list[tuple[str, list[str]]]:
    """The turns of the rules: strict alternation, Light first, an action joining its placement."""
    turns: list[tuple[str, list[str]]] = []
    for move in moves:
        if "-" in move or "x" in move:
            turns[-1][1].append(move)
        else:
            mover = "Light" if not turns or turns[-1][0] == "Dark" else "Dark"
            turns.append((mover, [move]))
    return turns


def test_a_turn_is_the_placement_and_its_action_and_long_chains_wrap(
        page: Page, api: httpx.Client, finished_imbrication: dict[str, Any]) -> None:
    moves = document(api, finished_imbrication["id"])["moves"]
    assert max(hop_count(move) for move in moves) >= 3  # the game has a long capture chain
    open_seat(page, finished_imbrication["id"])
    rounds = page.evaluate(TURNS)
    shown = [(turn["mover"], turn["plies"]) for round_ in rounds for turn in round_]
    assert shown == imbrication_turns(moves)
    assert all(len(round_) <= 2 for round_ in rounds)
    assert page.locator("#moves li.round .round-no").first.inner_text() == "1."
    # Nothing sticks out of the panel: the chains break across lines.
    scroller = page.locator("#moves-scroll")
    assert scroller.evaluate("e => e.scrollWidth <= e.clientWidth")
    right = scroller.evaluate("e => e.getBoundingClientRect().right")
    plies = page.locator("#moves [data-ply]")
    ends = plies.evaluate_all("els => els.map(e => e.getBoundingClientRect().right)")
    assert max(ends) <= right


def test_the_four_camps_of_expion_make_one_round(page: Page, api: httpx.Client) -> None:
    created = create(api, "expion", ["human"] * 4)
    rng = random.Random(2)
    play_moves(api, created, rng.choice, limit=5)
    open_seat(page, created["id"])
    expect(page.locator("#moves [data-ply]")).to_have_count(5)
    rounds = page.evaluate(TURNS)
    assert [[turn["mover"] for turn in round_] for round_ in rounds] == [["N", "E", "S", "W"], ["N"]]
    assert [len(turn["plies"]) for round_ in rounds for turn in round_] == [1] * 5
