"""Finished games for the analysis tests, played by bots with fixed seeds (cached per process)."""

from __future__ import annotations

from functools import cache

import ludotheque
from ludotheque import ai
from ludotheque.analysis import Budget
from ludotheque.core.records import Record

# Small budgets: the tests check the analysis's shape and rules, not its depth.
SMALL = Budget(nodes=3_000, iterations=300, worlds=4, line=4)
# The bots of each game's test games: quick ones (Plimil's easy level searches for seconds).
LEVELS = {"pylos": "easy", "expion": "easy", "imbrication": "easy", "plimil": "random"}


@cache
def finished(game_id: str, seed: int, level: str | None = None, players: int = 2) -> Record:
    """A finished game of ``game_id`` between two bots of ``level`` seeded from ``seed``."""
    game = ludotheque.load(game_id, players=players)
    name = level or LEVELS[game_id]
    bots = [ai.bot(name, game, seed=seed * 10 + seat) for seat in range(players)]
    state = game.new_state(seed=seed)
    moves: list[str] = []
    while not state.is_over:
        assert state.to_move is not None
        move = bots[state.to_move].choose(state)
        moves.append(str(move))
        state = state.play(move)
    return Record.start(game, seed=seed).with_moves(moves).finished(state.result())
