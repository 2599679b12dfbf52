"""Imbrication for the research interfaces: the fixed integer action encoding, the chance draws of
the two shuffles, and the observation planes.

A placement, a step or a slide is ONE action. A capture chain is one action per hop, all played
by the same player in a row: each hop names its start and landing cells and says whether the chain
goes on (``more``) or stops there (``last``), so a chain of k hops is k actions. No fixed range can
hold every chain as a single action (``RULES.md``, "Action encoding": the short orthogonal chains
alone number 1,572,704, and long chains are vastly more), while this range is 3,592 and holds every
move. Ids: ``[0, 64)`` placements, then every step or slide (two cells on one line), then every hop
(two cells on one line, at least two apart) as ``last`` then ``more``. Sorted ids list the moves
in the order of ``legal_moves()``.

>>> import ludotheque
>>> action_count("standard", 2), [action_text(a) for a in encode(Move.from_text("d4xf6xd8"))]
(3592, ['d4xf6+', 'f6xd8'])
>>> text(encode(Move.from_text("d4xf6xd8"))), text(encode(Move.from_text("b2-b7")))
('d4xf6xd8', 'b2-b7')

The chance events are the draws of the rules' two shuffles (``random.shuffle``: for each position
from the last down to the second, a uniform draw among the positions up to it), so that the draws
of ``random.Random(seed)`` give ``new_state(seed)``:

>>> game = ludotheque.load("imbrication")
>>> CHANCE_DRAWS[:3], state_from_draws(game, draws(game.new_state(7))) == game.new_state(7)
((9, 8, 7), True)
"""

from __future__ import annotations

from collections.abc import Container, Mapping, Sequence
from itertools import pairwise
from typing import Any

import numpy as np
import numpy.typing as npt

from ...core.contract import State
from ...core.errors import IllegalMoveError
from .board import (
    CELL_COUNT,
    INDEX,
    NAMES,
    OPENING_PLACEMENTS,
    RAYS,
    ROUNDS,
    TILE_COUNT,
    TILES,
    TURNS_PER_ROUND,
)
from .notation import PLACEMENTS, SHIFTS, Move

Action = int

# (source, target) pairs on one line (orthogonal or diagonal), nearest targets first per ray.
_LINE_PAIRS = sorted({(c, t) for c in range(CELL_COUNT) for ray in RAYS[c] for t in ray})
_HOP_PAIRS = sorted({(c, t) for c in range(CELL_COUNT) for ray in RAYS[c] for t in ray[1:]})
SHIFT_BASE = CELL_COUNT
HOP_BASE = SHIFT_BASE + len(_LINE_PAIRS)
_COUNT = HOP_BASE + 2 * len(_HOP_PAIRS)
_SHIFT_IDS = {pair: SHIFT_BASE + i for i, pair in enumerate(_LINE_PAIRS)}
_HOP_IDS = {pair: HOP_BASE + 2 * i for i, pair in enumerate(_HOP_PAIRS)}  # + 1: the chain goes on
# Every decision of a whole game beyond one per move: a chain of k hops takes k - 1 more, and a
# game has at most 65 pieces placed (5 rounds of 4 + 9), so at most 65 captures.
EXTRA_ACTIONS = ROUNDS * (OPENING_PLACEMENTS + TURNS_PER_ROUND)


def action_count(variant: str, players: int) -> int:
    """The size of the action range."""
    return _COUNT


def encode(move: Move) -> tuple[Action, ...]:
    """The actions that play ``move``: one, or one per hop of a capture chain. Raises
    ``ValueError`` for a move no position allows."""
    cells = move.cells
    try:
        if not move.is_capture:
            return (cells[0],) if len(cells) == 1 else (_SHIFT_IDS[cells[0], cells[1]],)
        hops = [_HOP_IDS[pair] + 1 for pair in pairwise(cells)]
    except (KeyError, IndexError):
        raise ValueError(f"imbrication: no action for {str(move)!r}") from None
    if not hops:
        raise ValueError(f"imbrication: no action for {str(move)!r}")
    hops[-1] -= 1
    return tuple(hops)


def _hop(action: Action) -> tuple[tuple[int, int], bool]:
    """The cells of a hop action and whether its chain goes on."""
    index, more = divmod(action - HOP_BASE, 2)
    return _HOP_PAIRS[index], bool(more)


