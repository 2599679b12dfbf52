"""What a Pylos reader sees: everything (Pylos hides nothing), the same for every reader.

A view reads a position through :class:`PylosPosition`, the few read-only properties and methods
it needs (``rules.PylosState`` has them): this module imports nothing from ``rules``. Beside the
position itself, a view carries what a page needs to draw it and choose a move without knowing
the rules: the cells of each ``level`` in cell order, and for each turn that completes a figure
the balls that may be taken back first (``first_removals``).

>>> import ludotheque
>>> view = ludotheque.load("pylos").new_state().view(None)
>>> view["reserves"], view["cells"], view["available"][:2], view["levels"][3]
([15, 15], {}, ['1a1', '1b1'], ['4a1'])
>>> state = ludotheque.load("pylos").new_state()
>>> for text in ("1a1", "1c1", "1b1", "1c2", "1a2", "1d4"):
...     state = state.play(text)
>>> state.view(None)["first_removals"]
{'1b2': ['1a1', '1b1', '1a2', '1b2']}
"""

from __future__ import annotations

from typing import Protocol

from ...core.contract import JSON, Player, Position, base_view
from .board import CELL_COUNT, LEVEL, NAMES, Mask, available, bits, covered
from .notation import Move

# The cell names of each level, in cell order (rank, then file): the pyramid's shape.
LEVELS: tuple[tuple[str, ...], ...] = tuple(
    tuple(NAMES[c] for c in range(CELL_COUNT) if LEVEL[c] == level) for level in (1, 2, 3, 4)
)


class PylosPosition(Position, Protocol):
    """The read-only face of a Pylos position that a view reads: the contract's fields that
    every view starts with, then the balls, reserves, repetitions and legal moves."""

    def balls(self, player: Player) -> Mask:
        """The cells holding ``player``'s balls, as a mask."""
        ...

    def reserve(self, player: Player) -> int: ...

    @property
    def repetitions(self) -> int: ...

    def legal_moves(self) -> list[Move]: ...


def view(position: PylosPosition, viewer: Player | None) -> JSON:
    light, dark = position.balls(0), position.balls(1)
    occupied = light | dark
    data = base_view(position, viewer, "over" if position.is_over else "play")
    data["cells"] = {
        NAMES[c]: (0 if light >> c & 1 else 1) for c in range(CELL_COUNT) if occupied >> c & 1
    }
    data["reserves"] = [position.reserve(0), position.reserve(1)]
    data["available"] = [] if position.is_over else [NAMES[c] for c in bits(available(occupied))]
    data["free"] = [NAMES[c] for c in bits(occupied & ~covered(occupied))]
    data["repetitions"] = position.repetitions
    data["levels"] = [list(level) for level in LEVELS]
    data["first_removals"] = first_removals(position)
    return data


def first_removals(position: PylosPosition) -> dict[str, list[str]]:
    """Each turn of the player to move that completes a figure (a placement ``1b2`` or a raise
    ``1a1-2b2``, as written before its removals), with the balls that may be taken back first,
    in cell order. A pair of removals works in either order exactly when its second ball is
    also listed here: a ball freed only by the first removal is not.
    """
    found: dict[str, list[str]] = {}
    for move in position.legal_moves():
        if move.removals:
            firsts = found.setdefault(str(Move(move.target, move.source)), [])
            first = NAMES[move.removals[0]]
            if first not in firsts:
                firsts.append(first)
    return found
