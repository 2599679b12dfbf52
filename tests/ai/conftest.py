"""Helpers for the bot tests: seeded game positions."""

from __future__ import annotations

import random

from ludotheque.core import Game, State


def played_states(game: Game, *, seed: int, every: int, final: bool = False) -> list[State]:
    """Every ``every``-th state of a seeded random game (and its final state when asked)."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    states = []
    while not state.is_over:
        if state.ply % every == 0:
            states.append(state)
        state = state.play(rng.choice(state.legal_moves()))
    if final:
        states.append(state)
    return states
