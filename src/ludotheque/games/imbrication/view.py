"""What an Imbrication reader sees: everything public, never an unrevealed tile.

Nothing is private to one player, so every view carries the same facts (rules: "What each reader
sees"). The secrets are the round-1 tiles not yet turned and, until round 3's ninth turn is over,
the round-4 order; the lines hold ``None`` for them. This module is the only place that redacts.

>>> import ludotheque
>>> view = ludotheque.load("imbrication").new_state(seed=1).view(None)
>>> view["phase"], view["round"], view["line"] == [None] * 9, view["lines"][3] == [None] * 9
('opening', 1, True, True)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.contract import JSON, Player, base_view
from .board import CELL_COUNT, NAMES, bits

if TYPE_CHECKING:
    from .rules import ImbricationState

ROUNDS = 5
TURNS = 9


def view(state: ImbricationState, viewer: Player | None) -> JSON:
    data = base_view(state, viewer, state.phase)
    data["cells"] = {
        NAMES[c]: owner for c in range(CELL_COUNT) if (owner := state.owner(c)) is not None
    }
    data["round"] = state.round
    data["opening_placements"] = state.opening_placements
    data["tiles_played"] = state.tiles_drawn
    data["placed"] = None if state.placed is None else NAMES[state.placed]
    data["current_tile"] = state.current_tile
    lines = known_lines(state)
    data["lines"] = lines
    data["line"] = lines[state.round - 1]
    data["revealed"] = revealed(state)
    data["placeable"] = (
        [NAMES[c] for c in bits(state.placeable())] if state.phase in ("opening", "place") else []
    )
    data["pieces"] = [state.pieces(0).bit_count(), state.pieces(1).bit_count()]
    regions = [state.territories(0), state.territories(1)]
    data["territories"] = [[[NAMES[c] for c in bits(t)] for t in own] for own in regions]
    data["scores"] = [sum(t.bit_count() for t in own) for own in regions]
    return data


def hidden_facts(state: ImbricationState, viewer: Player | None) -> int:
    """How many tile positions nobody has seen yet (every reader knows the same): round 1's
    tiles not turned, and the nine of round 4's order until it is shown. Placing a piece on
    an action turn of round 1 turns a tile, so the count falls then.

    >>> import ludotheque
    >>> hidden_facts(ludotheque.load("imbrication").new_state(seed=1), None)
    18
    """
    unseen_first = TURNS - state.revealed_in_round_one()
    return unseen_first + (0 if state.is_round_four_order_known() else TURNS)


def known_lines(state: ImbricationState) -> list[list[str | None]]:
    """The five rounds' tile lines (left tile first) as every reader knows them.

    Round 2 plays round 1's tiles reversed and round 3 plays them again, so a round-1 tile, once
    turned, is known in all three lines; rounds 4 and 5 are known once round 4's order is shown.
    """
    seen = state.revealed_in_round_one()
    first = [state.tile_at(1, k) if k < seen else None for k in range(TURNS)]
    fourth: list[str | None] = (
        [state.tile_at(4, k) for k in range(TURNS)]
        if state.is_round_four_order_known()
        else [None] * TURNS
    )
    return [first, first[::-1], list(first), fourth, fourth[::-1]]


def revealed(state: ImbricationState) -> list[JSON]:
    """Every tile turned so far, the pending one included, with its turn and outcome."""
    entries = []
    for index, outcome in enumerate(state.outcomes):
        round_, turn = index // TURNS + 1, index % TURNS
        entries.append({
            "round": round_,
            "turn": turn + 1,
            "player": (round_ - 1 + turn) % 2,
            "tile": state.tile_at(round_, turn),
            "outcome": outcome,
        })
    return entries
