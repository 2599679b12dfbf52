"""What a game's package says of its place on the platform, beyond its rules: its
``presentation.json`` (optional, as every file a game ships for the pages).

- ``"lobby_rank"``: the lobby's create form opens on the game of lowest rank (the simplest to
  learn); games without one come after, in the registry's order.
- ``"arena_scores"``: by player count, the arena's scores that calibrate its bots' ratings
  (:mod:`.botratings`).

>>> lobby_default()
'pylos'
>>> presentation("pylos")["arena_scores"]["2"][0]
0.99
"""

from __future__ import annotations

import json
from functools import cache
from typing import Any

from ..core.registry import games, info

PRESENTATION = "presentation.json"


@cache
def presentation(game_id: str) -> dict[str, Any]:
    """The facts of ``game_id``'s ``presentation.json`` (empty when its package ships none)."""
    shipped = info(game_id).resource(PRESENTATION)
    facts: dict[str, Any] = json.loads(shipped.read_text("utf-8")) if shipped is not None else {}
    return facts


def lobby_default() -> str:
    """The game the lobby's create form opens on ("" when no game is registered)."""
    listed = games()
    ranked = sorted(listed, key=lambda game: (presentation(game).get("lobby_rank", float("inf")),
                                              listed.index(game)))
    return ranked[0] if ranked else ""
