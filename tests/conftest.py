"""Shared fixtures: the registry's games as test parameters."""

from __future__ import annotations

import ludotheque
from ludotheque.core import info


def game_configurations() -> list[tuple[str, str, int]]:
    """Every (game, variant, players) the registry declares."""
    configurations = []
    for game_id in ludotheque.games():
        facts = info(game_id)
        for variant in facts.variants:
            for players in facts.player_counts:
                configurations.append((game_id, variant, players))
    return configurations
