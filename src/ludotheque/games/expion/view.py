"""What an Ex*Pion reader sees: everything (Ex*Pion hides nothing), the same for every reader.

The view carries the board's ``layout`` (``board.LAYOUT``) so that a client can draw the camps and
special cells without knowing the geometry.

>>> import ludotheque
>>> view = ludotheque.load("expion", players=3).new_state().view(None)
>>> view["expion"], view["camp_to_move"], view["holders"], view["cells"]["e9"]
('e5', 'N', {'N': 0, 'E': 1, 'S': 0, 'W': 2}, 'N')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.contract import JSON, Player, base_view
from .board import CAMP_LETTERS, CELLS, LAYOUT, NAMES, SPECIAL_CELLS

if TYPE_CHECKING:
    from .rules import ExpionState


def view(state: ExpionState, viewer: Player | None) -> JSON:
    from .rules import QUIET_LIMIT, TEAM_CAMPS

    game = state.game
    data = base_view(state, viewer, "over" if state.is_over else "play")
    data["layout"] = list(LAYOUT)
    data["special_cells"] = [NAMES[c] for c in SPECIAL_CELLS]
    data["cells"] = {
        NAMES[c]: chr(code) for c in CELLS if chr(code := state._board[c]) in CAMP_LETTERS
    }
    data["expion"] = state.expion
    data["camp_to_move"] = state.camp_to_move
    data["holders"] = {CAMP_LETTERS[c]: game.holders[c] for c in range(len(CAMP_LETTERS))}
    data["teams"] = [
        {
            "camps": [CAMP_LETTERS[c] for c in camps],
            "players": sorted({game.holders[c] for c in camps}),
        }
        for camps in TEAM_CAMPS
    ]
    data["marbles"] = {letter: state.marbles(letter) for letter in CAMP_LETTERS}
    data["eliminated"] = [p for p in range(game.players) if state.is_eliminated(p)]
    data["first_capture"] = state.has_first_capture
    data["quiet_moves"] = state.quiet_moves
    data["quiet_limit"] = QUIET_LIMIT
    data["repetitions"] = state.repetitions
    return data
