"""What a Pylos reader sees: everything (Pylos hides nothing).

>>> import ludotheque
>>> view = ludotheque.load("pylos").new_state().view(None)
>>> view["reserves"], view["cells"], view["available"][:2]
([15, 15], {}, ['1a1', '1b1'])
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...core.contract import JSON, Player, base_view
from .board import CELL_COUNT, NAMES, available, bits, covered

if TYPE_CHECKING:
    from .rules import PylosState


def view(state: PylosState, viewer: Player | None) -> JSON:
    light, dark = state._balls
    occupied = light | dark
    data = base_view(state, viewer, "over" if state.is_over else "play")
    data["cells"] = {
        NAMES[c]: (0 if light >> c & 1 else 1) for c in range(CELL_COUNT) if occupied >> c & 1
    }
    data["reserves"] = [state.reserve(0), state.reserve(1)]
    data["available"] = [] if state.is_over else [NAMES[c] for c in bits(available(occupied))]
    data["free"] = [NAMES[c] for c in bits(occupied & ~covered(occupied))]
    data["repetitions"] = state.repetitions
    return data
