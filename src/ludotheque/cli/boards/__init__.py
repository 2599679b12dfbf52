"""Terminal boards, one module per game id: ``render(view, *, lang) -> RenderableType`` draws
``State.view(player)``; an optional ``details(view, *, lang)`` answers the ``info`` command."""

from __future__ import annotations

import importlib
from types import ModuleType


def board_module(game_id: str) -> ModuleType:
    """The terminal board module of ``game_id``."""
    return importlib.import_module(f"{__name__}.{game_id}")
