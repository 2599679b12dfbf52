"""An independent solver for the checks: exhaustive negamax over the plain engine's contract
(``legal_moves``, ``play``, ``result``), with a memo of exact values, nothing of the solver's.

A value is ``(wins, plies)`` for the player to move; the winner ends as fast as they can and the
loser lasts as long as they can, as the tables define it.
"""

from __future__ import annotations

from ludotheque.engines.pylos.rules import PylosState

Value = tuple[bool, int]


def plain_value(state: PylosState, memo: dict[tuple[int, int, int], Value] | None = None) -> Value:
    """The exact value of ``state`` (not over) for its player to move."""
    memo = {} if memo is None else memo
    mover = state.to_move
    assert mover is not None
    key = (state.balls(0), state.balls(1), mover)
    if key in memo:
        return memo[key]
    best: Value | None = None
    for move in state.legal_moves():
        child = state.play(move)
        if child.is_over:
            assert child.result().winners == (mover,)
            value: Value = (True, 1)
        else:
            wins, plies = plain_value(child, memo)
            value = (not wins, plies + 1)
        if best is None or _better(value, best):
            best = value
    assert best is not None
    memo[key] = best
    return best


def _better(a: Value, b: Value) -> bool:
    """Whether ``a`` is better than ``b`` for the player to move."""
    if a[0] != b[0]:
        return a[0]
    return a[1] < b[1] if a[0] else a[1] > b[1]


def wins_within(state: PylosState, plies: int, memo: dict[tuple[int, int, int, int, bool], bool]) -> bool:
    """Whether the player to move can force a win within ``plies`` plies (a bounded search: it
    needs no rule about cycles, and a forced win never repeats a position)."""
    return _forced(state, plies, memo, True)


def loses_within(state: PylosState, plies: int, memo: dict[tuple[int, int, int, int, bool], bool]) -> bool:
    """Whether the other player can force a win against the player to move within ``plies``."""
    return _forced(state, plies, memo, False)


def _forced(state: PylosState, plies: int, memo: dict[tuple[int, int, int, int, bool], bool],
            attack: bool) -> bool:
    mover = state.to_move
    if mover is None or plies <= 0:
        return False
    key = (state.balls(0), state.balls(1), mover, plies, attack)
    if key in memo:
        return memo[key]
    found = not attack  # attack: some move wins; defence: every move loses
    for move in state.legal_moves():
        child = state.play(move)
        won = child.result().winners == (mover,) if child.is_over else _forced(child, plies - 1, memo, False)
        if attack and won:
            found = True
            break
        if not attack and (won or child.is_over or not _forced(child, plies - 1, memo, True)):
            found = False
            break
    memo[key] = found
    return found