def _move(actions: Sequence[Action]) -> Move:
    """The move that ``actions`` spell, whatever the position; raises ``ValueError``."""
    if not actions or not all(0 <= a < _COUNT for a in actions):
        raise ValueError(f"imbrication: {list(actions)!r} is not an action sequence")
    first = actions[0]
    if first < HOP_BASE:
        if len(actions) != 1:
            raise ValueError(f"imbrication: {list(actions)!r} is not an action sequence")
        return PLACEMENTS[first] if first < SHIFT_BASE else SHIFTS[_LINE_PAIRS[first - SHIFT_BASE]]
    cells: list[int] = []
    for i, action in enumerate(actions):
        if action < HOP_BASE:
            raise ValueError(f"imbrication: {list(actions)!r} is not an action sequence")
        (start, landing), more = _hop(action)
        if (cells and start != cells[-1]) or more != (i < len(actions) - 1):
            raise ValueError(f"imbrication: {list(actions)!r} is not an action sequence")
        cells.extend((start, landing) if not cells else (landing,))
    return Move(tuple(cells), True)


def text(actions: Sequence[Action]) -> str:
    """The notation of the move that ``actions`` spell; raises ``ValueError``."""
    return str(_move(actions))


def decode(state: State, actions: Sequence[Action], legal: Container[Move] | None = None) -> Move:
    """The legal move of ``state`` that ``actions`` spell (``legal``: its legal moves, when the
    caller has them in a set); raises ``ValueError`` otherwise."""
    move = _move(actions)
    if move not in (state.legal_moves() if legal is None else legal):
        raise IllegalMoveError.here("imbrication", str(move), state.ply)
    return move


def action_text(action: Action) -> str:
    """The notation of one action: a hop reads ``d4xf6`` when the chain stops there and
    ``d4xf6+`` when it goes on. Raises ``ValueError``."""
    if not 0 <= action < _COUNT:
        raise ValueError(f"imbrication: no action {action!r}")
    if action < HOP_BASE:
        return text((action,))
    (start, landing), more = _hop(action)
    return f"{NAMES[start]}x{NAMES[landing]}" + ("+" if more else "")


# -- chance --------------------------------------------------------------------------------------
# The sizes of the draws of ``new_state``'s two shuffles, in the order they are made.
CHANCE_DRAWS: tuple[int, ...] = 2 * tuple(range(TILE_COUNT, 1, -1))


def _shuffled(picks: Sequence[int]) -> list[int]:
    """``random.shuffle`` of the table order, given its draws."""
    order = list(range(TILE_COUNT))
    for i, j in zip(range(TILE_COUNT - 1, 0, -1), picks, strict=True):
        order[i], order[j] = order[j], order[i]
    return order


def _picks(order: Sequence[int]) -> list[int]:
    """The draws that ``random.shuffle`` made to put the table order into ``order``."""
    work, picks = list(range(TILE_COUNT)), []
    for i in range(TILE_COUNT - 1, 0, -1):
        j = work.index(order[i])
        picks.append(j)
        work[i], work[j] = work[j], work[i]
    return picks


def draws(state: State) -> tuple[int, ...]:
    """The chance draws that made ``state``'s tile orders (server side: they are secret)."""
    data = state.to_json()
    return tuple(_picks([TILES.index(t) for t in data["order1"]])
                 + _picks([TILES.index(t) for t in data["order4"]]))


def state_from_draws(game: Any, picks: Sequence[int]) -> State:
    """The start position whose tile orders the chance draws ``picks`` made."""
    half = len(CHANCE_DRAWS) // 2
    if len(picks) != len(CHANCE_DRAWS) or not all(0 <= p < n for p, n in zip(picks, CHANCE_DRAWS,
                                                                            strict=True)):
        raise ValueError(f"imbrication: {list(picks)!r} are not the draws of the two shuffles")
    data = game.new_state(0).to_json()
    data["order1"] = [TILES[t] for t in _shuffled(picks[:half])]
    data["order4"] = [TILES[t] for t in _shuffled(picks[half:])]
    state: State = game.state_from_json(data)
    return state


