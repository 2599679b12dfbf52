"""What an Imbrication reader sees: everything public, never an unrevealed tile.

Nothing is private to one player, so every view carries the same facts (rules: "What each reader
sees"). The secrets are the round-1 tiles not yet turned and, until round 3's ninth turn is over,
the round-4 order; the lines hold ``None`` for them. This module is the only place that redacts.
It reads a state only through :class:`ImbricationFacts`, whose one door to the secrets is
``tile_at``, asked only for the tiles a reader may know.

The view also carries what a board needs to draw without knowing the game: the counts of a game
(``round_count``, ``turns_per_round``, ``opening_placements_per_round``) and the table of the
nine tiles (``tile_table``: names, motion and directions), all of it public.

>>> import ludotheque
>>> view = ludotheque.load("imbrication").new_state(seed=1).view(None)
>>> view["phase"], view["round"], view["line"] == [None] * 9, view["lines"][3] == [None] * 9
('opening', 1, True, True)
>>> view["tile_table"]["djump"]["motion"], view["tile_table"]["djump"]["directions"][0]
('short_capture', [1, 1])
"""

from __future__ import annotations

from typing import Protocol

from ...core.contract import JSON, Player, Position, base_view
from .board import (
    CELL_COUNT,
    DIRECTIONS,
    NAMES,
    OPENING_PLACEMENTS,
    ROUNDS,
    TILE_TABLE,
    TURNS_PER_ROUND,
    Cell,
    Mask,
    bits,
)


class ImbricationFacts(Position, Protocol):
    """What a view reads of a position: its public facts, and the tiles through ``tile_at``
    (which sees every tile: only this module decides which ones a reader may know)."""

    @property
    def phase(self) -> str: ...
    @property
    def round(self) -> int: ...
    @property
    def opening_placements(self) -> int: ...
    @property
    def tiles_drawn(self) -> int: ...
    @property
    def placed(self) -> Cell | None: ...
    @property
    def current_tile(self) -> str | None: ...
    @property
    def outcomes(self) -> tuple[str, ...]: ...
    def owner(self, cell: Cell) -> Player | None: ...
    def pieces(self, player: Player) -> Mask: ...
    def placeable(self) -> Mask: ...
    def territories(self, player: Player) -> list[Mask]: ...
    def tile_at(self, round_: int, turn: int) -> str: ...
    def revealed_in_round_one(self) -> int: ...
    def is_round_four_order_known(self) -> bool: ...


def view(state: ImbricationFacts, viewer: Player | None) -> JSON:
    """What ``viewer`` sees of ``state``: the same facts as every other reader."""
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
    data["round_count"] = ROUNDS
    data["turns_per_round"] = TURNS_PER_ROUND
    data["opening_placements_per_round"] = OPENING_PLACEMENTS
    data["tile_table"] = tile_table()
    return data


def hidden_facts(state: ImbricationFacts, viewer: Player | None) -> int:
    """How many tile positions nobody has seen yet (every reader knows the same): round 1's
    tiles not turned, and the nine of round 4's order until it is shown. Placing a piece on
    an action turn of round 1 turns a tile, so the count falls then.

    >>> import ludotheque
    >>> hidden_facts(ludotheque.load("imbrication").new_state(seed=1), None)
    18
    """
    unseen_first = TURNS_PER_ROUND - state.revealed_in_round_one()
    return unseen_first + (0 if state.is_round_four_order_known() else TURNS_PER_ROUND)


def known_lines(state: ImbricationFacts) -> list[list[str | None]]:
    """The five rounds' tile lines (left tile first) as every reader knows them.

    Round 2 plays round 1's tiles reversed and round 3 plays them again, so a round-1 tile, once
    turned, is known in all three lines; rounds 4 and 5 are known once round 4's order is shown.
    """
    seen = state.revealed_in_round_one()
    first = [state.tile_at(1, k) if k < seen else None for k in range(TURNS_PER_ROUND)]
    fourth: list[str | None] = (
        [state.tile_at(4, k) for k in range(TURNS_PER_ROUND)]
        if state.is_round_four_order_known()
        else [None] * TURNS_PER_ROUND
    )
    return [first, first[::-1], list(first), fourth, fourth[::-1]]


def revealed(state: ImbricationFacts) -> list[JSON]:
    """Every tile turned so far, the pending one included, with its turn and outcome."""
    entries = []
    for index, outcome in enumerate(state.outcomes):
        round_, turn = index // TURNS_PER_ROUND + 1, index % TURNS_PER_ROUND
        entries.append({
            "round": round_,
            "turn": turn + 1,
            "player": (round_ - 1 + turn) % 2,
            "tile": state.tile_at(round_, turn),
            "outcome": outcome,
        })
    return entries


def tile_table() -> JSON:
    """The nine tiles in table order, each with its names, its motion (``step``, ``slide``,
    ``short_capture``, ``long_capture`` or ``none``) and its directions as (file step, rank step)
    pairs: what a board draws on a tile. Public: every tile is on the table from the start."""
    return {
        tile.id: {
            "fr": tile.fr,
            "en": tile.en,
            "motion": tile.motion,
            "directions": [list(DIRECTIONS[d]) for d in tile.directions],
        }
        for tile in TILE_TABLE.values()
    }
