"""What an Ex*Pion reader sees: everything (Ex*Pion hides nothing), the same for every reader.

The view carries the board's ``layout`` (``board.LAYOUT``) so that a client can draw the camps and
special cells without knowing the geometry, and the seating so that it can name each seat by
the camps it holds: ``holders`` (camp -> player, in turn order) and ``teams``.

A view reads a position only through ``ExpionPosition``, the read-only facts below, which
``rules.ExpionState`` provides: this module imports nothing from ``rules``.

>>> import ludotheque
>>> view = ludotheque.load("expion", players=3).new_state().view(None)
>>> view["expion"], view["camp_to_move"], view["holders"], view["cells"]["e9"]
('e5', 'N', {'N': 0, 'E': 1, 'S': 0, 'W': 2}, 'N')
"""

from __future__ import annotations

from typing import Protocol

from ...core.contract import JSON, Player, Position, base_view
from .board import CAMP_COUNT, CAMP_LETTERS, CELLS, LAYOUT, NAMES, SIZE, SPECIAL_CELLS, TEAM_CAMPS


class ExpionPosition(Position, Protocol):
    """The read-only facts of an Ex*Pion position that a view reads (``rules.ExpionState``),
    beyond the contract's."""

    @property
    def holders(self) -> tuple[Player, ...]: ...  # the player holding each camp, N E S W

    @property
    def expion(self) -> str: ...  # the EX*PION's cell

    @property
    def camp_to_move(self) -> str | None: ...  # a letter of NESW; None once over

    @property
    def has_first_capture(self) -> bool: ...

    @property
    def quiet_moves(self) -> int: ...

    @property
    def quiet_limit(self) -> int: ...

    @property
    def repetitions(self) -> int: ...

    def rows(self) -> list[str]: ...  # nine rows, rank 9 first: '.', 'N E S W', 'X', ' '

    def marbles(self, camp: str) -> int: ...  # marbles left of a camp's colour

    def is_eliminated(self, player: Player) -> bool: ...


def view(state: ExpionPosition, viewer: Player | None) -> JSON:
    """What ``viewer`` (a checked seat, or ``None``) sees of ``state``: everything."""
    data = base_view(state, viewer, "over" if state.is_over else "play")
    holders = state.holders
    rows = state.rows()
    data["layout"] = list(LAYOUT)
    data["special_cells"] = [NAMES[c] for c in SPECIAL_CELLS]
    data["cells"] = {
        NAMES[c]: piece for c in CELLS if (piece := rows[SIZE - 1 - c // SIZE][c % SIZE]) in CAMP_LETTERS
    }
    data["expion"] = state.expion
    data["camp_to_move"] = state.camp_to_move
    data["holders"] = {CAMP_LETTERS[c]: holders[c] for c in range(CAMP_COUNT)}
    data["teams"] = [
        {"camps": [CAMP_LETTERS[c] for c in camps], "players": sorted({holders[c] for c in camps})}
        for camps in TEAM_CAMPS
    ]
    data["marbles"] = {letter: state.marbles(letter) for letter in CAMP_LETTERS}
    data["eliminated"] = [p for p in range(state.game.players) if state.is_eliminated(p)]
    data["first_capture"] = state.has_first_capture
    data["quiet_moves"] = state.quiet_moves
    data["quiet_limit"] = state.quiet_limit
    data["repetitions"] = state.repetitions
    return data
