"""Helpers of the lessons tests: a winning line against a course's final bot, and the real
``ludotheque`` program that the command runs in."""

from __future__ import annotations

import typer

from ludotheque import ai, lessons


def app() -> typer.Typer:
    """The real ``ludotheque`` program, where ``learn`` is registered."""
    from ludotheque.cli.main import app as program

    return program


def winning_line(
    step: lessons.Step, levels: tuple[str, ...] = ("easy", "medium"), seeds: int = 8
) -> list[str]:
    """The learner's moves of a game that wins ``step`` (a game step) against its bot, as the
    terminal plays it (the bot on seat ``p`` has the seed ``position seed + p``); found by letting
    a bot play the learner's seat, with a few seeds."""
    game, start = lessons.rebuild(step)
    for level in levels:
        for seed in range(seeds):
            me = ai.bot(level, game, seed=seed)
            bots = {p: ai.bot(step.opponent, game, seed=step.position.seed + p) for p in range(game.players)}
            state, mine = start, []
            while not state.is_over:
                player = state.to_move
                assert player is not None
                move = (me if player == step.seat else bots[player]).choose(state)
                if player == step.seat:
                    mine.append(str(move))
                state = state.play(move)
            if step.seat in state.result().winners:
                return mine
    raise AssertionError(f"no winning line found for {step.position.game}")
