"""Plimil hidden information, as properties over random games (Hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import given, settings
from hypothesis import strategies as st

import ludotheque
from ludotheque.engines.plimil import PlimilState

GAMES = [ludotheque.load("plimil"), ludotheque.load("plimil", variant="setup10")]


def state_at(game: ludotheque.Game, seed: int, fraction: float) -> PlimilState:
    """A random game's state about ``fraction`` of the way through."""
    rng = random.Random(seed)
    states = [game.new_state()]
    while not states[-1].is_over:
        states.append(states[-1].play(rng.choice(states[-1].legal_moves())))
    chosen = states[int(fraction * (len(states) - 1))]
    assert isinstance(chosen, PlimilState)
    return chosen


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10_000),
    fraction=st.floats(0, 1),
    viewer=st.sampled_from([None, 0, 1]),
    draw=st.integers(0, 1000),
)
def test_states_differing_only_in_unknowns_give_identical_views_and_replay(
    game: ludotheque.Game, seed: int, fraction: float, viewer: int | None, draw: int
) -> None:
    state = state_at(game, seed, fraction)
    twin = state.determinize(viewer, random.Random(draw))
    assert twin.view(viewer) == state.view(viewer)
    replayed = game.new_state()
    for move in twin.history:
        replayed = replayed.play(str(move))
    assert replayed.to_json() == twin.to_json()
    if viewer is not None:
        # What the viewer built is never re-drawn.
        own = slice(13 * viewer, 13 * viewer + 13)
        assert [str(m) for m in twin.history[own]] == [str(m) for m in state.history[own]]


@settings(max_examples=40, deadline=None)
@given(
    game=st.sampled_from(GAMES),
    seed=st.integers(0, 10_000),
    fraction=st.floats(0, 1),
    viewer=st.sampled_from([None, 0, 1]),
)
def test_no_view_shows_an_unseen_stem_or_ball_of_another_player(
    game: ludotheque.Game, seed: int, fraction: float, viewer: int | None
) -> None:
    state = state_at(game, seed, fraction)
    view = state.view(viewer)
    text = json.dumps(view)
    for index, move in enumerate(view["moves"][:26]):
        if index // 13 != viewer:
            assert "?" in move and not any(c in move.split()[-1] for c in "STBRN")
    for entry in view["board"]:
        block = entry["block"]
        if entry["planted_by"] not in (None, viewer) and entry["stem"] is None and block:
            # A block on a stem the viewer does not know shows only its colour.
            assert block["balls"] == [None, None, None]
        if entry["stem"] is None and entry["planted_by"] is not None:
            assert not state.is_tall(entry["cell"]) or "T" not in json.dumps(entry)
    assert "seed" not in text and "tall" not in text and "public" not in text
    if viewer is not None:
        assert view["hands"][1 - viewer] is None