# -- observation planes --------------------------------------------------------------------------
# From a view (and the hops of a chain under way) only: 64-cell planes for the pieces of seat 0
# and seat 1, the piece whose action is pending, the cells where placing is allowed, the cells
# the chain under way has stood on and where it stands; the round (5), the phase (opening, place,
# act, over), opening placements / 4, tiles turned / 9, the pending tile (9), the five lines as
# known (5 × 9 turns × 9 tiles or unknown), the seat to move (2), the viewer (2).
_PHASES = ("opening", "place", "act", "over")
_PIECES, _PLACED, _PLACEABLE, _CHAIN, _HEAD = 0, 128, 192, 256, 320
_ROUND = 384
_PHASE = _ROUND + ROUNDS
_COUNTERS = _PHASE + len(_PHASES)
_TILE = _COUNTERS + 2
_LINES = _TILE + TILE_COUNT
_TO_MOVE = _LINES + ROUNDS * TURNS_PER_ROUND * (TILE_COUNT + 1)
_VIEWER = _TO_MOVE + 2
_SIZE = _VIEWER + 2


def observation_shape(variant: str, players: int) -> tuple[int, ...]:
    """The shape of :func:`observation`'s array."""
    return (_SIZE,)


def observation(view: Mapping[str, Any], pending: Sequence[Action] = ()) -> npt.NDArray[np.float32]:
    """The view and the chain under way (``pending``: its hops so far) as numbers; see the
    planes above. Built from them alone: no unrevealed tile can reach it.

    >>> import ludotheque
    >>> planes = observation(ludotheque.load("imbrication").new_state(3).view(0))
    >>> planes.shape, int(planes[_PLACEABLE:_CHAIN].sum()), int(planes[_LINES:_TO_MOVE].sum())
    ((858,), 64, 45)
    """
    out = np.zeros(_SIZE, dtype=np.float32)
    for name, seat in view["cells"].items():
        out[_PIECES + 64 * seat + INDEX[name]] = 1.0
    if view["placed"] is not None:
        out[_PLACED + INDEX[view["placed"]]] = 1.0
    for name in view["placeable"]:
        out[_PLACEABLE + INDEX[name]] = 1.0
    for action in pending:
        (start, landing), _ = _hop(action)
        out[_CHAIN + start] = out[_CHAIN + landing] = 1.0
    if pending:
        out[_HEAD + _hop(pending[-1])[0][1]] = 1.0
    out[_ROUND + view["round"] - 1] = 1.0
    out[_PHASE + _PHASES.index(view["phase"])] = 1.0
    out[_COUNTERS] = view["opening_placements"] / OPENING_PLACEMENTS
    out[_COUNTERS + 1] = view["tiles_played"] / TURNS_PER_ROUND
    if view["current_tile"] is not None:
        out[_TILE + TILES.index(view["current_tile"])] = 1.0
    for r, line in enumerate(view["lines"]):
        for turn, tile in enumerate(line):
            known = TILE_COUNT if tile is None else TILES.index(tile)
            out[_LINES + (r * TURNS_PER_ROUND + turn) * (TILE_COUNT + 1) + known] = 1.0
    if view["to_move"] is not None:
        out[_TO_MOVE + view["to_move"]] = 1.0
    if view["viewer"] is not None:
        out[_VIEWER + view["viewer"]] = 1.0
    return out


def board_text(view: Mapping[str, Any]) -> str:
    """The board as text, rank 8 at the top (``L`` seat 0, ``D`` seat 1), then the round, the
    line of tiles as known (``?`` unrevealed) and the pending tile.

    >>> import ludotheque
    >>> print(board_text(ludotheque.load("imbrication").new_state(1).play("d4").view(None)))
    8 ........
    7 ........
    6 ........
    5 ........
    4 ...L....
    3 ........
    2 ........
    1 ........
      abcdefgh
    round 1, phase opening, to move 1
    line ? ? ? ? ? ? ? ? ?
    """
    cells = view["cells"]
    rows = []
    for rank in range(8, 0, -1):
        row = "".join(".LD"[cells[n] + 1] if (n := f"{f}{rank}") in cells else "." for f in "abcdefgh")
        rows.append(f"{rank} {row}")
    rows.append("  abcdefgh")
    rows.append(f"round {view['round']}, phase {view['phase']}, to move {view['to_move']}")
    line = " ".join(tile or "?" for tile in view["line"])
    tile = f", tile {view['current_tile']} for {view['placed']}" if view["current_tile"] else ""
    rows.append(f"line {line}{tile}")
    return "\n".join(rows)
